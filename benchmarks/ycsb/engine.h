// The LevelDB side of the YCSB runner: engine settings given as
// "leveldb.*" properties, and an open database with the objects it needs
// (filter policy, block cache, Env).
//
// The same source builds against the fork and, with LEVELDB_UPSTREAM_BUILD,
// against stock LevelDB 1.23; ElasticBF settings are an error there.
#ifndef LEVELDB_BENCHMARKS_YCSB_ENGINE_H_
#define LEVELDB_BENCHMARKS_YCSB_ENGINE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "leveldb/db.h"
#include "leveldb/options.h"
#include "leveldb/status.h"
#include "properties.h"

namespace leveldb {
class Cache;
class Env;
class FilterPolicy;
}  // namespace leveldb

namespace ycsb {

struct EngineSpec {
  std::string db_path = "/tmp/ycsb-leveldb";  // leveldb.dbpath or -dbpath
  bool elastic_bf = false;                    // leveldb.elastic_bf
  // ElasticFilterOptions (leveldb.bf_*); the fork's defaults (a test keeps
  // them equal). Shape 0: chosen from the budget.
  int64_t bf_bits_per_unit = 0;
  int64_t bf_units = 0;
  double bf_memory_bits_per_key = 4;
  int64_t bf_memory_budget_bytes = 0;
  int64_t bf_segment_bytes = 0;
  int64_t bf_lifetime = 0;
  int64_t bf_initial_units = 1;
  bool bf_inherit_hotness = false;
  int64_t bloom_bits = -1;        // leveldb.bloom_bits; < 0: no filter
  bool direct_io = false;         // leveldb.direct_io
  bool fill_cache = true;         // leveldb.fill_cache (ReadOptions)
  int64_t cache_size = -1;        // leveldb.cache_size; < 0: default 8 MiB
  int64_t write_buffer_size = 0;  // leveldb.write_buffer_size; 0: default
  int64_t max_file_size = 0;      // leveldb.max_file_size; 0: default
  int64_t max_open_files = 0;     // leveldb.max_open_files; 0: default
  int64_t block_size = 0;         // leveldb.block_size; 0: default
  bool compression = true;        // leveldb.compression=snappy|none
  bool sync = false;              // leveldb.sync (WriteOptions)
};

// Parses every "leveldb.*" property; an unknown one is an error (a typo
// would otherwise silently change nothing), and so is an ElasticBF setting
// in the upstream build.
leveldb::Status ParseEngineSpec(const Properties& props, EngineSpec* spec);

// Human-readable summary of the settings, for reports.
std::string DescribeEngine(const EngineSpec& spec);

// Name of the library the runner was built against ("fork" or
// "upstream LevelDB 1.23").
const char* EngineName();

class Database {
 public:
  // Opens (or, with `create`, creates) the database at spec.db_path.
  static leveldb::Status Open(const EngineSpec& spec, bool create,
                              std::unique_ptr<Database>* result);
  // Deletes the database at spec.db_path (nothing if there is none).
  static leveldb::Status Destroy(const EngineSpec& spec);

  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  leveldb::DB* db() const { return db_; }
  const leveldb::ReadOptions& read_options() const { return read_options_; }
  const leveldb::WriteOptions& write_options() const { return write_options_; }

  // Zeroes the fork's I/O statistics (nothing in the upstream build).
  void ResetIoStats();
  // "leveldb.io-stats" and "leveldb.elasticbf" with headings, where the
  // library has them; empty otherwise.
  std::string StatsReport() const;

 private:
  Database() = default;

  leveldb::DB* db_ = nullptr;
  const leveldb::FilterPolicy* filter_policy_ = nullptr;
  leveldb::Cache* block_cache_ = nullptr;
  leveldb::ReadOptions read_options_;
  leveldb::WriteOptions write_options_;
};

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_ENGINE_H_
