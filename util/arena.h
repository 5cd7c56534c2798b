// Bump allocator for the memtable: many small allocations, all freed
// together when the arena dies.
#ifndef STORAGE_LEVELDB_UTIL_ARENA_H_
#define STORAGE_LEVELDB_UTIL_ARENA_H_

#include <atomic>
#include <cstddef>
#include <vector>

namespace leveldb {

class Arena {
 public:
  Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();

  // Memory for `bytes` bytes (bytes > 0), valid until the arena dies.
  char* Allocate(size_t bytes);

  // Like Allocate, aligned for any pointer or 8-byte type.
  char* AllocateAligned(size_t bytes);

  // Bytes obtained from the system so far, including block overhead. Safe to
  // call from any thread while one thread allocates.
  size_t MemoryUsage() const { return usage_.load(std::memory_order_relaxed); }

 private:
  char* Refill(size_t bytes);
  char* NewBlock(size_t block_bytes);

  char* cursor_ = nullptr;
  size_t left_ = 0;
  std::vector<char*> blocks_;
  std::atomic<size_t> usage_{0};
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_ARENA_H_
