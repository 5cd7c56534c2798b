// Tests of the DB layer through the public API and DBImpl's test hooks. Most
// tests run twice: on the default (POSIX) Env and on an in-memory Env.
#include "leveldb/db.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "db/db_iter.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "gtest/gtest.h"
#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/write_batch.h"
#include "port/port.h"
#include "tests/db_test_helpers.h"
#include "tests/table_test_helpers.h"
#include "tests/test_util.h"
#include "util/mutexlock.h"
#include "util/random.h"

namespace leveldb {
namespace {

using test::EnvKind;
using test::EnvKindName;
using test::Key;

// ---------------------------------------------------------------------------
// An Env whose log files can be made to fail, and whose table creation can
// be held back (to keep a memtable in the "immutable" state).

class TestEnv : public EnvWrapper {
 public:
  explicit TestEnv(Env* base) : EnvWrapper(base), hold_cv_(&hold_mu_) {}

  std::atomic<bool> fail_log_append{false};
  std::atomic<bool> fail_log_sync{false};
  std::atomic<int> log_sync_count{0};

  Status NewWritableFile(const std::string& fname,
                         WritableFile** result) override {
    if (IsTable(fname)) WaitWhileTablesHeld();
    WritableFile* base = nullptr;
    Status s = target()->NewWritableFile(fname, &base);
    *result = s.ok() ? new File(this, base, IsLog(fname)) : nullptr;
    return s;
  }

  Status NewAppendableFile(const std::string& fname,
                           WritableFile** result) override {
    WritableFile* base = nullptr;
    Status s = target()->NewAppendableFile(fname, &base);
    *result = s.ok() ? new File(this, base, IsLog(fname)) : nullptr;
    return s;
  }

  void HoldTables(bool hold) {
    MutexLock l(&hold_mu_);
    hold_tables_ = hold;
    hold_cv_.SignalAll();
  }

  // Blocks until a table creation is being held back.
  void WaitForHeldTable() {
    MutexLock l(&hold_mu_);
    while (tables_waiting_ == 0) hold_cv_.Wait();
  }

 private:
  class File : public WritableFile {
   public:
    File(TestEnv* env, WritableFile* base, bool is_log)
        : env_(env), base_(base), is_log_(is_log) {}
    ~File() override { delete base_; }

    Status Append(const Slice& data) override {
      if (is_log_ && env_->fail_log_append.load()) {
        return Status::IOError("injected log append failure");
      }
      return base_->Append(data);
    }
    Status Close() override { return base_->Close(); }
    Status Flush() override { return base_->Flush(); }
    Status Sync() override {
      if (is_log_) {
        env_->log_sync_count.fetch_add(1);
        if (env_->fail_log_sync.load()) {
          return Status::IOError("injected log sync failure");
        }
      }
      return base_->Sync();
    }

   private:
    TestEnv* const env_;
    WritableFile* const base_;
    const bool is_log_;
  };

  static bool EndsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  }
  static bool IsLog(const std::string& f) { return EndsWith(f, ".log"); }
  static bool IsTable(const std::string& f) { return EndsWith(f, ".ldb"); }

  void WaitWhileTablesHeld() {
    MutexLock l(&hold_mu_);
    if (!hold_tables_) return;
    tables_waiting_++;
    hold_cv_.SignalAll();
    while (hold_tables_) hold_cv_.Wait();
    tables_waiting_--;
  }

  port::Mutex hold_mu_;
  port::CondVar hold_cv_;
  bool hold_tables_ GUARDED_BY(hold_mu_) = false;
  int tables_waiting_ GUARDED_BY(hold_mu_) = 0;
};

// Orders keys of the form "[<number>]" numerically.
class NumberComparator : public Comparator {
 public:
  const char* Name() const override { return "test.NumberComparator"; }
  int Compare(const Slice& a, const Slice& b) const override {
    const long x = ToNumber(a);
    const long y = ToNumber(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  static long ToNumber(const Slice& s) {
    long n = 0;
    bool ok = s.size() >= 3 && s[0] == '[' && s[s.size() - 1] == ']';
    for (size_t i = 1; ok && i + 1 < s.size(); i++) {
      if (s[i] < '0' || s[i] > '9') ok = false;
      n = n * 10 + (s[i] - '0');
    }
    EXPECT_TRUE(ok) << "malformed key " << s.ToString();
    return n;
  }
};

// A scan of `it` from first to last, and one from last to first, yield
// exactly the entries of `model`.
void CheckFullScans(Iterator* it,
                    const std::map<std::string, std::string>& model) {
  auto m = model.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
    ASSERT_TRUE(m != model.end());
    ASSERT_EQ(m->first, it->key().ToString());
    ASSERT_EQ(m->second, it->value().ToString());
  }
  ASSERT_TRUE(m == model.end());
  auto r = model.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++r) {
    ASSERT_TRUE(r != model.rend());
    ASSERT_EQ(r->first, it->key().ToString());
    ASSERT_EQ(r->second, it->value().ToString());
  }
  ASSERT_TRUE(r == model.rend());
}

// ---------------------------------------------------------------------------
// Fixture

class DBTest : public test::DBFixture {
 protected:
  DBTest() : DBFixture("db_test") {}

  // A closed database must be destroyable.
  ~DBTest() override {
    Close();
    EXPECT_TRUE(DestroyDB(dbname_, DefaultOptions()).ok());
  }

