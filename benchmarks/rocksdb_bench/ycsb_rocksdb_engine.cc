// The RocksDB side of the YCSB runner: `ycsb_rocksdb` is the runner's
// ycsb_core sources (generators, clients, phases, reports) with this file
// in place of benchmarks/ycsb/engine.cc, so RocksDB 7.8 (Debian's
// librocksdb-dev) runs exactly the same operations as `ycsb` and
// `ycsb_upstream`. The runner names its database types through LevelDB's
// headers; in this build they are RocksDB's (leveldb_names/).
//
// Settings are the runner's leveldb.* properties, with RocksDB meanings:
//   leveldb.bloom_bits      full (format_version 5) Bloom filter bits per key;
//                           <= 0: no filter
//   leveldb.direct_io       Options::use_direct_reads (and compaction reads)
//   leveldb.fill_cache      ReadOptions::fill_cache
//   leveldb.cache_size      block cache bytes; 0: no block cache; < 0: 8 MiB
//   leveldb.write_buffer_size, leveldb.max_file_size (target_file_size_base),
//   leveldb.max_open_files, leveldb.block_size, leveldb.compression, sync
// ElasticBF settings are an error here, except leveldb.elastic_bf=false.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <system_error>

#include "engine.h"
#include "engine_settings.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/version.h"

namespace ycsb {

namespace {

// Statistics of the open database (one per process: the runner opens one).
std::shared_ptr<rocksdb::Statistics>& OpenStatistics() {
  static std::shared_ptr<rocksdb::Statistics> statistics;
  return statistics;
}

leveldb::Status CheckKeys(const Properties& props) {
  for (const auto& entry : props.values()) {
    const std::string& key = entry.first;
    if (key.compare(0, 8, "leveldb.") != 0) continue;
    if (IsCommonSettingKey(key) || key == "leveldb.elastic_bf") continue;
    if (key.compare(0, 11, "leveldb.bf_") == 0) {
      return leveldb::Status::InvalidArgument(
          "property " + key,
          "ElasticBF exists only in the fork; ycsb_rocksdb runs RocksDB");
    }
    return leveldb::Status::InvalidArgument(
        "unknown property " + key,
        "see docs/ycsb.md for the leveldb.* settings");
  }
  return leveldb::Status::OK();
}

// The fork's ElasticBF is not RocksDB's: only leveldb.elastic_bf=false.
leveldb::Status RejectElastic(const Properties& props, EngineSpec* spec) {
  leveldb::Status s =
      props.GetBool("leveldb.elastic_bf", spec->elastic_bf, &spec->elastic_bf);
  if (s.ok() && spec->elastic_bf) {
    s = leveldb::Status::InvalidArgument(
        "property leveldb.elastic_bf",
        "ElasticBF exists only in the fork; ycsb_rocksdb runs RocksDB");
  }
  return s;
}

rocksdb::Options BuildOptions(const EngineSpec& spec, bool create) {
  rocksdb::Options options;
  options.create_if_missing = create;
  // LevelDB's defaults where the runner's settings leave them open, so the
  // three engines start from the same memtable and table sizes.
  options.write_buffer_size = spec.write_buffer_size > 0
                                  ? static_cast<size_t>(spec.write_buffer_size)
                                  : size_t{4} << 20;
  options.target_file_size_base =
      spec.max_file_size > 0 ? static_cast<uint64_t>(spec.max_file_size)
                             : uint64_t{2} << 20;
  options.max_open_files =
      spec.max_open_files > 0 ? static_cast<int>(spec.max_open_files) : 1000;
  options.compression =
      spec.compression ? rocksdb::kSnappyCompression : rocksdb::kNoCompression;
  options.use_direct_reads = spec.direct_io;
  options.use_direct_io_for_flush_and_compaction = false;
  rocksdb::BlockBasedTableOptions table;
  table.block_size =
      spec.block_size > 0 ? static_cast<size_t>(spec.block_size) : 4096;
  if (spec.bloom_bits > 0) {
    // Full filters (one per table), held by the table reader like LevelDB's.
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(
        static_cast<double>(spec.bloom_bits), false));
  }
  if (spec.cache_size == 0) {
    table.no_block_cache = true;
  } else if (spec.cache_size > 0) {
    table.block_cache =
        rocksdb::NewLRUCache(static_cast<size_t>(spec.cache_size));
  } else {
    table.block_cache = rocksdb::NewLRUCache(size_t{8} << 20);
  }
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.statistics = rocksdb::CreateDBStatistics();
  options.statistics->set_stats_level(rocksdb::StatsLevel::kExceptTimers);
  return options;
}

}  // namespace

