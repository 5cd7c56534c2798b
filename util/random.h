// Small, fast pseudo-random generators for tests, benchmarks and the skiplist.
// Not for anything that needs unpredictability.
#ifndef STORAGE_LEVELDB_UTIL_RANDOM_H_
#define STORAGE_LEVELDB_UTIL_RANDOM_H_

#include <cstdint>

namespace leveldb {

// Park-Miller "minimal standard" generator (multiplier 16807 modulo 2^31-1).
class Random {
 public:
  explicit Random(uint32_t seed) : state_(seed & kModulus) {
    if (state_ == 0 || state_ == kModulus) state_ = 1;
  }

  uint32_t Next() {
    uint64_t product = static_cast<uint64_t>(state_) * kMultiplier;
    // Reduce modulo 2^31-1 without a division: fold the high bits back in.
    uint64_t folded = (product >> 31) + (product & kModulus);
    if (folded > kModulus) folded -= kModulus;
    state_ = static_cast<uint32_t>(folded);
    return state_;
  }

  // Uniform in [0, n). n must be > 0.
  uint32_t Uniform(int n) { return Next() % static_cast<uint32_t>(n); }

  // True about once every n calls.
  bool OneIn(int n) { return Uniform(n) == 0; }

  // Picks a bit-width uniformly in [0, max_log], then a value of that width:
  // small numbers are much more likely than large ones.
  uint32_t Skewed(int max_log) { return Uniform(1 << Uniform(max_log + 1)); }

 private:
  static constexpr uint32_t kModulus = 2147483647u;
  static constexpr uint64_t kMultiplier = 16807;
  uint32_t state_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_RANDOM_H_
