// UnitManager: ElasticBF's filter memory, for the databases that join it.
//
// It owns the budget, the MultiQueue (hotness and decisions), the unit
// targets, the unit loads and evictions and the background thread. What it
// knows of a database comes through the database's UnitClient (its filter
// layer and a way to open its table files) and the calls below, each naming
// the database by the handle Join() returned; the files themselves (which
// are registered, live, seeded, at which level) are the database's business
// (MQSchedule, elastic/mq_schedule.h), which tells the manager what changed.
//
//   background:  for each database, drains its layer's ring; for each record
//                MultiQueue::RecordAccess and PlanAccess; evictions are
//                applied at once (units are unpublished and retired to the
//                layer's EpochDomain), loads are read from disk outside the
//                mutex (through UnitClient::OpenFile) and then installed, or
//                rolled back with AbortLoad if the read or CRC check fails.
//                Between passes it lets each database register a few live
//                files no Get has opened yet (UnitClient::RegisterPending).
//
// Loaded units and segment locators never exceed the budget together: the
// locators of attached tables are taken off the budget first, MultiQueue
// reserves a unit's bytes before its load starts, and a unit is installed
// only while its reservation holds. A unit is charged
// FilterUnitMemoryBytes(unit size): the 64-bit words it occupies once
// loaded.
//
// Locking: a database calls in holding its own mutex, never the reverse
// (the manager calls its client only without holding its own mutex, or
// for lock-free layer operations).
//
// A manager built for one database (UnitManagerOptions::shared false)
// serves that database only: its segments are keyed by the database's own
// file numbers and expiry compares last accesses on the database's clock.
// A shared manager (an ElasticFilterBudget's, elastic/shared_budget.h)
// serves every database that joins it: each (database, file) gets a queue
// file number of its own, assigned when the file's segments first join the
// MultiQueue and kept until the file is forgotten or its database leaves,
// and the members' layers tick one clock, the manager's, so that last
// accesses compare across databases.
#ifndef STORAGE_LEVELDB_ELASTIC_UNIT_MANAGER_H_
#define STORAGE_LEVELDB_ELASTIC_UNIT_MANAGER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <thread>  // NOLINT
#include <unordered_map>
#include <utility>
#include <vector>

#include "elastic/filter_layer.h"
#include "elastic/memo_sizer.h"
#include "elastic/multi_queue.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/status.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/io_stats.h"

namespace leveldb {

class ElasticIndex;
struct InheritedHotness;
class Logger;
class RandomAccessFile;
class TableFilterGroups;
struct UnitBuffer;

struct UnitManagerOptions {
  // Budget (memory_budget_bytes or memory_bits_per_key), unit shape and
  // lifetime; an automatic unit shape is resolved by the manager.
  ElasticFilterOptions elastic;
  Logger* info_log = nullptr;  // unit load failures are reported here
  // Where the unit load/eviction counters are kept (their only copy);
  // null: in the manager.
  IoStats* stats = nullptr;
  // False: no background thread; access records are processed only when a
  // test asks (deterministic tests).
  bool background_thread = true;
  // Lower bound of the automatic lifetime (ElasticFilterOptions::lifetime 0).
  uint64_t min_auto_lifetime = 64;
  // Gets between two decisions on a memo's size (MemoSizer).
  uint64_t memo_window_gets = uint64_t{1} << 16;
  // Several databases may join (a shared budget): segments are keyed by
  // (database, file) and the members share the manager's clock. Tables
  // keep the unit count they were written with (up to the most a group may
  // have), whatever the shape of `elastic`.
  bool shared = false;
};

// What the manager needs of a database.
class UnitClient {
 public:
  virtual ~UnitClient() = default;
  // The database's Get path: its ring, clock and epoch domain.
  virtual FilterLayer* layer() = 0;
  // Opens a table file for unit reads.
  virtual Status OpenFile(uint64_t file_number,
                          std::unique_ptr<RandomAccessFile>* file) = 0;
  // Registers up to `max` live files no Get has opened yet (calling back
  // into AttachTable); returns how many it tried. Called on the background
  // thread between passes, and by tests waiting for quiet.
  virtual size_t RegisterPending(size_t max) = 0;
  // Where a shared manager reports this database's unit load failures and
  // refused tables (a manager of one database uses its options' log).
  virtual Logger* info_log() { return nullptr; }
  // A shared manager's other members freed memory: tables refused for
  // lack of room try again. Called on the background thread (or by tests
  // waiting for quiet), without the manager's mutex.
  virtual void RetryRefused() {}
  // The most bytes the database's false-positive memo (its layer's) may
  // take; the manager sizes it within that (MemoSizer), and grants memos
  // together at most a small share of what the locators leave of the
  // budget (elastic/unit_budget.cc).
  virtual size_t memo_request() { return 0; }
};

class UnitManager {
 public:
  using SegmentId = MultiQueue::SegmentId;
  using DbHandle = int;