const char* EngineName() {
  static const std::string name = "RocksDB " + std::to_string(ROCKSDB_MAJOR) +
                                  "." + std::to_string(ROCKSDB_MINOR) + "." +
                                  std::to_string(ROCKSDB_PATCH);
  return name.c_str();
}

leveldb::Status ParseEngineSpec(const Properties& props, EngineSpec* spec) {
  *spec = EngineSpec();
  spec->db_path = props.GetString("leveldb.dbpath", spec->db_path);
  leveldb::Status s = CheckKeys(props);
  if (s.ok()) s = RejectElastic(props, spec);
  if (s.ok()) s = ParseCommonSettings(props, spec);
  if (!s.ok()) return s;
  if (spec->db_path.empty()) {
    return leveldb::Status::InvalidArgument("leveldb.dbpath", "is empty");
  }
  return leveldb::Status::OK();
}

std::string DescribeEngine(const EngineSpec& spec) {
  std::ostringstream out;
  out << "path=" << spec.db_path << " filter=";
  if (spec.bloom_bits > 0) {
    out << "full bloom(" << spec.bloom_bits << " bits/key)";
  } else {
    out << "none";
  }
  out << " direct_reads=" << (spec.direct_io ? "on" : "off");
  DescribeCommonSettings(spec, &out);
  return out.str();
}

leveldb::Status Database::Open(const EngineSpec& spec, bool create,
                               std::unique_ptr<Database>* result) {
  result->reset();
  if (create) {
    leveldb::Status s = CreateDatabaseDirectory(spec.db_path);
    if (!s.ok()) return s;
  }
  std::unique_ptr<Database> database(new Database);
  const rocksdb::Options options = BuildOptions(spec, create);
  leveldb::Status s = rocksdb::DB::Open(options, spec.db_path, &database->db_);
  if (!s.ok()) return s;
  OpenStatistics() = options.statistics;
  database->read_options_.fill_cache = spec.fill_cache;
  database->write_options_.sync = spec.sync;
  *result = std::move(database);
  return leveldb::Status::OK();
}

leveldb::Status Database::Destroy(const EngineSpec& spec) {
  std::error_code error;
  if (!std::filesystem::exists(spec.db_path, error)) {
    return leveldb::Status::OK();
  }
  return rocksdb::DestroyDB(spec.db_path, rocksdb::Options());
}

Database::~Database() {
  // filter_policy_ and block_cache_ (LevelDB types) stay null here: the
  // RocksDB options own their filter policy and cache.
  delete db_;
  OpenStatistics().reset();
}

void Database::ResetIoStats() {
  if (OpenStatistics() != nullptr) OpenStatistics()->Reset();
}

std::string Database::StatsReport() const {
  std::string report = "rocksdb:\n";
  char line[256];
  const std::shared_ptr<rocksdb::Statistics>& statistics = OpenStatistics();
  if (statistics != nullptr) {
    const struct {
      const char* name;
      uint32_t ticker;
    } tickers[] = {
        {"bloom_useful", rocksdb::BLOOM_FILTER_USEFUL},
        {"bloom_full_positive", rocksdb::BLOOM_FILTER_FULL_POSITIVE},
        {"bloom_full_true_positive", rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE},
        {"block_cache_data_miss", rocksdb::BLOCK_CACHE_DATA_MISS},
        {"gets", rocksdb::NUMBER_KEYS_READ},
        {"compaction_bytes_read", rocksdb::COMPACT_READ_BYTES},
        {"compaction_bytes_written", rocksdb::COMPACT_WRITE_BYTES},
    };
    for (const auto& ticker : tickers) {
      std::snprintf(line, sizeof(line), "%s: %" PRIu64 "\n", ticker.name,
                    statistics->getTickerCount(ticker.ticker));
      report += line;
    }
    // A Get reads a data block where a filter said "maybe" (or a table has
    // no filter): full positives, of which the false ones read for nothing.
    const uint64_t positive =
        statistics->getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
    const uint64_t true_positive =
        statistics->getTickerCount(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
    std::snprintf(line, sizeof(line), "false_positives: %" PRIu64 "\n",
                  positive - std::min(positive, true_positive));
    report += line;
  }
  rocksdb::TablePropertiesCollection tables;
  rocksdb::Status s = db_->GetPropertiesOfAllTables(&tables);
  if (s.ok()) {
    uint64_t filter = 0;
    uint64_t entries = 0;
    for (const auto& entry : tables) {
      filter += entry.second->filter_size;
      entries += entry.second->num_entries;
    }
    std::snprintf(
        line, sizeof(line),
        "filter_bytes: %" PRIu64 "\ntable_entries: %" PRIu64
        "\nfilter_bits_per_entry: %.2f\n",
        filter, entries,
        entries > 0 ? filter * 8.0 / static_cast<double>(entries) : 0.0);
    report += line;
  }
  return report;
}

}  // namespace ycsb
