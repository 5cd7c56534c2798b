// Table-driven CRC32C (Castagnoli, reflected polynomial 0x82f63b78) on the
// public API only, so that db_bench and db_bench_upstream measure the very
// same code.
#ifndef LEVELDB_BENCHMARKS_COMMON_CRC32C_H_
#define LEVELDB_BENCHMARKS_COMMON_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace bench {

class Crc32c {
 public:
  Crc32c() {
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;
      for (int bit = 0; bit < 8; bit++) c = (c >> 1) ^ (0x82f63b78u & -(c & 1));
      table_[i] = c;
    }
  }
  uint32_t Value(const char* data, size_t n) const {
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
      crc = table_[(crc ^ static_cast<uint8_t>(data[i])) & 0xff] ^ (crc >> 8);
    }
    return crc ^ 0xffffffffu;
  }

 private:
  uint32_t table_[256];
};

}  // namespace bench

#endif  // LEVELDB_BENCHMARKS_COMMON_CRC32C_H_
