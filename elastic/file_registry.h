// FileRegistry: what a DB's ElasticBF facade (MQSchedule) knows about each
// table file, one FileRecord per file number, from the first fact learned about
// the file (its level, a seed, its place in the live set) until the file is
// deleted.
//
// A file's state is one FileState; each transition has one verb:
//
//   kKnown --HandOut--> kHandedOut        (taken for background registration)
//   kKnown, kHandedOut --Register--> kRegistered
//   any state --Retire--> kRetired        (it left the live set)
//   any state --Forget--> (no record)     (it was deleted)
//
// Seeding (hotness and unit targets for when the file registers), its level,
// its size and whether it is live are facts kept alongside, whatever the
// state.
//
// A plain data structure: not thread-safe. MQSchedule uses it under its
// mutex. Per-segment state (hotness, units, unit targets, loads in flight)
// is the UnitManager's, not kept here.
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

enum class FileState {
  kKnown,       // facts only: no table of it was opened yet
  kHandedOut,   // handed out for background registration, not registered
  kRegistered,  // a table of it was opened: Screen() finds its groups
  kRetired,     // left the live set: unregistered, never registers again
};

// Every per-file fact. Changed only through FileRegistry's operations.
struct FileRecord {
  FileState state = FileState::kKnown;
  // kRegistered: the file's filter groups; null: read without ElasticBF
  // filters.
  std::shared_ptr<TableFilterGroups> groups;
  // Segments the file registered with groups with, now or earlier (its
  // hotness is known); 0: none yet.
  uint32_t segments = 0;
  // LSM level, once the DB told us.
  std::optional<int> level;
  // In the live set of the last ReportFiles.
  bool live = false;
  // Hotness and unit targets for when the file registers.
  std::optional<InheritedHotness> seed;
  // Bytes of the file, as the DB reported it (0: not reported).
  uint64_t file_size = 0;
  // kRegistered without groups because the budget had no room for them:
  // the groups, kept (never published) to be tried again when room appears.
  std::shared_ptr<TableFilterGroups> waiting;

  bool registered() const { return state == FileState::kRegistered; }
  // Registered with filter groups.
  bool attached() const { return registered() && groups != nullptr; }
};

class FileRegistry {
 public:
  FileRegistry() = default;

  FileRegistry(const FileRegistry&) = delete;
  FileRegistry& operator=(const FileRegistry&) = delete;

  // The record of a file, or null if nothing is known about it.
  const FileRecord* Find(uint64_t number) const;

  // kKnown or kHandedOut -> kRegistered, with `groups` (null: no ElasticBF
  // filter). False (nothing changes) in any other state.
  bool Register(uint64_t number, std::shared_ptr<TableFilterGroups> groups);
  // A registered file's groups have `segments` segments; its hotness is
  // known from now on.
  void SetSegments(uint64_t number, uint32_t segments);
  // A registered file's groups found no room in the budget: it is read
  // without filters, its hotness is no longer known, and the groups wait
  // for Readmit.
  void DropGroups(uint64_t number);
  // The registered files whose groups wait for room.
  std::vector<uint64_t> Waiting() const;
  // Gives a waiting file its groups back; returns them (null if it had
  // none waiting).
  std::shared_ptr<TableFilterGroups> Readmit(uint64_t number);

  // Seeds a file that has neither registered nor been seeded; false
  // otherwise (its own history wins).
  bool Seed(uint64_t number, const InheritedHotness& hotness);
  // Removes and returns a file's seed, if it has one.
  std::optional<InheritedHotness> TakeSeed(uint64_t number);

  // Records a file's level; false if it was recorded with this level.
  bool SetLevel(uint64_t number, int level);

  // Any state -> kRetired: the file left the live set and never registers
  // again. True if it was registered; *groups then receives the groups it
  // had (the caller retires them), while its level, liveness and known
  // segments stay.
  bool Retire(uint64_t number, std::shared_ptr<TableFilterGroups>* groups);

  // The file was deleted: drops its record, whatever its state. True if it
  // was registered, with *groups as for Retire.
  bool Forget(uint64_t number, std::shared_ptr<TableFilterGroups>* groups);

  // Makes `live` the live set; returns the files that were live and are
  // not any more (the caller retires them).
  std::vector<uint64_t> ReplaceLiveSet(
      const std::unordered_set<uint64_t>& live);
  // Records the size of a file the DB reports live.
  void SetFileSize(uint64_t number, uint64_t file_size);
  // kKnown -> kHandedOut for up to `max` live files of known size, returned
  // as (number, size): the files the filter layer can register in the
  // background. Each is handed out once.
  std::vector<std::pair<uint64_t, uint64_t>> HandOut(size_t max);
  // True once a live set was reported: budgets then count live files only.
  bool live_set_reported() const { return live_set_reported_; }

  // Calls fn(number, record) for each registered file, in no set order.
  void ForEachRegistered(
      const std::function<void(uint64_t, const FileRecord&)>& fn) const;
  size_t registered_count() const { return registered_count_; }

 private:
  FileRecord* MutableRegistered(uint64_t number);
  // Leaves kRegistered (to kRetired or no record): gives up the groups.
  void EndRegistration(FileRecord* record,
                       std::shared_ptr<TableFilterGroups>* groups);

  std::unordered_map<uint64_t, FileRecord> records_;
  // Live kKnown files of known size (a superset: entries are checked
  // again when handed out).
  std::unordered_set<uint64_t> unregistered_;
  size_t registered_count_ = 0;
  size_t waiting_count_ = 0;  // registered files with waiting groups
  bool live_set_reported_ = false;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_FILE_REGISTRY_H_
