// SegmentLocator: key -> segment without the index must agree with the
// index seek for every key, keep each segment's last index key, and refuse
// (rather than guess) on an index it cannot decode.
#include "table/elastic/segment_locator.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/options.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/elastic/filter_group.h"
#include "table/format.h"
#include "tests/elastic_test_helpers.h"

namespace leveldb {
namespace {

class SegmentLocatorTest : public testing::Test {
 protected:
  // Writes `n` keys with 1 KiB blocks and segments of `segment_bytes`,
  // then loads the table's index block and elastic index.
  void BuildTable(int n, size_t segment_bytes) {
    BuildTableOf(test::MakeEntries(n, 40), segment_bytes);
  }

  // The same with given entries (sorted by `cmp`).
  void BuildTableOf(test::KVVector kvs, size_t segment_bytes,
                    const Comparator* cmp = BytewiseComparator()) {
    ElasticFilterOptions eo;
    eo.segment_bytes = segment_bytes;
    policy_.reset(NewElasticFilterPolicy(eo));
    Options options;
    options.comparator = cmp;
    options.block_size = 1024;
    options.filter_policy = policy_.get();
    kvs_ = std::move(kvs);
    file_ = test::BuildTableBytes(options, kvs_);
    ASSERT_FALSE(file_.empty());
    ASSERT_TRUE(test::ReadElasticIndexOf(file_, &index_).ok());
    Footer footer;
    ASSERT_TRUE(test::ReadFooter(file_, &footer).ok());
    test::StringSource source(file_);
    BlockContents contents;
    ASSERT_TRUE(
        ReadBlock(&source, ReadOptions(), footer.index_handle(), &contents)
            .ok());
    index_block_ = std::make_unique<Block>(contents);
  }

  // The segment an index seek gives, or -1 past the last entry.
  int SegmentByIndex(const std::string& key,
                     const Comparator* cmp = BytewiseComparator()) const {
    BlockIterator it(cmp, index_block_.get());
    it.Seek(key);
    if (!it.Valid()) return -1;
    Slice v = it.value();
    BlockHandle h;
    EXPECT_TRUE(h.DecodeFrom(&v).ok());
    return static_cast<int>(index_.SegmentOf(h.offset()));
  }

  int SegmentByLocator(const SegmentLocator& locator,
                       const std::string& key) const {
    uint32_t segment = 0;
    return locator.Find(key, &segment) ? static_cast<int>(segment) : -1;
  }

