// Env for POSIX systems: files through file descriptors (and mmap for
// read-only tables), fcntl locks, one background worker thread. Also the
// direct-I/O variant returned by DirectIOEnv() (include/leveldb/direct_io.h),
// which shares all of that and only reads table files differently.
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>  // NOLINT
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <queue>
#include <set>
#include <string>
#include <thread>  // NOLINT
#include <utility>
#include <vector>

#include "leveldb/direct_io.h"
#include "leveldb/env.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/direct_io_test_helper.h"
#include "util/env_posix_test_helper.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"
#include "util/posix_logger.h"

namespace leveldb {

namespace {

// Mapping many files costs address space only, so 64-bit builds map up to
// this many read-only files; 32-bit builds never map.
constexpr int kDefaultMmapLimit = (sizeof(void*) >= 8) ? 1000 : 0;

// Marker for "derive the descriptor limit from RLIMIT_NOFILE".
constexpr int kFdLimitFromRlimit = -1;

// Test overrides, read once when the singleton Env is built.
int g_mmap_limit = kDefaultMmapLimit;
int g_read_only_fd_limit = kFdLimitFromRlimit;

// Size of the user-space buffer in front of every WritableFile.
constexpr size_t kWriteBufferSize = 64 * 1024;

// Alignment of offsets, lengths and buffers of direct reads. 4 KiB is a
// multiple of the logical block size of every common device (512 or 4096),
// so it satisfies O_DIRECT everywhere that matters.
constexpr size_t kDirectIOAlignment = 4096;

// Test switches (see util/direct_io_test_helper.h).
std::atomic<bool> g_simulate_no_direct_open{false};
std::atomic<bool> g_simulate_refused_direct_reads{false};

Status ErrnoToStatus(const std::string& context, int error_number) {
  if (error_number == ENOENT) {
    return Status::NotFound(context, std::strerror(error_number));
  }
  return Status::IOError(context, std::strerror(error_number));
}

// Number of read-only files allowed to keep a descriptor open: a fifth of
// the process's descriptor limit, leaving the rest for logs, sockets, etc.
int ReadOnlyFdLimit() {
  if (g_read_only_fd_limit != kFdLimitFromRlimit) return g_read_only_fd_limit;
  struct rlimit limits;
  if (::getrlimit(RLIMIT_NOFILE, &limits) != 0) return 50;
  if (limits.rlim_cur == RLIM_INFINITY) return std::numeric_limits<int>::max();
  rlim_t fifth = limits.rlim_cur / 5;
  if (fifth > static_cast<rlim_t>(std::numeric_limits<int>::max())) {
    return std::numeric_limits<int>::max();
  }
  return static_cast<int>(fifth);
}

// A counted pool of some scarce resource (mmaps, descriptors), shared by
// all files of the Env. Lock-free: acquired and returned from many threads.
class ResourceBudget {
 public:
  explicit ResourceBudget(int capacity) : available_(capacity) {}

  ResourceBudget(const ResourceBudget&) = delete;
  ResourceBudget& operator=(const ResourceBudget&) = delete;

  // Takes one unit if any is left.
  bool TryAcquire() {
    if (available_.fetch_sub(1, std::memory_order_relaxed) > 0) return true;
    available_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }

  // Gives back a unit obtained from TryAcquire().
  void Return() { available_.fetch_add(1, std::memory_order_relaxed); }

