// The false-positive memo (elastic/false_positive_memo.h): exact matches
// only, entries of a deleted table dropped, its bytes charged to the
// ElasticBF budget (one database's and a shared one), and through a DB: a
// present key is never screened out, a key memoized absent and later
// written by a compaction is found, a read under an older snapshot records
// nothing. Concurrent Gets, inserts, resizes and forgets run under TSan
// (label concurrency).
#include "elastic/false_positive_memo.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>  // NOLINT
#include <vector>

#include "db/db_impl.h"
#include "elastic/mq_schedule.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/io_stats.h"
#include "leveldb/write_batch.h"
#include "tests/db_impl_test_peer.h"
#include "tests/db_test_helpers.h"
#include "tests/elastic_test_helpers.h"
#include "tests/elastic_test_peer.h"
#include "util/hash64.h"

namespace leveldb {
namespace {

using test::AbsentKey;
using test::PresentKey;

uint64_t HashOf(const std::string& key) {
  return KeyHash64(key.data(), key.size());
}

bool MemoHas(FalsePositiveMemo* memo, uint64_t file, const std::string& key) {
  return memo->Contains(memo->KeyOf(file, HashOf(key), key));
}
void MemoAdd(FalsePositiveMemo* memo, uint64_t file, const std::string& key) {
  memo->Insert(memo->KeyOf(file, HashOf(key), key));
}

TEST(FalsePositiveMemoTest, OffUntilSizedAndRoundedToSets) {
  EpochDomain epoch;
  FalsePositiveMemo memo(&epoch);
  EXPECT_FALSE(memo.active());
  MemoAdd(&memo, 7, "a");
  EXPECT_FALSE(MemoHas(&memo, 7, "a"));
  EXPECT_EQ(0u,
            FalsePositiveMemo::RoundBytes(FalsePositiveMemo::kSetBytes - 1));
  EXPECT_EQ(4 * FalsePositiveMemo::kSetBytes,
            FalsePositiveMemo::RoundBytes(7 * FalsePositiveMemo::kSetBytes));
  EXPECT_EQ(size_t{1} << 16, memo.Resize((size_t{1} << 16) + 100));
  EXPECT_TRUE(memo.active());
  EXPECT_EQ(size_t{1} << 16, memo.bytes());
  EXPECT_EQ(0u, memo.Resize(0));
  EXPECT_FALSE(memo.active());
}

TEST(FalsePositiveMemoTest, MatchesOnlyTheInsertedPairs) {
  EpochDomain epoch;
  FalsePositiveMemo memo(&epoch);
  memo.Resize(size_t{1} << 20);
  for (int i = 0; i < 1000; ++i) MemoAdd(&memo, 5, AbsentKey(i));
  int kept = 0;
  for (int i = 0; i < 1000; ++i) kept += MemoHas(&memo, 5, AbsentKey(i));
  EXPECT_GT(kept, 990);  // only replacement in a full set loses one
  for (int i = 0; i < 1000; ++i) {
    // Another key, or the same key of another table: never a match.
    ASSERT_FALSE(MemoHas(&memo, 5, PresentKey(i))) << i;
    ASSERT_FALSE(MemoHas(&memo, 6, AbsentKey(i))) << i;
  }
  EXPECT_EQ(static_cast<uint64_t>(kept), memo.hits());
  EXPECT_EQ(1000u, memo.inserts());
}

TEST(FalsePositiveMemoTest, TinyFingerprintsCollideWideOnesDoNot) {
  // A 2-bit fingerprint matches a quarter of the keys of a full set: the
  // collisions the 64-bit width makes negligible (docs/elasticbf.md).
  EpochDomain epoch;
  FalsePositiveMemo tiny(&epoch, /*fingerprint_bits=*/2);
  FalsePositiveMemo wide(&epoch);
  tiny.Resize(FalsePositiveMemo::kSetBytes);  // one set
  wide.Resize(FalsePositiveMemo::kSetBytes);
  for (int i = 0; i < 64; ++i) {
    MemoAdd(&tiny, 1, AbsentKey(i));
    MemoAdd(&wide, 1, AbsentKey(i));
  }
  int tiny_false = 0;
  int wide_false = 0;
  for (int i = 0; i < 4000; ++i) {
    tiny_false += MemoHas(&tiny, 1, PresentKey(i));
    wide_false += MemoHas(&wide, 1, PresentKey(i));
  }
  EXPECT_GT(tiny_false, 0);
  EXPECT_EQ(0, wide_false);
}

// The rank (0: newest) at which `key` of `file` is hit, or -1 if absent.
int RankOf(FalsePositiveMemo* memo, uint64_t file, const std::string& key) {
  uint64_t before[FalsePositiveMemo::kWays];
  for (int r = 0; r < FalsePositiveMemo::kWays; ++r) {
    before[r] = memo->hits_at(r);
  }
  if (!MemoHas(memo, file, key)) return -1;
  for (int r = 0; r < FalsePositiveMemo::kWays; ++r) {
    if (memo->hits_at(r) != before[r]) return r;
  }
  return -2;  // a hit counted at no rank
}

TEST(FalsePositiveMemoTest, HitsAreCountedByTheEntrysAgeInItsSet) {
  EpochDomain epoch;
  FalsePositiveMemo memo(&epoch);
  memo.Resize(FalsePositiveMemo::kSetBytes);  // one set: every key shares it
  for (int i = 0; i < FalsePositiveMemo::kWays; ++i) {
    MemoAdd(&memo, 9, AbsentKey(i));
  }
  for (int i = 0; i < FalsePositiveMemo::kWays; ++i) {
    EXPECT_EQ(FalsePositiveMemo::kWays - 1 - i, RankOf(&memo, 9, AbsentKey(i)))
        << i;
  }
  EXPECT_EQ(static_cast<uint64_t>(FalsePositiveMemo::kWays), memo.hits());
  // A full set: the newest entries keep the younger half; one of the older
  // half drops out.
  MemoAdd(&memo, 9, AbsentKey(100));
  EXPECT_EQ(0, RankOf(&memo, 9, AbsentKey(100)));
  EXPECT_EQ(1, RankOf(&memo, 9, AbsentKey(3)));
  EXPECT_EQ(2, RankOf(&memo, 9, AbsentKey(2)));
  EXPECT_EQ(FalsePositiveMemo::kWays, static_cast<int>(memo.CountEntries()));
  const int kept = (RankOf(&memo, 9, AbsentKey(0)) >= 0) +
                   (RankOf(&memo, 9, AbsentKey(1)) >= 0);
  EXPECT_EQ(1, kept);
  // Inserting a pair already there changes nothing.
  MemoAdd(&memo, 9, AbsentKey(3));
  EXPECT_EQ(1, RankOf(&memo, 9, AbsentKey(3)));
}

TEST(FalsePositiveMemoTest, ResizingKeepsTheEntriesThatFit) {
  EpochDomain epoch;
  FalsePositiveMemo memo(&epoch);
  memo.Resize(8 * FalsePositiveMemo::kSetBytes);
  const int kKeys = 24;  // fewer than the slots: few sets overflow
  for (int i = 0; i < kKeys; ++i) MemoAdd(&memo, 2, AbsentKey(i));
  std::vector<int> rank(kKeys);
  for (int i = 0; i < kKeys; ++i) rank[i] = RankOf(&memo, 2, AbsentKey(i));
  const size_t held = memo.CountEntries();
  // Doubling moves every entry to its set of the new size.
  memo.Resize(16 * FalsePositiveMemo::kSetBytes);
  EXPECT_EQ(held, memo.CountEntries());
  for (int i = 0; i < kKeys; ++i) {
    EXPECT_EQ(rank[i] >= 0, MemoHas(&memo, 2, AbsentKey(i))) << i;
  }
  // Quartering merges four sets into one: their newest entries come first,
  // so every entry that was newest in its set (rank 0) stays.
  memo.Resize(4 * FalsePositiveMemo::kSetBytes);
  EXPECT_LE(memo.CountEntries(), 4u * FalsePositiveMemo::kWays);
  EXPECT_LT(memo.CountEntries(), held);
  for (int i = 0; i < kKeys; ++i) {
    if (rank[i] == 0) {
      EXPECT_TRUE(MemoHas(&memo, 2, AbsentKey(i))) << i;
    }
  }
  // No pair that was never inserted matches after the moves.
  for (int i = 0; i < 1000; ++i) ASSERT_FALSE(MemoHas(&memo, 2, PresentKey(i)));
  memo.Resize(0);
  memo.Resize(8 * FalsePositiveMemo::kSetBytes);
  EXPECT_EQ(0u, memo.CountEntries());
}

TEST(FalsePositiveMemoTest, ForgetClearsOnlyThatFile) {
  EpochDomain epoch;
  FalsePositiveMemo memo(&epoch);
  memo.Resize(size_t{1} << 16);
  for (int i = 0; i < 100; ++i) {
    MemoAdd(&memo, 3, AbsentKey(i));
    MemoAdd(&memo, 4, AbsentKey(i));
  }
  const size_t of4 = memo.CountEntries(4);
  ASSERT_GT(memo.CountEntries(3), 0u);
  ASSERT_GT(of4, 0u);
  memo.Forget(3);
  EXPECT_EQ(0u, memo.CountEntries(3));
  EXPECT_EQ(of4, memo.CountEntries(4));
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(MemoHas(&memo, 3, AbsentKey(i)));
}

TEST(FalsePositiveMemoTest, ConcurrentLookupsInsertsResizesAndForgets) {
  EpochDomain epoch;
  FalsePositiveMemo memo(&epoch);
  memo.Resize(size_t{1} << 14);
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        for (int i = 0; i < 300; ++i) {
          MemoAdd(&memo, 10 + t, AbsentKey(i));
          // Present keys are never inserted: never matched either.
          if (MemoHas(&memo, 10 + t, PresentKey(i))) ++wrong;
          MemoHas(&memo, 10 + t, AbsentKey(i));
        }
      }
    });
  }
  std::thread background([&] {
    size_t bytes = size_t{1} << 12;
    while (!stop.load()) {
      memo.Forget(10);
      memo.Resize(bytes);
      bytes = bytes == (size_t{1} << 12) ? size_t{1} << 13 : size_t{1} << 12;
      epoch.Reclaim();
    }
  });
  for (std::thread& t : threads) t.join();
  stop = true;
  background.join();
  EXPECT_EQ(0, wrong.load());
  EXPECT_GT(memo.inserts(), 0u);
}

