// Appends logical records to a log file in the format of db/log_format.h.
#ifndef STORAGE_LEVELDB_DB_LOG_WRITER_H_
#define STORAGE_LEVELDB_DB_LOG_WRITER_H_

#include <cstdint>

#include "db/log_format.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

class WritableFile;

namespace log {

class Writer {
 public:
  // Writes to an empty *dest, which must outlive the writer.
  explicit Writer(WritableFile* dest);

  // Continues a log whose current size is dest_length bytes.
  Writer(WritableFile* dest, uint64_t dest_length);

  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  ~Writer();

  // Appends one record and flushes the file.
  Status AddRecord(const Slice& slice);

 private:
  Status WriteFragment(RecordType type, const char* data, size_t length);

  WritableFile* dest_;
  int offset_in_block_;  // bytes already used in the current block

  // crc32c of each possible type byte, the starting point of every
  // fragment's checksum.
  uint32_t type_crc_[kMaxRecordType + 1];
};

}  // namespace log
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_LOG_WRITER_H_
