// Varint and fixed-width encoders/decoders shared by all on-disk formats.
#include "util/coding.h"

namespace leveldb {

namespace {

constexpr uint8_t kMoreBit = 0x80;
constexpr uint8_t kPayloadMask = 0x7f;

// Emits v seven bits at a time, lowest group first.
char* EmitVarint(char* dst, uint64_t v) {
  uint8_t* out = reinterpret_cast<uint8_t*>(dst);
  while (v >= kMoreBit) {
    *out++ = static_cast<uint8_t>(v) | kMoreBit;
    v >>= 7;
  }
  *out++ = static_cast<uint8_t>(v);
  return reinterpret_cast<char*>(out);
}

// Decodes at most max_bytes groups. A value that needs more groups than that
// is rejected, as is one that runs past limit or overflows 64 bits.
const char* DecodeVarint(const char* p, const char* limit, int max_bytes,
                         uint64_t* v) {
  uint64_t acc = 0;
  for (int i = 0; i < max_bytes && p < limit; ++i) {
    uint8_t byte = static_cast<uint8_t>(*p++);
    // The tenth group has room for only the top bit of a 64-bit value.
    if (i == kMaxVarint64Bytes - 1 && byte > 1) return nullptr;
    acc |= static_cast<uint64_t>(byte & kPayloadMask) << (7 * i);
    if ((byte & kMoreBit) == 0) {
      *v = acc;
      return p;
    }
  }
  return nullptr;
}

}  // namespace

char* WriteVarint32(char* dst, uint32_t v) { return EmitVarint(dst, v); }

char* WriteVarint64(char* dst, uint64_t v) { return EmitVarint(dst, v); }

int VarintSize(uint64_t v) {
  int n = 1;
  while (v >= kMoreBit) {
    v >>= 7;
    ++n;
  }
  return n;
}

void AppendFixed32(std::string* dst, uint32_t v) {
  char buf[4];
  StoreFixed32(buf, v);
  dst->append(buf, sizeof(buf));
}

void AppendFixed64(std::string* dst, uint64_t v) {
  char buf[8];
  StoreFixed64(buf, v);
  dst->append(buf, sizeof(buf));
}

void AppendVarint32(std::string* dst, uint32_t v) {
  char buf[kMaxVarint32Bytes];
  char* end = WriteVarint32(buf, v);
  dst->append(buf, end - buf);
}

void AppendVarint64(std::string* dst, uint64_t v) {
  char buf[kMaxVarint64Bytes];
  char* end = WriteVarint64(buf, v);
  dst->append(buf, end - buf);
}

void AppendLengthPrefixed(std::string* dst, const Slice& value) {
  AppendVarint32(dst, static_cast<uint32_t>(value.size()));
  dst->append(value.data(), value.size());
}

const char* ParseVarint32(const char* p, const char* limit, uint32_t* v) {
  // Fast path for the very common one-byte case.
  if (p < limit && (static_cast<uint8_t>(*p) & kMoreBit) == 0) {
    *v = static_cast<uint8_t>(*p);
    return p + 1;
  }
  uint64_t wide;
  const char* next = DecodeVarint(p, limit, kMaxVarint32Bytes, &wide);
  // The fifth group may carry at most 4 meaningful bits.
  if (next == nullptr || wide > UINT32_MAX) return nullptr;
  *v = static_cast<uint32_t>(wide);
  return next;
}

const char* ParseVarint64(const char* p, const char* limit, uint64_t* v) {
  if (p < limit && (static_cast<uint8_t>(*p) & kMoreBit) == 0) {
    *v = static_cast<uint8_t>(*p);
    return p + 1;
  }
  return DecodeVarint(p, limit, kMaxVarint64Bytes, v);
}

bool ConsumeVarint32(Slice* input, uint32_t* v) {
  const char* begin = input->data();
  const char* next = ParseVarint32(begin, begin + input->size(), v);
  if (next == nullptr) return false;
  input->remove_prefix(next - begin);
  return true;
}

bool ConsumeVarint64(Slice* input, uint64_t* v) {
  const char* begin = input->data();
  const char* next = ParseVarint64(begin, begin + input->size(), v);
  if (next == nullptr) return false;
  input->remove_prefix(next - begin);
  return true;
}

bool ConsumeLengthPrefixed(Slice* input, Slice* result) {
  uint32_t len;
  if (!ConsumeVarint32(input, &len) || input->size() < len) return false;
  *result = Slice(input->data(), len);
  input->remove_prefix(len);
  return true;
}

}  // namespace leveldb
