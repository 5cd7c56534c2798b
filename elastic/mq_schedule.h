// MQSchedule: ElasticBF's manager of loaded filter units for one DB's
// FilterLayer (elastic/filter_layer.h, which it owns and hands out through
// layer()).
//
// It owns, for every registered table file, the file's filter groups (the
// loaded units and the segment locator), from the first time the file is
// opened until it leaves the live set or is deleted, whatever the table
// cache does with the file itself. Everything it knows about a file
// (groups, level, state, loads in flight) is one record of its
// FileRegistry; after each registration change it publishes the
// registered files to the layer, whose Screen() lets a Get rule a table
// out before the table cache is asked for it.
//
// It also owns the MultiQueue (decisions and budget bookkeeping) and a
// background thread that turns the layer's access records into unit loads
// and evictions:
//
//   background:  drains the layer's ring; for each record
//                MultiQueue::RecordAccess and PlanAccess; evictions are
//                applied at once (units are unpublished and retired to the
//                layer's EpochDomain), loads are read from disk outside the
//                mutex (opening the table file through
//                MQScheduleOptions::opener) and then installed, or rolled
//                back with AbortLoad if the read or CRC check fails.
//
// What it knows of a DB comes through its interfaces only (the layer, the
// opener, the reports of live files), not from the DB itself.
//
// Loaded units and segment locators never exceed the budget together: the
// locators of registered tables are taken off the budget first, MultiQueue
// reserves a unit's bytes before its load starts, and a unit is installed
// only while its reservation holds. A unit is charged
// FilterUnitMemoryBytes(unit size): the 64-bit words it occupies once
// loaded.
#ifndef STORAGE_LEVELDB_ELASTIC_MQ_SCHEDULE_H_
#define STORAGE_LEVELDB_ELASTIC_MQ_SCHEDULE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>  // NOLINT
#include <unordered_map>
#include <utility>
#include <vector>

#include "elastic/file_registry.h"
#include "elastic/filter_layer.h"
#include "elastic/hotness_inheritance.h"
#include "elastic/multi_queue.h"
#include "elastic/table_file_opener.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/status.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "table/elastic/segment_locator.h"
#include "util/epoch.h"
#include "util/io_stats.h"

namespace leveldb {

class ElasticIndex;
class Logger;
class RandomAccessFile;
class Slice;
class TableFilterGroups;
struct UnitBuffer;

struct MQScheduleOptions {
  ElasticFilterOptions elastic;
  Logger* info_log = nullptr;  // unit load failures are reported here
  // Where the unit load/eviction counters are kept (their only copy, so
  // resetting it resets Stats' too); null: in the MQSchedule.
  IoStats* stats = nullptr;
  // False: no background thread; access records are processed only when a
  // test asks (deterministic tests).
  bool background_thread = true;
  // Access ring slots, rounded up to a power of two (at least 64).
  size_t ring_capacity = size_t{1} << 14;
  // Lower bound of the automatic lifetime (ElasticFilterOptions::lifetime 0).
  uint64_t min_auto_lifetime = 64;
  // Opens table files for unit reads and background registrations; null:
  // units are loaded only when a table registers (with the file it was
  // opened with).
  std::shared_ptr<TableFileOpener> opener;
  // With an opener: the background thread registers every live file the
  // DB reports that no Get has opened yet, a few per pass, so their units
  // are resident before the first Get reaches them. Without it, files
  // register when first opened.
  bool register_live_files = false;
};

class MQSchedule {
 public:
  using SegmentId = MultiQueue::SegmentId;

  // Snapshot of the scheduler's state, for properties and tests.
  struct Stats {
    MultiQueue::Stats mq;
    uint64_t installed_bytes = 0;  // memory of units readers can use
    uint64_t attached_tables = 0;  // registered tables with filter groups
    uint64_t attached_keys = 0;
    // Memory of the registered tables' segment locators, charged to the
    // budget before units.
    uint64_t locator_bytes = 0;
    uint64_t budget_bytes = 0;  // units and locators together
    // Keys the budget is computed over: those of attached tables that the
    // last ReportFiles listed as live (all attached keys before any report).
    uint64_t budget_keys = 0;
    uint64_t records = 0;     // access records processed
    uint64_t ring_drops = 0;  // access records lost to a full ring
    // The unit counters of MQScheduleOptions::stats.
    uint64_t unit_loads = 0;  // units read and installed
    uint64_t unit_load_bytes = 0;
    uint64_t unit_load_failures = 0;  // read or CRC failures
    uint64_t region_reads = 0;        // sequential unit-region reads
    uint64_t unit_evictions = 0;      // units dropped to free memory
  };

