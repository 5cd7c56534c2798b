// The arithmetic of hotness inheritance on hand-built overlaps, and a
// randomized comparison with a brute-force reference.
#include "util/hotness_inheritance.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace {

using Hotness = MultiQueue::Hotness;

// Input segments own their key strings; InputSegment only points at them.
struct OwnedInput {
  std::string first;
  std::string last;
  Hotness hotness;
  int units;
};

std::vector<std::vector<InputSegment>> View(
    const std::vector<std::vector<OwnedInput>>& tables) {
  std::vector<std::vector<InputSegment>> view;
  for (const auto& table : tables) {
    std::vector<InputSegment> segments;
    for (const OwnedInput& in : table) {
      InputSegment s;
      s.first = in.first;
      s.last = in.last;
      s.hotness = in.hotness;
      s.units = in.units;
      segments.push_back(s);
    }
    view.push_back(segments);
  }
  return view;
}

InheritedHotness Inherit(const std::vector<std::vector<OwnedInput>>& tables,
                         const std::vector<SegmentKeyRange>& outputs,
                         const Comparator* ucmp = BytewiseComparator()) {
  return InheritSegmentHotness(ucmp, View(tables), outputs);
}

SegmentKeyRange Range(const std::string& first, const std::string& last) {
  return SegmentKeyRange{first, last};
}

void ExpectHotness(const Hotness& want, const Hotness& got) {
  EXPECT_EQ(want.absent_probes, got.absent_probes);
  EXPECT_EQ(want.accesses, got.accesses);
  EXPECT_EQ(want.last_access, got.last_access);
}

TEST(HotnessInheritanceTest, OneOverlapCopiesTheInput) {
  const std::vector<std::vector<OwnedInput>> tables = {{
      {"a", "f", Hotness{10, 30, 500}, 3},
      {"g", "m", Hotness{1, 2, 7}, 1},
  }};
  const InheritedHotness h = Inherit(tables, {Range("b", "e")});
  ASSERT_EQ(1u, h.segments.size());
  ASSERT_EQ(1u, h.units.size());
  ExpectHotness(Hotness{10, 30, 500}, h.segments[0]);
  EXPECT_EQ(3, h.units[0]);
}

TEST(HotnessInheritanceTest, MeanOfCountsMaxOfLastAccessMeanOfUnits) {
  // The output [e, p] overlaps three segments of two tables (a level-0
  // table and a level-1 table), not the others.
  const std::vector<std::vector<OwnedInput>> tables = {
      {
          {"a", "d", Hotness{1000, 1000, 9999}, 6},  // ends before e
          {"e", "h", Hotness{9, 12, 100}, 4},
          {"i", "z", Hotness{0, 0, 0}, 0},
      },
      {
          {"k", "p", Hotness{4, 8, 300}, 1},
          {"q", "t", Hotness{500, 500, 5000}, 6},  // starts after p
      },
  };
  const InheritedHotness h = Inherit(tables, {Range("e", "p")});
  // absent (9 + 0 + 4) / 3 = 4.33 -> 4; accesses (12 + 0 + 8) / 3 = 6.67
  // -> 7; last access max(100, 0, 300); units (4 + 0 + 1) / 3 = 1.67 -> 2.
  ExpectHotness(Hotness{4, 7, 300}, h.segments[0]);
  EXPECT_EQ(2, h.units[0]);
}

TEST(HotnessInheritanceTest, HalvesRoundUp) {
  const std::vector<std::vector<OwnedInput>> tables = {{
      {"a", "b", Hotness{1, 1, 5}, 1},
      {"c", "d", Hotness{2, 4, 3}, 2},
  }};
  const InheritedHotness h = Inherit(tables, {Range("a", "d")});
  ExpectHotness(Hotness{2, 3, 5}, h.segments[0]);  // 1.5 -> 2, 2.5 -> 3
  EXPECT_EQ(2, h.units[0]);                        // 1.5 -> 2
}

