// CRC-32C (Castagnoli polynomial), as stored in log records and block
// trailers. Uses SSE4.2 when the CPU has it, a table-driven loop otherwise.
#ifndef STORAGE_LEVELDB_UTIL_CRC32C_H_
#define STORAGE_LEVELDB_UTIL_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace leveldb {
namespace crc32c {

// CRC of data[0, n) continued from the CRC `init` of some earlier bytes.
uint32_t Extend(uint32_t init, const char* data, size_t n);

// Portable path only; exposed so tests can compare both paths.
uint32_t ExtendPortable(uint32_t init, const char* data, size_t n);

inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }

// Stored CRCs are masked, because a CRC computed over bytes that themselves
// contain CRCs is otherwise prone to degenerate values.
constexpr uint32_t kMaskDelta = 0xa282ead8u;

inline uint32_t Mask(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}

inline uint32_t Unmask(uint32_t masked) {
  uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

}  // namespace crc32c
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_CRC32C_H_
