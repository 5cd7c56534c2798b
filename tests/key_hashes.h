// Key hashes for filter tests: 16-byte keys as in the evaluation (an 8-byte
// tag, then a counter), hashed with KeyHash64. Present and absent keys use
// different tags, so they never coincide.
#ifndef STORAGE_LEVELDB_TESTS_KEY_HASHES_H_
#define STORAGE_LEVELDB_TESTS_KEY_HASHES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/coding.h"
#include "util/hash64.h"

namespace leveldb {
namespace test {

constexpr uint64_t kPresentTag = 0x70726573656e7431ull;
constexpr uint64_t kAbsentTag = 0x616273656e743232ull;

inline uint64_t KeyHashOf(uint64_t tag, uint64_t i) {
  char key[16];
  StoreFixed64(key, tag);
  StoreFixed64(key + 8, i);
  return KeyHash64(key, sizeof(key));
}

// The hashes of keys 0..n-1 with `tag`.
inline std::vector<uint64_t> KeyHashes(uint64_t tag, size_t n) {
  std::vector<uint64_t> hashes(n);
  for (size_t i = 0; i < n; ++i) hashes[i] = KeyHashOf(tag, i);
  return hashes;
}

}  // namespace test
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_KEY_HASHES_H_
