// MQSchedule: ElasticBF's per-DB manager of loaded filter units.
//
// It owns the MultiQueue (decisions and budget bookkeeping), the EpochDomain
// that readers of loaded units enter, the logical clock, and a background
// thread that turns accesses into unit loads and evictions:
//
//   Get thread:  Tick() once per DB::Get; for each table probe
//                RecordAccess(segment, absent), a lock-free push into a
//                bounded ring (records are dropped, and counted, when it is
//                full: a Get never blocks).
//   background:  drains the ring; for each record MultiQueue::RecordAccess
//                and PlanAccess; evictions are applied at once (units are
//                unpublished and retired to the EpochDomain), loads are
//                read from disk outside the mutex and then installed, or
//                rolled back with AbortLoad if the read or CRC check fails.
//
// Tables register while they are open (AttachTable / DetachTable). Loaded
// units never exceed the budget: MultiQueue reserves a unit's bytes before
// its load starts, and a unit is installed only while its reservation holds,
// so installed bytes <= reserved bytes <= budget at every moment. A unit is
// charged FilterUnitMemoryBytes(unit size): the 64-bit words it occupies
// once loaded, which is at most keys * bits_per_unit / 8 bytes for units of
// the current encoding (see table/filter_unit.h).
//
// Lifetime: every attached table must be detached (the TableCache
// destroyed) before the MQSchedule is destroyed.
#ifndef STORAGE_LEVELDB_UTIL_MQ_SCHEDULE_H_
#define STORAGE_LEVELDB_UTIL_MQ_SCHEDULE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>  // NOLINT
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "leveldb/elastic_filter.h"
#include "leveldb/status.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/epoch.h"
#include "util/hotness_inheritance.h"
#include "util/multi_queue.h"

namespace leveldb {

class Logger;
class TableFilterGroups;
struct IoStats;
struct UnitBuffer;

struct MQScheduleOptions {
  ElasticFilterOptions elastic;
  Logger* info_log = nullptr;  // unit load failures are reported here
  IoStats* stats = nullptr;    // unit load/eviction counters; may be null
  // False: no background thread; only WaitIdle() processes access records
  // (deterministic tests).
  bool background_thread = true;
  // Access ring slots, rounded up to a power of two (at least 64).
  size_t ring_capacity = size_t{1} << 14;
  // Lower bound of the automatic lifetime (ElasticFilterOptions::lifetime 0).
  uint64_t min_auto_lifetime = 64;
};

class MQSchedule {
 public:
  using SegmentId = MultiQueue::SegmentId;

  // Snapshot of the scheduler's state, for properties and tests.
  struct Stats {
    MultiQueue::Stats mq;
    uint64_t installed_bytes = 0;  // memory of units readers can use
    uint64_t attached_tables = 0;
    uint64_t attached_keys = 0;
    // Memory of the attached tables' segment locators (outside the budget:
    // index metadata, about 32 bytes per segment).
    uint64_t locator_bytes = 0;
    // Keys the budget is computed over: those of attached tables that the
    // last ReportFiles listed as live (all attached keys before any report).
    uint64_t budget_keys = 0;
    uint64_t records = 0;     // access records processed
    uint64_t ring_drops = 0;  // access records lost to a full ring
    uint64_t unit_loads = 0;  // units read and installed
    uint64_t unit_load_bytes = 0;
    uint64_t unit_load_failures = 0;  // read or CRC failures
    uint64_t region_reads = 0;        // sequential unit-region reads
    uint64_t unit_evictions = 0;      // units dropped to free memory
  };

  explicit MQSchedule(const MQScheduleOptions& options);

  MQSchedule(const MQSchedule&) = delete;
  MQSchedule& operator=(const MQSchedule&) = delete;

  // Stops the background thread and frees every unit. All tables must have
  // been detached.
  ~MQSchedule();

  // Advances the logical clock by one Get; returns the new time.
  uint64_t Tick() { return clock_.fetch_add(1, std::memory_order_relaxed) + 1; }
  uint64_t Now() const { return clock_.load(std::memory_order_relaxed); }

