// Workload properties of the YCSB runner: the key=value settings of spec
// files (-P) and command-line overrides (-p), with typed accessors whose
// errors name the property, the accepted range and the offending text.
#ifndef LEVELDB_BENCHMARKS_YCSB_PROPERTIES_H_
#define LEVELDB_BENCHMARKS_YCSB_PROPERTIES_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>

#include "leveldb/status.h"

namespace ycsb {

class Properties {
 public:
  // Adds the settings of a spec file's text; later settings replace earlier
  // ones. Lines are "key=value" with blanks around key and value ignored;
  // empty lines and lines starting with '#' or '!' are comments. `origin`
  // (e.g. the file name) prefixes error messages together with the line.
  leveldb::Status ParseText(const std::string& text, const std::string& origin);

  // Reads and parses a spec file.
  leveldb::Status LoadFile(const std::string& path);

  // Applies one "key=value" override, as given to -p.
  leveldb::Status ParseAssignment(const std::string& assignment);

  void Set(const std::string& key, const std::string& value);
  bool Has(const std::string& key) const;

  std::string GetString(const std::string& key,
                        const std::string& default_value) const;

  // Typed getters: the default applies when the key is absent; a present
  // value must parse completely and lie in [min_value, max_value].
  leveldb::Status GetInt(const std::string& key, int64_t default_value,
                         int64_t min_value, int64_t max_value,
                         int64_t* result) const;
  // Integers read in a row, each defaulting to its target's value.
  struct IntRange {
    const char* key;
    int64_t* target;
    int64_t min_value;
    int64_t max_value;
  };
  leveldb::Status GetInts(std::initializer_list<IntRange> ranges) const;
  leveldb::Status GetDouble(const std::string& key, double default_value,
                            double min_value, double max_value,
                            double* result) const;
  // Accepts true/false, 1/0, yes/no, on/off (any case).
  leveldb::Status GetBool(const std::string& key, bool default_value,
                          bool* result) const;

  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_PROPERTIES_H_
