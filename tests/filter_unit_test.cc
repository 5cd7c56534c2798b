// Filter units: encoding, no false negatives, robustness against malformed
// units, and separability (k units of b bits per key reject absent keys as
// well as theory says and as one filter of k*b bits per key).
#include "table/elastic/filter_unit.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/key_hashes.h"
#include "tests/test_util.h"
#include "util/coding.h"
#include "util/hash64.h"
#include "util/random.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FILTER_UNIT_TEST_SLOW_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define FILTER_UNIT_TEST_SLOW_BUILD 1
#endif
#endif
#if !defined(FILTER_UNIT_TEST_SLOW_BUILD) && !defined(NDEBUG)
#define FILTER_UNIT_TEST_SLOW_BUILD 1
#endif

namespace leveldb {
namespace {

using test::kAbsentTag;
using test::KeyHashes;
using test::KeyHashOf;
using test::kPresentTag;

std::string Build(const std::vector<uint64_t>& hashes, int unit_index,
                  int bits_per_unit) {
  std::string unit;
  BuildFilterUnit(hashes.data(), hashes.size(), unit_index, bits_per_unit,
                  &unit);
  return unit;
}

// A unit copied into 8-byte aligned memory, as the loader does, and its view.
class AlignedUnit {
 public:
  explicit AlignedUnit(const std::string& unit)
      : words_((unit.size() + 7) / 8), size_(unit.size()) {
    std::memcpy(words_.data(), unit.data(), unit.size());
    ok_ = DecodeFilterUnit(slice(), &view_);
  }
  Slice slice() const {
    return Slice(reinterpret_cast<const char*>(words_.data()), size_);
  }
  bool ok() const { return ok_; }
  const FilterUnitView& view() const { return view_; }