  // Get path: a probe of segment `id` (absent: its key was not there).
  // Lock-free and O(1); drops the record when the ring is full.
  void RecordAccess(SegmentId id, bool absent);

  // The domain readers of loaded units must be inside (EpochGuard).
  EpochDomain* epoch() { return &epoch_; }

  // Registers an open elastic table. Every segment joins the MultiQueue
  // with the hotness kept from an earlier open of the same file, else
  // `inherited` (one entry per segment), else the hotness seeded with
  // SeedFileHotness, else none. Each segment gets a unit target: the units
  // it held when the file was last closed, else the inherited or seeded
  // target, else `initial_units`. Up to min(target, initial_units) units
  // are reserved (as the budget allows) and loaded in the calling thread:
  // when every segment got unit u, the unit-u region comes in one
  // sequential read. Units still missing to reach a target are loaded
  // later by the background thread, from free memory only, hottest
  // segments first (a "top-up": it never evicts anything). A file attached
  // through another TableFilterGroups is taken over by this one. `groups`
  // must stay valid until DetachTable(file_number, groups) returns.
  Status AttachTable(uint64_t file_number, TableFilterGroups* groups,
                     const InheritedHotness* inherited, int initial_units)
      LOCKS_EXCLUDED(mu_);

  // The table behind `groups` is closing: waits for loads into it that are
  // in flight, then drops its units (hotness is kept). No-op if `groups` is
  // not (or no longer) the attached instance of the file.
  void DetachTable(uint64_t file_number, const TableFilterGroups* groups)
      LOCKS_EXCLUDED(mu_);

  // The file was deleted: forgets its segments, hotness included (and
  // drops units of a table still attached).
  void ForgetFile(uint64_t file_number) LOCKS_EXCLUDED(mu_);

  // Hotness of every segment of a file attached now or earlier, or seeded
  // and not attached yet (for inheritance). False if the file is unknown.
  bool GetSegmentHotness(uint64_t file_number,
                         std::vector<MultiQueue::Hotness>* hotness) const
      LOCKS_EXCLUDED(mu_);

  // The same with unit targets (for inheritance and checkpoints): for an
  // attached segment the units it holds, or the target it is still being
  // topped up to if larger; for a closed table the units its segments held
  // when it closed; for a seeded file its seed. False if the file is
  // unknown.
  bool GetFileHotness(uint64_t file_number, InheritedHotness* hotness) const
      LOCKS_EXCLUDED(mu_);

  // Hotness (and unit targets) for a file that has not been attached yet,
  // e.g. recorded in the MANIFEST or inherited by a compaction output; its
  // table uses it when it opens. Ignored for a file attached now or
  // earlier, or already seeded. ForgetFile drops it.
  void SeedFileHotness(uint64_t file_number, const InheritedHotness& hotness)
      LOCKS_EXCLUDED(mu_);

  // Units reserved now by each segment of an attached file (installed ones
  // plus loads in flight; equal after WaitIdle). Empty if not attached.
  std::vector<int> UnitsReserved(uint64_t file_number) const
      LOCKS_EXCLUDED(mu_);

  // Moves the logical clock forward to `now` if it is behind (the clock
  // continues from a previous run; it never goes back).
  void RestoreClock(uint64_t now);

  // Tags the file's segments with an LSM level (for the statistics). The
  // level is remembered for a file not attached yet, so its segments get
  // the right tag when its table opens later; ForgetFile drops it.
  void SetFileLevel(uint64_t file_number, int level) LOCKS_EXCLUDED(mu_);

  // The same for many files at once (one critical section): pairs of
  // (file number, level). Files whose level is unchanged cost one lookup.
  void SetFileLevels(const std::vector<std::pair<uint64_t, int>>& files)
      LOCKS_EXCLUDED(mu_);

