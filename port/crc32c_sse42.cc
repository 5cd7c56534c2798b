// CRC-32C with the SSE4.2 crc32 instruction. This file alone is compiled
// with -msse4.2; the CPU is checked at run time before any instruction runs.
//
// The instruction has a latency of about three cycles but can start one per
// cycle, so long inputs are split into three interleaved stripes whose CRCs
// are computed independently and then merged.
#include <nmmintrin.h>

#include <array>
#include <cstring>

#include "port/port.h"

namespace leveldb {
namespace port {

namespace {

// Bytes per stripe; one round covers three stripes.
constexpr size_t kStripeBytes = 256;
constexpr size_t kRoundBytes = 3 * kStripeBytes;

bool CpuHasSse42() {
  static const bool kHasSse42 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") != 0;
  }();
  return kHasSse42;
}

inline uint64_t LoadWord(const char* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof(word));
  return word;
}

// Advances a raw (non-inverted) CRC register past kStripeBytes zero bytes.
// That map is linear over GF(2), so it is tabulated per input byte.
class StripeShift {
 public:
  StripeShift() {
    uint32_t basis[32];
    for (int bit = 0; bit < 32; ++bit) {
      uint64_t reg = uint32_t{1} << bit;
      for (size_t i = 0; i < kStripeBytes; i += 8) reg = _mm_crc32_u64(reg, 0);
      basis[bit] = static_cast<uint32_t>(reg);
    }
    for (int lane = 0; lane < 4; ++lane) {
      for (int byte = 0; byte < 256; ++byte) {
        uint32_t acc = 0;
        for (int bit = 0; bit < 8; ++bit) {
          if (byte & (1 << bit)) acc ^= basis[8 * lane + bit];
        }
        table_[lane][byte] = acc;
      }
    }
  }

  uint32_t Apply(uint32_t reg) const {
    return table_[0][reg & 0xff] ^ table_[1][(reg >> 8) & 0xff] ^
           table_[2][(reg >> 16) & 0xff] ^ table_[3][reg >> 24];
  }

 private:
  std::array<std::array<uint32_t, 256>, 4> table_;
};

const StripeShift& Shifter() {
  static const StripeShift kShift;
  return kShift;
}

}  // namespace

bool AcceleratedCRC32C(uint32_t crc, const char* data, size_t size,
                       uint32_t* result) {
  if (!CpuHasSse42()) return false;

  const char* p = data;
  const char* end = data + size;
  uint32_t reg = ~crc;

  // Single bytes until p is 8-aligned.
  while (p != end && (reinterpret_cast<uintptr_t>(p) & 7) != 0) {
    reg = _mm_crc32_u8(reg, static_cast<uint8_t>(*p++));
  }

  if (static_cast<size_t>(end - p) >= kRoundBytes) {
    const StripeShift& shift = Shifter();
    while (static_cast<size_t>(end - p) >= kRoundBytes) {
      uint64_t a = reg;
      uint64_t b = 0;
      uint64_t c = 0;
      for (size_t i = 0; i < kStripeBytes; i += 8) {
        a = _mm_crc32_u64(a, LoadWord(p + i));
        b = _mm_crc32_u64(b, LoadWord(p + kStripeBytes + i));
        c = _mm_crc32_u64(c, LoadWord(p + 2 * kStripeBytes + i));
      }
      // CRC(s, X || Y) = shift(CRC(s, X), |Y|) ^ CRC(0, Y) for raw registers.
      reg = shift.Apply(static_cast<uint32_t>(a)) ^ static_cast<uint32_t>(b);
      reg = shift.Apply(reg) ^ static_cast<uint32_t>(c);
      p += kRoundBytes;
    }
  }

  uint64_t wide = reg;
  while (end - p >= 8) {
    wide = _mm_crc32_u64(wide, LoadWord(p));
    p += 8;
  }
  reg = static_cast<uint32_t>(wide);
  while (p != end) {
    reg = _mm_crc32_u8(reg, static_cast<uint8_t>(*p++));
  }

  *result = ~reg;
  return true;
}

}  // namespace port
}  // namespace leveldb
