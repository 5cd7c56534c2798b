// ElasticBF under concurrency: reader threads check every Get against a
// model while a writer overwrites and inserts, memtables are flushed,
// compactions run, and the MQSchedule loads and evicts filter units under a
// budget of a few units with a short lifetime. A present key must always
// be found (no false negative, ever) with a value at least as new as the
// last write finished before the Get began; an absent key never is.
#include <algorithm>
#include <atomic>
#include <chrono>              // NOLINT
#include <condition_variable>  // NOLINT
#include <cstdio>
#include <memory>
#include <mutex>  // NOLINT
#include <set>
#include <string>
#include <thread>  // NOLINT
#include <vector>

#include "db/db_impl.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "elastic/mq_schedule.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/io_stats.h"
#include "leveldb/write_batch.h"
#include "tests/db_impl_test_peer.h"
#include "tests/elastic_test_peer.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace {

constexpr int kReaders = 4;
constexpr int kMaxKeys = 40000;
constexpr int kInitialKeys = 8000;

// Present keys are even, absent keys odd: interleaved in every table.
std::string Key(int i, bool present = true) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08d", 2 * i + (present ? 0 : 1));
  return buf;
}

// "<i>.<generation>." then padding; the generation is parsed back.
std::string Value(int i, uint32_t generation) {
  std::string v = std::to_string(i) + "." + std::to_string(generation) + ".";
  v.resize(60, 'p');
  return v;
}

bool ParseValue(const std::string& v, int* i, uint32_t* generation) {
  const size_t dot1 = v.find('.');
  const size_t dot2 = dot1 == std::string::npos ? dot1 : v.find('.', dot1 + 1);
  if (dot2 == std::string::npos) return false;
  *i = std::stoi(v.substr(0, dot1));
  *generation =
      static_cast<uint32_t>(std::stoul(v.substr(dot1 + 1, dot2 - dot1 - 1)));
  return true;
}

class ElasticDBConcurrencyTest : public testing::Test {
 protected:
  ElasticDBConcurrencyTest() : env_(Env::Default()) {
    dbname_ = test::NewTempDir(env_, "elastic_db_concurrency_test");
    generation_.reset(new std::atomic<uint32_t>[kMaxKeys]);
    for (int i = 0; i < kMaxKeys; ++i) generation_[i].store(0);
  }

  ~ElasticDBConcurrencyTest() override {
    delete db_;
    Options o;
    o.env = env_;
    DestroyDB(dbname_, o);
    test::RemoveDirRecursively(env_, dbname_);
  }

  // Writes generation g of key i, then publishes it to the readers.
  void RunWorkload(const Options& o, uint64_t budget, int initial_tables = 1);

  // Writes generation 1 of keys [0, kInitialKeys) in `tables` disjoint
  // ranges, each flushed on its own: one small table each.
  void FillDisjointTables(int tables) {
    DBImpl* impl = static_cast<DBImpl*>(db_);
    const int per_table = kInitialKeys / tables;
    for (int t = 0; t < tables; ++t) {
      for (int i = t * per_table; i < (t + 1) * per_table; ++i) {
        ASSERT_TRUE(WriteKey(i, 1).ok());
      }
      ASSERT_TRUE(impl->TEST_CompactMemTable().ok());
    }
    DBImplTestPeer::WaitForBackgroundWork(impl);
  }

  // Tables of the current version.
  int TableCount() {
    int tables = 0;
    for (int level = 0; level < config::kNumLevels; ++level) {
      std::string n;
      EXPECT_TRUE(db_->GetProperty(
          "leveldb.num-files-at-level" + std::to_string(level), &n));
      tables += std::stoi(n);
    }
    return tables;
  }

  Status WriteKey(int i, uint32_t g) {
    Status s = db_->Put(WriteOptions(), Key(i), Value(i, g));
    if (s.ok()) generation_[i].store(g, std::memory_order_release);
    return s;
  }

  Env* const env_;
  std::string dbname_;
  // Declared before db_: the DB (deleted in the destructor, maybe with a
  // compaction still running) must never outlive its filter policy.
  std::unique_ptr<const FilterPolicy> policy_;
  DB* db_ = nullptr;
  // Per key: the newest generation whose write has finished (0: never).
  std::unique_ptr<std::atomic<uint32_t>[]> generation_;
  std::atomic<int> present_keys_{0};  // keys [0, present_keys_) exist
};

