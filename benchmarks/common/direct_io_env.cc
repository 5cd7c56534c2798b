#include "direct_io_env.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "leveldb/slice.h"
#include "leveldb/status.h"
#if !defined(LEVELDB_UPSTREAM_BUILD)
#include "leveldb/direct_io.h"
#endif

namespace bench {

namespace {

using leveldb::Slice;
using leveldb::Status;

constexpr uint64_t kPage = 4096;

Status ErrnoStatus(const std::string& context, int error) {
  if (error == ENOENT) return Status::NotFound(context, std::strerror(error));
  return Status::IOError(context, std::strerror(error));
}

// Reads up to `n` bytes at `offset`, stopping early only at end of file.
// Returns the byte count, or -1 with errno set.
ssize_t ReadAt(int fd, char* buffer, size_t n, uint64_t offset) {
  size_t total = 0;
  while (total < n) {
    const ssize_t got = ::pread(fd, buffer + total, n - total,
                                static_cast<off_t>(offset + total));
    if (got < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (got == 0) break;
    total += static_cast<size_t>(got);
  }
  return static_cast<ssize_t>(total);
}

class DirectTableFile final : public leveldb::RandomAccessFile {
 public:
  DirectTableFile(std::string path, int fd, bool direct)
      : path_(std::move(path)), fd_(fd), direct_(direct) {}
  ~DirectTableFile() override { ::close(fd_); }

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    *result = Slice();
    if (n == 0) return Status::OK();
    if (!direct_) return ReadBuffered(fd_, offset, n, result, scratch);
    const uint64_t first = offset / kPage * kPage;
    const uint64_t limit = (offset + n + kPage - 1) / kPage * kPage;
    const size_t span = static_cast<size_t>(limit - first);
    std::unique_ptr<char, decltype(&std::free)> aligned(
        static_cast<char*>(std::aligned_alloc(kPage, span)), &std::free);
    if (aligned == nullptr) {
      return Status::IOError(path_, "out of memory for direct read");
    }
    const ssize_t got = ReadAt(fd_, aligned.get(), span, first);
    if (got < 0) {
      if (errno != EINVAL) return ErrnoStatus(path_, errno);
      return ReadThroughCache(offset, n, result, scratch);
    }
    const uint64_t skip = offset - first;
    if (static_cast<uint64_t>(got) > skip) {
      const size_t available = static_cast<size_t>(got - skip);
      const size_t length = available < n ? available : n;
      std::memcpy(scratch, aligned.get() + skip, length);
      *result = Slice(scratch, length);
    }
    return Status::OK();
  }

 private:
  Status ReadBuffered(int fd, uint64_t offset, size_t n, Slice* result,
                      char* scratch) const {
    const ssize_t got = ReadAt(fd, scratch, n, offset);
    if (got < 0) return ErrnoStatus(path_, errno);
    *result = Slice(scratch, static_cast<size_t>(got));
    return Status::OK();
  }

  // The filesystem refused one direct read: serve it from a buffered
  // descriptor instead.
  Status ReadThroughCache(uint64_t offset, size_t n, Slice* result,
                          char* scratch) const {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus(path_, errno);
    Status s = ReadBuffered(fd, offset, n, result, scratch);
    ::close(fd);
    return s;
  }

  const std::string path_;
  const int fd_;
  const bool direct_;
};

class DirectTableEnv final : public leveldb::EnvWrapper {
 public:
  DirectTableEnv() : EnvWrapper(leveldb::Env::Default()) {}

  Status NewRandomAccessFile(const std::string& name,
                             leveldb::RandomAccessFile** result) override {
    if (!IsTableFile(name)) return target()->NewRandomAccessFile(name, result);
    *result = nullptr;
    bool direct = true;
    int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECT);
    if (fd < 0 && errno == EINVAL) {
      direct = false;  // this filesystem has no direct I/O
      fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    }
    if (fd < 0) return ErrnoStatus(name, errno);
    *result = new DirectTableFile(name, fd, direct);
    return Status::OK();
  }
};

}  // namespace

bool IsTableFile(const std::string& fname) {
  const size_t slash = fname.rfind('/');
  const std::string base =
      slash == std::string::npos ? fname : fname.substr(slash + 1);
  auto ends_with = [&base](const char* suffix) {
    const size_t n = std::strlen(suffix);
    return base.size() > n && base.compare(base.size() - n, n, suffix) == 0;
  };
  return ends_with(".ldb") || ends_with(".sst");
}

leveldb::Env* LocalDirectIOEnv() {
  static DirectTableEnv* const env = new DirectTableEnv;
  return env;
}

leveldb::Env* ChooseEnv(bool direct_io) {
  if (!direct_io) return leveldb::Env::Default();
#if defined(LEVELDB_UPSTREAM_BUILD)
  return LocalDirectIOEnv();
#else
  return leveldb::DirectIOEnv();
#endif
}

}  // namespace bench
