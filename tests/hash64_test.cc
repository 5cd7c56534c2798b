// KeyHash64 and UnitHash: determinism, bounds-safe tails, length
// sensitivity, avalanche, and independence of the per-unit remixes (which
// the separability of filter groups depends on).
#include "util/hash64.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "benchmarks/common/random.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "util/coding.h"

namespace leveldb {
namespace {

uint64_t H(const std::string& s) { return KeyHash64(s.data(), s.size()); }

// A 16-byte key like the evaluation's: an 8-byte tag and a counter.
std::string CounterKey(uint64_t tag, uint64_t i) {
  std::string key;
  AppendFixed64(&key, tag);
  AppendFixed64(&key, i);
  return key;
}

std::string RandomBytes(bench::SplitMix64* rnd, size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(rnd->Next());
  return s;
}

TEST(Hash64Test, Deterministic) {
  bench::SplitMix64 rnd(test::RandomSeed());
  for (size_t n = 0; n <= 100; ++n) {
    const std::string s = RandomBytes(&rnd, n);
    const uint64_t h = H(s);
    EXPECT_EQ(h, H(s)) << n;
    // Same bytes at every alignment give the same hash.
    for (size_t offset = 1; offset < 8; ++offset) {
      std::string shifted(offset, 'x');
      shifted += s;
      EXPECT_EQ(h, KeyHash64(shifted.data() + offset, n)) << n << " " << offset;
    }
  }
}

TEST(Hash64Test, PinnedValues) {
  // Filter units on disk depend on these values (hash version 1): the hash
  // may only change together with kKeyHashVersion (and these values).
  EXPECT_EQ(0x1e68acc67423f231ull, H(""));
  EXPECT_EQ(0xbda5ae05369c805dull, H("a"));
  EXPECT_EQ(0x3ba0c47e21fa87eeull, H("leveldb"));
  EXPECT_EQ(0xbaab07f01664bdc4ull, H("0123456789abcdef"));
  EXPECT_EQ(0x8cba4e18207a166eull, H("The quick brown fox jumps over"));
  EXPECT_EQ(0xe220a8397b1dcdafull, UnitHash(0, 0));
  EXPECT_EQ(0x29e32498da69612dull, UnitHash(H("leveldb"), 5));
}

TEST(Hash64Test, ExactSizeBuffersAreReadInBounds) {
  // Each input sits in a heap block of exactly its size, so a sanitizer
  // build reports any read past the end (or before the start).
  bench::SplitMix64 rnd(test::RandomSeed());
  for (size_t n = 0; n <= 64; ++n) {
    const std::string s = RandomBytes(&rnd, n);
    std::unique_ptr<char[]> exact(new char[n == 0 ? 1 : n]);
    if (n > 0) std::memcpy(exact.get(), s.data(), n);
    EXPECT_EQ(H(s), KeyHash64(exact.get(), n)) << n;
  }
}

TEST(Hash64Test, AllLengthsDiffer) {
  // Prefixes of one buffer, and all-zero and all-0xff buffers: zero padding
  // of tails must not make lengths collide.
  bench::SplitMix64 rnd(test::RandomSeed());
  const std::string random = RandomBytes(&rnd, 64);
  const std::string zeros(64, '\0');
  const std::string ones(64, '\xff');
  std::set<uint64_t> seen;
  EXPECT_TRUE(seen.insert(KeyHash64(random.data(), 0)).second);
  for (size_t n = 1; n <= 64; ++n) {
    EXPECT_TRUE(seen.insert(KeyHash64(random.data(), n)).second) << n;
    EXPECT_TRUE(seen.insert(KeyHash64(zeros.data(), n)).second) << n;
    EXPECT_TRUE(seen.insert(KeyHash64(ones.data(), n)).second) << n;
  }
}

TEST(Hash64Test, NoCollisionsOnStructuredKeys) {
  // A million counter keys (one stripe, low entropy): with 64-bit output a
  // collision has probability ~3e-8.
  std::vector<uint64_t> hashes;
  hashes.reserve(1000000);
  for (uint64_t i = 0; i < 1000000; ++i)
    hashes.push_back(H(CounterKey(0x1234, i)));
  std::sort(hashes.begin(), hashes.end());
  EXPECT_TRUE(std::adjacent_find(hashes.begin(), hashes.end()) == hashes.end());
}

// For inputs of n bytes: flipping each single input bit must flip each
// output bit with probability within [0.4, 0.6].
void CheckAvalanche(size_t n, int trials, uint32_t seed) {
  bench::SplitMix64 rnd(seed);
  const size_t in_bits = 8 * n;
  std::vector<int> flips(in_bits * 64, 0);
  for (int t = 0; t < trials; ++t) {
    std::string s = RandomBytes(&rnd, n);
    const uint64_t base = H(s);
    for (size_t bit = 0; bit < in_bits; ++bit) {
      s[bit / 8] ^= static_cast<char>(1 << (bit % 8));
      const uint64_t diff = base ^ H(s);
      s[bit / 8] ^= static_cast<char>(1 << (bit % 8));
      for (int out = 0; out < 64; ++out) {
        flips[bit * 64 + out] += static_cast<int>((diff >> out) & 1);
      }
    }
  }
  double worst = 0.5;
  for (size_t bit = 0; bit < in_bits; ++bit) {
    for (int out = 0; out < 64; ++out) {
      const double p = static_cast<double>(flips[bit * 64 + out]) / trials;
      if (std::abs(p - 0.5) > std::abs(worst - 0.5)) worst = p;
      ASSERT_GE(p, 0.4) << "n=" << n << " input bit " << bit << " output bit "
                        << out;
      ASSERT_LE(p, 0.6) << "n=" << n << " input bit " << bit << " output bit "
                        << out;
    }
  }
  std::printf("avalanche n=%zu: worst flip probability %.4f\n", n, worst);
}

TEST(Hash64Test, Avalanche) {
  // 2000 trials: the standard deviation of a measured probability is 0.011,
  // so the [0.4, 0.6] band is 9 standard deviations wide on each side. One-byte
  // inputs are left out: with only 256 of them, a flip rate is an exact
  // average over 128 input pairs, whose spread (0.044) exceeds the band for
  // any function, however well mixed.
  const uint32_t seed = test::RandomSeed();
  for (size_t n : {2, 3, 4, 7, 8, 12, 15, 16, 17, 24, 31, 32, 40}) {
    CheckAvalanche(n, 2000, seed + static_cast<uint32_t>(n));
  }
}

TEST(Hash64Test, UnitHashAvalanche) {
  bench::SplitMix64 rnd(test::RandomSeed());
  const int kTrials = 2000;
  for (int unit : {0, 1, 5, 15}) {
    std::vector<int> flips(64 * 64, 0);
    for (int t = 0; t < kTrials; ++t) {
      const uint64_t key_hash = rnd.Next();
      const uint64_t base = UnitHash(key_hash, unit);
      for (int bit = 0; bit < 64; ++bit) {
        const uint64_t diff =
            base ^ UnitHash(key_hash ^ (uint64_t{1} << bit), unit);
        for (int out = 0; out < 64; ++out) {
          flips[bit * 64 + out] += static_cast<int>((diff >> out) & 1);
        }
      }
    }
    for (int cell = 0; cell < 64 * 64; ++cell) {
      const double p = static_cast<double>(flips[cell]) / kTrials;
      ASSERT_GE(p, 0.4) << "unit " << unit << " in " << cell / 64 << " out "
                        << cell % 64;
      ASSERT_LE(p, 0.6) << "unit " << unit << " in " << cell / 64 << " out "
                        << cell % 64;
    }
  }
}

TEST(Hash64Test, UnitHashesArePairwiseUncorrelated) {
  // For structured keys, every bit of every unit hash is balanced, and for
  // every pair of units (u, v) and every pair of bits (i, j), bit i of unit u
  // agrees with bit j of unit v half of the time. Bits are stored
  // transposed (one bitset over the keys per unit and bit) so that each
  // agreement count is a popcount.
  constexpr int kUnits = 16;
  constexpr size_t kKeys = size_t{1} << 15;
  constexpr size_t kWords = kKeys / 64;
  // rows[(u * 64 + bit) * kWords + w]
  std::vector<uint64_t> rows(size_t{kUnits} * 64 * kWords, 0);
  for (size_t k = 0; k < kKeys; ++k) {
    const uint64_t key_hash = H(CounterKey(0xfeed, k));
    for (int u = 0; u < kUnits; ++u) {
      const uint64_t h = UnitHash(key_hash, u);
      for (int bit = 0; bit < 64; ++bit) {
        rows[(static_cast<size_t>(u) * 64 + bit) * kWords + k / 64] |=
            ((h >> bit) & 1) << (k % 64);
      }
    }
  }
  // Standard deviation of a measured rate: 0.5 / 181 ~ 0.0028; the bound
  // 0.025 is 9 of them, far beyond the largest of ~500k honest deviations
  // (about 5).
  const double kBound = 0.025;
  auto row = [&](int u, int bit) {
    return &rows[(static_cast<size_t>(u) * 64 + bit) * kWords];
  };
  for (int u = 0; u < kUnits; ++u) {
    for (int bit = 0; bit < 64; ++bit) {
      size_t ones = 0;
      for (size_t w = 0; w < kWords; ++w)
        ones += __builtin_popcountll(row(u, bit)[w]);
      ASSERT_NEAR(0.5, static_cast<double>(ones) / kKeys, kBound)
          << "unit " << u << " bit " << bit;
    }
  }
  double worst = 0.5;
  for (int u = 0; u < kUnits; ++u) {
    for (int v = u + 1; v < kUnits; ++v) {
      for (int i = 0; i < 64; ++i) {
        const uint64_t* a = row(u, i);
        for (int j = 0; j < 64; ++j) {
          const uint64_t* b = row(v, j);
          size_t differ = 0;
          for (size_t w = 0; w < kWords; ++w) {
            differ += __builtin_popcountll(a[w] ^ b[w]);
          }
          const double agree = 1.0 - static_cast<double>(differ) / kKeys;
          if (std::abs(agree - 0.5) > std::abs(worst - 0.5)) worst = agree;
          ASSERT_NEAR(0.5, agree, kBound)
              << "units " << u << "," << v << " bits " << i << "," << j;
        }
      }
    }
  }
  std::printf("unit hash bit agreement: worst %.4f over %d unit pairs\n", worst,
              kUnits * (kUnits - 1) / 2);
}

TEST(Hash64Test, UnitHashesDifferPerUnit) {
  bench::SplitMix64 rnd(test::RandomSeed());
  for (int t = 0; t < 1000; ++t) {
    const uint64_t key_hash = rnd.Next();
    std::set<uint64_t> seen;
    for (int u = 0; u < 16; ++u) {
      EXPECT_EQ(UnitHash(key_hash, u), UnitHash(key_hash, u));
      EXPECT_TRUE(seen.insert(UnitHash(key_hash, u)).second) << u;
    }
  }
}

}  // namespace
}  // namespace leveldb
