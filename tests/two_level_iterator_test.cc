#include "table/two_level_iterator.h"

#include <algorithm>
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

std::vector<std::string> Forward(Iterator* it) {
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    keys.push_back(it->key().ToString());
  }
  return keys;
}

std::vector<std::string> Backward(Iterator* it) {
  std::vector<std::string> keys;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    keys.push_back(it->key().ToString());
  }
  return keys;
}

TEST(TwoLevelIteratorTest, EmptyIndex) {
  Blocks blocks;
  std::unique_ptr<Iterator> it(NewTwoLevelIterator(
      NewIndex(blocks, {}), &OpenBlock, &blocks, ReadOptions()));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek("x");
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(0, blocks.opens);
}

TEST(TwoLevelIteratorTest, SkipsEmptyBlocksBothWays) {
  Blocks blocks;
  blocks.contents = {{}, {{"b", "1"}, {"c", "2"}}, {}, {}, {{"f", "3"}}, {}};
  blocks.broken.assign(blocks.contents.size(), false);
  std::unique_ptr<Iterator> it(
      NewTwoLevelIterator(NewIndex(blocks, {"a", "c", "d", "e", "f", "g"}),
                          &OpenBlock, &blocks, ReadOptions()));
  EXPECT_EQ(std::vector<std::string>({"b", "c", "f"}), Forward(it.get()));
  EXPECT_EQ(std::vector<std::string>({"f", "c", "b"}), Backward(it.get()));

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
  EXPECT_EQ(std::vector<std::string>({"a", "c"}), Forward(it.get()));
  Status s = it->status();
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("broken block"));

  std::unique_ptr<Iterator> back(NewTwoLevelIterator(
      NewIndex(blocks, {"a", "b", "c"}), &OpenBlock, &blocks, ReadOptions()));
  EXPECT_EQ(std::vector<std::string>({"c", "a"}), Backward(back.get()));
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
    std::vector<std::string> model;
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
        model.push_back(key);
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

    size_t pos = model.size();
    for (int op = 0; op < 200; ++op) {
      switch (rnd.Uniform(5)) {
        case 0:
          it->SeekToFirst();
          pos = 0;
          break;
        case 1:
          it->SeekToLast();
          pos = model.empty() ? 0 : model.size() - 1;
          break;
        case 2: {
          char target[16];
          snprintf(target, sizeof(target), "k%03u",
                   static_cast<unsigned>(rnd.Uniform(next_key + 2)));
          it->Seek(target);
          pos = std::lower_bound(model.begin(), model.end(),
                                 std::string(target)) -
                model.begin();
          break;
        }
        case 3:
          if (pos < model.size()) {
            it->Next();
            ++pos;
          }
          break;
        default:
          if (pos < model.size()) {
            it->Prev();
            pos = (pos == 0) ? model.size() : pos - 1;
          }
          break;
      }
      ASSERT_EQ(pos < model.size(), it->Valid());
      if (pos < model.size()) {
        ASSERT_EQ(model[pos], it->key().ToString());
        ASSERT_EQ("v" + model[pos], it->value().ToString());
      }
    }
    EXPECT_TRUE(it->status().ok());
  }
}

}  // namespace
}  // namespace leveldb
