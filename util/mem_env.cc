// NewMemEnv(): an Env whose file system lives in memory. Useful for tests
// and for databases that need not survive the process. Behaves as LevelDB
// 1.23's in-memory Env but for the differences listed in docs/building.md.
#include "leveldb/helpers/memenv.h"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "leveldb/env.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/mutexlock.h"

namespace leveldb {

namespace {

// Contents of one file, shared by the directory entry and every open
// handle; freed when the last of them lets go. A rewrite truncates this
// object in place, so every handle sees the new contents. Bytes are kept in
// fixed-size blocks so that appending never copies what is already stored.
class MemFile {
 public:
  MemFile() : refs_(0), size_(0) {}

  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;

  void Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }

  void Unref() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  uint64_t Size() const LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    return size_;
  }

  // Copies up to n bytes at `offset` into scratch; short at end of file.
  // An offset beyond the end is an error, as in 1.23.
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const
      LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    *result = Slice();
    if (offset > size_) {
      return Status::IOError("read offset past end of in-memory file");
    }
    if (offset == size_) return Status::OK();
    size_t count = static_cast<size_t>(
        std::min<uint64_t>(static_cast<uint64_t>(n), size_ - offset));
    size_t copied = 0;
    while (copied < count) {
      uint64_t pos = offset + copied;
      size_t block = static_cast<size_t>(pos / kBlockSize);
      size_t within = static_cast<size_t>(pos % kBlockSize);
      size_t piece = std::min(count - copied, kBlockSize - within);
      std::memcpy(scratch + copied, blocks_[block].data() + within, piece);
      copied += piece;
    }
    *result = Slice(scratch, count);
    return Status::OK();
  }

  void Truncate() LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    blocks_.clear();
    size_ = 0;
  }

  void Append(const Slice& data) LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    const char* src = data.data();
    size_t left = data.size();
    while (left > 0) {
      size_t within = static_cast<size_t>(size_ % kBlockSize);
      if (within == 0) {
        blocks_.emplace_back();
        blocks_.back().reserve(kBlockSize);
      }
      size_t piece = std::min(left, kBlockSize - within);
      blocks_.back().append(src, piece);
      src += piece;
      left -= piece;
      size_ += piece;
    }
  }

 private:
  static constexpr size_t kBlockSize = 8 * 1024;

  ~MemFile() = default;  // Only Unref() destroys.

  std::atomic<int> refs_;
  mutable port::Mutex mu_;
  std::vector<std::string> blocks_ GUARDED_BY(mu_);
  uint64_t size_ GUARDED_BY(mu_);
};

// Holds one reference to a MemFile for the lifetime of a handle.
class FileRef {
 public:
  explicit FileRef(MemFile* file) : file_(file) { file_->Ref(); }
  ~FileRef() { file_->Unref(); }

  FileRef(const FileRef&) = delete;
  FileRef& operator=(const FileRef&) = delete;

  MemFile* operator->() const { return file_; }

 private:
  MemFile* const file_;
};

class MemSequentialFile final : public SequentialFile {
 public:
  explicit MemSequentialFile(MemFile* file) : file_(file), pos_(0) {}

  Status Read(size_t n, Slice* result, char* scratch) override {
    Status s = file_->Read(pos_, n, result, scratch);
    if (s.ok()) pos_ += result->size();
    return s;
  }

  // Stops at the end of the file; fails only if a rewrite left the
  // position beyond the end.
  Status Skip(uint64_t n) override {
    const uint64_t size = file_->Size();
    if (pos_ > size) {
      return Status::IOError("skip from beyond the end of in-memory file");
    }
    pos_ += std::min(n, size - pos_);
    return Status::OK();
  }

 private:
  FileRef file_;
  uint64_t pos_;
};

class MemRandomAccessFile final : public RandomAccessFile {
 public:
  explicit MemRandomAccessFile(MemFile* file) : file_(file) {}

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    return file_->Read(offset, n, result, scratch);
  }

 private:
  FileRef file_;
};

class MemWritableFile final : public WritableFile {
 public:
  explicit MemWritableFile(MemFile* file) : file_(file) {}

  Status Append(const Slice& data) override {
    file_->Append(data);
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }

 private:
  FileRef file_;
};

// Writes each message as one line into a MemFile, so that tests can read
// back what was logged.
class MemLogger final : public Logger {
 public:
  explicit MemLogger(MemFile* file) : file_(file) {}

  void Logv(const char* format, std::va_list ap) override {
    std::va_list probe;
    va_copy(probe, ap);
    int needed = std::vsnprintf(nullptr, 0, format, probe);
    va_end(probe);
    if (needed < 0) return;
    std::string line(static_cast<size_t>(needed) + 1, '\0');
    std::va_list again;
    va_copy(again, ap);
    std::vsnprintf(&line[0], line.size(), format, again);
    va_end(again);
    line.resize(static_cast<size_t>(needed));
    if (line.empty() || line.back() != '\n') line.push_back('\n');
    file_->Append(line);
  }

 private:
  FileRef file_;
};

class MemFileLock final : public FileLock {
 public:
  explicit MemFileLock(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }

 private:
  const std::string name_;
};

class InMemoryEnv final : public EnvWrapper {
 public:
  explicit InMemoryEnv(Env* base_env) : EnvWrapper(base_env) {}

  ~InMemoryEnv() override {
    MutexLock l(&mu_);
    for (auto& entry : files_) entry.second->Unref();
  }

  Status NewSequentialFile(const std::string& fname,
                           SequentialFile** result) override
      LOCKS_EXCLUDED(mu_) {
    return OpenExisting<MemSequentialFile>(fname, result);
  }

