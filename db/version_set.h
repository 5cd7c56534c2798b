// The metadata of the LSM tree. A Version is an immutable snapshot of which
// table files live at which level; a VersionSet owns the chain of Versions
// still in use, the MANIFEST that persists them, and picks compactions.
//
// Locking: VersionSet and the Versions it owns are protected by the DB
// mutex (the one passed to LogAndApply). A Version's file lists never
// change after it is installed, so readers holding a Ref can use them
// without the mutex.
#ifndef STORAGE_LEVELDB_DB_VERSION_SET_H_
#define STORAGE_LEVELDB_DB_VERSION_SET_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/version_edit.h"
#include "port/port.h"
#include "port/thread_annotations.h"

namespace leveldb {

namespace log {
class Writer;
}

class Compaction;
class Env;
class Iterator;
class MemTable;
class MQSchedule;
struct Options;
struct ReadOptions;
class TableBuilder;
class TableCache;
class Version;
class VersionSet;
class WritableFile;
struct IoStats;

// Index of the first file in `files` whose largest key is >= key, or
// files.size() if there is none. `files` must be sorted and disjoint.
int FindFile(const InternalKeyComparator& icmp,
             const std::vector<FileMetaData*>& files, const Slice& key);

// True if some file in `files` overlaps the user-key range
// [*smallest_user_key, *largest_user_key]. A null bound means unbounded on
// that side. disjoint_sorted_files enables a binary search.
bool SomeFileOverlapsRange(const InternalKeyComparator& icmp,
                           bool disjoint_sorted_files,
                           const std::vector<FileMetaData*>& files,
                           const Slice* smallest_user_key,
                           const Slice* largest_user_key);

class Version {
 public:
  // Which file to charge a wasted seek to, filled in by Get.
  struct GetStats {
    FileMetaData* seek_file;
    int seek_file_level;
  };

  Version(const Version&) = delete;
  Version& operator=(const Version&) = delete;

  // Appends iterators that together yield this Version's table contents
  // (one per L0 file, one concatenating iterator per deeper level).
  void AddIterators(const ReadOptions&, std::vector<Iterator*>* iters);

  // Looks up key. On a hit stores the value in *val and returns OK; a
  // deletion or absence gives NotFound. *stats is filled for UpdateStats:
  // a seek is charged to the first file whose probe read a data block
  // without finding the key, if the Get then went on to another file.
  // Must be called without the DB mutex held.
  //
  // key_hash is KeyHash64 of the user key when the DB screens tables with
  // ElasticBF; io_stats (may be null) counts every table probe. One
  // KeyLookup carries both, and the outcome, through every probe. Nobody
  // holds an EpochGuard across the Get or a table read: the filter layer
  // enters its epoch itself, only while it screens one table.
  Status Get(const ReadOptions&, const LookupKey& key, std::string* val,
             GetStats* stats, uint64_t key_hash, IoStats* io_stats);

  // Charges the seek recorded in stats. Returns true if a seek compaction
  // should now be scheduled. Requires the DB mutex.
  bool UpdateStats(const GetStats& stats);

  // Called by iterators for sampled keys: if the key lies in more than one
  // file, charge a seek as Get would. Returns true if a compaction should be
  // scheduled. Requires the DB mutex.
  bool RecordReadSample(Slice key);

  // Reference counting; the last Unref deletes the Version. Both require
  // the DB mutex.
  void Ref();
  void Unref();

  // Stores in *inputs the files of `level` that overlap the user-key range
  // of [begin, end] (null = unbounded). For level 0 the range grows to
  // cover every transitively overlapping file.
  void GetOverlappingInputs(int level,
                            const InternalKey* begin,  // nullptr: before all
                            const InternalKey* end,    // nullptr: after all
                            std::vector<FileMetaData*>* inputs);

  // True if some file of `level` overlaps the user-key range (null bounds
  // are unbounded).
  bool OverlapInLevel(int level, const Slice* smallest_user_key,
                      const Slice* largest_user_key);

  // Level at which a flushed memtable covering the given user-key range
  // should be placed.
  int PickLevelForMemTableOutput(const Slice& smallest_user_key,
                                 const Slice& largest_user_key);

  int NumFiles(int level) const {
    return static_cast<int>(files_[level].size());
  }

  // The files of `level`, sorted by smallest key (level 0: overlapping).
  const std::vector<FileMetaData*>& LevelFiles(int level) const {
    return files_[level];
  }

  std::string DebugString() const;

 private:
  friend class Compaction;
  friend class VersionSet;

  class LevelFileNumIterator;
  class OverlappingFiles;

  explicit Version(VersionSet* vset) : vset_(vset), next_(this), prev_(this) {}
  ~Version();

  Iterator* NewConcatenatingIterator(const ReadOptions&, int level) const;

  VersionSet* vset_;  // owner
  Version* next_;     // doubly linked list of live versions
  Version* prev_;
  int refs_ = 0;

  // Table files per level, sorted by smallest key (L0: by file number when
  // installed in order of creation; they may overlap).
  std::vector<FileMetaData*> files_[config::kNumLevels];

