#include "leveldb_db.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/direct_io.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "store_options.h"

namespace ycsbc {

namespace {

// ---- Settings from the workload properties --------------------------------

const char* const kSettingNames[] = {
    "leveldb.dbpath",
    "leveldb.destroy",
    "leveldb.elastic_bf",
    "leveldb.bf_bits_per_unit",
    "leveldb.bf_units",
    "leveldb.bf_memory_bits_per_key",
    "leveldb.bf_memory_budget_bytes",
    "leveldb.bf_segment_bytes",
    "leveldb.bf_lifetime",
    "leveldb.bf_initial_units",
    "leveldb.bf_inherit_hotness",
    "leveldb.bf_unit_kind",
    "leveldb.bloom_bits",
    "leveldb.direct_io",
    "leveldb.fill_cache",
    "leveldb.cache_size",
    "leveldb.write_buffer_size",
    "leveldb.max_file_size",
    "leveldb.max_open_files",
    "leveldb.block_size",
    "leveldb.compression",
    "leveldb.sync",
};

bool IsSettingName(const std::string& key) {
  for (size_t i = 0; i < sizeof(kSettingNames) / sizeof(kSettingNames[0]);
       ++i) {
    if (key == kSettingNames[i]) return true;
  }
  return false;
}

std::string SettingNameList() {
  std::string names;
  for (size_t i = 0; i < sizeof(kSettingNames) / sizeof(kSettingNames[0]);
       ++i) {
    if (i > 0) names += ", ";
    names += kSettingNames[i];
  }
  return names;
}

// YCSB-C's property loader keeps blanks and a CR around names and values.
std::string Trim(const std::string& text) {
  const char* const kBlanks = " \t\r\n";
  const size_t first = text.find_first_not_of(kBlanks);
  if (first == std::string::npos) return std::string();
  const size_t last = text.find_last_not_of(kBlanks);
  return text.substr(first, last - first + 1);
}

// The leveldb.* properties with blanks trimmed, or false and *error for a
// name the binding does not know (a typo must not silently change nothing).
bool CollectSettings(const utils::Properties& props,
                     std::map<std::string, std::string>* values,
                     std::string* error) {
  const std::map<std::string, std::string>& all = props.properties();
  for (std::map<std::string, std::string>::const_iterator it = all.begin();
       it != all.end(); ++it) {
    const std::string key = Trim(it->first);
    if (key.compare(0, 8, "leveldb.") != 0) continue;
    if (!IsSettingName(key)) {
      *error = "unknown setting '" + key +
               "'; the settings are: " + SettingNameList() +
               " (see docs/ycsb.md)";
      return false;
    }
    if (values->count(key) != 0) {
      *error = "setting " + key + " is given twice";
      return false;
    }
    (*values)[key] = Trim(it->second);
  }
  return true;
}

struct Settings {
  std::string path;
  bool destroy;
  bool elastic_bf;
  leveldb::ElasticFilterOptions elastic;
  long long bloom_bits;
  bool direct_io;
  bool fill_cache;
  long long cache_size;
  long long write_buffer_size;
  long long max_file_size;
  long long max_open_files;
  long long block_size;
  bool compression;
  bool sync;
};

std::string ToString(long long value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%lld", value);
  return buffer;
}

// Typed access to the collected settings; the first bad value is kept.
class SettingsReader {
 public:
  explicit SettingsReader(const std::map<std::string, std::string>& values)
      : values_(values) {}

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  std::string String(const std::string& key, const std::string& fallback) {
    std::map<std::string, std::string>::const_iterator it = values_.find(key);
    return it == values_.end() ? fallback : it->second;
  }

  long long Int(const std::string& key, long long fallback, long long low,
                long long high) {
    const std::string text = String(key, "");
    if (text.empty()) return fallback;
    errno = 0;
    char* end = NULL;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || value < low || value > high) {
      Fail(key, text,
           "an integer in [" + ToString(low) + ", " + ToString(high) + "]");
      return fallback;
    }
    return value;
  }

  double Double(const std::string& key, double fallback) {
    const std::string text = String(key, "");
    if (text.empty()) return fallback;
    errno = 0;
    char* end = NULL;
    const double value = std::strtod(text.c_str(), &end);
    if (errno != 0 || *end != '\0' || !std::isfinite(value)) {
      Fail(key, text, "a number");
      return fallback;
    }
    return value;
  }

