// Level-0 leftovers are compacted once writes go quiet (db/level0_cleanup.h).
//
// A database holds two narrow level-0 tables above wide tables at levels 1
// and 2. Gets for keys only level 2 holds read a level-1 block in vain
// (no filter), so the level-1 table runs out of seeks and is compacted into
// level 2: an automatic compaction that leaves level 0 alone. If no write
// arrives while it runs, the two level-0 tables are compacted next; if a
// write arrives meanwhile, they stay where they are, as in LevelDB. Gets
// alone, with no write between them, also trigger the cleanup. Once level 0
// is empty, a quiet compaction takes level 1 into level 2, as far as the
// bytes flushed since the last such step pay for it, unless ElasticBF
// screens the tables.
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/write_batch.h"
#include "tests/db_impl_test_peer.h"
#include "tests/test_util.h"

namespace leveldb {
namespace {

constexpr int kKeys = 2000;
constexpr int kSeeksAllowed = 100;  // a small table's, before compaction
constexpr int kQuietGets = 3000;    // far above the quiet-reads threshold

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}

// Runs a hook whenever a table file is created: in a compaction, that is
// while the compaction runs with the database mutex released.
class TableHookEnv : public EnvWrapper {
 public:
  TableHookEnv() : EnvWrapper(Env::Default()) {}

  Status NewWritableFile(const std::string& fname,
                         WritableFile** result) override {
    if (hook_ && fname.size() > 4 &&
        fname.compare(fname.size() - 4, 4, ".ldb") == 0) {
      hook_();
    }
    return target()->NewWritableFile(fname, result);
  }

  std::function<void()> hook_;  // set while no background work runs
};

class Level0CleanupTest : public testing::Test {
 protected:
  Level0CleanupTest() : env_(&hook_env_) {
    dbname_ = test::NewTempDir(env_, "level0_cleanup_test");
    Open();
  }

  // Opens the (empty) database again with ElasticBF's tables.
  void UseElasticBF() {
    delete db_;
    db_ = nullptr;
    ElasticFilterOptions eo;
    policy_.reset(NewElasticFilterPolicy(eo));
    Open();
  }

  void Open() {
    Options o;
    o.env = env_;
    o.create_if_missing = true;
    o.filter_policy = policy_.get();
    ASSERT_TRUE(DB::Open(o, dbname_, &db_).ok());
  }

  ~Level0CleanupTest() override {
    delete db_;
    test::DestroyTempDB(env_, dbname_);
  }

  DBImpl* dbfull() { return static_cast<DBImpl*>(db_); }

  // Keys first, first + step, ... below kKeys, flushed as one table.
  void WriteTable(int first, int step, int count, const std::string& tag) {
    WriteBatch batch;
    for (int n = 0, i = first; n < count && i < kKeys; ++n, i += step) {
      batch.Put(Key(i), tag + std::string(100, 'x'));
    }
    ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());
    ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  }

  std::string FilesPerLevel() { return test::FilesPerLevel(db_); }

  // Even keys at level 2, odd keys at level 1, two narrow tables at level 0.
  void BuildTree() {
    WriteTable(0, 2, kKeys, "even");  // nothing below: pushed to level 2
    WriteTable(1, 2, kKeys, "odd");   // overlaps level 2: stops at level 1
    WriteTable(1001, 2, 20, "new1");  // overlaps level 1: level 0
    WriteTable(1003, 2, 20, "new2");  // overlaps level 0
    DBImplTestPeer::WaitForBackgroundWork(dbfull());
    ASSERT_EQ("2,1,1,0,0,0,0", FilesPerLevel());
  }

  // Keys below level 0's range that only level 2 holds: each Get reads a
  // level-1 block for nothing and charges that table one seek, so the
  // kSeeksAllowed-th Get sets off its seek compaction. A write precedes
  // every eighth Get but in the last ten, which are too few for the quiet
  // reads rule: only the end of the compaction can find the writers quiet.
  void SeekCompactionGets() {
    std::string value;
    for (int n = 0; n < kSeeksAllowed; ++n) {
      if (n < kSeeksAllowed - 10 && n % 8 == 0) {
        ASSERT_TRUE(db_->Put(WriteOptions(), "zz", "w").ok());
      }
      const int i = 2 + 2 * ((n * 7) % 450);  // inside level 1's range
      ASSERT_TRUE(db_->Get(ReadOptions(), Key(i), &value).ok());
      ASSERT_EQ(0u, value.find("even"));
    }
  }

  // kQuietGets Gets of a level-0 key with no write between them, then
  // whatever background work they set off.
  void QuietGets() {
    std::string value;
    for (int n = 0; n < kQuietGets; ++n) {
      ASSERT_TRUE(db_->Get(ReadOptions(), Key(1001), &value).ok());
    }
    DBImplTestPeer::WaitForBackgroundWork(dbfull());
  }

  void CheckValues() {
    std::string value;
    for (int i = 0; i < kKeys; ++i) {
      ASSERT_TRUE(db_->Get(ReadOptions(), Key(i), &value).ok()) << i;
      std::string tag = i % 2 == 0 ? "even" : "odd";
      if (i % 2 == 1 && i >= 1003 && i <= 1041) tag = "new2";
      if (i == 1001) tag = "new1";
      EXPECT_EQ(0u, value.find(tag)) << Key(i) << " " << value.substr(0, 8);
    }
  }