 private:
  std::atomic<int> available_;
};

// What a descriptor is opened for. Every open() in this file goes through
// OpenFile(), so flag choices (O_CLOEXEC, O_DIRECT for table files read by
// DirectIOEnv()) live in one place.
enum class OpenPurpose {
  kRead,
  kDirectRead,
  kTruncateWrite,
  kAppend,
  kLock,
  kDirectory
};

#if defined(O_DIRECT)
constexpr bool kHaveODirect = true;
constexpr int kODirectFlag = O_DIRECT;
#else
// Platforms without O_DIRECT take the buffered fallback path every time.
constexpr bool kHaveODirect = false;
constexpr int kODirectFlag = 0;
#endif

int OpenFlagsFor(OpenPurpose purpose) {
  switch (purpose) {
    case OpenPurpose::kRead:
      return O_RDONLY | O_CLOEXEC;
    case OpenPurpose::kDirectRead:
      return O_RDONLY | O_CLOEXEC | kODirectFlag;
    case OpenPurpose::kTruncateWrite:
      return O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
    case OpenPurpose::kAppend:
      return O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC;
    case OpenPurpose::kLock:
      return O_RDWR | O_CREAT | O_CLOEXEC;
    case OpenPurpose::kDirectory:
      return O_RDONLY | O_DIRECTORY | O_CLOEXEC;
  }
  return O_RDONLY | O_CLOEXEC;
}

// Returns a descriptor, or -1 with errno set. A direct open on a
// filesystem that cannot do direct I/O fails with EINVAL.
int OpenFile(const std::string& path, OpenPurpose purpose) {
  if (purpose == OpenPurpose::kDirectRead &&
      (!kHaveODirect ||
       g_simulate_no_direct_open.load(std::memory_order_relaxed))) {
    errno = EINVAL;
    return -1;
  }
  int fd;
  do {
    fd = ::open(path.c_str(), OpenFlagsFor(purpose), 0644);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

void CloseFd(int fd) { ::close(fd); }

// Reads up to n bytes at `offset` (or at the current position when offset
// is negative), retrying after signals and short reads. Returns the byte
// count, or -1 with errno set.
ssize_t ReadFully(int fd, char* buf, size_t n, off_t offset) {
  size_t done = 0;
  while (done < n) {
    ssize_t got = offset < 0 ? ::read(fd, buf + done, n - done)
                             : ::pread(fd, buf + done, n - done,
                                       offset + static_cast<off_t>(done));
    if (got < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (got == 0) break;  // End of file.
    done += static_cast<size_t>(got);
  }
  return static_cast<ssize_t>(done);
}

// Writes all n bytes, retrying after signals and short writes.
Status WriteFully(int fd, const char* data, size_t n, const std::string& path) {
  while (n > 0) {
    ssize_t written = ::write(fd, data, n);
    if (written < 0) {
      if (errno == EINTR) continue;
      return ErrnoToStatus(path, errno);
    }
    data += written;
    n -= static_cast<size_t>(written);
  }
  return Status::OK();
}

// Makes the file's data durable. Metadata such as mtime need not be.
Status SyncFd(int fd, const std::string& path) {
#if defined(__linux__)
  int rc = ::fdatasync(fd);
#else
  int rc = ::fsync(fd);
#endif
  if (rc != 0) return ErrnoToStatus(path, errno);
  return Status::OK();
}

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string BaseNameOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

class PosixSequentialFile final : public SequentialFile {
 public:
  PosixSequentialFile(std::string path, int fd)
      : fd_(fd), path_(std::move(path)) {}
  ~PosixSequentialFile() override { CloseFd(fd_); }

  Status Read(size_t n, Slice* result, char* scratch) override {
    ssize_t got = ReadFully(fd_, scratch, n, /*offset=*/-1);
    if (got < 0) {
      *result = Slice();
      return ErrnoToStatus(path_, errno);
    }
    *result = Slice(scratch, static_cast<size_t>(got));
    return Status::OK();
  }

  Status Skip(uint64_t n) override {
    if (n > static_cast<uint64_t>(std::numeric_limits<off_t>::max())) {
      return Status::InvalidArgument(path_, "skip distance too large");
    }
    if (::lseek(fd_, static_cast<off_t>(n), SEEK_CUR) == -1) {
      return ErrnoToStatus(path_, errno);
    }
    return Status::OK();
  }

 private:
  const int fd_;
  const std::string path_;
};

// Reads with pread(). Keeps its descriptor for its whole life if the fd
// budget allows; otherwise opens the file anew for every read.
class PosixRandomAccessFile final : public RandomAccessFile {
 public:
  // Takes ownership of `fd`.
  PosixRandomAccessFile(std::string path, int fd, ResourceBudget* fd_budget)
      : keeps_fd_(fd_budget->TryAcquire()),
        fd_(keeps_fd_ ? fd : -1),
        fd_budget_(fd_budget),
        path_(std::move(path)) {
    if (!keeps_fd_) CloseFd(fd);
  }

  ~PosixRandomAccessFile() override {
    if (keeps_fd_) {
      CloseFd(fd_);
      fd_budget_->Return();
    }
  }

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    *result = Slice();
    if (offset > static_cast<uint64_t>(std::numeric_limits<off_t>::max())) {
      return Status::InvalidArgument(path_, "read offset too large");
    }
    int fd = fd_;
    if (!keeps_fd_) {
      fd = OpenFile(path_, OpenPurpose::kRead);
      if (fd < 0) return ErrnoToStatus(path_, errno);
    }
    ssize_t got = ReadFully(fd, scratch, n, static_cast<off_t>(offset));
    int saved_errno = errno;
    if (!keeps_fd_) CloseFd(fd);
    if (got < 0) return ErrnoToStatus(path_, saved_errno);
    *result = Slice(scratch, static_cast<size_t>(got));
    return Status::OK();
  }

 private:
  const bool keeps_fd_;
  const int fd_;  // -1 when !keeps_fd_.
  ResourceBudget* const fd_budget_;
  const std::string path_;
};

// A read-only file mapped into memory in full. Reads copy nothing.
class PosixMmapReadableFile final : public RandomAccessFile {
 public:
  // `base` maps `length` bytes; the object unmaps it and returns its slot
  // to `mmap_budget` when destroyed.
  PosixMmapReadableFile(char* base, size_t length, ResourceBudget* mmap_budget)
      : base_(base), length_(length), mmap_budget_(mmap_budget) {}

  ~PosixMmapReadableFile() override {
    ::munmap(base_, length_);
    mmap_budget_->Return();
  }

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* /*scratch*/) const override {
    // Same contract as pread: a read reaching past the end is short.
    if (offset >= length_) {
      *result = Slice();
      return Status::OK();
    }
    size_t available = length_ - static_cast<size_t>(offset);
    *result = Slice(base_ + offset, std::min(n, available));
    return Status::OK();
  }

 private:
  char* const base_;
  const size_t length_;
  ResourceBudget* const mmap_budget_;
};

// Table files are the only files DirectIOEnv() reads with O_DIRECT.
bool IsTableFileName(const std::string& path) {
  const std::string base = BaseNameOf(path);
  auto ends_with = [&base](const char* suffix) {
    const size_t n = std::strlen(suffix);
    return base.size() > n && base.compare(base.size() - n, n, suffix) == 0;
  };
  return ends_with(".ldb") || ends_with(".sst");
}

// A heap buffer aligned for direct I/O.
class AlignedBuffer {
 public:
  explicit AlignedBuffer(size_t size) {
    void* memory = nullptr;
    if (::posix_memalign(&memory, kDirectIOAlignment, size) == 0) {
      data_ = static_cast<char*>(memory);
    }
  }
  ~AlignedBuffer() { std::free(data_); }

  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;

  char* data() const { return data_; }  // nullptr if allocation failed

 private:
  char* data_ = nullptr;
};

// Reads `length` bytes at `offset` from a descriptor opened with O_DIRECT;
// offset, length and buf must be aligned. Stops early at end of file, which
// a direct read reveals by returning less than a whole block. Returns the
// byte count, or -1 with errno set.
ssize_t DirectReadFully(int fd, char* buf, size_t length, uint64_t offset) {
  if (g_simulate_refused_direct_reads.load(std::memory_order_relaxed)) {
    errno = EINVAL;
    return -1;
  }
  size_t done = 0;
  while (done < length) {
    ssize_t got = ::pread(fd, buf + done, length - done,
                          static_cast<off_t>(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (got == 0) break;
    done += static_cast<size_t>(got);
    // The next offset would be unaligned (and refused): this was the end.
    if (done % kDirectIOAlignment != 0) break;
  }
  return static_cast<ssize_t>(done);
}

// Reads a table file with O_DIRECT, bypassing the page cache: every Read()
// is one aligned pread of the blocks covering the range, into an aligned
// bounce buffer, from which the requested bytes are copied to scratch.
// Keeps its descriptor if the fd budget allows, else reopens per read.
class PosixDirectRandomAccessFile final : public RandomAccessFile {
 public:
  // Takes ownership of `fd`, which was opened with OpenPurpose::kDirectRead.
  PosixDirectRandomAccessFile(std::string path, int fd,
                              ResourceBudget* fd_budget)
      : keeps_fd_(fd_budget->TryAcquire()),
        fd_(keeps_fd_ ? fd : -1),
        fd_budget_(fd_budget),
        path_(std::move(path)) {
    if (!keeps_fd_) CloseFd(fd);
  }

  ~PosixDirectRandomAccessFile() override {
    if (keeps_fd_) {
      CloseFd(fd_);
      fd_budget_->Return();
    }
  }

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    *result = Slice();
    if (n == 0) return Status::OK();
    // Keep offset + n, rounded up to a block, representable as an off_t.
    constexpr uint64_t kMaxEnd =
        static_cast<uint64_t>(std::numeric_limits<off_t>::max()) -
        kDirectIOAlignment;
    if (offset > kMaxEnd || n > kMaxEnd - offset) {
      return Status::InvalidArgument(path_, "read offset too large");
    }
    const uint64_t begin = offset - offset % kDirectIOAlignment;
    const uint64_t end = RoundUpToBlock(offset + n);
    const size_t span = static_cast<size_t>(end - begin);

    AlignedBuffer buffer(span);
    if (buffer.data() == nullptr) {
      return Status::IOError(path_, "cannot allocate a direct-I/O buffer");
    }
    int fd = fd_;
    if (!keeps_fd_) {
      fd = OpenFile(path_, OpenPurpose::kDirectRead);
      if (fd < 0 && errno == EINVAL) {
        return ReadBuffered(offset, n, result, scratch);
      }
      if (fd < 0) return ErrnoToStatus(path_, errno);
    }
    ssize_t got = DirectReadFully(fd, buffer.data(), span, begin);
    int saved_errno = errno;
    if (!keeps_fd_) CloseFd(fd);
    if (got < 0) {
      // Some filesystems accept O_DIRECT at open time but refuse the I/O.
      if (saved_errno == EINVAL) {
        return ReadBuffered(offset, n, result, scratch);
      }
      return ErrnoToStatus(path_, saved_errno);
    }

    const size_t skip = static_cast<size_t>(offset - begin);
    const size_t available = static_cast<size_t>(got);
    if (available > skip) {
      const size_t length = std::min(n, available - skip);
      std::memcpy(scratch, buffer.data() + skip, length);
      *result = Slice(scratch, length);
    }
    return Status::OK();
  }

 private:
  static uint64_t RoundUpToBlock(uint64_t x) {
    return (x + kDirectIOAlignment - 1) / kDirectIOAlignment *
           kDirectIOAlignment;
  }

  // Serves a read that direct I/O refused through an ordinary descriptor,
  // so the caller still gets its bytes.
  Status ReadBuffered(uint64_t offset, size_t n, Slice* result,
                      char* scratch) const {
    int fd = OpenFile(path_, OpenPurpose::kRead);
    if (fd < 0) return ErrnoToStatus(path_, errno);
    ssize_t got = ReadFully(fd, scratch, n, static_cast<off_t>(offset));
    int saved_errno = errno;
    CloseFd(fd);
    if (got < 0) return ErrnoToStatus(path_, saved_errno);
    *result = Slice(scratch, static_cast<size_t>(got));
    return Status::OK();
  }

  const bool keeps_fd_;
  const int fd_;  // -1 when !keeps_fd_.
  ResourceBudget* const fd_budget_;
  const std::string path_;
};

// fsyncs a directory so that entries created, removed or renamed in it
// survive a crash.
Status SyncDirectory(const std::string& dir) {
  int fd = OpenFile(dir, OpenPurpose::kDirectory);
  if (fd < 0) return ErrnoToStatus(dir, errno);
  Status s;
  if (::fsync(fd) != 0) s = ErrnoToStatus(dir, errno);
  CloseFd(fd);
  return s;
}

class PosixWritableFile final : public WritableFile {
 public:
  PosixWritableFile(std::string path, int fd)
      : fd_(fd),
        buffered_(0),
        dir_entry_synced_(false),
        kind_(KindOf(path)),
        path_(std::move(path)) {}

  ~PosixWritableFile() override {
    if (fd_ >= 0) Close();  // Errors cannot be reported from here.
  }

  Status Append(const Slice& data) override {
    if (fd_ < 0) return ClosedError();
    const char* src = data.data();
    size_t left = data.size();

    size_t copied = std::min(left, kWriteBufferSize - buffered_);
    std::memcpy(buffer_ + buffered_, src, copied);
    buffered_ += copied;
    src += copied;
    left -= copied;
    if (left == 0) return Status::OK();

    // The buffer is full and more remains.
    Status s = FlushBuffer();
    if (!s.ok()) return s;
    if (left < kWriteBufferSize) {
      std::memcpy(buffer_, src, left);
      buffered_ = left;
      return Status::OK();
    }
    // Large pieces go straight to the kernel instead of through the buffer.
    return WriteFully(fd_, src, left, path_);
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    Status s = FlushBuffer();
    if (::close(fd_) != 0 && s.ok()) s = ErrnoToStatus(path_, errno);
    fd_ = -1;
    return s;
  }

  Status Flush() override {
    if (fd_ < 0) return ClosedError();
    return FlushBuffer();
  }

  Status Sync() override {
    if (fd_ < 0) return ClosedError();
    Status s = FlushBuffer();
    if (s.ok()) s = SyncFd(fd_, path_);
    if (s.ok() && NeedsDirectorySync()) {
      s = SyncDirectory(DirectoryOf(path_));
      dir_entry_synced_ = s.ok();
    }
    return s;
  }

 private:
  Status ClosedError() const {
    return Status::IOError(path_, "file is already closed");
  }

  Status FlushBuffer() {
    Status s = WriteFully(fd_, buffer_, buffered_, path_);
    buffered_ = 0;
    return s;
  }

  int fd_;
  char buffer_[kWriteBufferSize];
  size_t buffered_;
  enum class Kind { kManifest, kTable, kOther };

  static Kind KindOf(const std::string& path) {
    const std::string base = BaseNameOf(path);
    if (base.rfind("MANIFEST", 0) == 0) return Kind::kManifest;
    const size_t dot = base.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : base.substr(dot);
    return (ext == ".ldb" || ext == ".sst") ? Kind::kTable : Kind::kOther;
  }

  // A synced file survives a crash only if its directory entry does too.
  // Every MANIFEST sync syncs the directory, which also covers the tables
  // that MANIFEST record names (so tables need no sync of their own); any
  // other file (logs above all) syncs it on its first Sync.
  bool NeedsDirectorySync() const {
    switch (kind_) {
      case Kind::kManifest:
        return true;
      case Kind::kTable:
        return false;
      case Kind::kOther:
        return !dir_entry_synced_;
    }
    return true;
  }

  bool dir_entry_synced_;
  const Kind kind_;
  const std::string path_;
};

class PosixFileLock final : public FileLock {
 public:
  PosixFileLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  const int fd_;
  const std::string path_;
};

// fcntl locks are per process, so a second LockFile from this process
// would succeed at the OS level. This set catches that case.
class LockedPaths {
 public:
  bool Add(const std::string& path) LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    return paths_.insert(path).second;
  }
  void Remove(const std::string& path) LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    paths_.erase(path);
  }

 private:
  port::Mutex mu_;
  std::set<std::string> paths_ GUARDED_BY(mu_);
};

// Places (lock=true) or drops a whole-file write lock without waiting.
int SetWholeFileLock(int fd, bool lock) {
  struct ::flock spec;
  std::memset(&spec, 0, sizeof(spec));
  spec.l_type = static_cast<short>(lock ? F_WRLCK : F_UNLCK);
  spec.l_whence = SEEK_SET;
  spec.l_start = 0;
  spec.l_len = 0;  // Zero means "to the end, however large".
  return ::fcntl(fd, F_SETLK, &spec);
}

class PosixEnv final : public Env {
 public:
  PosixEnv()
      : work_cv_(&work_mu_),
        worker_started_(false),
        mmap_budget_(g_mmap_limit),
        fd_budget_(ReadOnlyFdLimit()) {}

