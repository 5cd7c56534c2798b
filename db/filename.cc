#include "db/filename.h"

#include <cstdio>

#include "leveldb/env.h"
#include "util/env_util.h"
#include "util/logging.h"

namespace leveldb {

namespace {

// dbname/<number padded to 6 digits><suffix>
std::string NumberedName(const std::string& dbname, uint64_t number,
                         const char* suffix) {
  char digits[32];
  std::snprintf(digits, sizeof(digits), "/%06llu",
                static_cast<unsigned long long>(number));
  return dbname + digits + suffix;
}

struct SuffixType {
  const char* suffix;
  FileType type;
};

constexpr SuffixType kNumberedSuffixes[] = {
    {".log", kLogFile},
    {".ldb", kTableFile},
    {".sst", kTableFile},
    {".dbtmp", kTempFile},
};

constexpr char kManifestPrefix[] = "MANIFEST-";

}  // namespace

std::string LogFileName(const std::string& dbname, uint64_t number) {
  return NumberedName(dbname, number, ".log");
}

std::string TableFileName(const std::string& dbname, uint64_t number) {
  return NumberedName(dbname, number, ".ldb");
}

std::string SSTTableFileName(const std::string& dbname, uint64_t number) {
  return NumberedName(dbname, number, ".sst");
}

std::string DescriptorFileName(const std::string& dbname, uint64_t number) {
  char digits[32];
  std::snprintf(digits, sizeof(digits), "%06llu",
                static_cast<unsigned long long>(number));
  return dbname + "/" + kManifestPrefix + digits;
}

std::string CurrentFileName(const std::string& dbname) {
  return dbname + "/CURRENT";
}

std::string LockFileName(const std::string& dbname) { return dbname + "/LOCK"; }

std::string TempFileName(const std::string& dbname, uint64_t number) {
  return NumberedName(dbname, number, ".dbtmp");
}

std::string InfoLogFileName(const std::string& dbname) {
  return dbname + "/LOG";
}

std::string OldInfoLogFileName(const std::string& dbname) {
  return dbname + "/LOG.old";
}

bool ParseFileName(const std::string& filename, uint64_t* number,
                   FileType* type) {
  if (filename == "CURRENT") {
    *number = 0;
    *type = kCurrentFile;
    return true;
  }
  if (filename == "LOCK") {
    *number = 0;
    *type = kDBLockFile;
    return true;
  }
  if (filename == "LOG" || filename == "LOG.old") {
    *number = 0;
    *type = kInfoLogFile;
    return true;
  }

  Slice rest(filename);
  if (rest.starts_with(kManifestPrefix)) {
    rest.remove_prefix(sizeof(kManifestPrefix) - 1);
    uint64_t n;
    if (!ConsumeDecimal(&rest, &n) || !rest.empty()) return false;
    *number = n;
    *type = kDescriptorFile;
    return true;
  }

  uint64_t n;
  if (!ConsumeDecimal(&rest, &n)) return false;
  for (const SuffixType& entry : kNumberedSuffixes) {
    if (rest == Slice(entry.suffix)) {
      *number = n;
      *type = entry.type;
      return true;
    }
  }
  return false;
}

Status SetCurrentFile(Env* env, const std::string& dbname,
                      uint64_t descriptor_number) {
  // CURRENT holds the manifest's bare name plus a newline.
  const std::string manifest = DescriptorFileName(dbname, descriptor_number);
  Slice contents(manifest);
  contents.remove_prefix(dbname.size() + 1);
  const std::string text = contents.ToString() + "\n";

  const std::string tmp = TempFileName(dbname, descriptor_number);
  Status s = WriteStringToFileSync(env, text, tmp);
  if (s.ok()) s = env->RenameFile(tmp, CurrentFileName(dbname));
  if (!s.ok()) {
    env->RemoveFile(tmp);  // best effort: s already reports the failure
  }
  return s;
}

}  // namespace leveldb
