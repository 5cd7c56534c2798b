// Databases sharing one ElasticFilterBudget: they join one unit manager
// (one MultiQueue, one background thread, one clock); units move to the
// database whose segments are hot; the budget holds over all of them; a
// closed database's memory is the others' at once; databases open and
// close from several threads while Gets run. Also the validation of the
// option.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>  // NOLINT
#include <vector>

#include "db/db_impl.h"
#include "elastic/mq_schedule.h"
#include "elastic/shared_budget.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/write_batch.h"
#include "tests/db_impl_test_peer.h"
#include "tests/elastic_test_peer.h"
#include "tests/test_util.h"

namespace leveldb {
namespace {

constexpr int kKeys = 12000;

// Present keys even, absent keys odd: every segment gets absent probes.
std::string Key(int i, bool present = true) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "k%08d", 2 * i + (present ? 0 : 1));
  return buf;
}

std::string Value(int i) { return "v" + std::to_string(i); }

class SharedBudgetTest : public testing::Test {
 protected:
  SharedBudgetTest() : env_(Env::Default()) {
    root_ = test::NewTempDir(env_, "elastic_shared_budget_test");
  }

  ~SharedBudgetTest() override {
    for (DB*& db : dbs_) {
      delete db;
      db = nullptr;
    }
    for (size_t i = 0; i < names_.size(); ++i) {
      DestroyDB(names_[i], Options());
    }
    test::RemoveDirRecursively(env_, root_);
  }

  // Small segments and units, a short lifetime: units move within a test.
  ElasticFilterOptions ElasticOptions(ElasticFilterBudget* budget,
                                      int initial_units) const {
    ElasticFilterOptions eo;
    eo.shared_budget = budget;
    eo.bits_per_unit = 2;
    eo.units_per_segment = 4;
    eo.segment_bytes = 4096;
    eo.lifetime = 2000;
    eo.initial_units = initial_units;
    return eo;
  }

  Options DbOptions(const ElasticFilterOptions& eo) {
    policies_.emplace_back(NewElasticFilterPolicy(eo));
    Options o;
    o.env = env_;
    o.create_if_missing = true;
    o.filter_policy = policies_.back().get();
    return o;
  }

  std::string Name(int i) const { return root_ + "/db" + std::to_string(i); }

  Status OpenDb(int i, const ElasticFilterOptions& eo, DB** db) {
    while (names_.size() <= static_cast<size_t>(i)) {
      names_.push_back(Name(static_cast<int>(names_.size())));
    }
    return DB::Open(DbOptions(eo), Name(i), db);
  }

  // Opens database i into dbs_[i].
  void Open(int i, const ElasticFilterOptions& eo) {
    if (dbs_.size() <= static_cast<size_t>(i)) dbs_.resize(i + 1, nullptr);
    ASSERT_EQ(nullptr, dbs_[i]);
    const Status s = OpenDb(i, eo, &dbs_[i]);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  void Close(int i) {
    delete dbs_[i];
    dbs_[i] = nullptr;
  }

  static void Fill(DB* db) {
    WriteBatch batch;
    for (int i = 0; i < kKeys; ++i) batch.Put(Key(i), Value(i));
    ASSERT_TRUE(db->Write(WriteOptions(), &batch).ok());
    db->CompactRange(nullptr, nullptr);
  }

  static MQSchedule* Schedule(DB* db) {
    return DBImplTestPeer::elastic(static_cast<DBImpl*>(db));
  }

  // Absent keys spread over the whole key range: every segment is probed.
  static void ProbeAbsent(DB* db, int gets) {
    std::string value;
    for (int g = 0; g < gets; ++g) {
      const int i = static_cast<int>((static_cast<uint64_t>(g) * 7919) % kKeys);
      ASSERT_TRUE(db->Get(ReadOptions(), Key(i, false), &value).IsNotFound());
    }
  }

  static void CheckData(DB* db) {
    std::string value;
    for (int i = 0; i < kKeys; i += 13) {
      ASSERT_TRUE(db->Get(ReadOptions(), Key(i), &value).ok()) << i;
      ASSERT_EQ(Value(i), value);
    }
  }

  // Processes every member's records and waits for the loads.
  static void Settle(DB* any) {
    MQSchedule* mqs = Schedule(any);
    MQScheduleTestPeer::Pause(mqs, true);
    MQScheduleTestPeer::WaitIdle(mqs);
    MQScheduleTestPeer::Pause(mqs, false);
  }

  static void ExpectInvariants(DB* any) {
    std::string error;
    EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(Schedule(any), &error))
        << error;
    const UnitManager::Stats st = MQScheduleTestPeer::GetStats(Schedule(any));
    EXPECT_LE(st.installed_bytes + st.locator_bytes, st.budget_bytes);
  }

