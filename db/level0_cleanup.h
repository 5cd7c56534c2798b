// When to compact the leftovers that size compaction leaves behind a burst
// of writes.
//
// LevelDB compacts level 0 by size only from kL0_CompactionTrigger files
// on, and level 1 only once it outgrows its target, so a burst of writes
// usually ends with a few level-0 files and part of a level 1, each of
// which every Get that reaches the tables then probes. Level0Cleanup
// notices that the writers have gone quiet and asks for those leftovers to
// be compacted, level 0 into level 1 first. Quiet means either:
//   - a merging compaction finished and no write arrived while it ran, or
//   - Gets kept probing tables with level-0 files present and no write in
//     between, for as many Gets as seek compaction would allow a table of
//     the bytes the cleanup rewrites (one probe per 16 KiB).
// Once level 0 is empty, a quiet compaction goes on with level 1 into
// level 2, piece by piece, when the caller says the level-1 leftover is
// worth it and the bytes that rewrites are no more than the bytes flushed
// since the last such step: a burst pays at most one extra write of its
// own size for it, however often a writer pauses. Writers that keep
// writing never trigger the cleanup. Not thread-safe: DBImpl calls it with
// its mutex held.
#ifndef STORAGE_LEVELDB_DB_LEVEL0_CLEANUP_H_
#define STORAGE_LEVELDB_DB_LEVEL0_CLEANUP_H_

#include <cstdint>

#include "db/version_edit.h"

namespace leveldb {

class Level0Cleanup {
 public:
  enum class Step { kNone, kLevel0, kLevel1 };

  // A write was applied: the quiet period, if any, is over.
  void OnWrite() { quiet_reads_ = 0; }

  // A memtable was flushed into a table of `bytes`: credit for level 1.
  void OnFlush(uint64_t bytes) { flushed_bytes_ += bytes; }

  // A merging compaction (not a move or a manual one) finished; writes
  // tells whether any write arrived while it ran, level1_leftover whether
  // level 1 holds tables worth compacting into level 2.
  void OnCompactionEnd(bool writes_arrived, int level0_files,
                       bool level1_leftover) {
    due_ = Step::kNone;
    if (writes_arrived) return;
    if (level0_files > 0) {
      due_ = Step::kLevel0;
    } else if (level1_leftover && flushed_bytes_ > 0) {
      due_ = Step::kLevel1;
    }
  }

  // A Get probed tables. rewrite_bytes() gives the bytes of levels 0 and 1
  // (what the cleanup would rewrite); it is called once per quiet period.
  // Returns true when this read makes the cleanup due.
  template <typename BytesFn>
  bool OnTableRead(int level0_files, BytesFn rewrite_bytes) {
    if (due_ != Step::kNone || level0_files == 0) return false;
    // Seek compaction's exchange rate, for the bytes the cleanup rewrites.
    if (quiet_reads_ == 0) {
      reads_allowed_ = AllowedSeeksForSize(rewrite_bytes());
    }
    if (++quiet_reads_ < reads_allowed_) return false;
    due_ = Step::kLevel0;
    return true;
  }

  bool due() const { return due_ != Step::kNone; }
  Step due_step() const { return due_; }

  // The cleanup compaction was picked (or found nothing to do).
  void Started() {
    due_ = Step::kNone;
    quiet_reads_ = 0;
  }

  // Whether a level-1 step that rewrites `bytes` fits the credit the
  // flushes since the last step gave; if so, spends it.
  bool AffordsLevel1(uint64_t bytes) {
    if (bytes > flushed_bytes_) return false;
    flushed_bytes_ -= bytes;
    return true;
  }

 private:
  Step due_ = Step::kNone;
  uint64_t quiet_reads_ = 0;    // Gets since the last write (or cleanup)
  uint64_t reads_allowed_ = 0;  // before the cleanup becomes due
  uint64_t flushed_bytes_ = 0;  // credit for level-1 steps
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_LEVEL0_CLEANUP_H_
