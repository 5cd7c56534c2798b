// Tests of the YCSB-C binding (contrib/ycsb-c/leveldb_db.cc), compiled
// against the local stand-in of YCSB-C's interface
// (contrib/ycsb-c/testing/core/*.h): Read/Scan/Update/Insert/Delete
// semantics, return codes, settings, and the record encoding shared with the
// YCSB runner.
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "benchmarks/ycsb/engine.h"
#include "benchmarks/ycsb/record.h"
#include "benchmarks/ycsb/runner.h"
#include "benchmarks/ycsb/workload.h"
#include "core/db.h"
#include "core/properties.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb_db.h"
#include "tests/test_util.h"

namespace ycsbc {
namespace {

typedef DB::KVPair KVPair;

// YCSB-C declares its codes in the class without a definition; gtest binds
// references, so the tests compare against local copies.
const int kOK = DB::kOK;
const int kErrorNoData = DB::kErrorNoData;
const int kErrorConflict = DB::kErrorConflict;

std::vector<KVPair> Record(const std::string& tag) {
  return {
      {"field0", tag + "-0"}, {"field1", tag + "-1"}, {"field2", tag + "-2"}};
}

class YcsbBindingTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = leveldb::test::NewTempDir(leveldb::Env::Default(), "ycsbc");
    props_.SetProperty("dbname", "leveldb");
    props_.SetProperty("leveldb.dbpath", dir_ + "/db");
  }
  void TearDown() override {
    db_.reset();
    leveldb::test::RemoveDirRecursively(leveldb::Env::Default(), dir_);
  }

  void Open() {
    db_.reset();
    std::string error;
    db_.reset(LevelDB::Create(props_, &error));
    ASSERT_TRUE(db_ != nullptr) << error;
    db_->Init();
  }

  int Insert(const std::string& key, std::vector<KVPair> values) {
    return db_->Insert("usertable", key, values);
  }

  std::string dir_;
  utils::Properties props_;
  std::unique_ptr<LevelDB> db_;
};

TEST_F(YcsbBindingTest, ReadReturnsAllOrSelectedFields) {
  Open();
  ASSERT_EQ(kOK, Insert("user1", Record("a")));
  std::vector<KVPair> result;
  ASSERT_EQ(kOK, db_->Read("usertable", "user1", nullptr, result));
  EXPECT_EQ(Record("a"), result);

  // A subset, in the order asked; fields the record lacks are left out.
  const std::vector<std::string> wanted = {"field2", "nosuchfield", "field0"};
  ASSERT_EQ(kOK, db_->Read("usertable", "user1", &wanted, result));
  EXPECT_EQ((std::vector<KVPair>{{"field2", "a-2"}, {"field0", "a-0"}}),
            result);
}

TEST_F(YcsbBindingTest, AbsentKeysGiveNoData) {
  Open();
  ASSERT_EQ(kOK, Insert("user1", Record("a")));
  std::vector<KVPair> result = {{"stale", "entry"}};
  EXPECT_EQ(kErrorNoData, db_->Read("usertable", "user2", nullptr, result));
  EXPECT_TRUE(result.empty());
  EXPECT_EQ(kErrorNoData, db_->Read("usertable", "user1~", nullptr, result));
  std::vector<KVPair> update = {{"field0", "x"}};
  EXPECT_EQ(kErrorNoData, db_->Update("usertable", "user2", update));
  // The failed update created nothing.
  EXPECT_EQ(kErrorNoData, db_->Read("usertable", "user2", nullptr, result));
}

TEST_F(YcsbBindingTest, UpdateMergesFields) {
  Open();
  ASSERT_EQ(kOK, Insert("user1", Record("a")));
  std::vector<KVPair> update = {{"field1", "new-1"}, {"field9", "new-9"}};
  ASSERT_EQ(kOK, db_->Update("usertable", "user1", update));
  std::vector<KVPair> result;
  ASSERT_EQ(kOK, db_->Read("usertable", "user1", nullptr, result));
  EXPECT_EQ((std::vector<KVPair>{{"field0", "a-0"},
                                 {"field1", "new-1"},
                                 {"field2", "a-2"},
                                 {"field9", "new-9"}}),
            result);
}

