// Epoch-based reclamation: objects are freed only after every reader that
// might have seen them has left its guard, and always freed eventually.
#include "util/epoch.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>  // NOLINT
#include <vector>

#include "benchmarks/common/random.h"
#include "gtest/gtest.h"

namespace leveldb {
namespace {

// Counts deletions through a shared counter so tests can see exactly when
// the domain frees an object.
struct Tracked {
  explicit Tracked(std::atomic<int>* deleted) : deleted(deleted) {}
  ~Tracked() { deleted->fetch_add(1, std::memory_order_relaxed); }
  std::atomic<int>* deleted;
};

TEST(EpochTest, NoReadersMeansImmediateReclaim) {
  EpochDomain domain;
  std::atomic<int> deleted{0};
  domain.RetireObject(new Tracked(&deleted));
  domain.RetireObject(new Tracked(&deleted));
  EXPECT_EQ(2u, domain.retired_count());
  EXPECT_EQ(0, deleted.load());  // below the threshold: nothing runs yet
  domain.Reclaim();
  EXPECT_EQ(2, deleted.load());
  EXPECT_EQ(2u, domain.freed_count());
  EXPECT_EQ(0u, domain.pending_count());
}

TEST(EpochTest, NullIsIgnored) {
  EpochDomain domain;
  domain.Retire(nullptr, [](void*) { FAIL() << "deleter called for null"; });
  EXPECT_EQ(0u, domain.retired_count());
}

TEST(EpochTest, RetireAdvancesTheEpoch) {
  EpochDomain domain;
  const uint64_t before = domain.current_epoch();
  std::atomic<int> deleted{0};
  domain.RetireObject(new Tracked(&deleted));
  EXPECT_EQ(before + 1, domain.current_epoch());
  domain.Drain();
  EXPECT_EQ(1, deleted.load());
}

// Runs `body` on another thread while this one waits for it.
template <typename F>
void OnOtherThread(F body) {
  std::thread t(body);
  t.join();
}

TEST(EpochTest, ReaderBlocksOnlyObjectsRetiredAfterItEntered) {
  EpochDomain domain;
  std::atomic<int> deleted{0};
  std::atomic<int> phase{0};

  // Retired before the reader enters: never blocked by it.
  domain.RetireObject(new Tracked(&deleted));

  std::thread reader([&] {
    EpochGuard guard(&domain);
    phase.store(1);
    while (phase.load() != 2) std::this_thread::yield();
  });
  while (phase.load() != 1) std::this_thread::yield();

  // Retired while the reader is inside: must wait for it.
  domain.RetireObject(new Tracked(&deleted));
  domain.RetireObject(new Tracked(&deleted));
  domain.Reclaim();
  EXPECT_EQ(1, deleted.load());
  EXPECT_EQ(2u, domain.pending_count());
  domain.Reclaim();
  EXPECT_EQ(1, deleted.load());

  phase.store(2);
  reader.join();
  domain.Reclaim();
  EXPECT_EQ(3, deleted.load());
  EXPECT_EQ(3u, domain.freed_count());
}

TEST(EpochTest, FreedInRetirementOrder) {
  EpochDomain domain;
  std::vector<int> order;
  struct Item {
    std::vector<int>* order;
    int value;
  };
  for (int i = 0; i < 10; ++i) {
    domain.Retire(new Item{&order, i}, [](void* p) {
      Item* item = static_cast<Item*>(p);
      item->order->push_back(item->value);
      delete item;
    });
  }
  domain.Drain();
  ASSERT_EQ(10u, order.size());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(i, order[i]);
}

TEST(EpochTest, NestedGuardsKeepTheOuterAnnouncement) {
  EpochDomain domain;
  std::atomic<int> deleted{0};
  std::atomic<int> phase{0};
  std::thread reader([&] {
    EpochGuard outer(&domain);
    {
      EpochGuard inner(&domain);
      phase.store(1);
      while (phase.load() != 2) std::this_thread::yield();
    }
    // Leaving the inner guard must not end the critical section.
    phase.store(3);
    while (phase.load() != 4) std::this_thread::yield();
  });
  while (phase.load() != 1) std::this_thread::yield();
  domain.RetireObject(new Tracked(&deleted));
  phase.store(2);
  while (phase.load() != 3) std::this_thread::yield();
  domain.Reclaim();
  EXPECT_EQ(0, deleted.load());
  phase.store(4);
  reader.join();
  domain.Reclaim();
  EXPECT_EQ(1, deleted.load());
}

TEST(EpochTest, OwnGuardDoesNotBlockOlderObjects) {
  EpochDomain domain;
  std::atomic<int> deleted{0};
  domain.RetireObject(new Tracked(&deleted));
  {
    EpochGuard guard(&domain);
    domain.RetireObject(new Tracked(&deleted));
    domain.Reclaim();
    EXPECT_EQ(1, deleted.load());  // the second one waits for this guard
  }
  domain.Reclaim();
  EXPECT_EQ(2, deleted.load());
}

TEST(EpochTest, RetireReclaimsOnceTheListGrows) {
  EpochDomain domain;
  std::atomic<int> deleted{0};
  for (size_t i = 0; i < EpochDomain::kReclaimThreshold; ++i) {
    domain.RetireObject(new Tracked(&deleted));
  }
  EXPECT_EQ(static_cast<int>(EpochDomain::kReclaimThreshold), deleted.load());
}

TEST(EpochTest, DeleterMayRetireMore) {
  EpochDomain domain;
  std::atomic<int> deleted{0};
  struct Chain {
    EpochDomain* domain;
    std::atomic<int>* deleted;
  };
  domain.Retire(new Chain{&domain, &deleted}, [](void* p) {
    Chain* c = static_cast<Chain*>(p);
    c->domain->RetireObject(new Tracked(c->deleted));
    delete c;
  });
  domain.Drain();  // frees the chain link, which retires one more object
  domain.Drain();
  EXPECT_EQ(1, deleted.load());
  EXPECT_EQ(2u, domain.freed_count());
}

TEST(EpochTest, ExitingThreadsReleaseTheirSlots) {
  EpochDomain domain;
  EXPECT_EQ(0u, domain.registered_threads());
  std::vector<std::thread> threads;
  std::atomic<int> inside{0};
  std::atomic<bool> release{false};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      { EpochGuard guard(&domain); }
      inside.fetch_add(1);
      while (!release.load()) std::this_thread::yield();
    });
  }
  while (inside.load() != 4) std::this_thread::yield();
  // Alive threads keep their registration between guards.
  EXPECT_EQ(4u, domain.registered_threads());
  release.store(true);
  for (auto& t : threads) t.join();
  EXPECT_EQ(0u, domain.registered_threads());

  // Slots are reused: many short-lived threads do not grow the table.
  for (int i = 0; i < 50; ++i) {
    OnOtherThread([&] { EpochGuard guard(&domain); });
  }
  EXPECT_EQ(0u, domain.registered_threads());
  EXPECT_EQ(4u, domain.allocated_slots());
}

