// Ribbon filter units: the GF(2) band solver, the unit encoding, no false
// negatives for any prefix of units, exact per-plane false-positive rates,
// the retry path when banding fails, and malformed units.
#include "table/elastic/ribbon_unit.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "table/elastic/limits.h"
#include "tests/key_hashes.h"
#include "util/coding.h"
#include "util/gf2_band.h"
#include "util/hash64.h"

namespace leveldb {
namespace {

using test::kAbsentTag;
using test::KeyHashes;
using test::KeyHashOf;
using test::kPresentTag;

std::vector<std::string> Build(const std::vector<uint64_t>& hashes,
                               const RibbonShape& shape,
                               RibbonBuildInfo* info = nullptr) {
  std::vector<std::string> units;
  EXPECT_TRUE(
      BuildRibbonUnits(hashes.data(), hashes.size(), shape, &units, info).ok());
  return units;
}

std::vector<RibbonUnitView> Views(const std::vector<std::string>& units) {
  std::vector<RibbonUnitView> views(units.size());
  for (size_t u = 0; u < units.size(); ++u) {
    EXPECT_TRUE(DecodeRibbonUnit(units[u], &views[u])) << u;
  }
  return views;
}

// Units 0, 1, ... that a key passes before the first that rejects it.
int LeadingMatches(const std::vector<RibbonUnitView>& views, uint64_t h) {
  int k = 0;
  while (k < static_cast<int>(views.size()) &&
         RibbonUnitViewMayMatch(views[k], h)) {
    ++k;
  }
  return k;
}

// Every key passes every unit, i.e. every prefix of units keeps it; the
// in-place probe agrees with the view.
void ExpectAllFound(const std::vector<uint64_t>& hashes,
                    const std::vector<std::string>& units) {
  const std::vector<RibbonUnitView> views = Views(units);
  size_t missed = 0;
  for (uint64_t h : hashes) {
    missed += LeadingMatches(views, h) != static_cast<int>(views.size());
  }
  EXPECT_EQ(0u, missed) << hashes.size() << " keys";
  for (size_t i = 0; i < hashes.size(); i += 97) {
    for (const std::string& unit : units) {
      ASSERT_TRUE(RibbonUnitMayMatch(unit, hashes[i]));
    }
  }
}

TEST(Gf2BandTest, SolvesSmallSystemExactly) {
  // x0 ^ x1 = 1, x1 = 1, x2 ^ x3 = 0, x3 = 1 (plane 0); plane 1 all zero.
  Gf2Band<uint64_t> band(128);
  EXPECT_TRUE(band.Add(0, 0x3, 1));
  EXPECT_TRUE(band.Add(1, 0x1, 1));
  EXPECT_TRUE(band.Add(2, 0x3, 0));
  EXPECT_TRUE(band.Add(3, 0x1, 1));
  EXPECT_TRUE(band.Add(0, 0x3, 1));  // a duplicate is redundant
  uint64_t solution[2][2] = {{1, 1}, {1, 1}};
  int calls = 0;
  band.BackSubstitute(2, [&](int plane, uint32_t block, uint64_t word) {
    ASSERT_LT(block, 2u);
    solution[plane][block] = word;
    ++calls;
  });
  EXPECT_EQ(4, calls);
  EXPECT_EQ(0xEu, solution[0][0]);  // x1 = x2 = x3 = 1, x0 = 0
  EXPECT_EQ(0u, solution[0][1]);
  EXPECT_EQ(0u, solution[1][0]);
  EXPECT_EQ(0u, solution[1][1]);
  // x0 ^ x1 = 0 contradicts x0 ^ x1 = 1.
  EXPECT_FALSE(band.Add(0, 0x3, 0));
}

TEST(Gf2BandTest, WideRowsCarryAcrossWords) {
  Gf2Band<Gf2Row128> band(384);
  const Gf2Row128 row = (Gf2Row128{1} << 127) | 1;  // x[s] ^ x[s + 127]
  EXPECT_TRUE(band.Add(10, row, 1));
  EXPECT_TRUE(band.Add(137, 1, 1));  // x137 = 1, so x10 = 0
  std::vector<uint64_t> words(6, 1);
  band.BackSubstitute(
      1, [&](int, uint32_t block, uint64_t word) { words[block] = word; });
  // Only x137 is 1: bit 9 of block 2.
  EXPECT_EQ((std::vector<uint64_t>{0, 0, uint64_t{1} << 9, 0, 0, 0}), words);
}

TEST(RibbonUnitTest, TrailerRoundTrip) {
  for (int planes : {1, 4, 7, 32, 64}) {
    for (int unit :
         {0, std::min(kMaxRibbonUnits, kMaxRibbonPlanes / planes) - 1}) {
      for (uint32_t blocks : {0u, 2u, 131u}) {
        const RibbonUnitTrailer in{planes, unit, 200, blocks};
        std::string encoded(8 * static_cast<size_t>(blocks) * planes, 'x');
        in.EncodeTo(&encoded);
        ASSERT_EQ(8 * static_cast<size_t>(blocks) * planes + 8, encoded.size());
        RibbonUnitTrailer out;
        ASSERT_TRUE(RibbonUnitTrailer::DecodeFrom(encoded, &out));
        EXPECT_EQ(planes, out.planes);
        EXPECT_EQ(unit, out.unit_index);
        EXPECT_EQ(200, out.attempt);
        EXPECT_EQ(blocks, out.blocks);
        // One byte more or less no longer fits the trailer.
        encoded.push_back('x');
        EXPECT_FALSE(RibbonUnitTrailer::DecodeFrom(encoded, &out));
      }
    }
  }
  std::string largest(8 * size_t{kMaxRibbonBlocks}, '\0');
  RibbonUnitTrailer{1, 63, 0, kMaxRibbonBlocks}.EncodeTo(&largest);
  RibbonUnitTrailer out;
  ASSERT_TRUE(RibbonUnitTrailer::DecodeFrom(largest, &out));
  EXPECT_EQ(kMaxRibbonBlocks, out.blocks);
  EXPECT_EQ(63, out.unit_index);
}

TEST(RibbonUnitTest, TrailerRejectsBadFields) {
  RibbonUnitTrailer out;
  auto decodes = [&](const RibbonUnitTrailer& t, size_t body) {
    std::string encoded(body, '\0');
    t.EncodeTo(&encoded);
    return RibbonUnitTrailer::DecodeFrom(encoded, &out);
  };
  EXPECT_TRUE(decodes({4, 0, 0, 2}, 64));
  EXPECT_FALSE(decodes({0, 0, 0, 2}, 0));   // no planes
  EXPECT_FALSE(decodes({65, 0, 0, 0}, 0));  // too many planes
  EXPECT_FALSE(decodes({8, 64, 0, 0}, 0));  // planes 512..519
  EXPECT_TRUE(decodes({8, 63, 0, 0}, 0));   // planes 504..511
  EXPECT_TRUE(decodes({4, 16, 0, 0}, 0));   // planes 64..67
  EXPECT_FALSE(decodes({1, 64, 0, 0}, 0));  // unit 64
  EXPECT_FALSE(decodes({4, 0, 0, 1}, 32));  // one block
  EXPECT_FALSE(decodes({4, 0, 0, 2}, 56));  // size does not fit
  EXPECT_FALSE(decodes({1, 0, 0, kMaxRibbonBlocks + 1},
                       8 * (size_t{kMaxRibbonBlocks} + 1)));
  std::string bad_version(64, '\0');
  RibbonUnitTrailer{4, 0, 0, 2}.EncodeTo(&bad_version);
  bad_version[64] = 2;
  EXPECT_FALSE(RibbonUnitTrailer::DecodeFrom(bad_version, &out));
  EXPECT_FALSE(RibbonUnitTrailer::DecodeFrom(Slice("1234567"), &out));
}

TEST(RibbonUnitTest, ShapeLimits) {
  EXPECT_TRUE(CheckRibbonShape(8192, {4, 6}).ok());
  EXPECT_TRUE(CheckRibbonShape(0, {4, 16}).ok());
  EXPECT_TRUE(CheckRibbonShape(1, {64, 1}).ok());
  EXPECT_TRUE(CheckRibbonShape(1, {1, 64}).ok());
  EXPECT_TRUE(CheckRibbonShape(kMaxRibbonSegmentKeys, {4, 6}).ok());
  EXPECT_TRUE(CheckRibbonShape(1, {0, 6}).IsInvalidArgument());
  EXPECT_TRUE(CheckRibbonShape(1, {4, 0}).IsInvalidArgument());
  EXPECT_TRUE(CheckRibbonShape(1, {5, 13}).ok());   // 65 planes
  EXPECT_TRUE(CheckRibbonShape(1, {32, 16}).ok());  // the largest options
  EXPECT_TRUE(CheckRibbonShape(1, {64, 8}).ok());
  EXPECT_TRUE(CheckRibbonShape(1, {64, 9}).IsInvalidArgument());
  EXPECT_TRUE(CheckRibbonShape(1, {1, 65}).IsInvalidArgument());
  EXPECT_TRUE(CheckRibbonShape(1, {65, 1}).IsInvalidArgument());
  EXPECT_TRUE(CheckRibbonShape(1, {-1, 6}).IsInvalidArgument());
  EXPECT_TRUE(
      CheckRibbonShape(kMaxRibbonSegmentKeys + 1, {4, 6}).IsInvalidArgument());
  // A rejected build leaves the output as it was.
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 10);
  std::vector<std::string> units = {"keep"};
  EXPECT_TRUE(BuildRibbonUnits(hashes.data(), hashes.size(), {64, 9}, &units)
                  .IsInvalidArgument());
  ASSERT_EQ(1u, units.size());
  EXPECT_EQ("keep", units[0]);
  EXPECT_FALSE(
      BuildRibbonUnitsOnce(hashes.data(), hashes.size(), {4, 6}, 1, 0, &units));
  EXPECT_EQ("keep", units[0]);
}

TEST(RibbonUnitTest, SizesFollowTheAttemptRule) {
  EXPECT_EQ(2u, RibbonBlocks(0, 0));
  EXPECT_EQ(2u, RibbonBlocks(1, 0));
  EXPECT_EQ(2u, RibbonBlocks(120, 0));
  EXPECT_EQ(3u, RibbonBlocks(121, 0));  // 8 spare slots at least
  // n + n * (floor(log2 n) - 3) * 19 / 8192 slots, in whole blocks.
  EXPECT_EQ((8192u + 190 + 63) / 64, RibbonBlocks(8192, 0));
  EXPECT_EQ((65536u + 1976 + 63) / 64, RibbonBlocks(65536, 0));
  for (size_t n : {size_t{0}, size_t{100}, size_t{8192}, size_t{100000}}) {
    const uint32_t base = RibbonBlocks(n, 0);
    EXPECT_EQ(base, RibbonBlocks(n, kRibbonAttemptsPerSize - 1));
    EXPECT_GT(RibbonBlocks(n, kRibbonAttemptsPerSize), base);
    EXPECT_LT(RibbonBlocks(n, kRibbonAttempts - 1), 2 * base + 16);
    EXPECT_LE(RibbonBlocks(n, kRibbonAttempts - 1), kMaxRibbonBlocks);
    // Attempts out of range count as the nearest valid one.
    EXPECT_EQ(base, RibbonBlocks(n, -1));
    EXPECT_EQ(RibbonBlocks(n, kRibbonAttempts - 1), RibbonBlocks(n, 100000));
    EXPECT_EQ(8 * 4 * base + 8, RibbonUnitSize(n, 4));
    EXPECT_TRUE(RibbonUnitSizeMatches(RibbonUnitSize(n, 4), n, 4));
    EXPECT_TRUE(RibbonUnitSizeMatches(8, n, 4));
    const uint32_t grown = RibbonBlocks(n, kRibbonAttempts - 1);
    EXPECT_TRUE(RibbonUnitSizeMatches(8 * 4 * grown + 8, n, 4));
    EXPECT_FALSE(RibbonUnitSizeMatches(8 * 4 * grown + 8 + 32, n, 4));
    EXPECT_FALSE(RibbonUnitSizeMatches(RibbonUnitSize(n, 4) + 1, n, 4));
    EXPECT_FALSE(RibbonUnitSizeMatches(RibbonUnitSize(n, 4), n, 3));
  }
  EXPECT_LE(RibbonBlocks(kMaxRibbonSegmentKeys, kRibbonAttempts - 1),
            kMaxRibbonBlocks);
  EXPECT_FALSE(RibbonUnitSizeMatches(8, kMaxRibbonSegmentKeys + 1, 4));
  EXPECT_FALSE(RibbonUnitSizeMatches(8, 10, 0));
}

TEST(RibbonUnitTest, UnitsCarryTheirPlanes) {
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 1000);
  RibbonBuildInfo info;
  const std::vector<std::string> units = Build(hashes, {4, 6}, &info);
  ASSERT_EQ(6u, units.size());
  ASSERT_GE(info.blocks, 2u);
  for (int u = 0; u < 6; ++u) {
    EXPECT_EQ(8 * 4 * info.blocks + 8, units[u].size());
    RibbonUnitView view;
    ASSERT_TRUE(DecodeRibbonUnit(units[u], &view));
    EXPECT_EQ(4, view.planes);
    EXPECT_EQ(4 * u, view.first_plane);
    EXPECT_EQ(info.attempt, view.attempt);
    EXPECT_EQ(info.blocks, view.blocks);
    EXPECT_EQ(units[u].data(), view.words);
  }
  // Units differ (distinct planes), and rebuilding is deterministic.
  EXPECT_NE(units[0].substr(0, 64), units[1].substr(0, 64));
  EXPECT_EQ(units, Build(hashes, {4, 6}));
}

