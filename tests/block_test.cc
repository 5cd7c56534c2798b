#include "table/block.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "table/block_builder.h"
#include "table/format.h"
#include "tests/table_test_helpers.h"
#include "tests/test_util.h"
#include "util/coding.h"
#include "util/random.h"

namespace leveldb {
namespace {

using test::KVVector;

// Finishes a block from sorted entries and returns its bytes.
std::string BuildBlock(const KVVector& entries, int restart_interval) {
  Options options;
  options.block_restart_interval = restart_interval;
  BlockBuilder builder(&options);
  for (const auto& kv : entries) builder.Add(kv.first, kv.second);
  const size_t estimate = builder.CurrentSizeEstimate();
  std::string result = builder.Finish().ToString();
  EXPECT_EQ(estimate, result.size());
  return result;
}

// A block that reads from a copy of `bytes` it does not own.
BlockContents Unowned(const std::string& bytes) {
  BlockContents contents;
  contents.data = Slice(bytes);
  return contents;
}

// Checks every way of walking the block against `entries`.
void CheckBlock(const KVVector& entries, int restart_interval) {
  const Comparator* cmp = BytewiseComparator();
  const std::string bytes = BuildBlock(entries, restart_interval);
  Block block(Unowned(bytes));
  ASSERT_TRUE(block.ok());
  std::unique_ptr<Iterator> it(block.NewIterator(cmp));

  // Forward.
  it->SeekToFirst();
  for (const auto& kv : entries) {
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(kv.first, it->key().ToString());
    ASSERT_EQ(kv.second, it->value().ToString());
    it->Next();
  }
  EXPECT_FALSE(it->Valid());

  // Backward.
  it->SeekToLast();
  for (auto r = entries.rbegin(); r != entries.rend(); ++r) {
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(r->first, it->key().ToString());
    ASSERT_EQ(r->second, it->value().ToString());
    it->Prev();
  }
  EXPECT_FALSE(it->Valid());

  // Seek to every key, and to keys just before and after it.
  for (size_t i = 0; i < entries.size(); ++i) {
    it->Seek(entries[i].first);
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(entries[i].first, it->key().ToString());

    // key + "\0" is the smallest key after entries[i].first.
    it->Seek(entries[i].first + std::string(1, '\0'));
    if (i + 1 < entries.size()) {
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(entries[i + 1].first, it->key().ToString());
      // Prev from a position reached by Seek.
      it->Prev();
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(entries[i].first, it->key().ToString());
    } else {
      ASSERT_FALSE(it->Valid());
    }
  }
  it->Seek("");
  EXPECT_EQ(!entries.empty(), it->Valid());
  if (!entries.empty()) {
    EXPECT_EQ(entries.front().first, it->key().ToString());
  }
  EXPECT_TRUE(it->status().ok());
}

KVVector SortedRandom(Random* rnd, int n, int max_key_len, int max_value_len,
                      bool binary) {
  std::map<std::string, std::string> m;
  while (static_cast<int>(m.size()) < n) {
    const size_t klen = 1 + rnd->Uniform(max_key_len);
    const std::string key =
        binary ? test::RandomKey(rnd, klen) : test::RandomString(rnd, klen);
    const size_t vlen = rnd->Uniform(max_value_len + 1);
    m[key] =
        binary ? test::RandomBytes(rnd, vlen) : test::RandomString(rnd, vlen);
  }
  return KVVector(m.begin(), m.end());
}

const int kIntervals[] = {1, 2, 16};

TEST(BlockTest, EmptyBlock) {
  for (int interval : kIntervals) {
    const std::string bytes = BuildBlock({}, interval);
    // One restart point (offset 0) and the count.
    EXPECT_EQ(std::string("\0\0\0\0\1\0\0\0", 8), bytes);
    CheckBlock({}, interval);
  }
}

TEST(BlockTest, ExactEncoding) {
  const std::string bytes =
      BuildBlock({{"apple", "1"}, {"apricot", "22"}, {"banana", ""}}, 2);
  std::string expected;
  // apple: shared 0, unshared 5, value 1.
  expected.append("\x00\x05\x01", 3);
  expected.append("apple1");
  // apricot: shares "ap".
  expected.append("\x02\x05\x02", 3);
  expected.append("ricot22");
  // banana starts the second restart run, stored in full.
  const uint32_t second_restart = static_cast<uint32_t>(expected.size());
  expected.append("\x00\x06\x00", 3);
  expected.append("banana");
  AppendFixed32(&expected, 0);
  AppendFixed32(&expected, second_restart);
  AppendFixed32(&expected, 2);
  EXPECT_EQ(expected, bytes);
}

TEST(BlockTest, SingleEntry) {
  for (int interval : kIntervals) CheckBlock({{"k", "v"}}, interval);
}

TEST(BlockTest, OneByteKeys) {
  KVVector entries;
  for (int c = 0; c < 256; ++c) {
    entries.emplace_back(std::string(1, static_cast<char>(c)),
                         std::string(c % 7, 'x'));
  }
  for (int interval : kIntervals) CheckBlock(entries, interval);
}

TEST(BlockTest, EmptyKeyAndValues) {
  KVVector entries = {{"", ""}, {"a", ""}, {"aa", ""}, {"b", "v"}};
  for (int interval : kIntervals) CheckBlock(entries, interval);
}

TEST(BlockTest, LargeValues) {
  Random rnd(test::RandomSeed());
  KVVector entries;
  for (int i = 0; i < 5; ++i) {
    entries.emplace_back("key" + std::to_string(i),
                         test::RandomBytes(&rnd, 64 * 1024 + i));
  }
  for (int interval : kIntervals) CheckBlock(entries, interval);
}

TEST(BlockTest, LongSharedPrefixes) {
  KVVector entries;
  const std::string prefix(300, 'p');
  for (int i = 0; i < 100; ++i) {
    char suffix[16];
    snprintf(suffix, sizeof(suffix), "%04d", i);
    entries.emplace_back(prefix + suffix, std::string(200, 'v'));
  }
  for (int interval : kIntervals) CheckBlock(entries, interval);
}

TEST(BlockTest, BinaryKeysAndValues) {
  Random rnd(test::RandomSeed());
  for (int interval : kIntervals) {
    CheckBlock(SortedRandom(&rnd, 500, 20, 40, /*binary=*/true), interval);
  }
}

TEST(BlockTest, RandomShapes) {
  Random rnd(test::RandomSeed() + 1);
  for (int round = 0; round < 30; ++round) {
    const int n = 1 + rnd.Uniform(300);
    // Keys of up to 4+ bytes leave room for 300 distinct ones.
    KVVector entries = SortedRandom(&rnd, n, 4 + rnd.Uniform(40),
                                    rnd.Uniform(300), rnd.OneIn(2));
    CheckBlock(entries, 1 + rnd.Uniform(20));
  }
}

TEST(BlockTest, ResetStartsOver) {
  Options options;
  BlockBuilder builder(&options);
  EXPECT_TRUE(builder.empty());
  builder.Add("zzz", "old");
  EXPECT_FALSE(builder.empty());
  builder.Finish();
  builder.Reset();
  EXPECT_TRUE(builder.empty());
  EXPECT_EQ(8u, builder.CurrentSizeEstimate());
  builder.Add("aaa", "new");
  const std::string bytes = builder.Finish().ToString();
  Block block(Unowned(bytes));
  std::unique_ptr<Iterator> it(block.NewIterator(BytewiseComparator()));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("aaa", it->key().ToString());
  EXPECT_EQ("new", it->value().ToString());
  it->Next();
  EXPECT_FALSE(it->Valid());
}

TEST(BlockTest, SeekInRestartsAgreesWithSeekWhenTheRangeHoldsTheAnswer) {
  // One entry per restart run, as in index blocks.
  KVVector kvs;
  for (int i = 0; i < 200; ++i) {
    char key[16];
    std::snprintf(key, sizeof(key), "k%05d", 2 * i);
    kvs.emplace_back(key, "v");
  }
  const std::string bytes = BuildBlock(kvs, 1);
  BlockContents contents;
  contents.data = bytes;
  Block block(contents);
  ASSERT_EQ(200u, block.num_restarts());
  for (int probe = -1; probe < 400; ++probe) {
    char target[16];
    std::snprintf(target, sizeof(target), "k%05d", probe < 0 ? 0 : probe);
    BlockIterator full(BytewiseComparator(), &block);
    full.Seek(target);
    if (!full.Valid()) continue;
    // The answer's position, and ranges around it of every width.
    const uint32_t at = static_cast<uint32_t>((std::max(probe, 0) + 1) / 2);
    ASSERT_EQ(kvs[at].first, full.key().ToString());
    for (uint32_t first : {0u, at / 2, at}) {
      for (uint32_t last : {at, at + 3, 199u, 1000u}) {
        BlockIterator bounded(BytewiseComparator(), &block);
        bounded.SeekInRestarts(target, first, last);
        ASSERT_TRUE(bounded.Valid());
        EXPECT_EQ(full.key().ToString(), bounded.key().ToString())
            << target << " in [" << first << ", " << last << "]";
      }
    }
  }
}

TEST(BlockTest, OwnedContentsAreFreed) {
  // Run under ASan/LSan this would report a leak or a double free.
  const std::string bytes = BuildBlock({{"a", "b"}}, 16);
  char* copy = new char[bytes.size()];
  memcpy(copy, bytes.data(), bytes.size());
  BlockContents contents;
  contents.data = Slice(copy, bytes.size());
  contents.heap_allocated = true;
  Block block(contents);
  EXPECT_EQ(bytes.size(), block.size());
  std::unique_ptr<Iterator> it(block.NewIterator(BytewiseComparator()));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("b", it->value().ToString());
}

// Walks the block every way; must never crash. Returns the keys seen
// forward, and whether any status was Corruption.
bool ExerciseBlock(const std::string& bytes, std::vector<std::string>* keys) {
  // An exact-size heap copy, so a sanitizer catches any read past the end.
  char* copy = new char[bytes.size() + (bytes.empty() ? 1 : 0)];
  if (!bytes.empty()) memcpy(copy, bytes.data(), bytes.size());
  BlockContents contents;
  contents.data = Slice(copy, bytes.size());
  contents.heap_allocated = true;
  Block block(contents);
  std::unique_ptr<Iterator> it(block.NewIterator(BytewiseComparator()));
  bool corrupt = false;
  int steps = 0;
  for (it->SeekToFirst(); it->Valid() && steps < 10000; it->Next(), ++steps) {
    keys->push_back(it->key().ToString());
    it->value().ToString();
  }
  corrupt |= it->status().IsCorruption();
  steps = 0;
  for (it->SeekToLast(); it->Valid() && steps < 10000; it->Prev(), ++steps) {
    it->key().ToString();
  }
  corrupt |= it->status().IsCorruption();
  for (const char* target : {"", "a", "m", "zzzz", "\xff"}) {
    it->Seek(target);
    if (it->Valid()) it->Prev();
    corrupt |= it->status().IsCorruption();
  }
  return corrupt;
}

TEST(BlockCorruptionTest, TooShort) {
  for (size_t len = 0; len < 4; ++len) {
    const std::string bytes(len, '\0');
    Block block(Unowned(bytes));
    EXPECT_FALSE(block.ok());
    std::vector<std::string> keys;
    EXPECT_TRUE(ExerciseBlock(bytes, &keys));
    EXPECT_TRUE(keys.empty());
  }
}

TEST(BlockCorruptionTest, BadRestartCount) {
  std::string bytes = BuildBlock({{"a", "1"}, {"b", "2"}}, 1);
  for (uint32_t count : {0u, 100u, 0xffffffffu}) {
    std::string bad = bytes;
    StoreFixed32(&bad[bad.size() - 4], count);
    Block block(Unowned(bad));
    EXPECT_FALSE(block.ok()) << count;
    std::vector<std::string> keys;
    EXPECT_TRUE(ExerciseBlock(bad, &keys));
    EXPECT_TRUE(keys.empty());
  }
}

TEST(BlockCorruptionTest, RestartOffsetPastEnd) {
  std::string bytes = BuildBlock({{"a", "1"}, {"b", "2"}, {"c", "3"}}, 1);
  // Restart array: three offsets then the count; damage the second one.
  const size_t second = bytes.size() - 4 - 3 * 4 + 4;
  StoreFixed32(&bytes[second], 0x7fffffff);
  std::vector<std::string> keys;
  EXPECT_TRUE(ExerciseBlock(bytes, &keys));
}

TEST(BlockCorruptionTest, EntryRunsPastEnd) {
  std::string bytes = BuildBlock({{"key", "value"}}, 16);
  // Value length byte (third header byte) claims far more than exists.
  bytes[2] = 0x7f;
  std::vector<std::string> keys;
  EXPECT_TRUE(ExerciseBlock(bytes, &keys));
  EXPECT_TRUE(keys.empty());

  // A varint that never ends.
  std::string endless = BuildBlock({{"key", "value"}}, 16);
  endless[0] = '\xff';
  endless[1] = '\xff';
  endless[2] = '\xff';
  keys.clear();
  EXPECT_TRUE(ExerciseBlock(endless, &keys));
  EXPECT_TRUE(keys.empty());
}

TEST(BlockCorruptionTest, SharedLongerThanPreviousKey) {
  std::string bytes = BuildBlock({{"ab", "1"}, {"ac", "2"}}, 16);
  // Second entry starts after the 3-byte header, "ab" and "1".
  bytes[6] = 10;  // shared = 10 > 2
  std::vector<std::string> keys;
  EXPECT_TRUE(ExerciseBlock(bytes, &keys));
  EXPECT_EQ(std::vector<std::string>({"ab"}), keys);
}

TEST(BlockCorruptionTest, RestartEntryWithSharedBytes) {
  std::string bytes = BuildBlock({{"ab", "1"}, {"ac", "2"}}, 1);
  bytes[6] = 1;  // the second entry is a restart point; it must share 0
  std::vector<std::string> keys;
  EXPECT_TRUE(ExerciseBlock(bytes, &keys));
}

TEST(BlockCorruptionTest, RandomDamageNeverCrashes) {
  Random rnd(test::RandomSeed() + 7);
  for (int round = 0; round < 300; ++round) {
    KVVector entries =
        SortedRandom(&rnd, 1 + rnd.Uniform(50), 12, 30, rnd.OneIn(2));
    std::string bytes = BuildBlock(entries, 1 + rnd.Uniform(4));
    const int flips = 1 + rnd.Uniform(4);
    for (int f = 0; f < flips; ++f) {
      bytes[rnd.Uniform(static_cast<int>(bytes.size()))] ^=
          static_cast<char>(1 + rnd.Uniform(255));
    }
    if (rnd.OneIn(5)) bytes.resize(rnd.Uniform(static_cast<int>(bytes.size())));
    std::vector<std::string> keys;
    ExerciseBlock(bytes, &keys);  // the assertion is "no crash, no overread"
    EXPECT_LE(keys.size(), bytes.size());
  }
}

}  // namespace
}  // namespace leveldb