  // All visible entries as "k=v,k=v". Also checks that a reverse scan
  // yields the same entries.
  std::string Contents(const Snapshot* snap = nullptr) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
    std::vector<std::string> forward;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      forward.push_back(it->key().ToString() + "=" + it->value().ToString());
    }
    EXPECT_TRUE(it->status().ok());
    std::vector<std::string> backward;
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
      backward.push_back(it->key().ToString() + "=" + it->value().ToString());
    }
    EXPECT_TRUE(it->status().ok());
    std::reverse(backward.begin(), backward.end());
    EXPECT_EQ(forward, backward);
    std::string result;
    for (const std::string& e : forward) {
      if (!result.empty()) result += ",";
      result += e;
    }
    return result;
  }

  // Every internal entry of user_key, newest first: "[ v2, DEL, v1 ]".
  std::string AllEntriesFor(const std::string& user_key) {
    std::unique_ptr<Iterator> it(dbfull()->TEST_NewInternalIterator());
    InternalKey target(user_key, kMaxSequenceNumber, kTypeValue);
    std::string result = "[ ";
    bool first = true;
    for (it->Seek(target.Encode()); it->Valid(); it->Next()) {
      ParsedInternalKey ikey;
      if (!ParseInternalKey(it->key(), &ikey)) {
        result += "CORRUPTED ";
        continue;
      }
      if (ikey.user_key != Slice(user_key)) break;
      if (!first) result += ", ";
      first = false;
      result += ikey.type == kTypeValue ? it->value().ToString() : "DEL";
    }
    result += first ? "]" : " ]";
    return result;
  }

  // "a,b,c" file counts per level, trailing zero levels omitted.
  std::string FilesPerLevel() {
    std::string result;
    size_t last_nonzero = 0;
    for (int level = 0; level < config::kNumLevels; level++) {
      if (level > 0) result += ",";
      const int n = NumTableFilesAtLevel(level);
      result += std::to_string(n);
      if (n > 0) last_nonzero = result.size();
    }
    result.resize(last_nonzero);
    return result;
  }

  uint64_t Size(const std::string& start, const std::string& limit) {
    Range r(start, limit);
    uint64_t size = 0;
    db_->GetApproximateSizes(&r, 1, &size);
    return size;
  }

  // n flushed tables, each holding `small` and `large`.
  void MakeTables(int n, const std::string& small, const std::string& large) {
    for (int i = 0; i < n; i++) {
      ASSERT_TRUE(Put(small, "begin").ok());
      ASSERT_TRUE(Put(large, "end").ok());
      ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
    }
  }

  // Compacts the deepest level holding files into the one below it, which
  // makes that output the base level for every key.
  void CompactDeepestLevel() {
    for (int level = config::kNumLevels - 2; level >= 0; level--) {
      if (NumTableFilesAtLevel(level) > 0) {
        dbfull()->TEST_CompactRange(level, nullptr, nullptr);
        return;
      }
    }
  }
};

#define ASSERT_OK(expr) ASSERT_TRUE((expr).ok())

// ---------------------------------------------------------------------------
// Basic reads and writes

TEST_P(DBTest, EmptyDatabase) {
  Open();
  EXPECT_EQ("NOT_FOUND", Get("foo"));
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  test::ExpectEmptyIterator(it.get(), "a");
}

TEST_P(DBTest, PutGetDeleteOverwrite) {
  Open();
  ASSERT_OK(Put("foo", "v1"));
  EXPECT_EQ("v1", Get("foo"));
  ASSERT_OK(Put("bar", "b1"));
  ASSERT_OK(Put("foo", "v2"));
  EXPECT_EQ("v2", Get("foo"));
  ASSERT_OK(Delete("bar"));
  EXPECT_EQ("NOT_FOUND", Get("bar"));
  ASSERT_OK(Delete("never-written"));
  EXPECT_EQ("foo=v2", Contents());

  Reopen();
  EXPECT_EQ("v2", Get("foo"));
  EXPECT_EQ("NOT_FOUND", Get("bar"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  EXPECT_EQ("v2", Get("foo"));
  EXPECT_EQ("NOT_FOUND", Get("bar"));
  ASSERT_OK(Put("bar", "b2"));
  EXPECT_EQ("bar=b2,foo=v2", Contents());
}

TEST_P(DBTest, EmptyKeyAndValue) {
  Open();
  ASSERT_OK(Put("", "empty-key"));
  ASSERT_OK(Put("k", ""));
  EXPECT_EQ("empty-key", Get(""));
  EXPECT_EQ("", Get("k"));
  EXPECT_EQ("=empty-key,k=", Contents());
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  Reopen();
  EXPECT_EQ("empty-key", Get(""));
  EXPECT_EQ("", Get("k"));
  ASSERT_OK(Delete(""));
  EXPECT_EQ("NOT_FOUND", Get(""));
  EXPECT_EQ("k=", Contents());
}

TEST_P(DBTest, LargeValues) {
  Open();
  Random rnd(test::RandomSeed());
  const std::string big1 = test::RandomBytes(&rnd, (1 << 20) + 17);
  const std::string big2 = test::RandomBytes(&rnd, 3 << 20);
  ASSERT_OK(Put("big1", big1));
  ASSERT_OK(Put("big2", big2));
  ASSERT_OK(Put("small", "s"));
  EXPECT_EQ(big1, Get("big1"));
  EXPECT_EQ(big2, Get("big2"));
  Reopen();  // from the log
  EXPECT_EQ(big1, Get("big1"));
  EXPECT_EQ(big2, Get("big2"));
  db_->CompactRange(nullptr, nullptr);  // from tables
  EXPECT_EQ(big1, Get("big1"));
  EXPECT_EQ(big2, Get("big2"));
  EXPECT_EQ("s", Get("small"));
}

TEST_P(DBTest, ReopenKeepsData) {
  Open();
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < 100; i++) {
      ASSERT_OK(Put(Key(i), "r" + std::to_string(round) + "-" + Key(i)));
    }
    if (round % 2 == 1) {
      ASSERT_OK(dbfull()->TEST_CompactMemTable());
    }
    Reopen();
    for (int i = 0; i < 100; i++) {
      ASSERT_EQ("r" + std::to_string(round) + "-" + Key(i), Get(Key(i)));
    }
  }
}

TEST_P(DBTest, WriteBatchAppliesAllOrNothing) {
  Open();
  ASSERT_OK(Put("b", "old"));
  WriteBatch batch;
  batch.Put("a", "1");
  batch.Delete("b");
  batch.Put("c", "3");
  batch.Put("a", "2");  // later records of a batch win
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  EXPECT_EQ("a=2,c=3", Contents());
  Reopen();
  EXPECT_EQ("a=2,c=3", Contents());

  // An empty batch is fine and changes nothing.
  WriteBatch empty;
  ASSERT_OK(db_->Write(WriteOptions(), &empty));
  EXPECT_EQ("a=2,c=3", Contents());
}

// Readers never observe half of a batch: every batch sets all ten keys to
// the same value.
TEST_P(DBTest, ConcurrentReadersSeeWholeBatches) {
  Options o = DefaultOptions();
  o.write_buffer_size = 64 << 10;  // several flushes while reading
  Open(o);
  constexpr int kKeys = 10;
  constexpr int kBatches = 1500;
  auto write_batch = [&](int n) {
    WriteBatch batch;
    const std::string value = std::to_string(n) + std::string(200, 'x');
    for (int k = 0; k < kKeys; k++) batch.Put(Key(k), value);
    return db_->Write(WriteOptions(), &batch);
  };
  ASSERT_OK(write_batch(0));

  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int n = 1; n <= kBatches; n++) EXPECT_TRUE(write_batch(n).ok());
    done = true;
  });

  int checks = 0;
  while (!done || checks < 5) {
    // Through an iterator.
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    std::set<std::string> seen;
    int count = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), count++) {
      seen.insert(it->value().ToString());
    }
    ASSERT_EQ(kKeys, count);
    ASSERT_EQ(1u, seen.size());
    // Through Gets at a snapshot.
    const Snapshot* snap = db_->GetSnapshot();
    const std::string first = Get(Key(0), snap);
    for (int k = 1; k < kKeys; k++) ASSERT_EQ(first, Get(Key(k), snap));
    db_->ReleaseSnapshot(snap);
    checks++;
  }
  writer.join();
  const std::string last = std::to_string(kBatches) + std::string(200, 'x');
  for (int k = 0; k < kKeys; k++) EXPECT_EQ(last, Get(Key(k)));
}

