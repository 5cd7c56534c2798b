// Encodings must round-trip at every boundary and reject malformed input
// without reading past the end of the buffer.
#include "util/coding.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace leveldb {
namespace {

// 0, 1, 127, 128, 2^14-1, the type maximum, and every power of two +-1.
template <typename T>
std::vector<T> EdgeValues() {
  std::vector<T> v = {
      0, 1, 127, 128, (1u << 14) - 1, 1u << 14, std::numeric_limits<T>::max()};
  for (int bit = 0; bit < std::numeric_limits<T>::digits; ++bit) {
    T power = static_cast<T>(T{1} << bit);
    v.push_back(power);
    v.push_back(static_cast<T>(power - 1));
    v.push_back(static_cast<T>(power + 1));
  }
  return v;
}

TEST(CodingTest, Fixed32RoundTrip) {
  std::string buf;
  std::vector<uint32_t> values = EdgeValues<uint32_t>();
  for (uint32_t v : values) AppendFixed32(&buf, v);
  ASSERT_EQ(values.size() * 4, buf.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(values[i], LoadFixed32(buf.data() + 4 * i));
  }
}

TEST(CodingTest, Fixed64RoundTrip) {
  std::string buf;
  std::vector<uint64_t> values = EdgeValues<uint64_t>();
  for (uint64_t v : values) AppendFixed64(&buf, v);
  ASSERT_EQ(values.size() * 8, buf.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(values[i], LoadFixed64(buf.data() + 8 * i));
  }
}

TEST(CodingTest, FixedIsLittleEndian) {
  std::string buf;
  AppendFixed32(&buf, 0x04030201u);
  AppendFixed64(&buf, 0x0807060504030201ull);
  EXPECT_EQ(std::string("\x01\x02\x03\x04\x01\x02\x03\x04\x05\x06\x07\x08"),
            buf);
  char raw[8];
  StoreFixed32(raw, 0xdeadbeefu);
  EXPECT_EQ(0xef, static_cast<uint8_t>(raw[0]));
  EXPECT_EQ(0xde, static_cast<uint8_t>(raw[3]));
  StoreFixed64(raw, 0x1122334455667788ull);
  EXPECT_EQ(0x88, static_cast<uint8_t>(raw[0]));
  EXPECT_EQ(0x11, static_cast<uint8_t>(raw[7]));
}

TEST(CodingTest, Varint32RoundTrip) {
  std::string buf;
  std::vector<uint32_t> values = EdgeValues<uint32_t>();
  for (uint32_t v : values) AppendVarint32(&buf, v);

  const char* p = buf.data();
  const char* limit = p + buf.size();
  for (uint32_t expected : values) {
    uint32_t actual;
    const char* start = p;
    p = ParseVarint32(p, limit, &actual);
    ASSERT_NE(nullptr, p);
    EXPECT_EQ(expected, actual);
    EXPECT_EQ(VarintSize(expected), p - start);
  }
  EXPECT_EQ(limit, p);
}

TEST(CodingTest, Varint64RoundTrip) {
  std::string buf;
  std::vector<uint64_t> values = EdgeValues<uint64_t>();
  for (uint64_t v : values) AppendVarint64(&buf, v);

  Slice input(buf);
  for (uint64_t expected : values) {
    size_t before = input.size();
    uint64_t actual;
    ASSERT_TRUE(ConsumeVarint64(&input, &actual));
    EXPECT_EQ(expected, actual);
    EXPECT_EQ(static_cast<size_t>(VarintSize(expected)), before - input.size());
  }
  EXPECT_TRUE(input.empty());
}

TEST(CodingTest, VarintSizes) {
  EXPECT_EQ(1, VarintSize(0));
  EXPECT_EQ(1, VarintSize(127));
  EXPECT_EQ(2, VarintSize(128));
  EXPECT_EQ(2, VarintSize((1u << 14) - 1));
  EXPECT_EQ(3, VarintSize(1u << 14));
  EXPECT_EQ(5, VarintSize(std::numeric_limits<uint32_t>::max()));
  EXPECT_EQ(10, VarintSize(std::numeric_limits<uint64_t>::max()));

  char buf[kMaxVarint64Bytes];
  EXPECT_EQ(kMaxVarint32Bytes,
            WriteVarint32(buf, std::numeric_limits<uint32_t>::max()) - buf);
  EXPECT_EQ(kMaxVarint64Bytes,
            WriteVarint64(buf, std::numeric_limits<uint64_t>::max()) - buf);
}

TEST(CodingTest, VarintKnownBytes) {
  std::string buf;
  AppendVarint32(&buf, 300);
  EXPECT_EQ(std::string("\xac\x02"), buf);
  buf.clear();
  AppendVarint64(&buf, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(std::string(9, '\xff') + '\x01', buf);
}

TEST(CodingTest, TruncatedVarint32Fails) {
  std::string full;
  AppendVarint32(&full, std::numeric_limits<uint32_t>::max());
  for (size_t len = 0; len < full.size(); ++len) {
    uint32_t v = 7;
    EXPECT_EQ(nullptr, ParseVarint32(full.data(), full.data() + len, &v))
        << "length " << len;
    Slice input(full.data(), len);
    EXPECT_FALSE(ConsumeVarint32(&input, &v)) << "length " << len;
  }
  uint32_t v;
  EXPECT_NE(nullptr, ParseVarint32(full.data(), full.data() + full.size(), &v));
}

TEST(CodingTest, TruncatedVarint64Fails) {
  std::string full;
  AppendVarint64(&full, std::numeric_limits<uint64_t>::max());
  for (size_t len = 0; len < full.size(); ++len) {
    uint64_t v = 7;
    EXPECT_EQ(nullptr, ParseVarint64(full.data(), full.data() + len, &v))
        << "length " << len;
    Slice input(full.data(), len);
    EXPECT_FALSE(ConsumeVarint64(&input, &v)) << "length " << len;
  }
}

TEST(CodingTest, OverlongVarint32Fails) {
  uint32_t v;
  // Six bytes with continuation bits: longer than any 32-bit varint.
  std::string six = std::string(5, '\x80') + '\x00';
  EXPECT_EQ(nullptr, ParseVarint32(six.data(), six.data() + six.size(), &v));
  // Five bytes whose value needs more than 32 bits.
  std::string wide = std::string(4, '\xff') + '\x1f';
  EXPECT_EQ(nullptr, ParseVarint32(wide.data(), wide.data() + wide.size(), &v));
  // The largest five-byte value that fits is accepted.
  std::string max = std::string(4, '\xff') + '\x0f';
  ASSERT_NE(nullptr, ParseVarint32(max.data(), max.data() + max.size(), &v));
  EXPECT_EQ(std::numeric_limits<uint32_t>::max(), v);
}

TEST(CodingTest, OverlongVarint64Fails) {
  uint64_t v;
  std::string eleven = std::string(10, '\x80') + '\x00';
  EXPECT_EQ(nullptr,
            ParseVarint64(eleven.data(), eleven.data() + eleven.size(), &v));
  std::string wide = std::string(9, '\xff') + '\x02';
  EXPECT_EQ(nullptr, ParseVarint64(wide.data(), wide.data() + wide.size(), &v));
}

TEST(CodingTest, ParseStopsAtLimitEvenWithMoreBytes) {
  // The byte after limit would complete the varint but must not be read.
  std::string buf = "\x81\x01";
  uint32_t v;
  EXPECT_EQ(nullptr, ParseVarint32(buf.data(), buf.data() + 1, &v));
}

TEST(CodingTest, LengthPrefixedRoundTrip) {
  std::string buf;
  AppendLengthPrefixed(&buf, Slice(""));
  AppendLengthPrefixed(&buf, Slice("foo"));
  AppendLengthPrefixed(&buf, Slice("bar"));
  std::string big(200, 'x');
  AppendLengthPrefixed(&buf, Slice(big));
  std::string binary("\0\xff\x80", 3);
  AppendLengthPrefixed(&buf, Slice(binary));

  Slice input(buf);
  Slice out;
  ASSERT_TRUE(ConsumeLengthPrefixed(&input, &out));
  EXPECT_EQ("", out.ToString());
  ASSERT_TRUE(ConsumeLengthPrefixed(&input, &out));
  EXPECT_EQ("foo", out.ToString());
  ASSERT_TRUE(ConsumeLengthPrefixed(&input, &out));
  EXPECT_EQ("bar", out.ToString());
  ASSERT_TRUE(ConsumeLengthPrefixed(&input, &out));
  EXPECT_EQ(big, out.ToString());
  ASSERT_TRUE(ConsumeLengthPrefixed(&input, &out));
  EXPECT_EQ(binary, out.ToString());
  EXPECT_TRUE(input.empty());
  EXPECT_FALSE(ConsumeLengthPrefixed(&input, &out));
}

TEST(CodingTest, LengthPrefixedTruncatedFails) {
  std::string buf;
  AppendLengthPrefixed(&buf, Slice("hello"));
  for (size_t len = 0; len < buf.size(); ++len) {
    Slice input(buf.data(), len);
    Slice out;
    EXPECT_FALSE(ConsumeLengthPrefixed(&input, &out)) << "length " << len;
  }
}

TEST(CodingTest, ConsumeAdvancesInput) {
  std::string buf;
  AppendVarint32(&buf, 1000);
  buf.append("rest");
  Slice input(buf);
  uint32_t v;
  ASSERT_TRUE(ConsumeVarint32(&input, &v));
  EXPECT_EQ(1000u, v);
  EXPECT_EQ("rest", input.ToString());
}

}  // namespace
}  // namespace leveldb
