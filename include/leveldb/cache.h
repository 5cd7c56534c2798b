// Cache: maps keys to values and drops entries as needed to keep the sum
// of their charges within a capacity.  The caller picks each entry's charge
// (often its size in bytes).  It does its own locking, so any thread may use
// it.  NewLRUCache() drops the entries unused for longest first; a subclass
// can bring another policy.

#ifndef STORAGE_LEVELDB_INCLUDE_CACHE_H_
#define STORAGE_LEVELDB_INCLUDE_CACHE_H_

#include <cstdint>

#include "leveldb/export.h"
#include "leveldb/slice.h"

namespace leveldb {

class LEVELDB_EXPORT Cache;

// Returns an LRU cache holding entries whose charges add up to at most
// `capacity`.  The caller deletes it.
LEVELDB_EXPORT Cache* NewLRUCache(size_t capacity);

class LEVELDB_EXPORT Cache {
 public:
  Cache() = default;

  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;

  // Calls the deleter of every entry still held.
  virtual ~Cache();

  // Refers to one entry; obtained from Insert() or Lookup().
  struct Handle {};

  // Stores key -> value with the given charge; an older entry with the same
  // key is replaced.  Returns a handle to the new entry that the caller has
  // to Release().  deleter(key, value) runs once the entry has left the
  // cache and no handle to it remains.
  virtual Handle* Insert(const Slice& key, void* value, size_t charge,
                         void (*deleter)(const Slice& key, void* value)) = 0;

  // A handle to key's entry, or nullptr when key is not cached.  Release() a
  // non-null result when done with it.
  virtual Handle* Lookup(const Slice& key) = 0;

  // Returns a handle that this cache gave out.  Call it exactly once for
  // every handle.
  virtual void Release(Handle* handle) = 0;

  // The value behind `handle`.  REQUIRES: handle came from this cache and is
  // still unreleased.
  virtual void* Value(Handle* handle) = 0;

  // Drops key's entry if there is one.  Handles still held keep it alive
  // until they are released.
  virtual void Erase(const Slice& key) = 0;

  // A number never returned before by this cache.  Clients that share one
  // cache can prefix their keys with it so that they do not collide.
  virtual uint64_t NewId() = 0;

  // Drops every entry that is not held by a handle.  This base version does
  // nothing; subclasses should override it, since a later version may make
  // it pure virtual.
  virtual void Prune() {}

  // Current sum of the charges of all held entries.
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