  bool Bool(const std::string& key, bool fallback) {
    const std::string text = String(key, "");
    if (text.empty()) return fallback;
    if (text == "true" || text == "1" || text == "yes" || text == "on") {
      return true;
    }
    if (text == "false" || text == "0" || text == "no" || text == "off") {
      return false;
    }
    Fail(key, text, "true or false");
    return fallback;
  }

  void Fail(const std::string& key, const std::string& text,
            const std::string& expected) {
    if (error_.empty()) {
      error_ =
          "setting " + key + ": expected " + expected + ", got '" + text + "'";
    }
  }

 private:
  const std::map<std::string, std::string>& values_;
  std::string error_;
};

void ReadElasticSettings(SettingsReader* reader,
                         leveldb::ElasticFilterOptions* elastic) {
  const long long kMaxBytes = 1LL << 40;
  // Wide ranges: ValidateElasticFilterOptions names the real limits.
  elastic->bits_per_unit = static_cast<int>(reader->Int(
      "leveldb.bf_bits_per_unit", elastic->bits_per_unit, -1000, 1000));
  elastic->units_per_segment = static_cast<int>(
      reader->Int("leveldb.bf_units", elastic->units_per_segment, -1000, 1000));
  elastic->memory_bits_per_key = reader->Double(
      "leveldb.bf_memory_bits_per_key", elastic->memory_bits_per_key);
  elastic->memory_budget_bytes = static_cast<size_t>(reader->Int(
      "leveldb.bf_memory_budget_bytes",
      static_cast<long long>(elastic->memory_budget_bytes), 0, kMaxBytes));
  elastic->segment_bytes = static_cast<size_t>(reader->Int(
      "leveldb.bf_segment_bytes",
      static_cast<long long>(elastic->segment_bytes), 0, kMaxBytes));
  elastic->lifetime = static_cast<uint64_t>(
      reader->Int("leveldb.bf_lifetime",
                  static_cast<long long>(elastic->lifetime), 0, INT64_MAX));
  elastic->initial_units = static_cast<int>(reader->Int(
      "leveldb.bf_initial_units", elastic->initial_units, -1000, 1000));
  elastic->inherit_hotness =
      reader->Bool("leveldb.bf_inherit_hotness", elastic->inherit_hotness);
  const std::string kind = reader->String("leveldb.bf_unit_kind", "");
  if (kind == "bloom") {
    elastic->unit_kind = leveldb::ElasticFilterOptions::UnitKind::kBloom;
  } else if (kind == "ribbon") {
    elastic->unit_kind = leveldb::ElasticFilterOptions::UnitKind::kRibbon;
  } else if (!kind.empty()) {
    reader->Fail("leveldb.bf_unit_kind", kind, "bloom or ribbon");
  }
}

void ReadEngineSettings(SettingsReader* reader, Settings* settings) {
  const long long kMaxBytes = 1LL << 40;
  settings->path = reader->String("leveldb.dbpath", "/tmp/ycsbc-leveldb");
  if (settings->path.empty()) {
    reader->Fail("leveldb.dbpath", "", "a directory");
  }
  settings->destroy = reader->Bool("leveldb.destroy", false);
  settings->elastic_bf = reader->Bool("leveldb.elastic_bf", false);
  ReadElasticSettings(reader, &settings->elastic);
  settings->bloom_bits = reader->Int("leveldb.bloom_bits", 0, -1, 1000);
  settings->direct_io = reader->Bool("leveldb.direct_io", false);
  settings->fill_cache = reader->Bool("leveldb.fill_cache", true);
  settings->cache_size = reader->Int("leveldb.cache_size", -1, -1, kMaxBytes);
  settings->write_buffer_size =
      reader->Int("leveldb.write_buffer_size", 0, 0, kMaxBytes);
  settings->max_file_size =
      reader->Int("leveldb.max_file_size", 0, 0, kMaxBytes);
  settings->max_open_files =
      reader->Int("leveldb.max_open_files", 0, 0, 1 << 24);
  settings->block_size = reader->Int("leveldb.block_size", 0, 0, kMaxBytes);
  settings->sync = reader->Bool("leveldb.sync", false);
  const std::string compression =
      reader->String("leveldb.compression", "snappy");
  if (compression != "snappy" && compression != "none") {
    reader->Fail("leveldb.compression", compression, "snappy or none");
  }
  settings->compression = compression != "none";
}

bool ReadSettings(const utils::Properties& props, Settings* settings,
                  std::string* error) {
  std::map<std::string, std::string> values;
  if (!CollectSettings(props, &values, error)) return false;
  SettingsReader reader(values);
  ReadEngineSettings(&reader, settings);
  if (!reader.ok()) {
    *error = reader.error();
    return false;
  }
  if (settings->elastic_bf && settings->bloom_bits > 0) {
    *error = "leveldb.elastic_bf and leveldb.bloom_bits are mutually exclusive";
    return false;
  }
  if (settings->elastic_bf) {
    const leveldb::Status s =
        leveldb::ValidateElasticFilterOptions(settings->elastic);
    if (!s.ok()) {
      *error = s.ToString();
      return false;
    }
  }
  return true;
}

// "auto" for 0 (a unit shape chosen from the budget), else the number.
std::string CountOrAuto(int value) {
  return value != 0 ? ToString(value) : "auto";
}

// "default" for 0 (LevelDB's own value), else the number.
std::string SizeOrDefault(long long value) {
  return value > 0 ? ToString(value) : "default";
}

std::string DescribeFilter(const Settings& settings) {
  if (settings.elastic_bf) {
    const leveldb::ElasticFilterOptions& e = settings.elastic;
    std::ostringstream out;
    const bool ribbon =
        e.unit_kind == leveldb::ElasticFilterOptions::UnitKind::kRibbon;
    out << "ElasticBF (" << CountOrAuto(e.units_per_segment)
        << (ribbon ? " ribbon" : " bloom") << " units x "
        << CountOrAuto(e.bits_per_unit) << " bits/key, memory ";
    if (e.memory_budget_bytes > 0) {
      out << e.memory_budget_bytes << " bytes";
    } else {
      out << e.memory_bits_per_key << " bits/key";
    }
    out << ", initial_units " << e.initial_units << ", segment_bytes "
        << (e.segment_bytes > 0
                ? ToString(static_cast<long long>(e.segment_bytes))
                : "auto")
        << ", lifetime "
        << (e.lifetime > 0 ? ToString(static_cast<long long>(e.lifetime))
                           : "auto")
        << ", inherit_hotness " << (e.inherit_hotness ? "on" : "off") << ")";
    return out.str();
  }
  if (settings.bloom_bits > 0) {
    return "Bloom (" + ToString(settings.bloom_bits) + " bits/key)";
  }
  return "none";
}

std::string DescribeSettings(const Settings& settings) {
  std::ostringstream out;
  out << "path=" << settings.path
      << (settings.destroy ? " (deleted first)" : "")
      << " filter=" << DescribeFilter(settings)
      << " direct_io=" << (settings.direct_io ? "on" : "off") << " cache=";
  if (settings.cache_size < 0) {
    out << "default (8 MiB)";
  } else {
    out << settings.cache_size << " bytes";
  }
  out << " fill_cache=" << (settings.fill_cache ? "on" : "off")
      << " write_buffer_size=" << SizeOrDefault(settings.write_buffer_size)
      << " max_file_size=" << SizeOrDefault(settings.max_file_size)
      << " max_open_files=" << SizeOrDefault(settings.max_open_files)
      << " block_size=" << SizeOrDefault(settings.block_size)
      << " compression=" << (settings.compression ? "snappy" : "none")
      << " sync=" << (settings.sync ? "on" : "off");
  return out.str();
}

// ---- Record encoding ------------------------------------------------------

void AppendVarint32(uint32_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

bool ReadVarint32(const char** cursor, const char* limit, uint32_t* value) {
  uint32_t result = 0;
  for (int shift = 0; shift <= 28 && *cursor < limit; shift += 7) {
    const uint32_t byte = static_cast<unsigned char>(**cursor);
    ++*cursor;
    if (shift == 28 && byte > 0x0F) return false;
    result |= (byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

bool ReadString(const char** cursor, const char* limit, std::string* out) {
  uint32_t length = 0;
  if (!ReadVarint32(cursor, limit, &length)) return false;
  if (length > static_cast<size_t>(limit - *cursor)) return false;
  out->assign(*cursor, length);
  *cursor += length;
  return true;
}

// The fields of `record` that `wanted` asks for (all of them without it).
void SelectFields(const std::vector<DB::KVPair>& record,
                  const std::vector<std::string>* wanted,
                  std::vector<DB::KVPair>* result) {
  if (wanted == NULL) {
    result->insert(result->end(), record.begin(), record.end());
    return;
  }
  for (size_t i = 0; i < wanted->size(); ++i) {
    for (size_t j = 0; j < record.size(); ++j) {
      if (record[j].first == (*wanted)[i]) {
        result->push_back(record[j]);
        break;
      }
    }
  }
}

}  // namespace

void LevelDB::EncodeFields(const std::vector<KVPair>& fields,
                           std::string* out) {
  out->clear();
  AppendVarint32(static_cast<uint32_t>(fields.size()), out);
  for (size_t i = 0; i < fields.size(); ++i) {
    AppendVarint32(static_cast<uint32_t>(fields[i].first.size()), out);
    out->append(fields[i].first);
    AppendVarint32(static_cast<uint32_t>(fields[i].second.size()), out);
    out->append(fields[i].second);
  }
}

bool LevelDB::DecodeFields(const std::string& value,
                           std::vector<KVPair>* fields) {
  fields->clear();
  const char* cursor = value.data();
  const char* const limit = value.data() + value.size();
  uint32_t count = 0;
  if (!ReadVarint32(&cursor, limit, &count)) return false;
  // Each field takes at least two bytes: a count beyond that is corrupt.
  if (count > static_cast<size_t>(limit - cursor) / 2) return false;
  fields->resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (!ReadString(&cursor, limit, &(*fields)[i].first) ||
        !ReadString(&cursor, limit, &(*fields)[i].second)) {
      fields->clear();
      return false;
    }
  }
  if (cursor != limit) {
    fields->clear();
    return false;
  }
  return true;
}

LevelDB::LevelDB()
    : db_(NULL),
      filter_policy_(NULL),
      block_cache_(NULL),
      fill_cache_(true),
      sync_(false) {}

LevelDB::~LevelDB() {
  delete db_;  // before the policy and cache it uses
  delete filter_policy_;
  delete block_cache_;
}

LevelDB* LevelDB::Create(const utils::Properties& props, std::string* error) {
  Settings settings;
  if (!ReadSettings(props, &settings, error)) return NULL;
  leveldb::Options options;
  options.create_if_missing = true;
  options.env =
      settings.direct_io ? leveldb::DirectIOEnv() : leveldb::Env::Default();
  if (settings.destroy) {
    const leveldb::Status s = leveldb::DestroyDB(settings.path, options);
    if (!s.ok()) {
      *error = "cannot delete " + settings.path + ": " + s.ToString();
      return NULL;
    }
  }
  LevelDB* binding = new LevelDB;
  bench::ApplyStoreSettings(settings, &options, &binding->block_cache_);
  if (settings.elastic_bf) {
    binding->filter_policy_ = leveldb::NewElasticFilterPolicy(settings.elastic);
  } else if (settings.bloom_bits > 0) {
    binding->filter_policy_ =
        leveldb::NewBloomFilterPolicy(static_cast<int>(settings.bloom_bits));
  }
  options.filter_policy = binding->filter_policy_;
  binding->fill_cache_ = settings.fill_cache;
  binding->sync_ = settings.sync;
  const leveldb::Status s =
      leveldb::DB::Open(options, settings.path, &binding->db_);
  if (!s.ok()) {
    *error = "cannot open " + settings.path + ": " + s.ToString();
    delete binding;
    return NULL;
  }
  return binding;
}

bool LevelDB::CheckSettings(const utils::Properties& props,
                            std::string* summary, std::string* error) {
  Settings settings;
  if (!ReadSettings(props, &settings, error)) return false;
  *summary = DescribeSettings(settings);
  return true;
}

LevelDB* LevelDB::Create(const utils::Properties& props) {
  std::string summary;
  std::string error;
  if (!CheckSettings(props, &summary, &error)) {
    std::cerr << "leveldb: " << error << std::endl;
    std::exit(kExitBadSetting);
  }
  std::cerr << "leveldb: settings: " << summary << std::endl;
  LevelDB* binding = Create(props, &error);
  if (binding == NULL) {
    std::cerr << "leveldb: " << error << std::endl;
    std::exit(kExitOpenFailed);
  }
  return binding;
}

int LevelDB::Failure(const std::string& what) const {
  std::cerr << "leveldb: " << what << std::endl;
  return kErrorConflict;
}

int LevelDB::Read(const std::string& /*table*/, const std::string& key,
                  const std::vector<std::string>* fields,
                  std::vector<KVPair>& result) {
  result.clear();
  leveldb::ReadOptions read_options;
  read_options.fill_cache = fill_cache_;
  std::string value;
  const leveldb::Status s = db_->Get(read_options, key, &value);
  if (s.IsNotFound()) return kErrorNoData;
  if (!s.ok()) return Failure("read " + key + ": " + s.ToString());
  std::vector<KVPair> record;
  if (!DecodeFields(value, &record)) {
    return Failure("malformed record under " + key);
  }
  SelectFields(record, fields, &result);
  return kOK;
}

int LevelDB::Scan(const std::string& /*table*/, const std::string& key,
                  int record_count, const std::vector<std::string>* fields,
                  std::vector<std::vector<KVPair> >& result) {
  result.clear();
  leveldb::ReadOptions read_options;
  read_options.fill_cache = fill_cache_;
  leveldb::Iterator* it = db_->NewIterator(read_options);
  std::vector<KVPair> record;
  int status = kOK;
  it->Seek(key);
  for (int i = 0; i < record_count && it->Valid(); ++i, it->Next()) {
    if (!DecodeFields(it->value().ToString(), &record)) {
      status = Failure("malformed record under " + it->key().ToString());
      break;
    }
    result.push_back(std::vector<KVPair>());
    SelectFields(record, fields, &result.back());
  }
  if (status == kOK && !it->status().ok()) {
    status = Failure("scan from " + key + ": " + it->status().ToString());
  }
  delete it;
  return status;
}

int LevelDB::Update(const std::string& /*table*/, const std::string& key,
                    std::vector<KVPair>& values) {
  leveldb::ReadOptions read_options;
  read_options.fill_cache = fill_cache_;
  std::string value;
  leveldb::Status s = db_->Get(read_options, key, &value);
  if (s.IsNotFound()) return kErrorNoData;
  if (!s.ok()) return Failure("update " + key + ": " + s.ToString());
  std::vector<KVPair> record;
  if (!DecodeFields(value, &record)) {
    return Failure("malformed record under " + key);
  }
  for (size_t i = 0; i < values.size(); ++i) {
    bool replaced = false;
    for (size_t j = 0; j < record.size() && !replaced; ++j) {
      if (record[j].first == values[i].first) {
        record[j].second = values[i].second;
        replaced = true;
      }
    }
    if (!replaced) record.push_back(values[i]);
  }
  EncodeFields(record, &value);
  leveldb::WriteOptions write_options;
  write_options.sync = sync_;
  s = db_->Put(write_options, key, value);
  if (!s.ok()) return Failure("update " + key + ": " + s.ToString());
  return kOK;
}

int LevelDB::Insert(const std::string& /*table*/, const std::string& key,
                    std::vector<KVPair>& values) {
  std::string value;
  EncodeFields(values, &value);
  leveldb::WriteOptions write_options;
  write_options.sync = sync_;
  const leveldb::Status s = db_->Put(write_options, key, value);
  if (!s.ok()) return Failure("insert " + key + ": " + s.ToString());
  return kOK;
}

int LevelDB::Delete(const std::string& /*table*/, const std::string& key) {
  leveldb::WriteOptions write_options;
  write_options.sync = sync_;
  const leveldb::Status s = db_->Delete(write_options, key);
  if (!s.ok()) return Failure("delete " + key + ": " + s.ToString());
  return kOK;
}

}  // namespace ycsbc
