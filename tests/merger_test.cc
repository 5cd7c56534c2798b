#include "table/merger.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/iterator.h"
#include "tests/table_test_helpers.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace {

using test::KVVector;
using test::VectorIterator;

Iterator* Child(const KVVector& entries) {
  return new VectorIterator(BytewiseComparator(), entries);
}

TEST(MergerTest, NoChildren) {
  std::unique_ptr<Iterator> it(
      NewMergingIterator(BytewiseComparator(), nullptr, 0));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
}

TEST(MergerTest, SingleChildIsReturnedAsIs) {
  Iterator* child = Child({{"a", "1"}});
  std::unique_ptr<Iterator> it(
      NewMergingIterator(BytewiseComparator(), &child, 1));
  EXPECT_EQ(child, it.get());
  EXPECT_EQ(std::vector<std::string>({"a"}), test::ForwardKeys(it.get()));
}

TEST(MergerTest, InterleavesAndKeepsDuplicates) {
  Iterator* children[3] = {
      Child({{"a", "0"}, {"d", "0"}, {"g", "0"}}),
      Child({}),
      Child({{"b", "2"}, {"d", "2"}, {"h", "2"}}),
  };
  std::unique_ptr<Iterator> it(
      NewMergingIterator(BytewiseComparator(), children, 3));
  EXPECT_EQ(std::vector<std::string>({"a", "b", "d", "d", "g", "h"}),
            test::ForwardKeys(it.get()));
  // Forward ties come from the lower-numbered child first.
  it->Seek("d");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("0", it->value().ToString());
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("d", it->key().ToString());
  EXPECT_EQ("2", it->value().ToString());

  EXPECT_EQ(std::vector<std::string>({"h", "g", "d", "d", "b", "a"}),
            test::BackwardKeys(it.get()));
}

TEST(MergerTest, DirectionChanges) {
  Iterator* children[2] = {
      Child({{"a", ""}, {"c", ""}, {"e", ""}}),
      Child({{"b", ""}, {"d", ""}, {"f", ""}}),
  };
  std::unique_ptr<Iterator> it(
      NewMergingIterator(BytewiseComparator(), children, 2));
  it->Seek("c");
  ASSERT_EQ("c", it->key().ToString());
  it->Prev();
  ASSERT_EQ("b", it->key().ToString());
  it->Next();
  ASSERT_EQ("c", it->key().ToString());
  it->Next();
  ASSERT_EQ("d", it->key().ToString());
  it->Prev();
  ASSERT_EQ("c", it->key().ToString());
  it->Prev();
  ASSERT_EQ("b", it->key().ToString());
  it->Prev();
  ASSERT_EQ("a", it->key().ToString());
  it->Prev();
  EXPECT_FALSE(it->Valid());

  it->SeekToLast();
  ASSERT_EQ("f", it->key().ToString());
  it->Next();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  it->Prev();
  ASSERT_EQ("e", it->key().ToString());
  it->Next();
  ASSERT_EQ("f", it->key().ToString());
}

TEST(MergerTest, ReportsFirstChildError) {
  Iterator* children[3] = {
      Child({{"a", ""}}),
      new VectorIterator(BytewiseComparator(), {{"b", ""}},
                         Status::Corruption("child one")),
      new VectorIterator(BytewiseComparator(), {},
                         Status::IOError("child two")),
  };
  std::unique_ptr<Iterator> it(
      NewMergingIterator(BytewiseComparator(), children, 3));
  EXPECT_EQ(std::vector<std::string>({"a", "b"}), test::ForwardKeys(it.get()));
  Status s = it->status();
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("child one"));
}

// Random operations against a sorted model of distinct keys.
TEST(MergerTest, RandomizedAgainstModel) {
  Random rnd(test::RandomSeed());
  for (int round = 0; round < 40; ++round) {
    const int num_children = 1 + rnd.Uniform(6);
    std::set<std::string> all;
    std::vector<KVVector> parts(num_children);
    const int total = rnd.Uniform(200);
    for (int i = 0; i < total; ++i) {
      std::string key = test::RandomKey(&rnd, 1 + rnd.Uniform(6));
      if (!all.insert(key).second) continue;
      parts[rnd.Uniform(num_children)].emplace_back(key, "v" + key);
    }
    std::vector<Iterator*> children;
    for (KVVector& part : parts) {
      std::sort(part.begin(), part.end());
      children.push_back(Child(part));
    }
    std::unique_ptr<Iterator> it(NewMergingIterator(
        BytewiseComparator(), children.data(), num_children));
    KVVector model;
    for (const std::string& key : all) model.emplace_back(key, "v" + key);

    SCOPED_TRACE("round " + std::to_string(round));
    ASSERT_NO_FATAL_FAILURE(test::CheckRandomMoves(
        it.get(), model, BytewiseComparator(), &rnd, /*num_moves=*/300,
        /*next_weight=*/2,
        [&rnd] { return test::RandomKey(&rnd, rnd.Uniform(6)); }));
    EXPECT_TRUE(it->status().ok());
  }
}

}  // namespace
}  // namespace leveldb
