// The runner's engine settings that mean the same for every engine it is
// built against (the fork, Debian's LevelDB, RocksDB): sizes, switches and
// compression. Each engine file adds its own settings (filters) on top.
#ifndef LEVELDB_BENCHMARKS_YCSB_ENGINE_SETTINGS_H_
#define LEVELDB_BENCHMARKS_YCSB_ENGINE_SETTINGS_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "engine.h"
#include "leveldb/status.h"
#include "properties.h"

namespace ycsb {

// Upper bound of the byte-sized settings (1 TiB): larger is a typo.
constexpr int64_t kMaxSettingBytes = int64_t{1} << 40;

// True for the keys ParseCommonSettings reads and for leveldb.dbpath: the
// settings every engine takes.
bool IsCommonSettingKey(const std::string& key);

// Reads leveldb.bloom_bits, cache_size, write_buffer_size, max_file_size,
// max_open_files, block_size, direct_io, fill_cache, sync and compression
// from `props` into `spec`; the first invalid value is returned as
// InvalidArgument naming the property.
leveldb::Status ParseCommonSettings(const Properties& props, EngineSpec* spec);

// Appends " fill_cache=... cache=... compression=..." for DescribeEngine.
void DescribeCommonSettings(const EngineSpec& spec, std::ostream* out);

// Creates `path` and its missing parents (the engines create only the last
// directory); IOError naming the path if that fails.
leveldb::Status CreateDatabaseDirectory(const std::string& path);

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_ENGINE_SETTINGS_H_
