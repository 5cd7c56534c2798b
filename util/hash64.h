// 64-bit key hashing for ElasticBF filter units.
//
// A Get computes KeyHash64 of its user key once and shares the value with
// every filter unit of every table it probes. Each unit derives its own probe
// positions from UnitHash(key_hash, unit_index), so the units of one filter
// group behave as independent Bloom filters (separability).
//
// Both functions are part of the on-disk format of filter units (hash
// version 1 in the elastic index): never change their output.
#ifndef STORAGE_LEVELDB_UTIL_HASH64_H_
#define STORAGE_LEVELDB_UTIL_HASH64_H_

#include <cstddef>
#include <cstdint>

namespace leveldb {

// Version recorded in the elastic index; bump when either function changes.
constexpr int kKeyHashVersion = 1;

// Strong, fast, non-cryptographic 64-bit hash of data[0, n). Every input bit
// affects every output bit with probability close to 1/2. Reads no byte
// outside data[0, n).
uint64_t KeyHash64(const char* data, size_t n);

namespace hash64_internal {

// Bijective 64-bit finalizer (xorshift-multiply, three rounds); see
// hash64.cc. Exposed only so that UnitHash can be inlined.
inline uint64_t Avalanche(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

// Spacing of the per-unit offsets: an odd constant (2^64 / golden ratio), so
// the offsets of units 0..15 are distinct and far apart in every bit.
constexpr uint64_t kUnitStep = 0x9e3779b97f4a7c15ull;

}  // namespace hash64_internal

// The hash that filter unit `unit_index` (>= 0) uses for a key whose
// KeyHash64 is key_hash. Offsetting the key hash by a per-unit constant and
// avalanching it again makes the units' bits pairwise uncorrelated.
inline uint64_t UnitHash(uint64_t key_hash, int unit_index) {
  const uint64_t offset =
      (static_cast<uint64_t>(unit_index) + 1) * hash64_internal::kUnitStep;
  return hash64_internal::Avalanche(key_hash + offset);
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_HASH64_H_
