// Little-endian fixed-width and varint encodings used by every on-disk
// format of the database (blocks, logs, version edits, write batches).
#ifndef STORAGE_LEVELDB_UTIL_CODING_H_
#define STORAGE_LEVELDB_UTIL_CODING_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "leveldb/slice.h"

namespace leveldb {

// Longest varint encodings, in bytes.
constexpr int kMaxVarint32Bytes = 5;
constexpr int kMaxVarint64Bytes = 10;

// Raw stores and loads, little-endian on every host. On a little-endian
// host a store is one memcpy (a single move): the byte-wise form below is
// not always merged into one by the compiler.
constexpr bool kHostLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

inline void StoreFixed32(char* dst, uint32_t v) {
  if constexpr (kHostLittleEndian) {
    std::memcpy(dst, &v, sizeof(v));
  } else {
    uint8_t* p = reinterpret_cast<uint8_t*>(dst);
    for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
  }
}

inline void StoreFixed64(char* dst, uint64_t v) {
  if constexpr (kHostLittleEndian) {
    std::memcpy(dst, &v, sizeof(v));
  } else {
    uint8_t* p = reinterpret_cast<uint8_t*>(dst);
    for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
  }
}

inline uint32_t LoadFixed32(const char* src) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(src);
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

inline uint64_t LoadFixed64(const char* src) {
  uint64_t lo = LoadFixed32(src);
  uint64_t hi = LoadFixed32(src + 4);
  return lo | (hi << 32);
}

// Writes a varint at dst and returns the byte after it. dst needs room for
// kMaxVarint32Bytes / kMaxVarint64Bytes.
char* WriteVarint32(char* dst, uint32_t v);
char* WriteVarint64(char* dst, uint64_t v);

// Number of bytes the varint encoding of v takes.
int VarintSize(uint64_t v);

// Appenders.
void AppendFixed32(std::string* dst, uint32_t v);
void AppendFixed64(std::string* dst, uint64_t v);
void AppendVarint32(std::string* dst, uint32_t v);
void AppendVarint64(std::string* dst, uint64_t v);
// varint32 length followed by the bytes.
void AppendLengthPrefixed(std::string* dst, const Slice& value);

// Parse a varint in [p, limit). Returns the byte after it, or nullptr if the
// encoding is truncated or too long.
const char* ParseVarint32(const char* p, const char* limit, uint32_t* v);
const char* ParseVarint64(const char* p, const char* limit, uint64_t* v);

// Consume a value from the front of *input. On failure return false; *input
// is then unspecified.
bool ConsumeVarint32(Slice* input, uint32_t* v);
bool ConsumeVarint64(Slice* input, uint64_t* v);
bool ConsumeLengthPrefixed(Slice* input, Slice* result);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_CODING_H_
