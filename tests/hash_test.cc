// Hash() feeds Bloom filters that other LevelDB builds read, so its exact
// output matters. Expected values below were worked out from the algorithm's
// definition (seed ^ n*m, 4-byte little-endian words, 1..3 byte tail), and
// bloom_test checks the same function against filters made by LevelDB 1.23.
#include "util/hash.h"

#include <cstdint>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "tests/test_util.h"

namespace leveldb {
namespace {

constexpr uint32_t kMul = 0xc6a4a793u;
constexpr uint32_t kBloomSeed = 0xbc9f1d34u;

uint32_t H(const std::string& s, uint32_t seed) {
  return Hash(s.data(), s.size(), seed);
}

TEST(HashTest, EmptyInputIsSeed) {
  // n = 0: no words, no tail, so the result is seed ^ 0.
  EXPECT_EQ(kBloomSeed, Hash("", 0, kBloomSeed));
  EXPECT_EQ(0x12345678u, Hash("", 0, 0x12345678u));
  EXPECT_EQ(0u, Hash("", 0, 0));
}

TEST(HashTest, OneByteTailStepByStep) {
  // Spelled-out derivation for a single byte b: h = seed ^ (1 * m);
  // h += b; h *= m; h ^= h >> 24.
  for (int b : {0x00, 0x62, 0x7f, 0x80, 0xff}) {
    uint32_t h = kBloomSeed ^ kMul;
    h += static_cast<uint32_t>(b);
    h *= kMul;
    h ^= h >> 24;
    const char byte = static_cast<char>(b);
    EXPECT_EQ(h, Hash(&byte, 1, kBloomSeed)) << "byte " << b;
  }
}

TEST(HashTest, TailLengthsOneToThree) {
  EXPECT_EQ(0xef1345c4u, H("\x62", kBloomSeed));
  EXPECT_EQ(0x5b663814u, H("\xc3\x97", kBloomSeed));
  EXPECT_EQ(0x323c078fu, H("\xe2\x99\xa5", kBloomSeed));
  // Tail bytes are unsigned: the high-bit bytes above would give other
  // values if they were sign-extended.
  EXPECT_EQ(0x9111443eu, H("\x62", 0));
  EXPECT_EQ(0x7a5596b1u, H("\xc3\x97", 0));
  EXPECT_EQ(0x595d2658u, H("\xe2\x99\xa5", 0));
}

TEST(HashTest, WholeWords) {
  EXPECT_EQ(0xed21633au, H("\xe1\x80\xb9\x32", kBloomSeed));
  const std::string data = test::IscsiReadCommand();  // 48 bytes
  EXPECT_EQ(0x271339efu, H(data, kBloomSeed));
  EXPECT_EQ(0xf333dabbu, H(data, 0x12345678u));
}

TEST(HashTest, Deterministic) {
  std::string s = "the quick brown fox jumps over the lazy dog";
  std::string copy = s;
  EXPECT_EQ(H(s, 7), H(copy, 7));
  // Position in memory must not matter.
  std::string padded = "xyz" + s;
  EXPECT_EQ(H(s, 7), Hash(padded.data() + 3, s.size(), 7));
}

TEST(HashTest, SeedSensitive) {
  std::set<uint32_t> seen;
  for (uint32_t seed = 0; seed < 100; ++seed) seen.insert(H("key", seed));
  EXPECT_EQ(100u, seen.size());
}

TEST(HashTest, LengthAndContentSensitive) {
  // Trailing zero bytes change the length, and thus the hash.
  std::set<uint32_t> seen;
  std::string s;
  for (int len = 0; len < 16; ++len) {
    seen.insert(H(s, kBloomSeed));
    s.push_back('\0');
  }
  EXPECT_EQ(16u, seen.size());
  EXPECT_NE(H("abcd", 1), H("abce", 1));
  EXPECT_NE(H("abcde", 1), H("abcdf", 1));
}

}  // namespace
}  // namespace leveldb
