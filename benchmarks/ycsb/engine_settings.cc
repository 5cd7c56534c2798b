#include "engine_settings.h"

#include <filesystem>
#include <set>
#include <string>
#include <system_error>

namespace ycsb {

namespace {

leveldb::Status ParseSizes(const Properties& props, EngineSpec* spec) {
  return props.GetInts({
      {"leveldb.bloom_bits", &spec->bloom_bits, INT32_MIN, 1000},
      {"leveldb.cache_size", &spec->cache_size, INT64_MIN, kMaxSettingBytes},
      {"leveldb.write_buffer_size", &spec->write_buffer_size, 0,
       kMaxSettingBytes},
      {"leveldb.max_file_size", &spec->max_file_size, 0, kMaxSettingBytes},
      {"leveldb.max_open_files", &spec->max_open_files, 0, 1 << 24},
      {"leveldb.block_size", &spec->block_size, 0, kMaxSettingBytes},
  });
}

leveldb::Status ParseCompression(const Properties& props, EngineSpec* spec) {
  const std::string compression =
      props.GetString("leveldb.compression", "snappy");
  if (compression == "snappy" || compression == "none") {
    spec->compression = compression == "snappy";
    return leveldb::Status::OK();
  }
  return leveldb::Status::InvalidArgument(
      "property leveldb.compression",
      "expected snappy or none, got '" + compression + "'");
}

}  // namespace

bool IsCommonSettingKey(const std::string& key) {
  static const std::set<std::string> keys = {
      "leveldb.dbpath",        "leveldb.bloom_bits",
      "leveldb.direct_io",     "leveldb.fill_cache",
      "leveldb.cache_size",    "leveldb.write_buffer_size",
      "leveldb.max_file_size", "leveldb.max_open_files",
      "leveldb.block_size",    "leveldb.compression",
      "leveldb.sync"};
  return keys.count(key) != 0;
}

leveldb::Status ParseCommonSettings(const Properties& props, EngineSpec* spec) {
  leveldb::Status s = ParseSizes(props, spec);
  if (s.ok()) {
    s = props.GetBool("leveldb.direct_io", spec->direct_io, &spec->direct_io);
  }
  if (s.ok()) {
    s = props.GetBool("leveldb.fill_cache", spec->fill_cache,
                      &spec->fill_cache);
  }
  if (s.ok()) s = props.GetBool("leveldb.sync", spec->sync, &spec->sync);
  if (s.ok()) s = ParseCompression(props, spec);
  return s;
}

void DescribeCommonSettings(const EngineSpec& spec, std::ostream* out) {
  *out << " fill_cache=" << (spec.fill_cache ? "on" : "off") << " cache=";
  if (spec.cache_size < 0) {
    *out << "default";
  } else {
    *out << spec.cache_size;
  }
  *out << " compression=" << (spec.compression ? "snappy" : "none");
}

leveldb::Status CreateDatabaseDirectory(const std::string& path) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (error) return leveldb::Status::IOError(path, error.message());
  return leveldb::Status::OK();
}

}  // namespace ycsb