  // Seek compaction candidate, set by UpdateStats.
  FileMetaData* file_to_compact_ = nullptr;
  int file_to_compact_level_ = -1;

  // Size compaction candidate, computed by VersionSet::Finalize. A score
  // >= 1 means the level needs compacting.
  double compaction_score_ = -1;
  int compaction_level_ = -1;
};

class VersionSet {
 public:
  // elastic (may be null): ElasticBF's manager, told the level of every
  // live table each time a version is installed.
  VersionSet(const std::string& dbname, const Options* options,
             TableCache* table_cache, const InternalKeyComparator*,
             MQSchedule* elastic = nullptr);
  VersionSet(const VersionSet&) = delete;
  VersionSet& operator=(const VersionSet&) = delete;
  ~VersionSet();

  // Applies *edit to the current version, persists it to the MANIFEST and
  // installs the result as the new current version. *mu must be held on
  // entry; it is released while writing and held again on return. After a
  // failed write to the MANIFEST, the next call writes the full state to a
  // new MANIFEST and switches CURRENT to it, as an open does; the old one
  // stays CURRENT (and live) until then.
  Status LogAndApply(VersionEdit* edit, port::Mutex* mu)
      EXCLUSIVE_LOCKS_REQUIRED(mu);

  // Loads the last persisted state. *save_manifest is set to true if the
  // caller must write a fresh MANIFEST (i.e. the old one is not reused).
  Status Recover(bool* save_manifest);

  Version* current() const { return current_; }

  // The MANIFEST in use (after Recover: the one the first LogAndApply
  // writes). After a failed write it stays the one CURRENT names until a
  // new one has replaced it, so that the old one counts as live.
  uint64_t ManifestFileNumber() const { return manifest_file_number_; }

  // The next LogAndApply writes a new MANIFEST (the full state, then its
  // edit) and makes CURRENT name it; the old one becomes obsolete. Call
  // with the DB mutex held, from the thread that would write the next edit.
  void StartNewManifest();

  // Allocates a new file number.
  uint64_t NewFileNumber() { return next_file_number_++; }

  // Gives back a number just obtained from NewFileNumber if it went unused.
  void ReuseFileNumber(uint64_t file_number) {
    if (next_file_number_ == file_number + 1) {
      next_file_number_ = file_number;
    }
  }

  int NumLevelFiles(int level) const;
  int64_t NumLevelBytes(int level) const;

  uint64_t LastSequence() const { return last_sequence_; }
  void SetLastSequence(uint64_t s);

  // Ensures number is never handed out by NewFileNumber.
  void MarkFileNumberUsed(uint64_t number);

  // ElasticBF: true when segment hotness is recorded in the MANIFEST and
  // restored from it (an elastic policy with inherit_hotness). Otherwise
  // recorded hotness is read but neither used nor written back, so the
  // next MANIFEST holds LevelDB 1.23's records only.
  bool keeps_hotness() const { return keeps_hotness_; }

  // ElasticBF: the latest logical clock recorded in the MANIFEST.
  uint64_t elastic_clock() const { return elastic_clock_; }

  uint64_t LogNumber() const { return log_number_; }
  // The log being compacted when the DB went down, or 0.
  uint64_t PrevLogNumber() const { return prev_log_number_; }

  // Chooses the next compaction, or nullptr if none is needed. The caller
  // deletes the result.
  Compaction* PickCompaction();

  // A compaction of the files of `level` overlapping [begin, end], or
  // nullptr if there are none. The caller deletes the result.
  Compaction* CompactRange(int level, const InternalKey* begin,
                           const InternalKey* end);

  // Largest number of bytes in level L+1 overlapped by one file of level L,
  // over all L >= 1.
  int64_t MaxNextLevelOverlappingBytes();

  // An iterator over the merged contents of c's inputs. The caller deletes
  // it.
  Iterator* MakeInputIterator(Compaction* c);

  bool NeedsCompaction() const {
    const Version* v = current_;
    return v->compaction_score_ >= 1 || v->file_to_compact_ != nullptr;
  }

  // Adds the numbers of every file listed by any live version.
  void AddLiveFiles(std::set<uint64_t>* live);

  // Approximate byte offset of key within the data of version v.
  uint64_t ApproximateOffsetOf(Version* v, const InternalKey& key);

  // "files[ n0 n1 ... ]" into scratch.
  struct LevelSummaryStorage {
    char buffer[100];
  };
  const char* LevelSummary(LevelSummaryStorage* scratch) const;

 private:
  class Builder;

  friend class Compaction;
  friend class Version;

  // Closes the open MANIFEST, if any; the next LogAndApply starts one.
  void CloseDescriptor();

  // Tries to keep appending to the MANIFEST named by CURRENT, whose last
  // whole record ends at end_of_records.
  bool ReuseManifest(const std::string& dscname, const std::string& dscbase,
                     uint64_t end_of_records);

