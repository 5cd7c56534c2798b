// Platform layer. The fork targets POSIX systems with a C++17 standard
// library; everything platform-specific the rest of the code needs is here.
#ifndef STORAGE_LEVELDB_PORT_PORT_H_
#define STORAGE_LEVELDB_PORT_PORT_H_

#include <cassert>
#include <chrono>              // NOLINT
#include <condition_variable>  // NOLINT
#include <cstddef>
#include <cstdint>
#include <mutex>  // NOLINT
#include <string>

#include "port/thread_annotations.h"

namespace leveldb {
namespace port {

// A non-recursive mutex that the thread-safety analysis understands.
class LOCKABLE Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() UNLOCK_FUNCTION() { mu_.unlock(); }
  // std::mutex cannot tell who owns it; this only informs the analysis.
  void AssertHeld() ASSERT_EXCLUSIVE_LOCK() {}

 private:
  friend class CondVar;
  std::mutex mu_;
};

// Condition variable bound to one Mutex for its whole life.
class CondVar {
 public:
  explicit CondVar(Mutex* mu) : mu_(mu) { assert(mu != nullptr); }
  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  // Caller must hold the mutex; it is held again on return.
  void Wait() {
    std::unique_lock<std::mutex> relock(mu_->mu_, std::adopt_lock);
    cv_.wait(relock);
    relock.release();
  }
  // Like Wait(), but returns after about timeout_micros microseconds even
  // without a signal. Returns true if it timed out.
  bool TimedWait(uint64_t timeout_micros) {
    std::unique_lock<std::mutex> relock(mu_->mu_, std::adopt_lock);
    const std::cv_status result =
        cv_.wait_for(relock, std::chrono::microseconds(timeout_micros));
    relock.release();
    return result == std::cv_status::timeout;
  }
  void Signal() { cv_.notify_one(); }
  void SignalAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
  Mutex* const mu_;
};

// True when the library was built with snappy.
bool SnappyAvailable();

// Appends nothing and returns false when snappy is not compiled in.
bool SnappyCompress(const char* input, size_t length, std::string* output);

// Reads the uncompressed size stored in a snappy buffer.
bool SnappyUncompressedLength(const char* input, size_t length, size_t* result);

// Decompresses into `output`, which must hold the uncompressed length.
bool SnappyUncompress(const char* input, size_t length, char* output);

// Hardware CRC32C (SSE4.2) if the CPU has it. Returns false and leaves
// *result alone when no accelerated path exists.
bool AcceleratedCRC32C(uint32_t crc, const char* data, size_t size,
                       uint32_t* result);

}  // namespace port
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_PORT_PORT_H_