// Through a DB: filter units of one Ribbon plane let half of the absent
// keys through, so the memo has work.
class FalsePositiveMemoDBTest : public test::DBTestBase<testing::Test> {
 protected:
  FalsePositiveMemoDBTest() : DBTestBase("false_positive_memo_test") {}

  Options MemoOptions(size_t memo_bytes, size_t budget_bytes = 1 << 20) {
    ElasticFilterOptions eo;
    eo.bits_per_unit = 1;
    eo.units_per_segment = 1;
    eo.memory_budget_bytes = budget_bytes;
    eo.false_positive_memo_bytes = memo_bytes;
    Options o = DefaultOptions();
    o.filter_policy = KeepPolicy(NewElasticFilterPolicy(eo));
    return o;
  }

  MQSchedule* mqs() { return DBImplTestPeer::elastic(dbfull()); }
  FalsePositiveMemo* memo() { return mqs()->layer()->memo(); }

  void Fill(int begin, int end, bool absent_keys = false) {
    WriteBatch batch;
    for (int i = begin; i < end; ++i) {
      const std::string key = absent_keys ? AbsentKey(i) : PresentKey(i);
      batch.Put(key, "v" + key);
    }
    ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());
  }
  void FlushAll() {
    ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
    MQScheduleTestPeer::WaitIdle(mqs());
  }
  uint64_t FalsePositives() {
    std::string text;
    EXPECT_TRUE(db_->GetProperty("leveldb.io-stats", &text));
    const size_t at = text.find("false_positives:");
    if (at == std::string::npos) return 0;
    return std::stoull(text.substr(text.find_first_of("0123456789", at)));
  }
};

