// Epoch-based reclamation (EBR) for lock-free readers.
//
// ElasticBF publishes loaded filter units through atomic pointers that Gets
// read without a lock. When the MQSchedule thread evicts a unit (or a table
// closes), it unpublishes the pointer and hands the memory to an EpochDomain,
// which frees it only once no reader that might still hold the old pointer is
// inside a critical section.
//
// Readers:
//   {
//     EpochGuard guard(&domain);
//     const Unit* u = published.load(std::memory_order_acquire);
//     ... use *u ...
//   }  // u must not be used after the guard ends
//
// Writers:
//   const Unit* old = published.exchange(nullptr, std::memory_order_acq_rel);
//   domain.RetireObject(old);
//
// Entering a guard costs a thread-local lookup, one load of the global epoch,
// one store into the thread's slot and one full fence; leaving costs one
// store. Guards nest. Each thread gets one slot per domain the first time it
// enters a guard of that domain and gives the slot back when it exits, so
// neither dead threads nor slots accumulate.
//
// Rules: a thread must not Drain() while inside a guard of the same domain,
// and a domain must outlive every guard on it (threads that merely once used
// a destroyed domain are fine).
#ifndef STORAGE_LEVELDB_UTIL_EPOCH_H_
#define STORAGE_LEVELDB_UTIL_EPOCH_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>

#include "port/port.h"
#include "port/thread_annotations.h"

namespace leveldb {

namespace epoch_internal {

// One reader's announcement: the global epoch it saw on entering its
// outermost guard, or 0 when it is outside every guard. Own cache line so
// readers do not false-share.
struct alignas(64) Slot {
  std::atomic<uint64_t> epoch{0};
};

// Per (thread, domain) state, owned by the thread's local table.
struct ThreadSlot {
  Slot* slot = nullptr;
  int depth = 0;  // nesting level of guards on this thread
};

// The calling thread's slot state in the domain it entered last, checked
// by every guard before anything else. Plain data in __thread storage, so
// reaching it takes no call and no initialisation check.
struct LastEntered {
  uint64_t domain_id;  // 0: none (domain ids start at 1)
  ThreadSlot* state;
};
extern __thread LastEntered last_entered;

// Slots of one domain. Shared by the domain and every thread registered with
// it, so a thread may outlive the domain (and vice versa). Defined in epoch.cc.
struct Registry;

}  // namespace epoch_internal

class EpochDomain {
 public:
  using Deleter = void (*)(void*);

  // Retire() runs Reclaim() itself once this many objects are waiting.
  static constexpr size_t kReclaimThreshold = 64;

  EpochDomain();

  EpochDomain(const EpochDomain&) = delete;
  EpochDomain& operator=(const EpochDomain&) = delete;

  // Frees every object still retired. No thread may be inside a guard on
  // this domain, and no other thread may be calling its methods.
  ~EpochDomain();

  // Hands over an object that the caller has already unpublished (no new
  // reader can reach it). deleter(object) runs once no reader that entered a
  // guard before this call is still inside it. Deleters run without any lock
  // held and may call Retire() again. nullptr objects are ignored.
  void Retire(void* object, Deleter deleter) LOCKS_EXCLUDED(mu_);

  template <typename T>
  void RetireObject(T* object) {
    Retire(object, [](void* p) { delete static_cast<T*>(p); });
  }

  // Frees every retired object that no reader can still see. Non-blocking
  // with respect to readers; may be called from any thread.
  void Reclaim() LOCKS_EXCLUDED(mu_);

  // Blocks until every object retired before the call has been freed, which
  // waits for readers to leave their guards. Must not be called from inside
  // a guard on this domain.
  void Drain() LOCKS_EXCLUDED(mu_);

  // Counters (for tests and statistics).
  uint64_t retired_count() const LOCKS_EXCLUDED(mu_);
  uint64_t freed_count() const LOCKS_EXCLUDED(mu_);
  uint64_t pending_count() const LOCKS_EXCLUDED(mu_);
  uint64_t current_epoch() const {
    return epoch_.load(std::memory_order_relaxed);
  }
  // Threads currently holding a slot of this domain.
  size_t registered_threads() const;
  // Slots ever allocated (slots are reused, so this stays near the peak
  // number of simultaneously registered threads).
  size_t allocated_slots() const;

 private:
  friend class EpochGuard;

  struct Retired {
    void* object;
    Deleter deleter;
    uint64_t epoch;  // global epoch at the time of retirement
    uint64_t seq;    // retirement order, for Drain()
  };

  // Announces the calling thread as a reader; returns its slot state.
  epoch_internal::ThreadSlot* Enter() {
    const epoch_internal::LastEntered& last = epoch_internal::last_entered;
    epoch_internal::ThreadSlot* state =
        last.domain_id == id_ ? last.state : SlotOfThisThread();
    if (state->depth++ == 0) Announce(state);
    return state;
  }

  // The calling thread's slot state in this domain, registering the thread
  // on first use; remembered in last_entered.
  epoch_internal::ThreadSlot* SlotOfThisThread();

  // Publishes the current epoch in the thread's slot (outermost guard).
  void Announce(epoch_internal::ThreadSlot* state) {
    const uint64_t e = epoch_.load(std::memory_order_acquire);
    // Release so that a reclaimer reading this value also sees everything
    // this thread did in its previous critical sections.
    state->slot->epoch.store(e, std::memory_order_release);
    // Store-load barrier: the announcement must be visible before this
    // reader loads any published pointer.
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }

  // True if the calling thread is inside a guard on this domain.
  bool InsideGuard() const;

  const uint64_t id_;  // never reused, unlike the domain's address
  const std::shared_ptr<epoch_internal::Registry> registry_;

  // Starts at 1 so that 0 can mean "idle" in a slot. Only Retire() advances
  // it, which is all EBR needs: a reader entering after a retirement
  // announces a newer epoch than the retired object's.
  std::atomic<uint64_t> epoch_{1};

  mutable port::Mutex mu_;
  // Epochs are non-decreasing from front to back, so what is safe to free is
  // always a prefix.
  std::deque<Retired> retired_ GUARDED_BY(mu_);
  uint64_t next_seq_ GUARDED_BY(mu_) = 0;
  uint64_t freed_ GUARDED_BY(mu_) = 0;
  int batches_in_flight_ GUARDED_BY(mu_) = 0;  // deleters running now
};

// Scoped reader critical section.
class EpochGuard {
 public:
  explicit EpochGuard(EpochDomain* domain) : state_(domain->Enter()) {}

  EpochGuard(const EpochGuard&) = delete;
  EpochGuard& operator=(const EpochGuard&) = delete;

  ~EpochGuard() {
    // Release: every read this reader made of retired objects happens before
    // a reclaimer's acquire load that sees the slot idle.
    if (--state_->depth == 0) {
      state_->slot->epoch.store(0, std::memory_order_release);
    }
  }

 private:
  epoch_internal::ThreadSlot* const state_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_EPOCH_H_
