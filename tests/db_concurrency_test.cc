// Many threads on one DB: writers, point readers, scanning iterators and a
// thread that holds snapshots and runs manual compactions, all at once,
// with small memtables so that flushes and compactions overlap everything.
// Checks: values of a key never go backwards for a reader; every iterator
// and snapshot sees one point in time (pairs written by one batch agree);
// snapshots stay stable across compactions; at the end the DB holds exactly
// the last acknowledged write of every key. A second test mixes synced and
// unsynced writes from many threads (group commit) and checks that every
// write is there, also after a reopen.
//
// Sized to run in a few seconds under ThreadSanitizer on two cores.

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/write_batch.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "tests/db_test_helpers.h"
#include "tests/test_util.h"
#include "util/mutexlock.h"
#include "util/random.h"

namespace leveldb {
namespace {

constexpr int kWriters = 4;
constexpr int kPairsPerWriter = 40;
constexpr int kWritesPerWriter = 4000;
constexpr size_t kValueSize = 120;

// Collects failures from any thread; the main thread reports them.
class ErrorLog {
 public:
  void Add(const std::string& msg) {
    MutexLock l(&mu_);
    if (errors_.size() < 20) errors_.push_back(msg);
    ++count_;
  }

  int count() {
    MutexLock l(&mu_);
    return count_;
  }

  std::string Summary() {
    MutexLock l(&mu_);
    std::string out;
    for (const std::string& e : errors_) out += "  " + e + "\n";
    return out;
  }

 private:
  port::Mutex mu_;
  std::vector<std::string> errors_ GUARDED_BY(mu_);
  int count_ GUARDED_BY(mu_) = 0;
};

std::string PairKey(int writer, int pair, char side) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "w%d-p%03d-%c", writer, pair, side);
  return buf;
}

// Writer w's n-th write, padded with a filler that depends on both, so a
// torn or mixed-up value does not parse.
std::string MakeValue(int writer, int64_t n) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "w=%d n=%010" PRId64 " ", writer, n);
  std::string v(buf);
  v.resize(kValueSize, static_cast<char>('a' + (writer * 7 + n) % 26));
  return v;
}

// Returns n, or -1 if `v` is not a value MakeValue(writer, n) could make.
int64_t ParseValue(const Slice& v, int writer) {
  int w = -1;
  int64_t n = -1;
  const std::string s = v.ToString();
  if (std::sscanf(s.c_str(), "w=%d n=%" SCNd64 " ", &w, &n) != 2) return -1;
  if (w != writer || n < 0 || s != MakeValue(writer, n)) return -1;
  return n;
}

// Splits "w<w>-p<ppp>-<side>".
bool ParseKey(const Slice& k, int* writer, int* pair, char* side) {
  const std::string s = k.ToString();
  return s.size() == 9 &&
         std::sscanf(s.c_str(), "w%d-p%d-%c", writer, pair, side) == 3;
}

class ConcurrencyTest : public test::DBTestBase<::testing::Test> {
 protected:
  ConcurrencyTest() : DBTestBase("concurrency") {}

  Options MakeOptions() const {
    Options options = DefaultOptions();
    options.write_buffer_size = 64 * 1024;  // flushes all the time
    options.max_file_size = 64 * 1024;      // many tables, real compactions
    return options;
  }

  // Closes the DB, if open, and opens it again with MakeOptions().
  void Open() { DBTestBase::Open(MakeOptions()); }

  // Reads the whole DB through one iterator (one snapshot) and checks it:
  // every key well-formed, every value valid, both halves of every pair
  // equal. Fills *seen with the n of each pair when non-null.
  void CheckScan(Iterator* it, bool backwards, const char* who,
                 std::map<std::string, int64_t>* seen) {
    std::map<std::string, int64_t> values;
    std::string previous;
    int entries = 0;
    if (backwards) {
      it->SeekToLast();
    } else {
      it->SeekToFirst();
    }
    for (; it->Valid(); backwards ? it->Prev() : it->Next()) {
      const std::string key = it->key().ToString();
      if (entries++ > 0 && (backwards ? key >= previous : key <= previous)) {
        errors_.Add(std::string(who) + ": keys out of order: " + previous +
                    " then " + key);
        return;
      }
      previous = key;
      int w, p;
      char side;
      if (!ParseKey(it->key(), &w, &p, &side)) {
        errors_.Add(std::string(who) + ": unexpected key " + key);
        return;
      }
      const int64_t n = ParseValue(it->value(), w);
      if (n < 0) {
        errors_.Add(std::string(who) + ": bad value for " + key);
        return;
      }
      values[key] = n;
    }
    if (!it->status().ok()) {
      errors_.Add(std::string(who) + ": iterator error " +
                  it->status().ToString());
      return;
    }
    for (const auto& e : values) {
      if (e.first.back() != 'a') continue;
      std::string other = e.first;
      other.back() = 'b';
      auto b = values.find(other);
      const int64_t nb = b == values.end() ? -1 : b->second;
      if (nb != e.second) {
        errors_.Add(std::string(who) + ": torn batch: " + e.first + "=" +
                    std::to_string(e.second) + " but " + other + "=" +
                    std::to_string(nb));
        return;
      }
    }
    for (const auto& e : values) {
      std::string other = e.first;
      other.back() = 'a';
      if (e.first.back() == 'b' && values.count(other) == 0) {
        errors_.Add(std::string(who) + ": " + e.first + " without its pair");
        return;
      }
    }
    if (seen != nullptr) *seen = std::move(values);
  }