TEST_F(YcsbBindingTest, InsertReplacesAndDeleteRemoves) {
  Open();
  ASSERT_EQ(kOK, Insert("user1", Record("a")));
  ASSERT_EQ(kOK, Insert("user1", {{"only", "field"}}));
  std::vector<KVPair> result;
  ASSERT_EQ(kOK, db_->Read("usertable", "user1", nullptr, result));
  EXPECT_EQ((std::vector<KVPair>{{"only", "field"}}), result);

  EXPECT_EQ(kOK, db_->Delete("usertable", "user1"));
  EXPECT_EQ(kErrorNoData, db_->Read("usertable", "user1", nullptr, result));
  EXPECT_EQ(kOK, db_->Delete("usertable", "user1"));  // blind delete
  // Empty records and binary values survive.
  ASSERT_EQ(kOK, Insert("user2", {}));
  ASSERT_EQ(kOK, db_->Read("usertable", "user2", nullptr, result));
  EXPECT_TRUE(result.empty());
  const std::string binary("\0\x01\xff", 3);
  ASSERT_EQ(kOK, Insert("user3", {{"bin", binary}}));
  ASSERT_EQ(kOK, db_->Read("usertable", "user3", nullptr, result));
  ASSERT_EQ(1u, result.size());
  EXPECT_EQ(binary, result[0].second);
}

TEST_F(YcsbBindingTest, ScanWalksKeysInOrder) {
  Open();
  for (int i = 1; i <= 9; ++i) {
    ASSERT_EQ(kOK,
              Insert("user" + std::to_string(i), Record(std::to_string(i))));
  }
  std::vector<std::vector<KVPair>> result;
  ASSERT_EQ(kOK, db_->Scan("usertable", "user3", 3, nullptr, result));
  ASSERT_EQ(3u, result.size());
  EXPECT_EQ(Record("3"), result[0]);
  EXPECT_EQ(Record("4"), result[1]);
  EXPECT_EQ(Record("5"), result[2]);

  // From a key between records, with a field subset.
  const std::vector<std::string> wanted = {"field1"};
  ASSERT_EQ(kOK, db_->Scan("usertable", "user5~", 2, &wanted, result));
  ASSERT_EQ(2u, result.size());
  EXPECT_EQ((std::vector<KVPair>{{"field1", "6-1"}}), result[0]);
  EXPECT_EQ((std::vector<KVPair>{{"field1", "7-1"}}), result[1]);

  // Past the end: fewer records, still kOK.
  ASSERT_EQ(kOK, db_->Scan("usertable", "user8", 10, nullptr, result));
  EXPECT_EQ(2u, result.size());
  ASSERT_EQ(kOK, db_->Scan("usertable", "zzz", 10, nullptr, result));
  EXPECT_TRUE(result.empty());
  ASSERT_EQ(kOK, db_->Scan("usertable", "user1", 0, nullptr, result));
  EXPECT_TRUE(result.empty());
}

TEST_F(YcsbBindingTest, MalformedValuesAreConflictsNotCrashes) {
  Open();
  // A value not written by the binding, put there directly.
  ASSERT_TRUE(
      db_->db()->Put(leveldb::WriteOptions(), "user1", "\x05junk").ok());
  std::vector<KVPair> result;
  EXPECT_EQ(kErrorConflict, db_->Read("usertable", "user1", nullptr, result));
  std::vector<KVPair> update = {{"field0", "x"}};
  EXPECT_EQ(kErrorConflict, db_->Update("usertable", "user1", update));
  std::vector<std::vector<KVPair>> rows;
  EXPECT_EQ(kErrorConflict, db_->Scan("usertable", "user0", 5, nullptr, rows));
}

TEST_F(YcsbBindingTest, DataSurvivesReopenAndDestroyWipesIt) {
  Open();
  ASSERT_EQ(kOK, Insert("user1", Record("a")));
  db_->Close();
  Open();  // closes and reopens the same path
  std::vector<KVPair> result;
  ASSERT_EQ(kOK, db_->Read("usertable", "user1", nullptr, result));
  EXPECT_EQ(Record("a"), result);
  props_.SetProperty("leveldb.destroy", "true");
  Open();
  EXPECT_EQ(kErrorNoData, db_->Read("usertable", "user1", nullptr, result));
}

