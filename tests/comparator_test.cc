// The byte-wise comparator's key shortening decides the separator keys in
// index blocks. Expected outputs below were checked against LevelDB 1.23
// (Debian's libleveldb) with a throwaway program outside this repository.
#include "leveldb/comparator.h"

#include <string>

#include "gtest/gtest.h"
#include "leveldb/slice.h"
#include "util/logging.h"
#include "util/random.h"

namespace leveldb {
namespace {

std::string B(const char* s, size_t n) { return std::string(s, n); }

struct SeparatorCase {
  std::string start;
  std::string limit;
  std::string expected;
};

struct SuccessorCase {
  std::string key;
  std::string expected;
};

std::string Separator(std::string start, const std::string& limit) {
  BytewiseComparator()->FindShortestSeparator(&start, limit);
  return start;
}

std::string Successor(std::string key) {
  BytewiseComparator()->FindShortSuccessor(&key);
  return key;
}

TEST(ComparatorTest, NameAndSingleton) {
  EXPECT_STREQ("leveldb.BytewiseComparator", BytewiseComparator()->Name());
  EXPECT_EQ(BytewiseComparator(), BytewiseComparator());
}

TEST(ComparatorTest, CompareIsUnsignedLexicographic) {
  const Comparator* cmp = BytewiseComparator();
  EXPECT_EQ(0, cmp->Compare("", ""));
  EXPECT_EQ(0, cmp->Compare("abc", "abc"));
  EXPECT_LT(cmp->Compare("", "a"), 0);
  EXPECT_GT(cmp->Compare("a", ""), 0);
  EXPECT_LT(cmp->Compare("abc", "abd"), 0);
  EXPECT_LT(cmp->Compare("abc", "abcd"), 0);
  EXPECT_GT(cmp->Compare("b", "abcd"), 0);
  // 0x80 and above sort after ASCII (bytes are unsigned).
  EXPECT_LT(cmp->Compare("a", "\x80"), 0);
  EXPECT_LT(cmp->Compare("\x7f", "\xff"), 0);
  EXPECT_LT(cmp->Compare(B("\0", 1), "\x01"), 0);
}

TEST(ComparatorTest, ShortestSeparatorMatchesUpstream) {
  const SeparatorCase kCases[] = {
      {"", "", ""},
      {"", "a", ""},
      {"a", "", "a"},
      {"abc", "abc", "abc"},
      {"abc", "abd", "abc"},  // 'c' + 1 is not below 'd'.
      {"abc", "abe", "abd"},
      {"abc", "abf", "abd"},
      {"abc", "abcd", "abc"},  // Prefix: unchanged.
      {"abcd", "abc", "abcd"},
      {"foo", "bar", "foo"},
      {"foo", "foobar", "foo"},
      {"foobar", "foo", "foobar"},
      {"helloworld", "hellozzz", "hellox"},
      {"hello", "hellp", "hello"},
      {"hello", "hellq", "hellp"},
      {"a", "b", "a"},
      {"a", "c", "b"},
      {"a\xff", "b", "a\xff"},
      {"a\xff\xff", "b\x01", "a\xff\xff"},
      {"\xff\xff", "\xff\xff\xff", "\xff\xff"},
      {"\xfe\x01", "\xff", "\xfe\x01"},
      {"\xfd\x01", "\xff", "\xfe"},
      {B("\xff\0", 2), "\xff\x10", "\xff\x01"},
      {B("ab\0x", 4), "ab\x02", "ab\x01"},
      {"1000", "2000", "1000"},
      {"1000", "1001", "1000"},
      {"user_key_0001", "user_key_0100", "user_key_0001"},
      {"zzz", "a", "zzz"},
      {"abc\xff\xff", "abd", "abc\xff\xff"},
      {"abcdefg", "abzz", "abd"},
      {"k", "kz", "k"},
  };
  for (const SeparatorCase& c : kCases) {
    EXPECT_EQ(c.expected, Separator(c.start, c.limit))
        << "start=" << EscapedString(c.start)
        << " limit=" << EscapedString(c.limit);
  }
}

TEST(ComparatorTest, ShortSuccessorMatchesUpstream) {
  const SuccessorCase kCases[] = {
      {"", ""},
      {"a", "b"},
      {"abc", "b"},
      {"\xff", "\xff"},
      {"\xff\xff\xff", "\xff\xff\xff"},
      {"\xff\xff"
       "a",
       "\xff\xff"
       "b"},
      {"\xff"
       "abc",
       "\xff"
       "b"},
      {"\xfe", "\xff"},
      {"\xfe\xff", "\xff"},
      {"z\xff", "{"},
      {B("\0\0", 2), "\x01"},
      {"hello", "i"},
  };
  for (const SuccessorCase& c : kCases) {
    EXPECT_EQ(c.expected, Successor(c.key)) << "key=" << EscapedString(c.key);
  }
}

// Alphabet heavy in 0x00/0xff and adjacent values, to hit the edge cases.
std::string EdgeKey(Random* rnd) {
  static const char kBytes[] = {'\0', '\x01', 'a', 'b', 'c', '\xfe', '\xff'};
  std::string key(rnd->Uniform(6), '\0');
  for (char& c : key) c = kBytes[rnd->Uniform(sizeof(kBytes))];
  return key;
}

TEST(ComparatorTest, RandomSeparatorsStayInRange) {
  const Comparator* cmp = BytewiseComparator();
  Random rnd(1234);
  for (int i = 0; i < 20000; ++i) {
    std::string a = EdgeKey(&rnd);
    std::string b = EdgeKey(&rnd);
    if (cmp->Compare(a, b) >= 0) continue;
    std::string sep = Separator(a, b);
    // start <= sep < limit, and never longer than start.
    EXPECT_LE(cmp->Compare(a, sep), 0);
    EXPECT_LT(cmp->Compare(sep, b), 0);
    EXPECT_LE(sep.size(), a.size());
  }
}

TEST(ComparatorTest, RandomSuccessorsNotSmaller) {
  const Comparator* cmp = BytewiseComparator();
  Random rnd(99);
  for (int i = 0; i < 20000; ++i) {
    std::string key = EdgeKey(&rnd);
    std::string succ = Successor(key);
    EXPECT_GE(cmp->Compare(succ, key), 0);
    EXPECT_LE(succ.size(), key.size());
  }
}

}  // namespace
}  // namespace leveldb