// Runs readers and a writer against a DB opened with `o` (ElasticBF with a
// budget of `budget` bytes) and checks everything the file comment says,
// and that units and locators stay within the budget all along.
void ElasticDBConcurrencyTest::RunWorkload(const Options& o, uint64_t budget,
                                           int initial_tables) {
  ASSERT_TRUE(DB::Open(o, dbname_, &db_).ok());
  DBImpl* impl = static_cast<DBImpl*>(db_);
  MQSchedule* mqs = DBImplTestPeer::elastic(impl);
  ASSERT_NE(nullptr, mqs);

  if (initial_tables <= 1) {
    for (int i = 0; i < kInitialKeys; ++i) ASSERT_TRUE(WriteKey(i, 1).ok());
    db_->CompactRange(nullptr, nullptr);
  } else {
    FillDisjointTables(initial_tables);
    EXPECT_GE(TableCount(), initial_tables);
  }
  present_keys_.store(kInitialKeys);

  std::atomic<bool> stop{false};
  std::atomic<int> errors{0};
  std::atomic<uint64_t> reads{0};
  std::atomic<uint64_t> writes{0};
  std::string first_error;
  std::atomic<bool> have_error{false};
  auto fail = [&](const std::string& what) {
    if (errors.fetch_add(1) == 0) {
      first_error = what;
      have_error.store(true);
    }
  };

  auto reader = [&](int id) {
    Random rnd(test::RandomSeed() + 1000 * id);
    std::string value;
    while (!stop.load(std::memory_order_acquire)) {
      const int limit = present_keys_.load(std::memory_order_acquire);
      // Skewed so that some segments are hot and the rest expire.
      const int i = static_cast<int>(rnd.Skewed(15)) % limit;
      if (rnd.OneIn(2)) {
        const uint32_t floor = generation_[i].load(std::memory_order_acquire);
        Status s = db_->Get(ReadOptions(), Key(i), &value);
        int got_i;
        uint32_t got_g;
        if (!s.ok()) {
          fail("false negative or error for " + Key(i) + ": " + s.ToString());
        } else if (!ParseValue(value, &got_i, &got_g) || got_i != i ||
                   got_g < floor) {
          fail("stale or wrong value for " + Key(i) + ": " + value);
        }
      } else {
        Status s = db_->Get(ReadOptions(), Key(i, false), &value);
        if (!s.IsNotFound()) {
          fail("absent key " + Key(i, false) + " gave " + s.ToString());
        }
      }
      reads.fetch_add(1, std::memory_order_relaxed);
    }
  };

  auto writer = [&]() {
    Random rnd(test::RandomSeed() + 77);
    uint32_t next_generation = 2;
    while (!stop.load(std::memory_order_acquire)) {
      const int limit = present_keys_.load(std::memory_order_relaxed);
      Status s;
      if (limit < kMaxKeys && rnd.OneIn(3)) {
        s = WriteKey(limit, next_generation);  // insert a new key
        if (s.ok()) present_keys_.store(limit + 1, std::memory_order_release);
      } else {
        s = WriteKey(static_cast<int>(rnd.Uniform(limit)), next_generation);
      }
      if (!s.ok()) fail("write failed: " + s.ToString());
      ++next_generation;
      writes.fetch_add(1, std::memory_order_relaxed);
      if (rnd.OneIn(5000)) {
        const int a = static_cast<int>(rnd.Uniform(limit));
        const std::string lo = Key(a);
        const std::string hi = Key(std::min(limit, a + 2000));
        const Slice lo_slice(lo), hi_slice(hi);
        db_->CompactRange(&lo_slice, &hi_slice);
      }
    }
  };

  // Units and locators together never exceed the budget.
  auto monitor = [&]() {
    while (!stop.load(std::memory_order_acquire)) {
      uint64_t used, limit;
      mqs->GetMemory(&used, &limit);
      if (used > limit) fail("filter memory over budget");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };

  std::vector<std::thread> threads;
  for (int r = 0; r < kReaders; ++r) threads.emplace_back(reader, r);
  threads.emplace_back(writer);
  threads.emplace_back(monitor);

  // A bounded run: long enough for many flushes, compactions, loads and
  // evictions, short enough for sanitizers.
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&start] { return std::chrono::steady_clock::now() - start; };
  while (!have_error.load() &&
         (elapsed() < std::chrono::seconds(4) ||
          (writes.load() < 20000 && elapsed() < std::chrono::seconds(8)))) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  stop.store(true, std::memory_order_release);
  for (std::thread& t : threads) t.join();

  std::fprintf(stderr, "%llu reads, %llu writes\n",
               static_cast<unsigned long long>(reads.load()),
               static_cast<unsigned long long>(writes.load()));
  EXPECT_EQ(0, errors.load()) << first_error;
  EXPECT_GT(reads.load(), 0u);
  EXPECT_GT(writes.load(), 0u);

  MQScheduleTestPeer::WaitIdle(mqs);
  std::string error;
  EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(mqs, &error)) << error;
  const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(mqs);
  EXPECT_LE(st.installed_bytes, st.mq.budget_bytes);
  EXPECT_EQ(budget, st.budget_bytes);
  ASSERT_LT(st.locator_bytes, st.budget_bytes);
  EXPECT_EQ(st.budget_bytes - st.locator_bytes, st.mq.budget_bytes);
  EXPECT_LE(st.installed_bytes + st.locator_bytes, st.budget_bytes);
  EXPECT_GT(st.unit_loads, 0u);
  EXPECT_GT(st.unit_evictions, 0u);
  std::fprintf(stderr, "%llu unit loads, %llu evictions, %llu load failures\n",
               static_cast<unsigned long long>(st.unit_loads),
               static_cast<unsigned long long>(st.unit_evictions),
               static_cast<unsigned long long>(st.unit_load_failures));
  std::string stats;
  ASSERT_TRUE(db_->GetProperty("leveldb.io-stats", &stats));
  SCOPED_TRACE(stats + mqs->StatsString());
  EXPECT_NE(std::string::npos, stats.find("compaction_bytes_written"));

  // Quiescent check of every key against the model.
  std::string value;
  const int limit = present_keys_.load();
  for (int i = 0; i < limit; ++i) {
    ASSERT_TRUE(db_->Get(ReadOptions(), Key(i), &value).ok()) << Key(i);
    int got_i;
    uint32_t got_g;
    ASSERT_TRUE(ParseValue(value, &got_i, &got_g));
    ASSERT_EQ(i, got_i);
    ASSERT_EQ(generation_[i].load(), got_g) << Key(i);
    ASSERT_TRUE(db_->Get(ReadOptions(), Key(i, false), &value).IsNotFound());
  }

  // Files compacted away gave their filters back: every file the filter
  // layer still holds is a table on disk.
  DBImplTestPeer::WaitForBackgroundWork(impl);
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren(dbname_, &children).ok());
  std::set<uint64_t> on_disk;
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (ParseFileName(child, &number, &type) && type == kTableFile) {
      on_disk.insert(number);
    }
  }
  for (uint64_t number : MQScheduleTestPeer::RegisteredFiles(mqs)) {
    EXPECT_EQ(1u, on_disk.count(number)) << number;
  }
}

