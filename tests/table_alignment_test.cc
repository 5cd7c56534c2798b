// Page-aligned data blocks (ElasticFilterOptions::block_alignment): no data
// block with its trailer touches more pages than its size needs, the
// padding is invisible to readers, and without the option tables keep
// LevelDB's layout.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/dumpfile.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/table.h"
#include "port/port.h"
#include "table/block_alignment.h"
#include "tests/elastic_test_helpers.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace {

constexpr uint64_t kPage = 4096;

struct Shape {
  bool compress;
  size_t block_size;
};

class TableAlignmentTest : public testing::Test {
 protected:
  // A table of `kvs` under an ElasticBF policy aligning to `alignment`.
  std::string Build(const test::KVVector& kvs, uint64_t alignment,
                    Shape shape = {false, 4096}) {
    ElasticFilterOptions eo;
    eo.block_alignment = alignment;
    policy_.reset(NewElasticFilterPolicy(eo));
    Options options;
    options.filter_policy = policy_.get();
    options.compression = shape.compress ? kSnappyCompression : kNoCompression;
    options.block_size = shape.block_size;
    return test::BuildTableBytes(options, kvs);
  }

  // Every entry of the table, read through the public Table reader.
  test::KVVector ReadAll(const std::string& file) {
    Options options;
    options.filter_policy = policy_.get();
    Table* raw = nullptr;
    test::StringSource source(file);  // the table does not own it
    EXPECT_TRUE(Table::Open(options, &source, file.size(), &raw).ok());
    std::unique_ptr<Table> table(raw);
    test::KVVector out;
    if (table == nullptr) return out;
    ReadOptions ro;
    ro.verify_checksums = true;
    std::unique_ptr<Iterator> it(table->NewIterator(ro));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out.emplace_back(it->key().ToString(), it->value().ToString());
    }
    EXPECT_TRUE(it->status().ok()) << it->status().ToString();
    return out;
  }

  std::unique_ptr<const FilterPolicy> policy_;
};

// Random-length values of [min_len, max_len] bytes, half compressible.
test::KVVector VariedEntries(int n, size_t min_len, size_t max_len) {
  Random rnd(301);
  test::KVVector kvs;
  for (int i = 0; i < n; ++i) {
    const size_t len = min_len + rnd.Uniform(max_len - min_len + 1);
    kvs.emplace_back(test::PresentKey(i),
                     test::CompressibleString(&rnd, 0.5, len));
  }
  return kvs;
}

uint64_t MinPages(uint64_t bytes) { return (bytes + kPage - 1) / kPage; }

// Checks every data block of `file` touches the fewest pages it can and,
// unless an entry may exceed a page, at most max_pages; returns the number
// of data blocks.
size_t ExpectBlocksAligned(const std::string& file, uint64_t max_pages,
                           const Comparator* cmp = BytewiseComparator(),
                           bool big_entries = false) {
  const BlockAlignment pages(kPage);
  const auto handles = test::DataBlockHandles(file, cmp);
  for (const BlockHandle& h : handles) {
    const uint64_t bytes = h.size() + kBlockTrailerSize;
    const uint64_t touched = pages.PagesTouched(h.offset(), bytes);
    EXPECT_EQ(MinPages(bytes), touched)
        << "block at " << h.offset() << " of " << bytes << " bytes";
    if (!big_entries) {
      EXPECT_LE(touched, max_pages) << "block at " << h.offset();
    }
  }
  return handles.size();
}

TEST(BlockAlignmentTest, Arithmetic) {
  const BlockAlignment a(kPage);
  ASSERT_TRUE(a.enabled());
  EXPECT_FALSE(BlockAlignment(0).enabled());
  EXPECT_FALSE(BlockAlignment(3000).enabled());
  EXPECT_EQ(1u, a.PagesTouched(0, kPage));
  EXPECT_EQ(2u, a.PagesTouched(1, kPage));
  EXPECT_EQ(0u, a.PaddingBefore(100, 3996));         // ends on the boundary
  EXPECT_EQ(3996u, a.PaddingBefore(100, 3997));      // would straddle
  EXPECT_EQ(0u, a.PaddingBefore(100, 5000));         // two pages either way
  EXPECT_EQ(kPage, a.PlannedStart(4000, 50, 1024));  // rest too small
  EXPECT_EQ(2000u, a.PlannedStart(2000, 50, 1024));
  EXPECT_TRUE(a.ShouldCut(0, 4000, 4097, 1));
  EXPECT_FALSE(a.ShouldCut(0, 4000, 4096, 1));
  EXPECT_FALSE(a.ShouldCut(0, 5000, 6000, 1));  // already two pages
}