 private:
  std::vector<uint64_t> words_;
  size_t size_;
  bool ok_ = false;
  FilterUnitView view_;
};

TEST(FilterUnitTest, ProbeCounts) {
  EXPECT_EQ(1, FilterUnitProbes(1));
  EXPECT_EQ(1, FilterUnitProbes(2));
  EXPECT_EQ(2, FilterUnitProbes(3));
  EXPECT_EQ(3, FilterUnitProbes(4));
  EXPECT_EQ(7, FilterUnitProbes(10));
  EXPECT_EQ(17, FilterUnitProbes(24));
  EXPECT_EQ(22, FilterUnitProbes(32));
  EXPECT_EQ(30, FilterUnitProbes(100));
  EXPECT_EQ(1, FilterUnitProbes(0));
  EXPECT_EQ(1, FilterUnitProbes(-5));
}

TEST(FilterUnitTest, TheoreticalFpr) {
  // (1 - e^{-3/4})^3 and (1 - e^{-17/24})^17.
  EXPECT_NEAR(0.1468916, FilterUnitTheoreticalFpr(4, 3), 1e-7);
  EXPECT_NEAR(9.83858e-6, FilterUnitTheoreticalFpr(24, 17), 1e-10);
  EXPECT_DOUBLE_EQ(1.0, FilterUnitTheoreticalFpr(0, 3));
  EXPECT_DOUBLE_EQ(1.0, FilterUnitTheoreticalFpr(4, 0));
  EXPECT_DOUBLE_EQ(1.0, FilterGroupTheoreticalFpr(4, 0));
  EXPECT_NEAR(std::pow(FilterUnitTheoreticalFpr(4, 3), 6),
              FilterGroupTheoreticalFpr(4, 6), 1e-15);
}

TEST(FilterUnitTest, Encoding) {
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 1000);
  for (int bits = 1; bits <= 32; ++bits) {
    std::string dst = "prefix";
    BuildFilterUnit(hashes.data(), hashes.size(), 2, bits, &dst);
    ASSERT_EQ("prefix", dst.substr(0, 6));
    const Slice unit(dst.data() + 6, dst.size() - 6);
    // 1000 * bits rounded down to whole words; the probe count is the last
    // byte of the last word.
    const size_t words = 1000 * static_cast<size_t>(bits) / 64;
    EXPECT_EQ(words * 8, unit.size()) << bits;
    EXPECT_EQ(unit.size(), FilterUnitSize(1000, bits));
    EXPECT_EQ(FilterUnitProbes(bits),
              static_cast<uint8_t>(unit[unit.size() - 1]));
    AlignedUnit aligned(unit.ToString());
    ASSERT_TRUE(aligned.ok());
    EXPECT_EQ(words * 64 - 8, aligned.view().nbits);
    EXPECT_EQ(FilterUnitProbes(bits), aligned.view().probes);
  }
  // Tiny key sets still get one whole word.
  EXPECT_EQ(8u, FilterUnitSize(0, 4));
  EXPECT_EQ(8u, FilterUnitSize(16, 4));
  EXPECT_EQ(8u, FilterUnitSize(31, 4));
  EXPECT_EQ(16u, FilterUnitSize(32, 4));
  EXPECT_EQ(4096u, FilterUnitSize(8192, 4));
  EXPECT_EQ(4096u, FilterUnitSize(8207, 4));
  EXPECT_EQ(4104u, FilterUnitSize(8208, 4));
}

TEST(FilterUnitTest, MemoryNeverExceedsBitsPerUnit) {
  // The budget rule: a loaded unit (its whole words, as charged) takes at
  // most keys * bits_per_unit / 8 bytes once that is at least one word.
  for (int bits = 1; bits <= 32; ++bits) {
    for (size_t n : {size_t{1}, size_t{7}, size_t{63}, size_t{64}, size_t{100},
                     size_t{1000}, size_t{8191}, size_t{8192}, size_t{8193},
                     size_t{8250}, size_t{123457}}) {
      const size_t size = FilterUnitSize(n, bits);
      EXPECT_EQ(0u, size % 8) << n << " " << bits;
      EXPECT_EQ(size, FilterUnitMemoryBytes(size)) << n << " " << bits;
      const uint64_t budget_bits = static_cast<uint64_t>(n) * bits;
      if (budget_bits >= 64) {
        EXPECT_LE(size * 8, budget_bits) << n << " " << bits;
        // Rounded down, not further: less than one word is lost.
        EXPECT_GT(size * 8 + 64, budget_bits) << n << " " << bits;
      } else {
        EXPECT_EQ(8u, size) << n << " " << bits;
      }
      EXPECT_TRUE(FilterUnitSizeMatches(size, n, bits));
      EXPECT_TRUE(
          FilterUnitSizeMatches(LegacyFilterUnitSize(n, bits), n, bits));
      EXPECT_FALSE(FilterUnitSizeMatches(size + 8, n, bits));
      EXPECT_FALSE(FilterUnitSizeMatches(size + 2, n, bits));
    }
  }
  // The legacy encoding rounded up and added a byte; its units occupy one
  // word more than their bit array.
  EXPECT_EQ(4097u, LegacyFilterUnitSize(8192, 4));
  EXPECT_EQ(4105u, LegacyFilterUnitSize(8193, 4));
  EXPECT_EQ(9u, LegacyFilterUnitSize(0, 4));
  EXPECT_EQ(4104u, FilterUnitMemoryBytes(4097));
}

// Builds a unit in the legacy encoding exactly as the format comment in
// filter_unit.h describes it (independently of the library's builder).
std::string BuildLegacyUnit(const std::vector<uint64_t>& hashes, int unit_index,
                            int bits_per_unit) {
  const uint64_t wanted = std::max<uint64_t>(
      64, hashes.size() * static_cast<uint64_t>(bits_per_unit));
  const uint32_t nbits = static_cast<uint32_t>((wanted + 63) / 64 * 64);
  const int probes = FilterUnitProbes(bits_per_unit);
  std::string unit(nbits / 8, '\0');
  for (uint64_t key_hash : hashes) {
    const uint64_t h = UnitHash(key_hash, unit_index);
    uint32_t pos = static_cast<uint32_t>(h);
    const uint32_t step = static_cast<uint32_t>(h >> 32) | 1;
    for (int i = 0; i < probes; ++i) {
      const uint32_t bit =
          static_cast<uint32_t>((static_cast<uint64_t>(pos) * nbits) >> 32);
      unit[bit / 8] = static_cast<char>(unit[bit / 8] | (1 << (bit % 8)));
      pos += step;
    }
  }
  unit.push_back(static_cast<char>(probes));
  return unit;
}

TEST(FilterUnitTest, LegacyUnitsStillDecode) {
  const std::vector<uint64_t> present = KeyHashes(kPresentTag, 8200);
  for (int bits : {1, 4, 7, 10}) {
    const std::string legacy = BuildLegacyUnit(present, 2, bits);
    ASSERT_EQ(LegacyFilterUnitSize(present.size(), bits), legacy.size());
    ASSERT_TRUE(FilterUnitSizeMatches(legacy.size(), present.size(), bits));
    AlignedUnit aligned(legacy);
    ASSERT_TRUE(aligned.ok()) << bits;
    EXPECT_EQ((legacy.size() - 1) * 8, aligned.view().nbits);
    EXPECT_EQ(FilterUnitProbes(bits), aligned.view().probes);
    for (uint64_t h : present) {
      ASSERT_TRUE(FilterUnitMayMatch(legacy, h, 2)) << bits;
      ASSERT_TRUE(FilterUnitViewMayMatch(aligned.view(), h, 2)) << bits;
    }
    // Absent keys are rejected at about the rate theory gives for the
    // legacy m (a decoder that misread the size would reject far fewer or
    // produce false negatives above).
    size_t positives = 0;
    constexpr size_t kProbes = 200000;
    for (uint64_t i = 0; i < kProbes; ++i) {
      positives +=
          FilterUnitViewMayMatch(aligned.view(), KeyHashOf(kAbsentTag, i), 2);
    }
    const double fill =
        1.0 - std::exp(-static_cast<double>(aligned.view().probes) *
                       present.size() / aligned.view().nbits);
    const double theory = std::pow(fill, aligned.view().probes);
    EXPECT_NEAR(1.0, positives / (theory * kProbes), 0.15) << bits;
  }
}

TEST(FilterUnitTest, ProbePositionsFollowTheDocumentedFormula) {
  // One key: exactly the bits named by the formula in filter_unit.h are set.
  const uint64_t key_hash = KeyHashOf(kPresentTag, 42);
  const int kUnit = 3;
  const int kBits = 10;
  const std::string unit = Build({key_hash}, kUnit, kBits);
  const uint32_t nbits = static_cast<uint32_t>((unit.size() - 1) * 8);
  const int probes = static_cast<uint8_t>(unit.back());
  std::vector<bool> expected(nbits, false);
  const uint64_t h = UnitHash(key_hash, kUnit);
  const uint32_t h1 = static_cast<uint32_t>(h);
  const uint32_t h2 = static_cast<uint32_t>(h >> 32) | 1;
  for (int i = 0; i < probes; ++i) {
    const uint32_t x = h1 + static_cast<uint32_t>(i) * h2;
    expected[(static_cast<uint64_t>(x) * nbits) >> 32] = true;
  }
  for (uint32_t bit = 0; bit < nbits; ++bit) {
    const bool set = (static_cast<uint8_t>(unit[bit / 8]) >> (bit % 8)) & 1;
    EXPECT_EQ(expected[bit], set) << bit;
  }
}

TEST(FilterUnitTest, NoFalseNegatives) {
  // 100k keys, every unit index 0..15 and every width 1..16, probed through
  // the unaligned in-place API and through a decoded view.
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, 100000);
  for (int unit_index = 0; unit_index < 16; ++unit_index) {
    for (int bits = 1; bits <= 16; ++bits) {
      const std::string unit = Build(hashes, unit_index, bits);
      // In place, at an odd address.
      std::string shifted = "x" + unit;
      const Slice unaligned(shifted.data() + 1, unit.size());
      AlignedUnit aligned(unit);
      ASSERT_TRUE(aligned.ok());
      size_t missed_in_place = 0;
      size_t missed_view = 0;
      for (uint64_t h : hashes) {
        missed_in_place += !FilterUnitMayMatch(unaligned, h, unit_index);
        missed_view += !FilterUnitViewMayMatch(aligned.view(), h, unit_index);
      }
      ASSERT_EQ(0u, missed_in_place)
          << "unit " << unit_index << " bits " << bits;
      ASSERT_EQ(0u, missed_view) << "unit " << unit_index << " bits " << bits;
    }
  }
}

