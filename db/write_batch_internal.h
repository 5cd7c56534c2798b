// Access to the encoded form of a WriteBatch that the public class hides.
#ifndef STORAGE_LEVELDB_DB_WRITE_BATCH_INTERNAL_H_
#define STORAGE_LEVELDB_DB_WRITE_BATCH_INTERNAL_H_

#include <cstddef>

#include "db/dbformat.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "leveldb/write_batch.h"

namespace leveldb {

class MemTable;

class WriteBatchInternal {
 public:
  // Size of the batch header: fixed64 sequence + fixed32 count.
  static constexpr size_t kHeaderSize = 12;

  // Number of records in the batch.
  static int Count(const WriteBatch* batch);
  static void SetCount(WriteBatch* batch, int n);

  // Sequence number given to the first record of the batch.
  static SequenceNumber Sequence(const WriteBatch* batch);
  static void SetSequence(WriteBatch* batch, SequenceNumber seq);

  // The encoded batch, as written to the log.
  static Slice Contents(const WriteBatch* batch) { return Slice(batch->rep_); }
  static size_t ByteSize(const WriteBatch* batch) { return batch->rep_.size(); }

  // Replaces the batch with an encoded batch (e.g. read back from the log).
  // contents must be at least kHeaderSize bytes.
  static void SetContents(WriteBatch* batch, const Slice& contents);

  // Applies the records to *memtable with consecutive sequence numbers
  // starting at Sequence(batch).
  static Status InsertInto(const WriteBatch* batch, MemTable* memtable);

  // Appends src's records to dst (dst keeps its sequence number).
  static void Append(WriteBatch* dst, const WriteBatch* src);
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_WRITE_BATCH_INTERNAL_H_
