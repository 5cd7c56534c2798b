#include "stress/fault_env.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace stress {

using leveldb::Slice;
using leveldb::Status;

uint64_t Mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

namespace {

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool IsManifest(const std::string& path) {
  return BaseName(path).rfind("MANIFEST", 0) == 0;
}

bool IsTable(const std::string& path) {
  const std::string base = BaseName(path);
  const size_t dot = base.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string ext = base.substr(dot);
  return ext == ".ldb" || ext == ".sst";
}

Status PowerOutError(const std::string& fname) {
  return Status::IOError(fname, "simulated power loss");
}

Status InjectedError(const std::string& fname, const char* what) {
  return Status::IOError(fname, std::string("injected ") + what + " error");
}

// What every file wrapper holds: its Env, its name and the wrapped file.
template <typename File>
struct Wrapped {
  Wrapped(FaultEnv* e, std::string name, File* f)
      : env(e), fname(std::move(name)), base(f) {}

  // An injected read error, with nothing read.
  Status ReadError(Slice* result) const {
    *result = Slice();
    return InjectedError(fname, "read");
  }

  FaultEnv* const env;
  const std::string fname;
  const std::unique_ptr<File> base;
};

class FaultWritableFile : public leveldb::WritableFile {
 public:
  FaultWritableFile(FaultEnv* env, std::string fname,
                    leveldb::WritableFile* base)
      : w_(env, std::move(fname), base) {}

  Status Append(const Slice& data) override {
    if (w_.env->power_out()) return PowerOutError(w_.fname);
    if (w_.env->Inject()) {
      // A failed write may still have written a prefix of its bytes.
      const size_t part =
          Mix64(data.size() ^ w_.fname.size()) % (data.size() + 1);
      if (w_.base->Append(Slice(data.data(), part)).ok()) {
        w_.env->NoteAppended(w_.fname, part);
      }
      return InjectedError(w_.fname, "write");
    }
    Status s = w_.base->Append(data);
    if (s.ok()) w_.env->NoteAppended(w_.fname, data.size());
    return s;
  }

  Status Close() override { return w_.base->Close(); }

  Status Flush() override {
    if (w_.env->power_out()) return PowerOutError(w_.fname);
    return w_.base->Flush();
  }

  Status Sync() override {
    if (w_.env->power_out()) return PowerOutError(w_.fname);
    if (w_.env->Inject()) return InjectedError(w_.fname, "sync");
    Status s = w_.base->Sync();
    if (s.ok()) w_.env->NoteSynced(w_.fname);
    return s;
  }

 private:
  Wrapped<leveldb::WritableFile> w_;
};

class FaultRandomAccessFile : public leveldb::RandomAccessFile {
 public:
  FaultRandomAccessFile(FaultEnv* env, std::string fname,
                        leveldb::RandomAccessFile* base)
      : w_(env, std::move(fname), base) {}

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    if (w_.env->Inject()) return w_.ReadError(result);
    return w_.base->Read(offset, n, result, scratch);
  }

 private:
  Wrapped<leveldb::RandomAccessFile> w_;
};

class FaultSequentialFile : public leveldb::SequentialFile {
 public:
  FaultSequentialFile(FaultEnv* env, std::string fname,
                      leveldb::SequentialFile* base)
      : w_(env, std::move(fname), base) {}

  Status Read(size_t n, Slice* result, char* scratch) override {
    if (w_.env->Inject()) return w_.ReadError(result);
    return w_.base->Read(n, result, scratch);
  }

  Status Skip(uint64_t n) override { return w_.base->Skip(n); }

 private:
  Wrapped<leveldb::SequentialFile> w_;
};

}  // namespace

FaultEnv::FaultEnv(leveldb::Env* base, uint64_t seed)
    : EnvWrapper(base), rng_counter_(0), seed_(seed) {}

void FaultEnv::SetErrorRate(double rate) {
  const double scaled = rate * 4294967296.0;
  error_threshold_.store(rate <= 0 ? 0 : static_cast<uint64_t>(scaled));
}

void FaultEnv::SetPowerOut(bool out) { power_out_.store(out); }

FaultStats FaultEnv::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

bool FaultEnv::Inject() {
  const uint64_t threshold = error_threshold_.load(std::memory_order_relaxed);
  if (threshold == 0 || power_out()) return false;
  const uint64_t r = Mix64(seed_ ^ Mix64(rng_counter_.fetch_add(1)));
  if ((r & 0xffffffffULL) >= threshold) return false;
  std::lock_guard<std::mutex> lock(mu_);
  stats_.injected_errors++;
  return true;
}