TEST(EpochTest, DeadThreadNeverBlocksReclamation) {
  EpochDomain domain;
  std::atomic<int> deleted{0};
  OnOtherThread([&] { EpochGuard guard(&domain); });
  domain.RetireObject(new Tracked(&deleted));
  domain.Drain();  // would hang if the exited thread still counted
  EXPECT_EQ(1, deleted.load());
}

TEST(EpochTest, DomainMayDieBeforeItsThreads) {
  std::atomic<int> step{0};
  std::atomic<int> deleted{0};
  auto first = std::make_unique<EpochDomain>();
  EpochDomain* first_raw = first.get();
  std::thread worker([&] {
    { EpochGuard guard(first_raw); }
    step.store(1);
    while (step.load() != 2) std::this_thread::yield();
    // A new domain (possibly at the same address) gets a fresh slot.
    EpochDomain second;
    {
      EpochGuard guard(&second);
      EXPECT_EQ(1u, second.registered_threads());
    }
    second.RetireObject(new Tracked(&deleted));
    second.Drain();
  });
  while (step.load() != 1) std::this_thread::yield();
  first->RetireObject(new Tracked(&deleted));
  first.reset();  // frees its pending object; the worker still holds a slot
  EXPECT_EQ(1, deleted.load());
  step.store(2);
  worker.join();
  EXPECT_EQ(2, deleted.load());
}

// Readers check an object's contents while a writer replaces and retires
// objects as fast as it can: any premature free shows up as a corrupted
// object here or as a use-after-free under ASan, and TSan checks the
// happens-before edges.
struct Payload {
  static constexpr uint64_t kMagic = 0x5eed5eedcafef00dull;
  static constexpr int kWords = 15;

  explicit Payload(uint64_t seed) : magic(kMagic) {
    bench::SplitMix64 rnd(seed);
    uint64_t sum = 0;
    for (uint64_t& w : words) {
      w = rnd.Next();
      sum = sum * 31 + w;
    }
    checksum = sum;
  }
  ~Payload() { magic = 0; }

  bool Valid() const {
    if (magic != kMagic) return false;
    uint64_t sum = 0;
    for (uint64_t w : words) sum = sum * 31 + w;
    return sum == checksum;
  }

  uint64_t magic;
  uint64_t words[kWords];
  uint64_t checksum;
};

TEST(EpochTest, StressReadersAgainstWriter) {
  constexpr int kReaders = 4;
  constexpr int kSwaps = 20000;
  EpochDomain domain;
  std::atomic<Payload*> published{new Payload(0)};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> bad{0};
  std::atomic<uint64_t> reads{0};

  std::vector<std::thread> readers;
  for (int r = 0; r < kReaders; ++r) {
    readers.emplace_back([&] {
      uint64_t local_reads = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        EpochGuard guard(&domain);
        const Payload* p = published.load(std::memory_order_acquire);
        if (!p->Valid()) bad.fetch_add(1);
        ++local_reads;
      }
      reads.fetch_add(local_reads);
    });
  }

  std::thread writer([&] {
    for (int i = 1; i <= kSwaps; ++i) {
      Payload* old =
          published.exchange(new Payload(i), std::memory_order_acq_rel);
      domain.RetireObject(old);
      if (i % 1000 == 0) domain.Reclaim();
    }
    stop.store(true);
  });

  writer.join();
  for (auto& t : readers) t.join();
  domain.Drain();

  EXPECT_EQ(0u, bad.load());
  EXPECT_GT(reads.load(), 0u);
  EXPECT_EQ(static_cast<uint64_t>(kSwaps), domain.retired_count());
  EXPECT_EQ(static_cast<uint64_t>(kSwaps), domain.freed_count());
  EXPECT_EQ(0u, domain.pending_count());
  EXPECT_EQ(0u, domain.registered_threads());
  delete published.load();
}

// Drain from one thread while readers keep entering: it must still finish.
TEST(EpochTest, DrainCompletesWhileReadersChurn) {
  EpochDomain domain;
  std::atomic<bool> stop{false};
  std::atomic<int> deleted{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&] {
      while (!stop.load()) {
        EpochGuard guard(&domain);
      }
    });
  }
  for (int i = 0; i < 100; ++i) {
    domain.RetireObject(new Tracked(&deleted));
    domain.Drain();
    EXPECT_EQ(i + 1, deleted.load());
  }
  stop.store(true);
  for (auto& t : readers) t.join();
}

}  // namespace
}  // namespace leveldb
