// When to compact level-0 files that size compaction leaves behind.
//
// LevelDB compacts level 0 by size only from kL0_CompactionTrigger files
// on, so a burst of writes usually ends with a few level-0 files, each of
// which every Get that reaches the tables then probes. Level0Cleanup
// notices that the writers have gone quiet and asks for those files to be
// compacted into level 1. Quiet means either:
//   - a merging compaction finished and no write arrived while it ran, or
//   - Gets kept probing tables with level-0 files present and no write in
//     between, for as many Gets as seek compaction would allow a table of
//     the bytes the cleanup rewrites (one probe per 16 KiB).
// Writers that keep writing never trigger it. Not thread-safe: DBImpl
// calls it with its mutex held.
#ifndef STORAGE_LEVELDB_DB_LEVEL0_CLEANUP_H_
#define STORAGE_LEVELDB_DB_LEVEL0_CLEANUP_H_

#include <cstdint>

#include "db/version_edit.h"

namespace leveldb {

class Level0Cleanup {
 public:
  // A write was applied: the quiet period, if any, is over.
  void OnWrite() { quiet_reads_ = 0; }

  // A merging compaction (not a move or a manual one) finished; writes
  // tells whether any write arrived while it ran.
  void OnCompactionEnd(bool writes_arrived, int level0_files) {
    due_ = !writes_arrived && level0_files > 0;
  }

  // A Get probed tables. rewrite_bytes() gives the bytes of levels 0 and 1
  // (what the cleanup would rewrite); it is called once per quiet period.
  // Returns true when this read makes the cleanup due.
  template <typename BytesFn>
  bool OnTableRead(int level0_files, BytesFn rewrite_bytes) {
    if (due_ || level0_files == 0) return false;
    // Seek compaction's exchange rate, for the bytes the cleanup rewrites.
    if (quiet_reads_ == 0) {
      reads_allowed_ = AllowedSeeksForSize(rewrite_bytes());
    }
    if (++quiet_reads_ < reads_allowed_) return false;
    due_ = true;
    return true;
  }

  bool due() const { return due_; }

  // The cleanup compaction was picked.
  void Started() {
    due_ = false;
    quiet_reads_ = 0;
  }

 private:
  bool due_ = false;
  uint64_t quiet_reads_ = 0;    // Gets since the last write (or cleanup)
  uint64_t reads_allowed_ = 0;  // before the cleanup becomes due
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_LEVEL0_CLEANUP_H_