void FaultEnv::NoteAppended(const std::string& fname, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  files_[fname].written += bytes;
}

void FaultEnv::NoteSynced(const std::string& fname) {
  std::lock_guard<std::mutex> lock(mu_);
  FileState& st = files_[fname];
  st.synced = st.written;
  // The base Env fsyncs the directory on these Syncs (see the header).
  const bool dir_sync =
      IsManifest(fname) || (!IsTable(fname) && !st.synced_once);
  st.synced_once = true;
  if (dir_sync) SyncDirectoryLocked();
}

void FaultEnv::SyncDirectoryLocked() {
  // db_stress keeps one database per directory and tracks nothing else.
  for (auto& entry : files_) entry.second.entry_durable = true;
}

Status FaultEnv::TrackNew(const std::string& f, bool append) {
  FileState st;
  st.entry_durable = target()->FileExists(f);
  uint64_t size = 0;
  if (append && st.entry_durable) {
    Status s = target()->GetFileSize(f, &size);
    if (!s.ok()) return s;
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(f);
  if (append && it != files_.end()) {
    // Reopened for appending (a reused log): what is unsynced stays so.
    it->second.written = size;
    return Status::OK();
  }
  // Files this Env did not write count as durable: they predate it.
  st.written = st.synced = size;
  files_[f] = st;
  return Status::OK();
}

Status FaultEnv::NewSequentialFile(const std::string& f,
                                   leveldb::SequentialFile** r) {
  leveldb::SequentialFile* base = nullptr;
  Status s = target()->NewSequentialFile(f, &base);
  *r = s.ok() ? new FaultSequentialFile(this, f, base) : nullptr;
  return s;
}

Status FaultEnv::NewRandomAccessFile(const std::string& f,
                                     leveldb::RandomAccessFile** r) {
  leveldb::RandomAccessFile* base = nullptr;
  Status s = target()->NewRandomAccessFile(f, &base);
  *r = s.ok() ? new FaultRandomAccessFile(this, f, base) : nullptr;
  return s;
}

Status FaultEnv::OpenWritable(const std::string& f, bool append,
                              leveldb::WritableFile** r) {
  *r = nullptr;
  if (power_out()) return PowerOutError(f);
  if (Inject()) return InjectedError(f, "create");
  Status s = TrackNew(f, append);
  leveldb::WritableFile* base = nullptr;
  if (s.ok()) {
    s = append ? target()->NewAppendableFile(f, &base)
               : target()->NewWritableFile(f, &base);
  }
  if (s.ok()) *r = new FaultWritableFile(this, f, base);
  return s;
}

Status FaultEnv::NewWritableFile(const std::string& f,
                                 leveldb::WritableFile** r) {
  return OpenWritable(f, false, r);
}

Status FaultEnv::NewAppendableFile(const std::string& f,
                                   leveldb::WritableFile** r) {
  return OpenWritable(f, true, r);
}

Status FaultEnv::RemoveFile(const std::string& f) {
  if (power_out()) return PowerOutError(f);
  Status s = target()->RemoveFile(f);
  if (s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    files_.erase(f);
  }
  return s;
}

Status FaultEnv::RenameFile(const std::string& src, const std::string& target) {
  if (power_out()) return PowerOutError(src);
  if (Inject()) return InjectedError(src, "rename");
  Status s = EnvWrapper::RenameFile(src, target);
  if (!s.ok()) return s;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(src);
  if (it != files_.end()) {
    files_[target] = it->second;
    files_.erase(src);
  } else {
    files_.erase(target);
  }
  SyncDirectoryLocked();  // the base Env fsyncs the directory after a rename
  return s;
}

Status FaultEnv::PowerLoss(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t n = 0;
  for (const auto& entry : files_) {
    const std::string& f = entry.first;
    const FileState& st = entry.second;
    const uint64_t r = Mix64(seed ^ Mix64(++n));
    if (!target()->FileExists(f)) continue;
    if (!st.entry_durable && (r & 1) != 0) {
      Status s = target()->RemoveFile(f);
      if (!s.ok()) return s;
      stats_.dropped_creations++;
      continue;
    }
    uint64_t size = 0;
    Status s = target()->GetFileSize(f, &size);
    if (!s.ok()) return s;
    if (size <= st.synced) continue;
    const uint64_t keep = st.synced + (r >> 1) % (size - st.synced + 1);
    if (keep == size) continue;
    if (::truncate(f.c_str(), static_cast<off_t>(keep)) != 0) {
      return Status::IOError(f, std::strerror(errno));
    }
    stats_.torn_files++;
  }
  files_.clear();
  return Status::OK();
}

}  // namespace stress
