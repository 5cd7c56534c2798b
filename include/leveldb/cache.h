// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.
//
// Cache is an abstract, internally synchronised key -> value map with a
// bounded total "charge".  Each entry carries a caller-chosen charge (for
// instance its size in bytes), and the cache may evict entries to stay
// within its capacity.  NewLRUCache() provides a least-recently-used
// implementation; clients may plug in their own policy by subclassing.

#ifndef STORAGE_LEVELDB_INCLUDE_CACHE_H_
#define STORAGE_LEVELDB_INCLUDE_CACHE_H_

#include <cstdint>

#include "leveldb/export.h"
#include "leveldb/slice.h"

namespace leveldb {

class LEVELDB_EXPORT Cache;

// A new LRU cache whose total charge is limited to `capacity`.
LEVELDB_EXPORT Cache* NewLRUCache(size_t capacity);

class LEVELDB_EXPORT Cache {
 public:
  Cache() = default;

  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;

  // Hands every remaining entry to its deleter.
  virtual ~Cache();

  // Opaque reference to a cached entry.
  struct Handle {};

  // Adds key -> value with the given charge, displacing any entry with the
  // same key, and returns a handle to the new entry.  The caller must pass
  // that handle to Release() when finished with it.  Once the entry is
  // both evicted/erased and unreferenced, deleter(key, value) is called.
  virtual Handle* Insert(const Slice& key, void* value, size_t charge,
                         void (*deleter)(const Slice& key, void* value)) = 0;

  // Returns a handle to the entry for key, or nullptr if there is none.  A
  // non-null result must later be passed to Release().
  virtual Handle* Lookup(const Slice& key) = 0;

  // Gives up a handle obtained from this cache.  Each handle is released
  // exactly once.
  virtual void Release(Handle* handle) = 0;

  // The value stored in an unreleased handle obtained from this cache.
  virtual void* Value(Handle* handle) = 0;

  // Removes the entry for key, if any.  Outstanding handles keep the entry
  // alive until they are released.
  virtual void Erase(const Slice& key) = 0;

  // Returns a fresh number on each call.  Clients sharing one cache can use
  // it as a key prefix to keep their key spaces apart.
  virtual uint64_t NewId() = 0;

  // Evicts every entry that no handle currently refers to.  The base
  // version does nothing; implementations are encouraged to override it
  // (it may become pure virtual in the future).
  virtual void Prune() {}

  // Sum of the charges of the entries currently held.
  virtual size_t TotalCharge() const = 0;

 private:
  // Never defined or used.  They, and rep_, are kept only so that the class
  // (and hence every subclass) has the same shape as in the 1.23 release.
  void LRU_Remove(Handle* e);
  void LRU_Append(Handle* e);
  void Unref(Handle* e);

  struct Rep;
  Rep* rep_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_CACHE_H_