TEST_F(FalsePositiveMemoDBTest, RepeatedFalsePositivesArePaidOnce) {
  // A budget large enough for the memo to start at its request.
  Open(MemoOptions(size_t{1} << 16, size_t{1} << 23));
  Fill(0, 4000);
  FlushAll();
  for (int i = 0; i < 4000; ++i) ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  const uint64_t first = FalsePositives();
  ASSERT_GT(first, 100u);
  EXPECT_GT(memo()->inserts(), 0u);
  for (int i = 0; i < 4000; ++i) ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  // The second pass pays only for entries lost to full sets.
  EXPECT_LT(FalsePositives() - first, first / 10);
  EXPECT_GT(memo()->hits(), 0u);
  for (int i = 0; i < 4000; ++i) {
    ASSERT_EQ("v" + PresentKey(i), Get(PresentKey(i))) << i;
  }
}

TEST_F(FalsePositiveMemoDBTest, KeysMemoizedAbsentAreFoundOnceWritten) {
  Open(MemoOptions(size_t{1} << 16));
  Fill(0, 3000);
  FlushAll();
  for (int i = 0; i < 3000; ++i) ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  ASSERT_GT(memo()->CountEntries(), 0u);
  const std::vector<uint64_t> before = FileNumbers(kTableFile);
  // The absent keys move into a new table; the compaction replaces the old.
  Fill(0, 3000, /*absent_keys=*/true);
  FlushAll();
  db_->CompactRange(nullptr, nullptr);
  MQScheduleTestPeer::WaitIdle(mqs());
  const std::vector<uint64_t> after = FileNumbers(kTableFile);
  for (uint64_t number : before) {
    ASSERT_EQ(after.end(), std::find(after.begin(), after.end(), number));
  }
  for (int i = 0; i < 3000; ++i) {
    ASSERT_EQ("v" + AbsentKey(i), Get(AbsentKey(i))) << i;
    ASSERT_EQ("v" + PresentKey(i), Get(PresentKey(i))) << i;
  }
  // The entries of deleted tables were dropped with them.
  for (uint64_t number : before) {
    EXPECT_EQ(0u, memo()->CountEntries(number)) << number;
  }
}

