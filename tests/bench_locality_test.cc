// The key-range locality distributions of benchmarks/zipf_keys.h (db_bench
// --key_dist, filter_bound --key_dist): ordered Zipfian, hotspot and
// latest, and that the default scrambled Zipfian draws what it always did.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "benchmarks/zipf_keys.h"
#include "gtest/gtest.h"

namespace {

// The first lookups of the default readzipf stream (100000 keys, seed 0,
// thread 0, zero_lookup_ratio 0.5), recorded before the locality workloads
// were added: the default key sequence must stay the same.
TEST(BenchLocalityTest, DefaultScrambledSequenceIsUnchanged) {
  const std::pair<uint64_t, bool> kExpected[] = {
      {20830, false}, {8442, true},   {32169, false}, {57082, false},
      {88000, false}, {27552, false}, {87512, false}, {47858, true}};
  const zipf_keys::ScrambledZipfian zipf(100000, 0.99);
  zipf_keys::SplitMix64 old_way(zipf_keys::ThreadSeed64(0, 0));
  zipf_keys::SplitMix64 new_way(zipf_keys::ThreadSeed64(0, 0));
  const auto draw = [&zipf](zipf_keys::SplitMix64* rng) {
    return zipf.Next(rng->NextDouble());
  };
  for (const auto& [key, absent] : kExpected) {
    const zipf_keys::ZipfLookup a =
        zipf_keys::NextZipfLookup(zipf, 0.5, &old_way);
    const zipf_keys::ZipfLookup b = zipf_keys::NextLookup(draw, 0.5, &new_way);
    EXPECT_EQ(key, a.key);
    EXPECT_EQ(absent, a.absent);
    EXPECT_EQ(a.key, b.key);
    EXPECT_EQ(a.absent, b.absent);
  }
}

TEST(BenchLocalityTest, KeyDistNames) {
  for (zipf_keys::KeyDist d :
       {zipf_keys::KeyDist::kZipf, zipf_keys::KeyDist::kOrderedZipf,
        zipf_keys::KeyDist::kHotspot, zipf_keys::KeyDist::kLatest}) {
    zipf_keys::KeyDist parsed = zipf_keys::KeyDist::kZipf;
    ASSERT_TRUE(zipf_keys::ParseKeyDist(zipf_keys::KeyDistName(d), &parsed));
    EXPECT_EQ(d, parsed);
  }
  zipf_keys::KeyDist unused;
  EXPECT_FALSE(zipf_keys::ParseKeyDist("zipfian", &unused));
  EXPECT_FALSE(zipf_keys::ParseKeyDist("Hotspot", &unused));
  EXPECT_FALSE(zipf_keys::ParseKeyDist("", &unused));
}

// Without scrambling, popularity falls with the key: the hottest keys are
// the first ones in key order, with the Zipfian probabilities.
TEST(BenchLocalityTest, OrderedZipfIsMonotoneAndContiguous) {
  constexpr uint64_t kKeys = 100000;
  constexpr int kDraws = 400000;
  const zipf_keys::Zipfian zipf(kKeys, 0.99);
  zipf_keys::SplitMix64 rng(7);
  std::vector<int> counts(kKeys, 0);
  for (int i = 0; i < kDraws; i++) {
    const uint64_t k = zipf.Rank(rng.NextDouble());
    ASSERT_LT(k, kKeys);
    counts[k]++;
  }
  // The sampler's law: exact Zipfian for ranks 0 and 1, close beyond.
  const std::vector<double> p =
      zipf_keys::OrderedZipfProbabilities(kKeys, 0.99, false);
  EXPECT_NEAR(1.0, std::accumulate(p.begin(), p.end(), 0.0), 1e-9);
  EXPECT_NEAR(1.0 / zipf.zetan(), p[0], 1e-12);
  EXPECT_NEAR(std::pow(2.0, -0.99) / zipf.zetan(), p[1], 1e-12);
  for (uint64_t k = 0; k < 1000; k++) {
    const double expected = p[k] * kDraws;
    EXPECT_NEAR(expected, counts[k], 5 * std::sqrt(expected) + 1) << k;
    EXPECT_GE(p[k], p[k + 1]) << k;
  }
  const double tail = std::accumulate(p.begin() + 1000, p.end(), 0.0);
  const int tail_draws =
      std::accumulate(counts.begin() + 1000, counts.end(), 0);
  EXPECT_NEAR(tail * kDraws, tail_draws, 5 * std::sqrt(tail * kDraws));
  // The 20 most drawn keys are the first 20 (rank 19 is still drawn about
  // twice as often as rank 40, far beyond the noise).
  std::vector<uint64_t> order(kKeys);
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(
      order.begin(), order.begin() + 20, order.end(),
      [&counts](uint64_t a, uint64_t b) { return counts[a] > counts[b]; });
  EXPECT_LT(*std::max_element(order.begin(), order.begin() + 20), 20u);
  // Decade by decade of keys, each holds less than the decade before.
  int previous = kDraws;
  for (uint64_t begin = 0; begin < kKeys; begin += 10000) {
    const int sum = std::accumulate(counts.begin() + begin,
                                    counts.begin() + begin + 10000, 0);
    EXPECT_LT(sum, previous) << begin;
    previous = sum;
  }
}

TEST(BenchLocalityTest, ZipfianExtendEqualsAFreshOne) {
  zipf_keys::Zipfian grown(1000, 0.99);
  grown.Extend(5000);
  grown.Extend(10);  // never shrinks
  const zipf_keys::Zipfian fresh(5000, 0.99);
  EXPECT_EQ(5000u, grown.items());
  EXPECT_NEAR(fresh.zetan(), grown.zetan(), 1e-9);
  zipf_keys::SplitMix64 rng(3);
  for (int i = 0; i < 10000; i++) {
    const double u = rng.NextDouble();
    EXPECT_EQ(fresh.Rank(u), grown.Rank(u));
  }
  // One item: always rank 0. Two: ranks 0 and 1 with the exact Zipfian
  // probabilities.
  const zipf_keys::Zipfian one(1, 0.99);
  EXPECT_EQ(0u, one.Rank(0.999));
  EXPECT_DOUBLE_EQ(1.0, one.Cdf(0));
  const zipf_keys::Zipfian two(2, 0.99);
  EXPECT_EQ(1u, two.Rank(0.999));
  EXPECT_NEAR(1.0 / two.zetan(), two.Probability(0), 1e-12);
  EXPECT_NEAR(1.0, two.Probability(0) + two.Probability(1), 1e-12);
}

// Returns how many of `draws` hotspot draws fall in the hot range, and
// checks that every draw is a key and that each half of the hot range and
// of the cold part gets its share (uniform within each part).
int HotDraws(const zipf_keys::Hotspot& hot, uint64_t n, int draws,
             uint64_t seed) {
  zipf_keys::SplitMix64 rng(seed);
  int in_hot = 0;
  int low_hot = 0;
  int cold_below = 0;
  for (int i = 0; i < draws; i++) {
    const double part = rng.NextDouble();
    const uint64_t k = hot.Next(part, rng.NextDouble());
    EXPECT_LT(k, n);
    if (k >= hot.hot_begin() && k < hot.hot_end()) {
      in_hot++;
      low_hot += k < (hot.hot_begin() + hot.hot_end()) / 2;
    } else {
      cold_below += k < hot.hot_begin();
    }
  }
  EXPECT_NEAR(0.5, static_cast<double>(low_hot) / std::max(in_hot, 1), 0.02);
  const uint64_t cold_keys = n - (hot.hot_end() - hot.hot_begin());
  if (cold_keys > 0 && in_hot < draws) {
    EXPECT_NEAR(static_cast<double>(hot.hot_begin()) / cold_keys,
                static_cast<double>(cold_below) / (draws - in_hot), 0.02);
  }
  return in_hot;
}

TEST(BenchLocalityTest, HotspotSharesAndRange) {
  constexpr uint64_t kKeys = 10000;
  constexpr int kDraws = 100000;
  // YCSB's place: the lowest keys.
  const zipf_keys::Hotspot low(kKeys, 0.2, 0.8, 0.0);
  EXPECT_EQ(0u, low.hot_begin());
  EXPECT_EQ(2000u, low.hot_end());
  EXPECT_NEAR(0.8, HotDraws(low, kKeys, kDraws, 1) / double{kDraws}, 0.01);
  // In the middle, and moved down when it would pass the end.
  const zipf_keys::Hotspot middle(kKeys, 0.1, 0.9, 0.5);
  EXPECT_EQ(5000u, middle.hot_begin());
  EXPECT_EQ(6000u, middle.hot_end());
  EXPECT_NEAR(0.9, HotDraws(middle, kKeys, kDraws, 2) / double{kDraws}, 0.01);
  const zipf_keys::Hotspot end(kKeys, 0.2, 0.8, 0.9);
  EXPECT_EQ(8000u, end.hot_begin());
  EXPECT_EQ(10000u, end.hot_end());
  // The probabilities agree with the sampler and sum to one.
  double sum = 0;
  for (uint64_t k = 0; k < kKeys; k++) sum += middle.Probability(k);
  EXPECT_NEAR(1.0, sum, 1e-9);
  EXPECT_DOUBLE_EQ(0.9 / 1000, middle.Probability(5500));
  EXPECT_DOUBLE_EQ(0.1 / 9000, middle.Probability(4999));
  EXPECT_DOUBLE_EQ(0.1 / 9000, middle.Probability(6000));
  // Every key hot: uniform over all.
  const zipf_keys::Hotspot all(kKeys, 1.0, 0.5, 0.0);
  EXPECT_EQ(kDraws, HotDraws(all, kKeys, kDraws, 3));
  EXPECT_DOUBLE_EQ(1.0 / kKeys, all.Probability(123));
}

// Latest: key = newest - rank, so the newest keys are the hottest, and a
// key inserted later takes over.
TEST(BenchLocalityTest, LatestFavoursRecentKeys) {
  uint64_t count = 50000;
  zipf_keys::Zipfian recency(count, 0.99);
  zipf_keys::SplitMix64 rng(11);
  constexpr int kDraws = 100000;
  std::vector<int> counts(count + 1000, 0);
  int newest_percent = 0;
  for (int i = 0; i < kDraws; i++) {
    if (i == kDraws / 10) {
      count += 1000;  // inserts
      recency.Extend(count);
    }
    const uint64_t k = count - 1 - recency.Rank(rng.NextDouble());
    ASSERT_LT(k, count);
    counts[k]++;
    if (i >= kDraws / 10) newest_percent += k >= count - count / 100;
  }
  // The newest 1% of the keys get far more than 1% of the lookups.
  EXPECT_GT(newest_percent, kDraws / 5);
  // The newest key after the inserts is the hottest one; the newest one
  // before them lost its place.
  const int hottest = *std::max_element(counts.begin(), counts.end());
  EXPECT_EQ(hottest, counts[count - 1]);
  EXPECT_GT(counts[count - 1], 2 * counts[49999]);
  const std::vector<double> p =
      zipf_keys::OrderedZipfProbabilities(1000, 0.99, true);
  EXPECT_GT(p[999], p[998]);
  EXPECT_GT(p[998], p[0]);
}

}  // namespace
