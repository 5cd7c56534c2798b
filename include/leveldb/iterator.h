// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.
//
// Iterator is the abstract cursor over an ordered sequence of key/value
// pairs.  The database, tables and blocks all hand out implementations.
//
// Thread safety: concurrent calls to const member functions are fine.  As
// soon as one thread may call a non-const member, every thread using that
// iterator needs outside synchronization.

#ifndef STORAGE_LEVELDB_INCLUDE_ITERATOR_H_
#define STORAGE_LEVELDB_INCLUDE_ITERATOR_H_

#include "leveldb/export.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

class LEVELDB_EXPORT Iterator {
 public:
  Iterator();

  Iterator(const Iterator&) = delete;
  Iterator& operator=(const Iterator&) = delete;

  // Runs every registered cleanup callback.
  virtual ~Iterator();

  // True while the iterator sits on an entry.
  virtual bool Valid() const = 0;

  // Move to the smallest key; Valid() afterwards iff the source is
  // non-empty.
  virtual void SeekToFirst() = 0;

  // Move to the largest key; Valid() afterwards iff the source is non-empty.
  virtual void SeekToLast() = 0;

  // Move to the first entry whose key is >= target; Valid() afterwards iff
  // such an entry exists.
  virtual void Seek(const Slice& target) = 0;

  // Step forward one entry.  Requires Valid(); leaves the iterator invalid
  // when stepping past the last entry.
  virtual void Next() = 0;

  // Step back one entry.  Requires Valid(); leaves the iterator invalid when
  // stepping before the first entry.
  virtual void Prev() = 0;

  // Key of the current entry.  Requires Valid().  The bytes are only
  // guaranteed to stay put until the iterator is next moved or modified.
  virtual Slice key() const = 0;

  // Value of the current entry, with the same requirements and lifetime as
  // key().
  virtual Slice value() const = 0;

  // Any error met so far, or OK.
  virtual Status status() const = 0;

  // Arranges for function(arg1, arg2) to be called when the iterator is
  // destroyed.  Callbacks may be registered any number of times.  This is
  // not virtual and is not meant to be overridden.
  using CleanupFunction = void (*)(void* arg1, void* arg2);
  void RegisterCleanup(CleanupFunction function, void* arg1, void* arg2);

 private:
  // One registered callback.  The first one lives directly inside the
  // iterator (so the common single-callback case needs no allocation);
  // further ones are heap nodes chained through `next`.
  struct CleanupNode {
    // Only the embedded head can be unused; it is unused while its function
    // pointer is null.
    bool IsEmpty() const { return function == nullptr; }

    // Calls the stored callback.
    void Run() {
      assert(function != nullptr);
      function(arg1, arg2);
    }

    CleanupFunction function;
    void* arg1;
    void* arg2;
    CleanupNode* next;
  };
  CleanupNode cleanup_head_;
};

// An iterator over nothing, with an OK status.
LEVELDB_EXPORT Iterator* NewEmptyIterator();

// An iterator over nothing whose status() reports `status`.
LEVELDB_EXPORT Iterator* NewErrorIterator(const Status& status);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_ITERATOR_H_
