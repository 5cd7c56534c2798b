// KeyHash64: structure of the mixing.
//
//   state  two 64-bit lanes, A and B, seeded differently; A also absorbs the
//          length, so inputs of different lengths start apart.
//   bulk   each 16-byte stripe gives one little-endian word to A and one to
//          B. The lanes are independent, so their multiplies overlap in the
//          pipeline; a 16-byte key is exactly one stripe.
//   tail   0..15 bytes left: a full word goes to A, then the last 1..7 bytes
//          are packed into one word for B with loads that stay inside the
//          input (an overlapping 8-byte load when the input has 8 bytes, else
//          two overlapping 4-byte loads or three single bytes). For a fixed
//          length the packing is injective.
//   absorb lane' = rotl(lane ^ (word * M1), 29) * M2: a bijection of the lane
//          for a fixed word and of the word for a fixed lane, so no input
//          difference is lost inside one step.
//   finish A + rotl(B, 32), then the xorshift-multiply finalizer
//          (hash64_internal::Avalanche), which spreads every bit over the
//          whole word.
#include "util/hash64.h"

#include "util/coding.h"

namespace leveldb {

namespace {

// Odd multipliers with balanced bits (hex digits of pi and e).
constexpr uint64_t kWordMul = 0x243f6a8885a308d3ull;
constexpr uint64_t kLaneMul = 0xc0ac29b7c97c50ddull;
constexpr uint64_t kLengthMul = 0x452821e638d01377ull;
// Distinct lane seeds (more digits of e).
constexpr uint64_t kSeedA = 0xb7e151628aed2a6bull;
constexpr uint64_t kSeedB = 0x8a2e03707344a409ull;

inline uint64_t RotateLeft(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

inline uint64_t Absorb(uint64_t lane, uint64_t word) {
  return RotateLeft(lane ^ (word * kWordMul), 29) * kLaneMul;
}

// Packs the last `left` (1..7) bytes of the input, which end at `end`, into a
// word. `total` is the full input length: when it is at least 8, one 8-byte
// load ending at `end` is in bounds.
inline uint64_t PackTail(const char* end, size_t left, size_t total) {
  if (total >= 8) {
    return LoadFixed64(end - 8) >> (8 * (8 - left));
  }
  const char* p = end - left;
  if (left >= 4) {
    const uint64_t low = LoadFixed32(p);
    const uint64_t high = LoadFixed32(end - 4);
    return low | (high << 32);
  }
  const uint64_t first = static_cast<uint8_t>(p[0]);
  const uint64_t middle = static_cast<uint8_t>(p[left / 2]);
  const uint64_t last = static_cast<uint8_t>(p[left - 1]);
  return first | (middle << 8) | (last << 16);
}

}  // namespace

uint64_t KeyHash64(const char* data, size_t n) {
  uint64_t a = kSeedA ^ (static_cast<uint64_t>(n) * kLengthMul);
  uint64_t b = kSeedB;
  const char* p = data;
  size_t left = n;
  while (left >= 16) {
    a = Absorb(a, LoadFixed64(p));
    b = Absorb(b, LoadFixed64(p + 8));
    p += 16;
    left -= 16;
  }
  if (left >= 8) {
    a = Absorb(a, LoadFixed64(p));
    p += 8;
    left -= 8;
  }
  if (left > 0) {
    b = Absorb(b, PackTail(p + left, left, n));
  }
  return hash64_internal::Avalanche(a + RotateLeft(b, 32));
}

}  // namespace leveldb
