#include "upstream_direct_io.h"

#if defined(LEVELDB_UPSTREAM_BUILD)

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace ycsb {

namespace {

constexpr uint64_t kPage = 4096;

bool IsTableFileName(const std::string& name) {
  auto ends_with = [&name](const char* suffix) {
    const size_t length = std::strlen(suffix);
    return name.size() >= length &&
           name.compare(name.size() - length, length, suffix) == 0;
  };
  return ends_with(".ldb") || ends_with(".sst");
}

leveldb::Status ErrnoStatus(const std::string& context, int error) {
  if (error == ENOENT) {
    return leveldb::Status::NotFound(context, std::strerror(error));
  }
  return leveldb::Status::IOError(context, std::strerror(error));
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

  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    *result = leveldb::Slice();
    if (n == 0) return leveldb::Status::OK();
    if (!direct_) return ReadBuffered(fd_, offset, n, result, scratch);
    const uint64_t first = offset / kPage * kPage;
    const uint64_t limit = (offset + n + kPage - 1) / kPage * kPage;
    const size_t span = static_cast<size_t>(limit - first);
    std::unique_ptr<char, decltype(&std::free)> aligned(
        static_cast<char*>(std::aligned_alloc(kPage, span)), &std::free);
    if (aligned == nullptr) {
      return leveldb::Status::IOError(path_, "out of memory for direct read");
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
      *result = leveldb::Slice(scratch, length);
    }
    return leveldb::Status::OK();
  }

 private:
  leveldb::Status ReadBuffered(int fd, uint64_t offset, size_t n,
                               leveldb::Slice* result, char* scratch) const {
    const ssize_t got = ReadAt(fd, scratch, n, offset);
    if (got < 0) return ErrnoStatus(path_, errno);
    *result = leveldb::Slice(scratch, static_cast<size_t>(got));
    return leveldb::Status::OK();
  }

  // The filesystem refused one direct read: serve it from a buffered
  // descriptor instead.
  leveldb::Status ReadThroughCache(uint64_t offset, size_t n,
                                   leveldb::Slice* result,
                                   char* scratch) const {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus(path_, errno);
    leveldb::Status s = ReadBuffered(fd, offset, n, result, scratch);
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

  leveldb::Status NewRandomAccessFile(
      const std::string& name, leveldb::RandomAccessFile** result) override {
    if (!IsTableFileName(name)) {
      return target()->NewRandomAccessFile(name, result);
    }
    *result = nullptr;
    bool direct = true;
    int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECT);
    if (fd < 0 && errno == EINVAL) {
      direct = false;  // this filesystem has no direct I/O
      fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    }
    if (fd < 0) return ErrnoStatus(name, errno);
    *result = new DirectTableFile(name, fd, direct);
    return leveldb::Status::OK();
  }
};

}  // namespace

leveldb::Env* UpstreamDirectIOEnv() {
  static DirectTableEnv* const env = new DirectTableEnv;
  return env;
}

}  // namespace ycsb

#endif  // LEVELDB_UPSTREAM_BUILD