  ErrorLog errors_;
};

TEST_F(ConcurrencyTest, WritersReadersIteratorsSnapshotsCompactions) {
  Open();
  std::atomic<int> writers_running{kWriters};
  // last_written[w][p]: the n of writer w's last acknowledged write of pair
  // p. Each entry is written only by its writer, read after join().
  std::vector<std::vector<int64_t>> last_written(
      kWriters, std::vector<int64_t>(kPairsPerWriter, -1));
  std::atomic<int64_t> reads{0}, scans{0}, snapshots{0}, compactions{0};

  auto writer = [&](int w) {
    Random rnd(test::RandomSeed() + 1000 * w);
    for (int64_t n = 0; n < kWritesPerWriter; ++n) {
      const int p = static_cast<int>(rnd.Uniform(kPairsPerWriter));
      WriteBatch batch;
      const std::string v = MakeValue(w, n);
      batch.Put(PairKey(w, p, 'a'), v);
      batch.Put(PairKey(w, p, 'b'), v);
      WriteOptions wo;
      wo.sync = rnd.OneIn(50);
      Status s = db_->Write(wo, &batch);
      if (!s.ok()) {
        errors_.Add("writer " + std::to_string(w) + ": " + s.ToString());
        break;
      }
      last_written[w][p] = n;
    }
    writers_running.fetch_sub(1);
  };

  // Point reads: for one reader, a key's value never goes backwards.
  auto reader = [&](int r) {
    Random rnd(test::RandomSeed() + 77 * r);
    std::map<std::string, int64_t> latest;
    while (writers_running.load() > 0) {
      const int w = static_cast<int>(rnd.Uniform(kWriters));
      const int p = static_cast<int>(rnd.Uniform(kPairsPerWriter));
      const std::string key = PairKey(w, p, rnd.OneIn(2) ? 'a' : 'b');
      std::string v;
      Status s = db_->Get(ReadOptions(), key, &v);
      reads.fetch_add(1);
      int64_t n = -1;
      if (s.ok()) {
        n = ParseValue(v, w);
        if (n < 0) {
          errors_.Add("reader: bad value for " + key);
          continue;
        }
      } else if (!s.IsNotFound()) {
        errors_.Add("reader: " + key + ": " + s.ToString());
        continue;
      }
      auto it = latest.find(key);
      if (it != latest.end() && n < it->second) {
        errors_.Add("reader: " + key + " went back from " +
                    std::to_string(it->second) + " to " + std::to_string(n));
      }
      latest[key] = n;
    }
  };

  // Full scans, alternating direction: one point in time per scan, and
  // no pair goes backwards from one scan to the next.
  auto scanner = [&]() {
    std::map<std::string, int64_t> before;
    bool backwards = false;
    while (writers_running.load() > 0) {
      std::map<std::string, int64_t> now;
      Iterator* it = db_->NewIterator(ReadOptions());
      CheckScan(it, backwards, "scanner", &now);
      delete it;
      for (const auto& e : before) {
        auto found = now.find(e.first);
        if (found == now.end() || found->second < e.second) {
          errors_.Add("scanner: " + e.first + " went back between scans");
          break;
        }
      }
      before = std::move(now);
      backwards = !backwards;
      scans.fetch_add(1);
    }
  };

  // Snapshots that outlive compactions: what a snapshot reads must not
  // change, whatever compaction runs meanwhile.
  auto snapshotter = [&]() {
    Random rnd(test::RandomSeed() + 5);
    while (writers_running.load() > 0) {
      const Snapshot* snap = db_->GetSnapshot();
      ReadOptions ro;
      ro.snapshot = snap;
      std::map<std::string, int64_t> first;
      Iterator* it = db_->NewIterator(ro);
      CheckScan(it, false, "snapshot scan", &first);
      delete it;

      // A manual compaction over a random range of one writer's keys (or
      // of everything, now and then).
      if (rnd.OneIn(8)) {
        db_->CompactRange(nullptr, nullptr);
      } else {
        const int w = static_cast<int>(rnd.Uniform(kWriters));
        const int lo = static_cast<int>(rnd.Uniform(kPairsPerWriter));
        const int hi = lo + static_cast<int>(rnd.Uniform(kPairsPerWriter - lo));
        const std::string begin = PairKey(w, lo, 'a');
        const std::string end = PairKey(w, hi, 'b');
        const Slice b(begin), e(end);
        db_->CompactRange(&b, &e);
      }
      compactions.fetch_add(1);

      std::map<std::string, int64_t> second;
      it = db_->NewIterator(ro);
      CheckScan(it, true, "snapshot rescan", &second);
      delete it;
      if (first != second) {
        errors_.Add("snapshot changed across a compaction (" +
                    std::to_string(first.size()) + " vs " +
                    std::to_string(second.size()) + " keys)");
      }
      // Point reads through the snapshot agree with its scan.
      for (int i = 0; i < 20 && !first.empty(); ++i) {
        auto pick = first.begin();
        std::advance(pick, rnd.Uniform(static_cast<int>(first.size())));
        std::string v;
        Status s = db_->Get(ro, pick->first, &v);
        int w, p;
        char side;
        ParseKey(pick->first, &w, &p, &side);
        if (!s.ok() || ParseValue(v, w) != pick->second) {
          errors_.Add("snapshot Get of " + pick->first +
                      " disagrees with its scan: " + s.ToString());
          break;
        }
      }
      db_->ReleaseSnapshot(snap);
      snapshots.fetch_add(1);
    }
  };

  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) threads.emplace_back(writer, w);
  for (int r = 0; r < 2; ++r) threads.emplace_back(reader, r);
  threads.emplace_back(scanner);
  threads.emplace_back(snapshotter);
  for (std::thread& t : threads) t.join();

  std::fprintf(stderr,
               "%d writes, %" PRId64 " reads, %" PRId64 " scans, %" PRId64
               " snapshots, %" PRId64 " manual compactions\n",
               kWriters * kWritesPerWriter, reads.load(), scans.load(),
               snapshots.load(), compactions.load());
  ASSERT_EQ(0, errors_.count()) << errors_.Summary();
  // The checks above must actually have run alongside the writers.
  EXPECT_GT(reads.load(), 0);
  EXPECT_GT(scans.load(), 0);
  EXPECT_GT(snapshots.load(), 0);

  // The final state is exactly the last write of every pair.
  auto verify_final = [&](const char* when) {
    std::map<std::string, int64_t> final_state;
    Iterator* it = db_->NewIterator(ReadOptions());
    CheckScan(it, false, when, &final_state);
    delete it;
    ASSERT_EQ(0, errors_.count()) << errors_.Summary();
    size_t expected_keys = 0;
    for (int w = 0; w < kWriters; ++w) {
      for (int p = 0; p < kPairsPerWriter; ++p) {
        const int64_t n = last_written[w][p];
        if (n < 0) continue;
        expected_keys += 2;
        auto found = final_state.find(PairKey(w, p, 'a'));
        ASSERT_TRUE(found != final_state.end()) << PairKey(w, p, 'a');
        ASSERT_EQ(n, found->second) << PairKey(w, p, 'a') << " " << when;
      }
    }
    ASSERT_EQ(expected_keys, final_state.size()) << when;
  };
  verify_final("after the run");
  Open();
  verify_final("after reopening");
}