TEST(RibbonUnitTest, EveryKeyFoundSmallSegments) {
  for (size_t n = 0; n <= 300; ++n) {
    const std::vector<uint64_t> hashes = KeyHashes(kPresentTag + n, n);
    ExpectAllFound(hashes, Build(hashes, {4, 6}));
    if (HasFailure()) return;
  }
}

TEST(RibbonUnitTest, EveryKeyFoundAnyShape) {
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 5000);
  for (RibbonShape shape :
       {RibbonShape{1, 64}, RibbonShape{64, 1}, RibbonShape{4, 16},
        RibbonShape{7, 3}, RibbonShape{32, 2}, RibbonShape{5, 16},
        RibbonShape{32, 16}, RibbonShape{64, 8}}) {
    const std::vector<std::string> units = Build(hashes, shape);
    ASSERT_EQ(static_cast<size_t>(shape.units), units.size());
    ExpectAllFound(hashes, units);
  }
}

TEST(RibbonUnitTest, EveryKeyFoundLargeSegments) {
  for (size_t n : {size_t{1023}, size_t{8192}, size_t{65537},
                   size_t{kMaxRibbonSegmentKeys}}) {
    const std::vector<uint64_t> hashes = KeyHashes(kAbsentTag + n, n);
    RibbonBuildInfo info;
    const std::vector<std::string> units = Build(hashes, {4, 6}, &info);
    EXPECT_GE(info.blocks, RibbonBlocks(n, 0)) << n;
    ExpectAllFound(hashes, units);
  }
}

