// StripElasticMetadata: rewrites a closed database's MANIFEST without
// ElasticBF's records, so that stock LevelDB 1.23 can open it.
#include <memory>
#include <string>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/table_cache.h"
#include "db/version_edit.h"
#include "db/version_set.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/options.h"
#include "port/port.h"

namespace leveldb {

namespace {

// Remembers the first problem the MANIFEST reader finds.
class FirstError : public log::Reader::Reporter {
 public:
  explicit FirstError(Status* status) : status_(status) {}
  void Corruption(size_t /*bytes*/, const Status& s) override {
    if (status_->ok()) *status_ = s;
  }

 private:
  Status* const status_;
};

// Whether the MANIFEST `fname` holds any ElasticBF record.
Status HasElasticRecords(Env* env, const std::string& fname, bool* found) {
  *found = false;
  SequentialFile* raw = nullptr;
  Status s = env->NewSequentialFile(fname, &raw);
  if (!s.ok()) return s;
  std::unique_ptr<SequentialFile> file(raw);
  FirstError reporter(&s);
  log::Reader reader(file.get(), &reporter, /*checksum=*/true,
                     /*initial_offset=*/0);
  Slice record;
  std::string scratch;
  while (s.ok() && reader.ReadRecord(&record, &scratch) && s.ok()) {
    VersionEdit edit;
    s = edit.DecodeFrom(record);
    if (s.ok() && edit.HasElastic()) *found = true;
  }
  return s;
}

// The rewrite proper, with the database locked: a VersionSet without
// ElasticBF replays the MANIFEST and writes a fresh one from its state.
Status RewriteManifest(const std::string& dbname, const Options& options) {
  std::string current;
  Status s = ReadFileToString(options.env, CurrentFileName(dbname), &current);
  if (!s.ok()) return s;
  if (current.empty() || current.back() != '\n') {
    return Status::Corruption("CURRENT file does not end with newline");
  }
  current.pop_back();
  const std::string old_manifest = dbname + "/" + current;

  bool found = false;
  s = HasElasticRecords(options.env, old_manifest, &found);
  if (!s.ok() || !found) return s;

  const InternalKeyComparator icmp(options.comparator);
  Options plain;
  plain.env = options.env;
  plain.info_log = options.info_log;
  plain.comparator = &icmp;
  plain.reuse_logs = false;  // always a new MANIFEST
  TableCache table_cache(dbname, plain, 1);
  VersionSet versions(dbname, &plain, &table_cache, &icmp);
  port::Mutex mu;
  mu.Lock();
  bool save_manifest = false;
  s = versions.Recover(&save_manifest);
  if (s.ok()) {
    // An empty edit: the snapshot heading the new MANIFEST carries the
    // state, the edit the log and file numbers and the last sequence.
    VersionEdit edit;
    s = versions.LogAndApply(&edit, &mu);
  }
  const std::string new_manifest =
      DescriptorFileName(dbname, versions.ManifestFileNumber());
  mu.Unlock();
  if (s.ok() && new_manifest != old_manifest) {
    // CURRENT names the new MANIFEST now; the old one is garbage.
    options.env->RemoveFile(old_manifest);
  }
  return s;
}

}  // namespace

Status StripElasticMetadata(const std::string& dbname, const Options& options) {
  if (options.env == nullptr) {
    return Status::InvalidArgument(dbname, "Options::env must not be null");
  }
  if (options.comparator == nullptr) {
    return Status::InvalidArgument(dbname,
                                   "Options::comparator must not be null");
  }
  if (!options.env->FileExists(CurrentFileName(dbname))) {
    return Status::InvalidArgument(dbname, "is not a database (no CURRENT)");
  }
  // The database must be closed: no one else may touch its MANIFEST.
  FileLock* lock = nullptr;
  Status s = options.env->LockFile(LockFileName(dbname), &lock);
  if (!s.ok()) return s;
  s = RewriteManifest(dbname, options);
  options.env->UnlockFile(lock);
  return s;
}

}  // namespace leveldb
