#include "table/two_level_iterator.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/options.h"
#include "tests/table_test_helpers.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace {

using test::KVVector;
using test::VectorIterator;

// Inner "blocks" addressed by their decimal number in the index value.
struct Blocks {
  std::vector<KVVector> contents;
  std::vector<bool> broken;  // opening these yields an error iterator
  int opens = 0;
};

Iterator* OpenBlock(void* arg, const ReadOptions&, const Slice& value) {
  Blocks* blocks = reinterpret_cast<Blocks*>(arg);
  ++blocks->opens;
  const size_t index = std::stoul(value.ToString());
  if (blocks->broken[index]) {
    return NewErrorIterator(Status::Corruption("broken block"));
  }
  return new VectorIterator(BytewiseComparator(), blocks->contents[index]);
}

// Index keys are >= every key of their block and < every key of the next.
Iterator* NewIndex(const Blocks& blocks, const std::vector<std::string>& seps) {
  KVVector index;
  for (size_t i = 0; i < blocks.contents.size(); ++i) {
    index.emplace_back(seps[i], std::to_string(i));
  }
  return new VectorIterator(BytewiseComparator(), index);
}

TEST(TwoLevelIteratorTest, EmptyIndex) {
  Blocks blocks;
  std::unique_ptr<Iterator> it(NewTwoLevelIterator(
      NewIndex(blocks, {}), &OpenBlock, &blocks, ReadOptions()));
  test::ExpectEmptyIterator(it.get(), "x");
  EXPECT_EQ(0, blocks.opens);
}

TEST(TwoLevelIteratorTest, SkipsEmptyBlocksBothWays) {
  Blocks blocks;
  blocks.contents = {{}, {{"b", "1"}, {"c", "2"}}, {}, {}, {{"f", "3"}}, {}};
  blocks.broken.assign(blocks.contents.size(), false);
  std::unique_ptr<Iterator> it(
      NewTwoLevelIterator(NewIndex(blocks, {"a", "c", "d", "e", "f", "g"}),
                          &OpenBlock, &blocks, ReadOptions()));
  EXPECT_EQ(std::vector<std::string>({"b", "c", "f"}),
            test::ForwardKeys(it.get()));
  EXPECT_EQ(std::vector<std::string>({"f", "c", "b"}),
            test::BackwardKeys(it.get()));

  it->Seek("c");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("c", it->key().ToString());
  EXPECT_EQ("2", it->value().ToString());
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("f", it->key().ToString());
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("c", it->key().ToString());

  // "cc" falls in block 2 (empty), so the result comes from block 4.
  it->Seek("cc");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("f", it->key().ToString());
  it->Seek("g");
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
}

TEST(TwoLevelIteratorTest, ReusesInnerIteratorForSameBlock) {
  Blocks blocks;
  blocks.contents = {{{"a", ""}, {"b", ""}, {"c", ""}}};
  blocks.broken = {false};
  std::unique_ptr<Iterator> it(NewTwoLevelIterator(
      NewIndex(blocks, {"c"}), &OpenBlock, &blocks, ReadOptions()));
  it->Seek("a");
  it->Seek("b");
  it->Seek("c");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("c", it->key().ToString());
  EXPECT_EQ(1, blocks.opens);
}

TEST(TwoLevelIteratorTest, BrokenBlockIsReportedAndSkipped) {
  Blocks blocks;
  blocks.contents = {{{"a", ""}}, {{"b", ""}}, {{"c", ""}}};
  blocks.broken = {false, true, false};
  std::unique_ptr<Iterator> it(NewTwoLevelIterator(
      NewIndex(blocks, {"a", "b", "c"}), &OpenBlock, &blocks, ReadOptions()));
  EXPECT_EQ(std::vector<std::string>({"a", "c"}), test::ForwardKeys(it.get()));
  Status s = it->status();
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("broken block"));

  std::unique_ptr<Iterator> back(NewTwoLevelIterator(
      NewIndex(blocks, {"a", "b", "c"}), &OpenBlock, &blocks, ReadOptions()));
  EXPECT_EQ(std::vector<std::string>({"c", "a"}),
            test::BackwardKeys(back.get()));
  EXPECT_TRUE(back->status().IsCorruption());
}

TEST(TwoLevelIteratorTest, IndexErrorIsReported) {
  Blocks blocks;
  std::unique_ptr<Iterator> it(
      NewTwoLevelIterator(new VectorIterator(BytewiseComparator(), {},
                                             Status::IOError("index gone")),
                          &OpenBlock, &blocks, ReadOptions()));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsIOError());
}

TEST(TwoLevelIteratorTest, RandomizedAgainstModel) {
  Random rnd(test::RandomSeed());
  for (int round = 0; round < 30; ++round) {
    // Distinct sorted keys "k000".."k299" spread over random blocks.
    KVVector model;
    Blocks blocks;
    std::vector<std::string> seps;
    int next_key = 0;
    const int num_blocks = 1 + rnd.Uniform(12);
    for (int b = 0; b < num_blocks; ++b) {
      KVVector block;
      const int n = rnd.OneIn(3) ? 0 : 1 + rnd.Uniform(8);
      for (int i = 0; i < n; ++i) {
        char key[16];
        snprintf(key, sizeof(key), "k%03d", next_key++);
        block.emplace_back(key, std::string("v") + key);
        model.push_back(block.back());
      }
      // Separator: the block's last key (or the previous one for an empty
      // block; "j" sorts before every key for empty leading blocks).
      char sep[16];
      snprintf(sep, sizeof(sep), "k%03d", next_key - 1);
      std::string s = next_key > 0 ? std::string(sep) : std::string("j");
      if (!seps.empty() && s <= seps.back()) s = seps.back() + "~";
      seps.push_back(s);
      blocks.contents.push_back(block);
    }
    blocks.broken.assign(num_blocks, false);
    std::unique_ptr<Iterator> it(NewTwoLevelIterator(
        NewIndex(blocks, seps), &OpenBlock, &blocks, ReadOptions()));

    auto random_target = [&rnd, next_key] {
      char target[16];
      snprintf(target, sizeof(target), "k%03u",
               static_cast<unsigned>(rnd.Uniform(next_key + 2)));
      return std::string(target);
    };
    ASSERT_NO_FATAL_FAILURE(test::CheckRandomMoves(
        it.get(), model, BytewiseComparator(), &rnd, /*num_moves=*/200,
        /*next_weight=*/1, random_target));
    EXPECT_TRUE(it->status().ok());
  }
}

}  // namespace
}  // namespace leveldb