TEST(RibbonUnitTest, Duplicates) {
  // Each key three times, in different places.
  const std::vector<uint64_t> once = KeyHashes(kPresentTag, 3000);
  std::vector<uint64_t> hashes;
  for (int copy = 0; copy < 3; ++copy) {
    for (size_t i = 0; i < once.size(); ++i) {
      hashes.push_back(once[copy == 1 ? once.size() - 1 - i : i]);
    }
  }
  ExpectAllFound(hashes, Build(hashes, {4, 6}));
  // One key 5000 times: one equation, always solvable at once.
  const std::vector<uint64_t> same(5000, KeyHashOf(kPresentTag, 7));
  RibbonBuildInfo info;
  const std::vector<std::string> units = Build(same, {4, 6}, &info);
  EXPECT_EQ(0, info.attempt);
  ExpectAllFound(same, units);
}

// Measured false-positive rate of the first j planes for j = 1..12, with
// one plane per unit so that each prefix of planes is a prefix of units.
// An absent key passes j planes with probability exactly 2^-j, and keys are
// independent, so the count is binomial: with N = 2^23 absent keys the
// rarest case (j = 12) expects N * 2^-12 = 2048 passes, a relative standard
// deviation of 1 / sqrt(2048) = 2.2%, which makes the 10% tolerance 4.5
// standard deviations (smaller j are tighter still).
TEST(RibbonUnitTest, FalsePositiveRateHalvesPerPlane) {
  constexpr int kPlanes = 12;
  constexpr size_t kAbsent = size_t{1} << 23;
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 8192);
  const std::vector<std::string> units = Build(hashes, {1, kPlanes});
  const std::vector<RibbonUnitView> views = Views(units);  // points into units
  std::vector<uint64_t> passed(kPlanes + 1, 0);
  for (size_t i = 0; i < kAbsent; ++i) {
    ++passed[LeadingMatches(views, KeyHashOf(kAbsentTag, i))];
  }
  uint64_t at_least = 0;  // keys passing planes 0..j-1
  for (int j = kPlanes; j >= 1; --j) {
    at_least += passed[j];
    const double expected = std::ldexp(1.0, -j);
    const double measured = static_cast<double>(at_least) / kAbsent;
    EXPECT_NEAR(expected, measured, 0.1 * expected) << j << " planes";
  }
}