  // One live file of the LSM tree: its level and, if known, its recorded
  // hotness (valid during the call only).
  struct FileReport {
    uint64_t number;
    int level;
    const InheritedHotness* hotness;  // may be null
  };
  // The complete set of live files, reported whenever the DB installs a
  // new version: SetFileLevels and SeedFileHotness for each (one critical
  // section; a file already known or seeded costs lookups only). A file
  // that was live in an earlier report and is missing from this one has
  // been compacted away: its units are dropped at once, so the budget
  // serves only live tables, even while an old version keeps the table
  // open. Its hotness stays (for inheritance) until ForgetFile. From the
  // first report on, memory_bits_per_key counts only the keys of live
  // tables: a table being written by a compaction, attached before its
  // version is installed, shares the budget of its inputs meanwhile.
  void ReportFiles(const std::vector<FileReport>& files) LOCKS_EXCLUDED(mu_);

  Stats GetStats() const LOCKS_EXCLUDED(mu_);
  // Text of the "leveldb.elasticbf" property.
  std::string StatsString() const LOCKS_EXCLUDED(mu_);

  // Consistent pair: bytes of installed units and the budget.
  void GetMemory(uint64_t* installed_bytes, uint64_t* budget_bytes) const
      LOCKS_EXCLUDED(mu_);

  // Processes every access record queued so far (in the calling thread)
  // and waits until no unit load is in flight. Makes tests deterministic.
  void WaitIdle() LOCKS_EXCLUDED(mu_);

  // Test hooks. A paused background thread processes nothing.
  void TEST_Pause(bool paused);
  // Sets the MultiQueue's count aging (0 = counts never fade), for tests
  // of how hotness is kept that would otherwise race with the halving.
  void TEST_SetAgingLifetimes(uint64_t lifetimes) LOCKS_EXCLUDED(mu_);
  void TEST_SetClock(uint64_t now) {
    clock_.store(now, std::memory_order_relaxed);
  }
  // Cross-checks the MultiQueue, the tables' installed units and the byte
  // counters.
  bool TEST_CheckInvariants(std::string* error) const LOCKS_EXCLUDED(mu_);

 private:
  // One open table.
  struct Attached {
    TableFilterGroups* groups = nullptr;
    // Per segment: units that may be loaded (the table's group size, lowered
    // below a unit that failed to load).
    std::vector<int> unit_limit;
  };

  // A reserved unit to read.
  struct Load {
    SegmentId id;
    int unit;
  };

  // One access: segment id with the absent bit in bit 63, and the logical
  // time of the Get.
  struct AccessRecord {
    uint64_t tagged_id;
    uint64_t time;
  };

  // Lock-free bounded multi-producer, single-consumer ring of access
  // records.
  class AccessRing {
   public:
    explicit AccessRing(size_t capacity);
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

  static constexpr uint64_t kAbsentBit = uint64_t{1} << 63;

  void BackgroundLoop() LOCKS_EXCLUDED(wake_mu_, mu_);
  // Drains the ring and executes the resulting plans; returns the number of
  // records processed.
  size_t ProcessRecords() LOCKS_EXCLUDED(mu_);
  // Reads and installs reserved units, one at a time.
  void ExecuteLoads(const std::vector<Load>& loads) LOCKS_EXCLUDED(mu_);

  // Unpublishes the units the MultiQueue took from victims.
  void DropVictimsLocked(const std::vector<MultiQueue::Victim>& victims)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Recomputes the budget from the attached keys and evicts down to it.
  void UpdateBudgetLocked() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The keys memory_bits_per_key applies to (see Stats::budget_keys).
  uint64_t BudgetKeysLocked() const EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Records a file's level and retags its known segments.
  void SetFileLevelLocked(uint64_t file_number, int level)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Drops a table's units and takes its segments out of the MultiQueue,
  // remembering the units each held as its target for the next open.
  void DetachLocked(uint64_t file_number, Attached* entry)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A file left the live set: drops its units for good.
  void RetireLocked(uint64_t file_number) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Seeds a file not known yet (no-op otherwise).
  void SeedLocked(uint64_t file_number, const InheritedHotness& hotness)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // When top-ups are pending: reserves units for segments below their
  // target, from free memory only, hottest first, one unit per segment per
  // round; appends the loads.
  void PlanTopUpsLocked(std::vector<Load>* loads) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The units a segment of an attached table should be counted with: the
  // units it holds, or its pending target if larger.
  int TargetUnitsLocked(SegmentId id) const EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Installs a finished read, or rolls the reservation back. A failure is
  // logged unless `log_failure` is false (the caller reported it).
  void FinishLoadLocked(uint64_t file_number, TableFilterGroups* groups,
                        SegmentId id, int unit, const Status& read_status,
                        UnitBuffer* buffer, bool log_failure = true)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  enum LoadCheck { kDoLoad, kSkipLoad };
  // Decides, before its I/O, whether a reserved unit is still worth
  // reading into `groups`; gives the reservation back when it cannot be
  // installed.
  LoadCheck CheckLoadLocked(uint64_t file_number,
                            const TableFilterGroups* groups, SegmentId id,
                            int unit) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // One planned load is over (groups: the instance it kept busy, or null).
  void EndLoadLocked(const TableFilterGroups* groups)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Adds n to a counter of options_.stats, if there is one.
  void AddStat(std::atomic<uint64_t> IoStats::*counter, uint64_t n);

