// Direct I/O on the public Env API, for the builds against stock LevelDB,
// which has no DirectIOEnv(): table files (*.ldb, *.sst) are read with
// O_DIRECT through 4 KiB-aligned buffers (buffered when the filesystem
// refuses O_DIRECT), never memory-mapped; everything else is
// Env::Default(). The fork's builds use leveldb::DirectIOEnv() instead.
#ifndef LEVELDB_BENCHMARKS_COMMON_DIRECT_IO_ENV_H_
#define LEVELDB_BENCHMARKS_COMMON_DIRECT_IO_ENV_H_

#include <string>

#include "leveldb/env.h"

namespace bench {

// True for a table file name (a path whose last part ends in .ldb or .sst).
bool IsTableFile(const std::string& fname);

// Process-wide; never deleted.
leveldb::Env* LocalDirectIOEnv();

// Env::Default(), or for direct_io the library's direct-I/O Env (the fork's
// DirectIOEnv(); LocalDirectIOEnv() in the upstream builds).
leveldb::Env* ChooseEnv(bool direct_io);

}  // namespace bench

#endif  // LEVELDB_BENCHMARKS_COMMON_DIRECT_IO_ENV_H_