// The same with units of 4 planes: k units pass 2^-4k (k = 1..3; the same
// count argument as above for k = 3).
TEST(RibbonUnitTest, FalsePositiveRateOfFourPlaneUnits) {
  constexpr size_t kAbsent = size_t{1} << 23;
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 8192);
  const std::vector<std::string> units = Build(hashes, {4, 3});
  const std::vector<RibbonUnitView> views = Views(units);
  std::vector<uint64_t> passed(4, 0);
  for (size_t i = 0; i < kAbsent; ++i) {
    ++passed[LeadingMatches(views, KeyHashOf(kAbsentTag, i))];
  }
  uint64_t at_least = 0;
  for (int k = 3; k >= 1; --k) {
    at_least += passed[k];
    const double expected = std::ldexp(1.0, -4 * k);
    const double measured = static_cast<double>(at_least) / kAbsent;
    EXPECT_NEAR(expected, measured, 0.1 * expected) << k << " units";
  }
}

// Past 64 planes the result bits come from further words, each solved in
// its own banding: every unit still passes 2^-planes of absent keys, a unit
// whose planes straddle two words (unit 12 of 5 planes: planes 60..64)
// included, and units of different words stay independent (same count
// argument as above; the rarest case, 10 planes, expects 8192 passes).
TEST(RibbonUnitTest, FalsePositiveRateBeyondOneResultWord) {
  constexpr size_t kAbsent = size_t{1} << 23;
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 8192);
  const std::vector<std::string> units = Build(hashes, {5, 16});
  const std::vector<RibbonUnitView> views = Views(units);
  ExpectAllFound(hashes, units);
  uint64_t pass12 = 0, pass13 = 0, pass12and13 = 0, pass11and14 = 0;
  for (size_t i = 0; i < kAbsent; ++i) {
    const uint64_t h = KeyHashOf(kAbsentTag, i);
    const bool p12 = RibbonUnitViewMayMatch(views[12], h);
    const bool p13 = RibbonUnitViewMayMatch(views[13], h);
    pass12 += p12;
    pass13 += p13;
    pass12and13 += p12 && p13;
    pass11and14 += RibbonUnitViewMayMatch(views[11], h) &&
                   RibbonUnitViewMayMatch(views[14], h);
  }
  auto expect_rate = [&](uint64_t count, int planes, const char* what) {
    const double expected = std::ldexp(1.0, -planes);
    EXPECT_NEAR(expected, static_cast<double>(count) / kAbsent, 0.1 * expected)
        << what;
  };
  expect_rate(pass12, 5, "unit 12 (planes 60..64)");
  expect_rate(pass13, 5, "unit 13 (planes 65..69)");
  expect_rate(pass12and13, 10, "units 12 and 13");
  expect_rate(pass11and14, 10, "unit 11 (word 0) and unit 14 (word 1)");
}

