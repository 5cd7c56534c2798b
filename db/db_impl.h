// The database implementation behind DB::Open.
#ifndef STORAGE_LEVELDB_DB_DB_IMPL_H_
#define STORAGE_LEVELDB_DB_DB_IMPL_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/hotness_keeper.h"
#include "db/level0_cleanup.h"
#include "db/log_writer.h"
#include "db/snapshot.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/io_stats.h"

namespace leveldb {

struct FileMetaData;
struct InheritedHotness;
class MemTable;
class MQSchedule;
struct SegmentKeyRange;
class TableCache;
class Version;
class VersionEdit;
class VersionSet;

class DBImpl : public DB {
 public:
  // owned_policy, if not null, is options.filter_policy: a policy the DB
  // made itself (the LEVELDB_ELASTICBF switch) and deletes when it closes.
  DBImpl(const Options& options, const std::string& dbname,
         std::unique_ptr<const FilterPolicy> owned_policy = nullptr);

  DBImpl(const DBImpl&) = delete;
  DBImpl& operator=(const DBImpl&) = delete;

  ~DBImpl() override;

  // DB interface.
  Status Put(const WriteOptions&, const Slice& key,
             const Slice& value) override;
  Status Delete(const WriteOptions&, const Slice& key) override;
  Status Write(const WriteOptions& options, WriteBatch* updates) override;
  Status Get(const ReadOptions& options, const Slice& key,
             std::string* value) override;
  Iterator* NewIterator(const ReadOptions&) override;
  const Snapshot* GetSnapshot() override;
  void ReleaseSnapshot(const Snapshot* snapshot) override;
  bool GetProperty(const Slice& property, std::string* value) override;
  void GetApproximateSizes(const Range* range, int n, uint64_t* sizes) override;
  void CompactRange(const Slice* begin, const Slice* end) override;

  // Test hooks.

  // Compacts the files of `level` overlapping [*begin, *end] (null bounds
  // are unbounded) into level + 1, and waits for it.
  void TEST_CompactRange(int level, const Slice* begin, const Slice* end);

  // Switches to a fresh memtable and waits until the old one is on disk.
  Status TEST_CompactMemTable();

  // An iterator over every internal entry (all versions, deletions). The
  // caller deletes it.
  Iterator* TEST_NewInternalIterator();

  // See VersionSet::MaxNextLevelOverlappingBytes.
  int64_t TEST_MaxNextLevelOverlappingBytes();

  // Called by DB iterators for a sampled internal key (seek compaction).
  void RecordReadSample(Slice key);

 private:
  friend class DB;
  // Test hooks beyond the four above (tests/db_impl_test_peer.h).
  friend class DBImplTestPeer;
  friend void ResetIoStats(DB* db);
  struct CompactionState;
  struct ManualCompaction;
  struct Writer;

  // Work done by compactions whose output went to one level.
  struct CompactionStats {
    int64_t micros = 0;
    int64_t bytes_read = 0;
    int64_t bytes_written = 0;

    void Add(const CompactionStats& other) {
      micros += other.micros;
      bytes_read += other.bytes_read;
      bytes_written += other.bytes_written;
    }
  };

  // A GetProperty handler for the text after "leveldb." + the handler's
  // name; returns false if the property is unknown or malformed.
  using PropertyHandler = bool (DBImpl::*)(const Slice& suffix,
                                           std::string* value);
  struct PropertyEntry {
    const char* name;
    bool takes_suffix;  // name is a prefix followed by an argument
    PropertyHandler handler;
  };
  static const PropertyEntry kProperties[];

  bool NumFilesAtLevelProperty(const Slice& suffix, std::string* value)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  bool StatsProperty(const Slice& suffix, std::string* value)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  bool SSTablesProperty(const Slice& suffix, std::string* value)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  bool MemoryUsageProperty(const Slice& suffix, std::string* value)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  bool IoStatsProperty(const Slice& suffix, std::string* value)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  bool ElasticProperty(const Slice& suffix, std::string* value)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // The caller's options, with checksum verification forced on when the
  // database was opened with paranoid_checks.
  ReadOptions EffectiveReadOptions(const ReadOptions& options) const;

  Iterator* NewInternalIterator(const ReadOptions&,
                                SequenceNumber* latest_snapshot,
                                uint32_t* seed);

  // Writes the initial MANIFEST and CURRENT of an empty database.
  Status NewDB();

  // Locks the directory, creates or checks the database and replays its
  // logs. Edits to persist are added to *edit; *save_manifest is set when a
  // new MANIFEST must be written.
  Status Recover(VersionEdit* edit, bool* save_manifest)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // With paranoid_checks off, corruption found during recovery is logged
  // and ignored.
  void MaybeIgnoreError(Status* s) const;

