#include "engine.h"

#include <sstream>

#include "../common/direct_io_env.h"
#include "../common/store_options.h"
#include "engine_settings.h"
#include "leveldb/cache.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"

#if !defined(LEVELDB_UPSTREAM_BUILD)
#include "../common/elastic_settings.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/io_stats.h"
#endif

namespace ycsb {

namespace {

#if defined(LEVELDB_UPSTREAM_BUILD)
leveldb::Status UpstreamHasNoElasticBF(const std::string& key) {
  return leveldb::Status::InvalidArgument(
      "property " + key,
      "ElasticBF exists only in the fork; ycsb_upstream runs stock LevelDB "
      "(use the ycsb binary)");
}
#endif

// The leveldb.bf_* integers; wide ranges, as the library's own validation
// names the exact limits.
struct ElasticInt {
  const char* key;
  int64_t EngineSpec::*target;
  int64_t min_value;
  int64_t max_value;
};
constexpr ElasticInt kElasticInts[] = {
    {"leveldb.bf_bits_per_unit", &EngineSpec::bf_bits_per_unit, INT32_MIN,
     INT32_MAX},
    {"leveldb.bf_units", &EngineSpec::bf_units, INT32_MIN, INT32_MAX},
    {"leveldb.bf_memory_budget_bytes", &EngineSpec::bf_memory_budget_bytes, 0,
     kMaxSettingBytes},
    {"leveldb.bf_segment_bytes", &EngineSpec::bf_segment_bytes, 0,
     kMaxSettingBytes},
    {"leveldb.bf_lifetime", &EngineSpec::bf_lifetime, 0, INT64_MAX},
    {"leveldb.bf_initial_units", &EngineSpec::bf_initial_units, INT32_MIN,
     INT32_MAX},
};

bool IsElasticKey(const std::string& key) {
  for (const ElasticInt& entry : kElasticInts) {
    if (key == entry.key) return true;
  }
  return key == "leveldb.elastic_bf" || key == "leveldb.bf_inherit_hotness" ||
         key == "leveldb.bf_memory_bits_per_key";
}

leveldb::Status CheckKeys(const Properties& props) {
  for (const auto& entry : props.values()) {
    const std::string& key = entry.first;
    if (key.compare(0, 8, "leveldb.") != 0) continue;
    if (IsCommonSettingKey(key)) continue;
    if (!IsElasticKey(key)) {
      return leveldb::Status::InvalidArgument(
          "unknown property " + key,
          "see docs/ycsb.md for the leveldb.* settings");
    }
#if defined(LEVELDB_UPSTREAM_BUILD)
    // leveldb.elastic_bf=false is accepted; true is refused after parsing.
    if (key == "leveldb.elastic_bf") continue;
    return UpstreamHasNoElasticBF(key);
#endif
  }
  return leveldb::Status::OK();
}

leveldb::Status ParseElastic(const Properties& props, EngineSpec* spec) {
  leveldb::Status s =
      props.GetBool("leveldb.elastic_bf", spec->elastic_bf, &spec->elastic_bf);
  for (const ElasticInt& e : kElasticInts) {
    if (!s.ok()) return s;
    int64_t* target = &(spec->*e.target);
    s = props.GetInt(e.key, *target, e.min_value, e.max_value, target);
  }
  if (s.ok()) {
    s = props.GetDouble("leveldb.bf_memory_bits_per_key",
                        spec->bf_memory_bits_per_key, -1e9, 1e9,
                        &spec->bf_memory_bits_per_key);
  }
  if (s.ok()) {
    s = props.GetBool("leveldb.bf_inherit_hotness", spec->bf_inherit_hotness,
                      &spec->bf_inherit_hotness);
  }
  return s;
}

#if !defined(LEVELDB_UPSTREAM_BUILD)
leveldb::ElasticFilterOptions ElasticOptions(const EngineSpec& spec) {
  return bench::ElasticOptionsFrom(spec);
}
#endif

}  // namespace

const char* EngineName() {
#if defined(LEVELDB_UPSTREAM_BUILD)
  return "upstream LevelDB 1.23";
#else
  return "fork (LevelDB 1.23 + ElasticBF)";
#endif
}

leveldb::Status ParseEngineSpec(const Properties& props, EngineSpec* spec) {
  *spec = EngineSpec();
  spec->db_path = props.GetString("leveldb.dbpath", spec->db_path);
  leveldb::Status s = CheckKeys(props);
  if (s.ok()) s = ParseElastic(props, spec);
  if (s.ok()) s = ParseCommonSettings(props, spec);
  if (!s.ok()) return s;
  if (spec->db_path.empty()) {
    return leveldb::Status::InvalidArgument("leveldb.dbpath", "is empty");
  }
  if (spec->elastic_bf && spec->bloom_bits > 0) {
    return leveldb::Status::InvalidArgument(
        "leveldb.elastic_bf and leveldb.bloom_bits",
        "are mutually exclusive (both choose the filter policy)");
  }
#if defined(LEVELDB_UPSTREAM_BUILD)
  if (spec->elastic_bf) return UpstreamHasNoElasticBF("leveldb.elastic_bf");
#else
  if (spec->elastic_bf) {
    s = leveldb::ValidateElasticFilterOptions(ElasticOptions(*spec));
  }
#endif
  return s;
}

std::string DescribeEngine(const EngineSpec& spec) {
  std::ostringstream out;
  out << "path=" << spec.db_path << " filter=";
  if (spec.elastic_bf) {
    auto shape = [](int64_t v) {
      return v == 0 ? std::string("auto") : std::to_string(v);
    };
    out << "elasticbf(" << shape(spec.bf_units) << "x"
        << shape(spec.bf_bits_per_unit) << " bits, inherit "
        << (spec.bf_inherit_hotness ? "on" : "off") << ", memory ";
    if (spec.bf_memory_budget_bytes > 0) {
      out << spec.bf_memory_budget_bytes << " bytes";
    } else {
      out << spec.bf_memory_bits_per_key << " bits/key";
    }
    out << ")";
  } else if (spec.bloom_bits > 0) {
    out << "bloom(" << spec.bloom_bits << " bits/key)";
  } else {
    out << "none";
  }
  out << " direct_io=" << (spec.direct_io ? "on" : "off");
  DescribeCommonSettings(spec, &out);
  return out.str();
}

leveldb::Status Database::Open(const EngineSpec& spec, bool create,
                               std::unique_ptr<Database>* result) {
  result->reset();
  if (create) {
    // LevelDB creates the database directory but not its parents.
    leveldb::Status s = CreateDatabaseDirectory(spec.db_path);
    if (!s.ok()) return s;
  }
  std::unique_ptr<Database> database(new Database);
  leveldb::Options options;
  options.create_if_missing = create;
  options.env = bench::ChooseEnv(spec.direct_io);
  bench::ApplyStoreSettings(spec, &options, &database->block_cache_);
#if !defined(LEVELDB_UPSTREAM_BUILD)
  if (spec.elastic_bf) {
    database->filter_policy_ =
        leveldb::NewElasticFilterPolicy(ElasticOptions(spec));
  }
#endif
  if (spec.bloom_bits > 0) {
    database->filter_policy_ =
        leveldb::NewBloomFilterPolicy(static_cast<int>(spec.bloom_bits));
  }
  options.filter_policy = database->filter_policy_;
  leveldb::Status s = leveldb::DB::Open(options, spec.db_path, &database->db_);
  if (!s.ok()) return s;
  database->read_options_.fill_cache = spec.fill_cache;
  database->write_options_.sync = spec.sync;
  *result = std::move(database);
  return leveldb::Status::OK();
}

leveldb::Status Database::Destroy(const EngineSpec& spec) {
  leveldb::Options options;
  options.env = bench::ChooseEnv(spec.direct_io);
  return leveldb::DestroyDB(spec.db_path, options);
}

Database::~Database() {
  // The DB uses the policy and the cache until it is closed.
  delete db_;
  delete filter_policy_;
  delete block_cache_;
}

void Database::ResetIoStats() {
#if !defined(LEVELDB_UPSTREAM_BUILD)
  leveldb::ResetIoStats(db_);
#endif
}

std::string Database::StatsReport() const {
  std::string report;
  for (const char* property : {"leveldb.io-stats", "leveldb.elasticbf"}) {
    std::string value;
    if (!db_->GetProperty(property, &value) || value.empty()) continue;
    report.append(property).append(":\n").append(value);
    if (report.back() != '\n') report.push_back('\n');
  }
  return report;
}

}  // namespace ycsb