  using Screening = FilterLayer::Screening;

  explicit MQSchedule(const MQScheduleOptions& options);

  MQSchedule(const MQSchedule&) = delete;
  MQSchedule& operator=(const MQSchedule&) = delete;

  // Stops the background thread and frees every unit and locator.
  ~MQSchedule();

  // The DB's Get path: clock, screening and access records.
  FilterLayer* layer() { return &layer_; }
  const FilterLayer* layer() const { return &layer_; }

  // Registers a table file the first time a table of it is opened; later
  // calls for a registered file change nothing. Null `groups` registers a
  // table without ElasticBF filters (Screen then says kNoFilter). A file
  // that has left the live set (ReportFiles) is not registered again.
  //
  // Every segment joins the MultiQueue with `inherited` hotness (one entry
  // per segment), else the hotness seeded with SeedFileHotness, else none.
  // Each segment gets a unit target: the inherited or seeded target, else
  // `initial_units`. Up to min(target, initial_units) units are reserved
  // (as the budget allows) and loaded in the calling thread from `file`
  // (the handle the table was opened with; it need only live during the
  // call): when every segment got unit u, the unit-u region comes in one
  // sequential read. Units still missing to reach a target are loaded
  // later by the background thread, from free memory only, hottest
  // segments first (a "top-up": it never evicts anything).
  Status AttachTable(uint64_t file_number,
                     std::shared_ptr<TableFilterGroups> groups,
                     RandomAccessFile* file, const InheritedHotness* inherited,
                     int initial_units) LOCKS_EXCLUDED(mu_);

  // For each segment of a registered file, in order, the index key ending
  // its last data block (see SegmentLocator::LastKeys). False if the file
  // is not registered with a usable locator.
  bool SegmentBounds(uint64_t file_number,
                     std::vector<std::string>* bounds) const
      LOCKS_EXCLUDED(mu_);

  // The file was deleted: forgets its segments, hotness included, and
  // frees its units and locator.
  void ForgetFile(uint64_t file_number) LOCKS_EXCLUDED(mu_);

  // Hotness and unit targets of every segment of a file registered now or
  // earlier, or seeded and not registered yet (for inheritance and
  // checkpoints): for a registered segment the units it holds, or the target it
  // is still being topped up to if larger; for a retired file -1 (unknown); for
  // a seeded file its seed. False if the file is unknown.
  bool GetFileHotness(uint64_t file_number, InheritedHotness* hotness) const
      LOCKS_EXCLUDED(mu_);

  // Hotness (and unit targets) for a file that has not been registered yet,
  // e.g. recorded in the MANIFEST or inherited by a compaction output; it
  // is used when the file registers. Ignored for a file registered now or
  // earlier, or already seeded. ForgetFile drops it.
  void SeedFileHotness(uint64_t file_number, const InheritedHotness& hotness)
      LOCKS_EXCLUDED(mu_);

  // One live file of the LSM tree: its level and, if known, its recorded
  // hotness (valid during the call only).
  struct FileReport {
    uint64_t number;
    int level;
    const InheritedHotness* hotness;  // may be null
    uint64_t file_size = 0;           // 0: unknown (never registered here)
  };
  // The complete set of live files, reported whenever the DB installs a
  // new version: records each file's level (retagging its segments) and
  // seeds it as SeedFileHotness would (one critical section; a file already
  // known or seeded costs lookups only). A file
  // that was live in an earlier report and is missing from this one has
  // been compacted away: its units and locator are freed at once, so the
  // budget serves only live tables, even while an old version keeps the
  // table open. Its hotness stays (for inheritance) until ForgetFile. From
  // the first report on, memory_bits_per_key counts only the keys of live
  // tables: a table being written by a compaction, registered before its
  // version is installed, shares the budget of its inputs meanwhile.
  void ReportFiles(const std::vector<FileReport>& files) LOCKS_EXCLUDED(mu_);

  // Text of the "leveldb.elasticbf" property.
  std::string StatsString() const LOCKS_EXCLUDED(mu_);

