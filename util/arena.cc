// Bump allocation out of 4 KiB blocks; oversized requests get a block of
// their own so the current block's remainder is not wasted.
#include "util/arena.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace leveldb {

namespace {

constexpr size_t kBlockBytes = 4096;
// Requests above this size are served from a dedicated block.
constexpr size_t kDedicatedThreshold = kBlockBytes / 4;
constexpr size_t kAlignment = std::max<size_t>(8, alignof(void*));
static_assert((kAlignment & (kAlignment - 1)) == 0,
              "alignment must be a power of two");

}  // namespace

Arena::Arena() = default;

Arena::~Arena() {
  for (char* block : blocks_) delete[] block;
}

char* Arena::Allocate(size_t bytes) {
  if (bytes <= left_) {
    char* result = cursor_;
    cursor_ += bytes;
    left_ -= bytes;
    return result;
  }
  return Refill(bytes);
}

char* Arena::AllocateAligned(size_t bytes) {
  const size_t misalign =
      reinterpret_cast<uintptr_t>(cursor_) & (kAlignment - 1);
  const size_t padding = misalign == 0 ? 0 : kAlignment - misalign;
  if (padding + bytes <= left_) {
    char* result = cursor_ + padding;
    cursor_ += padding + bytes;
    left_ -= padding + bytes;
    return result;
  }
  // Fresh blocks come from operator new[], which aligns for any scalar.
  char* result = Refill(bytes);
  assert((reinterpret_cast<uintptr_t>(result) & (kAlignment - 1)) == 0);
  return result;
}

char* Arena::Refill(size_t bytes) {
  if (bytes > kDedicatedThreshold) return NewBlock(bytes);

  // Drop what is left of the current block and carve from a new one.
  cursor_ = NewBlock(kBlockBytes);
  left_ = kBlockBytes;
  char* result = cursor_;
  cursor_ += bytes;
  left_ -= bytes;
  return result;
}

char* Arena::NewBlock(size_t block_bytes) {
  char* block = new char[block_bytes];
  blocks_.push_back(block);
  usage_.fetch_add(block_bytes + sizeof(char*), std::memory_order_relaxed);
  return block;
}

}  // namespace leveldb