  const MQScheduleOptions options_;
  EpochDomain epoch_;  // declared first: destroyed last
  alignas(64) std::atomic<uint64_t> clock_{0};  // written by every Get
  AccessRing ring_;
  std::atomic<uint64_t> ring_drops_{0};
  const size_t wake_threshold_;
  std::atomic<bool> wake_requested_{false};
  std::atomic<bool> paused_{false};
  // Held by the background thread for each processing pass, so that
  // TEST_Pause(true) returns only once no pass is running.
  port::Mutex pass_mu_;

  mutable port::Mutex mu_;
  port::CondVar loads_done_;  // signalled when a load ends
  MultiQueue mq_ GUARDED_BY(mu_);
  std::unordered_map<uint64_t, Attached> tables_ GUARDED_BY(mu_);
  // Segment count of every file attached now or earlier (until forgotten).
  std::unordered_map<uint64_t, uint32_t> known_files_ GUARDED_BY(mu_);
  // LSM level of every file the DB told us about (until forgotten).
  std::unordered_map<uint64_t, int> file_levels_ GUARDED_BY(mu_);
  // The live files of the last ReportFiles.
  std::unordered_set<uint64_t> live_files_ GUARDED_BY(mu_);
  bool files_reported_ GUARDED_BY(mu_) = false;  // ReportFiles was called
  // Files that left the live set and are not deleted yet: they never get
  // units again (ForgetFile ends this).
  std::unordered_set<uint64_t> retired_files_ GUARDED_BY(mu_);
  // Files not attached now: hotness and unit targets for their next attach
  // (seeded files not known yet), or only the units their segments held
  // when they closed (closed files; the MultiQueue keeps their hotness).
  std::unordered_map<uint64_t, InheritedHotness> seeds_ GUARDED_BY(mu_);
  // Attached segments below their unit target: the target.
  std::unordered_map<SegmentId, int> deficits_ GUARDED_BY(mu_);
  // Memory may have been freed, or deficits added, since the last top-up.
  bool topup_pending_ GUARDED_BY(mu_) = false;
  // Loads in flight per TableFilterGroups instance.
  std::unordered_map<const TableFilterGroups*, int> busy_ GUARDED_BY(mu_);
  // Planned loads not finished yet (queued or reading).
  int loads_outstanding_ GUARDED_BY(mu_) = 0;
  uint64_t attached_keys_ GUARDED_BY(mu_) = 0;
  uint64_t installed_bytes_ GUARDED_BY(mu_) = 0;
  uint64_t records_ GUARDED_BY(mu_) = 0;
  uint64_t unit_loads_ GUARDED_BY(mu_) = 0;
  uint64_t unit_load_bytes_ GUARDED_BY(mu_) = 0;
  uint64_t unit_load_failures_ GUARDED_BY(mu_) = 0;
  uint64_t region_reads_ GUARDED_BY(mu_) = 0;
  uint64_t unit_evictions_ GUARDED_BY(mu_) = 0;

  port::Mutex wake_mu_;
  port::CondVar wake_cv_;
  bool shutting_down_ GUARDED_BY(wake_mu_) = false;
  std::thread thread_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_MQ_SCHEDULE_H_