  static uint64_t UnitBytes(DB* db) {
    return MQScheduleTestPeer::GetStats(Schedule(db)).db_unit_bytes;
  }

  Env* const env_;
  std::string root_;
  std::vector<std::string> names_;
  std::vector<DB*> dbs_;
  std::vector<std::unique_ptr<const FilterPolicy>> policies_;
};

TEST_F(SharedBudgetTest, DatabasesJoinOneManagerAndOneClock) {
  std::unique_ptr<ElasticFilterBudget> budget(NewElasticFilterBudget(1 << 20));
  for (int i = 0; i < 3; ++i) Open(i, ElasticOptions(budget.get(), 1));
  const UnitManager* manager = MQScheduleTestPeer::Manager(Schedule(dbs_[0]));
  for (int i = 1; i < 3; ++i) {
    EXPECT_EQ(manager, MQScheduleTestPeer::Manager(Schedule(dbs_[i])));
  }
  EXPECT_EQ(manager, AsSharedBudget(budget.get())->CurrentManager().get());
  // One clock: Gets on one database advance every member's.
  const uint64_t before = Schedule(dbs_[2])->layer()->Now();
  ProbeAbsent(dbs_[0], 50);
  EXPECT_EQ(before + 50, Schedule(dbs_[2])->layer()->Now());
  EXPECT_EQ(Schedule(dbs_[0])->layer()->Now(),
            Schedule(dbs_[1])->layer()->Now());
  std::string text;
  ASSERT_TRUE(dbs_[1]->GetProperty("leveldb.elasticbf", &text));
  EXPECT_NE(std::string::npos, text.find("shared_budget_databases: 3")) << text;
  EXPECT_NE(std::string::npos, text.find("memory_budget_bytes: 1048576"))
      << text;
  // A database with a budget of its own does not join.
  ElasticFilterOptions own = ElasticOptions(nullptr, 1);
  Open(3, own);
  EXPECT_NE(manager, MQScheduleTestPeer::Manager(Schedule(dbs_[3])));
  ASSERT_TRUE(dbs_[3]->GetProperty("leveldb.elasticbf", &text));
  EXPECT_EQ(std::string::npos, text.find("shared_budget_databases")) << text;
  // The manager goes with the last member.
  for (int i = 0; i < 3; ++i) Close(i);
  EXPECT_EQ(nullptr, AsSharedBudget(budget.get())->CurrentManager());
}

