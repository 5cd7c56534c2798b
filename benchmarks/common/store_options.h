// LevelDB Options from the store settings of a benchmark, written once for
// the YCSB runner (benchmarks/ycsb/engine.cc) and the YCSB-C binding
// (contrib/ycsb-c/leveldb_db.cc; install_binding.sh copies this header next
// to it). Public API only, and C++11: YCSB-C compiles with -std=c++11.
#ifndef LEVELDB_BENCHMARKS_COMMON_STORE_OPTIONS_H_
#define LEVELDB_BENCHMARKS_COMMON_STORE_OPTIONS_H_

#include <cstddef>

#include "leveldb/cache.h"
#include "leveldb/options.h"

namespace bench {

// Sets the sizes `settings` gives (0 keeps LevelDB's default) and its
// compression (snappy or none) in *options; for a cache_size of 0 or more,
// also a block cache of that many bytes, returned in *cache for the caller
// to delete after the database. Settings is any struct with the integer
// fields write_buffer_size, max_file_size, max_open_files, block_size and
// cache_size and the bool compression (the two callers' types differ).
template <typename Settings>
void ApplyStoreSettings(const Settings& settings, leveldb::Options* options,
                        leveldb::Cache** cache) {
  options->compression = settings.compression ? leveldb::kSnappyCompression
                                              : leveldb::kNoCompression;
  if (settings.write_buffer_size > 0) {
    options->write_buffer_size =
        static_cast<size_t>(settings.write_buffer_size);
  }
  if (settings.max_file_size > 0) {
    options->max_file_size = static_cast<size_t>(settings.max_file_size);
  }
  if (settings.max_open_files > 0) {
    options->max_open_files = static_cast<int>(settings.max_open_files);
  }
  if (settings.block_size > 0) {
    options->block_size = static_cast<size_t>(settings.block_size);
  }
  if (settings.cache_size >= 0) {
    *cache = leveldb::NewLRUCache(static_cast<size_t>(settings.cache_size));
    options->block_cache = *cache;
  }
}

}  // namespace bench

#endif  // LEVELDB_BENCHMARKS_COMMON_STORE_OPTIONS_H_