TEST_F(TableAlignmentTest, NoBlockStraddlesAPage) {
  const test::KVVector kvs = VariedEntries(20000, 20, 300);
  for (bool compress : {false, true}) {
    if (compress && !port::SnappyAvailable()) continue;
    SCOPED_TRACE(compress ? "snappy" : "no compression");
    const std::string file = Build(kvs, kPage, {compress, 4096});
    EXPECT_GT(ExpectBlocksAligned(file, 1), 50u);
    EXPECT_EQ(kvs, ReadAll(file));
  }
}

TEST_F(TableAlignmentTest, SmallerAndLargerBlockSizes) {
  const test::KVVector kvs = VariedEntries(20000, 20, 300);
  for (size_t block_size : {1024, 16384}) {
    for (bool compress : {false, true}) {
      if (compress && !port::SnappyAvailable()) continue;
      SCOPED_TRACE(std::to_string(block_size) + (compress ? " snappy" : ""));
      const std::string file = Build(kvs, kPage, {compress, block_size});
      ExpectBlocksAligned(file, MinPages(block_size));
      EXPECT_EQ(kvs, ReadAll(file));
    }
  }
}

TEST_F(TableAlignmentTest, ValuesLargerThanAPage) {
  const test::KVVector kvs = VariedEntries(600, 10, 3 * kPage);
  for (bool compress : {false, true}) {
    if (compress && !port::SnappyAvailable()) continue;
    const std::string file = Build(kvs, kPage, {compress, 4096});
    ExpectBlocksAligned(file, 1, BytewiseComparator(), true);
    EXPECT_EQ(kvs, ReadAll(file));
  }
}

// Values that compress to a tenth: blocks hold at most twice block_size
// of raw data, several share a page, and little is lost to padding.
TEST_F(TableAlignmentTest, HighlyCompressibleValues) {
  if (!port::SnappyAvailable()) GTEST_SKIP() << "no snappy";
  Random rnd(7);
  test::KVVector kvs;
  for (int i = 0; i < 20000; ++i) {
    kvs.emplace_back(test::PresentKey(i),
                     test::CompressibleString(&rnd, 0.1, 200));
  }
  const std::string file = Build(kvs, kPage, {true, 4096});
  const std::string off = Build(kvs, 0, {true, 4096});
  ExpectBlocksAligned(file, 1);
  EXPECT_LT(file.size(), off.size() * 21 / 20);
  test::StringSource source(file);
  size_t largest = 0;
  for (const BlockHandle& h :
       test::DataBlockHandles(file, BytewiseComparator())) {
    BlockContents contents;
    ASSERT_TRUE(ReadBlock(&source, ReadOptions(), h, &contents).ok());
    largest = std::max(largest, contents.data.size());
    if (contents.heap_allocated) delete[] contents.data.data();
  }
  EXPECT_LT(largest, 2 * 4096 + 300u);
  EXPECT_EQ(kvs, ReadAll(file));
}

TEST_F(TableAlignmentTest, EmptyTable) {
  const std::string file = Build({}, kPage);
  ASSERT_FALSE(file.empty());
  EXPECT_TRUE(test::DataBlockHandles(file, BytewiseComparator()).empty());
  EXPECT_TRUE(ReadAll(file).empty());
  EXPECT_EQ(Build({}, 0), file);  // nothing to align
}

TEST_F(TableAlignmentTest, EveryKeyFoundBySeek) {
  const test::KVVector kvs = VariedEntries(5000, 50, 200);
  const std::string file = Build(kvs, kPage);
  Options options;
  Table* raw = nullptr;  // no filter policy: the reader of stock LevelDB
  test::StringSource source(file);
  ASSERT_TRUE(Table::Open(options, &source, file.size(), &raw).ok());
  std::unique_ptr<Table> table(raw);
  std::unique_ptr<Iterator> it(table->NewIterator(ReadOptions()));
  for (const auto& kv : kvs) {
    it->Seek(kv.first);
    ASSERT_TRUE(it->Valid()) << kv.first;
    EXPECT_EQ(kv.first, it->key().ToString());
    EXPECT_EQ(kv.second, it->value().ToString());
  }
  it->Seek(test::AbsentKey(4999));
  EXPECT_FALSE(it->Valid());
}