  // The singleton lives for the whole process; its detached worker thread
  // may still be using it, so destroying it is a programming error.
  ~PosixEnv() override {
    std::fprintf(stderr, "leveldb: the Env::Default() object was destroyed\n");
    std::abort();
  }

  Status NewSequentialFile(const std::string& fname,
                           SequentialFile** result) override {
    *result = nullptr;
    int fd = OpenFile(fname, OpenPurpose::kRead);
    if (fd < 0) return ErrnoToStatus(fname, errno);
    *result = new PosixSequentialFile(fname, fd);
    return Status::OK();
  }

  Status NewRandomAccessFile(const std::string& fname,
                             RandomAccessFile** result) override {
    *result = nullptr;
    int fd = OpenFile(fname, OpenPurpose::kRead);
    if (fd < 0) return ErrnoToStatus(fname, errno);

    if (mmap_budget_.TryAcquire()) {
      RandomAccessFile* mapped = TryMap(fd);
      if (mapped != nullptr) {
        CloseFd(fd);  // The mapping stays valid without the descriptor.
        *result = mapped;
        return Status::OK();
      }
      mmap_budget_.Return();
    }
    *result = new PosixRandomAccessFile(fname, fd, &fd_budget_);
    return Status::OK();
  }

  // A file read with O_DIRECT when its filesystem allows it, else with
  // ordinary pread (never mmap, so reads still reach the file). Used by
  // DirectIOEnv() for table files.
  Status NewDirectRandomAccessFile(const std::string& fname,
                                   RandomAccessFile** result) {
    *result = nullptr;
    int fd = OpenFile(fname, OpenPurpose::kDirectRead);
    if (fd >= 0) {
      *result = new PosixDirectRandomAccessFile(fname, fd, &fd_budget_);
      return Status::OK();
    }
    if (errno != EINVAL) return ErrnoToStatus(fname, errno);
    // EINVAL: this filesystem cannot do direct I/O.
    fd = OpenFile(fname, OpenPurpose::kRead);
    if (fd < 0) return ErrnoToStatus(fname, errno);
    *result = new PosixRandomAccessFile(fname, fd, &fd_budget_);
    return Status::OK();
  }

