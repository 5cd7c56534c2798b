// The arithmetic of hotness inheritance on hand-built overlaps, and a
// randomized comparison with a brute-force reference.
#include "elastic/hotness_inheritance.h"

#include <algorithm>
#include <cmath>
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

using OwnedTables = std::vector<std::vector<OwnedInput>>;

std::vector<InputSegment> View(const std::vector<OwnedInput>& table) {
  std::vector<InputSegment> segments;
  for (const OwnedInput& in : table) {
    InputSegment s;
    s.first = in.first;
    s.last = in.last;
    s.hotness = in.hotness;
    s.units = in.units;
    segments.push_back(s);
  }
  return segments;
}

// `upper`: the tables of the compaction's level (overlapping each other if
// `upper_overlap`, as on level 0); `lower`: those of the output level.
InheritedHotness Inherit(const OwnedTables& upper, const OwnedTables& lower,
                         const std::vector<SegmentKeyRange>& outputs,
                         bool upper_overlap = false,
                         const Comparator* ucmp = BytewiseComparator()) {
  std::vector<InputLevel> levels(2);
  levels[0].tables_overlap = upper_overlap;
  for (const auto& t : upper) levels[0].tables.push_back(View(t));
  for (const auto& t : lower) levels[1].tables.push_back(View(t));
  return InheritSegmentHotness(ucmp, levels, outputs);
}

SegmentKeyRange Range(const std::string& first, const std::string& last) {
  return SegmentKeyRange{first, last};
}

void ExpectHotness(const Hotness& want, const Hotness& got) {
  EXPECT_EQ(want.absent_probes, got.absent_probes);
  EXPECT_EQ(want.accesses, got.accesses);
  EXPECT_EQ(want.last_access, got.last_access);
}

TEST(HotnessInheritanceTest, OneOverlapOneOutputCopiesTheInput) {
  const OwnedTables lower = {{
      {"a", "f", Hotness{10, 30, 500}, 3},
      {"g", "m", Hotness{1, 2, 7}, 1},
  }};
  const InheritedHotness h = Inherit({}, lower, {Range("b", "e")});
  ASSERT_EQ(1u, h.segments.size());
  ASSERT_EQ(1u, h.units.size());
  ExpectHotness(Hotness{10, 30, 500}, h.segments[0]);
  EXPECT_EQ(3, h.units[0]);
}

TEST(HotnessInheritanceTest, AnInputIsSplitAmongTheOutputsItOverlaps) {
  // One wide upper-level segment now holds three output segments: each
  // gets a third of its counts (their sum is conserved), not all of them.
  const OwnedTables upper = {{{"a", "z", Hotness{100, 200, 50}, 4}}};
  const InheritedHotness h =
      Inherit(upper, {}, {Range("a", "f"), Range("g", "m"), Range("n", "z")});
  ASSERT_EQ(3u, h.segments.size());
  for (const Hotness& seg : h.segments) {
    ExpectHotness(Hotness{33, 67, 50}, seg);  // 33.3 -> 33, 66.7 -> 67
  }
  EXPECT_EQ((std::vector<int>{4, 4, 4}), h.units);
}

TEST(HotnessInheritanceTest, DisjointTablesOfALevelAddUp) {
  // The output straddles two output-level tables: it holds keys of both.
  const OwnedTables lower = {
      {{"a", "k", Hotness{10, 20, 5}, 1}},
      {{"l", "z", Hotness{21, 40, 9}, 4}},
  };
  const InheritedHotness h = Inherit({}, lower, {Range("f", "p")});
  ExpectHotness(Hotness{31, 60, 9}, h.segments[0]);
  EXPECT_EQ(3, h.units[0]);  // mean of 1 and 4 = 2.5 -> 3
}