  TableHookEnv hook_env_;
  Env* const env_;
  std::string dbname_;
  std::unique_ptr<const FilterPolicy> policy_;
  DB* db_ = nullptr;
};

TEST_F(Level0CleanupTest, QuietCompactionTakesLevel0Along) {
  BuildTree();
  SeekCompactionGets();
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  const std::string files = FilesPerLevel();
  // The level-1 table went down by seeks, then level 0 into level 1 and
  // on into level 2.
  EXPECT_EQ("0,0,", files.substr(0, 4)) << files;
  CheckValues();
}

TEST_F(Level0CleanupTest, WritesDuringTheCompactionKeepLevel0) {
  BuildTree();
  int writes = 0;
  hook_env_.hook_ = [&] {
    // A small write of a new key: it stays in the memtable.
    ASSERT_TRUE(
        db_->Put(WriteOptions(), "zz" + std::to_string(writes++), "w").ok());
  };
  SeekCompactionGets();
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  hook_env_.hook_ = nullptr;
  EXPECT_GT(writes, 0);
  const std::string files = FilesPerLevel();
  // The level-1 table was compacted by seeks; level 0 was left alone.
  EXPECT_EQ("2,0,", files.substr(0, 4)) << files;
  CheckValues();
}

// Gets that keep probing tables with level-0 files present and no write in
// between: after max(100, bytes of levels 0 and 1 / 16 KiB) of them the
// leftovers are compacted, with no wasted read needed (the Gets find their
// keys in level 0).
TEST_F(Level0CleanupTest, QuietReadsCompactLevel0) {
  BuildTree();
  QuietGets();
  const std::string files = FilesPerLevel();
  EXPECT_EQ("0,0,", files.substr(0, 4)) << files;
  CheckValues();
}

// ElasticBF's units screen a level-1 leftover: level 0 goes into level 1
// and stays there.
TEST_F(Level0CleanupTest, QuietReadsLeaveLevel1ToElasticBF) {
  UseElasticBF();
  BuildTree();
  QuietGets();
  const std::string files = FilesPerLevel();
  EXPECT_EQ("0,1,", files.substr(0, 4)) << files;
  CheckValues();
}

// The same Gets with a write now and then: the writers are not quiet, and
// level 0 stays as LevelDB leaves it.
TEST_F(Level0CleanupTest, ReadsBetweenWritesKeepLevel0) {
  BuildTree();
  std::string value;
  for (int n = 0; n < kQuietGets; ++n) {
    if (n % 64 == 0) {
      ASSERT_TRUE(db_->Put(WriteOptions(), "zz", "w").ok());
    }
    ASSERT_TRUE(db_->Get(ReadOptions(), Key(1001), &value).ok());
  }
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  EXPECT_EQ("2,1,1,0,0,0,0", FilesPerLevel());
}

// Fewer quiet Gets than the threshold leave level 0 alone.
TEST_F(Level0CleanupTest, FewQuietReadsKeepLevel0) {
  BuildTree();
  std::string value;
  for (int n = 0; n < 90; ++n) {
    ASSERT_TRUE(db_->Get(ReadOptions(), Key(1001), &value).ok());
  }
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  EXPECT_EQ("2,1,1,0,0,0,0", FilesPerLevel());
}

// The rules themselves, without a database.
TEST(Level0CleanupRules, WritesDuringTheCompactionMeanNoCleanup) {
  Level0Cleanup cleanup;
  cleanup.OnFlush(1000);
  cleanup.OnCompactionEnd(/*writes_arrived=*/true, 2, true);
  EXPECT_FALSE(cleanup.due());
  cleanup.OnCompactionEnd(false, 2, true);
  EXPECT_EQ(Level0Cleanup::Step::kLevel0, cleanup.due_step());
  cleanup.OnCompactionEnd(false, 0, true);
  EXPECT_EQ(Level0Cleanup::Step::kLevel1, cleanup.due_step());
  cleanup.OnCompactionEnd(false, 0, /*level1_leftover=*/false);
  EXPECT_FALSE(cleanup.due());
}

// A level-1 step rewrites no more than was flushed since the last one, so
// a writer that pauses often cannot make it rewrite level 2 each time.
TEST(Level0CleanupRules, Level1StepsSpendTheFlushedBytes) {
  Level0Cleanup cleanup;
  cleanup.OnCompactionEnd(false, 0, true);
  EXPECT_FALSE(cleanup.due()) << "nothing flushed yet";
  cleanup.OnFlush(100);
  cleanup.OnCompactionEnd(false, 0, true);
  ASSERT_EQ(Level0Cleanup::Step::kLevel1, cleanup.due_step());
  cleanup.Started();
  EXPECT_FALSE(cleanup.due());
  EXPECT_FALSE(cleanup.AffordsLevel1(150));
  EXPECT_TRUE(cleanup.AffordsLevel1(80));
  EXPECT_FALSE(cleanup.AffordsLevel1(30));
  EXPECT_TRUE(cleanup.AffordsLevel1(20));
  cleanup.OnCompactionEnd(false, 0, true);
  EXPECT_FALSE(cleanup.due()) << "credit spent";
}

}  // namespace
}  // namespace leveldb
