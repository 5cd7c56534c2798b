// The LEVELDB_ELASTICBF environment variable: turns ElasticBF on for
// programs that cannot choose a filter policy from leveldb/elastic_filter.h
// (binaries built against stock LevelDB, the C API, language bindings).
// DB::Open reads it; see docs/elasticbf.md for the user's view.
#ifndef STORAGE_LEVELDB_DB_ELASTIC_ENV_SWITCH_H_
#define STORAGE_LEVELDB_DB_ELASTIC_ENV_SWITCH_H_

#include <memory>
#include <string>

#include "leveldb/elastic_filter.h"
#include "leveldb/filter_policy.h"
#include "leveldb/status.h"
#include "util/builtin_bloom.h"

namespace leveldb {

inline constexpr char kElasticEnvVariable[] = "LEVELDB_ELASTICBF";

struct ElasticEnvSetting {
  bool enabled = false;
  // As parsed. Fields not given keep the defaults of ElasticFilterOptions,
  // except inherit_hotness, which is false unless given, so that the
  // MANIFEST stays readable by stock LevelDB.
  ElasticFilterOptions options;
  // shared_budget_mb=N: every database the process opens with the variable
  // shares one budget of N MiB (ProcessElasticBudget); 0: not given.
  size_t shared_budget_mb = 0;
};

// Parses a value of the variable. "", "0" and "off" leave ElasticBF off;
// "1" and "on" turn it on with the defaults; otherwise the value must be a
// comma-separated list of field=value (fields of ElasticFilterOptions, each
// at most once), which turns it on with those fields changed. Numbers are
// decimal and must make up the whole value; booleans are 0, 1, true or
// false. The options are validated as DB::Open validates a policy's. Any
// problem gives InvalidArgument naming the variable and the field.
Status ParseElasticEnvSetting(const std::string& value,
                              ElasticEnvSetting* setting);

// What DB::Open does about the variable for one database.
struct ElasticEnvDecision {
  // The policy to use instead of the application's, owned by the DB; null
  // when the application's policy (or none) stays.
  std::unique_ptr<const FilterPolicy> policy;
  // For the info LOG: what was applied, or why nothing was. Empty when the
  // variable is unset or off.
  std::string log_message;
};

// Decides for a database opened with `user_policy` (may be null) when the
// variable has `value` (null: unset). Fails only for an invalid value.
Status DecideElasticEnvSwitch(const char* value,
                              const FilterPolicy* user_policy,
                              ElasticEnvDecision* decision);

// The process-wide budget of `mb` MiB that LEVELDB_ELASTICBF's
// shared_budget_mb gives every database: one per value, created at first
// use and never deleted.
ElasticFilterBudget* ProcessElasticBudget(size_t mb);

// "bits_per_unit=4,units_per_segment=6,...": every field of `options` in
// the syntax the variable accepts.
std::string ElasticOptionsString(const ElasticFilterOptions& options);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_ELASTIC_ENV_SWITCH_H_