// ---------------------------------------------------------------------------
// Layers: memtable, immutable memtable, tables at several levels

TEST_P(DBTest, GetFromEveryLayer) {
  Open();
  ASSERT_OK(Put("deep", "d1"));
  ASSERT_OK(Put("shadowed", "old"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  db_->CompactRange(nullptr, nullptr);
  ASSERT_OK(Put("level0", "l0"));
  ASSERT_OK(Put("shadowed", "newer"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  ASSERT_OK(Put("mem", "m"));
  ASSERT_OK(Put("shadowed", "newest"));
  EXPECT_GE(TotalTableFiles(), 2);
  EXPECT_EQ("d1", Get("deep"));
  EXPECT_EQ("l0", Get("level0"));
  EXPECT_EQ("m", Get("mem"));
  EXPECT_EQ("newest", Get("shadowed"));
  EXPECT_EQ("deep=d1,level0=l0,mem=m,shadowed=newest", Contents());
}

TEST_P(DBTest, ReadsWhileMemtableIsImmutable) {
  TestEnv test_env(env_);
  Options o = DefaultOptions();
  o.env = &test_env;
  o.write_buffer_size = 64 << 10;
  Open(o);

  test_env.HoldTables(true);
  // Fill past the write buffer: the next write switches memtables and the
  // flush of the old one stalls at table creation.
  const std::string value(1000, 'v');
  for (int i = 0; i < 100; i++) ASSERT_OK(Put(Key(i), value + Key(i)));
  test_env.WaitForHeldTable();
  ASSERT_OK(Put("after-switch", "x"));

  for (int i = 0; i < 100; i++) ASSERT_EQ(value + Key(i), Get(Key(i)));
  EXPECT_EQ("x", Get("after-switch"));
  {
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    int count = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) count++;
    EXPECT_EQ(101, count);
    it->Seek(Key(50));
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(50), it->key().ToString());
    it->Prev();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(49), it->key().ToString());
  }
  EXPECT_EQ(0, TotalTableFiles());

  test_env.HoldTables(false);
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  EXPECT_GE(TotalTableFiles(), 1);
  for (int i = 0; i < 100; i++) ASSERT_EQ(value + Key(i), Get(Key(i)));
  Close();  // before test_env goes away
}

TEST_P(DBTest, IteratorAcrossLevelsBothDirections) {
  Open();
  // Keys spread over a deep level, level 0 and the memtable, with
  // overwrites and deletions between layers.
  for (int i = 0; i < 60; i += 1) ASSERT_OK(Put(Key(i), "deep" + Key(i)));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  db_->CompactRange(nullptr, nullptr);
  for (int i = 0; i < 60; i += 3) ASSERT_OK(Put(Key(i), "mid" + Key(i)));
  for (int i = 1; i < 60; i += 5) ASSERT_OK(Delete(Key(i)));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  for (int i = 0; i < 60; i += 4) ASSERT_OK(Put(Key(i), "top" + Key(i)));
  ASSERT_OK(Delete(Key(2)));

  std::map<std::string, std::string> expected;
  for (int i = 0; i < 60; i++) {
    std::string v = "deep" + Key(i);
    if (i % 3 == 0) v = "mid" + Key(i);
    if (i % 5 == 1) v.clear();
    if (i % 4 == 0) v = "top" + Key(i);
    if (i == 2) v.clear();
    if (!v.empty()) expected[Key(i)] = v;
  }

  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  ASSERT_NO_FATAL_FAILURE(CheckFullScans(it.get(), expected));

  // Seek to a deleted key lands on the next live one; switch directions.
  it->Seek(Key(1));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(3), it->key().ToString());
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(0), it->key().ToString());
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(3), it->key().ToString());
  it->Next();
  EXPECT_EQ(Key(4), it->key().ToString());
  EXPECT_EQ("top" + Key(4), it->value().ToString());
  it->Prev();
  it->Prev();
  EXPECT_EQ(Key(0), it->key().ToString());
  it->Prev();
  EXPECT_FALSE(it->Valid());
  it->Seek("zzz");
  EXPECT_FALSE(it->Valid());
  it->Seek("");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(0), it->key().ToString());
  EXPECT_TRUE(it->status().ok());
}