  Status NewWritableFile(const std::string& fname,
                         WritableFile** result) override {
    return OpenWritable(fname, OpenPurpose::kTruncateWrite, result);
  }

  Status NewAppendableFile(const std::string& fname,
                           WritableFile** result) override {
    return OpenWritable(fname, OpenPurpose::kAppend, result);
  }

  bool FileExists(const std::string& fname) override {
    return ::access(fname.c_str(), F_OK) == 0;
  }

  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* result) override {
    result->clear();
    DIR* handle = ::opendir(dir.c_str());
    if (handle == nullptr) return ErrnoToStatus(dir, errno);
    while (struct dirent* entry = ::readdir(handle)) {
      result->emplace_back(entry->d_name);
    }
    ::closedir(handle);
    return Status::OK();
  }

  Status RemoveFile(const std::string& fname) override {
    if (::unlink(fname.c_str()) != 0) return ErrnoToStatus(fname, errno);
    return Status::OK();
  }

  Status CreateDir(const std::string& dirname) override {
    if (::mkdir(dirname.c_str(), 0755) != 0) {
      return ErrnoToStatus(dirname, errno);
    }
    return Status::OK();
  }

  Status RemoveDir(const std::string& dirname) override {
    if (::rmdir(dirname.c_str()) != 0) return ErrnoToStatus(dirname, errno);
    return Status::OK();
  }

