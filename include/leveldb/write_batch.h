// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.
//
// WriteBatch collects Put and Delete operations that DB::Write() applies as
// one atomic unit, in the order they were added.  Later operations on a key
// override earlier ones in the same batch: after
//
//   batch.Put("k", "a");
//   batch.Delete("k");
//   batch.Put("k", "b");
//
// is written, "k" maps to "b".
//
// Thread safety: concurrent calls to const member functions are fine.  As
// soon as one thread may call a non-const member, every thread using that
// batch needs outside synchronization.

#ifndef STORAGE_LEVELDB_INCLUDE_WRITE_BATCH_H_
#define STORAGE_LEVELDB_INCLUDE_WRITE_BATCH_H_

#include <string>

#include "leveldb/export.h"
#include "leveldb/status.h"

namespace leveldb {

class Slice;

class LEVELDB_EXPORT WriteBatch {
 public:
  // Receives the operations of a batch, in order, from Iterate().
  class LEVELDB_EXPORT Handler {
   public:
    virtual ~Handler();
    virtual void Put(const Slice& key, const Slice& value) = 0;
    virtual void Delete(const Slice& key) = 0;
  };

  WriteBatch();

  // Batches are values and may be copied freely.
  WriteBatch(const WriteBatch&) = default;
  WriteBatch& operator=(const WriteBatch&) = default;

  ~WriteBatch();

  // Records "set key to value".
  void Put(const Slice& key, const Slice& value);

  // Records "remove key" (a no-op if the key is absent when applied).
  void Delete(const Slice& key);

  // Discards every recorded operation.
  void Clear();

  // Size of the batch's serialised form.  Meant for usage statistics; the
  // exact figure depends on the encoding and may change between versions.
  size_t ApproximateSize() const;

  // Appends the operations recorded in `source` to this batch.  Linear in
  // the size of `source`, and cheaper than replaying it through a Handler.
  void Append(const WriteBatch& source);

  // Feeds every recorded operation, in order, to *handler.
  Status Iterate(Handler* handler) const;

 private:
  friend class WriteBatchInternal;

  // The serialised batch (sequence number, count, then the records); see
  // db/write_batch.cc.
  std::string rep_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_WRITE_BATCH_H_