TEST_F(YcsbBindingTest, BadSettingsAreReported) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"leveldb.elastic_bf", "maybe"}, {"leveldb.cache_size", "big"},
      {"leveldb.bloom_bits", "-7"},    {"leveldb.compression", "lz4"},
      {"leveldb.bf_units", "-1"},      {"leveldb.bf_memory_bits_per_key", "x"},
      {"leveldb.bf_unit_kind", "xor"},
  };
  for (const auto& entry : bad) {
    utils::Properties props = props_;
    props.SetProperty(entry.first, entry.second);
    if (entry.first.compare(0, 11, "leveldb.bf_") == 0) {
      props.SetProperty("leveldb.elastic_bf", "true");
    }
    std::string error;
    std::unique_ptr<LevelDB> db(LevelDB::Create(props, &error));
    EXPECT_TRUE(db == nullptr) << entry.first;
    EXPECT_FALSE(error.empty()) << entry.first;
    if (entry.first != "leveldb.bf_units") {
      EXPECT_NE(std::string::npos, error.find(entry.first)) << error;
    }
  }
  utils::Properties both = props_;
  both.SetProperty("leveldb.elastic_bf", "true");
  both.SetProperty("leveldb.bloom_bits", "10");
  std::string error;
  EXPECT_TRUE(LevelDB::Create(both, &error) == nullptr);
  EXPECT_NE(std::string::npos, error.find("mutually exclusive")) << error;
  // An unusable path is an open error, not a crash.
  utils::Properties unusable = props_;
  unusable.SetProperty("leveldb.dbpath", "/proc/ycsbc-cannot-create/db");
  EXPECT_TRUE(LevelDB::Create(unusable, &error) == nullptr);
  EXPECT_NE(std::string::npos, error.find("cannot open")) << error;
}

TEST_F(YcsbBindingTest, UnknownAndMistypedNamesAreRejected) {
  const char* const kWrong[] = {"leveldb.elasticbf", "leveldb.bf_unit",
                                "leveldb.Sync", "leveldb.cache",
                                "leveldb.bloom_bits_per_key"};
  for (const char* name : kWrong) {
    utils::Properties props = props_;
    props.SetProperty(name, "1");
    std::string summary;
    std::string error;
    EXPECT_FALSE(LevelDB::CheckSettings(props, &summary, &error)) << name;
    EXPECT_NE(std::string::npos, error.find(std::string("'") + name + "'"))
        << error;
    EXPECT_NE(std::string::npos, error.find("unknown setting")) << error;
    // The message lists the real names.
    EXPECT_NE(std::string::npos, error.find("leveldb.bf_units")) << error;
    std::unique_ptr<LevelDB> db(LevelDB::Create(props, &error));
    EXPECT_TRUE(db == nullptr) << name;
  }
  // Nothing was created for the rejected settings.
  EXPECT_FALSE(leveldb::Env::Default()->FileExists(dir_ + "/db"));
  // Names outside leveldb.* belong to YCSB-C and are left alone.
  utils::Properties props = props_;
  props.SetProperty("recordcount", "1000");
  props.SetProperty("leveldbx.whatever", "1");
  std::string summary;
  std::string error;
  EXPECT_TRUE(LevelDB::CheckSettings(props, &summary, &error)) << error;
}

TEST_F(YcsbBindingTest, BlanksAroundNamesAndValuesAreIgnored) {
  // YCSB-C's loader splits "name = value\r" at '=' and keeps the blanks.
  props_.SetProperty("leveldb.sync ", " true\r");
  props_.SetProperty(" leveldb.bloom_bits", "\t7 ");
  std::string summary;
  std::string error;
  ASSERT_TRUE(LevelDB::CheckSettings(props_, &summary, &error)) << error;
  EXPECT_NE(std::string::npos, summary.find("sync=on")) << summary;
  EXPECT_NE(std::string::npos, summary.find("Bloom (7 bits/key)")) << summary;
  // The same name twice (once with blanks) is ambiguous.
  props_.SetProperty("leveldb.sync", "false");
  EXPECT_FALSE(LevelDB::CheckSettings(props_, &summary, &error));
  EXPECT_NE(std::string::npos, error.find("leveldb.sync")) << error;
}

