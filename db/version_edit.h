// A VersionEdit is one delta of the database's file metadata: files added or
// removed per level plus a few counters. The MANIFEST is a log of encoded
// edits; replaying them in order rebuilds the current set of live tables.
#ifndef STORAGE_LEVELDB_DB_VERSION_EDIT_H_
#define STORAGE_LEVELDB_DB_VERSION_EDIT_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "elastic/hotness_inheritance.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

class VersionSet;

// Everything the metadata layer knows about one table file.
struct FileMetaData {
  int refs = 0;                 // number of Versions that list this file
  int allowed_seeks = 1 << 30;  // wasted probes left before seek compaction
  uint64_t number = 0;
  uint64_t file_size = 0;
  InternalKey smallest;  // first internal key in the table
  InternalKey largest;   // last internal key in the table
  // ElasticBF: the hotness of the table's segments as last recorded in the
  // MANIFEST (null: none). Never changed once the FileMetaData is shared;
  // a newer record gets a new FileMetaData in the next Version.
  std::shared_ptr<const InheritedHotness> hotness;
};

// Wasted probes a table of file_size bytes may absorb before it is
// compacted (FileMetaData::allowed_seeks). One seek costs about as much as
// compacting 16 KiB (of this file and its overlap below).
int AllowedSeeksForSize(uint64_t file_size);

using HotnessPtr = std::shared_ptr<const InheritedHotness>;

// Record tags of the MANIFEST encoding. The numbers are part of the on-disk
// format; tag 8 was used by an ancient format and must stay unassigned.
// New kinds of record get a new number and a new case in the decoder.
//
// Tags 1..9 are LevelDB 1.23's. Tags from 100 on are ElasticBF's; stock
// LevelDB reports them as corruption, so they are written only while
// hotness is kept (an elastic policy with inherit_hotness), and
// StripElasticMetadata() removes them:
//   kSegmentHotness: varint64 file number, varint32 segment count S (>= 1),
//     then S x { varint64 absent probes, varint64 accesses (>= absent
//     probes), varint64 last access (logical time), varint32 units + 1
//     (0: no unit target) }. The latest record of a file wins.
//   kElasticClock: varint64 logical time (Gets served so far).
enum class EditTag : uint32_t {
  kComparator = 1,
  kLogNumber = 2,
  kNextFileNumber = 3,
  kLastSequence = 4,
  kCompactPointer = 5,
  kDeletedFile = 6,
  kNewFile = 7,
  kPrevLogNumber = 9,
  kSegmentHotness = 100,
  kElasticClock = 101,
};

class VersionEdit {
 public:
  VersionEdit() { Clear(); }
  ~VersionEdit() = default;

  // Resets every field to "not present".
  void Clear();

  void SetComparatorName(const Slice& name);
  void SetLogNumber(uint64_t num);
  void SetPrevLogNumber(uint64_t num);
  void SetNextFile(uint64_t num);
  void SetLastSequence(SequenceNumber seq);
  void SetCompactPointer(int level, const InternalKey& key);

  // Records that table `file` (file_size bytes, spanning
  // [smallest, largest]) joins `level`.
  void AddFile(int level, uint64_t file, uint64_t file_size,
               const InternalKey& smallest, const InternalKey& largest);

  // Records that table `file` leaves `level`.
  void RemoveFile(int level, uint64_t file);

  // ElasticBF: records the hotness of table `file`'s segments (one entry
  // per segment; units empty or one per segment, negative = no target).
  // A null or empty hotness is ignored.
  void SetFileHotness(uint64_t file, HotnessPtr hotness);

  // ElasticBF: records the logical clock.
  void SetElasticClock(uint64_t clock);

  // Drops every ElasticBF record, leaving LevelDB 1.23's only.
  void ClearElastic();

  // True if the edit holds ElasticBF records.
  bool HasElastic() const {
    return has_elastic_clock_ || !file_hotness_.empty();
  }

  // Appends the serialized edit to *dst.
  void EncodeTo(std::string* dst) const;

  // Replaces *this by the edit encoded in src. Malformed input yields a
  // Corruption status (and leaves *this partially filled).
  Status DecodeFrom(const Slice& src);

  std::string DebugString() const;

 private:
  friend class VersionSet;

  using DeletedFileSet = std::set<std::pair<int, uint64_t>>;

  // Parses the payload of one record whose tag was already consumed. Returns
  // a description of what was malformed, or nullptr on success.
  const char* DecodeRecord(uint32_t tag, Slice* input);

  std::string comparator_;
  uint64_t log_number_;
  uint64_t prev_log_number_;
  uint64_t next_file_number_;
  SequenceNumber last_sequence_;
  bool has_comparator_;
  bool has_log_number_;
  bool has_prev_log_number_;
  bool has_next_file_number_;
  bool has_last_sequence_;

  std::vector<std::pair<int, InternalKey>> compact_pointers_;
  DeletedFileSet deleted_files_;
  std::vector<std::pair<int, FileMetaData>> new_files_;

  // ElasticBF records, in the order they were added or decoded.
  std::vector<std::pair<uint64_t, HotnessPtr>> file_hotness_;
  uint64_t elastic_clock_;
  bool has_elastic_clock_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_VERSION_EDIT_H_