TEST(FilterUnitTest, ViewAndInPlaceProbesAgree) {
  const std::vector<uint64_t> present = KeyHashes(kPresentTag, 5000);
  for (int bits : {1, 4, 9, 24, 32}) {
    const std::string unit = Build(present, 7, bits);
    AlignedUnit aligned(unit);
    ASSERT_TRUE(aligned.ok());
    size_t positives = 0;
    for (uint64_t i = 0; i < 20000; ++i) {
      const uint64_t h = KeyHashOf(kAbsentTag, i);
      const bool in_place = FilterUnitMayMatch(unit, h, 7);
      ASSERT_EQ(in_place, FilterUnitViewMayMatch(aligned.view(), h, 7)) << i;
      positives += in_place;
    }
    // Absent keys are rejected at least sometimes (and the wrong unit index
    // does not see the same filter).
    EXPECT_LT(positives, 20000u) << bits;
  }
}

TEST(FilterUnitTest, EmptyKeySet) {
  const std::string unit = Build({}, 0, 4);
  ASSERT_EQ(8u, unit.size());
  EXPECT_EQ(std::string(7, '\0'), unit.substr(0, 7));
  EXPECT_EQ(FilterUnitProbes(4), unit[7]);
  AlignedUnit aligned(unit);
  ASSERT_TRUE(aligned.ok());
  EXPECT_EQ(56u, aligned.view().nbits);
  for (uint64_t i = 0; i < 1000; ++i) {
    const uint64_t h = KeyHashOf(kAbsentTag, i);
    EXPECT_FALSE(FilterUnitMayMatch(unit, h, 0));
    EXPECT_FALSE(FilterUnitViewMayMatch(aligned.view(), h, 0));
  }
}

