// Reads logical records back from a log file written by log::Writer,
// tolerating (and reporting) corruption.
#ifndef STORAGE_LEVELDB_DB_LOG_READER_H_
#define STORAGE_LEVELDB_DB_LOG_READER_H_

#include <cstdint>
#include <string>

#include "db/log_format.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

class SequentialFile;

namespace log {

class Reader {
 public:
  // Told about data the reader had to drop.
  class Reporter {
   public:
    virtual ~Reporter();

    // `bytes` bytes were skipped because of `status`.
    virtual void Corruption(size_t bytes, const Status& status) = 0;
  };

  // Reads from *file, which must outlive the reader. *reporter, if not null,
  // hears about dropped data. With checksum set, payload crcs are verified.
  // Records that start before initial_offset are not returned.
  Reader(SequentialFile* file, Reporter* reporter, bool checksum,
         uint64_t initial_offset);

  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  ~Reader();

  // Stores the next record in *record and returns true, or returns false at
  // end of input. *record may point into *scratch or into the reader's
  // buffer and stays valid until the next call or until *scratch changes.
  bool ReadRecord(Slice* record, std::string* scratch);

  // File offset of the record last returned by ReadRecord.
  uint64_t LastRecordOffset();

  // File offset just past the last fragment of the record last returned by
  // ReadRecord (0 before the first). Bytes beyond it that ReadRecord passed
  // over were a torn or damaged tail, or block padding.
  uint64_t EndOfLastRecord() const { return end_of_last_record_; }

  // True if records a Writer appends to a log of `size` bytes whose last
  // whole record ends at `end` will be read back: nothing but block padding
  // lies between. After a torn tail (a record cut short, garbage from a
  // power loss) the next reader would drop the appended records with it.
  static bool AppendableAt(uint64_t end, uint64_t size);

 private:
  // Results of ReadPhysicalRecord beyond the record types.
  enum : unsigned int {
    kEof = kMaxRecordType + 1,
    // A record to drop silently or after reporting (bad checksum, record
    // before initial_offset, zero-type padding).
    kBadRecord = kMaxRecordType + 2
  };

  bool SkipToInitialBlock();
  unsigned int ReadPhysicalRecord(Slice* fragment);
  bool FillBuffer();
  void ReportCorruption(uint64_t bytes, const char* reason);
  void ReportDrop(uint64_t bytes, const Status& reason);

  SequentialFile* const file_;
  Reporter* const reporter_;
  const bool checksum_;
  char* const backing_store_;
  Slice buffer_;  // unread part of the current block
  bool eof_;      // the last read returned less than a full block

  uint64_t last_record_offset_;
  uint64_t end_of_last_record_ = 0;
  // File offset just past the data in buffer_.
  uint64_t end_of_buffer_offset_;

  const uint64_t initial_offset_;

  // After seeking to initial_offset, fragments that continue a record begun
  // earlier are dropped until a FULL or FIRST fragment shows up.
  bool resyncing_;

  // SkipToInitialBlock has not run yet.
  bool need_initial_skip_;
};

}  // namespace log
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_LOG_READER_H_
