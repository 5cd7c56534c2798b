// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.
//
// The main entry point: DB, a persistent, ordered key/value store.

#ifndef STORAGE_LEVELDB_INCLUDE_DB_H_
#define STORAGE_LEVELDB_INCLUDE_DB_H_

#include <cstdint>
#include <cstdio>

#include "leveldb/export.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"

namespace leveldb {

// Release this library is compatible with.  Keep in sync with the build
// files.
static const int kMajorVersion = 1;
static const int kMinorVersion = 23;

struct Options;
struct ReadOptions;
struct WriteOptions;
class WriteBatch;

// An opaque, immutable point-in-time view of a DB, obtained from
// DB::GetSnapshot().  Safe to share between threads.
class LEVELDB_EXPORT Snapshot {
 protected:
  virtual ~Snapshot();
};

// The half-open key interval [start, limit).
struct LEVELDB_EXPORT Range {
  Range() = default;
  Range(const Slice& s, const Slice& l) : start(s), limit(l) {}

  Slice start;  // First key inside the interval.
  Slice limit;  // First key past the interval.
};

// A sorted, persistent map from byte-string keys to byte-string values.
// All methods may be called concurrently from several threads without
// extra locking.
class LEVELDB_EXPORT DB {
 public:
  // Opens (and, depending on options, creates) the database stored in the
  // directory `name`.  On success *dbptr receives a heap-allocated DB that
  // the caller deletes when done, and OK is returned.  On failure *dbptr is
  // set to nullptr and the error is returned.
  static Status Open(const Options& options, const std::string& name,
                     DB** dbptr);

  DB() = default;

  DB(const DB&) = delete;
  DB& operator=(const DB&) = delete;

  virtual ~DB();

  // Stores value under key, replacing any previous value.  Durability
  // depends on options.sync.
  virtual Status Put(const WriteOptions& options, const Slice& key,
                     const Slice& value) = 0;

  // Removes key.  Deleting a missing key succeeds.  Durability depends on
  // options.sync.
  virtual Status Delete(const WriteOptions& options, const Slice& key) = 0;

  // Applies every update in *updates atomically.  Durability depends on
  // options.sync.
  virtual Status Write(const WriteOptions& options, WriteBatch* updates) = 0;

  // Looks up key.  If present, copies its value into *value and returns OK.
  // If absent, leaves *value untouched and returns a status whose
  // IsNotFound() is true.  Other errors are reported as usual.
  virtual Status Get(const ReadOptions& options, const Slice& key,
                     std::string* value) = 0;

  // Returns a heap-allocated iterator over the whole database.  It starts
  // out unpositioned, so call a Seek method first.  Delete it when done,
  // and before deleting the DB.
  virtual Iterator* NewIterator(const ReadOptions& options) = 0;

  // Captures the current state so that reads through ReadOptions::snapshot
  // see a frozen view.  Pair every call with ReleaseSnapshot().
  virtual const Snapshot* GetSnapshot() = 0;

  // Gives back a snapshot from GetSnapshot(); it must not be used again.
  virtual void ReleaseSnapshot(const Snapshot* snapshot) = 0;

  // Reports internal state.  Returns true and fills *value when `property`
  // is recognised, false otherwise.  Recognised names:
  //   "leveldb.num-files-at-level<N>"   file count at level N (decimal)
  //   "leveldb.stats"                   multi-line compaction statistics
  //   "leveldb.sstables"                multi-line listing of table files
  //   "leveldb.approximate-memory-usage"  bytes of memory in use
  virtual bool GetProperty(const Slice& property, std::string* value) = 0;

  // For each of the n ranges, stores in sizes[i] an estimate of the disk
  // space taken by keys in range[i].  The figure reflects on-disk (possibly
  // compressed) bytes and may not yet include very recent writes.
  virtual void GetApproximateSizes(const Range* range, int n,
                                   uint64_t* sizes) = 0;

  // Compacts the keys in [*begin, *end], dropping deleted and overwritten
  // data.  A null begin means "from the first key"; a null end means "to
  // the last key", so CompactRange(nullptr, nullptr) compacts everything.
  // Mostly of interest to people who know how the storage is organised.
  virtual void CompactRange(const Slice* begin, const Slice* end) = 0;
};

// Deletes the database stored in `name`, with all of its files.  Use with
// care.  For compatibility, a directory that cannot be listed is not
// reported as an error.
LEVELDB_EXPORT Status DestroyDB(const std::string& name,
                                const Options& options);

// Salvages as much as possible of a database that no longer opens.  Some
// data may be lost in the process.
LEVELDB_EXPORT Status RepairDB(const std::string& dbname,
                               const Options& options);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_DB_H_
