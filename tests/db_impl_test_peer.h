// Test hooks into DBImpl beyond LevelDB's four TEST_ methods: a friend of
// DBImpl with static methods, so the hooks live with the tests instead of
// in DBImpl's public interface.
#ifndef STORAGE_LEVELDB_TESTS_DB_IMPL_TEST_PEER_H_
#define STORAGE_LEVELDB_TESTS_DB_IMPL_TEST_PEER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/dbformat.h"
#include "db/table_cache.h"
#include "db/version_edit.h"
#include "db/version_set.h"
#include "leveldb/status.h"
#include "port/port.h"
#include "util/io_stats.h"
#include "util/mutexlock.h"

namespace leveldb {

class DBImplTestPeer {
 public:
  // ElasticBF's unit manager, or null when the DB runs without it.
  static MQSchedule* elastic(DBImpl* db) { return db->elastic_; }

  // The DB's read-path and compaction counters (what
  // GetProperty("leveldb.io-stats") reports).
  static IoStats* io_stats(DBImpl* db) { return &db->io_stats_; }

  // Waits until no background compaction is scheduled or running (seek
  // and size compactions included).
  static void WaitForBackgroundWork(DBImpl* db) {
    MutexLock lock(&db->mutex_);
    while (db->background_compaction_scheduled_) {
      db->background_work_finished_signal_.Wait();
    }
  }

  // Seeks each live table may still absorb before a seek compaction, by
  // file number (FileMetaData::allowed_seeks of the current version).
  static std::map<uint64_t, int> AllowedSeeks(DBImpl* db) {
    MutexLock lock(&db->mutex_);
    std::map<uint64_t, int> allowed;
    const Version* current = db->versions_->current();
    for (int level = 0; level < config::kNumLevels; level++) {
      for (const FileMetaData* f : current->LevelFiles(level)) {
        allowed[f->number] = f->allowed_seeks;
      }
    }
    return allowed;
  }

  // ElasticBF hotness checkpoints (HotnessKeeper): the interval in Gets.
  static void SetHotnessCheckpointInterval(DBImpl* db, uint64_t gets) {
    MutexLock lock(&db->mutex_);
    db->hotness_.SetInterval(gets);
  }

  // Writes a checkpoint now (if anything changed) and returns its status.
  static Status CheckpointHotness(DBImpl* db) {
    MutexLock lock(&db->mutex_);
    if (!db->hotness_.active()) {
      return Status::NotSupported("hotness is not kept");
    }
    // LogAndApply must not run in two threads at once: take the background
    // slot for the duration.
    while (db->background_compaction_scheduled_) {
      db->background_work_finished_signal_.Wait();
    }
    db->background_compaction_scheduled_ = true;
    Status s = db->CheckpointHotness();
    db->background_compaction_scheduled_ = false;
    db->MaybeScheduleCompaction();
    db->background_work_finished_signal_.SignalAll();
    return s;
  }

  // Checkpoints written since open.
  static uint64_t HotnessCheckpoints(DBImpl* db) {
    MutexLock lock(&db->mutex_);
    return db->hotness_.checkpoints();
  }

  // MANIFESTs that checkpoints started since open (instead of appending).
  static uint64_t HotnessManifestsStarted(DBImpl* db) {
    MutexLock lock(&db->mutex_);
    return db->hotness_.manifests_started();
  }

  // The segment hotness recorded in the current Version for a live file,
  // or null.
  static std::shared_ptr<const InheritedHotness> RecordedHotness(
      DBImpl* db, uint64_t file_number) {
    MutexLock lock(&db->mutex_);
    const Version* current = db->versions_->current();
    for (int level = 0; level < config::kNumLevels; level++) {
      for (const FileMetaData* f : current->LevelFiles(level)) {
        if (f->number == file_number) return f->hotness;
      }
    }
    return nullptr;
  }

  // The user-key ranges of a live table's segments, as hotness
  // inheritance sees them (TableCache::GetSegmentKeyRanges).
  static Status SegmentKeyRanges(DBImpl* db, uint64_t file_number,
                                 std::vector<SegmentKeyRange>* ranges) {
    uint64_t size = 0;
    std::string smallest, largest;
    {
      MutexLock lock(&db->mutex_);
      const Version* current = db->versions_->current();
      for (int level = 0; level < config::kNumLevels && size == 0; level++) {
        for (const FileMetaData* f : current->LevelFiles(level)) {
          if (f->number != file_number) continue;
          size = f->file_size;
          smallest = f->smallest.user_key().ToString();
          largest = f->largest.user_key().ToString();
        }
      }
    }
    if (size == 0) return Status::NotFound("no such live table");
    return db->table_cache_->GetSegmentKeyRanges(file_number, size, smallest,
                                                 largest, ranges);
  }
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_DB_IMPL_TEST_PEER_H_
