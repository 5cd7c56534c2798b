#include "table/elastic/elastic_filter_policy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "leveldb/slice.h"
#include "table/elastic/filter_unit.h"
#include "table/elastic/limits.h"
#include "table/elastic/segment.h"
#include "table/table_filter_setup.h"
#include "util/hash64.h"

namespace leveldb {

namespace {

constexpr size_t kMinSegmentBytes = 1024;
// The automatic unit shape (bits_per_unit and units_per_segment 0): the
// largest automatic unit, the bits per key a full group holds at least,
// and the budget assumed when it is given in bytes.
constexpr int kMaxAutomaticBitsPerUnit = 8;
constexpr double kAutomaticGroupBits = 24;
constexpr double kBitsPerKeyForByteBudgets = 4;

std::string DoubleString(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

bool Reject(const char* field, const std::string& value,
            const std::string& rule, ElasticOptionProblem* problem) {
  problem->field = field;
  problem->value = value;
  problem->rule = rule;
  return true;
}

// Checks unit_kind (every shape the other limits allow suits both kinds).
bool FindUnitKindProblem(const ElasticFilterOptions& options,
                         ElasticOptionProblem* problem) {
  using Kind = ElasticFilterOptions::UnitKind;
  if (options.unit_kind != Kind::kBloom && options.unit_kind != Kind::kRibbon) {
    return Reject("unit_kind",
                  std::to_string(static_cast<int>(options.unit_kind)),
                  "must be kBloom (0) or kRibbon (1)", problem);
  }
  return false;
}

bool FindAlignmentProblem(const ElasticFilterOptions& options,
                          ElasticOptionProblem* problem) {
  const uint64_t a = options.block_alignment;
  if (a == 0) return false;
  if (a < kMinBlockAlignment || a > kMaxBlockAlignment || (a & (a - 1)) != 0) {
    return Reject("block_alignment", std::to_string(a),
                  "must be 0 (off) or a power of two in [" +
                      std::to_string(kMinBlockAlignment) + ", " +
                      std::to_string(kMaxBlockAlignment) + "]",
                  problem);
  }
  return false;
}

bool FindSharedBudgetProblem(const ElasticFilterOptions& options,
                             ElasticOptionProblem* problem) {
  if (options.shared_budget == nullptr) return false;
  if (options.memory_budget_bytes != 0) {
    return Reject("memory_budget_bytes",
                  std::to_string(options.memory_budget_bytes),
                  "must be 0 when shared_budget is set (the shared budget "
                  "gives the bytes)",
                  problem);
  }
  if (options.shared_budget->bytes() == 0) {
    return Reject("shared_budget", "a budget of 0 bytes",
                  "must have at least one byte", problem);
  }
  return false;
}

// bits_per_unit chosen for a budget of `budget_bits` bits per key. Ribbon
// units: one plane each while the most units a group may have cover the
// budget, since k loaded planes reject all but 2^-k of absent keys however
// they are split, and one-plane steps let memory follow hotness most
// finely. Bloom units, whose rate worsens when split: half the budget.
int AutomaticBitsPerUnit(ElasticFilterOptions::UnitKind kind,
                         double budget_bits) {
  const double bits = kind == ElasticFilterOptions::UnitKind::kRibbon
                          ? std::ceil((budget_bits + 1) / kMaxElasticUnits)
                          : std::floor(budget_bits / 2);
  if (!(bits >= 1)) return 1;
  return static_cast<int>(std::min<double>(bits, kMaxAutomaticBitsPerUnit));
}

// units_per_segment for units of `bits` bits: enough for the best
// false-positive rate worth having and for the whole budget plus one unit.
int AutomaticUnits(int bits, double budget_bits) {
  const double wanted = std::max(kAutomaticGroupBits, budget_bits + bits);
  return static_cast<int>(
      std::min<double>(std::ceil(wanted / bits), kMaxElasticUnits));
}

}  // namespace

ElasticFilterOptions ResolveElasticShape(const ElasticFilterOptions& options) {
  ElasticFilterOptions resolved = options;
  // A budget in bytes is not known per key when tables are written.
  const bool in_bytes =
      options.memory_budget_bytes != 0 || options.shared_budget != nullptr;
  const double budget_bits =
      in_bytes ? kBitsPerKeyForByteBudgets : options.memory_bits_per_key;
  if (resolved.bits_per_unit == 0) {
    resolved.bits_per_unit =
        AutomaticBitsPerUnit(options.unit_kind, budget_bits);
  }
  if (resolved.units_per_segment == 0 && resolved.bits_per_unit >= 1) {
    resolved.units_per_segment =
        AutomaticUnits(resolved.bits_per_unit, budget_bits);
  }
  return resolved;
}

bool FindElasticOptionProblem(const ElasticFilterOptions& user_options,
                              ElasticOptionProblem* problem) {
  const ElasticFilterOptions options = ResolveElasticShape(user_options);
  if (options.bits_per_unit < 1 ||
      options.bits_per_unit > kMaxElasticBitsPerUnit) {
    return Reject("bits_per_unit", std::to_string(options.bits_per_unit),
                  "must be 0 (automatic) or in [1, " +
                      std::to_string(kMaxElasticBitsPerUnit) + "]",
                  problem);
  }
  if (options.units_per_segment < 1 ||
      options.units_per_segment > kMaxElasticUnits) {
    return Reject("units_per_segment",
                  std::to_string(options.units_per_segment),
                  "must be 0 (automatic) or in [1, " +
                      std::to_string(kMaxElasticUnits) + "]",
                  problem);
  }
  if (options.initial_units < 0 ||
      options.initial_units > options.units_per_segment) {
    return Reject("initial_units", std::to_string(options.initial_units),
                  "must be in [0, units_per_segment = " +
                      std::to_string(options.units_per_segment) + "]",
                  problem);
  }
  if (!std::isfinite(options.memory_bits_per_key) ||
      options.memory_bits_per_key < 0) {
    return Reject("memory_bits_per_key",
                  DoubleString(options.memory_bits_per_key),
                  "must be finite and >= 0", problem);
  }
  if (options.segment_bytes != 0 && options.segment_bytes < kMinSegmentBytes) {
    return Reject("segment_bytes", std::to_string(options.segment_bytes),
                  "must be 0 (automatic) or >= 1024", problem);
  }
  if (FindSharedBudgetProblem(options, problem)) return true;
  if (FindAlignmentProblem(options, problem)) return true;
  return FindUnitKindProblem(options, problem);
}

Status ValidateElasticFilterOptions(const ElasticFilterOptions& options) {
  ElasticOptionProblem problem;
  if (!FindElasticOptionProblem(options, &problem)) return Status::OK();
  return Status::InvalidArgument("ElasticFilterOptions." + problem.field,
                                 "is " + problem.value + ", " + problem.rule);
}

const FilterPolicy* NewElasticFilterPolicy(
    const ElasticFilterOptions& options) {
  return new ElasticFilterPolicy(options);
}

ElasticFilterPolicy::ElasticFilterPolicy(const ElasticFilterOptions& options)
    : options_(ResolveElasticShape(options)) {}

const char* ElasticFilterPolicy::Name() const { return "leveldb.ElasticBF"; }

void ElasticFilterPolicy::CreateFilter(const Slice* keys, int n,
                                       std::string* dst) const {
  const size_t count = n > 0 ? static_cast<size_t>(n) : 0;
  std::vector<uint64_t> hashes(count);
  for (size_t i = 0; i < count; ++i) {
    hashes[i] = KeyHash64(keys[i].data(), keys[i].size());
  }
  BuildFilterUnit(hashes.data(), count, 0, options_.bits_per_unit, dst);
}

bool ElasticFilterPolicy::KeyMayMatch(const Slice& key,
                                      const Slice& filter) const {
  return FilterUnitMayMatch(filter, KeyHash64(key.data(), key.size()), 0);
}

int ElasticFilterPolicy::keys_per_segment() const {
  if (options_.segment_bytes != 0) return 0;
  return SegmentKeysForBits(
      std::clamp(options_.bits_per_unit, 1, kMaxElasticBitsPerUnit));
}

bool ElasticFilterPolicy::SegmentComplete(uint64_t keys,
                                          uint64_t data_bytes) const {
  return SegmentIsComplete(keys, data_bytes, options_.segment_bytes,
                           static_cast<uint64_t>(keys_per_segment()));
}

const ElasticFilterPolicy* AsElasticPolicy(const FilterPolicy* policy,
                                           bool* strips_internal_suffix) {
  const TableFilterSetup setup = ResolveTableFilter(policy);
  if (strips_internal_suffix != nullptr) {
    *strips_internal_suffix = setup.elastic != nullptr && setup.internal_keys;
  }
  return setup.elastic;
}

}  // namespace leveldb
