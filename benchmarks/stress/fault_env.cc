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

class FaultWritableFile : public leveldb::WritableFile {
 public:
  FaultWritableFile(FaultEnv* env, std::string fname,
                    leveldb::WritableFile* base)
      : env_(env), fname_(std::move(fname)), base_(base) {}

  Status Append(const Slice& data) override {
    if (env_->power_out()) return PowerOutError(fname_);
    if (env_->Inject()) {
      // A failed write may still have written a prefix of its bytes.
      const size_t part =
          Mix64(data.size() ^ fname_.size()) % (data.size() + 1);
      if (base_->Append(Slice(data.data(), part)).ok()) {
        env_->NoteAppended(fname_, part);
      }
      return InjectedError(fname_, "write");
    }
    Status s = base_->Append(data);
    if (s.ok()) env_->NoteAppended(fname_, data.size());
    return s;
  }

  Status Close() override { return base_->Close(); }

  Status Flush() override {
    if (env_->power_out()) return PowerOutError(fname_);
    return base_->Flush();
  }

  Status Sync() override {
    if (env_->power_out()) return PowerOutError(fname_);
    if (env_->Inject()) return InjectedError(fname_, "sync");
    Status s = base_->Sync();
    if (s.ok()) env_->NoteSynced(fname_);
    return s;
  }

 private:
  FaultEnv* const env_;
  const std::string fname_;
  std::unique_ptr<leveldb::WritableFile> base_;
};

class FaultRandomAccessFile : public leveldb::RandomAccessFile {
 public:
  FaultRandomAccessFile(FaultEnv* env, std::string fname,
                        leveldb::RandomAccessFile* base)
      : env_(env), fname_(std::move(fname)), base_(base) {}

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    if (env_->Inject()) {
      *result = Slice();
      return InjectedError(fname_, "read");
    }
    return base_->Read(offset, n, result, scratch);
  }

 private:
  FaultEnv* const env_;
  const std::string fname_;
  std::unique_ptr<leveldb::RandomAccessFile> base_;
};

class FaultSequentialFile : public leveldb::SequentialFile {
 public:
  FaultSequentialFile(FaultEnv* env, std::string fname,
                      leveldb::SequentialFile* base)
      : env_(env), fname_(std::move(fname)), base_(base) {}

  Status Read(size_t n, Slice* result, char* scratch) override {
    if (env_->Inject()) {
      *result = Slice();
      return InjectedError(fname_, "read");
    }
    return base_->Read(n, result, scratch);
  }

  Status Skip(uint64_t n) override { return base_->Skip(n); }

 private:
  FaultEnv* const env_;
  const std::string fname_;
  std::unique_ptr<leveldb::SequentialFile> base_;
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

Status FaultEnv::NewWritableFile(const std::string& f,
                                 leveldb::WritableFile** r) {
  *r = nullptr;
  if (power_out()) return PowerOutError(f);
  if (Inject()) return InjectedError(f, "create");
  Status s = TrackNew(f, false);
  leveldb::WritableFile* base = nullptr;
  if (s.ok()) s = target()->NewWritableFile(f, &base);
  if (s.ok()) *r = new FaultWritableFile(this, f, base);
  return s;
}

Status FaultEnv::NewAppendableFile(const std::string& f,
                                   leveldb::WritableFile** r) {
  *r = nullptr;
  if (power_out()) return PowerOutError(f);
  if (Inject()) return InjectedError(f, "create");
  Status s = TrackNew(f, true);
  leveldb::WritableFile* base = nullptr;
  if (s.ok()) s = target()->NewAppendableFile(f, &base);
  if (s.ok()) *r = new FaultWritableFile(this, f, base);
  return s;
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
