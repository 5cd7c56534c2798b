// ycsb_rocksdb only (see status.h): LevelDB's database name for RocksDB's.
// Get(ReadOptions, key, std::string*), Put(WriteOptions, key, value) and
// NewIterator(ReadOptions), the calls the runner makes, have the same
// signatures in both libraries.
#ifndef LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_DB_H_
#define LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_DB_H_

#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/status.h"
#include "rocksdb/db.h"

namespace leveldb {
using DB = rocksdb::DB;
}  // namespace leveldb

#endif  // LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_DB_H_
