// Number generators of YCSB's core workload, with YCSB's definitions:
// counter, uniform, Zipfian (Gray et al., "Quickly generating
// billion-record synthetic databases", SIGMOD'94), scrambled Zipfian,
// skewed-latest and hotspot. Every client thread owns its generators and its
// Random; only the insert counter is shared.
#ifndef LEVELDB_BENCHMARKS_YCSB_GENERATORS_H_
#define LEVELDB_BENCHMARKS_YCSB_GENERATORS_H_

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "../common/random.h"
#include "../zipf_keys.h"

namespace ycsb {

// FNV-1a over the eight bytes of `value`, lowest byte first (YCSB's
// fnvhash64, without Java's sign handling).
inline uint64_t FnvHash64(uint64_t value) { return bench::Fnv1a64(value); }

// Small, fast pseudo-random source; one per thread.
using Random = bench::SplitMix64;

// Sum of 1 / i^theta for i in [1, n].
double Zeta(uint64_t n, double theta);
// `partial` (the sum up to `from`) extended to the sum up to `to`.
double ZetaExtend(uint64_t from, uint64_t to, double theta, double partial);
// Zeta(n, theta) for huge n: exact for the first 2^20 terms, the tail by the
// Euler-Maclaurin formula (relative error far below 1e-9).
double ZetaApproximate(uint64_t n, double theta);

class NumberGenerator {
 public:
  virtual ~NumberGenerator() = default;
  virtual uint64_t Next(Random* rng) = 0;
};

// Hands out consecutive numbers from `start`; shared by all threads. YCSB's
// acknowledged counter is simplified to a plain atomic counter: Last() may
// name a number whose insert is still in flight in another thread.
class CounterGenerator {
 public:
  explicit CounterGenerator(uint64_t start) : next_(start) {}
  uint64_t Next() { return next_.fetch_add(1, std::memory_order_relaxed); }
  // The most recently handed out number (start - 1 before the first).
  uint64_t Last() const { return next_.load(std::memory_order_relaxed) - 1; }

 private:
  std::atomic<uint64_t> next_;
};

// Uniform over [min, max].
class UniformGenerator : public NumberGenerator {
 public:
  UniformGenerator(uint64_t min, uint64_t max) : min_(min), span_(max - min) {}
  uint64_t Next(Random* rng) override;

 private:
  const uint64_t min_;
  const uint64_t span_;  // max - min
};

// Zipfian over [min, max]: min is the most popular item, min + 1 the next,
// and so on. theta (YCSB's zipfianconstant) is in (0, 1). Draws through
// zipf_keys::Zipfian, with zeta summed as YCSB sums it (Zeta, ZetaExtend).
class ZipfianGenerator : public NumberGenerator {
 public:
  ZipfianGenerator(uint64_t min, uint64_t max, double theta);
  // With a precomputed Zeta(max - min + 1, theta), e.g. shared by threads.
  ZipfianGenerator(uint64_t min, uint64_t max, double theta, double zetan);

  uint64_t Next(Random* rng) override;
  // A draw over the first `item_count` items; when the count differs from
  // the previous call, zeta is updated (incrementally when it grew).
  uint64_t NextWithCount(Random* rng, uint64_t item_count);

  uint64_t item_count() const { return ranks_.items(); }
  double zetan() const { return ranks_.zetan(); }

 private:
  const uint64_t base_;
  const double theta_;
  zipf_keys::Zipfian ranks_;
};

// YCSB's ScrambledZipfian: a Zipfian draw over a huge item space (10^10),
// hashed with FnvHash64 and reduced modulo the item count, so popular items
// are scattered over [min, max] instead of clustered at min.
class ScrambledZipfianGenerator : public NumberGenerator {
 public:
  static constexpr uint64_t kItemSpace = 10000000000ULL;
  // YCSB's precomputed Zeta(kItemSpace + 1, 0.99).
  static constexpr double kZetaItemSpace099 = 26.46902820178302;

  ScrambledZipfianGenerator(uint64_t min, uint64_t max, double theta);
  // With a precomputed ItemSpaceZeta(theta), e.g. shared by threads.
  ScrambledZipfianGenerator(uint64_t min, uint64_t max, double theta,
                            double item_space_zetan);
  uint64_t Next(Random* rng) override;

  // Zeta(kItemSpace + 1, theta): YCSB's constant for 0.99, else computed
  // (about 20 ms).
  static double ItemSpaceZeta(double theta);

 private:
  const uint64_t min_;
  const uint64_t item_count_;
  ZipfianGenerator zipfian_;
};

// YCSB's SkewedLatest: the newest inserted items are the most popular.
// Returns basis->Last() minus a Zipfian draw over [0, basis->Last()].
class SkewedLatestGenerator : public NumberGenerator {
 public:
  // `zetan` is Zeta(basis->Last() + 1, theta), computed once and shared.
  SkewedLatestGenerator(const CounterGenerator* basis, double theta,
                        double zetan);
  uint64_t Next(Random* rng) override;

 private:
  const CounterGenerator* const basis_;
  ZipfianGenerator zipfian_;
};

// YCSB's hotspot distribution over [min, max]: the lowest
// floor(items * data_fraction) numbers (at least one) form the hot set and
// get a share op_fraction of the draws; numbers are uniform within the hot
// set and within the rest. data_fraction in (0, 1], op_fraction in [0, 1].
class HotspotGenerator : public NumberGenerator {
 public:
  HotspotGenerator(uint64_t min, uint64_t max, double data_fraction,
                   double op_fraction);
  uint64_t Next(Random* rng) override;

  uint64_t hot_count() const { return hot_count_; }

 private:
  const uint64_t min_;
  const uint64_t items_;
  const double op_fraction_;
  uint64_t hot_count_;
};

// Picks one of several choices with probability proportional to its weight.
class DiscreteGenerator {
 public:
  void Add(int choice, double weight);
  double total_weight() const { return total_; }
  // Requires total_weight() > 0.
  int Next(Random* rng) const;

 private:
  std::vector<std::pair<int, double>> choices_;
  double total_ = 0;
};

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_GENERATORS_H_
