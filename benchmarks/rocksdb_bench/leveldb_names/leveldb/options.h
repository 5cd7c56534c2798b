// ycsb_rocksdb only (see status.h): LevelDB's option names for RocksDB's.
#ifndef LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_OPTIONS_H_
#define LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_OPTIONS_H_

#include "rocksdb/options.h"

namespace leveldb {
using Options = rocksdb::Options;
using ReadOptions = rocksdb::ReadOptions;
using WriteOptions = rocksdb::WriteOptions;
}  // namespace leveldb

#endif  // LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_OPTIONS_H_
