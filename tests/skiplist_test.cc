#include "db/skiplist.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "util/arena.h"
#include "util/random.h"

namespace leveldb {
namespace {

using Key = uint64_t;

struct U64Compare {
  int operator()(const Key& a, const Key& b) const {
    if (a < b) return -1;
    if (a > b) return 1;
    return 0;
  }
};

using List = SkipList<Key, U64Compare>;

TEST(SkipListTest, Empty) {
  Arena arena;
  List list(U64Compare(), &arena);
  EXPECT_FALSE(list.Contains(10));
  EXPECT_FALSE(list.Contains(0));

  List::Iterator it(&list);
  EXPECT_FALSE(it.Valid());
  it.SeekToFirst();
  EXPECT_FALSE(it.Valid());
  it.Seek(100);
  EXPECT_FALSE(it.Valid());
  it.SeekToLast();
  EXPECT_FALSE(it.Valid());
}

TEST(SkipListTest, SingleKey) {
  Arena arena;
  List list(U64Compare(), &arena);
  list.Insert(5);
  EXPECT_TRUE(list.Contains(5));
  EXPECT_FALSE(list.Contains(4));
  EXPECT_FALSE(list.Contains(6));

  List::Iterator it(&list);
  it.SeekToFirst();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(5u, it.key());
  it.Next();
  EXPECT_FALSE(it.Valid());

  it.SeekToLast();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(5u, it.key());
  it.Prev();
  EXPECT_FALSE(it.Valid());

  it.Seek(0);
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(5u, it.key());
  it.Seek(5);
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(5u, it.key());
  it.Seek(6);
  EXPECT_FALSE(it.Valid());
}

TEST(SkipListTest, MatchesSetModel) {
  const int kInserts = 2000;
  const Key kRange = 5000;
  Random rnd(test::RandomSeed());
  Arena arena;
  List list(U64Compare(), &arena);
  std::set<Key> model;

  for (int i = 0; i < kInserts; ++i) {
    const Key k = rnd.Next() % kRange;
    if (model.insert(k).second) list.Insert(k);
  }

  for (Key k = 0; k < kRange; ++k) {
    ASSERT_EQ(model.count(k) == 1, list.Contains(k)) << k;
  }

  // Forward scan.
  {
    List::Iterator it(&list);
    it.SeekToFirst();
    for (Key expected : model) {
      ASSERT_TRUE(it.Valid());
      ASSERT_EQ(expected, it.key());
      it.Next();
    }
    EXPECT_FALSE(it.Valid());
  }

  // Backward scan.
  {
    List::Iterator it(&list);
    it.SeekToLast();
    for (auto m = model.rbegin(); m != model.rend(); ++m) {
      ASSERT_TRUE(it.Valid());
      ASSERT_EQ(*m, it.key());
      it.Prev();
    }
    EXPECT_FALSE(it.Valid());
  }

  // Seek to every possible target, then walk a few steps each way.
  for (Key target = 0; target <= kRange; ++target) {
    List::Iterator it(&list);
    it.Seek(target);
    auto m = model.lower_bound(target);
    if (m == model.end()) {
      ASSERT_FALSE(it.Valid());
      continue;
    }
    ASSERT_TRUE(it.Valid());
    ASSERT_EQ(*m, it.key());

    List::Iterator fwd = it;
    auto mf = m;
    for (int step = 0; step < 3 && mf != model.end(); ++step) {
      ASSERT_TRUE(fwd.Valid());
      ASSERT_EQ(*mf, fwd.key());
      fwd.Next();
      ++mf;
    }
    if (mf == model.end()) {
      EXPECT_FALSE(fwd.Valid());
    }

    List::Iterator back = it;
    auto mb = m;
    for (int step = 0; step < 3; ++step) {
      if (mb == model.begin()) {
        back.Prev();
        ASSERT_FALSE(back.Valid());
        break;
      }
      back.Prev();
      --mb;
      ASSERT_TRUE(back.Valid());
      ASSERT_EQ(*mb, back.key());
    }
  }
}

TEST(SkipListTest, ExtremeKeys) {
  Arena arena;
  List list(U64Compare(), &arena);
  const Key kMax = ~Key{0};
  list.Insert(kMax);
  list.Insert(0);
  list.Insert(kMax / 2);
  EXPECT_TRUE(list.Contains(0));
  EXPECT_TRUE(list.Contains(kMax));
  List::Iterator it(&list);
  it.SeekToLast();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(kMax, it.key());
  it.Seek(1);
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(kMax / 2, it.key());
  it.SeekToFirst();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(0u, it.key());
}

TEST(SkipListTest, AscendingAndDescendingInserts) {
  // Monotone insertion orders exercise the head and tail paths.
  Arena arena;
  List list(U64Compare(), &arena);
  for (Key k = 1000; k < 2000; ++k) list.Insert(k);
  for (Key k = 999; k > 0; --k) list.Insert(k);
  List::Iterator it(&list);
  it.SeekToFirst();
  for (Key k = 1; k < 2000; ++k) {
    ASSERT_TRUE(it.Valid());
    ASSERT_EQ(k, it.key());
    it.Next();
  }
  EXPECT_FALSE(it.Valid());
}

// One writer inserts a fixed sequence of distinct keys, announcing after
// each Insert how many are done. Readers repeatedly record that count, then
// scan: the scan must be strictly increasing and contain every key whose
// insertion was announced before the scan began.
class ConcurrentState {
 public:
  explicit ConcurrentState(size_t n) : list_(U64Compare(), &arena_) {
    Random rnd(test::RandomSeed() + 17);
    std::set<Key> seen;
    while (order_.size() < n) {
      const Key k = (static_cast<Key>(rnd.Next()) << 31) ^ rnd.Next();
      if (seen.insert(k).second) order_.push_back(k);
    }
  }