// The units of one segment share one key probe; a unit with another
// attempt or block count (only a damaged or foreign unit) gets its own, so
// mixing units of two builds of the same keys still finds every key, and
// the shared probe agrees with probing each unit alone.
TEST(RibbonUnitTest, SharedKeyProbeFollowsEachUnitsShape) {
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 3000);
  const std::vector<std::string> first = Build(hashes, {2, 4});
  std::vector<std::string> second;
  ASSERT_TRUE(BuildRibbonUnitsOnce(hashes.data(), hashes.size(), {2, 4},
                                   RibbonBlocks(hashes.size(), 0) + 3, 7,
                                   &second));
  const std::vector<RibbonUnitView> a = Views(first);
  const std::vector<RibbonUnitView> b = Views(second);
  ASSERT_NE(a[1].blocks, b[1].blocks);
  const RibbonUnitView mixed[4] = {a[0], b[1], a[2], b[3]};
  auto shared = [&](uint64_t h) {
    RibbonKeyProbe probe;
    for (const RibbonUnitView& v : mixed) {
      if (!RibbonUnitMayMatchWith(v, h, &probe)) return false;
    }
    return true;
  };
  auto alone = [&](uint64_t h) {
    for (const RibbonUnitView& v : mixed) {
      if (!RibbonUnitViewMayMatch(v, h)) return false;
    }
    return true;
  };
  for (uint64_t h : hashes) ASSERT_TRUE(shared(h));
  int passed = 0;
  for (uint64_t i = 0; i < 100000; ++i) {
    const uint64_t h = KeyHashOf(kAbsentTag, i);
    ASSERT_EQ(alone(h), shared(h)) << i;
    passed += shared(h);
  }
  // 8 planes: about 100000 / 256 = 391 pass.
  EXPECT_GT(passed, 250);
  EXPECT_LT(passed, 550);
}

