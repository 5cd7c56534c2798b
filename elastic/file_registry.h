// FileRegistry: what the filter layer (MQSchedule) knows about each table
// file, one FileRecord per file number, from the first fact learned about
// the file (its level, a seed, a registration, its place in the live set)
// until the file is deleted (Forget).
//
// A file moves through these states:
//   seeded      hotness and unit targets wait for the file to register;
//   registered  a table of it was opened: its filter groups (or none) are
//               what Screen() finds; the seed is used up;
//   retired     it left the live set: it is unregistered and never
//               registers again;
//   forgotten   it was deleted: the record is gone.
// Its level and whether it is live are kept alongside, whatever the state.
//
// A plain data structure: not thread-safe. MQSchedule uses it under its
// mutex. Per-segment state (MultiQueue, unit targets) is not kept here.
#ifndef STORAGE_LEVELDB_ELASTIC_FILE_REGISTRY_H_
#define STORAGE_LEVELDB_ELASTIC_FILE_REGISTRY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "elastic/hotness_inheritance.h"

namespace leveldb {

class TableFilterGroups;

// Every per-file fact. Changed only through FileRegistry's operations.
struct FileRecord {
  // A table of the file was opened and the file has not left since.
  bool registered = false;
  // Registered: the file's filter groups; null: read without ElasticBF
  // filters.
  std::shared_ptr<TableFilterGroups> groups;
  // Per segment of `groups`: units that may be loaded (the table's group
  // size, lowered below a unit that failed to load).
  std::vector<int> unit_limit;
  // Segments the file registered with groups with, now or earlier (its
  // hotness is known); 0: none yet.
  uint32_t segments = 0;
  // LSM level, once the DB told us.
  std::optional<int> level;
  // In the live set of the last ReportFiles.
  bool live = false;
  // Left the live set and not deleted yet: never registers again.
  bool retired = false;
  // Hotness and unit targets for when the file registers.
  std::optional<InheritedHotness> seed;
  // Holds of `groups` by loads in flight (an attach's opening loads hold
  // it once): units above them would not install yet.
  int busy = 0;
  // Bytes of the file, as the DB reported it (0: not reported).
  uint64_t file_size = 0;
  // Handed out by TakeUnregistered once: not handed out again.
  bool registration_taken = false;
};

class FileRegistry {
 public:
  FileRegistry() = default;

  FileRegistry(const FileRegistry&) = delete;
  FileRegistry& operator=(const FileRegistry&) = delete;

  // The record of a file, or null if nothing is known about it.
  const FileRecord* Find(uint64_t number) const;
  // The record of a registered file (with or without groups), else null.
  const FileRecord* FindRegistered(uint64_t number) const;
  // The record of a file registered with filter groups, else null.
  const FileRecord* FindAttached(uint64_t number) const;
  // The record of a file registered with exactly `groups` (not null): a
  // load into an instance that was unregistered meanwhile finds nothing.
  const FileRecord* FindHolding(uint64_t number,
                                const TableFilterGroups* groups) const;

  // Registers a file with `groups` (null: no ElasticBF filter). False for
  // a file registered already or retired.
  bool Register(uint64_t number, std::shared_ptr<TableFilterGroups> groups);
  // A registered file's groups have `segments` segments, each allowed
  // `max_units` units; its hotness is known from now on.
  void SetSegments(uint64_t number, uint32_t segments, int max_units);
  // A registered file keeps no groups after all (read without filters);
  // its hotness is no longer known.
  void DropGroups(uint64_t number);
  // Ends a registration; returns the groups the file had (the caller
  // retires them). Level, liveness and known segments stay.
  std::shared_ptr<TableFilterGroups> Unregister(uint64_t number);

  // Seeds a file that has neither registered nor been seeded; false
  // otherwise (its own history wins).
  bool Seed(uint64_t number, const InheritedHotness& hotness);
  // Removes and returns a file's seed, if it has one.
  std::optional<InheritedHotness> TakeSeed(uint64_t number);

  // Records a file's level; false if it was recorded with this level.
  bool SetLevel(uint64_t number, int level);

  // The file left the live set: it never registers again. The caller
  // unregisters it.
  void Retire(uint64_t number);

  // The file was deleted: drops its record, whatever it holds.
  void Forget(uint64_t number);

  // Drops every record.
  void Clear();

  // Makes `live` the live set; returns the files that were live and are
  // not any more (the caller retires them).
  std::vector<uint64_t> ReplaceLiveSet(
      const std::unordered_set<uint64_t>& live);
  // Records the size of a file the DB reports live.
  void SetFileSize(uint64_t number, uint64_t file_size);
  // Up to `max` live files of known size that have never registered, nor
  // been handed out here before, as (number, size): the files the filter
  // layer can register in the background. Each is handed out once.
  std::vector<std::pair<uint64_t, uint64_t>> TakeUnregistered(size_t max);
  // True if TakeUnregistered would hand out a file.
  bool HasUnregistered() const { return !unregistered_.empty(); }
  // True once a live set was reported: budgets then count live files only.
  bool live_set_reported() const { return live_set_reported_; }

  // A load into `groups` of the file starts; no-op unless the file is
  // registered with that instance.
  void BeginLoad(uint64_t number, const TableFilterGroups* groups);
  // A load into `groups` of the file ends; no-op if the file no longer
  // holds that instance.
  void EndLoad(uint64_t number, const TableFilterGroups* groups);
  // True if loads into any registered file's groups are in flight.
  bool AnyBusy() const { return busy_total_ > 0; }

  // Unit `unit` of segment `segment` failed to load: neither it nor any
  // unit above it is loaded while the file stays registered.
  void LowerUnitLimit(uint64_t number, uint32_t segment, int unit);

  // Calls fn(number, record) for each registered file, in no set order.
  void ForEachRegistered(
      const std::function<void(uint64_t, const FileRecord&)>& fn) const;
  size_t registered_count() const { return registered_count_; }

 private:
  FileRecord* MutableRegistered(uint64_t number);

  std::unordered_map<uint64_t, FileRecord> records_;
  // Live files of known size not registered yet and not handed out
  // (a superset: entries are checked again when taken).
  std::unordered_set<uint64_t> unregistered_;
  size_t registered_count_ = 0;
  int busy_total_ = 0;  // sum of busy over registered records
  bool live_set_reported_ = false;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_FILE_REGISTRY_H_
