#include "util/epoch.h"

#include <cassert>
#include <chrono>  // NOLINT
#include <limits>
#include <thread>  // NOLINT
#include <utility>
#include <vector>

#include "util/mutexlock.h"

// GCC's ThreadSanitizer does not model atomic_thread_fence and warns about
// every use (-Wtsan). The fences below are still what the algorithm needs;
// TSan checks the release/acquire edges, which carry all data handoffs.
#if defined(__SANITIZE_THREAD__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wtsan"
#endif

// Why it is safe (the argument the memory orders below implement).
//
// Reader R:  e_r = epoch_.load(acquire); slot = e_r (release); FENCE_R;
//            p = published.load(); ... ; slot = 0 (release)
// Writer W:  published = q; FENCE_W; e_w = epoch_.fetch_add(1); tag p with e_w
// Reclaimer: FENCE_C; read every slot (acquire); free objects tagged below the
//            smallest non-zero slot.
//
// All three fences are seq_cst, so they are totally ordered. If R loaded the
// old p, FENCE_R precedes FENCE_W (otherwise R's load would see q), hence it
// also precedes FENCE_C, so the reclaimer sees R's slot store or a later one.
// R's e_r <= e_w: had R read an epoch written by W's fetch_add or later, its
// acquire load would make the unpublishing visible and R could not see p.
// So while R is still inside, its slot shows e_r <= e_w and p is kept; once
// the slot shows 0 or a later entry's epoch (both release stores read with
// acquire), R's uses of p happen before the deleter runs.

namespace leveldb {

namespace epoch_internal {

__thread LastEntered last_entered = {0, nullptr};

struct Registry {
  port::Mutex mu;
  // Slots never move (owned through unique_ptr), so threads keep raw
  // pointers to their own.
  std::vector<std::unique_ptr<Slot>> slots GUARDED_BY(mu);
  std::vector<bool> in_use GUARDED_BY(mu);
  size_t users GUARDED_BY(mu) = 0;
  // Cleared when the domain is destroyed; threads then drop their entry.
  std::atomic<bool> domain_alive{true};

  Slot* Acquire(size_t* index) LOCKS_EXCLUDED(mu) {
    MutexLock l(&mu);
    ++users;
    for (size_t i = 0; i < slots.size(); ++i) {
      if (!in_use[i]) {
        in_use[i] = true;
        *index = i;
        return slots[i].get();
      }
    }
    slots.push_back(std::make_unique<Slot>());
    in_use.push_back(true);
    *index = slots.size() - 1;
    return slots.back().get();
  }

  void Release(size_t index) LOCKS_EXCLUDED(mu) {
    MutexLock l(&mu);
    slots[index]->epoch.store(0, std::memory_order_release);
    in_use[index] = false;
    --users;
  }

  // Smallest epoch announced by a reader now inside a guard; max() if none.
  uint64_t OldestActiveEpoch() LOCKS_EXCLUDED(mu) {
    MutexLock l(&mu);
    uint64_t oldest = std::numeric_limits<uint64_t>::max();
    for (const auto& slot : slots) {
      const uint64_t e = slot->epoch.load(std::memory_order_acquire);
      if (e != 0 && e < oldest) oldest = e;
    }
    return oldest;
  }
};

}  // namespace epoch_internal

namespace {

using epoch_internal::Registry;
using epoch_internal::ThreadSlot;

std::atomic<uint64_t> next_domain_id{1};

struct LocalEntry {
  uint64_t domain_id;
  std::shared_ptr<Registry> registry;
  size_t index;
  ThreadSlot state;
};

// The calling thread's registrations, one per domain it has used. Its
// destructor (thread exit) hands every slot back.
class LocalTable {
 public:
  LocalTable() = default;
  LocalTable(const LocalTable&) = delete;
  LocalTable& operator=(const LocalTable&) = delete;

  ~LocalTable() {
    epoch_internal::last_entered = epoch_internal::LastEntered{0, nullptr};
    for (auto& entry : entries_) Drop(entry.get());
  }

  // nullptr if the thread has no slot in that domain.
  ThreadSlot* Find(uint64_t domain_id) {
    if (last_ != nullptr && last_->domain_id == domain_id) {
      return &last_->state;
    }
    for (auto& entry : entries_) {
      if (entry->domain_id == domain_id) {
        last_ = entry.get();
        return &entry->state;
      }
    }
    return nullptr;
  }

  ThreadSlot* FindOrRegister(uint64_t domain_id,
                             const std::shared_ptr<Registry>& registry) {
    ThreadSlot* found = Find(domain_id);
    if (found != nullptr) return found;
    PruneDeadDomains();
    auto entry = std::make_unique<LocalEntry>();
    entry->domain_id = domain_id;
    entry->registry = registry;
    entry->state.slot = registry->Acquire(&entry->index);
    last_ = entry.get();
    entries_.push_back(std::move(entry));
    return &last_->state;
  }