TEST_F(SharedBudgetTest, UnitsMoveToTheHotDatabase) {
  // Measure: with room for everything, every unit of a database.
  uint64_t all_units = 0;
  uint64_t locators = 0;
  {
    std::unique_ptr<ElasticFilterBudget> big(NewElasticFilterBudget(64 << 20));
    Open(0, ElasticOptions(big.get(), 4));
    Fill(dbs_[0]);
    Open(1, ElasticOptions(big.get(), 4));
    Fill(dbs_[1]);
    Settle(dbs_[0]);
    all_units = UnitBytes(dbs_[0]);
    const UnitManager::Stats st =
        MQScheduleTestPeer::GetStats(Schedule(dbs_[0]));
    locators = st.locator_bytes;
    ASSERT_GT(all_units, 0u);
    Close(0);
    Close(1);
  }
  // Room for the locators and half the units of one database.
  std::unique_ptr<ElasticFilterBudget> budget(
      NewElasticFilterBudget(locators + all_units / 2));
  Open(0, ElasticOptions(budget.get(), 0));
  Open(1, ElasticOptions(budget.get(), 0));
  Settle(dbs_[0]);
  EXPECT_EQ(0u, UnitBytes(dbs_[0]));
  EXPECT_EQ(0u, UnitBytes(dbs_[1]));

  // Database 0 is hot: it takes the memory.
  for (int round = 0; round < 10; ++round) {
    ProbeAbsent(dbs_[0], 2000);
    Settle(dbs_[0]);
  }
  const uint64_t hot0 = UnitBytes(dbs_[0]);
  EXPECT_GT(hot0, all_units / 4);
  EXPECT_EQ(0u, UnitBytes(dbs_[1]));
  ExpectInvariants(dbs_[0]);

  // Database 1 turns hot and database 0 cold: 1's units replace 0's. While
  // 0's aged counts f0 exceed p * f1, a segment of 0 losing its last unit
  // costs more than one of 1 gains from a second, so the rule stops at one
  // unit each for a while: run long enough for several aging periods.
  for (int round = 0; round < 40; ++round) {
    ProbeAbsent(dbs_[1], 2000);
    Settle(dbs_[1]);
    ExpectInvariants(dbs_[1]);
  }
  EXPECT_GT(UnitBytes(dbs_[1]), all_units / 4);
  EXPECT_LT(UnitBytes(dbs_[0]), hot0);
  EXPECT_GT(UnitBytes(dbs_[1]), UnitBytes(dbs_[0]));
  CheckData(dbs_[0]);
  CheckData(dbs_[1]);
}

TEST_F(SharedBudgetTest, ClosingADatabaseFreesItsMemoryAtOnce) {
  std::unique_ptr<ElasticFilterBudget> budget(NewElasticFilterBudget(8 << 20));
  for (int i = 0; i < 3; ++i) {
    Open(i, ElasticOptions(budget.get(), 2));
    Fill(dbs_[i]);
  }
  Settle(dbs_[0]);
  ExpectInvariants(dbs_[0]);
  const UnitManager::Stats before =
      MQScheduleTestPeer::GetStats(Schedule(dbs_[1]));
  ASSERT_GT(before.db_unit_bytes, 0u);
  ASSERT_GT(before.db_locator_bytes, 0u);
  uint64_t others = 0;
  for (int i : {0, 2}) {
    const UnitManager::Stats st =
        MQScheduleTestPeer::GetStats(Schedule(dbs_[i]));
    others += st.db_unit_bytes + st.db_locator_bytes;
  }

  Close(1);  // no settling: the memory is free on return
  const UnitManager::Stats after =
      MQScheduleTestPeer::GetStats(Schedule(dbs_[0]));
  EXPECT_EQ(2u, after.members);
  EXPECT_EQ(others, after.installed_bytes + after.locator_bytes);
  EXPECT_EQ(before.attached_tables - before.db_tables_attached,
            after.attached_tables);
  ExpectInvariants(dbs_[0]);

  // The others go on, and may use the memory freed.
  CheckData(dbs_[0]);
  CheckData(dbs_[2]);
  ProbeAbsent(dbs_[2], 5000);
  Settle(dbs_[2]);
  ExpectInvariants(dbs_[2]);
  // Reopened, it joins again.
  Open(1, ElasticOptions(budget.get(), 2));
  CheckData(dbs_[1]);
  EXPECT_EQ(3u, MQScheduleTestPeer::GetStats(Schedule(dbs_[1])).members);
}

TEST_F(SharedBudgetTest, ATableRefusedForRoomGetsItWhenAnotherCloses) {
  // Measure one database's locators.
  uint64_t locators = 0;
  {
    std::unique_ptr<ElasticFilterBudget> big(NewElasticFilterBudget(64 << 20));
    Open(0, ElasticOptions(big.get(), 1));
    Fill(dbs_[0]);
    locators = MQScheduleTestPeer::GetStats(Schedule(dbs_[0])).locator_bytes;
    ASSERT_GT(locators, 0u);
    Close(0);
    ASSERT_TRUE(DestroyDB(Name(0), Options()).ok());
  }
  // Room for one database's locators, not two.
  std::unique_ptr<ElasticFilterBudget> budget(
      NewElasticFilterBudget(locators + locators / 2));
  Open(0, ElasticOptions(budget.get(), 1));
  Fill(dbs_[0]);
  Open(1, ElasticOptions(budget.get(), 1));
  Fill(dbs_[1]);
  Settle(dbs_[1]);
  ASSERT_GT(MQScheduleTestPeer::GetStats(Schedule(dbs_[0])).db_tables_attached,
            0u);
  EXPECT_EQ(0u,
            MQScheduleTestPeer::GetStats(Schedule(dbs_[1])).db_tables_attached);
  CheckData(dbs_[1]);  // read without filters meanwhile
  Close(0);
  Settle(dbs_[1]);
  EXPECT_GT(MQScheduleTestPeer::GetStats(Schedule(dbs_[1])).db_tables_attached,
            0u);
  ExpectInvariants(dbs_[1]);
  CheckData(dbs_[1]);
}