  Status GetFileSize(const std::string& fname, uint64_t* file_size) override {
    struct ::stat info;
    if (::stat(fname.c_str(), &info) != 0) {
      *file_size = 0;
      return ErrnoToStatus(fname, errno);
    }
    *file_size = static_cast<uint64_t>(info.st_size);
    return Status::OK();
  }

  Status RenameFile(const std::string& src,
                    const std::string& target) override {
    if (::rename(src.c_str(), target.c_str()) != 0) {
      return ErrnoToStatus(src, errno);
    }
    // Renames install CURRENT; make the new name durable. The rename itself
    // has happened, so a failed directory sync is not reported as a failed
    // rename (callers would then delete the file the new name points to).
    SyncDirectory(DirectoryOf(target));
    return Status::OK();
  }

  Status LockFile(const std::string& fname, FileLock** lock) override {
    *lock = nullptr;
    int fd = OpenFile(fname, OpenPurpose::kLock);
    if (fd < 0) return ErrnoToStatus(fname, errno);
    if (!locked_paths_.Add(fname)) {
      CloseFd(fd);
      return Status::IOError("lock " + fname, "already held by process");
    }
    if (SetWholeFileLock(fd, /*lock=*/true) != 0) {
      int saved_errno = errno;
      CloseFd(fd);
      locked_paths_.Remove(fname);
      return Status::IOError("lock " + fname, std::strerror(saved_errno));
    }
    *lock = new PosixFileLock(fd, fname);
    return Status::OK();
  }