TEST_F(FalsePositiveMemoDBTest, ReadsUnderAnOlderSnapshotRecordNothing) {
  Open(MemoOptions(size_t{1} << 16));
  const Snapshot* old = db_->GetSnapshot();
  Fill(0, 2000);
  FlushAll();
  // The table holds every key, above the snapshot: each read lands past
  // the key's entries, which is no proof of absence.
  for (int i = 0; i < 2000; ++i)
    ASSERT_EQ("NOT_FOUND", Get(PresentKey(i), old));
  EXPECT_EQ(0u, memo()->inserts());
  db_->ReleaseSnapshot(old);
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ("v" + PresentKey(i), Get(PresentKey(i))) << i;
  }
}

// Until its first decision (MemoSizer) a memo takes its request, but no
// more than 1/64 of what the locators leave; memos never take more than
// 1/8 of it.
size_t StartingMemoBytes(size_t request, const MQSchedule::Stats& st) {
  return FalsePositiveMemo::RoundBytes(
      std::min<size_t>(request, (st.budget_bytes - st.locator_bytes) / 64));
}

TEST_F(FalsePositiveMemoDBTest, MemoBytesAreChargedToTheBudget) {
  const size_t budget = size_t{1} << 19;
  Open(MemoOptions(size_t{1} << 12, budget));
  Fill(0, 3000);
  FlushAll();
  MQSchedule::Stats st = MQScheduleTestPeer::GetStats(mqs());
  EXPECT_EQ(size_t{1} << 12, st.memo_bytes);
  EXPECT_EQ(st.memo_bytes, StartingMemoBytes(size_t{1} << 12, st));
  EXPECT_EQ(budget, st.budget_bytes);
  EXPECT_EQ(st.budget_bytes - st.locator_bytes - st.memo_bytes,
            st.mq.budget_bytes);
  EXPECT_LE(st.installed_bytes + st.locator_bytes + st.memo_bytes,
            st.budget_bytes);
  uint64_t used = 0;
  uint64_t limit = 0;
  mqs()->GetMemory(&used, &limit);
  EXPECT_EQ(st.installed_bytes + st.locator_bytes + st.memo_bytes, used);

  // A memo asking for more than the budget starts at its share of it.
  Open(MemoOptions(size_t{1} << 20, budget));
  MQScheduleTestPeer::WaitIdle(mqs());
  st = MQScheduleTestPeer::GetStats(mqs());
  EXPECT_GT(st.memo_bytes, 0u);
  EXPECT_EQ(StartingMemoBytes(size_t{1} << 20, st), st.memo_bytes);
  EXPECT_EQ(st.budget_bytes - st.locator_bytes - st.memo_bytes,
            st.mq.budget_bytes);
}

TEST_F(FalsePositiveMemoDBTest, SharedBudgetCountsEveryMembersMemo) {
  std::unique_ptr<ElasticFilterBudget> shared(
      NewElasticFilterBudget(size_t{1} << 20));
  ElasticFilterOptions eo;
  eo.shared_budget = shared.get();
  eo.false_positive_memo_bytes = size_t{1} << 13;
  Options o = DefaultOptions();
  o.filter_policy = KeepPolicy(NewElasticFilterPolicy(eo));
  Open(o);
  Fill(0, 2000);
  FlushAll();
  const std::string other_name = dbname_ + "_other";
  DB* other = nullptr;
  o.create_if_missing = true;
  ASSERT_TRUE(DB::Open(o, other_name, &other).ok());
  MQSchedule::Stats st = MQScheduleTestPeer::GetStats(mqs());
  EXPECT_EQ(2u, st.members);
  EXPECT_EQ(size_t{1} << 13, StartingMemoBytes(size_t{1} << 13, st));
  EXPECT_EQ(2 * (size_t{1} << 13), st.memo_bytes);
  EXPECT_EQ(st.budget_bytes - st.locator_bytes - st.memo_bytes,
            st.mq.budget_bytes);
  delete other;
  st = MQScheduleTestPeer::GetStats(mqs());
  EXPECT_EQ(size_t{1} << 13, st.memo_bytes);  // the leaver's went with it
  Close();
  DestroyDB(other_name, o);
}

}  // namespace
}  // namespace leveldb