  // Computes the best size-compaction level and score of v.
  void Finalize(Version* v);

  void GetRange(const std::vector<FileMetaData*>& inputs, InternalKey* smallest,
                InternalKey* largest);
  void GetRange2(const std::vector<FileMetaData*>& inputs1,
                 const std::vector<FileMetaData*>& inputs2,
                 InternalKey* smallest, InternalKey* largest);

  // Fills in c's level+1 inputs, grandparents and compaction pointer.
  void SetupOtherInputs(Compaction* c);

  // Writes the full current state as the first record of a new MANIFEST.
  Status WriteSnapshot(log::Writer* log);
  // The full state of v as one edit record; with `edit` (already applied
  // to make v) also its log numbers, file number, sequence and clock, so
  // the record stands for the edit too.
  void EncodeSnapshot(const Version& v, const VersionEdit* edit,
                      std::string* record) const;

  // Makes v the current version (no other side effect).
  void AppendVersion(Version* v);

  // Hands the filter layer the live set of v (with levels, sizes and
  // recorded hotness), right after v becomes current: it seeds files not
  // registered yet, frees the units of files that left, and recomputes
  // the budget (MQSchedule::ReportFiles).
  void ReportLiveFiles(const Version& v) const;

  Env* const env_;
  const std::string dbname_;
  const Options* const options_;
  TableCache* const table_cache_;
  MQSchedule* const elastic_;  // may be null
  const bool keeps_hotness_;
  const InternalKeyComparator icmp_;
  uint64_t next_file_number_;
  uint64_t manifest_file_number_;
  uint64_t last_sequence_;
  uint64_t log_number_;
  uint64_t prev_log_number_;  // 0 or the backing store of a compacted memtable
  uint64_t elastic_clock_ = 0;  // ElasticBF logical clock, as recorded

  // Open MANIFEST, created lazily by the first LogAndApply.
  WritableFile* descriptor_file_;
  log::Writer* descriptor_log_;
  // The next LogAndApply starts a new MANIFEST under a new number instead
  // of appending to the current one (a write to it failed, or
  // StartNewManifest asked for it).
  bool new_manifest_number_ = false;
  // The next new MANIFEST holds the state after its edit in one record.
  bool fold_next_edit_ = false;
  Version dummy_versions_;  // head of the circular list of live versions
  Version* current_;        // == dummy_versions_.prev_

  // Per level, the largest key compacted last time; the next compaction of
  // that level starts after it (empty: start at the beginning).
  std::string compact_pointer_[config::kNumLevels];
};

// One compaction: the input files from `level` and `level + 1`, and the
// edit that will describe its outcome.
class Compaction {
 public:
  ~Compaction();

  // Inputs come from level() and level() + 1.
  int level() const { return level_; }

  // The edit collecting this compaction's changes.
  VersionEdit* edit() { return &edit_; }

  // which is 0 (level()) or 1 (level() + 1).
  int num_input_files(int which) const {
    return static_cast<int>(inputs_[which].size());
  }
  FileMetaData* input(int which, int i) const { return inputs_[which][i]; }

  // Bytes of every input file, of both levels.
  uint64_t InputBytes() const;

  // Output files are cut at this size.
  uint64_t MaxOutputFileSize() const { return max_output_file_size_; }

  // True when the single input file can just be moved down a level.
  bool IsTrivialMove() const;

  // Adds the deletion of every input file to *edit.
  void AddInputDeletions(VersionEdit* edit);

  // True if no level below level() + 1 can hold user_key, so a deletion
  // marker for it may be dropped. Must be called with increasing keys.
  bool IsBaseLevelForKey(const Slice& user_key);

  // True if the current output should be finished before internal_key
  // because it already overlaps too much of the grandparent level. Must be
  // called with increasing keys.
  bool ShouldStopBefore(const Slice& internal_key);

  // Drops the reference on the input version once the compaction is done.
  void ReleaseInputs();

 private:
  friend class Version;
  friend class VersionSet;

  Compaction(const Options* options, int level);

  int level_;
  uint64_t max_output_file_size_;
  int64_t max_grandparent_overlap_bytes_;
  Version* input_version_;
  VersionEdit edit_;

  std::vector<FileMetaData*> inputs_[2];

  // Files of level() + 2 overlapping the compaction's range.
  std::vector<FileMetaData*> grandparents_;
  size_t grandparent_index_;  // cursor for ShouldStopBefore
  bool seen_key_;             // some output key was seen
  int64_t overlapped_bytes_;  // grandparent bytes overlapped by the output

  // Cursors for IsBaseLevelForKey, one per level >= level_ + 2.
  size_t level_ptrs_[config::kNumLevels];
};

// Adds to compaction_files every file of level_files whose smallest user
// key equals the largest user key already in compaction_files (repeatedly),
// so that entries of one user key never end up split across levels.
void AddBoundaryInputs(const InternalKeyComparator& icmp,
                       const std::vector<FileMetaData*>& level_files,
                       std::vector<FileMetaData*>* compaction_files);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_VERSION_SET_H_
