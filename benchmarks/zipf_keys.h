// The read-path evaluation workload (keys, values, fillunique's order,
// readzipf's lookups and the key-range locality distributions), shared by
// db_bench (both builds), rocksdb_readpath and filter_bound so that every
// system sees the very same keys, values and lookups. Standard library only.
#ifndef STORAGE_LEVELDB_BENCHMARKS_ZIPF_KEYS_H_
#define STORAGE_LEVELDB_BENCHMARKS_ZIPF_KEYS_H_

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/random.h"

namespace zipf_keys {

constexpr int kKeySize = 16;
constexpr const char* kAbsentSuffix = ".";

// The benchmarks' generators (common/random.h): Lehmer for the workload's
// own draws, SplitMix64 where a Zipfian sampler needs 53-bit doubles.
using Rng = bench::Lehmer;
using SplitMix64 = bench::SplitMix64;

// The seed of the 64-bit stream of benchmark thread `index` for --seed.
inline uint64_t ThreadSeed64(int64_t seed, int index) {
  return static_cast<uint64_t>(seed) * 0x9e3779b97f4a7c15ull +
         static_cast<uint64_t>(index) + 1;
}

// Writes key k (plus `suffix`) into an internal buffer.
class KeyFormatter {
 public:
  std::string_view Set(uint64_t k, const char* suffix = "") {
    const int n =
        std::snprintf(buf_, sizeof(buf_), "%016" PRIu64 "%s", k, suffix);
    return std::string_view(buf_, static_cast<size_t>(n));
  }

 private:
  char buf_[64];
};

// Serves values cut from a pool of bytes that compress to about
// `compression_ratio` of their size, so that compressed tables are as large
// as asked. Same ratio and length, same bytes, in every program.
class ValueSource {
 public:
  ValueSource(size_t longest_value, double compression_ratio) {
    constexpr size_t kPiece = 100;
    const size_t target = std::max<size_t>(1 << 20, 2 * longest_value);
    const size_t distinct =
        std::max<size_t>(1, static_cast<size_t>(kPiece * compression_ratio));
    Rng rng(301);
    pool_.reserve(target + kPiece);
    std::string piece;
    while (pool_.size() < target) {
      // A short random run repeated to fill the piece: a compressor keeps
      // the run and encodes the repeats as cheap back-references.
      piece.clear();
      for (size_t i = 0; i < distinct; i++) {
        piece.push_back(static_cast<char>(' ' + rng.Uniform(95)));
      }
      for (size_t i = 0; i < kPiece; i++) pool_.push_back(piece[i % distinct]);
    }
  }

  std::string_view Next(size_t len) {
    if (position_ + len > pool_.size()) position_ = 0;
    std::string_view result(pool_.data() + position_, len);
    position_ += len;
    return result;
  }