TEST_F(YcsbBindingTest, SummaryShowsTheEffectiveSettings) {
  std::string summary;
  std::string error;
  ASSERT_TRUE(LevelDB::CheckSettings(props_, &summary, &error)) << error;
  EXPECT_NE(std::string::npos, summary.find("path=" + dir_ + "/db "))
      << summary;
  EXPECT_NE(std::string::npos, summary.find("filter=none")) << summary;
  EXPECT_NE(std::string::npos, summary.find("direct_io=off")) << summary;
  EXPECT_NE(std::string::npos, summary.find("cache=default")) << summary;

  props_.SetProperty("leveldb.elastic_bf", "true");
  props_.SetProperty("leveldb.bf_memory_bits_per_key", "3.5");
  props_.SetProperty("leveldb.bf_inherit_hotness", "false");
  props_.SetProperty("leveldb.direct_io", "true");
  props_.SetProperty("leveldb.cache_size", "0");
  ASSERT_TRUE(LevelDB::CheckSettings(props_, &summary, &error)) << error;
  EXPECT_NE(std::string::npos,
            summary.find("filter=ElasticBF (auto ribbon units x auto"))
      << summary;
  EXPECT_NE(std::string::npos, summary.find("memory 3.5 bits/key")) << summary;
  EXPECT_NE(std::string::npos, summary.find("inherit_hotness off")) << summary;
  EXPECT_NE(std::string::npos, summary.find("direct_io=on")) << summary;
  EXPECT_NE(std::string::npos, summary.find("cache=0 bytes")) << summary;

  props_.SetProperty("leveldb.bf_memory_budget_bytes", "65536");
  props_.SetProperty("leveldb.bf_unit_kind", "bloom");
  ASSERT_TRUE(LevelDB::CheckSettings(props_, &summary, &error)) << error;
  EXPECT_NE(std::string::npos, summary.find("memory 65536 bytes")) << summary;
  EXPECT_NE(std::string::npos, summary.find("auto bloom units x auto"))
      << summary;
}

// The factory's Create(props) ends the program on a bad setting or a failed
// open, with a message and a non-zero status, instead of returning NULL.
class YcsbBindingDeathTest : public YcsbBindingTest {};

TEST_F(YcsbBindingDeathTest, FactoryExitsOnABadSetting) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  utils::Properties unknown = props_;
  unknown.SetProperty("leveldb.bf_unit", "3");
  EXPECT_EXIT(LevelDB::Create(unknown),
              testing::ExitedWithCode(LevelDB::kExitBadSetting),
              "leveldb: unknown setting 'leveldb.bf_unit'");
  utils::Properties bad_value = props_;
  bad_value.SetProperty("leveldb.cache_size", "big");
  EXPECT_EXIT(LevelDB::Create(bad_value),
              testing::ExitedWithCode(LevelDB::kExitBadSetting),
              "leveldb: setting leveldb.cache_size: expected an integer");
  utils::Properties unusable = props_;
  unusable.SetProperty("leveldb.dbpath", "/proc/ycsbc-cannot-create/db");
  EXPECT_EXIT(LevelDB::Create(unusable),
              testing::ExitedWithCode(LevelDB::kExitOpenFailed),
              "leveldb: cannot open /proc/ycsbc-cannot-create/db");
}

TEST_F(YcsbBindingDeathTest, FactoryPrintsTheSettingsItOpensWith) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  props_.SetProperty("leveldb.elastic_bf", "true");
  EXPECT_EXIT(
      {
        LevelDB* db = LevelDB::Create(props_);
        const int status = db != nullptr ? 0 : 3;
        delete db;
        std::exit(status);
      },
      testing::ExitedWithCode(0),
      "leveldb: settings: path=.* filter=ElasticBF .* direct_io=off");
}

