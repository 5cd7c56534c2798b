// AccessRing: the lock-free queue that carries Gets' segment accesses to
// the filter layer's background thread. Bounded, many producers (Gets,
// which never block: a record that finds the ring full is dropped), one
// consumer at a time.
#ifndef STORAGE_LEVELDB_ELASTIC_ACCESS_RING_H_
#define STORAGE_LEVELDB_ELASTIC_ACCESS_RING_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace leveldb {

// One access: segment id with the absent bit in bit 63, and the logical
// time of the Get.
struct AccessRecord {
  uint64_t tagged_id;
  uint64_t time;
};

class AccessRing {
 public:
  // Holds `capacity` records, rounded up to a power of two (at least 64).
  explicit AccessRing(size_t capacity);

  AccessRing(const AccessRing&) = delete;
  AccessRing& operator=(const AccessRing&) = delete;

  // False (record dropped) when full.
  bool Push(const AccessRecord& record);
  // Consumer only (serialized by the caller).
  bool Pop(AccessRecord* record);
  size_t ApproximateSize() const;
  size_t capacity() const { return mask_ + 1; }

 private:
  struct Slot {
    std::atomic<uint64_t> sequence;
    AccessRecord record;
  };
  const size_t mask_;
  std::unique_ptr<Slot[]> slots_;
  alignas(64) std::atomic<uint64_t> tail_{0};  // producers
  alignas(64) std::atomic<uint64_t> head_{0};  // consumer
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_ACCESS_RING_H_
