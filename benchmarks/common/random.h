// The pseudo-random generators of the benchmarks, identical in every
// build: Lehmer (31 bits, tiny) and SplitMix64 (fast, 64 bits of output,
// and a full-resolution double, what a Zipfian sampler needs); and the
// FNV-1a hash that scrambles what they draw.
#ifndef LEVELDB_BENCHMARKS_COMMON_RANDOM_H_
#define LEVELDB_BENCHMARKS_COMMON_RANDOM_H_

#include <cstdint>

namespace bench {

// Lehmer ("minimal standard") generator.
class Lehmer {
 public:
  explicit Lehmer(uint32_t seed) : state_(seed % kModulus) {
    if (state_ == 0) state_ = 1;
  }
  uint32_t Next() {
    state_ = static_cast<uint32_t>((uint64_t{state_} * 16807) % kModulus);
    return state_;
  }
  // Uniform in [0, n); n must be positive.
  uint32_t Uniform(uint32_t n) { return Next() % n; }

 private:
  static constexpr uint32_t kModulus = 2147483647u;  // 2^31 - 1
  uint32_t state_;
};

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1): the top 53 bits fill a double's mantissa.
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, n) for n > 0 from the top 32 bits (multiply-shift; its
  // bias, below n / 2^32, is irrelevant for a shuffle).
  uint32_t Below(uint32_t n) {
    return static_cast<uint32_t>(((Next() >> 32) * n) >> 32);
  }
  // Uniform in [0, n) for n > 0 from all 64 bits (multiply-high).
  uint64_t Uniform(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >>
                                 64);
  }

 private:
  uint64_t state_;
};

// 64-bit FNV-1a over the eight little-endian bytes of v: how YCSB and
// readzipf scramble Zipfian ranks and name hashed keys.
inline uint64_t Fnv1a64(uint64_t v) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (int i = 0; i < 8; i++) {
    hash ^= v & 0xff;
    hash *= 0x100000001b3ull;
    v >>= 8;
  }
  return hash;
}

}  // namespace bench

#endif  // LEVELDB_BENCHMARKS_COMMON_RANDOM_H_