// Finds a segment of n keys whose first attempt fails under the normal
// rule (the rule leaves a few percent of segments to a second attempt).
std::vector<uint64_t> SegmentNeedingRetry(size_t n) {
  for (uint64_t tag = 1; tag <= 400; ++tag) {
    std::vector<uint64_t> hashes = KeyHashes(kPresentTag ^ (tag << 32), n);
    std::vector<std::string> units;
    if (!BuildRibbonUnitsOnce(hashes.data(), n, {4, 6}, RibbonBlocks(n, 0), 0,
                              &units)) {
      return hashes;
    }
  }
  return {};
}

TEST(RibbonUnitTest, BandingFailureRecoveredByReseed) {
  // 128 keys in 128 slots: every row starts at slot 0, so the system is a
  // dense random 128 x 128 one, solvable for about 29% of the attempts.
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 128);
  int failed = 0, solved = 0;
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::vector<std::string> units = {"untouched"};
    if (!BuildRibbonUnitsOnce(hashes.data(), hashes.size(), {4, 6}, 2, attempt,
                              &units)) {
      ++failed;
      ASSERT_EQ(1u, units.size());
      EXPECT_EQ("untouched", units[0]);
      continue;
    }
    ++solved;
    ASSERT_EQ(6u, units.size());
    ExpectAllFound(hashes, units);
  }
  EXPECT_GT(failed, 0);
  EXPECT_GT(solved, 0);

  // Under the normal rule a failed first attempt is followed by the next.
  const std::vector<uint64_t> retry = SegmentNeedingRetry(8192);
  ASSERT_EQ(8192u, retry.size()) << "no segment needed a second attempt";
  RibbonBuildInfo info;
  const std::vector<std::string> units = Build(retry, {4, 6}, &info);
  EXPECT_GT(info.attempt, 0);
  EXPECT_EQ(RibbonBlocks(8192, info.attempt), info.blocks);
  EXPECT_EQ(RibbonUnitSize(8192, 4), units[0].size());
  ExpectAllFound(retry, units);
}

