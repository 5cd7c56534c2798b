// Decimal and escaped renderings of numbers and byte strings.
#include "util/logging.h"

#include <limits>

namespace leveldb {

void AppendDecimal(std::string* dst, uint64_t n) {
  char digits[24];
  int len = 0;
  do {
    digits[len++] = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n != 0);
  while (len > 0) dst->push_back(digits[--len]);
}

void AppendEscaped(std::string* dst, const Slice& value) {
  static const char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < value.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(value[i]);
    if (c >= ' ' && c <= '~') {
      dst->push_back(static_cast<char>(c));
    } else {
      dst->append("\\x");
      dst->push_back(kHex[c >> 4]);
      dst->push_back(kHex[c & 0xf]);
    }
  }
}

std::string DecimalString(uint64_t n) {
  std::string out;
  AppendDecimal(&out, n);
  return out;
}

std::string EscapedString(const Slice& value) {
  std::string out;
  AppendEscaped(&out, value);
  return out;
}

bool ConsumeDecimal(Slice* in, uint64_t* value) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t acc = 0;
  size_t used = 0;
  while (used < in->size()) {
    const char c = (*in)[used];
    if (c < '0' || c > '9') break;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    // acc * 10 + digit must stay within 64 bits.
    if (acc > (kMax - digit) / 10) return false;
    acc = acc * 10 + digit;
    ++used;
  }
  if (used == 0) return false;
  in->remove_prefix(used);
  *value = acc;
  return true;
}

}  // namespace leveldb
