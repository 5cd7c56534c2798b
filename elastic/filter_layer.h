// FilterLayer: the part of ElasticBF a DB's Gets touch, one per DB.
//
// It holds the published map of the DB's registered table files (each with
// its filter groups, or none), the logical clock and the ring of access
// records, all read and written without a lock:
//
//   Get thread:  Tick() once per DB::Get; Screen() per candidate table;
//                RecordAccess(segment, absent) per screened table, a
//                lock-free push into a bounded ring (records are dropped,
//                and counted, when it is full: a Get never blocks).
//
// Which files are registered is decided by the DB's MQSchedule, which
// publishes a new map after each registration change; what is loaded into
// the groups, by the UnitManager, which drains the ring on its background
// thread (a WakeSignal wakes it early when records pile up).
#ifndef STORAGE_LEVELDB_ELASTIC_FILTER_LAYER_H_
#define STORAGE_LEVELDB_ELASTIC_FILTER_LAYER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "elastic/access_ring.h"
#include "elastic/false_positive_memo.h"
#include "elastic/multi_queue.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "table/elastic/segment_locator.h"
#include "util/epoch.h"

namespace leveldb {

class FileRegistry;
class Slice;
class TableFilterGroups;

// Wakes a background thread before its next poll, and stops it.
class WakeSignal {
 public:
  WakeSignal() : cv_(&mu_) {}
  WakeSignal(const WakeSignal&) = delete;
  WakeSignal& operator=(const WakeSignal&) = delete;

  // Requests a wake-up; the first caller since the last Wait() signals,
  // the others do not touch the mutex.
  void Notify() LOCKS_EXCLUDED(mu_);
  // Waits up to `micros` unless a wake-up is pending; false once Stop()
  // was called. Clears the pending wake-up.
  bool Wait(uint64_t micros) LOCKS_EXCLUDED(mu_);
  void Stop() LOCKS_EXCLUDED(mu_);

 private:
  port::Mutex mu_;
  port::CondVar cv_;
  std::atomic<bool> requested_{false};
  bool stopped_ GUARDED_BY(mu_) = false;
};

class FilterLayer {
 public:
  using SegmentId = MultiQueue::SegmentId;

  // What Screen() learned about one table for one key.
  struct Screening {
    enum Verdict {
      kUnknown,   // the file is not registered: open its table first
      kNoFilter,  // registered without filter groups: ask the table
      kPastEnd,   // the key is past the table's last key: not there
      kRuledOut,  // a loaded unit proves the key absent
      kMayMatch,  // the units let the key through (or none is loaded)
    };
    Verdict verdict = kUnknown;
    SegmentId segment = 0;   // kRuledOut and kMayMatch
    bool consulted = false;  // kMayMatch: at least one unit was checked
    // kMayMatch: the table's index entries the key can be found in.
    SegmentLocator::EntryRange entries;
    // kMayMatch with the memo on: the pair's key in the false-positive
    // memo, for the Insert after a read (TableCache).
    FalsePositiveMemo::Key memo_key;

    // False when the table cannot hold the key, so it is not probed.
    bool TableMayHoldKey() const {
      return verdict != kPastEnd && verdict != kRuledOut;
    }
  };

  // One access record taken from the ring.
  struct Access {
    SegmentId id;
    bool absent;
    uint64_t time;  // of the Get
  };

  // Access ring slots are rounded up to a power of two (at least 64);
  // `wake` is notified when records pile up (it must outlive the layer).
  // `shared_clock`: the clock of the databases sharing a budget (it must
  // outlive the layer); null: the layer keeps its own.
  FilterLayer(size_t ring_capacity, WakeSignal* wake,
              std::atomic<uint64_t>* shared_clock = nullptr);
  FilterLayer(const FilterLayer&) = delete;
  FilterLayer& operator=(const FilterLayer&) = delete;
  // Frees the published map once no reader can see it.
  ~FilterLayer();

  // Advances the logical clock by one Get; returns the new time.
  uint64_t Tick() {
    return clock_->fetch_add(1, std::memory_order_relaxed) + 1;
  }
  uint64_t Now() const { return clock_->load(std::memory_order_relaxed); }
  // Moves the logical clock forward to `now` if it is behind (the clock
  // continues from a previous run; it never goes back).
  void RestoreClock(uint64_t now);

  // Get path: a probe of segment `id` (absent: its key was not there).
  // Lock-free and O(1); drops the record when the ring is full.
  void RecordAccess(SegmentId id, bool absent);

  // Get path: screens table `file_number` for a lookup key (compared with
  // the table's index keys) whose user key hashes to key_hash (KeyHash64).
  // Lock-free; enters the epoch for the unit probe only. Opens no file.
  Screening Screen(uint64_t file_number, const Slice& key,
                   uint64_t key_hash) const;

  // True if the file is registered with filter groups: a table opened for
  // it needs no filter of its own.
  bool HasFilterGroups(uint64_t file_number) const;

  // UnitManager: the oldest access record not taken yet; false if none.
  // One consumer at a time.
  bool NextAccess(Access* access);
  // UnitManager: records dropped because the ring was full.
  uint64_t ring_drops() const {
    return ring_drops_.load(std::memory_order_relaxed);
  }
  // MQSchedule: makes the registered files of `registry` what Screen()
  // finds, then retires the old map and `unpublished` (groups the old map
  // may name) to the epoch, and clears it. Callers serialize it.
  void Publish(const FileRegistry& registry,
               std::vector<std::shared_ptr<TableFilterGroups>>* unpublished);
  // The domain readers of loaded units enter; units and groups are
  // retired to it.
  EpochDomain* epoch() const { return &epoch_; }
  // The database's false-positive memo (sized by the UnitManager).
  FalsePositiveMemo* memo() { return &memo_; }

 private:
  friend class MQScheduleTestPeer;  // tests/elastic_test_peer.h

  // Immutable map of registered files; defined in the .cc file.
  class FileMap;

  static constexpr uint64_t kAbsentBit = uint64_t{1} << 63;

  // Declared first: destroyed last. Mutable: const readers (Screen) enter
  // it.
  mutable EpochDomain epoch_;
  // Its retired arrays go to epoch_.
  FalsePositiveMemo memo_{&epoch_};
  // Written by every Get: own_clock_, or the shared budget's.
  alignas(64) std::atomic<uint64_t> own_clock_{0};
  std::atomic<uint64_t>* const clock_;
  AccessRing ring_;
  std::atomic<uint64_t> ring_drops_{0};
  const size_t wake_threshold_;
  WakeSignal* const wake_;
  // Published by Publish(), read lock-free inside epoch_.
  std::atomic<const FileMap*> file_map_{nullptr};
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_FILTER_LAYER_H_