  std::unique_ptr<const FilterPolicy> policy_;
  test::KVVector kvs_;
  std::string file_;
  ElasticIndex index_;
  std::unique_ptr<Block> index_block_;
};

TEST_F(SegmentLocatorTest, AgreesWithTheIndexForEveryKey) {
  BuildTable(20000, 8 * 1024);
  ASSERT_GT(index_.num_segments(), 20u);  // many segments, several blocks each
  SegmentLocator locator;
  ASSERT_TRUE(
      locator.Build(BytewiseComparator(), index_block_.get(), index_).ok());
  ASSERT_TRUE(locator.usable());

  std::vector<int> seen(index_.num_segments(), 0);
  for (int i = 0; i < 20000; ++i) {
    for (const std::string& key : {test::PresentKey(i), test::AbsentKey(i)}) {
      const int expected = SegmentByIndex(key);
      ASSERT_EQ(expected, SegmentByLocator(locator, key)) << key;
      if (expected >= 0) seen[expected]++;
    }
  }
  // Every segment is reached, keys before the first and past the last too.
  for (int count : seen) EXPECT_GT(count, 0);
  EXPECT_EQ(0, SegmentByLocator(locator, ""));
  EXPECT_EQ(0, SegmentByLocator(locator, "a"));
  EXPECT_EQ(SegmentByIndex("k"), SegmentByLocator(locator, "k"));
  EXPECT_EQ(-1, SegmentByIndex("z"));
  EXPECT_EQ(-1, SegmentByLocator(locator, "z"));
  // The last index key is a short successor of the last key ("l").
  EXPECT_EQ(SegmentByIndex("k99999999"),
            SegmentByLocator(locator, "k99999999"));

  // A few KiB: one key per segment, not one per block.
  EXPECT_LT(locator.ApproximateMemoryUsage(), index_.num_segments() * 64);
}

TEST_F(SegmentLocatorTest, OrderPrefixesKeepBytewiseOrder) {
  // A smaller prefix always means a smaller key; equal ones decide nothing.
  const std::vector<std::string> keys = {
      std::string(),
      std::string(1, '\0'),
      "a",
      std::string("a\0", 2),
      std::string("a\0\x01", 3),
      "ab",
      "abcdefgh",
      "abcdefgh\0",
      "abcdefghi",
      "abcdefgi",
      "b",
      "\xff",
      "\xff\xff\xff\xff\xff\xff\xff\xff\xff"};
  for (const std::string& a : keys) {
    for (const std::string& b : keys) {
      const uint64_t pa = SegmentLocator::OrderPrefix(a);
      const uint64_t pb = SegmentLocator::OrderPrefix(b);
      if (pa < pb) {
        EXPECT_LT(Slice(a).compare(Slice(b)), 0) << a << " " << b;
      } else if (pa > pb) {
        EXPECT_GT(Slice(a).compare(Slice(b)), 0) << a << " " << b;
      }
    }
  }
}

TEST_F(SegmentLocatorTest, OrderPrefixesAgreeWithTheIndexForEveryKey) {
  // Keys that share long prefixes, contain zero bytes and differ in
  // length: integer prefixes are often equal and the comparator decides.
  test::KVVector kvs;
  for (int i = 0; i < 6000; ++i) {
    std::string key = "pre";
    key.push_back(static_cast<char>(i / 256));
    key.push_back(static_cast<char>(i % 256));
    if (i % 3 == 0) key.append(std::string(1, '\0'));
    if (i % 5 == 0) key.append("0123456789");
    kvs.emplace_back(key, std::string(40, 'v'));
  }
  std::sort(kvs.begin(), kvs.end());
  kvs.erase(std::unique(kvs.begin(), kvs.end(),
                        [](const auto& a, const auto& b) {
                          return a.first == b.first;
                        }),
            kvs.end());
  BuildTableOf(kvs, 2 * 1024);
  ASSERT_GT(index_.num_segments(), 20u);
  SegmentLocator locator;
  ASSERT_TRUE(
      locator.Build(BytewiseComparator(), index_block_.get(), index_).ok());
  SegmentLocator prefixed;
  ASSERT_TRUE(
      prefixed.Build(BytewiseComparator(), index_block_.get(), index_).ok());
  prefixed.UseOrderPrefixes(/*internal_keys=*/false);
  EXPECT_GT(prefixed.ApproximateMemoryUsage(),
            locator.ApproximateMemoryUsage());
  for (const auto& kv : kvs) {
    for (std::string key :
         {kv.first, kv.first + std::string(1, '\0'),
          kv.first.substr(0, kv.first.size() - 1), kv.first + "\xff"}) {
      ASSERT_EQ(SegmentByIndex(key), SegmentByLocator(prefixed, key)) << key;
      ASSERT_EQ(SegmentByLocator(locator, key),
                SegmentByLocator(prefixed, key));
    }
  }
  // Keys before, inside and after the prefix every kept key shares.
  for (const std::string& key :
       {std::string(), std::string("a"), std::string("pr"), std::string("pre"),
        std::string("pre\0", 4), std::string("prf"), std::string("z"),
        std::string("\xff\xff")}) {
    ASSERT_EQ(SegmentByIndex(key), SegmentByLocator(prefixed, key)) << key;
  }
  // And the plain keys of the usual table.
  BuildTable(20000, 8 * 1024);
  SegmentLocator usual;
  ASSERT_TRUE(
      usual.Build(BytewiseComparator(), index_block_.get(), index_).ok());
  usual.UseOrderPrefixes(false);
  for (int i = 0; i < 20000; ++i) {
    for (const std::string& key : {test::PresentKey(i), test::AbsentKey(i)}) {
      ASSERT_EQ(SegmentByIndex(key), SegmentByLocator(usual, key)) << key;
    }
  }
  for (const char* key : {"", "a", "k", "k0", "l", "z"}) {
    ASSERT_EQ(SegmentByIndex(key), SegmentByLocator(usual, key)) << key;
  }
}

TEST_F(SegmentLocatorTest, OrderPrefixesOfInternalKeysAgreeWithTheIndex) {
  // Internal keys: user keys of every length from 0 to 12 bytes after a
  // shared prefix, so the integer prefix of a lookup key is read both
  // whole and masked (its tag follows the user part); every other key
  // starts with the same 8 bytes after it, so integer prefixes tie and the
  // comparator decides. A large table and a small one.
  const InternalKeyComparator icmp(BytewiseComparator());
  for (int count : {4000, 700}) {
    std::vector<std::string> users;
    for (int i = 0; i < count; ++i) {
      std::string user = i % 2 == 0 ? "tenant/" : "tenant/samebyte";
      const int extra = i % 13;
      uint64_t bits = static_cast<uint64_t>(i + 1) * 0x9E3779B97F4A7C15ull;
      for (int j = 0; j < extra; ++j) {
        user.push_back(static_cast<char>('a' + bits % 26));
        bits /= 26;
      }
      users.push_back(user);
    }
    std::sort(users.begin(), users.end());
    users.erase(std::unique(users.begin(), users.end()), users.end());
    test::KVVector kvs;
    for (size_t i = 0; i < users.size(); ++i) {
      InternalKey ikey(users[i], 100 + i, kTypeValue);
      kvs.emplace_back(ikey.Encode().ToString(), std::string(40, 'v'));
    }
    BuildTableOf(kvs, 2 * 1024, &icmp);
    ASSERT_GT(index_.num_segments(), 3u);
    SegmentLocator prefixed;
    ASSERT_TRUE(prefixed.Build(&icmp, index_block_.get(), index_).ok());
    prefixed.UseOrderPrefixes(/*internal_keys=*/true);
    std::vector<std::string> lookups = {"",
                                        "t",
                                        "tenant",
                                        "tenant/",
                                        "tenant/same",
                                        "u",
                                        "tenant/zzzzzzzzzzzzzz"};
    for (const std::string& user : users) {
      lookups.push_back(user);
      lookups.push_back(user + "a");
      if (!user.empty()) lookups.push_back(user.substr(0, user.size() - 1));
    }
    for (const std::string& user : lookups) {
      const std::string key =
          InternalKey(user, kMaxSequenceNumber, kValueTypeForSeek)
              .Encode()
              .ToString();
      ASSERT_EQ(SegmentByIndex(key, &icmp), SegmentByLocator(prefixed, key))
          << count << " " << user;
    }
  }
}

TEST_F(SegmentLocatorTest, EntryRangesBoundTheIndexSeek) {
  BuildTable(20000, 8 * 1024);
  SegmentLocator locator;
  ASSERT_TRUE(
      locator.Build(BytewiseComparator(), index_block_.get(), index_).ok());
  ASSERT_GT(index_block_->num_restarts(), index_.num_segments());
  uint64_t narrowed = 0;
  for (int i = 0; i < 20000; ++i) {
    for (const std::string& key : {test::PresentKey(i), test::AbsentKey(i)}) {
      uint32_t segment;
      SegmentLocator::EntryRange range;
      ASSERT_TRUE(locator.Find(key, &segment, &range)) << key;
      ASSERT_TRUE(range.known);
      ASSERT_LE(range.first, range.last);
      // A seek within the range lands where a full seek does.
      BlockIterator full(BytewiseComparator(), index_block_.get());
      full.Seek(key);
      BlockIterator bounded(BytewiseComparator(), index_block_.get());
      bounded.SeekInRestarts(key, range.first, range.last);
      ASSERT_TRUE(full.Valid());
      ASSERT_TRUE(bounded.Valid()) << key;
      ASSERT_EQ(full.key().ToString(), bounded.key().ToString()) << key;
      narrowed += index_block_->num_restarts() - (range.last - range.first + 1);
    }
  }
  EXPECT_GT(narrowed, 0u);
}

TEST_F(SegmentLocatorTest, LastKeysAreEachSegmentsLastIndexKey) {
  BuildTable(5000, 4 * 1024);
  SegmentLocator locator;
  ASSERT_TRUE(
      locator.Build(BytewiseComparator(), index_block_.get(), index_).ok());
  std::vector<std::string> expected(index_.num_segments());
  BlockIterator it(BytewiseComparator(), index_block_.get());
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    Slice v = it.value();
    BlockHandle h;
    ASSERT_TRUE(h.DecodeFrom(&v).ok());
    expected[index_.SegmentOf(h.offset())] = it.key().ToString();
  }
  std::vector<std::string> keys;
  locator.LastKeys(&keys);
  EXPECT_EQ(expected, keys);
  for (const std::string& k : keys) EXPECT_FALSE(k.empty());
}

TEST_F(SegmentLocatorTest, OneSegmentAndOneKey) {
  BuildTable(1, 0);
  ASSERT_EQ(1u, index_.num_segments());
  SegmentLocator locator;
  ASSERT_TRUE(
      locator.Build(BytewiseComparator(), index_block_.get(), index_).ok());
  EXPECT_EQ(0, SegmentByLocator(locator, test::PresentKey(0)));
  EXPECT_EQ(SegmentByIndex(test::AbsentKey(0)),
            SegmentByLocator(locator, test::AbsentKey(0)));
  EXPECT_EQ(-1, SegmentByLocator(locator, "z"));
}

TEST_F(SegmentLocatorTest, EmptyIndexFindsNothing) {
  Options options;
  BlockBuilder builder(&options);
  std::string raw = builder.Finish().ToString();
  BlockContents contents;
  contents.data = Slice(raw);
  Block empty(contents);
  SegmentLocator locator;
  ASSERT_TRUE(locator.Build(BytewiseComparator(), &empty, ElasticIndex()).ok());
  EXPECT_TRUE(locator.usable());
  EXPECT_EQ(-1, SegmentByLocator(locator, "k"));
  std::vector<std::string> keys{"stale"};
  locator.LastKeys(&keys);
  EXPECT_TRUE(keys.empty());
}

TEST_F(SegmentLocatorTest, UndecodableHandleMakesItUnusable) {
  BuildTable(3000, 4 * 1024);
  // The same index keys, one of them with a handle that does not decode.
  Options options;
  options.block_restart_interval = 1;
  BlockBuilder builder(&options);
  BlockIterator it(BytewiseComparator(), index_block_.get());
  int n = 0;
  for (it.SeekToFirst(); it.Valid(); it.Next(), ++n) {
    builder.Add(it.key(), n == 5 ? Slice("\xff") : it.value());
  }
  std::string raw = builder.Finish().ToString();
  BlockContents contents;
  contents.data = Slice(raw);
  Block broken(contents);
  SegmentLocator locator;
  const Status s = locator.Build(BytewiseComparator(), &broken, index_);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_FALSE(locator.usable());
}

TEST_F(SegmentLocatorTest, BlocksOutOfFileOrderAreRejected) {
  BuildTable(3000, 4 * 1024);
  // Index keys in order but their handles pointing backwards in the file.
  std::vector<std::pair<std::string, std::string>> entries;
  BlockIterator it(BytewiseComparator(), index_block_.get());
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    entries.emplace_back(it.key().ToString(), it.value().ToString());
  }
  ASSERT_GT(index_.num_segments(), 2u);
  Options options;
  options.block_restart_interval = 1;
  BlockBuilder builder(&options);
  for (size_t i = 0; i < entries.size(); ++i) {
    builder.Add(entries[i].first, entries[entries.size() - 1 - i].second);
  }
  std::string raw = builder.Finish().ToString();
  BlockContents contents;
  contents.data = Slice(raw);
  Block reversed(contents);
  SegmentLocator locator;
  EXPECT_TRUE(
      locator.Build(BytewiseComparator(), &reversed, index_).IsCorruption());
  EXPECT_FALSE(locator.usable());
}

