// LevelDB's 32-bit multiplicative hash (a Murmur relative). Bloom filters
// written by other LevelDB builds depend on its exact output.
#include "util/hash.h"

#include "util/coding.h"

namespace leveldb {

uint32_t Hash(const char* data, size_t n, uint32_t seed) {
  constexpr uint32_t kMul = 0xc6a4a793u;
  constexpr int kTailShift = 24;

  const uint8_t* p = reinterpret_cast<const uint8_t*>(data);
  uint32_t h = seed ^ (static_cast<uint32_t>(n) * kMul);

  size_t words = n / 4;
  for (size_t i = 0; i < words; ++i, p += 4) {
    h += LoadFixed32(reinterpret_cast<const char*>(p));
    h *= kMul;
    h ^= (h >> 16);
  }

  // Remaining 0..3 bytes go in as one little-endian partial word.
  size_t tail = n % 4;
  if (tail > 0) {
    uint32_t partial = 0;
    for (size_t i = tail; i > 0; --i) {
      partial = (partial << 8) | p[i - 1];
    }
    h += partial;
    h *= kMul;
    h ^= (h >> kTailShift);
  }
  return h;
}

}  // namespace leveldb