// Group commit: many threads write at once, synced and unsynced writes and
// batches mixed, so the leader merges writes of different kinds.
TEST_F(ConcurrencyTest, GroupCommitKeepsEveryWrite) {
  Open();
  constexpr int kThreads = 8;
  constexpr int kPerThread = 400;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t]() {
      Random rnd(test::RandomSeed() + 31 * t);
      for (int i = 0; i < kPerThread; ++i) {
        WriteOptions wo;
        wo.sync = rnd.OneIn(3);
        char key[32];
        std::snprintf(key, sizeof(key), "t%02d-%05d", t, i);
        const std::string value = MakeValue(t, i);
        Status s;
        if (rnd.OneIn(4)) {
          // A batch with the key, a scratch key and its deletion.
          WriteBatch batch;
          batch.Put(std::string(key) + "-tmp", "scratch");
          batch.Put(key, value);
          batch.Delete(std::string(key) + "-tmp");
          s = db_->Write(wo, &batch);
        } else {
          s = db_->Put(wo, key, value);
        }
        if (!s.ok()) {
          errors_.Add(std::string(key) + ": " + s.ToString());
          return;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  ASSERT_EQ(0, errors_.count()) << errors_.Summary();

  auto verify = [&](const char* when) {
    int found = 0;
    Iterator* it = db_->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++found) {
      int t = -1, i = -1;
      const std::string key = it->key().ToString();
      ASSERT_EQ(2, std::sscanf(key.c_str(), "t%d-%d", &t, &i)) << key;
      char expected_key[32];
      std::snprintf(expected_key, sizeof(expected_key), "t%02d-%05d", t, i);
      ASSERT_EQ(expected_key, key) << when << ": stray key";
      ASSERT_EQ(MakeValue(t, i), it->value().ToString()) << key << " " << when;
    }
    ASSERT_TRUE(it->status().ok()) << it->status().ToString();
    delete it;
    ASSERT_EQ(kThreads * kPerThread, found) << when;
  };
  verify("live");
  Open();
  verify("after reopening");
}

}  // namespace
}  // namespace leveldb