TEST(HotnessInheritanceTest, OverlappingLevelZeroTablesAreAveraged) {
  // Level-0 tables over the same keys saw the same probes.
  const OwnedTables upper = {
      {{"a", "z", Hotness{10, 10, 3}, 1}},
      {{"a", "z", Hotness{30, 50, 8}, 2}},
  };
  const InheritedHotness h =
      Inherit(upper, {}, {Range("c", "d")}, /*upper_overlap=*/true);
  ExpectHotness(Hotness{20, 30, 8}, h.segments[0]);
  EXPECT_EQ(2, h.units[0]);  // 1.5 -> 2
  // The same tables taken as disjoint would add up.
  const InheritedHotness sum = Inherit(upper, {}, {Range("c", "d")});
  ExpectHotness(Hotness{40, 60, 8}, sum.segments[0]);
}

TEST(HotnessInheritanceTest, TheLargerLevelEstimateWinsWithItsUnits) {
  const OwnedTables upper = {{{"a", "z", Hotness{90, 90, 700}, 6}}};
  const OwnedTables lower = {{
      {"a", "f", Hotness{50, 60, 100}, 2},
      {"g", "m", Hotness{10, 12, 200}, 1},
      {"n", "z", Hotness{30, 30, 300}, 5},  // a tie with the upper level
  }};
  const InheritedHotness h = Inherit(
      upper, lower, {Range("a", "f"), Range("g", "m"), Range("n", "z")});
  ASSERT_EQ(3u, h.segments.size());
  // The upper segment gives 30 to each output; last_access is the maximum
  // over both levels.
  ExpectHotness(Hotness{50, 60, 700}, h.segments[0]);  // output level
  ExpectHotness(Hotness{30, 30, 700}, h.segments[1]);  // upper level
  ExpectHotness(Hotness{30, 30, 700}, h.segments[2]);  // tie: output level
  EXPECT_EQ((std::vector<int>{2, 6, 5}), h.units);
}

TEST(HotnessInheritanceTest, RangesAreInclusiveAtBothEnds) {
  const OwnedTables lower = {{{"c", "e", Hotness{6, 6, 60}, 2}}};
  // Touching the input's first key, inside it, touching its last key, and
  // past it: the first three share the input.
  const InheritedHotness h = Inherit(
      {}, lower,
      {Range("a", "c"), Range("d", "d"), Range("e", "g"), Range("h", "z")});
  ASSERT_EQ(4u, h.segments.size());
  for (int i = 0; i < 3; ++i) ExpectHotness(Hotness{2, 2, 60}, h.segments[i]);
  ExpectHotness(Hotness{}, h.segments[3]);
  EXPECT_EQ((std::vector<int>{2, 2, 2, -1}), h.units);
}

TEST(HotnessInheritanceTest, NoOverlapStartsColdWithoutATarget) {
  const InheritedHotness h =
      Inherit({}, {}, {Range("a", "b"), Range("c", "d")});
  ASSERT_EQ(2u, h.segments.size());
  for (const Hotness& seg : h.segments) ExpectHotness(Hotness{}, seg);
  EXPECT_EQ((std::vector<int>{-1, -1}), h.units);
  EXPECT_EQ(-1, h.UnitTarget(0));
}

TEST(HotnessInheritanceTest, UnknownUnitsAreLeftOutOfTheUnitMean) {
  const OwnedTables lower = {{
      {"a", "b", Hotness{2, 2, 1}, -1},
      {"c", "d", Hotness{4, 4, 2}, 5},
      {"e", "f", Hotness{6, 6, 3}, -1},
  }};
  InheritedHotness h = Inherit({}, lower, {Range("a", "f")});
  ExpectHotness(Hotness{12, 12, 3}, h.segments[0]);  // hotness: all three
  EXPECT_EQ(5, h.units[0]);                          // units: one known

  const OwnedTables unknown = {{{"a", "b", Hotness{2, 2, 1}, -1}}};
  h = Inherit({}, unknown, {Range("a", "z")});
  ExpectHotness(Hotness{2, 2, 1}, h.segments[0]);
  EXPECT_EQ(-1, h.units[0]);
}

