// Seek compaction charges only probes that read a data block for nothing.
//
// A database with the same key range at levels 0, 1 and 2 gets many Gets
// for absent keys interleaved with the present ones. With filters that
// reject those keys (ElasticBF or a standard Bloom filter) no probe reads a
// data block, so no seek is charged and no compaction runs; without a
// filter every probe but the last reads a block in vain, and the newest
// table is soon compacted away.
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "db/db_impl.h"
#include "elastic/mq_schedule.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/io_stats.h"
#include "leveldb/write_batch.h"
#include "tests/db_impl_test_peer.h"
#include "tests/elastic_test_peer.h"
#include "tests/test_util.h"

namespace leveldb {
namespace {

constexpr int kKeys = 2000;
constexpr int kAbsentGets = 3000;  // far above a small table's 100 seeks

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}

uint64_t Counter(const std::string& text, const std::string& name) {
  const std::string prefix = name + ":";
  size_t pos = text.find(prefix);
  if (pos == std::string::npos || (pos > 0 && text[pos - 1] != '\n')) {
    ADD_FAILURE() << name << " missing in\n" << text;
    return 0;
  }
  return std::stoull(text.substr(pos + prefix.size()));
}

enum class FilterKind { kNone, kBloom, kElastic };

class SeekCompactionTest : public testing::TestWithParam<FilterKind> {
 protected:
  SeekCompactionTest() : env_(Env::Default()) {
    dbname_ = test::NewTempDir(env_, "seek_compaction_test");
    switch (GetParam()) {
      case FilterKind::kNone:
        break;
      case FilterKind::kBloom:
        policy_.reset(NewBloomFilterPolicy(16));
        break;
      case FilterKind::kElastic: {
        ElasticFilterOptions eo;
        eo.bits_per_unit = 2;
        eo.units_per_segment = 12;
        eo.initial_units = eo.units_per_segment;  // all 24 bits per key
        eo.memory_budget_bytes = 64 << 20;
        policy_.reset(NewElasticFilterPolicy(eo));
        break;
      }
    }
  }

  ~SeekCompactionTest() override {
    delete db_;
    test::DestroyTempDB(env_, dbname_);
  }

  DBImpl* dbfull() { return static_cast<DBImpl*>(db_); }

  void OpenDB() {
    Options o;
    o.env = env_;
    o.create_if_missing = true;
    o.filter_policy = policy_.get();
    ASSERT_TRUE(DB::Open(o, dbname_, &db_).ok());
  }

  // Even keys, written as one flushed table.
  void WriteTable(int generation) {
    WriteBatch batch;
    for (int i = 0; i < kKeys; ++i) {
      batch.Put(Key(2 * i),
                "v" + std::to_string(generation) + "-" + std::string(100, 'x'));
    }
    ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());
    ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  }

  std::string FilesPerLevel() { return test::FilesPerLevel(db_); }

  std::string IoStats() {
    std::string text;
    EXPECT_TRUE(db_->GetProperty("leveldb.io-stats", &text));
    return text;
  }

  // Three overlapping tables: the newest at level 0, then levels 1 and 2.
  void BuildOverlappingLevels() {
    OpenDB();
    WriteTable(0);  // nothing below it: pushed down to level 2
    WriteTable(1);  // overlaps level 2: stops at level 1
    WriteTable(2);  // overlaps level 1: stays at level 0
    DBImplTestPeer::WaitForBackgroundWork(dbfull());
    ASSERT_EQ("1,1,1,0,0,0,0", FilesPerLevel());
    if (DBImplTestPeer::elastic(dbfull()) != nullptr) {
      MQScheduleTestPeer::WaitIdle(
          DBImplTestPeer::elastic(dbfull()));  // every unit loaded
    }
  }

  // A write now and then keeps the writers from looking quiet, so that the
  // level-0 cleanup (level0_cleanup_test) stays out of these tests.
  void KeepWriting(int n) {
    if (n % 64 == 0) {
      ASSERT_TRUE(db_->Put(WriteOptions(), "zz-writer", "w").ok());
    }
  }

  void AbsentGets() {
    std::string value;
    for (int n = 0; n < kAbsentGets; ++n) {
      KeepWriting(n);
      const int i = (n * 7) % (kKeys - 1);  // inside every table
      ASSERT_TRUE(db_->Get(ReadOptions(), Key(2 * i + 1), &value).IsNotFound());
    }
  }

  Env* const env_;
  std::string dbname_;
  std::unique_ptr<const FilterPolicy> policy_;
  DB* db_ = nullptr;
};

