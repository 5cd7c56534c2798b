#include "db/memtable.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/iterator.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace {

std::string IKey(const std::string& user_key, SequenceNumber seq,
                 ValueType type) {
  std::string encoded;
  AppendInternalKey(&encoded, ParsedInternalKey(user_key, seq, type));
  return encoded;
}

class MemTableTest : public testing::Test {
 protected:
  MemTableTest() : icmp_(BytewiseComparator()), mem_(new MemTable(icmp_)) {
    mem_->Ref();
  }
  ~MemTableTest() override { mem_->Unref(); }

  // Outcome of a Get, as one string: "value:<v>", "deleted" or "absent".
  std::string Lookup(const std::string& user_key, SequenceNumber seq) {
    LookupKey lk(user_key, seq);
    std::string value;
    Status s;
    if (!mem_->Get(lk, &value, &s)) return "absent";
    if (s.IsNotFound()) return "deleted";
    EXPECT_TRUE(s.ok()) << s.ToString();
    return "value:" + value;
  }

  InternalKeyComparator icmp_;
  MemTable* mem_;
};

TEST_F(MemTableTest, EmptyTable) {
  EXPECT_EQ("absent", Lookup("anything", kMaxSequenceNumber));
  std::unique_ptr<Iterator> it(mem_->NewIterator());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek(IKey("a", 1, kValueTypeForSeek));
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
}

TEST_F(MemTableTest, GetHonorsSequenceNumbers) {
  mem_->Add(1, kTypeValue, "k", "v1");
  mem_->Add(5, kTypeValue, "k", "v5");
  mem_->Add(7, kTypeDeletion, "k", "");
  mem_->Add(9, kTypeValue, "k", "v9");

  EXPECT_EQ("absent", Lookup("k", 0));
  EXPECT_EQ("value:v1", Lookup("k", 1));
  EXPECT_EQ("value:v1", Lookup("k", 4));
  EXPECT_EQ("value:v5", Lookup("k", 5));
  EXPECT_EQ("value:v5", Lookup("k", 6));
  EXPECT_EQ("deleted", Lookup("k", 7));
  EXPECT_EQ("deleted", Lookup("k", 8));
  EXPECT_EQ("value:v9", Lookup("k", 9));
  EXPECT_EQ("value:v9", Lookup("k", kMaxSequenceNumber));
}

TEST_F(MemTableTest, GetDistinguishesNeighbouringKeys) {
  mem_->Add(3, kTypeValue, "ab", "x");
  mem_->Add(4, kTypeValue, "b", "y");
  mem_->Add(5, kTypeValue, std::string("a\0", 2), "z");

  EXPECT_EQ("absent", Lookup("a", 100));
  EXPECT_EQ("value:x", Lookup("ab", 100));
  EXPECT_EQ("absent", Lookup("aa", 100));
  EXPECT_EQ("absent", Lookup("abc", 100));
  EXPECT_EQ("value:y", Lookup("b", 100));
  EXPECT_EQ("value:z", Lookup(std::string("a\0", 2), 100));
  EXPECT_EQ("absent", Lookup("c", 100));
  // Newer than the lookup: invisible.
  EXPECT_EQ("absent", Lookup("b", 3));
}

TEST_F(MemTableTest, EmptyKeysAndValues) {
  mem_->Add(1, kTypeValue, "", "empty-key");
  mem_->Add(2, kTypeValue, "k", "");
  EXPECT_EQ("value:empty-key", Lookup("", 10));
  EXPECT_EQ("value:", Lookup("k", 10));
}

TEST_F(MemTableTest, LargeValues) {
  Random rnd(test::RandomSeed());
  const std::string big = test::RandomBytes(&rnd, 300000);
  const std::string key(1000, 'K');
  mem_->Add(1, kTypeValue, key, big);
  EXPECT_EQ("value:" + big, Lookup(key, 1));
  EXPECT_GE(mem_->ApproximateMemoryUsage(), big.size());
}

