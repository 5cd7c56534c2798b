// Tests of the DB's I/O counters: GetProperty("leveldb.io-stats") and
// ResetIoStats() (include/leveldb/io_stats.h).
#include "leveldb/io_stats.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/options.h"
#include "tests/db_impl_test_peer.h"
#include "tests/test_util.h"
#include "util/io_stats.h"
#include "util/random.h"

namespace leveldb {
namespace {

const char* const kCounterNames[] = {
    "gets",
    "table_probes",
    "filter_checks",
    "filter_rejections",
    "false_positives",
    "unfiltered_misses",
    "data_block_reads",
    "data_block_cache_hits",
    "unit_loads",
    "unit_load_bytes",
    "unit_load_failures",
    "unit_evictions",
    "compaction_bytes_read",
    "compaction_bytes_written",
};

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

class IoStatsTest : public testing::Test {
 protected:
  void SetUp() override {
    dbname_ = test::NewTempDir(Env::Default(), "io_stats");
    Options options;
    options.create_if_missing = true;
    Status s = DB::Open(options, dbname_, &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  void TearDown() override {
    delete db_;
    DestroyDB(dbname_, Options());
    test::RemoveDirRecursively(Env::Default(), dbname_);
  }

  std::string Property() {
    std::string text;
    EXPECT_TRUE(db_->GetProperty("leveldb.io-stats", &text));
    return text;
  }

  // The value of counter `name` in the property text; -1 if absent.
  int64_t Counter(const std::string& name) {
    const std::string text = Property();
    size_t line_start = 0;
    while (line_start < text.size()) {
      size_t line_end = text.find('\n', line_start);
      if (line_end == std::string::npos) line_end = text.size();
      const std::string line = text.substr(line_start, line_end - line_start);
      const std::string prefix = name + ":";
      if (line.compare(0, prefix.size(), prefix) == 0) {
        return std::stoll(line.substr(prefix.size()));
      }
      line_start = line_end + 1;
    }
    return -1;
  }

  // Random values, so that compression cannot shrink tables much.
  void Fill(int first, int count, size_t value_size) {
    for (int i = first; i < first + count; i++) {
      ASSERT_TRUE(db_->Put(WriteOptions(), Key(i),
                           test::RandomString(&rnd_, value_size))
                      .ok());
    }
  }

  // Two overlapping tables, so that CompactRange has to merge them.
  void FillTwoOverlappingTables() {
    Fill(0, 2000, 100);
    ASSERT_TRUE(impl()->TEST_CompactMemTable().ok());
    Fill(1000, 2000, 100);
    ASSERT_TRUE(impl()->TEST_CompactMemTable().ok());
  }

  DBImpl* impl() { return static_cast<DBImpl*>(db_); }

  Random rnd_{test::RandomSeed()};
  std::string dbname_;
  DB* db_ = nullptr;
};

TEST_F(IoStatsTest, PropertyListsEveryCounter) {
  const std::string text = Property();
  for (const char* name : kCounterNames) {
    EXPECT_NE(std::string::npos, text.find(std::string(name) + ":"))
        << name << " missing from:\n"
        << text;
    EXPECT_EQ(0, Counter(name)) << name;
  }
  EXPECT_NE(std::string::npos, text.find("data_block_ios_per_get:"));
  EXPECT_NE(std::string::npos, text.find("false_positives_per_get:"));
}

TEST_F(IoStatsTest, UnknownSimilarPropertiesAreRejected) {
  std::string value;
  EXPECT_FALSE(db_->GetProperty("leveldb.io-stats2", &value));
  EXPECT_FALSE(db_->GetProperty("leveldb.io-stat", &value));
  EXPECT_FALSE(db_->GetProperty("io-stats", &value));
}

TEST_F(IoStatsTest, CountsEveryGet) {
  Fill(0, 100, 10);
  std::string value;
  for (int i = 0; i < 100; i++) {
    ASSERT_TRUE(db_->Get(ReadOptions(), Key(i), &value).ok());
  }
  EXPECT_EQ(100, Counter("gets"));

  // Misses count too, whether answered by the memtable or by the tables.
  ASSERT_TRUE(impl()->TEST_CompactMemTable().ok());
  for (int i = 1000; i < 1050; i++) {
    ASSERT_TRUE(db_->Get(ReadOptions(), Key(i), &value).IsNotFound());
  }
  ASSERT_TRUE(db_->Get(ReadOptions(), Key(5), &value).ok());
  EXPECT_EQ(151, Counter("gets"));
  EXPECT_EQ(151u, DBImplTestPeer::io_stats(impl())->gets.load());
}

TEST_F(IoStatsTest, MemtableFlushCountsAsWritten) {
  Fill(0, 500, 100);
  ASSERT_EQ(0, Counter("compaction_bytes_written"));
  ASSERT_TRUE(impl()->TEST_CompactMemTable().ok());
  const int64_t written = Counter("compaction_bytes_written");
  // At least the values themselves reached the table.
  EXPECT_GT(written, 500 * 100 / 2);
  EXPECT_EQ(0, Counter("compaction_bytes_read"));
}

TEST_F(IoStatsTest, CompactionCountsInputAndOutputBytes) {
  FillTwoOverlappingTables();
  const int64_t read_before = Counter("compaction_bytes_read");
  const int64_t written_before = Counter("compaction_bytes_written");

  db_->CompactRange(nullptr, nullptr);

  const int64_t read = Counter("compaction_bytes_read") - read_before;
  const int64_t written = Counter("compaction_bytes_written") - written_before;
  // Both level-0 tables were read; the merged output holds 3000 keys.
  EXPECT_GE(read, written_before);
  EXPECT_GT(written, 3000 * 100 / 2);
  std::string files;
  ASSERT_TRUE(db_->GetProperty("leveldb.num-files-at-level0", &files));
  EXPECT_EQ("0", files);
}

TEST_F(IoStatsTest, ResetZeroesEveryCounter) {
  FillTwoOverlappingTables();
  db_->CompactRange(nullptr, nullptr);
  std::string value;
  for (int i = 0; i < 20; i++) db_->Get(ReadOptions(), Key(i), &value);
  // Set the remaining counters directly, as the table layer would.
  IoStats* stats = DBImplTestPeer::io_stats(impl());
  for (std::atomic<uint64_t>* c :
       {&stats->table_probes, &stats->filter_checks, &stats->filter_rejections,
        &stats->false_positives, &stats->unfiltered_misses,
        &stats->data_block_reads, &stats->data_block_cache_hits,
        &stats->unit_loads, &stats->unit_load_bytes, &stats->unit_load_failures,
        &stats->unit_evictions}) {
    IoStats::Add(c, 3);
  }
  for (const char* name : kCounterNames) {
    ASSERT_GT(Counter(name), 0) << name;
  }

  ResetIoStats(db_);
  for (const char* name : kCounterNames) {
    EXPECT_EQ(0, Counter(name)) << name;
  }

  // Counting resumes after a reset.
  db_->Get(ReadOptions(), Key(1), &value);
  EXPECT_EQ(1, Counter("gets"));
}

// A DB that is not ours: ResetIoStats must leave it alone.
class FakeDB : public DB {
 public:
  Status Put(const WriteOptions&, const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status Delete(const WriteOptions&, const Slice&) override {
    return Status::OK();
  }
  Status Write(const WriteOptions&, WriteBatch*) override {
    return Status::OK();
  }
  Status Get(const ReadOptions&, const Slice&, std::string*) override {
    return Status::NotFound("fake");
  }
  Iterator* NewIterator(const ReadOptions&) override { return nullptr; }
  const Snapshot* GetSnapshot() override { return nullptr; }
  void ReleaseSnapshot(const Snapshot*) override {}
  bool GetProperty(const Slice&, std::string*) override {
    calls++;
    return false;
  }
  void GetApproximateSizes(const Range*, int, uint64_t*) override { calls++; }
  void CompactRange(const Slice*, const Slice*) override { calls++; }

  int calls = 0;
};

TEST_F(IoStatsTest, ResetIgnoresForeignDatabases) {
  std::string value;
  db_->Get(ReadOptions(), Key(1), &value);
  FakeDB fake;
  ResetIoStats(&fake);
  ResetIoStats(nullptr);
  EXPECT_EQ(0, fake.calls);
  // Our database was not touched either.
  EXPECT_EQ(1, Counter("gets"));
}

}  // namespace
}  // namespace leveldb