 private:
  static void Drop(LocalEntry* entry) {
    entry->registry->Release(entry->index);
    entry->registry.reset();
  }

  // Entries of destroyed domains are only dropped here (registration is
  // rare), so a thread keeps at most a few stale ones.
  void PruneDeadDomains() {
    size_t kept = 0;
    for (size_t i = 0; i < entries_.size(); ++i) {
      LocalEntry* e = entries_[i].get();
      if (!e->registry->domain_alive.load(std::memory_order_acquire) &&
          e->state.depth == 0) {
        Drop(e);
        continue;
      }
      entries_[kept++] = std::move(entries_[i]);
    }
    entries_.resize(kept);
    last_ = nullptr;
    epoch_internal::last_entered = epoch_internal::LastEntered{0, nullptr};
  }

  // unique_ptr keeps each ThreadSlot at a fixed address while guards on it
  // are open, even if the vector grows for another domain.
  std::vector<std::unique_ptr<LocalEntry>> entries_;
  LocalEntry* last_ = nullptr;
};

thread_local LocalTable local_table;

}  // namespace

EpochDomain::EpochDomain()
    : id_(next_domain_id.fetch_add(1, std::memory_order_relaxed)),
      registry_(std::make_shared<Registry>()) {}

EpochDomain::~EpochDomain() {
  registry_->domain_alive.store(false, std::memory_order_release);
  assert(registry_->OldestActiveEpoch() ==
         std::numeric_limits<uint64_t>::max());
  std::deque<Retired> rest;
  {
    MutexLock l(&mu_);
    rest.swap(retired_);
    freed_ += rest.size();
  }
  for (const Retired& r : rest) r.deleter(r.object);
}

epoch_internal::ThreadSlot* EpochDomain::SlotOfThisThread() {
  ThreadSlot* state = local_table.FindOrRegister(id_, registry_);
  epoch_internal::last_entered = epoch_internal::LastEntered{id_, state};
  return state;
}

bool EpochDomain::InsideGuard() const {
  const ThreadSlot* state = local_table.Find(id_);
  return state != nullptr && state->depth > 0;
}

void EpochDomain::Retire(void* object, Deleter deleter) {
  if (object == nullptr) return;
  // Orders the caller's unpublishing store before the epoch read below.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  size_t waiting;
  {
    MutexLock l(&mu_);
    // Advancing under mu_ keeps the list sorted by epoch. Release pairs with
    // the readers' acquire load of epoch_.
    const uint64_t e = epoch_.fetch_add(1, std::memory_order_acq_rel);
    retired_.push_back(Retired{object, deleter, e, next_seq_++});
    waiting = retired_.size();
  }
  if (waiting >= kReclaimThreshold) Reclaim();
}

void EpochDomain::Reclaim() {
  std::vector<Retired> batch;
  {
    MutexLock l(&mu_);
    if (retired_.empty()) return;
    // Pairs with the readers' fence in Enter() and the writer's in Retire().
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const uint64_t oldest = registry_->OldestActiveEpoch();
    while (!retired_.empty() && retired_.front().epoch < oldest) {
      batch.push_back(retired_.front());
      retired_.pop_front();
    }
    if (batch.empty()) return;
    ++batches_in_flight_;
  }
  // Deleters run unlocked: they may be slow or retire more objects.
  for (const Retired& r : batch) r.deleter(r.object);
  MutexLock l(&mu_);
  freed_ += batch.size();
  --batches_in_flight_;
}

void EpochDomain::Drain() {
  assert(!InsideGuard());  // would wait for itself forever
  uint64_t target;
  {
    MutexLock l(&mu_);
    target = next_seq_;
  }
  for (int round = 0;; ++round) {
    Reclaim();
    {
      MutexLock l(&mu_);
      const bool older_gone =
          retired_.empty() || retired_.front().seq >= target;
      if (older_gone && batches_in_flight_ == 0) return;
    }
    // Readers hold guards only briefly: spin politely, then back off.
    if (round < 64) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
}

uint64_t EpochDomain::retired_count() const {
  MutexLock l(&mu_);
  return next_seq_;
}

uint64_t EpochDomain::freed_count() const {
  MutexLock l(&mu_);
  return freed_;
}

uint64_t EpochDomain::pending_count() const {
  MutexLock l(&mu_);
  return next_seq_ - freed_;
}

size_t EpochDomain::registered_threads() const {
  MutexLock l(&registry_->mu);
  return registry_->users;
}

size_t EpochDomain::allocated_slots() const {
  MutexLock l(&registry_->mu);
  return registry_->slots.size();
}

}  // namespace leveldb