 private:
  std::string pool_;
  size_t position_ = 0;
};

// A seeded random permutation of [0, n) (Fisher-Yates): the order in which
// fillunique writes its keys, so that n writes leave exactly n live keys.
inline std::vector<uint32_t> UniqueKeyOrder(uint32_t n, int64_t seed) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  SplitMix64 rng(static_cast<uint64_t>(seed) ^ 0x66696c6c756e6971ull);
  for (uint32_t i = n; i > 1; i--) {
    const uint32_t j = rng.Below(i);
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

// zeta(n, theta) = sum of i^-theta for i = 1..n. Summed exactly for the
// first million terms; the rest of the tail by Euler-Maclaurin (integral
// plus end-point and first-derivative corrections), whose error is far
// below double precision at that distance.
inline double Zeta(uint64_t n, double theta) {
  constexpr uint64_t kExactTerms = 1000000;
  const uint64_t exact = std::min(n, kExactTerms);
  double sum = 0;
  // Smallest terms first, for accuracy.
  for (uint64_t i = exact; i >= 1; i--) {
    sum += std::pow(static_cast<double>(i), -theta);
  }
  if (n <= exact) return sum;
  const double a = static_cast<double>(exact);
  const double b = static_cast<double>(n);
  auto f = [theta](double x) { return std::pow(x, -theta); };
  auto df = [theta](double x) { return -theta * std::pow(x, -theta - 1); };
  const double integral =
      (std::pow(b, 1 - theta) - std::pow(a, 1 - theta)) / (1 - theta);
  // sum over (a, b] = integral + (f(b) - f(a)) / 2 + (f'(b) - f'(a)) / 12
  return sum + integral + (f(b) - f(a)) / 2 + (df(b) - df(a)) / 12;
}

using bench::Fnv1a64;

// Zipfian over the ranks [0, n) by Gray et al.'s method ("Quickly
// generating billion-record synthetic databases", SIGMOD 1994): rank r has
// probability close to (r + 1)^-theta / zeta(n, theta), exactly so for
// ranks 0 and 1 (Cdf() gives the sampler's own law). Used as key = rank,
// the hottest keys come first in key order. The one sampler of the
// benchmarks: the YCSB runner's generators draw through it too, with zeta
// sums of their own (summed in YCSB's order, so their draws stay as they
// were). Extend() and Reset() change n in place (the latest
// distribution), so a sampler whose n changes is owned by one thread.
class Zipfian {
 public:
  Zipfian(uint64_t n, double theta)
      : Zipfian(std::max<uint64_t>(n, 1), theta,
                Zeta(std::max<uint64_t>(n, 1), theta), Zeta(2, theta)) {}
  // With zeta(n, theta) and zeta(2, theta) given.
  Zipfian(uint64_t n, double theta, double zetan, double zeta2)
      : theta_(theta),
        alpha_(1.0 / (1.0 - theta)),
        zeta2_(zeta2),
        second_rank_limit_(1.0 + std::pow(0.5, theta)) {
    Reset(n, zetan);
  }

  // A rank in [0, n), given u uniform in [0, 1).
  uint64_t Rank(double u) const {
    const double uz = u * zetan_;
    if (uz < 1.0) return 0;
    if (uz < second_rank_limit_) return std::min<uint64_t>(1, items_ - 1);
    const double scaled =
        static_cast<double>(items_) * std::pow(eta_ * u - eta_ + 1, alpha_);
    // The clamp guards rounding as u nears 1.
    return std::min(static_cast<uint64_t>(scaled), items_ - 1);
  }

  // Grows the item count to n (no-op unless n is larger), adding the new
  // terms to zeta instead of summing it again.
  void Extend(uint64_t n) {
    if (n <= items_) return;
    double zetan = zetan_;
    for (uint64_t i = items_ + 1; i <= n; i++) {
      zetan += std::pow(static_cast<double>(i), -theta_);
    }
    Reset(n, zetan);
  }

  // Sets the item count to n (at least 1 before a draw), whose
  // zeta(n, theta) is `zetan`.
  void Reset(uint64_t n, double zetan) {
    items_ = n;
    zetan_ = zetan;
    // Up to two items the first two branches of Rank() cover every u, and
    // the formula would divide zero by zero.
    eta_ = items_ < 3 ? 0.0
                      : (1.0 - std::pow(2.0 / static_cast<double>(items_),
                                        1.0 - theta_)) /
                            (1.0 - zeta2_ / zetan_);
  }
  // P(Rank(u) <= j) for u uniform in [0, 1): the sampler's own law, which
  // Gray et al.'s method makes differ from the exact Zipfian beyond rank 1.
  double Cdf(uint64_t j) const {
    if (j + 1 >= items_) return 1.0;
    const double first = 1.0 / zetan_;  // u below it: rank 0
    const double second = std::min(1.0, second_rank_limit_ / zetan_);
    double p = first + (j >= 1 ? second - first : 0.0);
    // Above `second` the rank is floor(n * (eta u - eta + 1)^alpha), below
    // j + 1 for u below u_j.
    const double ratio =
        static_cast<double>(j + 1) / static_cast<double>(items_);
    if (eta_ > 0) {
      const double u_j = 1.0 - (1.0 - std::pow(ratio, 1.0 - theta_)) / eta_;
      p += std::max(0.0, std::min(1.0, u_j) - second);
    }
    return std::min(p, 1.0);
  }

  // P(Rank(u) == j).
  double Probability(uint64_t j) const {
    return j == 0 ? Cdf(0) : Cdf(j) - Cdf(j - 1);
  }

  uint64_t items() const { return items_; }
  double zetan() const { return zetan_; }

 private:
  const double theta_;
  const double alpha_;
  const double zeta2_;
  const double second_rank_limit_;
  uint64_t items_ = 1;
  double zetan_ = 1;
  double eta_ = 0;
};

// YCSB's ScrambledZipfianGenerator: a Zipfian rank over a huge item space
// (10^10 items), hashed with FNV-1a and reduced modulo the number of keys,
// so that popular keys are spread over the key space instead of clustered
// at its start. Immutable; share across threads.
class ScrambledZipfian {
 public:
  ScrambledZipfian(uint64_t num_keys, double theta)
      : num_keys_(std::max<uint64_t>(num_keys, 1)), ranks_(kItemSpace, theta) {}

  // A key index in [0, num_keys), given u uniform in [0, 1).
  uint64_t Next(double u) const { return Scramble(ranks_.Rank(u)); }

  // The Zipfian rank in [0, kItemSpace) for u uniform in [0, 1): rank r
  // has probability (r + 1)^-theta / zeta(kItemSpace, theta).
  uint64_t Rank(double u) const { return ranks_.Rank(u); }

  double zetan() const { return ranks_.zetan(); }

  static constexpr uint64_t kItemSpace = 10000000000ull;

  // The key index of a rank. YCSB takes the absolute value of the hash
  // read as a signed 64-bit number before reducing it.
  uint64_t Scramble(uint64_t rank) const {
    const uint64_t hash = Fnv1a64(rank);
    const uint64_t magnitude =
        (hash >> 63) != 0 ? (~hash + 1) : hash;  // |hash| as int64
    return magnitude % num_keys_;
  }

 private:
  const uint64_t num_keys_;
  const Zipfian ranks_;
};

// YCSB's hotspot distribution over [0, n): a contiguous hot range holding
// a share data_fraction of the keys receives a share op_fraction of the
// lookups; keys are uniform within the hot range and within the rest. The
// hot range starts at key floor(n * start_fraction), moved down if needed
// so that it ends inside [0, n). Immutable; share across threads.
class Hotspot {
 public:
  Hotspot(uint64_t n, double data_fraction, double op_fraction,
          double start_fraction)
      : n_(std::max<uint64_t>(n, 1)), op_fraction_(op_fraction) {
    const double hot = std::floor(static_cast<double>(n_) * data_fraction);
    hot_count_ = std::clamp<uint64_t>(static_cast<uint64_t>(hot), 1, n_);
    const double begin = std::floor(static_cast<double>(n_) * start_fraction);
    hot_begin_ =
        std::min(static_cast<uint64_t>(std::max(begin, 0.0)), n_ - hot_count_);
  }

  // A key in [0, n), given two independent uniforms in [0, 1): one picks
  // the part (hot or cold), the other the key within it.
  uint64_t Next(double u_part, double u_key) const {
    const uint64_t cold = n_ - hot_count_;
    if (cold == 0 || u_part < op_fraction_) {
      return hot_begin_ + Scale(u_key, hot_count_);
    }
    const uint64_t c = Scale(u_key, cold);
    return c < hot_begin_ ? c : c + hot_count_;
  }

  // The probability that Next() returns key k.
  double Probability(uint64_t k) const {
    const uint64_t cold = n_ - hot_count_;
    const bool hot = k >= hot_begin_ && k < hot_end();
    if (cold == 0) return hot ? 1.0 / static_cast<double>(n_) : 0.0;
    return hot ? op_fraction_ / static_cast<double>(hot_count_)
               : (1.0 - op_fraction_) / static_cast<double>(cold);
  }

  uint64_t hot_begin() const { return hot_begin_; }
  uint64_t hot_end() const { return hot_begin_ + hot_count_; }

 private:
  static uint64_t Scale(double u, uint64_t count) {
    return std::min(static_cast<uint64_t>(u * static_cast<double>(count)),
                    count - 1);
  }

  const uint64_t n_;
  const double op_fraction_;
  uint64_t hot_count_;
  uint64_t hot_begin_;
};

// The key distributions of readzipf (db_bench --key_dist) and filter_bound.
enum class KeyDist { kZipf, kOrderedZipf, kHotspot, kLatest };

// The names of KeyDist's values, in their order.
inline constexpr const char* kKeyDistNames[] = {"zipf", "ordered_zipf",
                                                "hotspot", "latest"};

inline bool ParseKeyDist(std::string_view name, KeyDist* dist) {
  for (size_t i = 0; i < std::size(kKeyDistNames); i++) {
    if (name == kKeyDistNames[i]) {
      *dist = static_cast<KeyDist>(i);
      return true;
    }
  }
  return false;
}

inline const char* KeyDistName(KeyDist dist) {
  return kKeyDistNames[static_cast<int>(dist)];
}

// Probability of every key of [0, n) under the unscrambled Zipfian sampler
// (Zipfian::Probability, the law readzipf really draws from): key k has
// rank k, or rank n - 1 - k for the latest distribution (newest hottest).
inline std::vector<double> OrderedZipfProbabilities(uint64_t n, double theta,
                                                    bool newest_first) {
  std::vector<double> p(n);
  const Zipfian zipf(n, theta);
  double below = 0;  // Cdf(rank - 1), so that each rank costs one Cdf
  for (uint64_t rank = 0; rank < n; rank++) {
    const double cdf = zipf.Cdf(rank);
    p[newest_first ? n - 1 - rank : rank] = cdf - below;
    below = cdf;
  }
  return p;
}

// One readzipf lookup: the key index, and whether the lookup asks for the
// absent key next to it (probability zero_lookup_ratio). Draws from `rng`
// in a fixed order, so equal seeds give equal lookups in every program.
struct ZipfLookup {
  uint64_t key;
  bool absent;
};

// A lookup whose key `draw(rng)` picks, then the absent-key choice.
template <typename Draw>
ZipfLookup NextLookup(const Draw& draw, double zero_lookup_ratio,
                      SplitMix64* rng) {
  ZipfLookup lookup;
  lookup.key = draw(rng);
  lookup.absent =
      zero_lookup_ratio > 0 && rng->NextDouble() < zero_lookup_ratio;
  return lookup;
}

// readzipf's lookup: a scrambled Zipfian key.
inline ZipfLookup NextZipfLookup(const ScrambledZipfian& zipf,
                                 double zero_lookup_ratio, SplitMix64* rng) {
  return NextLookup(
      [&zipf](SplitMix64* r) { return zipf.Next(r->NextDouble()); },
      zero_lookup_ratio, rng);
}

// What the lookups of readzipf and readlatest found, as every program
// reports it.
struct LookupCounts {
  int64_t found = 0;
  int64_t absent_lookups = 0;  // lookups for absent keys
  int64_t absent_found = 0;    // absent keys found (must stay 0)

  void Add(bool key_found, bool absent) {
    if (key_found) found++;
    if (absent) absent_lookups++;
    if (key_found && absent) absent_found++;
  }
  void Merge(const LookupCounts& other) {
    found += other.found;
    absent_lookups += other.absent_lookups;
    absent_found += other.absent_found;
  }
};

}  // namespace zipf_keys

#endif  // STORAGE_LEVELDB_BENCHMARKS_ZIPF_KEYS_H_
