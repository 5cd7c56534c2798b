// Slice: a pointer and a length naming bytes that live somewhere else.  A
// Slice never copies or frees those bytes, so their owner has to keep them
// valid and unmodified while any Slice refers to them.
//
// Threading: sharing one Slice between threads is safe for const methods
// only; as soon as a thread may modify it, guard every use of it with one
// mutex.

#ifndef STORAGE_LEVELDB_INCLUDE_SLICE_H_
#define STORAGE_LEVELDB_INCLUDE_SLICE_H_

#include <cassert>
#include <cstddef>
#include <cstring>
#include <string>

#include "leveldb/export.h"

namespace leveldb {

class LEVELDB_EXPORT Slice {
 public:
  // An empty view (points at a static empty string, never null).
  Slice() : data_(""), size_(0) {}

  // A view of the n bytes starting at d.
  Slice(const char* d, size_t n) : data_(d), size_(n) {}

  // A view of the bytes currently held by s.  Invalidated by any change to
  // s that reallocates or shrinks it.
  Slice(const std::string& s) : data_(s.data()), size_(s.size()) {}

  // A view of a NUL-terminated C string, excluding the terminator.
  Slice(const char* s) : data_(s), size_(strlen(s)) {}

  // Copying a Slice copies the view, not the bytes.
  Slice(const Slice&) = default;
  Slice& operator=(const Slice&) = default;

  // First byte of the view.
  const char* data() const { return data_; }

  // Number of bytes in the view.
  size_t size() const { return size_; }

  // True when the view has no bytes.
  bool empty() const { return size_ == 0; }

  // Byte at position n; n must be smaller than size().
  char operator[](size_t n) const {
    assert(n < size_);
    return data_[n];
  }

  // Reset to the empty view.
  void clear() {
    data_ = "";
    size_ = 0;
  }

  // Advance the start of the view by n bytes; n must not exceed size().
  void remove_prefix(size_t n) {
    assert(n <= size_);
    data_ += n;
    size_ -= n;
  }

  // The bytes, copied into a new std::string.
  std::string ToString() const { return std::string(data_, size_); }

  // Lexicographic comparison of the bytes as unsigned chars; a proper prefix
  // orders before the longer slice.  Negative, zero or positive result for
  // less-than, equal and greater-than respectively.
  int compare(const Slice& b) const;

  // Whether this slice begins with the bytes of x.
  bool starts_with(const Slice& x) const {
    if (x.size_ > size_) return false;
    return memcmp(data_, x.data_, x.size_) == 0;
  }

 private:
  const char* data_;
  size_t size_;
};

inline bool operator==(const Slice& x, const Slice& y) {
  if (x.size() != y.size()) return false;
  return memcmp(x.data(), y.data(), x.size()) == 0;
}

inline bool operator!=(const Slice& x, const Slice& y) { return !(x == y); }

inline int Slice::compare(const Slice& b) const {
  const size_t common = size_ < b.size_ ? size_ : b.size_;
  const int prefix_order = memcmp(data_, b.data_, common);
  if (prefix_order != 0) return prefix_order;
  if (size_ == b.size_) return 0;
  return size_ < b.size_ ? -1 : +1;
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_SLICE_H_