TEST(FilterUnitTest, MalformedUnitsMayMatchEverything) {
  const std::vector<uint64_t> present = KeyHashes(kPresentTag, 1000);
  const std::string good = Build(present, 1, 4);
  std::vector<std::string> bad;
  for (size_t n = 0; n < 8; ++n) bad.push_back(good.substr(0, n));  // short
  for (size_t cut : {1, 2, 3, 5, 6}) {
    // Neither whole words nor whole words plus a byte.
    bad.push_back(good.substr(0, good.size() - cut));
  }
  bad.push_back(good + "x");   // one byte too long: 'x' is no probe count
  bad.push_back(good + "ab");  // not whole words
  for (int probes : {0, 31, 64, 255}) {
    std::string unit = good;
    unit.back() = static_cast<char>(probes);
    bad.push_back(unit);
  }
  for (const std::string& unit : bad) {
    std::vector<uint64_t> storage((unit.size() + 7) / 8 + 1);
    std::memcpy(storage.data(), unit.data(), unit.size());
    const Slice aligned(reinterpret_cast<const char*>(storage.data()),
                        unit.size());
    FilterUnitView view;
    EXPECT_FALSE(DecodeFilterUnit(aligned, &view)) << unit.size();
    EXPECT_EQ(nullptr, view.words);  // untouched
    for (uint64_t i = 0; i < 200; ++i) {
      EXPECT_TRUE(FilterUnitMayMatch(unit, KeyHashOf(kAbsentTag, i), 1))
          << unit.size();
    }
  }
  // A default view (never decoded) rules nothing out either.
  EXPECT_TRUE(FilterUnitViewMayMatch(FilterUnitView(), 12345, 0));
}

TEST(FilterUnitTest, DecodeRequiresAlignment) {
  const std::string unit = Build(KeyHashes(kPresentTag, 100), 0, 4);
  std::vector<uint64_t> storage(unit.size() / 8 + 2);
  char* base = reinterpret_cast<char*>(storage.data());
  for (size_t offset = 0; offset < 8; ++offset) {
    std::memcpy(base + offset, unit.data(), unit.size());
    FilterUnitView view;
    EXPECT_EQ(offset == 0,
              DecodeFilterUnit(Slice(base + offset, unit.size()), &view))
        << offset;
  }
}

// ---------------------------------------------------------------------------
// Separability.
//
// A segment of 50k keys gets units 0..5 of 4 bits per key (3 probes each)
// and, for comparison, single filters of 4k bits per key (k = 1..6) built by
// the same code with unit indexes 8..13, so they share no hash family with
// the group. For each k, N_k absent keys are probed; the fraction for which
// units 0..k-1 all say "maybe" must be within 15% (relative) of
//   theory_k = ((1 - e^{-probes * n / m})^probes)^k   (real m, n, probes)
// and of the measured FPR of the single 4k-bits-per-key filter.
//
// N_k is chosen so that theory expects kTargetFalsePositives false positives
// (and at least 200k keys). With 3000, the Poisson noise of one measured rate
// is 1.8% and of a ratio of two 2.6%, so 15% is more than 5.5 standard
// deviations away. At k = 6 (FPR ~1e-5) that means about 3e8 probes, a few
// seconds in an optimized build; sanitizer and unoptimized builds are much
// slower, so there the check stops at k = kMaxUnits < 6 (fewer probes, the
// same statistical margin).
// ---------------------------------------------------------------------------