TEST_F(YcsbBindingTest, ElasticFiltersWithConcurrentClients) {
  props_.SetProperty("leveldb.elastic_bf", "true");
  props_.SetProperty("leveldb.bf_memory_bits_per_key", "6");
  props_.SetProperty("leveldb.write_buffer_size", "65536");
  props_.SetProperty("leveldb.fill_cache", "false");
  Open();
  constexpr int kThreads = 4;
  constexpr int kPerThread = 1500;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t, &failures] {
      db_->Init();
      for (int i = 0; i < kPerThread; ++i) {
        const std::string key = "user" + std::to_string(t * 100000 + i);
        std::vector<KVPair> values = Record(key);
        if (db_->Insert("usertable", key, values) != kOK) ++failures[t];
      }
      std::vector<KVPair> result;
      for (int i = 0; i < kPerThread; ++i) {
        const std::string key = "user" + std::to_string(t * 100000 + i);
        if (db_->Read("usertable", key, nullptr, result) != kOK ||
            result != Record(key)) {
          ++failures[t];
        }
        if (db_->Read("usertable", key + "~", nullptr, result) !=
            kErrorNoData) {
          ++failures[t];
        }
      }
      db_->Close();
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(0, failures[t]) << t;
  std::string elastic;
  EXPECT_TRUE(db_->db()->GetProperty("leveldb.elasticbf", &elastic));
  EXPECT_FALSE(elastic.empty());
}

TEST(YcsbBindingEncoding, SameBytesAsTheRunner) {
  const std::vector<KVPair> fields = {
      {"field0", "value"}, {"field1", std::string(200, 'z')}, {"", ""}};
  std::string from_binding;
  LevelDB::EncodeFields(fields, &from_binding);
  std::string from_runner;
  ycsb::EncodeRecord(fields, &from_runner);
  EXPECT_EQ(from_runner, from_binding);
  std::vector<KVPair> decoded;
  ASSERT_TRUE(LevelDB::DecodeFields(from_runner, &decoded));
  EXPECT_EQ(fields, decoded);
  for (size_t length = 0; length < from_runner.size(); ++length) {
    EXPECT_FALSE(LevelDB::DecodeFields(from_runner.substr(0, length), &decoded))
        << length;
  }
  EXPECT_FALSE(LevelDB::DecodeFields(from_runner + "x", &decoded));
  EXPECT_FALSE(
      LevelDB::DecodeFields(std::string("\xff\xff\xff\xff\x7f", 5), &decoded));
}

TEST_F(YcsbBindingTest, ReadsADatabaseLoadedByTheRunner) {
  ycsb::Properties runner_props;
  runner_props.Set("recordcount", "500");
  runner_props.Set("fieldcount", "4");
  runner_props.Set("fieldlength", "8");
  runner_props.Set("leveldb.dbpath", dir_ + "/db");
  ycsb::WorkloadSpec spec;
  ycsb::EngineSpec engine;
  ASSERT_TRUE(ycsb::ParseWorkloadSpec(runner_props, &spec).ok());
  ASSERT_TRUE(ycsb::ParseEngineSpec(runner_props, &engine).ok());
  ycsb::Workload workload(spec);
  {
    std::unique_ptr<ycsb::Database> database;
    ASSERT_TRUE(ycsb::Database::Open(engine, true, &database).ok());
    ycsb::PhaseOptions options;
    options.progress = nullptr;
    ycsb::PhaseResult load;
    ycsb::RunLoadPhase(&workload, database.get(), options, &load);
    ASSERT_EQ(0u, load.stats.TotalErrors());
  }
  Open();
  std::vector<KVPair> result;
  for (uint64_t n = 0; n < 500; ++n) {
    ASSERT_EQ(kOK, db_->Read("usertable", workload.Key(n), nullptr, result));
    ASSERT_EQ(4u, result.size());
    EXPECT_EQ("field3", result[3].first);
    EXPECT_EQ(8u, result[3].second.size());
  }
}

}  // namespace
}  // namespace ycsbc
