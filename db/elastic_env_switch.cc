#include "db/elastic_env_switch.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <system_error>

#include "port/port.h"
#include "table/elastic/elastic_filter_policy.h"
#include "util/mutexlock.h"

namespace leveldb {

namespace {

constexpr char kKnownFields[] =
    "bits_per_unit, units_per_segment, segment_bytes, memory_bits_per_key, "
    "memory_budget_bytes, lifetime, initial_units, inherit_hotness, "
    "unit_kind, shared_budget_mb, false_positive_memo_bytes, block_alignment";

Status EnvError(const std::string& what) {
  return Status::InvalidArgument(kElasticEnvVariable, what);
}

// A whole-string decimal integer of type T (no sign for unsigned types, no
// spaces, no trailing characters).
template <typename T>
Status ParseInteger(const std::string& field, const std::string& text, T* out) {
  const char* end = text.data() + text.size();
  T value{};
  const std::from_chars_result r = std::from_chars(text.data(), end, value);
  if (r.ec == std::errc::result_out_of_range) {
    return EnvError(field + "=" + text + ": out of range");
  }
  if (r.ec != std::errc() || r.ptr != end) {
    return EnvError(field + "=" + text + ": not a whole decimal number");
  }
  *out = value;
  return Status::OK();
}

Status ParseDouble(const std::string& field, const std::string& text,
                   double* out) {
  const char* end = text.data() + text.size();
  double value = 0;
  const std::from_chars_result r =
      std::from_chars(text.data(), end, value, std::chars_format::general);
  if (r.ec == std::errc::result_out_of_range) {
    return EnvError(field + "=" + text + ": out of range");
  }
  if (r.ec != std::errc() || r.ptr != end) {
    return EnvError(field + "=" + text + ": not a decimal number");
  }
  *out = value;
  return Status::OK();
}

Status ParseBool(const std::string& field, const std::string& text, bool* out) {
  if (text == "1" || text == "true") {
    *out = true;
  } else if (text == "0" || text == "false") {
    *out = false;
  } else {
    return EnvError(field + "=" + text + ": must be 0, 1, true or false");
  }
  return Status::OK();
}

Status ParseUnitKind(const std::string& field, const std::string& text,
                     ElasticFilterOptions::UnitKind* out) {
  if (text == "bloom") {
    *out = ElasticFilterOptions::UnitKind::kBloom;
  } else if (text == "ribbon") {
    *out = ElasticFilterOptions::UnitKind::kRibbon;
  } else {
    return EnvError(field + "=" + text + ": must be bloom or ribbon");
  }
  return Status::OK();
}

Status SetField(const std::string& field, const std::string& text,
                ElasticFilterOptions* o) {
  if (field == "bits_per_unit") {
    return ParseInteger(field, text, &o->bits_per_unit);
  }
  if (field == "units_per_segment") {
    return ParseInteger(field, text, &o->units_per_segment);
  }
  if (field == "segment_bytes") {
    return ParseInteger(field, text, &o->segment_bytes);
  }
  if (field == "memory_bits_per_key") {
    return ParseDouble(field, text, &o->memory_bits_per_key);
  }
  if (field == "memory_budget_bytes") {
    return ParseInteger(field, text, &o->memory_budget_bytes);
  }
  if (field == "lifetime") return ParseInteger(field, text, &o->lifetime);
  if (field == "initial_units") {
    return ParseInteger(field, text, &o->initial_units);
  }
  if (field == "inherit_hotness") {
    return ParseBool(field, text, &o->inherit_hotness);
  }
  if (field == "unit_kind") return ParseUnitKind(field, text, &o->unit_kind);
  if (field == "false_positive_memo_bytes") {
    return ParseInteger(field, text, &o->false_positive_memo_bytes);
  }
  if (field == "block_alignment") {
    return ParseInteger(field, text, &o->block_alignment);
  }
  return EnvError("unknown field '" + field + "' (known: " + kKnownFields +
                  ")");
}

// shared_budget_mb: whole MiB, at least 1, whose bytes fit a size_t.
Status ParseSharedBudget(const std::string& field, const std::string& text,
                         size_t* mb) {
  Status s = ParseInteger(field, text, mb);
  if (!s.ok()) return s;
  if (*mb == 0) return EnvError(field + "=" + text + ": must be at least 1");
  if (*mb > (std::numeric_limits<size_t>::max() >> 20)) {
    return EnvError(field + "=" + text + ": out of range");
  }
  return Status::OK();
}

// Applies one "field=value" item of the list.
Status ApplyItem(const std::string& item, std::set<std::string>* seen,
                 ElasticEnvSetting* setting) {
  ElasticFilterOptions* o = &setting->options;
  const size_t eq = item.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
    return EnvError("'" + item +
                    "' is not field=value (the value is 1, on, 0, off or a "
                    "comma-separated list of field=value)");
  }
  const std::string field = item.substr(0, eq);
  if (!seen->insert(field).second) {
    return EnvError(field + " is given more than once");
  }
  if (field == "shared_budget_mb") {
    return ParseSharedBudget(field, item.substr(eq + 1),
                             &setting->shared_budget_mb);
  }
  return SetField(field, item.substr(eq + 1), o);
}

std::string DoubleString(double v) {
  char buf[64];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ec == std::errc() ? r.ptr : buf);
}

}  // namespace

