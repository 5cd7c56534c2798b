// DB, the main entry point: a key/value store kept on disk and ordered by
// key.

#ifndef STORAGE_LEVELDB_INCLUDE_DB_H_
#define STORAGE_LEVELDB_INCLUDE_DB_H_

#include <cstdint>
#include <cstdio>

#include "leveldb/export.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"

namespace leveldb {

// The LevelDB release whose API this library provides.  The build files
// carry the same numbers; change both together.
static const int kMajorVersion = 1;
static const int kMinorVersion = 23;

struct Options;
struct ReadOptions;
struct WriteOptions;
class WriteBatch;

// The frozen state of a DB at one moment, from DB::GetSnapshot().  It never
// changes, so any thread may use it.
class LEVELDB_EXPORT Snapshot {
 protected:
  virtual ~Snapshot();
};

// The keys k with start <= k < limit.
struct LEVELDB_EXPORT Range {
  Range() = default;
  Range(const Slice& s, const Slice& l) : start(s), limit(l) {}

  Slice start;  // Included.
  Slice limit;  // Excluded.
};

// A persistent map from byte-string keys to byte-string values, sorted by
// key.  Thread-safe: any method may run on several threads at once, with no
// locking by the caller.
class LEVELDB_EXPORT DB {
 public:
  // Opens the database in directory `name`, creating it if the options ask
  // for that.  On success returns OK and sets *dbptr to a new DB, which the
  // caller deletes when done.  On error returns it and sets *dbptr to
  // nullptr.
  static Status Open(const Options& options, const std::string& name,
                     DB** dbptr);

  DB() = default;

  DB(const DB&) = delete;
  DB& operator=(const DB&) = delete;

  virtual ~DB();

  // Sets key to value, overwriting any old value.  options.sync decides
  // whether the change is forced to disk before the call returns.
  virtual Status Put(const WriteOptions& options, const Slice& key,
                     const Slice& value) = 0;

  // Removes key; not an error when key does not exist.  options.sync as for
  // Put().
  virtual Status Delete(const WriteOptions& options, const Slice& key) = 0;

  // Applies all of *updates as one atomic step.  options.sync as for Put().
  virtual Status Write(const WriteOptions& options, WriteBatch* updates) = 0;

  // Reads key.  When found, sets *value to its value and returns OK.  When
  // not found, leaves *value as it was and returns a status with
  // IsNotFound() set.  Any other failure returns its own error.
  virtual Status Get(const ReadOptions& options, const Slice& key,
                     std::string* value) = 0;

  // A new iterator over all entries.  It is not positioned yet: seek before
  // using it.  The caller deletes it, and must do so before deleting the DB.
  virtual Iterator* NewIterator(const ReadOptions& options) = 0;

  // A handle to the present state; reads that pass it as
  // ReadOptions::snapshot see that state only.  Hand it back with
  // ReleaseSnapshot() once it is no longer needed.
  virtual const Snapshot* GetSnapshot() = 0;

  // Frees a snapshot from GetSnapshot().  It must not be used afterwards.
  virtual void ReleaseSnapshot(const Snapshot* snapshot) = 0;

  // Internal state by name.  For a known `property` sets *value and returns
  // true; for an unknown one returns false.  Names:
  //   "leveldb.num-files-at-level<N>"     how many files level N holds
  //   "leveldb.stats"                     compaction figures, several lines
  //   "leveldb.sstables"                  the table files, several lines
  //   "leveldb.approximate-memory-usage"  estimated bytes the DB holds
  // This library adds "leveldb.elasticbf" (leveldb/elastic_filter.h) and
  // "leveldb.io-stats" (leveldb/io_stats.h).
  virtual bool GetProperty(const Slice& property, std::string* value) = 0;

  // For i in [0, n), sets sizes[i] to an estimate of the file bytes used by
  // the keys of range[i].  Compressed data counts at its compressed size,
  // and the newest writes may be left out.
  virtual void GetApproximateSizes(const Range* range, int n,
                                   uint64_t* sizes) = 0;

  // Rewrites the storage of the keys in [*begin, *end] and throws away
  // deleted and overwritten entries.  begin == nullptr stands for "before
  // every key" and end == nullptr for "after every key", so
  // CompactRange(nullptr, nullptr) covers the whole database.  Mainly useful
  // to users who know the storage layout.
  virtual void CompactRange(const Slice* begin, const Slice* end) = 0;
};

// Removes the database in `name` together with all its files; this cannot
// be undone.  A directory that cannot be listed counts as success, as in
// LevelDB 1.23.
LEVELDB_EXPORT Status DestroyDB(const std::string& name,
                                const Options& options);

// Tries to rebuild a database that fails to open, keeping whatever can be
// recovered; some entries may not survive.
LEVELDB_EXPORT Status RepairDB(const std::string& dbname,
                               const Options& options);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_DB_H_