// Off, blocks follow each other as LevelDB writes them, and an ElasticBF
// table cuts its data blocks where a table without a policy does.
TEST_F(TableAlignmentTest, OffKeepsLevelDBLayout) {
  const test::KVVector kvs = VariedEntries(5000, 20, 300);
  Options plain;
  plain.compression = kNoCompression;
  const std::string stock = test::BuildTableBytes(plain, kvs);
  const auto stock_blocks = test::DataBlockHandles(stock, BytewiseComparator());
  ASSERT_GT(stock_blocks.size(), 10u);
  uint64_t expected = 0;
  for (const BlockHandle& h : stock_blocks) {
    EXPECT_EQ(expected, h.offset());
    expected = h.offset() + h.size() + kBlockTrailerSize;
  }
  const std::string elastic = Build(kvs, 0);
  const auto elastic_blocks =
      test::DataBlockHandles(elastic, BytewiseComparator());
  ASSERT_EQ(stock_blocks.size(), elastic_blocks.size());
  for (size_t i = 0; i < stock_blocks.size(); ++i) {
    EXPECT_EQ(stock_blocks[i].offset(), elastic_blocks[i].offset());
    EXPECT_EQ(stock_blocks[i].size(), elastic_blocks[i].size());
  }
  EXPECT_EQ(stock.substr(0, expected), elastic.substr(0, expected));
  // Aligned, the table differs and holds more, smaller blocks.
  const std::string aligned = Build(kvs, kPage);
  EXPECT_GT(test::DataBlockHandles(aligned, BytewiseComparator()).size(),
            stock_blocks.size());
}

TEST_F(TableAlignmentTest, SizeGrowsLittle) {
  const test::KVVector kvs = VariedEntries(20000, 100, 140);
  const double off = static_cast<double>(Build(kvs, 0).size());
  const double on = static_cast<double>(Build(kvs, kPage).size());
  EXPECT_LT(on, off * 1.05);
}

TEST(BlockAlignmentOptionTest, Validation) {
  ElasticFilterOptions eo;
  for (size_t ok : {0, 512, 4096, 65536}) {
    eo.block_alignment = ok;
    EXPECT_TRUE(ValidateElasticFilterOptions(eo).ok()) << ok;
  }
  for (size_t bad : {1, 256, 3000, 4095, 131072}) {
    eo.block_alignment = bad;
    Status s = ValidateElasticFilterOptions(eo);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad;
    EXPECT_NE(std::string::npos, s.ToString().find("block_alignment"));
  }
}

// Through a database: flushes and compactions write aligned tables, and
// every key reads back, also after RepairDB.
TEST(BlockAlignmentDBTest, CompactAndRepair) {
  Env* env = Env::Default();
  const std::string dbname = test::NewTempDir(env, "table_alignment");
  ElasticFilterOptions eo;
  eo.block_alignment = kPage;
  std::unique_ptr<const FilterPolicy> policy(NewElasticFilterPolicy(eo));
  Options options;
  options.create_if_missing = true;
  options.filter_policy = policy.get();
  options.write_buffer_size = 256 << 10;
  const test::KVVector kvs = VariedEntries(8000, 50, 200);
  auto check_all = [&](DB* db) {
    for (const auto& kv : kvs) {
      std::string value;
      ASSERT_TRUE(db->Get(ReadOptions(), kv.first, &value).ok()) << kv.first;
      ASSERT_EQ(kv.second, value);
    }
  };
  {
    DB* raw = nullptr;
    ASSERT_TRUE(DB::Open(options, dbname, &raw).ok());
    std::unique_ptr<DB> db(raw);
    for (size_t i = 0; i < kvs.size(); ++i) {
      const auto& kv = kvs[(i * 7919) % kvs.size()];  // out of order
      ASSERT_TRUE(db->Put(WriteOptions(), kv.first, kv.second).ok());
    }
    db->CompactRange(nullptr, nullptr);
    check_all(db.get());
  }
  std::vector<std::string> children;
  ASSERT_TRUE(env->GetChildren(dbname, &children).ok());
  int tables = 0;
  for (const std::string& child : children) {
    if (child.size() < 4 || child.substr(child.size() - 4) != ".ldb") continue;
    std::string file;
    ASSERT_TRUE(ReadFileToString(env, dbname + "/" + child, &file).ok());
    const InternalKeyComparator icmp(BytewiseComparator());
    if (ExpectBlocksAligned(file, 1, &icmp) > 0) ++tables;
    // leveldbutil dump: every entry of the table, through its index.
    test::StringSink dump;
    ASSERT_TRUE(DumpFile(env, dbname + "/" + child, &dump).ok());
    EXPECT_NE(std::string::npos, dump.contents().find("'k000")) << child;
  }
  EXPECT_GT(tables, 0);
  ASSERT_TRUE(RepairDB(dbname, options).ok());
  {
    DB* raw = nullptr;
    ASSERT_TRUE(DB::Open(options, dbname, &raw).ok());
    std::unique_ptr<DB> db(raw);
    check_all(db.get());
  }
  ASSERT_TRUE(DestroyDB(dbname, options).ok());
  test::RemoveDirRecursively(env, dbname);
}

}  // namespace
}  // namespace leveldb