TEST_F(SharedBudgetTest, OpenAndCloseFromSeveralThreadsWhileGetsRun) {
  // Tight: units come and go across the databases all along.
  std::unique_ptr<ElasticFilterBudget> budget(NewElasticFilterBudget(24 << 10));
  constexpr int kOpeners = 3;
  for (int i = 0; i <= kOpeners; ++i) {
    Open(i, ElasticOptions(budget.get(), 1));
    Fill(dbs_[i]);
  }
  for (int i = 1; i <= kOpeners; ++i) Close(i);
  // Made here: the fixture's vectors are not for several threads.
  std::vector<Options> options;
  for (int t = 0; t <= kOpeners; ++t) {
    options.push_back(DbOptions(ElasticOptions(budget.get(), 1)));
  }

  std::atomic<bool> stop{false};
  std::atomic<int> errors{0};
  std::thread reader([&] {
    std::string value;
    for (int g = 0; !stop.load(); ++g) {
      const int i = (g * 31) % kKeys;
      if (!dbs_[0]->Get(ReadOptions(), Key(i), &value).ok() ||
          value != Value(i) ||
          !dbs_[0]->Get(ReadOptions(), Key(i, false), &value).IsNotFound()) {
        errors.fetch_add(1);
      }
    }
  });
  std::vector<std::thread> openers;
  for (int t = 1; t <= kOpeners; ++t) {
    openers.emplace_back([&, t] {
      for (int round = 0; round < 4; ++round) {
        DB* db = nullptr;
        if (!DB::Open(options[t], Name(t), &db).ok()) {
          errors.fetch_add(1);
          continue;
        }
        std::string value;
        for (int g = 0; g < 3000; ++g) {
          const int i = (g * 17 + t) % kKeys;
          if (!db->Get(ReadOptions(), Key(i), &value).ok() ||
              value != Value(i) ||
              !db->Get(ReadOptions(), Key(i, false), &value).IsNotFound()) {
            errors.fetch_add(1);
          }
        }
        delete db;
      }
    });
  }
  for (std::thread& t : openers) t.join();
  stop.store(true);
  reader.join();
  EXPECT_EQ(0, errors.load());
  Settle(dbs_[0]);
  ExpectInvariants(dbs_[0]);
  const UnitManager::Stats st = MQScheduleTestPeer::GetStats(Schedule(dbs_[0]));
  EXPECT_EQ(1u, st.members);
  EXPECT_EQ(st.db_tables_attached, st.attached_tables);
  EXPECT_EQ(st.db_unit_bytes, st.installed_bytes);
}

TEST_F(SharedBudgetTest, InvalidSharedBudgetsAreRefused) {
  std::unique_ptr<ElasticFilterBudget> empty(NewElasticFilterBudget(0));
  DB* db = nullptr;
  Status s = OpenDb(0, ElasticOptions(empty.get(), 1), &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("shared_budget"))
      << s.ToString();
  EXPECT_EQ(nullptr, db);

  std::unique_ptr<ElasticFilterBudget> budget(NewElasticFilterBudget(1 << 20));
  ElasticFilterOptions both = ElasticOptions(budget.get(), 1);
  both.memory_budget_bytes = 4096;
  s = OpenDb(0, both, &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("memory_budget_bytes"))
      << s.ToString();
  EXPECT_EQ(nullptr, db);
  EXPECT_TRUE(
      ValidateElasticFilterOptions(ElasticOptions(budget.get(), 1)).ok());
}

}  // namespace
}  // namespace leveldb
