// ycsb_rocksdb only: the YCSB runner's sources name their database types
// through the LevelDB headers; in this build those names stand for the
// RocksDB types with the same interface (Status, Slice). The directory is
// on the include path of ycsb_rocksdb alone, ahead of any LevelDB headers.
#ifndef LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_STATUS_H_
#define LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_STATUS_H_

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace leveldb {
using Slice = rocksdb::Slice;
using Status = rocksdb::Status;
}  // namespace leveldb

#endif  // LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_STATUS_H_
