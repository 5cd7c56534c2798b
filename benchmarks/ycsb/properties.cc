#include "properties.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "../common/flags.h"

namespace ycsb {

namespace {

std::string Trim(const std::string& text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) {
    ++begin;
  }
  while (end > begin &&
         std::isspace(static_cast<unsigned char>(text[end - 1]))) {
    --end;
  }
  return text.substr(begin, end - begin);
}

// Splits "key = value" into trimmed halves; false if there is no '=' or
// no key.
bool SplitAssignment(const std::string& line, std::string* key,
                     std::string* value) {
  const size_t equals = line.find('=');
  if (equals == std::string::npos) return false;
  *key = Trim(line.substr(0, equals));
  *value = Trim(line.substr(equals + 1));
  return !key->empty();
}

leveldb::Status BadValue(const std::string& key, const std::string& value,
                         const std::string& expected) {
  return leveldb::Status::InvalidArgument(
      "property " + key, "expected " + expected + ", got '" + value + "'");
}

}  // namespace

leveldb::Status Properties::ParseText(const std::string& text,
                                      const std::string& origin) {
  std::istringstream lines(text);
  std::string line;
  int line_number = 0;
  while (std::getline(lines, line)) {
    ++line_number;
    const std::string trimmed = Trim(line);
    if (trimmed.empty() || trimmed[0] == '#' || trimmed[0] == '!') continue;
    std::string key;
    std::string value;
    if (!SplitAssignment(trimmed, &key, &value)) {
      return leveldb::Status::InvalidArgument(
          origin + ":" + std::to_string(line_number),
          "expected key=value, got '" + trimmed + "'");
    }
    values_[key] = value;
  }
  return leveldb::Status::OK();
}

leveldb::Status Properties::LoadFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    return leveldb::Status::IOError(path, "cannot open the workload file");
  }
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) {
    return leveldb::Status::IOError(path, "cannot read the workload file");
  }
  return ParseText(text.str(), path);
}

leveldb::Status Properties::ParseAssignment(const std::string& assignment) {
  std::string key;
  std::string value;
  if (!SplitAssignment(assignment, &key, &value)) {
    return leveldb::Status::InvalidArgument(
        "-p", "expected key=value, got '" + assignment + "'");
  }
  values_[key] = value;
  return leveldb::Status::OK();
}

void Properties::Set(const std::string& key, const std::string& value) {
  values_[key] = value;
}

bool Properties::Has(const std::string& key) const {
  return values_.count(key) != 0;
}

std::string Properties::GetString(const std::string& key,
                                  const std::string& default_value) const {
  auto it = values_.find(key);
  return it == values_.end() ? default_value : it->second;
}

leveldb::Status Properties::GetInts(
    std::initializer_list<IntRange> ranges) const {
  for (const IntRange& r : ranges) {
    leveldb::Status s =
        GetInt(r.key, *r.target, r.min_value, r.max_value, r.target);
    if (!s.ok()) return s;
  }
  return leveldb::Status::OK();
}

leveldb::Status Properties::GetInt(const std::string& key,
                                   int64_t default_value, int64_t min_value,
                                   int64_t max_value, int64_t* result) const {
  *result = default_value;
  auto it = values_.find(key);
  if (it == values_.end()) return leveldb::Status::OK();
  if (!bench::ParseInt(it->second, result) || *result < min_value ||
      *result > max_value) {
    return BadValue(key, it->second,
                    "an integer in [" + std::to_string(min_value) + ", " +
                        std::to_string(max_value) + "]");
  }
  return leveldb::Status::OK();
}

leveldb::Status Properties::GetDouble(const std::string& key,
                                      double default_value, double min_value,
                                      double max_value, double* result) const {
  *result = default_value;
  auto it = values_.find(key);
  if (it == values_.end()) return leveldb::Status::OK();
  if (!bench::ParseDouble(it->second, result) || *result < min_value ||
      *result > max_value) {
    std::ostringstream expected;
    expected << "a number in [" << min_value << ", " << max_value << "]";
    return BadValue(key, it->second, expected.str());
  }
  return leveldb::Status::OK();
}

leveldb::Status Properties::GetBool(const std::string& key, bool default_value,
                                    bool* result) const {
  auto it = values_.find(key);
  if (it == values_.end()) {
    *result = default_value;
    return leveldb::Status::OK();
  }
  std::string lower = it->second;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (lower == "true" || lower == "1" || lower == "yes" || lower == "on") {
    *result = true;
  } else if (lower == "false" || lower == "0" || lower == "no" ||
             lower == "off") {
    *result = false;
  } else {
    return BadValue(key, it->second, "true or false");
  }
  return leveldb::Status::OK();
}

}  // namespace ycsb