// Segment key ranges run from the separator closing the previous segment
// to the one closing their own, exact at the table's two ends.
TEST(SegmentKeyRangesTest, RangesFollowTheLastIndexKeys) {
  auto index_key = [](const std::string& user_key) {
    return InternalKey(user_key, 9, kTypeValue).Encode().ToString();
  };
  std::vector<SegmentKeyRange> ranges;
  ASSERT_TRUE(SegmentKeyRanges({index_key("c"), "", index_key("m"), "zz"}, "a",
                               "x", &ranges)
                  .ok());
  ASSERT_EQ(4u, ranges.size());
  EXPECT_EQ("a", ranges[0].first);
  EXPECT_EQ("c", ranges[0].last);
  // A segment without data blocks: an empty range at the last bound.
  EXPECT_EQ("c", ranges[1].first);
  EXPECT_EQ("c", ranges[1].last);
  EXPECT_EQ("c", ranges[2].first);
  EXPECT_EQ("m", ranges[2].last);
  // The last segment ends at the table's largest key, not its separator.
  EXPECT_EQ("m", ranges[3].first);
  EXPECT_EQ("x", ranges[3].last);

  ASSERT_TRUE(SegmentKeyRanges({}, "a", "x", &ranges).ok());
  EXPECT_TRUE(ranges.empty());
  // A separator too short to carry a tag is damage.
  EXPECT_TRUE(
      SegmentKeyRanges({"short", "z"}, "a", "x", &ranges).IsCorruption());
  EXPECT_TRUE(ranges.empty());
}

}  // namespace
}  // namespace leveldb