  // Snapshot of the manager's state, for properties and tests.
  struct Stats {
    MultiQueue::Stats mq;
    uint64_t installed_bytes = 0;  // memory of units readers can use
    uint64_t attached_tables = 0;  // tables with filter groups
    uint64_t attached_keys = 0;
    // Memory of the attached tables' segment locators, charged to the
    // budget before units.
    uint64_t locator_bytes = 0;
    uint64_t budget_bytes = 0;  // units, locators and memos together
    // Memory of the databases' false-positive memos, charged to the budget
    // after the locators and before the units; their hits and inserts.
    uint64_t memo_bytes = 0;
    uint64_t memo_hits = 0;
    uint64_t memo_inserts = 0;
    uint64_t memo_grows = 0;  // MemoSizer decisions, all members
    uint64_t memo_shrinks = 0;
    // Keys the budget is computed over (see NewTable::budget_keys).
    uint64_t budget_keys = 0;
    uint64_t records = 0;     // access records processed
    uint64_t ring_drops = 0;  // access records lost to a full ring
    // The unit counters of UnitManagerOptions::stats.
    uint64_t unit_loads = 0;  // units read and installed
    uint64_t unit_load_bytes = 0;
    uint64_t unit_load_failures = 0;  // read or CRC failures
    uint64_t region_reads = 0;        // sequential unit-region reads
    uint64_t unit_evictions = 0;      // units dropped to free memory
    // A shared manager: the figures above are the budget's (all members);
    // the db_* ones those of the database GetStats was asked about.
    bool shared = false;
    uint64_t members = 0;  // databases joined
    uint64_t db_unit_bytes = 0;
    uint64_t db_locator_bytes = 0;
    uint64_t db_tables_attached = 0;
  };

  // A table a database registers with filter groups.
  struct NewTable {
    uint64_t file_number = 0;
    std::shared_ptr<TableFilterGroups> groups;
    // Hotness and unit targets its segments start from (inherited or
    // seeded); null: none.
    const InheritedHotness* source = nullptr;
    int level = 0;
    int initial_units = 0;
    // The keys the database's share of the budget is computed over, this
    // table's included if `counted`; an uncounted table (a compaction
    // output not live yet) brings its keys' share for its locator only.
    uint64_t budget_keys = 0;
    bool counted = true;
    // Tried again after a refusal for lack of room: another refusal is not
    // logged again.
    bool retry = false;
  };

  // rounds[u]: the segments of a new table whose unit u is reserved, to be
  // read by LoadInitialUnits.
  using InitialLoads = std::vector<std::vector<uint32_t>>;

  // What changed in a database's files, applied in one critical section.
  struct FileChanges {
    struct Retag {
      uint64_t file_number;
      uint32_t segments;  // of the file, attached or not
      int level;
    };
    std::vector<Retag> retags;
    // Tables whose units and locators are freed (their hotness stays).
    std::vector<uint64_t> detached;
    // Files whose hotness is dropped too (deleted).
    std::vector<uint64_t> forgotten;
    uint64_t budget_keys = 0;  // see NewTable::budget_keys
  };

  explicit UnitManager(const UnitManagerOptions& options);
  UnitManager(const UnitManager&) = delete;
  UnitManager& operator=(const UnitManager&) = delete;
  // Stops the background thread. Every database must have left.
  ~UnitManager();

  // A database joins; the handle names it in the calls below. Its client
  // must stay valid until Leave. Fails if a database has joined already
  // and the manager is not shared. Safe from any thread.
  Status Join(UnitClient* client, DbHandle* db) LOCKS_EXCLUDED(mu_);
  // Waits for the database's loads and frees every unit and locator of it;
  // a shared manager also forgets its segments' hotness. Safe from any
  // thread; the memory is the other members' on return.
  void Leave(DbHandle db) LOCKS_EXCLUDED(mu_, pass_mu_);