TEST(HotnessInheritanceTest, RangesAreInclusiveAtBothEnds) {
  const std::vector<std::vector<OwnedInput>> tables = {{
      {"c", "e", Hotness{6, 6, 60}, 2},
  }};
  // Touching the input's first key, its last key, or neither.
  const InheritedHotness h =
      Inherit(tables, {Range("a", "c"), Range("e", "g"), Range("a", "b"),
                       Range("f", "z"), Range("d", "d")});
  ASSERT_EQ(5u, h.segments.size());
  ExpectHotness(Hotness{6, 6, 60}, h.segments[0]);
  ExpectHotness(Hotness{6, 6, 60}, h.segments[1]);
  ExpectHotness(Hotness{}, h.segments[2]);
  ExpectHotness(Hotness{}, h.segments[3]);
  ExpectHotness(Hotness{6, 6, 60}, h.segments[4]);
  EXPECT_EQ((std::vector<int>{2, 2, -1, -1, 2}), h.units);
}

TEST(HotnessInheritanceTest, NoOverlapStartsColdWithoutATarget) {
  const InheritedHotness h = Inherit({}, {Range("a", "b"), Range("c", "d")});
  ASSERT_EQ(2u, h.segments.size());
  for (const Hotness& seg : h.segments) ExpectHotness(Hotness{}, seg);
  EXPECT_EQ((std::vector<int>{-1, -1}), h.units);
  EXPECT_EQ(-1, h.UnitTarget(0));
}

TEST(HotnessInheritanceTest, UnknownUnitsAreLeftOutOfTheUnitMean) {
  const std::vector<std::vector<OwnedInput>> tables = {{
      {"a", "b", Hotness{2, 2, 1}, -1},
      {"c", "d", Hotness{4, 4, 2}, 5},
      {"e", "f", Hotness{6, 6, 3}, -1},
  }};
  InheritedHotness h = Inherit(tables, {Range("a", "f")});
  ExpectHotness(Hotness{4, 4, 3}, h.segments[0]);  // hotness: all three
  EXPECT_EQ(5, h.units[0]);                        // units: only one known

  const std::vector<std::vector<OwnedInput>> unknown = {{
      {"a", "b", Hotness{2, 2, 1}, -1},
  }};
  h = Inherit(unknown, {Range("a", "z")});
  ExpectHotness(Hotness{2, 2, 1}, h.segments[0]);
  EXPECT_EQ(-1, h.units[0]);
}

TEST(HotnessInheritanceTest, HugeCountsDoNotOverflow) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  const std::vector<std::vector<OwnedInput>> tables = {
      {{"a", "z", Hotness{max, max, max}, 16}},
      {{"a", "z", Hotness{max - 1, max, max - 5}, 16}},
      {{"a", "z", Hotness{max, max, 0}, 16}},
  };
  const InheritedHotness h = Inherit(tables, {Range("m", "n")});
  ExpectHotness(Hotness{max, max, max}, h.segments[0]);  // 3max-1 / 3 -> max
  EXPECT_EQ(16, h.units[0]);
}

TEST(HotnessInheritanceTest, NeighboursSharingAnEndKeyBothCount) {
  // Ranges derived from index separators: neighbours share their bound.
  const std::vector<std::vector<OwnedInput>> tables = {{
      {"a", "k", Hotness{2, 2, 1}, 1},
      {"k", "t", Hotness{8, 8, 9}, 3},
      {"t", "z", Hotness{20, 20, 4}, 6},
  }};
  const InheritedHotness h =
      Inherit(tables, {Range("b", "j"), Range("k", "k"), Range("l", "s")});
  ExpectHotness(Hotness{2, 2, 1}, h.segments[0]);
  ExpectHotness(Hotness{5, 5, 9}, h.segments[1]);
  ExpectHotness(Hotness{8, 8, 9}, h.segments[2]);
  EXPECT_EQ((std::vector<int>{1, 2, 3}), h.units);
}

TEST(HotnessInheritanceTest, UsesTheGivenComparator) {
  // Under a reversed order, "z" < "a": the table's segments are in that
  // order, and the output [y, w] overlaps only the middle one.
  class Reverse : public Comparator {
   public:
    int Compare(const Slice& a, const Slice& b) const override {
      return BytewiseComparator()->Compare(b, a);
    }
    const char* Name() const override { return "test.Reverse"; }
    void FindShortestSeparator(std::string*, const Slice&) const override {}
    void FindShortSuccessor(std::string*) const override {}
  };
  Reverse reverse;
  const std::vector<std::vector<OwnedInput>> tables = {{
      {"z", "z", Hotness{1, 1, 1}, 1},
      {"y", "w", Hotness{7, 7, 7}, 4},
      {"v", "a", Hotness{3, 3, 3}, 2},
  }};
  const InheritedHotness h = Inherit(tables, {Range("y", "w")}, &reverse);
  ExpectHotness(Hotness{7, 7, 7}, h.segments[0]);
  EXPECT_EQ(4, h.units[0]);
}