Status ParseElasticEnvSetting(const std::string& value,
                              ElasticEnvSetting* setting) {
  *setting = ElasticEnvSetting();
  setting->options.inherit_hotness = false;
  if (value.empty() || value == "0" || value == "off") return Status::OK();
  setting->enabled = true;
  if (value == "1" || value == "on") return Status::OK();

  std::set<std::string> seen;
  size_t start = 0;
  while (true) {
    const size_t comma = value.find(',', start);
    const size_t end = comma == std::string::npos ? value.size() : comma;
    Status s = ApplyItem(value.substr(start, end - start), &seen, setting);
    if (!s.ok()) return s;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }

  if (setting->shared_budget_mb != 0 && seen.count("memory_budget_bytes")) {
    return EnvError(
        "shared_budget_mb and memory_budget_bytes exclude each other (the "
        "shared budget gives the bytes)");
  }
  ElasticOptionProblem problem;
  if (FindElasticOptionProblem(setting->options, &problem)) {
    return EnvError(problem.field + " is " + problem.value + ", " +
                    problem.rule);
  }
  return Status::OK();
}

Status DecideElasticEnvSwitch(const char* value,
                              const FilterPolicy* user_policy,
                              ElasticEnvDecision* decision) {
  decision->policy.reset();
  decision->log_message.clear();
  if (value == nullptr) return Status::OK();
  ElasticEnvSetting setting;
  Status s = ParseElasticEnvSetting(value, &setting);
  if (!s.ok() || !setting.enabled) return s;

  const std::string variable = std::string(kElasticEnvVariable) + "=" + value;
  const char* user_name =
      user_policy != nullptr ? user_policy->Name() : nullptr;
  if (user_policy != nullptr &&
      (user_name == nullptr ||
       std::strcmp(user_name, kBuiltinBloomPolicyName) != 0)) {
    decision->log_message =
        "ElasticBF: " + variable +
        " not applied: the application chose the filter policy " +
        (user_name != nullptr ? user_name : "(unnamed)") +
        ", which is kept (only the built-in Bloom policy or no policy is "
        "replaced)";
    return Status::OK();
  }
  if (setting.shared_budget_mb != 0) {
    setting.options.shared_budget =
        ProcessElasticBudget(setting.shared_budget_mb);
  }
  decision->policy.reset(NewElasticFilterPolicy(setting.options));
  decision->log_message =
      "ElasticBF: " + variable + " applied in place of " +
      (user_policy != nullptr ? "the built-in Bloom filter policy"
                              : "no filter policy") +
      "; effective options: " +
      ElasticOptionsString(ResolveElasticShape(setting.options));
  if (setting.shared_budget_mb != 0) {
    decision->log_message +=
        ",shared_budget_mb=" + std::to_string(setting.shared_budget_mb) +
        " (one budget for every database of the process)";
  }
  return Status::OK();
}

ElasticFilterBudget* ProcessElasticBudget(size_t mb) {
  // Never deleted: databases of the process may use it until it exits.
  static port::Mutex* mu = new port::Mutex;
  static std::map<size_t, ElasticFilterBudget*>* budgets =
      new std::map<size_t, ElasticFilterBudget*>;
  MutexLock l(mu);
  ElasticFilterBudget*& budget = (*budgets)[mb];
  if (budget == nullptr) budget = NewElasticFilterBudget(mb << 20);
  return budget;
}

std::string ElasticOptionsString(const ElasticFilterOptions& o) {
  std::string out;
  out += "bits_per_unit=" + std::to_string(o.bits_per_unit);
  out += ",units_per_segment=" + std::to_string(o.units_per_segment);
  out += ",segment_bytes=" + std::to_string(o.segment_bytes);
  out += ",memory_bits_per_key=" + DoubleString(o.memory_bits_per_key);
  out += ",memory_budget_bytes=" + std::to_string(o.memory_budget_bytes);
  out += ",lifetime=" + std::to_string(o.lifetime);
  out += ",initial_units=" + std::to_string(o.initial_units);
  out += ",inherit_hotness=";
  out += o.inherit_hotness ? "1" : "0";
  out += ",unit_kind=";
  out += o.unit_kind == ElasticFilterOptions::UnitKind::kRibbon ? "ribbon"
                                                                : "bloom";
  out += ",false_positive_memo_bytes=" +
         std::to_string(o.false_positive_memo_bytes);
  out += ",block_alignment=" + std::to_string(o.block_alignment);
  return out;
}

}  // namespace leveldb
