#include "table/filter_block.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "util/coding.h"
#include "util/hash.h"

namespace leveldb {
namespace {

// Exact-membership "filter": the 32-bit hash of every key. Makes the tests
// independent of Bloom false positives.
class HashSetPolicy : public FilterPolicy {
 public:
  const char* Name() const override { return "test.HashSet"; }

  void CreateFilter(const Slice* keys, int n, std::string* dst) const override {
    for (int i = 0; i < n; ++i) {
      AppendFixed32(dst, Hash(keys[i].data(), keys[i].size(), 1));
    }
  }

  bool KeyMayMatch(const Slice& key, const Slice& filter) const override {
    const uint32_t h = Hash(key.data(), key.size(), 1);
    for (size_t i = 0; i + 4 <= filter.size(); i += 4) {
      if (LoadFixed32(filter.data() + i) == h) return true;
    }
    return false;
  }
};

std::string HashOf(const char* key) {
  std::string out;
  AppendFixed32(&out, Hash(key, strlen(key), 1));
  return out;
}

TEST(FilterBlockTest, EmptyBuilder) {
  HashSetPolicy policy;
  FilterBlockBuilder builder(&policy);
  const std::string block = builder.Finish().ToString();
  // No filters: just the array offset (0) and the base lg (11).
  EXPECT_EQ(std::string("\0\0\0\0\x0b", 5), block);
  FilterBlockReader reader(&policy, block);
  // No filter covers these offsets, so everything may match.
  EXPECT_TRUE(reader.KeyMayMatch(0, "foo"));
  EXPECT_TRUE(reader.KeyMayMatch(100000, "foo"));
}

TEST(FilterBlockTest, SingleChunk) {
  HashSetPolicy policy;
  FilterBlockBuilder builder(&policy);
  builder.StartBlock(100);
  builder.AddKey("foo");
  builder.AddKey("bar");
  builder.AddKey("box");
  builder.StartBlock(200);
  builder.AddKey("box");
  builder.StartBlock(300);
  builder.AddKey("hello");
  const std::string block = builder.Finish().ToString();

  // One filter with all five keys (duplicates kept), at offset 0.
  std::string expected = HashOf("foo") + HashOf("bar") + HashOf("box") +
                         HashOf("box") + HashOf("hello");
  AppendFixed32(&expected, 0);
  AppendFixed32(&expected, 20);
  expected.push_back(11);
  EXPECT_EQ(expected, block);

  FilterBlockReader reader(&policy, block);
  for (const char* key : {"foo", "bar", "box", "hello"}) {
    EXPECT_TRUE(reader.KeyMayMatch(100, key)) << key;
  }
  EXPECT_FALSE(reader.KeyMayMatch(100, "missing"));
  EXPECT_FALSE(reader.KeyMayMatch(100, "other"));
}

TEST(FilterBlockTest, MultipleChunks) {
  HashSetPolicy policy;
  FilterBlockBuilder builder(&policy);

  // First filter (offsets 0..2047).
  builder.StartBlock(0);
  builder.AddKey("foo");
  builder.StartBlock(2000);
  builder.AddKey("bar");

  // Second filter (2048..4095).
  builder.StartBlock(3100);
  builder.AddKey("box");

  // Third filter is empty; fourth and fifth too, then the sixth.
  builder.StartBlock(9000);
  builder.AddKey("box");
  builder.AddKey("hello");

  const std::string block = builder.Finish().ToString();
  FilterBlockReader reader(&policy, block);

  EXPECT_TRUE(reader.KeyMayMatch(0, "foo"));
  EXPECT_TRUE(reader.KeyMayMatch(2000, "bar"));
  EXPECT_FALSE(reader.KeyMayMatch(0, "box"));
  EXPECT_FALSE(reader.KeyMayMatch(0, "hello"));

  EXPECT_TRUE(reader.KeyMayMatch(3100, "box"));
  EXPECT_FALSE(reader.KeyMayMatch(3100, "foo"));
  EXPECT_FALSE(reader.KeyMayMatch(3100, "bar"));
  EXPECT_FALSE(reader.KeyMayMatch(3100, "hello"));

  // Empty filters match nothing.
  EXPECT_FALSE(reader.KeyMayMatch(4100, "foo"));
  EXPECT_FALSE(reader.KeyMayMatch(4100, "box"));
  EXPECT_FALSE(reader.KeyMayMatch(6200, "hello"));

  EXPECT_TRUE(reader.KeyMayMatch(9000, "box"));
  EXPECT_TRUE(reader.KeyMayMatch(9000, "hello"));
  EXPECT_FALSE(reader.KeyMayMatch(9000, "foo"));
  EXPECT_FALSE(reader.KeyMayMatch(9000, "bar"));

  // Offsets beyond the last filter: no information, so "may match".
  EXPECT_TRUE(reader.KeyMayMatch(20000, "anything"));
}

TEST(FilterBlockTest, OffsetLayout) {
  HashSetPolicy policy;
  FilterBlockBuilder builder(&policy);
  builder.StartBlock(0);
  builder.AddKey("a");
  builder.StartBlock(5000);  // filter index 2; filter 1 is empty
  builder.AddKey("b");
  const std::string block = builder.Finish().ToString();
  // Filters: 4 bytes ("a"), 0 bytes, 4 bytes ("b").
  ASSERT_EQ(8u + 3 * 4 + 4 + 1, block.size());
  EXPECT_EQ(0u, LoadFixed32(block.data() + 8));
  EXPECT_EQ(4u, LoadFixed32(block.data() + 12));
  EXPECT_EQ(4u, LoadFixed32(block.data() + 16));
  EXPECT_EQ(8u, LoadFixed32(block.data() + 20));
  EXPECT_EQ(11, block[24]);
}

TEST(FilterBlockTest, MalformedBlocksMayMatchEverything) {
  HashSetPolicy policy;
  FilterBlockBuilder builder(&policy);
  builder.StartBlock(0);
  builder.AddKey("foo");
  builder.StartBlock(3000);
  builder.AddKey("bar");
  const std::string good = builder.Finish().ToString();

  std::vector<std::string> bad;
  for (size_t len = 0; len < 5; ++len) bad.push_back(good.substr(0, len));
  {
    std::string b = good;  // array offset past the end
    StoreFixed32(&b[b.size() - 5], 0xffff);
    bad.push_back(b);
  }
  {
    std::string b = good;  // absurd base
    b[b.size() - 1] = static_cast<char>(200);
    bad.push_back(b);
  }
  {
    std::string b = good;  // second filter limit past the array
    const uint32_t array = LoadFixed32(b.data() + b.size() - 5);
    StoreFixed32(&b[array + 4], 0x7fffffff);
    bad.push_back(b);
  }
  for (const std::string& b : bad) {
    FilterBlockReader reader(&policy, b);
    EXPECT_TRUE(reader.KeyMayMatch(0, "missing")) << b.size();
    EXPECT_TRUE(reader.KeyMayMatch(3000, "missing")) << b.size();
    EXPECT_TRUE(reader.KeyMayMatch(0, "foo"));
  }

  // Damage confined to the first filter's offsets spoils only that filter.
  std::string b = good;
  const uint32_t array = LoadFixed32(b.data() + b.size() - 5);
  StoreFixed32(&b[array], 7);  // start 7 > limit 4
  FilterBlockReader reader(&policy, b);
  EXPECT_TRUE(reader.KeyMayMatch(0, "missing"));
  EXPECT_TRUE(reader.KeyMayMatch(3000, "bar"));
  EXPECT_FALSE(reader.KeyMayMatch(3000, "missing"));
}

TEST(FilterBlockTest, EveryTruncationAndFlipIsSafe) {
  HashSetPolicy policy;
  FilterBlockBuilder builder(&policy);
  for (int block = 0; block < 6; ++block) {
    builder.StartBlock(block * 1500);
    for (int k = 0; k < 3; ++k) {
      builder.AddKey("key" + std::to_string(block * 10 + k));
    }
  }
  const std::string good = builder.Finish().ToString();
  for (size_t i = 0; i < good.size(); ++i) {
    std::string damaged = good;
    damaged[i] ^= 0xff;
    FilterBlockReader reader(&policy, damaged);
    for (int block = 0; block < 6; ++block) {
      reader.KeyMayMatch(block * 1500, "key0");
    }
    // Truncation drops the trailer, so the block must be treated as
    // malformed unless the cut happens to leave a plausible trailer.
    FilterBlockReader truncated(&policy, Slice(good.data(), i));
    for (int block = 0; block < 6; ++block) {
      const bool may_match = truncated.KeyMayMatch(block * 1500, "anything");
      if (i < 5) {
        EXPECT_TRUE(may_match);
      }
    }
  }
}

TEST(FilterBlockTest, BloomPolicyHasNoFalseNegatives) {
  std::unique_ptr<const FilterPolicy> policy(NewBloomFilterPolicy(10));
  FilterBlockBuilder builder(policy.get());
  std::vector<std::pair<uint64_t, std::string>> added;
  uint64_t offset = 0;
  for (int block = 0; block < 50; ++block) {
    builder.StartBlock(offset);
    for (int k = 0; k < 20; ++k) {
      std::string key = "user" + std::to_string(block * 100 + k);
      builder.AddKey(key);
      added.emplace_back(offset, key);
    }
    offset += 700 + (block % 7) * 900;
  }
  const std::string block = builder.Finish().ToString();
  FilterBlockReader reader(policy.get(), block);
  for (const auto& entry : added) {
    EXPECT_TRUE(reader.KeyMayMatch(entry.first, entry.second)) << entry.second;
  }
  int false_positives = 0;
  for (int i = 0; i < 1000; ++i) {
    if (reader.KeyMayMatch(0, "absent" + std::to_string(i))) ++false_positives;
  }
  EXPECT_LT(false_positives, 100);
}

}  // namespace
}  // namespace leveldb
