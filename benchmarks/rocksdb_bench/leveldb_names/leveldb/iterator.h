// ycsb_rocksdb only (see status.h): LevelDB's iterator name for RocksDB's.
#ifndef LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_ITERATOR_H_
#define LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_ITERATOR_H_

#include "rocksdb/iterator.h"

namespace leveldb {
using Iterator = rocksdb::Iterator;
}  // namespace leveldb

#endif  // LEVELDB_BENCHMARKS_ROCKSDB_BENCH_LEVELDB_NAMES_ITERATOR_H_
