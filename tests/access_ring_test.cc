// AccessRing: order, a full ring drops records, wrap-around, and many
// producers with one consumer lose nothing they were told was queued.
#include "elastic/access_ring.h"

#include <atomic>
#include <thread>  // NOLINT
#include <vector>

#include "gtest/gtest.h"

namespace leveldb {
namespace {

TEST(AccessRingTest, CapacityIsAPowerOfTwoOfAtLeast64) {
  EXPECT_EQ(64u, AccessRing(1).capacity());
  EXPECT_EQ(64u, AccessRing(64).capacity());
  EXPECT_EQ(128u, AccessRing(65).capacity());
}

TEST(AccessRingTest, EmptyRingPopsNothing) {
  AccessRing ring(64);
  AccessRecord r;
  EXPECT_FALSE(ring.Pop(&r));
  EXPECT_EQ(0u, ring.ApproximateSize());
}

TEST(AccessRingTest, RecordsComeOutInOrderAndAFullRingDrops) {
  AccessRing ring(64);
  for (uint64_t i = 0; i < 64; ++i) {
    ASSERT_TRUE(ring.Push(AccessRecord{i, 100 + i}));
  }
  EXPECT_FALSE(ring.Push(AccessRecord{999, 0}));  // full
  EXPECT_EQ(64u, ring.ApproximateSize());
  AccessRecord r;
  for (uint64_t i = 0; i < 64; ++i) {
    ASSERT_TRUE(ring.Pop(&r));
    EXPECT_EQ(i, r.tagged_id);
    EXPECT_EQ(100 + i, r.time);
  }
  EXPECT_FALSE(ring.Pop(&r));
}

TEST(AccessRingTest, WrapsAroundManyLaps) {
  AccessRing ring(64);
  AccessRecord r;
  for (uint64_t i = 0; i < 10000; ++i) {
    ASSERT_TRUE(ring.Push(AccessRecord{i, i}));
    if (i % 3 == 2) {
      for (int k = 0; k < 3; ++k) ASSERT_TRUE(ring.Pop(&r));
      EXPECT_EQ(i, r.tagged_id);
    }
  }
}

TEST(AccessRingTest, ManyProducersOneConsumerLoseNothingQueued) {
  AccessRing ring(1024);
  constexpr int kProducers = 4;
  constexpr uint64_t kPerProducer = 20000;
  std::atomic<uint64_t> pushed_sum{0};
  std::atomic<uint64_t> pushed_count{0};
  std::atomic<int> running{kProducers};
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (uint64_t i = 0; i < kPerProducer; ++i) {
        const uint64_t id = (static_cast<uint64_t>(p) << 32) | i;
        if (ring.Push(AccessRecord{id, i})) {
          pushed_sum.fetch_add(id);
          pushed_count.fetch_add(1);
        }
      }
      running.fetch_sub(1);
    });
  }
  uint64_t popped_sum = 0, popped_count = 0;
  std::vector<uint64_t> last(kProducers, 0);
  std::vector<bool> seen(kProducers, false);
  AccessRecord r;
  for (;;) {
    const bool done = running.load() == 0;
    while (ring.Pop(&r)) {
      popped_sum += r.tagged_id;
      ++popped_count;
      // Each producer's records keep their order.
      const int p = static_cast<int>(r.tagged_id >> 32);
      const uint64_t i = r.tagged_id & 0xffffffffu;
      if (seen[p]) {
        EXPECT_LT(last[p], i);
      }
      seen[p] = true;
      last[p] = i;
    }
    if (done) break;
  }
  for (auto& t : producers) t.join();
  while (ring.Pop(&r)) {
    popped_sum += r.tagged_id;
    ++popped_count;
  }
  EXPECT_EQ(pushed_count.load(), popped_count);
  EXPECT_EQ(pushed_sum.load(), popped_sum);
  EXPECT_GT(popped_count, 0u);
}

}  // namespace
}  // namespace leveldb
