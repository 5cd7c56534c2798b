// ElasticBF segment hotness across compactions and reopens, in one place:
// what compaction outputs inherit from their inputs, what the MANIFEST
// records of it, and the periodic checkpoints that keep the record fresh
// without letting the MANIFEST grow without bound.
//
// DBImpl calls it at five points: compaction start (BeginCompaction),
// output finished (InheritForOutput, then RecordOutput into the edit),
// trivial move (RecordMove), background pass (CheckpointDue, Checkpoint)
// and close (Checkpoint). Inactive (every call a no-op) unless the DB runs
// an elastic policy with inherit_hotness.
#ifndef STORAGE_LEVELDB_DB_HOTNESS_KEEPER_H_
#define STORAGE_LEVELDB_DB_HOTNESS_KEEPER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "leveldb/status.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "table/elastic/segment_key_range.h"

namespace leveldb {

class Compaction;
class Comparator;
class Env;
struct FileMetaData;
struct InheritedHotness;
class Logger;
class MQSchedule;
class TableCache;
class VersionEdit;
class VersionSet;

class HotnessKeeper {
 public:
  using HotnessPtr = std::shared_ptr<const InheritedHotness>;

  // Gets between two checkpoints, by default.
  static constexpr uint64_t kDefaultInterval = uint64_t{1} << 18;
  // A checkpoint starts a new MANIFEST (the full state, then the
  // checkpoint) rather than append one that would take the current one
  // past this many times the size it had when it was started.
  static constexpr uint64_t kManifestGrowth = 2;

  // The segment key ranges of a compaction's input tables, read before the
  // merge.
  struct CompactionInputs {
    struct Table {
      uint64_t number = 0;
      int which = 0;  // 0: the compaction's level, 1: the level below
      std::vector<SegmentKeyRange> segments;
    };
    bool level0 = false;  // the first input level's tables may overlap
    std::vector<Table> tables;
  };

  // `mu` is the DB mutex; every method marked so must be called holding
  // it. `elastic` may be null (ElasticBF off).
  HotnessKeeper(Env* env, const std::string& dbname, Logger* info_log,
                const Comparator* user_comparator, MQSchedule* elastic,
                VersionSet* versions, TableCache* table_cache, port::Mutex* mu);
  ~HotnessKeeper();

  HotnessKeeper(const HotnessKeeper&) = delete;
  HotnessKeeper& operator=(const HotnessKeeper&) = delete;

  bool active() const { return active_; }

  // --- Compactions --------------------------------------------------------

  // Compaction start, without the DB mutex (it reads table tails). Null
  // when inactive.
  std::unique_ptr<CompactionInputs> BeginCompaction(Compaction* c) const;
  // A finished output's segments (its key ranges, in order): the hotness
  // they inherit from the inputs as they are now, also handed to the
  // MQSchedule so the table opens with it. Null when inactive or when the
  // output has no segments. Without the DB mutex.
  HotnessPtr InheritForOutput(const CompactionInputs* inputs, uint64_t number,
                              const std::vector<SegmentKeyRange>* segments);
  // Adds an output's inherited hotness to the compaction's edit.
  void RecordOutput(VersionEdit* edit, uint64_t number,
                    HotnessPtr hotness) const;
  // Adds a moved file's current hotness to the move's edit. DB mutex held.
  void RecordMove(VersionEdit* edit, const FileMetaData& f) const;

  // --- Checkpoints --------------------------------------------------------

  // DB::Open finished: the first checkpoint is due one interval later.
  void Start();
  // Cheap enough for every Get. DB mutex held.
  bool CheckpointDue() const;
  // Records in the MANIFEST the hotness of every live file whose current
  // hotness differs from the recorded one, and the logical clock; starts a
  // new MANIFEST instead when the current one has grown too much. Call
  // from the background thread (the only MANIFEST writer then). A failure
  // is logged and returned, and the next try is one interval later; it is
  // not a background error (hotness is a hint). *new_manifest is set when
  // the MANIFEST changed (the old one is then obsolete). DB mutex held.
  Status Checkpoint(bool* new_manifest);

  // Test knobs and counters. DB mutex held.
  void SetInterval(uint64_t gets);
  uint64_t checkpoints() const;
  uint64_t manifests_started() const;

 private:
  // The current hotness of a live file: the MQSchedule's if it knows the
  // file, else the recorded one.
  HotnessPtr CurrentHotness(const FileMetaData& f) const;
  // The checkpoint edit: what changed since it was last recorded.
  void CollectChanges(VersionEdit* edit) const;
  // True when appending `edit_bytes` would take the MANIFEST past its
  // allowance.
  bool ManifestWouldOutgrow(uint64_t edit_bytes) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  uint64_t ManifestSize() const;

  Env* const env_;
  const std::string dbname_;
  Logger* const info_log_;
  const Comparator* const user_comparator_;
  MQSchedule* const elastic_;
  VersionSet* const versions_;
  TableCache* const table_cache_;
  port::Mutex* const mu_;
  const bool active_;

  // Logical time (Gets) of the next checkpoint, and the interval.
  uint64_t next_clock_ GUARDED_BY(mu_) = 0;
  uint64_t interval_ GUARDED_BY(mu_) = kDefaultInterval;
  uint64_t checkpoints_ GUARDED_BY(mu_) = 0;
  uint64_t manifests_started_ GUARDED_BY(mu_) = 0;
  // The MANIFEST the allowance applies to, and its size when first seen.
  uint64_t manifest_number_ GUARDED_BY(mu_) = 0;
  uint64_t manifest_base_ GUARDED_BY(mu_) = 0;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_HOTNESS_KEEPER_H_