  // Deletes every file of the database directory that is no longer needed.
  void RemoveObsoleteFiles() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // Flushes imm_ to a level-0 (or deeper) table.
  void CompactMemTable() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  Status RecoverLogFile(uint64_t log_number, bool last_log, bool* save_manifest,
                        VersionEdit* edit, SequenceNumber* max_sequence)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // Writes mem to a new table and records it in *edit. base, if not null,
  // is used to pick a level deeper than 0.
  Status WriteLevel0Table(MemTable* mem, VersionEdit* edit, Version* base)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // Makes sure mem_ can take another write (force: switch regardless).
  Status MakeRoomForWrite(bool force) EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // Moves mem_ to imm_ and starts a new memtable and log.
  // Syncs and closes the previous log, if it is still unsynced.
  Status SyncPreviousLog() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Closes the previous log without syncing it (its data is in a table).
  void ReleasePreviousLog() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  Status SwitchMemTable() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // Merges the batches of the writers at the front of the queue; sets
  // *last_writer to the last one included.
  WriteBatch* BuildBatchGroup(Writer** last_writer)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  void RecordBackgroundError(const Status& s) EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  void MaybeScheduleCompaction() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  static void BGWork(void* db);
  void BackgroundCall();
  void BackgroundCompaction() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // The compaction size or seek counts call for, else the cleanup of
  // level-0 or level-1 leftovers if one is due; null if there is nothing
  // to do.
  Compaction* PickAutomaticCompaction() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // A Get reached the tables: counts it toward the level-0 cleanup; true
  // when that makes the cleanup due.
  bool NoteTableRead() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Level 1 holds tables the cleanup should take into level 2 once the
  // writers are quiet.
  bool HasLevel1Leftover() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void CleanupCompaction(CompactionState* compact)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  Status DoCompactionWork(CompactionState* compact)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  Status OpenCompactionOutputFile(CompactionState* compact)
      LOCKS_EXCLUDED(mutex_);
  Status FinishCompactionOutputFile(CompactionState* compact, Iterator* input);
  Status InstallCompactionResults(CompactionState* compact)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // A hotness checkpoint (HotnessKeeper::Checkpoint), then removal of the
  // MANIFEST it may have replaced.
  Status CheckpointHotness() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const Comparator* user_comparator() const {
    return internal_comparator_.user_comparator();
  }

  // Constant after construction.
  Env* const env_;
  // Outlives everything below that uses options_.filter_policy: members
  // are destroyed after the destructor's body has closed the tables.
  const std::unique_ptr<const FilterPolicy> owned_filter_policy_;
  const InternalKeyComparator internal_comparator_;
  const InternalFilterPolicy internal_filter_policy_;
  const Options options_;  // options_.comparator == &internal_comparator_
  const bool owns_info_log_;
  const bool owns_cache_;
  const std::string dbname_;

  // Read-path and compaction counters, reported by
  // GetProperty("leveldb.io-stats"). Atomic: updated without mutex_.
  // Declared before elastic_, which reports unit loads and evictions into
  // them.
  IoStats io_stats_;

  // ElasticBF (null when off): thread-safe. Created before and destroyed
  // after table_cache_, whose open tables are attached to it.
  MQSchedule* const elastic_;

  // Thread-safe; caches open tables.
  TableCache* const table_cache_;

  // Held for the life of the DB; set by Recover.
  FileLock* db_lock_ GUARDED_BY(mutex_);

  port::Mutex mutex_;
  std::atomic<bool> shutting_down_;
  port::CondVar background_work_finished_signal_ GUARDED_BY(mutex_);
  MemTable* mem_ GUARDED_BY(mutex_);
  MemTable* imm_ GUARDED_BY(mutex_);  // being flushed, or null
  std::atomic<bool> has_imm_;         // imm_ != nullptr, readable unlocked
  WritableFile* logfile_ GUARDED_BY(mutex_);
  uint64_t logfile_number_ GUARDED_BY(mutex_);
  // The log of imm_, kept open until imm_ is flushed so that a synced write
  // can first make it durable; null once synced or obsolete.
  WritableFile* prev_logfile_ GUARDED_BY(mutex_) = nullptr;
  uint64_t prev_logfile_number_ GUARDED_BY(mutex_) = 0;
  log::Writer* log_ GUARDED_BY(mutex_);
  uint32_t seed_ GUARDED_BY(mutex_);  // feeds iterator sampling

  // Writers waiting their turn; the front one writes for the group.
  std::deque<Writer*> writers_ GUARDED_BY(mutex_);
  WriteBatch* tmp_batch_ GUARDED_BY(mutex_);

  SnapshotList snapshots_ GUARDED_BY(mutex_);

  // Tables being written; RemoveObsoleteFiles must not delete them.
  std::set<uint64_t> pending_outputs_ GUARDED_BY(mutex_);

  bool background_compaction_scheduled_ GUARDED_BY(mutex_);
  ManualCompaction* manual_compaction_ GUARDED_BY(mutex_);
  // Whether level-0 leftovers are to be compacted (writers went quiet).
  Level0Cleanup level0_cleanup_ GUARDED_BY(mutex_);
  // The last sequence when the last compaction (or move) ended.
  SequenceNumber quiet_since_ GUARDED_BY(mutex_) = 0;

  VersionSet* const versions_ GUARDED_BY(mutex_);

  // Sticky: once set, writes and compactions stop.
  Status bg_error_ GUARDED_BY(mutex_);

  // ElasticBF hotness across compactions and reopens. Its checkpoint calls
  // take mutex_ (it checks); compactions call it unlocked.
  HotnessKeeper hotness_;

  // DB::Open finished successfully (a final hotness checkpoint is written
  // at close only then).
  bool open_complete_ GUARDED_BY(mutex_) = false;
  CompactionStats stats_[config::kNumLevels] GUARDED_BY(mutex_);
};

// The options the DB actually runs with: numeric fields clipped to sane
// ranges, the comparator and filter policy wrapped for internal keys, and
// an info log and block cache created when the caller gave none.
Options SanitizeOptions(const std::string& db,
                        const InternalKeyComparator* icmp,
                        const InternalFilterPolicy* ipolicy,
                        const Options& src);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_DB_IMPL_H_
