// A fixture for tests that open a whole database, run once on the default
// (POSIX) Env and once on an in-memory Env, with the small accessors such
// tests keep needing.
#ifndef STORAGE_LEVELDB_TESTS_DB_TEST_HELPERS_H_
#define STORAGE_LEVELDB_TESTS_DB_TEST_HELPERS_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/helpers/memenv.h"
#include "leveldb/options.h"
#include "tests/test_util.h"

namespace leveldb {
namespace test {

enum class EnvKind { kDefault, kMemory };

// Suffix of each instantiation's test names.
inline std::string EnvKindName(const testing::TestParamInfo<EnvKind>& info) {
  return info.param == EnvKind::kDefault ? "PosixEnv" : "MemEnv";
}

// "key000042": fixed width, so byte order is numeric order.
inline std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// Owns the Env picked by the test parameter, a fresh database directory
// (removed at the end) and the open DB, if any.
class DBFixture : public testing::TestWithParam<EnvKind> {
 protected:
  explicit DBFixture(const std::string& tag) {
    if (GetParam() == EnvKind::kMemory) {
      mem_env_.reset(NewMemEnv(Env::Default()));
      env_ = mem_env_.get();
    } else {
      env_ = Env::Default();
    }
    dbname_ = NewTempDir(env_, tag);
    last_options_ = DefaultOptions();
  }

  ~DBFixture() override {
    Close();
    DestroyDB(dbname_, DefaultOptions());
    RemoveDirRecursively(env_, dbname_);
  }

  Options DefaultOptions() const {
    Options o;
    o.env = env_;
    o.create_if_missing = true;
    return o;
  }

  // Closes the open DB, if any, and opens dbname_ with `o`.
  Status TryOpen(const Options& o) {
    Close();
    last_options_ = o;
    return DB::Open(o, dbname_, &db_);
  }
  void Open(const Options& o) { ASSERT_TRUE(TryOpen(o).ok()); }
  void Open() { Open(DefaultOptions()); }
  // Opens again with the options of the last open.
  void Reopen() { ASSERT_TRUE(TryOpen(last_options_).ok()); }

  void Close() {
    delete db_;
    db_ = nullptr;
  }

  DBImpl* dbfull() { return static_cast<DBImpl*>(db_); }

  Status Put(const std::string& k, const std::string& v) {
    return db_->Put(WriteOptions(), k, v);
  }
  Status Delete(const std::string& k) { return db_->Delete(WriteOptions(), k); }

  // The value of k, "NOT_FOUND", or the error.
  std::string Get(const std::string& k, const Snapshot* snap = nullptr) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::string value;
    Status s = db_->Get(ro, k, &value);
    if (s.IsNotFound()) return "NOT_FOUND";
    if (!s.ok()) return s.ToString();
    return value;
  }

  int NumTableFilesAtLevel(int level) {
    std::string value;
    EXPECT_TRUE(db_->GetProperty(
        "leveldb.num-files-at-level" + std::to_string(level), &value));
    return std::stoi(value);
  }

  int TotalTableFiles() {
    int total = 0;
    for (int level = 0; level < config::kNumLevels; level++) {
      total += NumTableFilesAtLevel(level);
    }
    return total;
  }

  // Numbers of the files of type `wanted` in dbname_, ascending.
  std::vector<uint64_t> FileNumbers(FileType wanted) {
    std::vector<std::string> children;
    env_->GetChildren(dbname_, &children);
    std::vector<uint64_t> result;
    for (const std::string& child : children) {
      uint64_t number;
      FileType type;
      if (ParseFileName(child, &number, &type) && type == wanted) {
        result.push_back(number);
      }
    }
    std::sort(result.begin(), result.end());
    return result;
  }

  std::unique_ptr<Env> mem_env_;
  Env* env_ = nullptr;
  std::string dbname_;
  DB* db_ = nullptr;
  Options last_options_;
};

}  // namespace test
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_DB_TEST_HELPERS_H_