  Status NewRandomAccessFile(const std::string& fname,
                             RandomAccessFile** result) override
      LOCKS_EXCLUDED(mu_) {
    return OpenExisting<MemRandomAccessFile>(fname, result);
  }

  Status NewWritableFile(const std::string& fname,
                         WritableFile** result) override LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    *result = new MemWritableFile(EmptyFileLocked(fname));
    return Status::OK();
  }

  Status NewAppendableFile(const std::string& fname,
                           WritableFile** result) override LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    // 1.23 loses what is appended to a new name; here the file is created.
    MemFile* file = FindLocked(fname);
    if (file == nullptr) file = CreateLocked(fname);
    *result = new MemWritableFile(file);
    return Status::OK();
  }

  bool FileExists(const std::string& fname) override LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    return files_.count(fname) != 0;
  }

  // Directories are implicit. As in 1.23, the children of `dir` are the
  // names of all files below "dir/", relative to it ("sub/x" included), and
  // a name without files below it simply has none.
  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* result) override
      LOCKS_EXCLUDED(mu_) {
    result->clear();
    MutexLock l(&mu_);
    const std::string prefix = dir + "/";
    for (auto it = files_.lower_bound(prefix);
         it != files_.end() && Slice(it->first).starts_with(prefix); ++it) {
      result->push_back(it->first.substr(prefix.size()));
    }
    return Status::OK();
  }

  Status RemoveFile(const std::string& fname) override LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    auto it = files_.find(fname);
    if (it == files_.end()) return NotFoundError(fname);
    it->second->Unref();  // Open handles keep their own references.
    files_.erase(it);
    return Status::OK();
  }

  Status CreateDir(const std::string& /*dirname*/) override {
    return Status::OK();
  }

  Status RemoveDir(const std::string& /*dirname*/) override {
    return Status::OK();
  }

  Status GetFileSize(const std::string& fname, uint64_t* file_size) override
      LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    MemFile* file;
    Status s = FindExistingLocked(fname, &file);
    *file_size = s.ok() ? file->Size() : 0;
    return s;
  }

  Status RenameFile(const std::string& src, const std::string& target) override
      LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    auto from = files_.find(src);
    if (from == files_.end()) return NotFoundError(src);
    if (src == target) return Status::OK();  // 1.23 drops the file here.
    MemFile* moving = from->second;
    files_.erase(from);
    auto to = files_.find(target);
    if (to != files_.end()) {
      to->second->Unref();
      to->second = moving;
    } else {
      files_.emplace(target, moving);
    }
    return Status::OK();
  }

  // Creates no file, as in 1.23. Unlike 1.23, which grants every lock, a
  // second lock on a held name is refused like the POSIX Env does, so two
  // DB objects cannot open and corrupt the same in-memory database.
  Status LockFile(const std::string& fname, FileLock** lock) override
      LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    *lock = nullptr;
    if (!locked_.insert(fname).second) {
      return Status::IOError("lock " + fname, "already held by process");
    }
    *lock = new MemFileLock(fname);
    return Status::OK();
  }

  Status UnlockFile(FileLock* lock) override LOCKS_EXCLUDED(mu_) {
    auto* held = static_cast<MemFileLock*>(lock);
    {
      MutexLock l(&mu_);
      locked_.erase(held->name());
    }
    delete held;
    return Status::OK();
  }

  Status GetTestDirectory(std::string* path) override {
    *path = "/test";
    return Status::OK();
  }

  // Unlike 1.23, which drops every message, the info log is kept as a file
  // so that the log of an in-memory database can be read back.
  Status NewLogger(const std::string& fname, Logger** result) override
      LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    *result = new MemLogger(EmptyFileLocked(fname));
    return Status::OK();
  }

 private:
  static Status NotFoundError(const std::string& fname) {
    return Status::NotFound(fname, "File not found");
  }

  // A new Handle reading the existing file `fname`, or NotFound.
  template <typename Handle, typename Interface>
  Status OpenExisting(const std::string& fname, Interface** result)
      LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    MemFile* file;
    Status s = FindExistingLocked(fname, &file);
    *result = s.ok() ? new Handle(file) : nullptr;
    return s;
  }

  MemFile* FindLocked(const std::string& fname) EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto it = files_.find(fname);
    return it == files_.end() ? nullptr : it->second;
  }

  // The file stored under `fname` in *file, or NotFound.
  Status FindExistingLocked(const std::string& fname, MemFile** file)
      EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    *file = FindLocked(fname);
    return *file == nullptr ? NotFoundError(fname) : Status::OK();
  }

  // The file `fname`, emptied in place if it exists (handles already open
  // on it see the new contents, as in 1.23), else created.
  MemFile* EmptyFileLocked(const std::string& fname)
      EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    MemFile* file = FindLocked(fname);
    if (file == nullptr) return CreateLocked(fname);
    file->Truncate();
    return file;
  }

  // Puts a new empty file under `fname`, which must be unused.
  MemFile* CreateLocked(const std::string& fname)
      EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto* file = new MemFile;
    file->Ref();  // The directory entry's reference.
    files_.emplace(fname, file);
    return file;
  }

  port::Mutex mu_;
  std::map<std::string, MemFile*> files_ GUARDED_BY(mu_);
  std::set<std::string> locked_ GUARDED_BY(mu_);
};

}  // namespace

Env* NewMemEnv(Env* base_env) { return new InMemoryEnv(base_env); }

}  // namespace leveldb
