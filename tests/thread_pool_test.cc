// ThreadPool and TaskGroup: every task runs exactly once, Wait() waits for
// the whole batch, submitters may race, and destruction drains the queue.
#include "util/thread_pool.h"

#include <atomic>
#include <thread>  // NOLINT
#include <vector>

#include "gtest/gtest.h"
#include "port/port.h"
#include "util/mutexlock.h"

namespace leveldb {
namespace {

TEST(ThreadPoolTest, SizeIsAtLeastOne) {
  ThreadPool zero(0);
  EXPECT_EQ(1, zero.size());
  ThreadPool three(3);
  EXPECT_EQ(3, three.size());
}

TEST(ThreadPoolTest, AllTasksRunExactlyOnce) {
  constexpr int kTasks = 10000;
  std::vector<std::atomic<int>> runs(kTasks);
  for (auto& r : runs) r.store(0);
  ThreadPool pool(4);
  TaskGroup group(&pool);
  for (int i = 0; i < kTasks; ++i) {
    group.Submit([&runs, i] { runs[i].fetch_add(1); });
  }
  group.Wait();
  for (int i = 0; i < kTasks; ++i) ASSERT_EQ(1, runs[i].load()) << i;
}

TEST(ThreadPoolTest, WaitWaitsForRunningTasks) {
  // Tasks block until released, so Wait() cannot return before that. The
  // releaser checks that Wait() has not returned while tasks were blocked.
  ThreadPool pool(2);
  port::Mutex mu;
  port::CondVar cv(&mu);
  bool release = false;
  std::atomic<int> started{0};
  std::atomic<int> finished{0};
  std::atomic<bool> wait_returned{false};
  TaskGroup group(&pool);
  for (int i = 0; i < 2; ++i) {
    group.Submit([&] {
      started.fetch_add(1);
      MutexLock lock(&mu);
      while (!release) cv.Wait();
      finished.fetch_add(1);
    });
  }
  std::thread waiter([&] {
    group.Wait();
    wait_returned.store(true);
  });
  while (started.load() < 2) std::this_thread::yield();
  EXPECT_FALSE(wait_returned.load());
  EXPECT_EQ(0, finished.load());
  {
    MutexLock lock(&mu);
    release = true;
    cv.SignalAll();
  }
  waiter.join();
  EXPECT_TRUE(wait_returned.load());
  EXPECT_EQ(2, finished.load());
}

TEST(ThreadPoolTest, WaiterRunsQueuedTasksItself) {
  // The only worker is blocked, so the group's tasks can only run on the
  // waiting thread; Wait() still completes them.
  ThreadPool pool(1);
  port::Mutex mu;
  port::CondVar cv(&mu);
  bool release = false;
  std::atomic<bool> blocker_started{false};
  pool.Submit([&] {
    blocker_started.store(true);
    MutexLock lock(&mu);
    while (!release) cv.Wait();
  });
  while (!blocker_started.load()) std::this_thread::yield();
  std::atomic<int> done{0};
  const std::thread::id self = std::this_thread::get_id();
  std::atomic<int> ran_here{0};
  {
    TaskGroup group(&pool);
    for (int i = 0; i < 100; ++i) {
      group.Submit([&] {
        if (std::this_thread::get_id() == self) ran_here.fetch_add(1);
        done.fetch_add(1);
      });
    }
    group.Wait();
    EXPECT_EQ(100, done.load());
    EXPECT_EQ(100, ran_here.load());
  }
  MutexLock lock(&mu);
  release = true;
  cv.SignalAll();
}

TEST(ThreadPoolTest, WaitFromInsideThePoolDoesNotDeadlock) {
  // Every worker runs an outer task that waits on an inner batch.
  ThreadPool pool(2);
  std::atomic<int> inner_done{0};
  TaskGroup outer(&pool);
  for (int o = 0; o < 4; ++o) {
    outer.Submit([&pool, &inner_done] {
      TaskGroup inner(&pool);
      for (int i = 0; i < 50; ++i)
        inner.Submit([&] { inner_done.fetch_add(1); });
      inner.Wait();
    });
  }
  outer.Wait();
  EXPECT_EQ(200, inner_done.load());
}

TEST(ThreadPoolTest, ConcurrentSubmitters) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 2000;
  std::atomic<long> sum{0};
  ThreadPool pool(2);
  TaskGroup group(&pool);
  std::vector<std::thread> submitters;
  for (int t = 0; t < kThreads; ++t) {
    submitters.emplace_back([&group, &sum, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const long value = t * kPerThread + i;
        group.Submit([&sum, value] { sum.fetch_add(value); });
      }
    });
  }
  for (std::thread& s : submitters) s.join();
  group.Wait();
  const long n = kThreads * kPerThread;
  EXPECT_EQ(n * (n - 1) / 2, sum.load());
}

TEST(ThreadPoolTest, GroupsAreIndependentAndReusable) {
  ThreadPool pool(2);
  std::atomic<int> a{0};
  std::atomic<int> b{0};
  TaskGroup group_a(&pool);
  TaskGroup group_b(&pool);
  for (int round = 1; round <= 3; ++round) {
    for (int i = 0; i < 100; ++i) {
      group_a.Submit([&a] { a.fetch_add(1); });
      group_b.Submit([&b] { b.fetch_add(1); });
    }
    group_a.Wait();
    EXPECT_EQ(100 * round, a.load());
    group_b.Wait();
    EXPECT_EQ(100 * round, b.load());
  }
}

TEST(ThreadPoolTest, GroupDestructorWaits) {
  ThreadPool pool(2);
  std::atomic<int> done{0};
  {
    TaskGroup group(&pool);
    for (int i = 0; i < 500; ++i) group.Submit([&done] { done.fetch_add(1); });
  }
  EXPECT_EQ(500, done.load());
}

TEST(ThreadPoolTest, DestructorDrainsQueue) {
  // The first task holds the single worker while 1000 more are queued; all
  // of them must have run when the destructor returns.
  std::atomic<int> done{0};
  std::atomic<bool> first_started{false};
  {
    ThreadPool pool(1);
    pool.Submit([&] {
      first_started.store(true);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      done.fetch_add(1);
    });
    while (!first_started.load()) std::this_thread::yield();
    for (int i = 0; i < 1000; ++i) pool.Submit([&done] { done.fetch_add(1); });
  }
  EXPECT_EQ(1001, done.load());
}

TEST(ThreadPoolTest, TasksMaySubmitDuringShutdown) {
  // A task that submits a follow-up while the pool is being destroyed: the
  // follow-up still runs before the destructor returns.
  std::atomic<int> done{0};
  {
    ThreadPool pool(1);
    pool.Submit([&pool, &done] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      pool.Submit([&done] { done.fetch_add(1); });
      done.fetch_add(1);
    });
  }
  EXPECT_EQ(2, done.load());
}

TEST(ThreadPoolTest, FilterBuildPoolIsSharedAndWorks) {
  ThreadPool* pool = FilterBuildPool();
  ASSERT_NE(nullptr, pool);
  EXPECT_EQ(pool, FilterBuildPool());
  EXPECT_EQ(2, pool->size());
  std::atomic<int> done{0};
  TaskGroup group(pool);
  for (int i = 0; i < 100; ++i) group.Submit([&done] { done.fetch_add(1); });
  group.Wait();
  EXPECT_EQ(100, done.load());
}

}  // namespace
}  // namespace leveldb