TEST_F(ElasticDBConcurrencyTest, NoFalseNegativeWhileUnitsComeAndGo) {
  ElasticFilterOptions eo;
  eo.segment_bytes = 2048;  // many small segments and units
  // The tables' locators and a few units only.
  eo.memory_budget_bytes = 16384;
  eo.lifetime = 40;  // segments expire quickly
  eo.initial_units = 1;
  policy_.reset(NewElasticFilterPolicy(eo));
  Options o;
  o.env = env_;
  o.create_if_missing = true;
  o.filter_policy = policy_.get();
  o.write_buffer_size = 64 << 10;  // frequent flushes and compactions
  o.max_file_size = 1 << 20;
  RunWorkload(o, eo.memory_budget_bytes);
}

// Far more tables than the table cache holds: tables close and reopen all
// the time, their filters stay, and obsolete files' filters go.
TEST_F(ElasticDBConcurrencyTest, NoFalseNegativeWithMoreTablesThanOpenFiles) {
  ElasticFilterOptions eo;
  eo.bits_per_unit = 2;  // units large enough that the budget forces evictions
  eo.units_per_segment = 12;
  eo.segment_bytes = 2048;
  eo.memory_budget_bytes = 64 << 10;
  eo.lifetime = 40;
  eo.initial_units = 1;
  policy_.reset(NewElasticFilterPolicy(eo));
  Options o;
  o.env = env_;
  o.create_if_missing = true;
  o.filter_policy = policy_.get();
  o.write_buffer_size = 64 << 10;
  o.max_open_files = 0;  // clipped to the smallest table cache (64 tables)
  RunWorkload(o, eo.memory_budget_bytes, /*initial_tables=*/160);
}