TEST(HotnessInheritanceTest, HugeCountsSaturate) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  const OwnedTables lower = {
      {{"a", "k", Hotness{max, max, max}, 16}},
      {{"l", "z", Hotness{max - 1, max, max - 5}, 16}},
  };
  const InheritedHotness h = Inherit({}, lower, {Range("c", "n")});
  ExpectHotness(Hotness{max, max, max}, h.segments[0]);
  EXPECT_EQ(16, h.units[0]);
}

TEST(HotnessInheritanceTest, NeighboursSharingAnEndKeyBothCount) {
  // Ranges derived from index separators: neighbours share their bound.
  const OwnedTables lower = {{
      {"a", "k", Hotness{2, 2, 1}, 1},
      {"k", "t", Hotness{9, 9, 9}, 3},
      {"t", "z", Hotness{20, 20, 4}, 6},
  }};
  const InheritedHotness h =
      Inherit({}, lower, {Range("b", "j"), Range("k", "k"), Range("l", "s")});
  // [a, k] spreads over the first two outputs (1 each), [k, t] over the
  // last two (4.5 each).
  ExpectHotness(Hotness{1, 1, 1}, h.segments[0]);
  ExpectHotness(Hotness{6, 6, 9}, h.segments[1]);  // 1 + 4.5 = 5.5 -> 6
  ExpectHotness(Hotness{5, 5, 9}, h.segments[2]);  // 4.5 -> 5
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
  const OwnedTables lower = {{
      {"z", "z", Hotness{1, 1, 1}, 1},
      {"y", "w", Hotness{7, 7, 7}, 4},
      {"v", "a", Hotness{3, 3, 3}, 2},
  }};
  const InheritedHotness h =
      Inherit({}, lower, {Range("y", "w")}, false, &reverse);
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
InheritedHotness Reference(const OwnedTables& upper, bool upper_overlap,
                           const OwnedTables& lower,
                           const std::vector<SegmentKeyRange>& outputs) {
  auto overlaps = [](const std::string& a1, const std::string& a2,
                     const std::string& b1,
                     const std::string& b2) { return !(a1 > b2 || b1 > a2); };
  auto round = [](double x) {
    return x > 0 ? static_cast<uint64_t>(std::floor(x + 0.5)) : uint64_t{0};
  };
  InheritedHotness result;
  for (const SegmentKeyRange& out : outputs) {
    Hotness best;
    int best_units = -1;
    double best_absent = -1;
    uint64_t last = 0;
    bool found = false;
    for (int level = 0; level < 2; ++level) {
      const OwnedTables& tables = level == 0 ? upper : lower;
      double absent = 0, accesses = 0;
      uint64_t hit_tables = 0, units = 0, known = 0;
      for (const auto& table : tables) {
        double t_absent = 0, t_accesses = 0;
        bool hit = false;
        for (const OwnedInput& in : table) {
          if (!overlaps(in.first, in.last, out.first, out.last)) continue;
          int spread = 0;
          for (const SegmentKeyRange& o : outputs) {
            if (overlaps(in.first, in.last, o.first, o.last)) ++spread;
          }
          t_absent += static_cast<double>(in.hotness.absent_probes) / spread;
          t_accesses += static_cast<double>(in.hotness.accesses) / spread;
          hit = true;
          last = std::max(last, in.hotness.last_access);
          if (in.units >= 0) {
            units += static_cast<uint64_t>(in.units);
            ++known;
          }
        }
        if (hit) {
          absent += t_absent;
          accesses += t_accesses;
          ++hit_tables;
        }
      }
      if (hit_tables == 0) continue;
      if (level == 0 && upper_overlap) {
        absent /= hit_tables;
        accesses /= hit_tables;
      }
      if (absent >= best_absent) {
        best_absent = absent;
        best.absent_probes = round(absent);
        best.accesses = round(accesses);
        best_units =
            known == 0 ? -1 : static_cast<int>((units + known / 2) / known);
        found = true;
      }
    }
    if (found) best.last_access = last;
    result.segments.push_back(best);
    result.units.push_back(best_units);
  }
  return result;
}

std::string KeyOf(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%05d", i);
  return buf;
}

// Up to `max_tables` tables over keys [0, 1000), each cut into disjoint
// segments (some sharing an end key with the next).
OwnedTables RandomTables(Random* rnd, int max_tables) {
  OwnedTables tables(rnd->Uniform(max_tables + 1));
  for (auto& table : tables) {
    int k = static_cast<int>(rnd->Uniform(200));
    while (k < 1000) {
      const int end = k + static_cast<int>(rnd->Uniform(150));
      OwnedInput in;
      in.first = KeyOf(k);
      in.last = KeyOf(std::min(end, 999));
      in.hotness.accesses = rnd->Uniform(1000);
      in.hotness.absent_probes =
          rnd->Uniform(static_cast<int>(in.hotness.accesses) + 1);
      in.hotness.last_access = rnd->Uniform(100000);
      in.units = static_cast<int>(rnd->Uniform(8)) - 1;
      table.push_back(in);
      k = rnd->OneIn(3) ? end : end + 1 + static_cast<int>(rnd->Uniform(40));
    }
  }
  return tables;
}

TEST(HotnessInheritanceTest, MatchesABruteForceReference) {
  Random rnd(test::RandomSeed());
  for (int trial = 0; trial < 300; ++trial) {
    const bool upper_overlap = rnd.OneIn(2);
    const OwnedTables upper = RandomTables(&rnd, 4);
    const OwnedTables lower = RandomTables(&rnd, 3);
    // Sorted, disjoint output segments.
    std::vector<SegmentKeyRange> outputs;
    int k = static_cast<int>(rnd.Uniform(50));
    while (k < 1100) {
      const int end = k + static_cast<int>(rnd.Uniform(120));
      outputs.push_back(Range(KeyOf(k), KeyOf(end)));
      k = end + 1 + static_cast<int>(rnd.Uniform(5));
    }
    const InheritedHotness want =
        Reference(upper, upper_overlap, lower, outputs);
    const InheritedHotness got = Inherit(upper, lower, outputs, upper_overlap);
    ASSERT_EQ(want.segments.size(), got.segments.size());
    ASSERT_EQ(want.units, got.units) << "trial " << trial;
    for (size_t i = 0; i < want.segments.size(); ++i) {
      SCOPED_TRACE("trial " + std::to_string(trial) + " output " +
                   std::to_string(i));
      ExpectHotness(want.segments[i], got.segments[i]);
    }
  }
}

TEST(HotnessInheritanceTest, OneLevelConservesItsCounts) {
  // With a single input level of disjoint tables, the outputs together get
  // what the overlapping inputs had (up to rounding, half a count each).
  Random rnd(test::RandomSeed() + 1);
  for (int trial = 0; trial < 100; ++trial) {
    OwnedTables lower = RandomTables(&rnd, 1);
    if (lower.empty()) continue;
    std::vector<SegmentKeyRange> outputs;
    for (int k = 0; k < 1000; k += 37) {
      outputs.push_back(Range(KeyOf(k), KeyOf(std::min(k + 36, 999))));
    }
    uint64_t in_sum = 0;
    for (const OwnedInput& in : lower[0]) in_sum += in.hotness.absent_probes;
    const InheritedHotness h = Inherit({}, lower, outputs);
    uint64_t out_sum = 0;
    for (const Hotness& seg : h.segments) out_sum += seg.absent_probes;
    const double slack = 0.5 * outputs.size();
    EXPECT_NEAR(static_cast<double>(in_sum), static_cast<double>(out_sum),
                slack)
        << "trial " << trial;
  }
}

}  // namespace
}  // namespace leveldb