TEST_P(SeekCompactionTest, AbsentKeyLookups) {
  BuildOverlappingLevels();
  const std::map<uint64_t, int> seeks_before =
      DBImplTestPeer::AllowedSeeks(dbfull());
  ASSERT_EQ(3u, seeks_before.size());
  ResetIoStats(db_);

  AbsentGets();
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  const std::string stats = IoStats();
  SCOPED_TRACE(stats);
  EXPECT_EQ(static_cast<uint64_t>(kAbsentGets), Counter(stats, "gets"));

  if (GetParam() == FilterKind::kNone) {
    // Every probe reads a block in vain, and all but the last of each Get
    // are charged: the level-0 table soon runs out of seeks and is
    // compacted into level 1, and so on (later Gets probe fewer tables).
    const uint64_t probes = Counter(stats, "table_probes");
    EXPECT_GT(probes, static_cast<uint64_t>(kAbsentGets) + 100);
    EXPECT_EQ(probes, Counter(stats, "data_block_reads"));
    EXPECT_EQ(0u, Counter(stats, "filter_checks"));
    EXPECT_GT(Counter(stats, "compaction_bytes_written"), 0u);
    EXPECT_NE("1,1,1,0,0,0,0", FilesPerLevel());
    const uint64_t newest_table = seeks_before.rbegin()->first;
    EXPECT_EQ(0u, DBImplTestPeer::AllowedSeeks(dbfull()).count(newest_table))
        << "the level-0 table was not compacted away";
  } else {
    EXPECT_EQ(3u * kAbsentGets, Counter(stats, "table_probes"));
    EXPECT_EQ(3u * kAbsentGets, Counter(stats, "filter_checks"));
    // Filters answer (almost) every probe without I/O: nothing is charged
    // but the rare false positive, and nothing is compacted.
    const uint64_t false_positives = Counter(stats, "false_positives");
    EXPECT_EQ(Counter(stats, "data_block_reads"), false_positives);
    EXPECT_LT(false_positives, 20u);
    EXPECT_EQ(0u, Counter(stats, "compaction_bytes_written"));
    EXPECT_EQ(0u, Counter(stats, "compaction_bytes_read"));
    EXPECT_EQ("1,1,1,0,0,0,0", FilesPerLevel());
    const std::map<uint64_t, int> seeks_after =
        DBImplTestPeer::AllowedSeeks(dbfull());
    ASSERT_EQ(seeks_before.size(), seeks_after.size());
    uint64_t charged = 0;
    for (const auto& [number, allowed] : seeks_before) {
      ASSERT_EQ(1u, seeks_after.count(number));
      EXPECT_LE(seeks_after.at(number), allowed);
      charged += static_cast<uint64_t>(allowed - seeks_after.at(number));
    }
    // At most one charge per wasted read.
    EXPECT_LE(charged, false_positives);
  }

  // Every key is still readable.
  std::string value;
  for (int i = 0; i < kKeys; i += 13) {
    ASSERT_TRUE(db_->Get(ReadOptions(), Key(2 * i), &value).ok());
    EXPECT_EQ(0u, value.find("v2-"));
  }
}

// A lookup that finds its key in the first table probed charges nothing,
// with or without filters.
TEST_P(SeekCompactionTest, PresentKeyLookupsChargeNothing) {
  BuildOverlappingLevels();
  const std::map<uint64_t, int> seeks_before =
      DBImplTestPeer::AllowedSeeks(dbfull());
  std::string value;
  for (int n = 0; n < kAbsentGets; ++n) {
    KeepWriting(n);
    ASSERT_TRUE(
        db_->Get(ReadOptions(), Key(2 * ((n * 7) % kKeys)), &value).ok());
  }
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  EXPECT_EQ(seeks_before, DBImplTestPeer::AllowedSeeks(dbfull()));
  EXPECT_EQ("1,1,1,0,0,0,0", FilesPerLevel());
}

std::string KindName(const testing::TestParamInfo<FilterKind>& info) {
  switch (info.param) {
    case FilterKind::kNone:
      return "NoFilter";
    case FilterKind::kBloom:
      return "Bloom";
    case FilterKind::kElastic:
      return "ElasticBF";
  }
  return "Unknown";
}

INSTANTIATE_TEST_SUITE_P(Filters, SeekCompactionTest,
                         testing::Values(FilterKind::kNone, FilterKind::kBloom,
                                         FilterKind::kElastic),
                         KindName);

}  // namespace
}  // namespace leveldb
