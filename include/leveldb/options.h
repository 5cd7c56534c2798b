// Tunables for opening a database (Options) and for individual reads
// (ReadOptions) and writes (WriteOptions).  The field order and types of
// these structs are part of the binary interface; do not reorder them.

#ifndef STORAGE_LEVELDB_INCLUDE_OPTIONS_H_
#define STORAGE_LEVELDB_INCLUDE_OPTIONS_H_

#include <cstddef>

#include "leveldb/export.h"

namespace leveldb {

class Cache;
class Comparator;
class Env;
class FilterPolicy;
class Logger;
class Snapshot;

// How the contents of a table block are encoded on disk.  The numeric values
// are written into every block trailer, so they can never change.
enum CompressionType { kNoCompression = 0x0, kSnappyCompression = 0x1 };

// Settings for DB::Open and friends.
struct LEVELDB_EXPORT Options {
  // Fills in every field with its default (see the individual fields).
  Options();

  // ---- Behaviour ----

  // Defines the key order.  Defaults to BytewiseComparator().  A database
  // must always be reopened with a comparator of the same Name() that sorts
  // keys identically to the one it was created with.
  const Comparator* comparator;

  // Create the database when it does not exist yet.
  bool create_if_missing = false;

  // Make DB::Open return an error when the database is already there.
  bool error_if_exists = false;

  // Verify stored data eagerly and report an error at the first damage
  // found.  One bad entry can then make part or all of a database
  // unreadable.
  bool paranoid_checks = false;

  // Operating-system abstraction used for files, threads and time.
  // Defaults to Env::Default().
  Env* env;

  // Destination for diagnostic messages.  When null, messages go to a LOG
  // file inside the database directory.
  Logger* info_log = nullptr;

  // ---- Performance ----

  // Bytes of updates accumulated in memory (and in the write-ahead log)
  // before they are sorted and flushed to a table file.  Larger values help
  // bulk loading but cost memory (up to two such buffers can exist at once)
  // and lengthen recovery after a crash.
  size_t write_buffer_size = 4 * 1024 * 1024;

  // Upper bound on the number of table files kept open.  Raise it for very
  // large working sets (about one file per 2 MB of hot data).
  int max_open_files = 1000;

  // Cache for uncompressed table blocks.  When null, the database creates
  // and owns an 8 MB LRU cache.
  Cache* block_cache = nullptr;

  // Target amount of (uncompressed) user data per table block.  May differ
  // between opens of the same database.
  size_t block_size = 4 * 1024;

  // Keys per prefix-compression run inside a block.  May differ between
  // opens; the default suits nearly everyone.
  int block_restart_interval = 16;

  // Size at which a table file being written is closed and a new one
  // started.  Bigger files mean fewer files but longer compactions.
  size_t max_file_size = 2 * 1024 * 1024;

  // Block compression.  Snappy is cheap enough that it rarely pays to turn
  // it off; blocks that do not shrink are stored uncompressed anyway.  May
  // differ between opens.
  CompressionType compression = kSnappyCompression;

  // Experimental: DB::Open continues writing to the MANIFEST and log file
  // it finds rather than creating new ones, so reopening gets faster.
  bool reuse_logs = false;

  // Optional per-table filter (e.g. NewBloomFilterPolicy()) used to skip
  // disk reads for keys that are certainly absent.
  const FilterPolicy* filter_policy = nullptr;
};

// Settings for a single read (Get or NewIterator).
struct LEVELDB_EXPORT ReadOptions {
  ReadOptions() = default;

  // Check the CRC of every block this read loads from storage.
  bool verify_checksums = false;

  // Insert blocks read by this operation into the block cache.  Large scans
  // usually want false here to avoid evicting hot data.
  bool fill_cache = true;

  // Snapshot to read from; null means the state when the read begins.  A
  // non-null snapshot must come from this same DB and still be unreleased.
  const Snapshot* snapshot = nullptr;
};

// Settings for a single write (Put, Delete or Write).
struct LEVELDB_EXPORT WriteOptions {
  WriteOptions() = default;

  // When true, the write returns only after the log has reached stable
  // storage via WritableFile::Sync(), so it survives a machine crash.  When
  // false, a machine crash can lose the latest writes, while a crash of the
  // process alone cannot: the difference between write(2) and write(2) plus
  // fsync(2).
  bool sync = false;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_OPTIONS_H_