TEST(HotnessInheritanceTest, EqualityTreatsMissingUnitsAsNoTargets) {
  InheritedHotness a;
  a.segments = {Hotness{1, 2, 3}, Hotness{4, 5, 6}};
  InheritedHotness b = a;
  b.units = {-1, -1};
  EXPECT_TRUE(a == b);
  b.units = {-1, 2};
  EXPECT_TRUE(a != b);
  a.units = {-7, 2};  // any negative value means "no target"
  EXPECT_TRUE(a == b);
  a.segments[1].last_access = 7;
  EXPECT_TRUE(a != b);
  a.segments.pop_back();
  EXPECT_TRUE(a != b);
}

// The same definition, computed the slow and obvious way.
InheritedHotness Reference(const std::vector<std::vector<OwnedInput>>& tables,
                           const std::vector<SegmentKeyRange>& outputs) {
  InheritedHotness result;
  for (const SegmentKeyRange& out : outputs) {
    uint64_t n = 0, absent = 0, accesses = 0, last = 0, units = 0, known = 0;
    for (const auto& table : tables) {
      for (const OwnedInput& in : table) {
        if (in.first > out.last || in.last < out.first) continue;
        ++n;
        absent += in.hotness.absent_probes;
        accesses += in.hotness.accesses;
        last = std::max(last, in.hotness.last_access);
        if (in.units >= 0) {
          units += static_cast<uint64_t>(in.units);
          ++known;
        }
      }
    }
    Hotness h;
    if (n > 0) {
      h.absent_probes = (absent + n / 2) / n;
      h.accesses = (accesses + n / 2) / n;
      h.last_access = last;
    }
    result.segments.push_back(h);
    result.units.push_back(
        known == 0 ? -1 : static_cast<int>((units + known / 2) / known));
  }
  return result;
}

std::string KeyOf(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%05d", i);
  return buf;
}

TEST(HotnessInheritanceTest, MatchesABruteForceReference) {
  Random rnd(test::RandomSeed());
  for (int trial = 0; trial < 300; ++trial) {
    // Up to 6 input tables over keys [0, 1000), each cut into disjoint
    // segments (some sharing an end key with the next), and sorted,
    // disjoint output segments.
    std::vector<std::vector<OwnedInput>> tables(1 + rnd.Uniform(6));
    for (auto& table : tables) {
      int k = static_cast<int>(rnd.Uniform(200));
      while (k < 1000) {
        const int end = k + static_cast<int>(rnd.Uniform(150));
        OwnedInput in;
        in.first = KeyOf(k);
        in.last = KeyOf(std::min(end, 999));
        in.hotness.accesses = rnd.Uniform(1000);
        in.hotness.absent_probes =
            rnd.Uniform(static_cast<int>(in.hotness.accesses) + 1);
        in.hotness.last_access = rnd.Uniform(100000);
        in.units = static_cast<int>(rnd.Uniform(8)) - 1;
        table.push_back(in);
        k = rnd.OneIn(3) ? end : end + 1 + static_cast<int>(rnd.Uniform(40));
      }
    }
    std::vector<SegmentKeyRange> outputs;
    int k = static_cast<int>(rnd.Uniform(50));
    while (k < 1100) {
      const int end = k + static_cast<int>(rnd.Uniform(120));
      outputs.push_back(Range(KeyOf(k), KeyOf(end)));
      k = end + 1 + static_cast<int>(rnd.Uniform(5));
    }
    const InheritedHotness want = Reference(tables, outputs);
    const InheritedHotness got = Inherit(tables, outputs);
    ASSERT_EQ(want.segments.size(), got.segments.size());
    ASSERT_EQ(want.units, got.units) << "trial " << trial;
    for (size_t i = 0; i < want.segments.size(); ++i) {
      SCOPED_TRACE("trial " + std::to_string(trial) + " output " +
                   std::to_string(i));
      ExpectHotness(want.segments[i], got.segments[i]);
    }
  }
}

}  // namespace
}  // namespace leveldb
