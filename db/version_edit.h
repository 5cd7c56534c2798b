// A VersionEdit is one delta of the database's file metadata: files added or
// removed per level plus a few counters. The MANIFEST is a log of encoded
// edits; replaying them in order rebuilds the current set of live tables.
#ifndef STORAGE_LEVELDB_DB_VERSION_EDIT_H_
#define STORAGE_LEVELDB_DB_VERSION_EDIT_H_

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
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
};

// Record tags of the MANIFEST encoding. The numbers are part of the on-disk
// format; tag 8 was used by an ancient format and must stay unassigned.
// New kinds of record get a new number and a new case in the decoder.
enum class EditTag : uint32_t {
  kComparator = 1,
  kLogNumber = 2,
  kNextFileNumber = 3,
  kLastSequence = 4,
  kCompactPointer = 5,
  kDeletedFile = 6,
  kNewFile = 7,
  kPrevLogNumber = 9,
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
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_VERSION_EDIT_H_