  void WriterLoop() {
    for (size_t i = 0; i < order_.size(); ++i) {
      list_.Insert(order_[i]);
      published_.store(i + 1, std::memory_order_release);
      // Give readers a chance to run while the list is still growing.
      if (i % 256 == 0) std::this_thread::yield();
    }
    done_.store(true, std::memory_order_release);
  }

  // Returns the number of scans performed; failures are gtest assertions.
  int ReaderLoop(int reader_id) {
    Random rnd(1000 + reader_id);
    int scans = 0;
    bool last_pass = false;
    size_t previous = 0;
    while (!last_pass) {
      // The final scan starts after the writer finished, so it must see
      // every key. Until then, rescan only when the list has grown, and
      // within a budget that bounds the run time.
      last_pass = done_.load(std::memory_order_acquire);
      const size_t announced = published_.load(std::memory_order_acquire);
      if (!last_pass && (announced == previous || scans >= kMaxScans)) {
        std::this_thread::yield();
        continue;
      }
      previous = announced;

      std::vector<Key> scanned;
      List::Iterator it(&list_);
      for (it.SeekToFirst(); it.Valid(); it.Next()) {
        if (!scanned.empty() && scanned.back() >= it.key()) {
          ADD_FAILURE() << "out of order: " << scanned.back() << " then "
                        << it.key();
          return scans;
        }
        scanned.push_back(it.key());
      }
      if (scanned.size() < announced) {
        ADD_FAILURE() << "scan saw " << scanned.size() << " keys but "
                      << announced << " were announced";
        return scans;
      }
      for (size_t i = 0; i < announced; ++i) {
        if (!std::binary_search(scanned.begin(), scanned.end(), order_[i])) {
          ADD_FAILURE() << "announced key " << order_[i] << " missing";
          return scans;
        }
      }

      // Point checks: an announced key is found by Seek and Contains.
      if (announced > 0) {
        const Key k = order_[rnd.Uniform(static_cast<int>(announced))];
        List::Iterator probe(&list_);
        probe.Seek(k);
        if (!probe.Valid() || probe.key() != k || !list_.Contains(k)) {
          ADD_FAILURE() << "announced key " << k << " not found by Seek";
          return scans;
        }
      }
      ++scans;
    }
    return scans;
  }

  size_t size() const { return order_.size(); }

 private:
  // Bounds the run time whatever the scheduling.
  static constexpr int kMaxScans = 2000;

  std::vector<Key> order_;
  Arena arena_;
  List list_;
  std::atomic<size_t> published_{0};
  std::atomic<bool> done_{false};
};

TEST(SkipListTest, ConcurrentReadersSeeAnnouncedKeys) {
  // Several short rounds keep the run time bounded while varying the
  // interleavings.
  for (int round = 0; round < 4; ++round) {
    ConcurrentState state(20000);
    constexpr int kReaders = 3;
    std::vector<int> scans(kReaders, 0);
    std::vector<std::thread> readers;
    for (int r = 0; r < kReaders; ++r) {
      readers.emplace_back(
          [&state, &scans, r] { scans[r] = state.ReaderLoop(r); });
    }
    std::thread writer([&state] { state.WriterLoop(); });
    writer.join();
    for (std::thread& t : readers) t.join();
    for (int r = 0; r < kReaders; ++r) {
      // Every reader completes at least its final, post-writer scan.
      EXPECT_GE(scans[r], 1) << "reader " << r;
    }
    if (testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace leveldb
