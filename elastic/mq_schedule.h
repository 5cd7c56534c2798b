// MQSchedule: ElasticBF's per-database part, the facade the DB, its
// TableCache and VersionSet use.
//
// It owns the DB's FilterLayer (elastic/filter_layer.h: file map, Screen,
// clock, access ring) and its FileRegistry (one record per table file: its
// state, level, liveness, seed and filter groups), and it speaks for the DB
// to a UnitManager (elastic/unit_manager.h), which owns the filter memory:
// budget, MultiQueue, unit targets, loads, evictions and the background
// thread. Each MQSchedule builds its own manager from its options, unless
// they carry a shared budget (ElasticFilterOptions::shared_budget): it then
// joins the budget's manager with the other databases using it, and its
// layer ticks the manager's clock.
//
// A table file moves through the registry's states (file_registry.h):
// known (facts only, from ReportFiles or a seed) -> registered (a table of
// it was opened: AttachTable) -> retired (it left the live set) -> forgotten
// (deleted: ForgetFile). A file registered with filter groups is attached
// to the manager from registration until it retires or is forgotten; after
// each registration change the registered files are published to the
// layer, whose Screen() lets a Get rule a table out before the table cache
// is asked for it.
//
// What it knows of a DB comes through its interfaces only (the layer, the
// opener, the reports of live files), not from the DB itself.
#ifndef STORAGE_LEVELDB_ELASTIC_MQ_SCHEDULE_H_
#define STORAGE_LEVELDB_ELASTIC_MQ_SCHEDULE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "elastic/file_registry.h"
#include "elastic/filter_layer.h"
#include "elastic/hotness_inheritance.h"
#include "elastic/multi_queue.h"
#include "elastic/table_file_opener.h"
#include "elastic/unit_manager.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/status.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/io_stats.h"

namespace leveldb {

class Logger;
class RandomAccessFile;
class TableFilterGroups;

// The manager's options (budget, unit shape, lifetime, counters, thread),
// then the database's own.
struct MQScheduleOptions : UnitManagerOptions {
  // Access ring slots, rounded up to a power of two (at least 64).
  size_t ring_capacity = size_t{1} << 14;
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

class MQSchedule : public UnitClient {
 public:
  using SegmentId = MultiQueue::SegmentId;
  using Stats = UnitManager::Stats;
  using Screening = FilterLayer::Screening;

  explicit MQSchedule(const MQScheduleOptions& options);

  MQSchedule(const MQSchedule&) = delete;
  MQSchedule& operator=(const MQSchedule&) = delete;

  // Leaves the manager, which frees every unit and locator of the DB.
  ~MQSchedule() override;

  // The DB's Get path: clock, screening and access records.
  FilterLayer* layer() override { return &layer_; }
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
  // checkpoints): for a registered segment the units it holds, or the
  // target it is still being topped up to if larger; for a retired file -1
  // (unknown); for a seeded file its seed. False if the file is unknown.
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
  // seeds it as SeedFileHotness would (a file already known or seeded
  // costs lookups only). A file that was live in an earlier report and is
  // missing from this one has been compacted away: its units and locator
  // are freed at once, so the budget serves only live tables, even while
  // an old version keeps the table open. Its hotness stays (for
  // inheritance) until ForgetFile. From the first report on,
  // memory_bits_per_key counts only the keys of live tables: a table being
  // written by a compaction, registered before its version is installed,
  // shares the budget of its inputs meanwhile.
  void ReportFiles(const std::vector<FileReport>& files) LOCKS_EXCLUDED(mu_);

  // Text of the "leveldb.elasticbf" property.
  std::string StatsString() const LOCKS_EXCLUDED(mu_);

  // Consistent pair: bytes of installed units and locators, and the budget
  // of both.
  void GetMemory(uint64_t* installed_bytes, uint64_t* budget_bytes) const;

 private:
  friend class MQScheduleTestPeer;  // tests/elastic_test_peer.h

  // UnitClient: opens a table file for unit reads (MQScheduleOptions::
  // opener).
  Status OpenFile(uint64_t file_number,
                  std::unique_ptr<RandomAccessFile>* file) override;
  // UnitClient: registers up to `max` live files no Get has opened yet
  // (MQScheduleOptions::register_live_files), opening them through the
  // opener; returns how many it tried.
  size_t RegisterPending(size_t max) override LOCKS_EXCLUDED(mu_);
  // UnitClient: the DB's info log.
  Logger* info_log() override { return options_.info_log; }
  // UnitClient: tables refused for lack of room try again.
  void RetryRefused() override LOCKS_EXCLUDED(mu_);
  size_t memo_request() override {
    return options_.elastic.false_positive_memo_bytes;
  }

  // Opens a live file's table and registers it (as AttachTable); failures
  // are logged.
  void RegisterLiveFile(uint64_t file_number, uint64_t file_size)
      LOCKS_EXCLUDED(mu_);
  // Attaches a registered file's groups to the manager, with the
  // inherited or seeded hotness; a table the budget has no room for keeps
  // its groups waiting (retry: it is such a table, tried again).
  void AttachGroupsLocked(uint64_t file_number,
                          const std::shared_ptr<TableFilterGroups>& groups,
                          const InheritedHotness* inherited, int initial_units,
                          UnitManager::InitialLoads* loads, bool retry = false)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Tries the waiting tables again (after tables were detached); true if
  // any got its groups attached (the caller publishes).
  bool RetryWaitingLocked() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The keys this DB's share of the budget is computed over: those of
  // tables with groups that the last ReportFiles listed as live (all such
  // tables before any report).
  uint64_t BudgetKeysLocked() const EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const MQScheduleOptions options_;
  // Declared before layer_: its wake signal outlives the layer.
  const std::shared_ptr<UnitManager> manager_;
  // Destroyed after the registry: it frees what readers may still see.
  FilterLayer layer_;
  UnitManager::DbHandle db_ = 0;

  // Held before the manager's mutex, never after it.
  mutable port::Mutex mu_;
  // One record per file: groups, level, live / retired / seeded state.
  FileRegistry registry_ GUARDED_BY(mu_);
  // Unregistered groups that the layer's published map may still name.
  std::vector<std::shared_ptr<TableFilterGroups>> unpublished_ GUARDED_BY(mu_);
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_MQ_SCHEDULE_H_
