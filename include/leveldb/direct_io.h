// Direct I/O for table reads (off by default).
//
//   leveldb::Options options;
//   options.env = leveldb::DirectIOEnv();
//
// With this Env, reads of table files (*.ldb, *.sst) bypass the operating
// system's page cache: each RandomAccessFile::Read() becomes one pread of
// the 4 KiB-aligned range covering the requested bytes, issued on a
// descriptor opened with O_DIRECT. Table files are never memory-mapped.
// Everything else (writes, logs, the MANIFEST, locks, the background thread,
// Schedule) is exactly Env::Default(), which this Env forwards to.
//
// Use it to measure or bound real device I/O, e.g. with the block cache off
// (ReadOptions::fill_cache = false) a Get then costs exactly the table
// blocks it reads. Compactions read their inputs in large windows of their
// own; other reads get no read-ahead and no page cache, so expect more
// device reads: it is not a general speed-up. See docs/direct-io.md.
//
// Filesystems without direct I/O: if opening a table file with O_DIRECT
// fails with EINVAL, the file is read with ordinary (buffered) pread
// instead, silently; the same happens for a single read the filesystem
// refuses with EINVAL. Results are identical either way.

#ifndef STORAGE_LEVELDB_INCLUDE_DIRECT_IO_H_
#define STORAGE_LEVELDB_INCLUDE_DIRECT_IO_H_

#include "leveldb/env.h"
#include "leveldb/export.h"

namespace leveldb {

// Returns the process-wide direct-I/O Env described above. It is never
// destroyed; do not delete it. Thread-safe, like Env::Default().
LEVELDB_EXPORT Env* DirectIOEnv();

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_DIRECT_IO_H_