  // Joins a new table's segments to the MultiQueue, with the source's
  // hotness, and reserves its first units: up to min(target, initial)
  // each, where a segment's target is the source's or initial_units. The
  // units still missing to reach a target come later from free memory,
  // hottest segments first (a "top-up": it never evicts). False if the
  // budget has no room even for the table's locator: it is detached again
  // and read without filters.
  bool AttachTable(DbHandle db, const NewTable& table, InitialLoads* loads)
      LOCKS_EXCLUDED(mu_);
  // Reads the units AttachTable reserved, from `file` (null: opened through
  // the client), a whole region at a time when every segment wants it.
  void LoadInitialUnits(DbHandle db, uint64_t file_number,
                        const std::shared_ptr<TableFilterGroups>& groups,
                        RandomAccessFile* file, const InitialLoads& loads)
      LOCKS_EXCLUDED(mu_);
  // Applies a database's file changes, then its new share of the budget.
  void Apply(DbHandle db, const FileChanges& changes) LOCKS_EXCLUDED(mu_);

  // Hotness of `segments` segments of a file known to the MultiQueue; unit
  // targets too if `attached` (else -1: unknown).
  void GetHotness(DbHandle db, uint64_t file_number, uint32_t segments,
                  bool attached, InheritedHotness* hotness) const
      LOCKS_EXCLUDED(mu_);

  // Background registrations taken (delta > 0) or finished (< 0): tests
  // waiting for quiet wait for them too.
  void CountRegistrations(int delta) LOCKS_EXCLUDED(mu_);

  // `db`: the member whose db_* figures are wanted (-1: none).
  Stats GetStats(DbHandle db = -1) const LOCKS_EXCLUDED(mu_);
  // Consistent pair: bytes of installed units, locators and memos, and the
  // budget of all three.
  void GetMemory(uint64_t* installed_bytes, uint64_t* budget_bytes) const
      LOCKS_EXCLUDED(mu_);

  // Notified by the databases' layers when records pile up.
  WakeSignal* wake() { return &wake_; }
  // The clock the members' layers tick: the manager's if shared, else
  // null (each layer keeps its own).
  std::atomic<uint64_t>* shared_clock() {
    return options_.shared ? &clock_ : nullptr;
  }
  // The options with the unit shape resolved.
  const UnitManagerOptions& options() const { return options_; }

 private:
  friend class MQScheduleTestPeer;  // tests/elastic_test_peer.h

  struct Member {
    UnitClient* client = nullptr;
    uint64_t budget_keys = 0;
    // Shared: another member freed memory since the last RetryRefused.
    bool retry_refused = false;
    size_t memo_request = 0;    // UnitClient::memo_request at Join
    size_t memo_target = 0;     // the size its sizer wants
    bool memo_weighed = false;  // the sizer has decided once
    std::unique_ptr<MemoSizer> sizer;
  };
  // A table attached with filter groups.
  struct Table {
    DbHandle db = 0;
    uint64_t file_number = 0;
    std::shared_ptr<TableFilterGroups> groups;
    // Per segment: units the file can provide (the group size, lowered
    // below a unit that failed to load). A cap, not a target.
    std::vector<int> unit_cap;
    // Loads in flight holding `groups` (an attach's opening loads hold it
    // once): units above them would not install yet.
    int busy = 0;
  };
  // A reserved unit to read.
  struct Load {
    SegmentId id;
    int unit;
  };
  // The memory budget.
  struct Budget {
    uint64_t total = 0;  // units, locators and memos together
    uint64_t memos = 0;  // the members' false-positive memos
    uint64_t units = 0;  // what the locators and memos leave
  };
  enum LoadCheck { kDoLoad, kSkipLoad };

