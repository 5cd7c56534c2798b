// Fixtures for tests that open a whole database: DBTestBase owns the Env,
// a fresh directory and the open DB, with the small accessors such tests
// keep needing; DBFixture runs each test once on the default (POSIX) Env and
// once on an in-memory Env.
#ifndef STORAGE_LEVELDB_TESTS_DB_TEST_HELPERS_H_
#define STORAGE_LEVELDB_TESTS_DB_TEST_HELPERS_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/db_impl.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
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

// The (number, name) of each file of type `wanted` in `dir`, ascending by
// number. Returns the status of listing the directory.
inline Status ListFilesOfType(
    Env* env, const std::string& dir, FileType wanted,
    std::vector<std::pair<uint64_t, std::string>>* out) {
  out->clear();
  std::vector<std::string> children;
  Status s = env->GetChildren(dir, &children);
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (ParseFileName(child, &number, &type) && type == wanted) {
      out->emplace_back(number, child);
    }
  }
  std::sort(out->begin(), out->end());
  return s;
}

// Owns an Env (Env::Default(), or a private in-memory one), a fresh database
// directory in it (destroyed and removed at the end) and the DB open there,
// if any. `Base` is the GoogleTest class to derive from: testing::Test, or
// testing::TestWithParam<...> for parameterized fixtures.
template <typename Base>
class DBTestBase : public Base {
 protected:
  explicit DBTestBase(const std::string& tag, bool in_memory = false) {
    if (in_memory) {
      mem_env_.reset(NewMemEnv(Env::Default()));
      env_ = mem_env_.get();
    } else {
      env_ = Env::Default();
    }
    dbname_ = NewTempDir(env_, tag);
    last_options_ = DefaultOptions();
  }

  ~DBTestBase() override {
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

  // Keeps `policy` alive until the fixture is destroyed and returns it.
  const FilterPolicy* KeepPolicy(const FilterPolicy* policy) {
    policies_.emplace_back(policy);
    return policy;
  }

  // Closes the open DB, if any, and opens `dir` (default: dbname_) with `o`.
  Status TryOpen(const Options& o, const std::string& dir = "") {
    Close();
    last_options_ = o;
    return DB::Open(o, dir.empty() ? dbname_ : dir, &db_);
  }
  void Open(const Options& o) {
    Status s = TryOpen(o);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
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

  // Numbers of the files of type `wanted` in dbname_, ascending (none when
  // the directory cannot be listed).
  std::vector<uint64_t> FileNumbers(FileType wanted) {
    std::vector<std::pair<uint64_t, std::string>> files;
    ListFilesOfType(env_, dbname_, wanted, &files);
    std::vector<uint64_t> result;
    for (const auto& file : files) result.push_back(file.first);
    return result;
  }

  // Numbers of the table files in `dir` (default: dbname_), which must be
  // listable.
  std::set<uint64_t> TableFiles(const std::string& dir = "") {
    std::vector<std::pair<uint64_t, std::string>> files;
    EXPECT_TRUE(
        ListFilesOfType(env_, dir.empty() ? dbname_ : dir, kTableFile, &files)
            .ok());
    std::set<uint64_t> result;
    for (const auto& file : files) result.insert(file.first);
    return result;
  }

  std::unique_ptr<Env> mem_env_;
  Env* env_ = nullptr;
  std::string dbname_;
  DB* db_ = nullptr;
  Options last_options_;
  std::vector<std::unique_ptr<const FilterPolicy>> policies_;
};

// Runs each test on the Env picked by the test parameter.
class DBFixture : public DBTestBase<testing::TestWithParam<EnvKind>> {
 protected:
  explicit DBFixture(const std::string& tag)
      : DBTestBase(tag, GetParam() == EnvKind::kMemory) {}
};

}  // namespace test
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_DB_TEST_HELPERS_H_
