// Direct I/O for the upstream build of the YCSB runner. Stock LevelDB has
// no DirectIOEnv(), so ycsb_upstream gets the same behaviour as the fork's
// from this Env built on the public API: table files (*.ldb, *.sst) are read
// with O_DIRECT through 4 KiB-aligned buffers (buffered when the filesystem
// refuses O_DIRECT), never memory-mapped; everything else is
// Env::Default().
#ifndef LEVELDB_BENCHMARKS_YCSB_UPSTREAM_DIRECT_IO_H_
#define LEVELDB_BENCHMARKS_YCSB_UPSTREAM_DIRECT_IO_H_

#if defined(LEVELDB_UPSTREAM_BUILD)

#include "leveldb/env.h"

namespace ycsb {

// Process-wide; never deleted.
leveldb::Env* UpstreamDirectIOEnv();

}  // namespace ycsb

#endif  // LEVELDB_UPSTREAM_BUILD

#endif  // LEVELDB_BENCHMARKS_YCSB_UPSTREAM_DIRECT_IO_H_
