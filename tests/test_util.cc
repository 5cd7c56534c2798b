#include "tests/test_util.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <vector>

#include "db/dbformat.h"

namespace leveldb {
namespace test {

std::string FilesPerLevel(DB* db) {
  std::string result;
  for (int level = 0; level < config::kNumLevels; ++level) {
    std::string n;
    if (!db->GetProperty("leveldb.num-files-at-level" + std::to_string(level),
                         &n)) {
      n = "?";
    }
    if (level > 0) result += ",";
    result += n;
  }
  return result;
}

void DestroyTempDB(Env* env, const std::string& dbname) {
  Options options;
  options.env = env;
  DestroyDB(dbname, options);
  RemoveDirRecursively(env, dbname);
}

std::string RandomBytes(Random* rnd, size_t len) {
  std::string out(len, '\0');
  for (size_t i = 0; i < len; ++i)
    out[i] = static_cast<char>(rnd->Uniform(256));
  return out;
}

std::string RandomString(Random* rnd, size_t len) {
  std::string out(len, '\0');
  for (size_t i = 0; i < len; ++i) {
    out[i] = static_cast<char>(' ' + rnd->Uniform(95));
  }
  return out;
}

std::string RandomKey(Random* rnd, size_t len) {
  static const char kAlphabet[] = {'\0', '\x01', 'a',    'b',
                                   'c',  'y',    '\xfe', '\xff'};
  std::string out(len, '\0');
  for (size_t i = 0; i < len; ++i) {
    out[i] = kAlphabet[rnd->Uniform(sizeof(kAlphabet))];
  }
  return out;
}

std::string CompressibleString(Random* rnd, double fraction, size_t len) {
  size_t chunk_len = static_cast<size_t>(len * fraction);
  if (chunk_len < 1) chunk_len = 1;
  std::string chunk = RandomString(rnd, chunk_len);
  std::string out;
  out.reserve(len);
  while (out.size() < len) out.append(chunk);
  out.resize(len);
  return out;
}

std::string NewTempDir(Env* env, const std::string& tag) {
  static std::atomic<int> counter{0};
  const char* base = std::getenv("TEST_TMPDIR");
  std::string root = (base != nullptr && base[0] != '\0') ? base : "/tmp";
  std::string dir = root + "/leveldb_" + tag + "_" +
                    std::to_string(static_cast<long>(getpid())) + "_" +
                    std::to_string(counter.fetch_add(1));
  RemoveDirRecursively(env, dir);
  env->CreateDir(dir);
  return dir;
}

void RemoveDirRecursively(Env* env, const std::string& dir) {
  std::vector<std::string> children;
  if (!env->GetChildren(dir, &children).ok()) return;
  for (const std::string& child : children) {
    if (child == "." || child == "..") continue;
    std::string path = dir + "/" + child;
    std::vector<std::string> grandchildren;
    if (env->GetChildren(path, &grandchildren).ok()) {
      for (const std::string& g : grandchildren) {
        if (g != "." && g != "..") env->RemoveFile(path + "/" + g);
      }
      env->RemoveDir(path);
    } else {
      env->RemoveFile(path);
    }
  }
  env->RemoveDir(dir);
}

std::string IscsiReadCommand() {
  static const unsigned char kBytes[48] = {
      0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
      0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  return std::string(reinterpret_cast<const char*>(kBytes), sizeof(kBytes));
}

uint32_t RandomSeed() {
  const char* s = std::getenv("TEST_RANDOM_SEED");
  if (s != nullptr && s[0] != '\0') {
    return static_cast<uint32_t>(std::strtoul(s, nullptr, 10));
  }
  return 301;
}

}  // namespace test
}  // namespace leveldb
