// Portable CRC-32C using eight 256-entry tables ("slicing by 8"), with a
// hardware path chosen at run time through port::AcceleratedCRC32C.
#include "util/crc32c.h"

#include <array>

#include "port/port.h"
#include "util/coding.h"

namespace leveldb {
namespace crc32c {

namespace {

// Castagnoli polynomial, bit-reversed for LSB-first processing.
constexpr uint32_t kPolynomial = 0x82f63b78u;

using SliceTables = std::array<std::array<uint32_t, 256>, 8>;

constexpr SliceTables BuildTables() {
  SliceTables t{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t r = byte;
    for (int bit = 0; bit < 8; ++bit) {
      r = (r & 1) ? (r >> 1) ^ kPolynomial : (r >> 1);
    }
    t[0][byte] = r;
  }
  // Table k advances a byte's contribution past k more zero bytes.
  for (int k = 1; k < 8; ++k) {
    for (int byte = 0; byte < 256; ++byte) {
      uint32_t prev = t[k - 1][byte];
      t[k][byte] = (prev >> 8) ^ t[0][prev & 0xff];
    }
  }
  return t;
}

constexpr SliceTables kTables = BuildTables();

inline uint32_t StepByte(uint32_t state, uint8_t b) {
  return (state >> 8) ^ kTables[0][(state ^ b) & 0xff];
}

// Folds eight input bytes into the state with one lookup per byte.
inline uint32_t StepEight(uint32_t state, const char* p) {
  uint32_t lo = state ^ LoadFixed32(p);
  uint32_t hi = LoadFixed32(p + 4);
  return kTables[7][lo & 0xff] ^ kTables[6][(lo >> 8) & 0xff] ^
         kTables[5][(lo >> 16) & 0xff] ^ kTables[4][lo >> 24] ^
         kTables[3][hi & 0xff] ^ kTables[2][(hi >> 8) & 0xff] ^
         kTables[1][(hi >> 16) & 0xff] ^ kTables[0][hi >> 24];
}

}  // namespace

uint32_t ExtendPortable(uint32_t init, const char* data, size_t n) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(data);
  const uint8_t* end = p + n;
  uint32_t state = ~init;

  // Byte steps until the pointer is 8-aligned keep the word loads cheap.
  while (p != end && (reinterpret_cast<uintptr_t>(p) & 7) != 0) {
    state = StepByte(state, *p++);
  }
  while (end - p >= 8) {
    state = StepEight(state, reinterpret_cast<const char*>(p));
    p += 8;
  }
  while (p != end) {
    state = StepByte(state, *p++);
  }
  return ~state;
}

uint32_t Extend(uint32_t init, const char* data, size_t n) {
  uint32_t result;
  if (port::AcceleratedCRC32C(init, data, n, &result)) return result;
  return ExtendPortable(init, data, n);
}

}  // namespace crc32c
}  // namespace leveldb