  Status UnlockFile(FileLock* lock) override {
    auto* held = static_cast<PosixFileLock*>(lock);
    Status s;
    if (SetWholeFileLock(held->fd(), /*lock=*/false) != 0) {
      s = Status::IOError("unlock " + held->path(), std::strerror(errno));
    }
    locked_paths_.Remove(held->path());
    CloseFd(held->fd());
    delete held;
    return s;
  }

  void Schedule(void (*function)(void* arg), void* arg) override
      LOCKS_EXCLUDED(work_mu_) {
    MutexLock l(&work_mu_);
    if (!worker_started_) {
      worker_started_ = true;
      std::thread(&PosixEnv::WorkerLoop, this).detach();
    }
    work_queue_.push(WorkItem{function, arg});
    work_cv_.Signal();
  }

  void StartThread(void (*function)(void* arg), void* arg) override {
    std::thread(function, arg).detach();
  }

  Status GetTestDirectory(std::string* path) override {
    const char* from_env = std::getenv("TEST_TMPDIR");
    if (from_env != nullptr && from_env[0] != '\0') {
      *path = from_env;
    } else {
      *path = "/tmp/leveldbtest-" + std::to_string(::geteuid());
    }
    CreateDir(*path);  // Usually exists already; that is fine.
    return Status::OK();
  }

