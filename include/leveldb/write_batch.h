// WriteBatch: a list of Put and Delete operations that DB::Write() applies
// all together (atomically).  They take effect in the order they were added,
// so for any key the last one wins.  Writing a batch built as
//
//   batch.Put("k", "a");
//   batch.Delete("k");
//   batch.Put("k", "b");
//
// leaves "k" holding "b".
//
// Threading: sharing one batch between threads is safe for const methods
// only; as soon as a thread may modify it, guard every use of it with one
// mutex.

#ifndef STORAGE_LEVELDB_INCLUDE_WRITE_BATCH_H_
#define STORAGE_LEVELDB_INCLUDE_WRITE_BATCH_H_

#include <string>

#include "leveldb/export.h"
#include "leveldb/status.h"

namespace leveldb {

class Slice;

class LEVELDB_EXPORT WriteBatch {
 public:
  // Callback interface for Iterate(): it is shown each operation in turn.
  class LEVELDB_EXPORT Handler {
   public:
    virtual ~Handler();
    virtual void Put(const Slice& key, const Slice& value) = 0;
    virtual void Delete(const Slice& key) = 0;
  };

  WriteBatch();

  // Copying a batch copies its operations.
  WriteBatch(const WriteBatch&) = default;
  WriteBatch& operator=(const WriteBatch&) = default;

  ~WriteBatch();

  // Adds the operation "set key to value".
  void Put(const Slice& key, const Slice& value);

  // Adds the operation "remove key" (harmless when key is absent).
  void Delete(const Slice& key);

  // Empties the batch.
  void Clear();

  // Bytes used by the encoded batch.  For statistics only: the number
  // depends on the encoding, which a later version may change.
  size_t ApproximateSize() const;

  // Adds the operations of `source` after this batch's own.  Takes time
  // linear in source's size, less than replaying it through a Handler.
  void Append(const WriteBatch& source);

  // Calls handler->Put() or handler->Delete() for each operation, in order.
  Status Iterate(Handler* handler) const;

 private:
  friend class WriteBatchInternal;

  // The encoded batch: a sequence number, an operation count and the
  // operations (format in db/write_batch.cc).
  std::string rep_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_WRITE_BATCH_H_