  // The MultiQueue's key of a database's file: its file number if the
  // manager is not shared, else the number assigned to (db, file) (0:
  // none yet).
  uint64_t QueueFileLocked(DbHandle db, uint64_t file_number) const
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // As QueueFileLocked, assigning a number to (db, file) if it has none.
  uint64_t AssignQueueFileLocked(DbHandle db, uint64_t file_number)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The MultiQueue's key of a database's segment (see QueueFileLocked).
  SegmentId QueueIdLocked(DbHandle db, uint64_t file_number, uint32_t seg) const
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Drops a file's hotness and, if shared, its queue file number.
  void ForgetFileLocked(DbHandle db, uint64_t file_number)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Where to report a database's failures.
  Logger* LogOfLocked(DbHandle db) const EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // unit_manager.cc: the background thread and decisions.
  void BackgroundLoop() LOCKS_EXCLUDED(mu_);
  // Processes every database's records and pending registrations, in the
  // calling thread, and waits until no unit load is in flight.
  void WaitIdle() LOCKS_EXCLUDED(mu_);
  // Drains one database's ring (up to a batch) and executes the resulting
  // plans; returns the number of records processed.
  size_t ProcessRecords(DbHandle db) LOCKS_EXCLUDED(mu_);
  // Shared: asks every member but `db` to retry its refused tables.
  void OthersFreedMemoryLocked(DbHandle db) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Calls the client's RetryRefused if its flag is set (and clears it).
  void RetryRefusedIfAsked(DbHandle db, UnitClient* client) LOCKS_EXCLUDED(mu_);
  // The clients to serve in one pass.
  std::vector<std::pair<DbHandle, UnitClient*>> Clients() const
      LOCKS_EXCLUDED(mu_);
  // Joins a new table's segments at `level`, with the source's hotness if
  // it has one per segment.
  void JoinSegmentsLocked(DbHandle db, uint64_t file_number,
                          const ElasticIndex& index,
                          const InheritedHotness* source, int level)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Reserves a new table's first units: rounds[u] lists the segments whose
  // unit u is reserved.
  InitialLoads PlanInitialUnitsLocked(DbHandle db, uint64_t file_number,
                                      const std::vector<int>& target,
                                      int initial)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Drops a table's units and takes its segments out of the MultiQueue
  // (their hotness stays); no-op for a table not attached.
  void DetachLocked(DbHandle db, uint64_t file_number)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Unpublishes the units the MultiQueue took from victims; each victim's
  // segment keeps the lost unit as a top-up target, so memory freed later
  // (a compaction's inputs retired, a file deleted) brings it back rather
  // than sitting idle, and compaction outputs inherit the target.
  void DropVictimsLocked(const std::vector<MultiQueue::Victim>& victims)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // unit_budget.cc: the budget and the memos' share of it.
  // The budget for the databases' keys plus `extra_keys`: the one place
  // it is computed.
  Budget ComputeBudgetLocked(uint64_t extra_keys) const
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Applies ComputeBudgetLocked(0): records it and hands the units' part to
  // the MultiQueue, which evicts down to it.
  void UpdateBudgetLocked() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Sizes each member's memo to its target (before its first decision, a
  // small share of the budget), the memos together within a share of what
  // the locators leave of `total` (members in handle order); a resize
  // keeps the entries that fit.
  void SizeMemosLocked(uint64_t total) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Weighs a member's memo against the units once a window of Gets has
  // passed, and applies a new size to the budget.
  void WeighMemoLocked(Member* member) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // What the attached tables' locators leave of `total` bytes.
  uint64_t AfterLocatorsLocked(uint64_t total) const
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Bytes of the members' memos.
  uint64_t MemoBytesLocked() const EXCLUSIVE_LOCKS_REQUIRED(mu_);
  uint64_t BudgetKeysLocked() const EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // unit_manager.cc again: top-ups.
  // When top-ups are pending: reserves units for segments below their
  // target, from free memory only, hottest first, one unit per segment per
  // round; appends the loads.
  void PlanTopUpsLocked(std::vector<Load>* loads) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The segments with a target, hottest first (most absent probes, then
  // most accesses, then lowest id).
  std::vector<SegmentId> TopUpOrderLocked() const EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A segment's unit target: the units it holds, or its pending target if
  // larger.
  int TargetUnitsLocked(SegmentId id) const EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The table of a queue key's file, or null.
  Table* FindTableLocked(SegmentId id) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The table attached with exactly `groups`, or null: a load into an
  // instance that was detached meanwhile finds nothing.
  Table* FindHoldingLocked(SegmentId id, const TableFilterGroups* groups)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Adds n to a unit counter (kept in stats_ only).
  void AddStat(std::atomic<uint64_t> IoStats::*counter, uint64_t n);

  // unit_loads.cc: unit I/O.
  // Reads and installs reserved units, one at a time.
  void ExecuteLoads(const std::vector<Load>& loads) LOCKS_EXCLUDED(mu_);
  // Opens a database's table file for unit reads.
  Status OpenForLoads(DbHandle db, uint64_t file_number,
                      std::unique_ptr<RandomAccessFile>* file)
      LOCKS_EXCLUDED(mu_);
  // The one way a reserved unit is read: if it is still wanted, reads it
  // from `file` (or takes open_status's failure) and installs it, or gives
  // the reservation back; ends the load. `count_busy`: mark the table busy
  // while reading (false when the caller holds it busy already).
  void LoadUnit(const std::shared_ptr<TableFilterGroups>& groups,
                RandomAccessFile* file, const Status& open_status,
                const Load& load, bool count_busy) LOCKS_EXCLUDED(mu_);
  // Unit `unit` of every segment of a new table, in one sequential read.
  void LoadRegion(DbHandle db, uint64_t file_number, uint64_t queue_file,
                  const std::shared_ptr<TableFilterGroups>& groups,
                  RandomAccessFile* file, const Status& open_status, int unit)
      LOCKS_EXCLUDED(mu_);
  // Installs a finished read, or rolls the reservation back. A failure is
  // logged unless `log_failure` is false (the caller reported it).
  void FinishLoadLocked(const TableFilterGroups* groups, SegmentId id, int unit,
                        const Status& read_status, UnitBuffer* buffer,
                        bool log_failure = true) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Decides, before its I/O, whether a reserved unit is still worth
  // reading into `groups`; gives the reservation back when it cannot be
  // installed.
  LoadCheck CheckLoadLocked(const TableFilterGroups* groups, SegmentId id,
                            int unit) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // One planned load is over (groups: the instance it kept busy, or null).
  void EndLoadLocked(SegmentId id, const TableFilterGroups* groups)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Marks the table holding `groups` busy (delta 1) or not (-1).
  void SetBusyLocked(SegmentId id, const TableFilterGroups* groups, int delta)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const UnitManagerOptions options_;
  // The one copy of the unit counters: options_.stats, else own_stats_.
  IoStats own_stats_;
  IoStats* const stats_;
  WakeSignal wake_;  // of the background thread; outlives the layers
  std::atomic<bool> paused_{false};
  // Held by the background thread for each processing pass, so that
  // pausing it (tests) or a database leaving returns only once no pass is
  // running.
  port::Mutex pass_mu_ ACQUIRED_BEFORE(mu_);

  mutable port::Mutex mu_;
  port::CondVar loads_done_;  // signalled when a load or registration ends
  MultiQueue mq_ GUARDED_BY(mu_);
  std::unordered_map<DbHandle, Member> members_ GUARDED_BY(mu_);
  DbHandle next_db_ GUARDED_BY(mu_) = 0;
  // Keyed by QueueFileLocked(db, file number).
  std::unordered_map<uint64_t, Table> tables_ GUARDED_BY(mu_);
  // Shared: the queue file number of each (db, file) the MultiQueue knows.
  std::map<std::pair<DbHandle, uint64_t>, uint64_t> queue_files_
      GUARDED_BY(mu_);
  uint64_t next_queue_file_ GUARDED_BY(mu_) = 1;
  // The one store of unit targets: a segment's target is the larger of its
  // entry here and the units it holds (no entry: the units it holds). An
  // entry goes once reached, or when it cannot be reached.
  std::unordered_map<SegmentId, int> targets_ GUARDED_BY(mu_);
  int busy_tables_ GUARDED_BY(mu_) = 0;  // sum of Table::busy
  // Memory may have been freed, or targets added, since the last top-up.
  bool topup_pending_ GUARDED_BY(mu_) = false;
  // Files taken for background registration that have not registered yet.
  int registrations_in_flight_ GUARDED_BY(mu_) = 0;
  // Planned loads not finished yet (queued or reading).
  int loads_outstanding_ GUARDED_BY(mu_) = 0;
  uint64_t attached_keys_ GUARDED_BY(mu_) = 0;
  uint64_t locator_bytes_ GUARDED_BY(mu_) = 0;  // of attached tables
  uint64_t budget_bytes_ GUARDED_BY(mu_) = 0;   // units and locators
  uint64_t installed_bytes_ GUARDED_BY(mu_) = 0;
  uint64_t records_ GUARDED_BY(mu_) = 0;
  uint64_t region_reads_ GUARDED_BY(mu_) = 0;

  // Shared: the members' logical clock (one Tick per Get of any member).
  alignas(64) std::atomic<uint64_t> clock_{0};

  std::thread thread_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_UNIT_MANAGER_H_