  Status NewLogger(const std::string& fname, Logger** result) override {
    *result = nullptr;
    int fd = OpenFile(fname, OpenPurpose::kAppend);
    if (fd < 0) return ErrnoToStatus(fname, errno);
    std::FILE* stream = ::fdopen(fd, "w");
    if (stream == nullptr) {
      int saved_errno = errno;
      CloseFd(fd);
      return ErrnoToStatus(fname, saved_errno);
    }
    *result = new PosixLogger(stream);
    return Status::OK();
  }

  uint64_t NowMicros() override {
    auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(since_epoch)
            .count());
  }

  void SleepForMicroseconds(int micros) override {
    std::this_thread::sleep_for(std::chrono::microseconds(micros));
  }

 private:
  struct WorkItem {
    void (*function)(void*);
    void* arg;
  };

  Status OpenWritable(const std::string& fname, OpenPurpose purpose,
                      WritableFile** result) {
    *result = nullptr;
    int fd = OpenFile(fname, purpose);
    if (fd < 0) return ErrnoToStatus(fname, errno);
    *result = new PosixWritableFile(fname, fd);
    return Status::OK();
  }

  // Maps the whole file behind `fd`; nullptr when that is not possible
  // (empty file, mmap failure), in which case the caller uses pread.
  RandomAccessFile* TryMap(int fd) {
    struct ::stat info;
    if (::fstat(fd, &info) != 0 || info.st_size <= 0) return nullptr;
    size_t length = static_cast<size_t>(info.st_size);
    void* base = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) return nullptr;
    return new PosixMmapReadableFile(static_cast<char*>(base), length,
                                     &mmap_budget_);
  }

  // Body of the background thread: runs queued items one at a time, in
  // the order they were scheduled, forever.
  void WorkerLoop() LOCKS_EXCLUDED(work_mu_) {
    while (true) {
      work_mu_.Lock();
      while (work_queue_.empty()) work_cv_.Wait();
      WorkItem item = work_queue_.front();
      work_queue_.pop();
      work_mu_.Unlock();
      item.function(item.arg);
    }
  }

  port::Mutex work_mu_;
  port::CondVar work_cv_;
  bool worker_started_ GUARDED_BY(work_mu_);
  std::queue<WorkItem> work_queue_ GUARDED_BY(work_mu_);

  LockedPaths locked_paths_;
  ResourceBudget mmap_budget_;
  ResourceBudget fd_budget_;
};

