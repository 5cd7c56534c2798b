// Decimal and escaping helpers.
#include "util/logging.h"

#include <cstdint>
#include <limits>
#include <string>

#include "gtest/gtest.h"

namespace leveldb {
namespace {

TEST(LoggingTest, DecimalString) {
  EXPECT_EQ("0", DecimalString(0));
  EXPECT_EQ("1", DecimalString(1));
  EXPECT_EQ("9", DecimalString(9));
  EXPECT_EQ("10", DecimalString(10));
  EXPECT_EQ("12345", DecimalString(12345));
  EXPECT_EQ("4294967295", DecimalString(4294967295u));
  EXPECT_EQ("18446744073709551615",
            DecimalString(std::numeric_limits<uint64_t>::max()));

  std::string s = "n=";
  AppendDecimal(&s, 42);
  EXPECT_EQ("n=42", s);
}

TEST(LoggingTest, EscapedString) {
  EXPECT_EQ("", EscapedString(""));
  EXPECT_EQ("hello world ~!", EscapedString("hello world ~!"));
  EXPECT_EQ("\\x00", EscapedString(Slice("\0", 1)));
  EXPECT_EQ("a\\x0ab", EscapedString("a\nb"));
  EXPECT_EQ("\\x7f\\x80\\xff", EscapedString("\x7f\x80\xff"));
  EXPECT_EQ("\\x1f ", EscapedString("\x1f "));

  std::string s = "key=";
  AppendEscaped(&s, Slice("\x01z", 2));
  EXPECT_EQ("key=\\x01z", s);
}

TEST(LoggingTest, DecimalRoundTrip) {
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{99}, uint64_t{100},
                     uint64_t{1} << 32, std::numeric_limits<uint64_t>::max(),
                     std::numeric_limits<uint64_t>::max() - 1}) {
    std::string text = DecimalString(v);
    Slice in(text);
    uint64_t parsed = 0;
    ASSERT_TRUE(ConsumeDecimal(&in, &parsed)) << text;
    EXPECT_EQ(v, parsed);
    EXPECT_TRUE(in.empty());
  }
}

TEST(LoggingTest, ConsumeDecimalStopsAtNonDigit) {
  std::string text = "123abc";
  Slice in(text);
  uint64_t v = 0;
  ASSERT_TRUE(ConsumeDecimal(&in, &v));
  EXPECT_EQ(123u, v);
  EXPECT_EQ("abc", in.ToString());

  text = "007.log";
  in = Slice(text);
  ASSERT_TRUE(ConsumeDecimal(&in, &v));
  EXPECT_EQ(7u, v);
  EXPECT_EQ(".log", in.ToString());
}

TEST(LoggingTest, ConsumeDecimalRejectsNoDigits) {
  for (const char* text : {"", "abc", "-1", " 1", "+5"}) {
    std::string s = text;
    Slice in(s);
    uint64_t v = 77;
    EXPECT_FALSE(ConsumeDecimal(&in, &v)) << text;
    EXPECT_EQ(s, in.ToString()) << "input must be untouched on failure";
  }
}

TEST(LoggingTest, ConsumeDecimalRejectsOverflow) {
  for (const char* text :
       {"18446744073709551616", "18446744073709551620", "18446744073709551625",
        "99999999999999999999", "184467440737095516150"}) {
    std::string s = text;
    Slice in(s);
    uint64_t v;
    EXPECT_FALSE(ConsumeDecimal(&in, &v)) << text;
  }
  // Leading zeros do not count toward overflow.
  std::string s = "000000000000000000000018446744073709551615";
  Slice in(s);
  uint64_t v;
  ASSERT_TRUE(ConsumeDecimal(&in, &v));
  EXPECT_EQ(std::numeric_limits<uint64_t>::max(), v);
}

}  // namespace
}  // namespace leveldb
