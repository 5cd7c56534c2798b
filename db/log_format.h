// On-disk layout of log files (the write-ahead log and the MANIFEST).
//
// A log is a sequence of 32 KiB blocks. Each block holds physical records,
// each one a 7-byte header (masked crc32c of type + payload, fixed16 payload
// length, type byte) followed by the payload. A logical record too large for
// the space left in a block is split into FIRST, MIDDLE..., LAST fragments.
// A block tail shorter than a header is filled with zeros.
#ifndef STORAGE_LEVELDB_DB_LOG_FORMAT_H_
#define STORAGE_LEVELDB_DB_LOG_FORMAT_H_

namespace leveldb {
namespace log {

enum RecordType {
  // Never written by a writer; zeros come from preallocated file space.
  kZeroType = 0,

  kFullType = 1,

  // Fragments of a record that spans blocks.
  kFirstType = 2,
  kMiddleType = 3,
  kLastType = 4
};
constexpr int kMaxRecordType = kLastType;

constexpr int kBlockSize = 32768;

// crc (4 bytes) + length (2 bytes) + type (1 byte).
constexpr int kHeaderSize = 4 + 2 + 1;

}  // namespace log
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_LOG_FORMAT_H_