TEST(RibbonUnitTest, ExhaustedAttemptsKeepEveryKey) {
  const std::vector<uint64_t> retry = SegmentNeedingRetry(8192);
  ASSERT_EQ(8192u, retry.size());
  std::vector<std::string> units;
  RibbonBuildInfo info;
  ASSERT_TRUE(ribbon_unit_internal::BuildWithAttempts(
                  retry.data(), retry.size(), {4, 6}, 1, &units, &info)
                  .ok());
  EXPECT_EQ(0u, info.blocks);
  ASSERT_EQ(6u, units.size());
  for (const std::string& unit : units) {
    EXPECT_EQ(kRibbonTrailerSize, unit.size());
    EXPECT_TRUE(RibbonUnitSizeMatches(unit.size(), retry.size(), 4));
    RibbonUnitView view;
    ASSERT_TRUE(DecodeRibbonUnit(unit, &view));
    EXPECT_EQ(0u, view.blocks);
  }
  ExpectAllFound(retry, units);
  // Absent keys pass too: such units filter nothing.
  const std::vector<RibbonUnitView> views = Views(units);
  for (uint64_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(6, LeadingMatches(views, KeyHashOf(kAbsentTag, i)));
  }
}

// A unit whose every probe of 2000 absent keys says "may match".
bool MatchesEverything(const std::string& unit) {
  for (uint64_t i = 0; i < 2000; ++i) {
    if (!RibbonUnitMayMatch(unit, KeyHashOf(kAbsentTag, i))) return false;
  }
  return true;
}

TEST(RibbonUnitTest, MalformedUnitsMayMatch) {
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 2000);
  const std::string good = Build(hashes, {4, 6})[2];
  ASSERT_FALSE(MatchesEverything(good));  // so the checks below mean something
  const size_t t = good.size() - kRibbonTrailerSize;
  std::vector<std::string> bad;
  bad.push_back("");
  bad.push_back(good.substr(0, 7));
  bad.push_back(good.substr(0, good.size() - 1));
  bad.push_back(good.substr(1));
  bad.push_back(good.substr(32));  // one block fewer, trailer intact
  bad.push_back(good + std::string(32, '\0'));
  for (int field = 0; field < 8; ++field) {
    if (field == 3) continue;  // the attempt: any value decodes
    for (int delta : {1, 0x80}) {
      if (field == 2 && delta == 1) continue;  // unit 3 is as valid as 2
      std::string corrupt = good;
      corrupt[t + field] = static_cast<char>(corrupt[t + field] ^ delta);
      bad.push_back(corrupt);
    }
  }
  for (size_t i = 0; i < bad.size(); ++i) {
    RibbonUnitView view;
    EXPECT_FALSE(DecodeRibbonUnit(bad[i], &view)) << i;
    EXPECT_TRUE(MatchesEverything(bad[i])) << i;
  }
}

TEST(RibbonUnitTest, ProbesNeedNoAlignment) {
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 3000);
  const std::vector<std::string> units = Build(hashes, {4, 6});
  for (size_t offset = 1; offset < 8; ++offset) {
    const std::string shifted = std::string(offset, '\0') + units[5];
    const Slice unit(shifted.data() + offset, units[5].size());
    for (size_t i = 0; i < hashes.size(); ++i) {
      ASSERT_TRUE(RibbonUnitMayMatch(unit, hashes[i]));
      const uint64_t absent = KeyHashOf(kAbsentTag, i);
      ASSERT_EQ(RibbonUnitMayMatch(units[5], absent),
                RibbonUnitMayMatch(unit, absent));
    }
  }
}

}  // namespace
}  // namespace leveldb
