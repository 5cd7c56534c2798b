#include "elastic/access_ring.h"

namespace leveldb {

namespace {

size_t RingSize(size_t wanted) {
  size_t size = 64;
  while (size < wanted && size < (size_t{1} << 30)) size <<= 1;
  return size;
}

}  // namespace

// ---------------------------------------------------------------------------
// AccessRing: a bounded queue in the style of Vyukov's. Slot i starts with
// sequence i; a producer owns position p once it moves the tail past p and
// publishes with sequence p + 1; the consumer frees the slot for the next lap
// with sequence p + capacity.

AccessRing::AccessRing(size_t capacity)
    : mask_(RingSize(capacity) - 1), slots_(new Slot[mask_ + 1]) {
  for (size_t i = 0; i <= mask_; ++i) {
    slots_[i].sequence.store(i, std::memory_order_relaxed);
    slots_[i].record = AccessRecord{0, 0};
  }
}

bool AccessRing::Push(const AccessRecord& record) {
  uint64_t pos = tail_.load(std::memory_order_relaxed);
  for (;;) {
    Slot& slot = slots_[pos & mask_];
    const uint64_t seq = slot.sequence.load(std::memory_order_acquire);
    const int64_t lag = static_cast<int64_t>(seq - pos);
    if (lag == 0) {
      if (tail_.compare_exchange_weak(pos, pos + 1,
                                      std::memory_order_relaxed)) {
        slot.record = record;
        slot.sequence.store(pos + 1, std::memory_order_release);
        return true;
      }
      // pos now holds the current tail; retry there.
    } else if (lag < 0) {
      return false;  // the slot still holds a record of the previous lap
    } else {
      pos = tail_.load(std::memory_order_relaxed);
    }
  }
}

bool AccessRing::Pop(AccessRecord* record) {
  const uint64_t pos = head_.load(std::memory_order_relaxed);
  Slot& slot = slots_[pos & mask_];
  if (slot.sequence.load(std::memory_order_acquire) != pos + 1) {
    return false;  // empty, or its producer has not published yet
  }
  *record = slot.record;
  slot.sequence.store(pos + mask_ + 1, std::memory_order_release);
  head_.store(pos + 1, std::memory_order_relaxed);
  return true;
}

size_t AccessRing::ApproximateSize() const {
  const uint64_t tail = tail_.load(std::memory_order_relaxed);
  const uint64_t head = head_.load(std::memory_order_relaxed);
  return tail > head ? static_cast<size_t>(tail - head) : 0;
}

}  // namespace leveldb