PosixEnv* DefaultPosixEnv() {
  static NoDestructor<PosixEnv> default_env;
  return default_env.get();
}

// Env::Default() in every respect (it forwards everything to it, so files,
// locks and the background thread are shared) except that table files are
// read with direct I/O.
class DirectIOPosixEnv final : public EnvWrapper {
 public:
  explicit DirectIOPosixEnv(PosixEnv* posix)
      : EnvWrapper(posix), posix_(posix) {}

  Status NewRandomAccessFile(const std::string& fname,
                             RandomAccessFile** result) override {
    if (!IsTableFileName(fname)) {
      return posix_->NewRandomAccessFile(fname, result);
    }
    return posix_->NewDirectRandomAccessFile(fname, result);
  }

 private:
  PosixEnv* const posix_;
};

}  // namespace

void EnvPosixTestHelper::SetReadOnlyFDLimit(int limit) {
  g_read_only_fd_limit = limit;
}

void EnvPosixTestHelper::SetReadOnlyMMapLimit(int limit) {
  g_mmap_limit = limit;
}

void DirectIOTestHelper::SimulateUnsupportedFilesystem(bool on) {
  g_simulate_no_direct_open.store(on, std::memory_order_relaxed);
}

void DirectIOTestHelper::SimulateRefusedReads(bool on) {
  g_simulate_refused_direct_reads.store(on, std::memory_order_relaxed);
}

Env* Env::Default() { return DefaultPosixEnv(); }

Env* DirectIOEnv() {
  static NoDestructor<DirectIOPosixEnv> direct_env(DefaultPosixEnv());
  return direct_env.get();
}

}  // namespace leveldb
