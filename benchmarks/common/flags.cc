#include "flags.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace bench {

bool ParseInt(const std::string& text, int64_t* value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *value = parsed;
  return true;
}

bool ParseDouble(const std::string& text, double* value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double parsed = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(parsed)) return false;
  *value = parsed;
  return true;
}

bool ParseBool(const std::string& text, bool* value) {
  if (text == "1" || text == "true") {
    *value = true;
  } else if (text == "0" || text == "false") {
    *value = false;
  } else {
    return false;
  }
  return true;
}

bool ParseU64(const std::string& text, uint64_t* value) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  char* end = nullptr;
  *value = std::strtoull(text.c_str(), &end, 10);
  return *end == '\0';
}

std::vector<std::string> SplitCommas(const std::string& list) {
  std::vector<std::string> items;
  for (size_t begin = 0;;) {
    const size_t comma = list.find(',', begin);
    items.push_back(list.substr(begin, comma - begin));
    if (comma == std::string::npos) return items;
    begin = comma + 1;
  }
}

bool SplitFlag(const std::string& arg, std::string* name, std::string* value) {
  const size_t eq = arg.find('=');
  if (arg.rfind("--", 0) != 0 || eq == std::string::npos) return false;
  *name = arg.substr(2, eq - 2);
  *value = arg.substr(eq + 1);
  return true;
}

namespace {

// Sets the target of `flag` from `value`; has_value is false for "--name".
std::string SetFlag(const Flag& flag, bool has_value,
                    const std::string& value) {
  const std::string bad =
      "invalid value '" + value + "' for --" + std::string(flag.name);
  switch (flag.type) {
    case FlagType::kBool:
      if (!has_value) {
        *static_cast<bool*>(flag.target) = true;
      } else if (!ParseBool(value, static_cast<bool*>(flag.target))) {
        return bad;
      }
      return "";
    case FlagType::kInt: {
      int64_t parsed;
      if (!ParseInt(value, &parsed)) return bad;
      if (parsed < flag.min_value) {
        return bad + " (minimum " + std::to_string(flag.min_value) + ")";
      }
      *static_cast<int64_t*>(flag.target) = parsed;
      return "";
    }
    case FlagType::kDouble:
      if (!ParseDouble(value, static_cast<double*>(flag.target))) return bad;
      return "";
    case FlagType::kString:
      if (!has_value) return "--" + std::string(flag.name) + " needs a value";
      *static_cast<std::string*>(flag.target) = value;
      return "";
  }
  return bad;
}

}  // namespace

std::string ApplyFlag(const std::vector<Flag>& table, const std::string& arg,
                      bool* unknown) {
  *unknown = false;
  if (arg.compare(0, 2, "--") != 0) return "unexpected argument '" + arg + "'";
  const size_t eq = arg.find('=');
  const std::string name = arg.substr(2, eq == arg.npos ? arg.npos : eq - 2);
  const bool has_value = eq != arg.npos;
  for (const Flag& flag : table) {
    if (name == flag.name) {
      return SetFlag(flag, has_value, has_value ? arg.substr(eq + 1) : "");
    }
  }
  *unknown = true;
  return "unknown flag '" + arg + "'";
}

void PrintFlags(const std::vector<Flag>& table, int width) {
  for (const Flag& flag : table) {
    std::printf("  --%-*s %s\n", width, flag.name, flag.help);
  }
}

}  // namespace bench