  // Consistent pair: bytes of installed units and locators, and the budget
  // of both.
  void GetMemory(uint64_t* installed_bytes, uint64_t* budget_bytes) const
      LOCKS_EXCLUDED(mu_);

 private:
  friend class MQScheduleTestPeer;  // tests/elastic_test_peer.h

  // A reserved unit to read.
  struct Load {
    SegmentId id;
    int unit;
  };

  Stats GetStats() const LOCKS_EXCLUDED(mu_);

  // Processes every access record queued so far and registers the live
  // files still unregistered (MQScheduleOptions::register_live_files), in
  // the calling thread, and waits until no unit load is in flight. Makes
  // tests deterministic.
  void WaitIdle() LOCKS_EXCLUDED(mu_);

  void BackgroundLoop() LOCKS_EXCLUDED(mu_);
  // Drains the ring and executes the resulting plans; returns the number of
  // records processed.
  size_t ProcessRecords() LOCKS_EXCLUDED(mu_);
  // Registers up to `max` live files no Get has opened yet, opening them
  // through MQScheduleOptions::opener; returns how many it tried.
  size_t RegisterUnregisteredFiles(size_t max) LOCKS_EXCLUDED(mu_);
  // Opens a live file's table and registers it (as AttachTable); failures
  // are logged.
  void RegisterLiveFile(uint64_t file_number, uint64_t file_size)
      LOCKS_EXCLUDED(mu_);
  // Reads and installs reserved units, one at a time.
  void ExecuteLoads(const std::vector<Load>& loads) LOCKS_EXCLUDED(mu_);
  // Opens a table file for unit reads (MQScheduleOptions::opener).
  Status OpenForLoads(uint64_t file_number,
                      std::unique_ptr<RandomAccessFile>* file);
  // The one way a reserved unit is read: if it is still wanted, reads it
  // from `file` (or takes open_status's failure) and installs it, or gives
  // the reservation back; ends the load. `count_busy`: mark the groups busy
  // while reading (false when the caller holds them busy already).
  void LoadUnit(uint64_t file_number,
                const std::shared_ptr<TableFilterGroups>& groups,
                RandomAccessFile* file, const Status& open_status,
                const Load& load, bool count_busy) LOCKS_EXCLUDED(mu_);
  // Unit `unit` of every segment of a new table, in one sequential read.
  void LoadRegion(uint64_t file_number,
                  const std::shared_ptr<TableFilterGroups>& groups,
                  RandomAccessFile* file, const Status& open_status, int unit)
      LOCKS_EXCLUDED(mu_);
  // Reserves and reads a new table's first units; see AttachTable.
  void LoadInitialUnits(uint64_t file_number,
                        const std::shared_ptr<TableFilterGroups>& groups,
                        RandomAccessFile* file,
                        const std::vector<std::vector<uint32_t>>& rounds)
      LOCKS_EXCLUDED(mu_);
  // Joins a new table's segments to the MultiQueue and plans its first
  // units; returns the planned rounds (see PlanInitialUnitsLocked).
  std::vector<std::vector<uint32_t>> RegisterSegmentsLocked(
      uint64_t file_number, const InheritedHotness* inherited,
      int initial_units) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Joins a new table's segments to the MultiQueue at `level`, with the
  // source's hotness if it has one per segment.
  void JoinSegmentsLocked(uint64_t file_number, const ElasticIndex& index,
                          const InheritedHotness* source, int level)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // True if the budget has room for a new table's locator; otherwise the
  // table is detached again and stays registered without groups.
  bool LocatorFitsLocked(uint64_t file_number, TableFilterGroups* groups)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Plans a new table's first units (AttachTable): rounds[u] lists the
  // segments whose unit u is reserved.
  std::vector<std::vector<uint32_t>> PlanInitialUnitsLocked(
      uint64_t file_number, const std::vector<int>& target, int initial)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Drops the units of a file registered with groups and takes its
  // segments out of the MultiQueue (before the registry lets it go).
  void DetachRegisteredLocked(uint64_t file_number)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Unpublishes the units the MultiQueue took from victims; each victim's
  // segment keeps the lost unit as a top-up target, so memory freed later
  // (a compaction's inputs retired, a file deleted) brings it back rather
  // than sitting idle, and compaction outputs inherit the target.
  void DropVictimsLocked(const std::vector<MultiQueue::Victim>& victims)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The memory budget, the one place it is computed.
  struct Budget {
    uint64_t total = 0;  // units and locators together
    uint64_t units = 0;  // what the registered tables' locators leave
  };
  // The budget for the live keys plus `extra_keys` (a table registering
  // before its version is reported brings its keys' share).
  Budget ComputeBudgetLocked(uint64_t extra_keys) const
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Applies ComputeBudgetLocked(0): records it and hands the units' part to
  // the MultiQueue, which evicts down to it.
  void UpdateBudgetLocked() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The keys memory_bits_per_key applies to (see Stats::budget_keys).
  uint64_t BudgetKeysLocked() const EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Records a file's level and retags its known segments.
  void SetFileLevelLocked(uint64_t file_number, int level)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Drops a table's units and takes its segments out of the MultiQueue
  // (their hotness stays until ForgetFile).
  void DetachLocked(uint64_t file_number, TableFilterGroups* groups)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A file left the live set: drops its units for good. True if it was
  // registered: its groups wait in unpublished_ for the caller's next
  // layer_.Publish().
  bool RetireLocked(uint64_t file_number) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Seeds a file not known yet (no-op otherwise).
  void SeedLocked(uint64_t file_number, const InheritedHotness& hotness)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // When top-ups are pending: reserves units for segments below their
  // target, from free memory only, hottest first, one unit per segment per
  // round; appends the loads.
  void PlanTopUpsLocked(std::vector<Load>* loads) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The segments below their target, hottest first (most absent probes,
  // then most accesses, then lowest id).
  std::vector<SegmentId> TopUpOrderLocked() const EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The units a segment of an attached table should be counted with: the
  // units it holds, or its pending target if larger.
  int TargetUnitsLocked(SegmentId id) const EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Installs a finished read, or rolls the reservation back. A failure is
  // logged unless `log_failure` is false (the caller reported it).
  void FinishLoadLocked(uint64_t file_number, const TableFilterGroups* groups,
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
  // One planned load of a file is over (groups: the instance it kept busy,
  // or null).
  void EndLoadLocked(uint64_t file_number, const TableFilterGroups* groups)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Adds n to a unit counter (kept in stats_ only).
  void AddStat(std::atomic<uint64_t> IoStats::*counter, uint64_t n);

  const MQScheduleOptions options_;
  // The one copy of the unit counters: options_.stats, else own_stats_.
  IoStats own_stats_;
  IoStats* const stats_;
  WakeSignal wake_;  // of the background thread; outlives layer_
  // Destroyed after everything below: it frees what readers may still see.
  FilterLayer layer_;
  std::atomic<bool> paused_{false};
  // Held by the background thread for each processing pass, so that
  // pausing it (tests) returns only once no pass is running.
  port::Mutex pass_mu_;

  // Unregistered groups that the layer's published map may still name.
  std::vector<std::shared_ptr<TableFilterGroups>> unpublished_ GUARDED_BY(mu_);

  mutable port::Mutex mu_;
  port::CondVar loads_done_;  // signalled when a load or registration ends
  MultiQueue mq_ GUARDED_BY(mu_);
  // One record per file: groups, unit limits, level, live / retired /
  // seeded state, loads in flight.
  FileRegistry registry_ GUARDED_BY(mu_);
  // Attached segments below their unit target: the target.
  std::unordered_map<SegmentId, int> deficits_ GUARDED_BY(mu_);
  // Memory may have been freed, or deficits added, since the last top-up.
  bool topup_pending_ GUARDED_BY(mu_) = false;
  // Files taken for background registration that have not registered yet.
  int registrations_in_flight_ GUARDED_BY(mu_) = 0;
  // Planned loads not finished yet (queued or reading).
  int loads_outstanding_ GUARDED_BY(mu_) = 0;
  uint64_t attached_keys_ GUARDED_BY(mu_) = 0;
  uint64_t locator_bytes_ GUARDED_BY(mu_) = 0;  // of registered files
  uint64_t budget_bytes_ GUARDED_BY(mu_) = 0;   // units and locators
  uint64_t installed_bytes_ GUARDED_BY(mu_) = 0;
  uint64_t records_ GUARDED_BY(mu_) = 0;
  uint64_t region_reads_ GUARDED_BY(mu_) = 0;

  std::thread thread_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_MQ_SCHEDULE_H_