TEST_P(DBTest, IteratorKeepsItsViewWhileDataChanges) {
  Open();
  for (int i = 0; i < 50; i++) ASSERT_OK(Put(Key(i), "v1"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  for (int i = 50; i < 100; i++) ASSERT_OK(Put(Key(i), "v1"));
  const std::string before = Contents();

  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  for (int i = 0; i < 100; i += 2) ASSERT_OK(Put(Key(i), "v2"));
  for (int i = 1; i < 100; i += 4) ASSERT_OK(Delete(Key(i)));
  ASSERT_OK(Put("zzz", "new"));
  // Flushes and compactions must not pull files from under the iterator.
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  db_->CompactRange(nullptr, nullptr);

  std::string seen;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (!seen.empty()) seen += ",";
    seen += it->key().ToString() + "=" + it->value().ToString();
  }
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(before, seen);
  it.reset();
  EXPECT_EQ("v2", Get(Key(0)));
  EXPECT_EQ("NOT_FOUND", Get(Key(1)));
  EXPECT_EQ("new", Get("zzz"));
}

// ---------------------------------------------------------------------------
// Snapshots and deletions

TEST_P(DBTest, SnapshotsSeeTheirPast) {
  Open();
  ASSERT_OK(Put("foo", "v1"));
  const Snapshot* s1 = db_->GetSnapshot();
  ASSERT_OK(Put("foo", "v2"));
  ASSERT_OK(Put("bar", "b2"));
  const Snapshot* s2 = db_->GetSnapshot();
  ASSERT_OK(Delete("foo"));
  const Snapshot* s3 = db_->GetSnapshot();
  ASSERT_OK(Put("foo", "v4"));

  auto check = [&] {
    EXPECT_EQ("v1", Get("foo", s1));
    EXPECT_EQ("NOT_FOUND", Get("bar", s1));
    EXPECT_EQ("v2", Get("foo", s2));
    EXPECT_EQ("b2", Get("bar", s2));
    EXPECT_EQ("NOT_FOUND", Get("foo", s3));
    EXPECT_EQ("v4", Get("foo"));
    EXPECT_EQ("foo=v1", Contents(s1));
    EXPECT_EQ("bar=b2,foo=v2", Contents(s2));
    EXPECT_EQ("bar=b2", Contents(s3));
    EXPECT_EQ("bar=b2,foo=v4", Contents());
  };
  check();
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  check();
  db_->CompactRange(nullptr, nullptr);
  check();
  EXPECT_EQ("[ v4, DEL, v2, v1 ]", AllEntriesFor("foo"));

  db_->ReleaseSnapshot(s2);
  EXPECT_EQ("v1", Get("foo", s1));
  db_->ReleaseSnapshot(s1);
  db_->ReleaseSnapshot(s3);
  // Nothing pins the old versions any more.
  ASSERT_OK(Put("other", "x"));
  db_->CompactRange(nullptr, nullptr);
  CompactDeepestLevel();
  EXPECT_EQ("[ v4 ]", AllEntriesFor("foo"));
  EXPECT_EQ("bar=b2,foo=v4,other=x", Contents());
  EXPECT_EQ("v4", Get("foo"));
}

TEST_P(DBTest, DeletedKeysStayDeletedThroughCompactions) {
  Open();
  ASSERT_OK(Put("a", "begin"));
  ASSERT_OK(Put("foo", "v1"));
  ASSERT_OK(Put("z", "end"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  db_->CompactRange(nullptr, nullptr);
  EXPECT_EQ("[ v1 ]", AllEntriesFor("foo"));

  ASSERT_OK(Delete("foo"));
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  EXPECT_EQ("[ DEL, v1 ]", AllEntriesFor("foo"));
  // Move the deletion one level at a time; at no point may v1 come back.
  for (int level = 0; level < config::kNumLevels - 1; level++) {
    dbfull()->TEST_CompactRange(level, nullptr, nullptr);
    EXPECT_EQ("NOT_FOUND", Get("foo"));
    EXPECT_EQ("NOT_FOUND", Get("foo", snap));
    EXPECT_EQ(std::string::npos, Contents().find("foo"));
  }
  // The snapshot sees the deletion too, so once the marker reached the
  // level of v1 both could go.
  EXPECT_EQ("[ ]", AllEntriesFor("foo"));
  db_->ReleaseSnapshot(snap);
  db_->CompactRange(nullptr, nullptr);
  EXPECT_EQ("NOT_FOUND", Get("foo"));
  EXPECT_EQ("[ ]", AllEntriesFor("foo"));
  EXPECT_EQ("a=begin,z=end", Contents());
  Reopen();
  EXPECT_EQ("NOT_FOUND", Get("foo"));
}

TEST_P(DBTest, SnapshotKeepsValueUnderDeletion) {
  Open();
  ASSERT_OK(Put("foo", "v1"));
  const Snapshot* before_delete = db_->GetSnapshot();
  ASSERT_OK(Delete("foo"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  CompactDeepestLevel();  // a base-level compaction, snapshot held
  EXPECT_EQ("NOT_FOUND", Get("foo"));
  EXPECT_EQ("v1", Get("foo", before_delete));
  EXPECT_EQ("[ DEL, v1 ]", AllEntriesFor("foo"));

  db_->ReleaseSnapshot(before_delete);
  CompactDeepestLevel();
  EXPECT_EQ("NOT_FOUND", Get("foo"));
  EXPECT_EQ("[ ]", AllEntriesFor("foo"));
}

TEST_P(DBTest, DeletionMarkerKeptWhileOlderDataBelow) {
  Open();
  ASSERT_OK(Put("a", "begin"));
  ASSERT_OK(Put("foo", "v1"));
  ASSERT_OK(Put("z", "end"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  ASSERT_EQ("0,0,1", FilesPerLevel());
  dbfull()->TEST_CompactRange(2, nullptr, nullptr);
  dbfull()->TEST_CompactRange(3, nullptr, nullptr);
  ASSERT_EQ("0,0,0,0,1", FilesPerLevel());

  ASSERT_OK(Delete("foo"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  ASSERT_EQ("0,0,1,0,1", FilesPerLevel());
  EXPECT_EQ("[ DEL, v1 ]", AllEntriesFor("foo"));
  // Level 4 still holds v1 below the output level: the marker must stay.
  dbfull()->TEST_CompactRange(2, nullptr, nullptr);
  ASSERT_EQ("0,0,0,1,1", FilesPerLevel());
  EXPECT_EQ("[ DEL, v1 ]", AllEntriesFor("foo"));
  EXPECT_EQ("NOT_FOUND", Get("foo"));
  // Merged with v1 at the base level, both disappear.
  dbfull()->TEST_CompactRange(3, nullptr, nullptr);
  ASSERT_EQ("0,0,0,0,1", FilesPerLevel());
  EXPECT_EQ("[ ]", AllEntriesFor("foo"));
  EXPECT_EQ("NOT_FOUND", Get("foo"));
  EXPECT_EQ("a=begin,z=end", Contents());
}

// ---------------------------------------------------------------------------
// Compactions

TEST_P(DBTest, CompactRangeEverythingPushesDataDown) {
  Options o = DefaultOptions();
  o.write_buffer_size = 100 << 10;
  Open(o);
  Random rnd(test::RandomSeed());
  std::map<std::string, std::string> expected;
  for (int i = 0; i < 3000; i++) {
    const std::string k = Key(rnd.Uniform(1500));
    const std::string v = test::RandomString(&rnd, 100 + rnd.Uniform(200));
    ASSERT_OK(Put(k, v));
    expected[k] = v;
  }
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  EXPECT_GT(TotalTableFiles(), 0);

  db_->CompactRange(nullptr, nullptr);
  EXPECT_EQ(0, NumTableFilesAtLevel(0));
  int levels_with_files = 0;
  for (int level = 1; level < config::kNumLevels; level++) {
    if (NumTableFilesAtLevel(level) > 0) levels_with_files++;
  }
  EXPECT_EQ(1, levels_with_files);
  EXPECT_LE(dbfull()->TEST_MaxNextLevelOverlappingBytes(), 20 << 20);

  for (const auto& kv : expected) ASSERT_EQ(kv.second, Get(kv.first));
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  size_t count = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) count++;
  EXPECT_EQ(expected.size(), count);
  it.reset();  // iterators must not outlive the DB
  Reopen();
  for (const auto& kv : expected) ASSERT_EQ(kv.second, Get(kv.first));
}

TEST_P(DBTest, CompactRangeSubrange) {
  Open();
  MakeTables(3, "p", "q");
  EXPECT_EQ("1,1,1", FilesPerLevel());
  MakeTables(1, "a", "b");  // overlaps nothing: placed deep
  EXPECT_EQ("1,1,2", FilesPerLevel());
  // Compacting a range overlapping no file changes nothing.
  const Slice c("c"), d("d");
  db_->CompactRange(&c, &d);
  EXPECT_EQ("1,1,2", FilesPerLevel());
  // The p..q range moves down to one file.
  const Slice p("p"), q("q");
  db_->CompactRange(&p, &q);
  EXPECT_EQ("0,0,2", FilesPerLevel());
  EXPECT_EQ("begin", Get("a"));
  EXPECT_EQ("end", Get("q"));
}

TEST_P(DBTest, ManyFlushesTriggerBackgroundCompaction) {
  Options o = DefaultOptions();
  o.write_buffer_size = 64 << 10;
  Open(o);
  const std::string value(1000, 'x');
  for (int i = 0; i < 2000; i++) ASSERT_OK(Put(Key(i % 500), value));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  EXPECT_GT(TotalTableFiles(), 1);
  // A manual compaction of an empty range waits for all scheduled
  // background work; by then level 0 must be back under its trigger.
  const Slice lo("0"), hi("1");
  dbfull()->TEST_CompactRange(0, &lo, &hi);
  EXPECT_LT(NumTableFilesAtLevel(0), config::kL0_CompactionTrigger);
  EXPECT_GT(NumTableFilesAtLevel(1) + NumTableFilesAtLevel(2), 0);
  for (int i = 0; i < 500; i++) ASSERT_EQ(value, Get(Key(i)));
}

TEST_P(DBTest, ReadsDriveSeekCompaction) {
  Open();
  ASSERT_OK(Put("a", "va"));
  ASSERT_OK(Put("z", "vz"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  ASSERT_OK(Put("b", "vb"));
  ASSERT_OK(Put("y", "vy"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  ASSERT_EQ("0,1,1", FilesPerLevel());
  // Each miss on "c" probes the level-1 file in vain before level 2; the
  // level-1 file runs out of allowed seeks and is compacted away.
  for (int i = 0; i < 1000; i++) ASSERT_EQ("NOT_FOUND", Get("c"));
  const Slice lo("0"), hi("1");
  dbfull()->TEST_CompactRange(0, &lo, &hi);  // waits for background work
  EXPECT_EQ("0,0,1", FilesPerLevel());
  EXPECT_EQ("vb", Get("b"));
  EXPECT_EQ("vz", Get("z"));
}

// ---------------------------------------------------------------------------
// Sizes and properties

TEST_P(DBTest, ApproximateSizesGrowWithData) {
  Options o = DefaultOptions();
  o.compression = kNoCompression;
  o.write_buffer_size = 100 << 10;
  Open(o);
  EXPECT_EQ(0u, Size("", "zzz"));
  Random rnd(test::RandomSeed());
  constexpr int kValueSize = 1000;
  for (int i = 0; i < 400; i++) {
    ASSERT_OK(Put(Key(i), test::RandomString(&rnd, kValueSize)));
  }
  ASSERT_OK(dbfull()->TEST_CompactMemTable());

  for (int pass = 0; pass < 2; pass++) {
    uint64_t previous = 0;
    for (int n = 50; n <= 400; n += 50) {
      const uint64_t size = Size("", Key(n));
      EXPECT_GE(size, previous);
      // Within the table's bytes for those entries, with some slack.
      EXPECT_GE(size, static_cast<uint64_t>(n - 10) * kValueSize);
      EXPECT_LE(size, static_cast<uint64_t>(n + 10) * (kValueSize + 100));
      previous = size;
    }
    EXPECT_EQ(0u, Size(Key(500), Key(600)));
    EXPECT_EQ(0u, Size(Key(200), Key(100)));  // empty, inverted range
    db_->CompactRange(nullptr, nullptr);
  }

  const std::string k0 = Key(0), k100 = Key(100), k400 = Key(400);
  Range ranges[2] = {Range(k0, k100), Range(k100, k400)};
  uint64_t sizes[2];
  db_->GetApproximateSizes(ranges, 2, sizes);
  EXPECT_GT(sizes[1], 2 * sizes[0]);
}

TEST_P(DBTest, Properties) {
  Open();
  std::string value;
  EXPECT_FALSE(db_->GetProperty("leveldb.nonexistent", &value));
  EXPECT_FALSE(db_->GetProperty("rocksdb.stats", &value));
  EXPECT_FALSE(db_->GetProperty("leveldb.num-files-at-level", &value));
  EXPECT_FALSE(db_->GetProperty("leveldb.num-files-at-level7", &value));
  EXPECT_FALSE(db_->GetProperty("leveldb.num-files-at-level1x", &value));
  EXPECT_FALSE(db_->GetProperty("leveldb.statsx", &value));

  for (int level = 0; level < config::kNumLevels; level++) {
    ASSERT_TRUE(db_->GetProperty(
        "leveldb.num-files-at-level" + std::to_string(level), &value));
    EXPECT_EQ("0", value);
  }

  ASSERT_TRUE(db_->GetProperty("leveldb.approximate-memory-usage", &value));
  const uint64_t usage_empty = std::stoull(value);
  for (int i = 0; i < 1000; i++) ASSERT_OK(Put(Key(i), std::string(100, 'v')));
  ASSERT_TRUE(db_->GetProperty("leveldb.approximate-memory-usage", &value));
  EXPECT_GT(std::stoull(value), usage_empty + 100000);

  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  MakeTables(2, "a", "b");
  const std::string layout = FilesPerLevel();
  int total = 0;
  for (int level = 0; level < config::kNumLevels; level++) {
    ASSERT_TRUE(db_->GetProperty(
        "leveldb.num-files-at-level" + std::to_string(level), &value));
    total += std::stoi(value);
  }
  EXPECT_EQ(3, total) << layout;

  ASSERT_TRUE(db_->GetProperty("leveldb.sstables", &value));
  // Each live table number shows up in the listing.
  std::vector<uint64_t> tables = FileNumbers(kTableFile);
  EXPECT_EQ(3u, tables.size());
  for (uint64_t number : tables) {
    EXPECT_NE(std::string::npos, value.find(std::to_string(number))) << value;
  }

  db_->CompactRange(nullptr, nullptr);
  ASSERT_TRUE(db_->GetProperty("leveldb.stats", &value));
  const std::string header =
      "                               Compactions\n"
      "Level  Files Size(MB) Time(sec) Read(MB) Write(MB)\n"
      "--------------------------------------------------\n";
  ASSERT_EQ(0u, value.find(header)) << value;
  // One row per level that has files or compaction work; the level that
  // now holds the data must be listed.
  int holding = -1;
  for (int level = 0; level < config::kNumLevels; level++) {
    if (NumTableFilesAtLevel(level) > 0) holding = level;
  }
  ASSERT_GE(holding, 1);
  char row_prefix[16];
  std::snprintf(row_prefix, sizeof(row_prefix), "\n%3d ", holding);
  EXPECT_NE(std::string::npos, value.find(row_prefix)) << value;
}

// ---------------------------------------------------------------------------
// Opening, locking, destroying

TEST_P(DBTest, SecondOpenOfLockedDatabaseFails) {
  Open();
  DB* second = nullptr;
  Status s = DB::Open(DefaultOptions(), dbname_, &second);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(nullptr, second);
  ASSERT_OK(Put("still", "works"));
  Close();
  ASSERT_OK(DB::Open(DefaultOptions(), dbname_, &second));
  EXPECT_TRUE(second != nullptr);
  delete second;
}

TEST_P(DBTest, CreateIfMissingAndErrorIfExists) {
  Options o = DefaultOptions();
  o.create_if_missing = false;
  Status s = TryOpen(o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos,
            s.ToString().find("does not exist (create_if_missing is false)"))
      << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(dbname_));

  o.create_if_missing = true;
  ASSERT_OK(TryOpen(o));
  ASSERT_OK(Put("k", "v"));
  Close();

  o.error_if_exists = true;
  s = TryOpen(o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos,
            s.ToString().find("exists (error_if_exists is true)"))
      << s.ToString();

  o.error_if_exists = false;
  o.create_if_missing = false;
  ASSERT_OK(TryOpen(o));
  EXPECT_EQ("v", Get("k"));
}

TEST_P(DBTest, BadOpenArgumentsAreRejected) {
  DB* db = nullptr;
  Options o = DefaultOptions();
  Status s = DB::Open(o, "", &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("name"));

  o.env = nullptr;
  s = DB::Open(o, dbname_, &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("env"));

  o = DefaultOptions();
  o.comparator = nullptr;
  s = DB::Open(o, dbname_, &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("comparator"));
  EXPECT_EQ(nullptr, db);
}

TEST_P(DBTest, TinyOptionsAreClipped) {
  Options o = DefaultOptions();
  o.write_buffer_size = 1;
  o.max_file_size = 1;
  o.block_size = 1;
  o.max_open_files = 1;
  Open(o);
  const std::string value(1000, 'x');
  for (int i = 0; i < 1000; i++) ASSERT_OK(Put(Key(i), value));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  // With a 1-byte buffer every write would become a table; the clipped
  // 64 KiB buffer yields about 16 of them (fewer after compactions).
  EXPECT_LE(TotalTableFiles(), 40);
  for (int i = 0; i < 1000; i++) ASSERT_EQ(value, Get(Key(i)));
}

TEST_P(DBTest, BloomFilterPolicy) {
  std::unique_ptr<const FilterPolicy> policy(NewBloomFilterPolicy(10));
  Options o = DefaultOptions();
  o.filter_policy = policy.get();
  Open(o);
  for (int i = 0; i < 500; i += 2) ASSERT_OK(Put(Key(i), "v" + Key(i)));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  db_->CompactRange(nullptr, nullptr);
  Reopen();
  for (int i = 0; i < 500; i++) {
    ASSERT_EQ(i % 2 == 0 ? "v" + Key(i) : "NOT_FOUND", Get(Key(i)));
  }
  Close();
}

TEST_P(DBTest, DestroyDB) {
  Open();
  ASSERT_OK(Put("k", "v"));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  ASSERT_OK(Put("k2", "v2"));

  Options o = DefaultOptions();
  // Refused while the database is open.
  EXPECT_FALSE(DestroyDB(dbname_, o).ok());
  EXPECT_EQ("v", Get("k"));
  Close();

  ASSERT_OK(DestroyDB(dbname_, o));
  EXPECT_FALSE(env_->FileExists(CurrentFileName(dbname_)));
  EXPECT_FALSE(env_->FileExists(LockFileName(dbname_)));
  EXPECT_TRUE(FileNumbers(kTableFile).empty());
  EXPECT_TRUE(FileNumbers(kLogFile).empty());
  o.create_if_missing = false;
  EXPECT_FALSE(TryOpen(o).ok());
  // Destroying something that is not there is fine.
  ASSERT_OK(DestroyDB(dbname_ + "-missing", o));
}

// ---------------------------------------------------------------------------
// Custom comparator

TEST_P(DBTest, CustomComparator) {
  NumberComparator cmp;
  Options o = DefaultOptions();
  o.comparator = &cmp;
  o.write_buffer_size = 64 << 10;
  Open(o);
  ASSERT_OK(Put("[10]", "ten"));
  ASSERT_OK(Put("[9]", "nine"));
  ASSERT_OK(Put("[100]", "hundred"));
  EXPECT_EQ("[9]=nine,[10]=ten,[100]=hundred", Contents());
  EXPECT_EQ("ten", Get("[010]"));  // equal under this comparator

  for (int i = 0; i < 2000; i++) {
    ASSERT_OK(Put("[" + std::to_string(i * 7 % 2000 + 1000) + "]",
                  std::string(50, 'x')));
  }
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  db_->CompactRange(nullptr, nullptr);
  Reopen();
  EXPECT_EQ("nine", Get("[0009]"));
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  it->Seek("[50]");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("[100]", it->key().ToString());
  it->Next();
  EXPECT_EQ("[1000]", it->key().ToString());
  it.reset();
  Close();

  // Opening with another comparator is refused.
  Options bytewise = DefaultOptions();
  Status s = TryOpen(bytewise);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("test.NumberComparator"));
}

// ---------------------------------------------------------------------------
// Concurrency

TEST_P(DBTest, ManyThreadsReadAndWrite) {
  Options o = DefaultOptions();
  o.write_buffer_size = 64 << 10;
  Open(o);
  constexpr int kThreads = 4;
  constexpr int kOpsPerThread = 1500;
  constexpr int kKeysPerThread = 40;
  // Highest counter each thread has started to write.
  std::atomic<int> started[kThreads];
  for (auto& c : started) c = -1;
  std::vector<std::map<int, int>> last_written(kThreads);
  std::atomic<int> failures{0};

  auto key_of = [](int t, int k) {
    return "t" + std::to_string(t) + "." + std::to_string(k);
  };
  auto run = [&](int t) {
    Random rnd(test::RandomSeed() + t);
    for (int op = 0; op < kOpsPerThread; op++) {
      if (rnd.OneIn(2)) {
        const int k = rnd.Uniform(kKeysPerThread);
        started[t] = op;
        WriteOptions wo;
        wo.sync = rnd.OneIn(50);
        const std::string v = key_of(t, k) + "=" + std::to_string(op) + "|" +
                              std::string(100, 'p');
        if (!db_->Put(wo, key_of(t, k), v).ok()) failures++;
        last_written[t][k] = op;
      } else {
        const int other = rnd.Uniform(kThreads);
        const int k = rnd.Uniform(kKeysPerThread);
        std::string v;
        Status s = db_->Get(ReadOptions(), key_of(other, k), &v);
        if (s.IsNotFound()) continue;
        if (!s.ok()) {
          failures++;
          continue;
        }
        // The value names its key, and a counter not beyond what the
        // owning thread has started to write.
        const std::string prefix = key_of(other, k) + "=";
        if (v.compare(0, prefix.size(), prefix) != 0) {
          failures++;
          continue;
        }
        const int counter = std::stoi(v.substr(prefix.size()));
        if (counter > started[other].load()) failures++;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) threads.emplace_back(run, t);
  for (auto& th : threads) th.join();
  EXPECT_EQ(0, failures.load());

  for (int t = 0; t < kThreads; t++) {
    for (const auto& kv : last_written[t]) {
      const std::string k = key_of(t, kv.first);
      ASSERT_EQ(
          k + "=" + std::to_string(kv.second) + "|" + std::string(100, 'p'),
          Get(k));
    }
  }
}

// ---------------------------------------------------------------------------
// Write errors are sticky

TEST_P(DBTest, FailedLogAppendMakesWritesFailForGood) {
  TestEnv test_env(env_);
  Options o = DefaultOptions();
  o.env = &test_env;
  Open(o);
  ASSERT_OK(Put("a", "1"));

  test_env.fail_log_append = true;
  Status s = Put("b", "2");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  test_env.fail_log_append = false;

  // The log may be damaged: no later write is accepted.
  EXPECT_FALSE(Put("c", "3").ok());
  EXPECT_FALSE(Delete("a").ok());
  WriteBatch batch;
  batch.Put("d", "4");
  EXPECT_FALSE(db_->Write(WriteOptions(), &batch).ok());
  EXPECT_FALSE(dbfull()->TEST_CompactMemTable().ok());
  // Reads still work.
  EXPECT_EQ("1", Get("a"));
  EXPECT_EQ("NOT_FOUND", Get("b"));
  EXPECT_EQ("NOT_FOUND", Get("c"));

  Reopen();
  EXPECT_EQ("1", Get("a"));
  EXPECT_EQ("NOT_FOUND", Get("b"));
  EXPECT_EQ("NOT_FOUND", Get("c"));
  EXPECT_EQ("NOT_FOUND", Get("d"));
  ASSERT_OK(Put("e", "5"));
  Close();
}

TEST_P(DBTest, FailedLogSyncMakesWritesFailForGood) {
  TestEnv test_env(env_);
  Options o = DefaultOptions();
  o.env = &test_env;
  Open(o);
  WriteOptions sync;
  sync.sync = true;
  ASSERT_OK(db_->Put(sync, "a", "1"));
  EXPECT_GE(test_env.log_sync_count.load(), 1);

  test_env.fail_log_sync = true;
  Status s = db_->Put(sync, "b", "2");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  test_env.fail_log_sync = false;
  EXPECT_FALSE(db_->Put(sync, "c", "3").ok());
  EXPECT_FALSE(Put("c", "3").ok());
  EXPECT_EQ("1", Get("a"));
  Close();
}

// ---------------------------------------------------------------------------
// A randomized comparison against an in-memory model, at the latest state
// and at snapshots, with flushes, compactions and reopens in between.

void CheckAgainstModel(DB* db, const Snapshot* snap,
                       const std::map<std::string, std::string>& model,
                       Random* rnd,
                       const std::vector<std::string>& probe_keys) {
  ReadOptions ro;
  ro.snapshot = snap;
  for (const std::string& k : probe_keys) {
    std::string v;
    Status s = db->Get(ro, k, &v);
    auto it = model.find(k);
    if (it == model.end()) {
      ASSERT_TRUE(s.IsNotFound()) << k << " " << s.ToString();
    } else {
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_EQ(it->second, v);
    }
  }

  std::unique_ptr<Iterator> iter(db->NewIterator(ro));
  ASSERT_NO_FATAL_FAILURE(CheckFullScans(iter.get(), model));

  // Random walks that mix seeks and direction changes.
  for (int walk = 0; walk < 30; walk++) {
    const std::string& target = probe_keys[rnd->Uniform(probe_keys.size())];
    iter->Seek(target);
    auto pos = model.lower_bound(target);
    for (int step = 0; step < 12; step++) {
      ASSERT_EQ(pos != model.end(), iter->Valid()) << "seek " << target;
      if (!iter->Valid()) break;
      ASSERT_EQ(pos->first, iter->key().ToString());
      ASSERT_EQ(pos->second, iter->value().ToString());
      if (rnd->OneIn(2)) {
        iter->Next();
        ++pos;
      } else {
        iter->Prev();
        if (pos == model.begin()) {
          pos = model.end();  // ran off the front
        } else {
          --pos;
        }
      }
    }
  }
  ASSERT_TRUE(iter->status().ok());
}

TEST_P(DBTest, RandomizedAgainstModel) {
  Options o = DefaultOptions();
  o.write_buffer_size = 64 << 10;
  o.block_size = 1024;
  Open(o);
  Random rnd(test::RandomSeed());
  std::map<std::string, std::string> model;
  struct Held {
    const Snapshot* snapshot;
    std::map<std::string, std::string> model;
  };
  std::vector<Held> held;

  std::vector<std::string> key_space;
  for (int i = 0; i < 300; i++) key_space.push_back(Key(i * 3));
  for (int i = 0; i < 40; i++) {
    key_space.push_back(test::RandomKey(&rnd, 1 + rnd.Uniform(6)));
  }
  key_space.push_back("");
  std::vector<std::string> probes = key_space;
  for (int i = 0; i < 60; i++) probes.push_back(Key(i * 15 + 1));  // absent

  auto random_value = [&] {
    const size_t len = rnd.OneIn(50) ? 5000 : rnd.Uniform(120);
    return test::RandomString(&rnd, len);
  };

  constexpr int kSteps = 3000;
  for (int step = 1; step <= kSteps; step++) {
    const int p = rnd.Uniform(100);
    const std::string& key = key_space[rnd.Uniform(key_space.size())];
    if (p < 45) {
      const std::string v = random_value();
      ASSERT_OK(Put(key, v));
      model[key] = v;
    } else if (p < 65) {
      ASSERT_OK(Delete(key));
      model.erase(key);
    } else if (p < 75) {
      WriteBatch batch;
      const int n = 1 + rnd.Uniform(8);
      for (int i = 0; i < n; i++) {
        const std::string& k = key_space[rnd.Uniform(key_space.size())];
        if (rnd.OneIn(3)) {
          batch.Delete(k);
          model.erase(k);
        } else {
          const std::string v = random_value();
          batch.Put(k, v);
          model[k] = v;
        }
      }
      ASSERT_OK(db_->Write(WriteOptions(), &batch));
    } else if (p < 78) {
      ASSERT_OK(dbfull()->TEST_CompactMemTable());
    } else if (p < 80) {
      const int level = rnd.Uniform(config::kNumLevels - 1);
      if (rnd.OneIn(2)) {
        dbfull()->TEST_CompactRange(level, nullptr, nullptr);
      } else {
        const Slice a(key_space[rnd.Uniform(key_space.size())]);
        const Slice b(key_space[rnd.Uniform(key_space.size())]);
        const bool ordered = a.compare(b) <= 0;
        dbfull()->TEST_CompactRange(level, ordered ? &a : &b,
                                    ordered ? &b : &a);
      }
    } else if (p < 83) {
      if (held.size() < 4) held.push_back({db_->GetSnapshot(), model});
    } else if (p < 86) {
      if (!held.empty()) {
        const size_t i = rnd.Uniform(held.size());
        db_->ReleaseSnapshot(held[i].snapshot);
        held.erase(held.begin() + i);
      }
    } else if (p < 87) {
      for (const Held& h : held) db_->ReleaseSnapshot(h.snapshot);
      held.clear();
      Reopen();
    } else if (p < 88) {
      db_->CompactRange(nullptr, nullptr);
    } else {
      ASSERT_EQ(model.count(key) ? model[key] : "NOT_FOUND", Get(key));
    }

    if (step % 250 == 0) {
      SCOPED_TRACE("step " + std::to_string(step));
      CheckAgainstModel(db_, nullptr, model, &rnd, probes);
      for (const Held& h : held) {
        CheckAgainstModel(db_, h.snapshot, h.model, &rnd, probes);
      }
      if (HasFatalFailure()) return;
    }
  }
  for (const Held& h : held) db_->ReleaseSnapshot(h.snapshot);
}

INSTANTIATE_TEST_SUITE_P(Envs, DBTest,
                         testing::Values(EnvKind::kDefault, EnvKind::kMemory),
                         EnvKindName);

// ---------------------------------------------------------------------------
// DBIter on its own, over a hand-made internal stream (sorted by internal
// key).

std::string IKey(const std::string& user, SequenceNumber seq, ValueType t) {
  return InternalKey(user, seq, t).Encode().ToString();
}

std::string Scan(Iterator* it, bool forward) {
  std::string out;
  for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid();
       forward ? it->Next() : it->Prev()) {
    out += it->key().ToString() + "=" + it->value().ToString() + ";";
  }
  return out;
}

TEST(DBIterTest, HidesNewerDeletedAndOlderEntries) {
  std::vector<std::pair<std::string, std::string>> entries = {
      {IKey("a", 5, kTypeValue), "a5"},  {IKey("a", 3, kTypeValue), "a3"},
      {IKey("b", 4, kTypeDeletion), ""}, {IKey("b", 2, kTypeValue), "b2"},
      {IKey("c", 9, kTypeValue), "c9"},  {IKey("c", 1, kTypeValue), "c1"},
      {IKey("d", 6, kTypeDeletion), ""}, {IKey("e", 7, kTypeValue), "e7"},
      {IKey("e", 6, kTypeDeletion), ""}, {IKey("e", 2, kTypeValue), "e2"},
  };
  const InternalKeyComparator icmp(BytewiseComparator());
  auto make = [&](SequenceNumber seq) {
    return std::unique_ptr<Iterator>(
        NewDBIterator(nullptr, BytewiseComparator(),
                      new test::VectorIterator(&icmp, entries), seq, 1));
  };

  std::unique_ptr<Iterator> latest = make(100);
  EXPECT_EQ("a=a5;c=c9;e=e7;", Scan(latest.get(), true));
  EXPECT_EQ("e=e7;c=c9;a=a5;", Scan(latest.get(), false));

  std::unique_ptr<Iterator> at4 = make(4);
  EXPECT_EQ("a=a3;c=c1;e=e2;", Scan(at4.get(), true));
  EXPECT_EQ("e=e2;c=c1;a=a3;", Scan(at4.get(), false));

  std::unique_ptr<Iterator> at6 = make(6);
  EXPECT_EQ("a=a5;c=c1;", Scan(at6.get(), true));
  EXPECT_EQ("c=c1;a=a5;", Scan(at6.get(), false));
  at6->Seek("b");
  ASSERT_TRUE(at6->Valid());
  EXPECT_EQ("c", at6->key().ToString());
  at6->Prev();
  ASSERT_TRUE(at6->Valid());
  EXPECT_EQ("a", at6->key().ToString());
  at6->Next();
  EXPECT_EQ("c", at6->key().ToString());
  at6->Next();
  EXPECT_FALSE(at6->Valid());

  std::unique_ptr<Iterator> at0 = make(0);
  EXPECT_EQ("", Scan(at0.get(), true));
  EXPECT_EQ("", Scan(at0.get(), false));
}

TEST(DBIterTest, CorruptKeyIsReportedAndSkipped) {
  std::vector<std::pair<std::string, std::string>> entries = {
      {IKey("a", 1, kTypeValue), "a1"},
      {"bad", "x"},  // too short for an internal key
      {IKey("c", 2, kTypeValue), "c2"},
  };
  const InternalKeyComparator icmp(BytewiseComparator());
  std::unique_ptr<Iterator> it(
      NewDBIterator(nullptr, BytewiseComparator(),
                    new test::VectorIterator(&icmp, entries), 10, 1));
  EXPECT_EQ("a=a1;c=c2;", Scan(it.get(), true));
  EXPECT_TRUE(it->status().IsCorruption());
  EXPECT_NE(std::string::npos,
            it->status().ToString().find("corrupted internal key in DBIter"));
  std::unique_ptr<Iterator> rev(
      NewDBIterator(nullptr, BytewiseComparator(),
                    new test::VectorIterator(&icmp, entries), 10, 1));
  EXPECT_EQ("c=c2;a=a1;", Scan(rev.get(), false));
  EXPECT_TRUE(rev->status().IsCorruption());
}

}  // namespace
}  // namespace leveldb