TEST_F(MemTableTest, IteratorYieldsInternalKeysInOrder) {
  mem_->Add(10, kTypeValue, "b", "b10");
  mem_->Add(11, kTypeDeletion, "a", "");
  mem_->Add(12, kTypeValue, "c", "c12");
  mem_->Add(13, kTypeValue, "b", "b13");
  mem_->Add(9, kTypeValue, "a", "a9");

  const std::vector<std::pair<std::string, std::string>> expected = {
      {IKey("a", 11, kTypeDeletion), ""}, {IKey("a", 9, kTypeValue), "a9"},
      {IKey("b", 13, kTypeValue), "b13"}, {IKey("b", 10, kTypeValue), "b10"},
      {IKey("c", 12, kTypeValue), "c12"},
  };

  std::unique_ptr<Iterator> it(mem_->NewIterator());
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_LT(i, expected.size());
    EXPECT_EQ(expected[i].first, it->key().ToString()) << i;
    EXPECT_EQ(expected[i].second, it->value().ToString()) << i;
  }
  EXPECT_EQ(expected.size(), i);

  // Backwards.
  i = expected.size();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    ASSERT_GT(i, 0u);
    --i;
    EXPECT_EQ(expected[i].first, it->key().ToString()) << i;
  }
  EXPECT_EQ(0u, i);

  // Seek takes an internal key.
  it->Seek(IKey("b", 11, kValueTypeForSeek));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(IKey("b", 10, kTypeValue), it->key().ToString());
  EXPECT_EQ("b10", it->value().ToString());

  it->Seek(IKey("b", kMaxSequenceNumber, kValueTypeForSeek));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(IKey("b", 13, kTypeValue), it->key().ToString());
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(IKey("a", 9, kTypeValue), it->key().ToString());

  it->Seek(IKey("bb", kMaxSequenceNumber, kValueTypeForSeek));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(IKey("c", 12, kTypeValue), it->key().ToString());

  it->Seek(IKey("d", kMaxSequenceNumber, kValueTypeForSeek));
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
}

TEST_F(MemTableTest, MemoryUsageGrows) {
  const size_t before = mem_->ApproximateMemoryUsage();
  for (int i = 0; i < 1000; ++i) {
    mem_->Add(i + 1, kTypeValue, "key" + std::to_string(i),
              std::string(100, 'v'));
  }
  const size_t after = mem_->ApproximateMemoryUsage();
  EXPECT_GT(after, before);
  // At least the payload bytes must be accounted for.
  EXPECT_GE(after - before, 1000u * 100u);
}

TEST_F(MemTableTest, MatchesModel) {
  // Random puts and deletes over a small key space, checked against a model
  // holding every (key, sequence) version.
  Random rnd(test::RandomSeed());
  std::map<std::string, std::map<SequenceNumber, std::string>> versions;
  const std::string kDeleted = "\x01<deleted>";
  SequenceNumber seq = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string key = "k" + std::to_string(rnd.Uniform(100));
    ++seq;
    if (rnd.OneIn(4)) {
      mem_->Add(seq, kTypeDeletion, key, "");
      versions[key][seq] = kDeleted;
    } else {
      const std::string value = test::RandomString(&rnd, rnd.Uniform(40));
      mem_->Add(seq, kTypeValue, key, value);
      versions[key][seq] = value;
    }
  }

  for (int probe = 0; probe < 3000; ++probe) {
    const std::string key = "k" + std::to_string(rnd.Uniform(110));
    const SequenceNumber at = rnd.Uniform(static_cast<int>(seq) + 5);
    std::string expected = "absent";
    auto kv = versions.find(key);
    if (kv != versions.end()) {
      auto v = kv->second.upper_bound(at);
      if (v != kv->second.begin()) {
        --v;
        expected = v->second == kDeleted ? "deleted" : "value:" + v->second;
      }
    }
    ASSERT_EQ(expected, Lookup(key, at)) << key << " @ " << at;
  }

  // A full scan sees every version exactly once, in internal-key order.
  std::unique_ptr<Iterator> it(mem_->NewIterator());
  size_t count = 0;
  std::string previous;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (count > 0) {
      ASSERT_LT(icmp_.Compare(previous, it->key()), 0);
    }
    previous = it->key().ToString();
    ++count;
  }
  EXPECT_EQ(seq, count);
}

TEST(MemTableRefTest, SharedReferences) {
  // The table must survive until the last Unref; ASan reports a leak or a
  // use-after-free if the counting is wrong.
  InternalKeyComparator icmp(BytewiseComparator());
  MemTable* mem = new MemTable(icmp);
  mem->Ref();
  mem->Ref();
  mem->Add(1, kTypeValue, "k", "v");
  mem->Unref();
  LookupKey lk("k", 1);
  std::string value;
  Status s;
  ASSERT_TRUE(mem->Get(lk, &value, &s));
  EXPECT_EQ("v", value);
  mem->Unref();
}

}  // namespace
}  // namespace leveldb