// Holds the reads of every thread but one at a gate while it is closed.
class GatedReadsEnv : public EnvWrapper {
 public:
  explicit GatedReadsEnv(Env* base) : EnvWrapper(base) {}

  Status NewRandomAccessFile(const std::string& fname,
                             RandomAccessFile** result) override {
    RandomAccessFile* file = nullptr;
    Status s = target()->NewRandomAccessFile(fname, &file);
    *result = s.ok() ? new GatedFile(file, this) : nullptr;
    return s;
  }

  void Close(std::thread::id free_thread) {
    std::lock_guard<std::mutex> l(mu_);
    free_thread_ = free_thread;
    closed_ = true;
  }
  void Open() {
    std::lock_guard<std::mutex> l(mu_);
    closed_ = false;
    changed_.notify_all();
  }
  int held() {
    std::lock_guard<std::mutex> l(mu_);
    return held_;
  }

 private:
  class GatedFile : public RandomAccessFile {
   public:
    GatedFile(RandomAccessFile* file, GatedReadsEnv* env)
        : file_(file), env_(env) {}
    Status Read(uint64_t offset, size_t n, Slice* result,
                char* scratch) const override {
      env_->Pass();
      return file_->Read(offset, n, result, scratch);
    }

   private:
    std::unique_ptr<RandomAccessFile> file_;
    GatedReadsEnv* const env_;
  };

  void Pass() {
    std::unique_lock<std::mutex> l(mu_);
    if (!closed_ || std::this_thread::get_id() == free_thread_) return;
    ++held_;
    changed_.wait(l, [this] { return !closed_; });
    --held_;
  }

  std::mutex mu_;
  std::condition_variable changed_;
  bool closed_ = false;
  std::thread::id free_thread_;
  int held_ = 0;
};

// A Get never waits for the filter layer's background reads: with every
// background read held at a gate, Gets that open, close and screen tables
// (far more tables than open files) all finish.
TEST_F(ElasticDBConcurrencyTest, GetsNeverWaitForBackgroundUnitLoads) {
  GatedReadsEnv gated(env_);
  ElasticFilterOptions eo;
  eo.segment_bytes = 2048;
  eo.memory_budget_bytes = 1 << 20;
  policy_.reset(NewElasticFilterPolicy(eo));
  Options o;
  o.env = &gated;
  o.create_if_missing = true;
  o.filter_policy = policy_.get();
  o.max_open_files = 0;  // the smallest table cache: 64 tables
  ASSERT_TRUE(DB::Open(o, dbname_, &db_).ok());
  DBImpl* impl = static_cast<DBImpl*>(db_);
  FillDisjointTables(160);
  MQScheduleTestPeer::WaitIdle(DBImplTestPeer::elastic(impl));
  ASSERT_GT(TableCount(), 64);

  std::mutex mu;
  std::condition_variable cv;
  bool go = false;
  bool done = false;
  int errors = 0;
  std::thread getter([&] {
    {
      std::unique_lock<std::mutex> l(mu);
      cv.wait(l, [&] { return go; });
    }
    std::string value;
    int bad = 0;
    for (int pass = 0; pass < 3; ++pass) {
      for (int i = 0; i < kInitialKeys; ++i) {
        if (!db_->Get(ReadOptions(), Key(i), &value).ok()) ++bad;
        if (!db_->Get(ReadOptions(), Key(i, false), &value).IsNotFound()) {
          ++bad;
        }
      }
    }
    std::lock_guard<std::mutex> l(mu);
    errors = bad;
    done = true;
    cv.notify_all();
  });
  gated.Close(getter.get_id());
  {
    std::lock_guard<std::mutex> l(mu);
    go = true;
    cv.notify_all();
  }
  bool finished;
  {
    std::unique_lock<std::mutex> l(mu);
    finished = cv.wait_for(l, std::chrono::seconds(120), [&] { return done; });
  }
  const int held = gated.held();
  gated.Open();
  getter.join();
  EXPECT_TRUE(finished) << "a Get waited for a background read";
  EXPECT_EQ(0, errors);
  // The background thread really was reading units meanwhile.
  EXPECT_GT(held, 0);
  MQScheduleTestPeer::WaitIdle(DBImplTestPeer::elastic(impl));
  delete db_;  // before the Env it reads through
  db_ = nullptr;
}

}  // namespace
}  // namespace leveldb