constexpr size_t kSegmentKeys = 50000;
constexpr int kUnitBits = 4;
constexpr double kTargetFalsePositives = 3000;
constexpr size_t kMinAbsentKeys = 200000;
#if defined(FILTER_UNIT_TEST_SLOW_BUILD)
constexpr int kMaxUnits = 4;
#else
constexpr int kMaxUnits = 6;
#endif

double TheoryForView(const FilterUnitView& view, size_t n) {
  const double fill =
      1.0 - std::exp(-static_cast<double>(view.probes) * n / view.nbits);
  return std::pow(fill, view.probes);
}

TEST(FilterUnitTest, Separability) {
  if (kMaxUnits < 6) {
    std::printf(
        "Separability: sanitizer or unoptimized build, checking k <= %d only "
        "(k = 6 needs ~3e8 probes for a statistically safe bound)\n",
        kMaxUnits);
  }
  const std::vector<uint64_t> present = KeyHashes(kPresentTag, kSegmentKeys);
  std::vector<std::unique_ptr<AlignedUnit>> units;
  std::vector<std::unique_ptr<AlignedUnit>> singles;
  double unit_theory = 1.0;  // product over units 0..k-1
  std::vector<double> theory(kMaxUnits + 1), single_theory(kMaxUnits + 1);
  std::vector<uint64_t> absent_keys(kMaxUnits + 1);
  for (int k = 1; k <= kMaxUnits; ++k) {
    units.emplace_back(new AlignedUnit(Build(present, k - 1, kUnitBits)));
    singles.emplace_back(new AlignedUnit(Build(present, 7 + k, kUnitBits * k)));
    ASSERT_TRUE(units.back()->ok());
    ASSERT_TRUE(singles.back()->ok());
    unit_theory *= TheoryForView(units.back()->view(), kSegmentKeys);
    theory[k] = unit_theory;
    single_theory[k] = TheoryForView(singles.back()->view(), kSegmentKeys);
    absent_keys[k] = std::max<uint64_t>(
        kMinAbsentKeys,
        static_cast<uint64_t>(std::ceil(kTargetFalsePositives / theory[k])));
  }

  // One pass over the absent keys; key i counts for every k with
  // i < absent_keys[k] (absent_keys grows with k).
  std::vector<uint64_t> group_fp(kMaxUnits + 1, 0), single_fp(kMaxUnits + 1, 0);
  const uint64_t total = absent_keys[kMaxUnits];
  int first_k = 1;  // smallest k whose key range still includes i
  for (uint64_t i = 0; i < total; ++i) {
    while (i >= absent_keys[first_k]) ++first_k;
    const uint64_t key_hash = KeyHashOf(kAbsentTag, i);
    int passed = 0;  // leading units of the group that say "maybe"
    while (passed < kMaxUnits &&
           FilterUnitViewMayMatch(units[passed]->view(), key_hash, passed)) {
      ++passed;
    }
    for (int k = first_k; k <= passed; ++k) ++group_fp[k];
    for (int k = first_k; k <= kMaxUnits; ++k) {
      single_fp[k] +=
          FilterUnitViewMayMatch(singles[k - 1]->view(), key_hash, 7 + k);
    }
  }

  std::printf("  k  absent keys   group FPR     theory  single 4k-bit FPR\n");
  for (int k = 1; k <= kMaxUnits; ++k) {
    const double n = static_cast<double>(absent_keys[k]);
    const double group = group_fp[k] / n;
    const double single = single_fp[k] / n;
    std::printf("  %d  %11llu  %.4e  %.4e  %.4e (theory %.4e, %d probes)\n", k,
                static_cast<unsigned long long>(absent_keys[k]), group,
                theory[k], single, single_theory[k],
                singles[k - 1]->view().probes);
    EXPECT_NEAR(1.0, group / theory[k], 0.15) << "k=" << k;
    EXPECT_GT(single_fp[k], 0u) << "k=" << k;
    if (single_fp[k] > 0) {
      EXPECT_NEAR(1.0, group / single, 0.15) << "k=" << k;
    }
  }
}

}  // namespace
}  // namespace leveldb
