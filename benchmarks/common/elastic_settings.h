// ElasticFilterOptions from the bf_* settings of a benchmark, written once
// for db_bench's flags and the YCSB runner's engine spec. Fork only: the
// upstream builds have no ElasticBF.
#ifndef LEVELDB_BENCHMARKS_COMMON_ELASTIC_SETTINGS_H_
#define LEVELDB_BENCHMARKS_COMMON_ELASTIC_SETTINGS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "leveldb/elastic_filter.h"

namespace bench {

// Settings is any struct with the int64_t fields bf_bits_per_unit,
// bf_units, bf_segment_bytes, bf_memory_budget_bytes, bf_lifetime and
// bf_initial_units, the double bf_memory_bits_per_key and the bool
// bf_inherit_hotness. The unit kind stays at its default.
template <typename Settings>
leveldb::ElasticFilterOptions ElasticOptionsFrom(const Settings& s) {
  // Clamped only far outside the valid ranges, so that
  // ValidateElasticFilterOptions still reports a bad value.
  auto to_int = [](int64_t v) {
    return static_cast<int>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
  };
  leveldb::ElasticFilterOptions options;
  options.bits_per_unit = to_int(s.bf_bits_per_unit);
  options.units_per_segment = to_int(s.bf_units);
  options.segment_bytes = static_cast<size_t>(s.bf_segment_bytes);
  options.memory_bits_per_key = s.bf_memory_bits_per_key;
  options.memory_budget_bytes = static_cast<size_t>(s.bf_memory_budget_bytes);
  options.lifetime = static_cast<uint64_t>(s.bf_lifetime);
  options.initial_units = to_int(s.bf_initial_units);
  options.inherit_hotness = s.bf_inherit_hotness;
  return options;
}

// The reverse: the bf_* fields of *s from `options` (the library defaults).
template <typename Settings>
void SetElasticDefaults(const leveldb::ElasticFilterOptions& options,
                        Settings* s) {
  s->bf_bits_per_unit = options.bits_per_unit;
  s->bf_units = options.units_per_segment;
  s->bf_segment_bytes = static_cast<int64_t>(options.segment_bytes);
  s->bf_memory_bits_per_key = options.memory_bits_per_key;
  s->bf_memory_budget_bytes = static_cast<int64_t>(options.memory_budget_bytes);
  s->bf_lifetime = static_cast<int64_t>(options.lifetime);
  s->bf_initial_units = options.initial_units;
  s->bf_inherit_hotness = options.inherit_hotness;
}

}  // namespace bench

#endif  // LEVELDB_BENCHMARKS_COMMON_ELASTIC_SETTINGS_H_
