#include "table/readahead_file.h"

#include <algorithm>
#include <cstring>

namespace leveldb {

ReadaheadFile::ReadaheadFile(const RandomAccessFile* file, uint64_t file_size,
                             size_t window)
    : file_(file), file_size_(file_size), window_(window) {}

ReadaheadFile::~ReadaheadFile() = default;

Status ReadaheadFile::Read(uint64_t offset, size_t n, Slice* result,
                           char* scratch) const {
  const bool held = offset >= start_ && n <= size_ &&
                    offset - start_ <= size_ - n && buffer_ != nullptr;
  if (!held) {
    if (pass_through_ || n >= window_) {
      return file_->Read(offset, n, result, scratch);
    }
    Status s = Fill(offset, n);
    if (!s.ok() || pass_through_) {
      return s.ok() ? file_->Read(offset, n, result, scratch) : s;
    }
  }
  // A short window (the end of the file) gives a short read, as the file
  // itself would.
  const size_t skip = static_cast<size_t>(offset - start_);
  const size_t length = skip < size_ ? std::min(n, size_ - skip) : 0;
  std::memcpy(scratch, buffer_.get() + skip, length);
  *result = Slice(scratch, length);
  return Status::OK();
}

Status ReadaheadFile::Fill(uint64_t offset, size_t n) const {
  size_t length = window_;
  if (offset < file_size_) {
    length =
        static_cast<size_t>(std::min<uint64_t>(window_, file_size_ - offset));
  }
  length = std::max(length, n);
  if (buffer_ == nullptr) buffer_.reset(new char[window_]);
  size_ = 0;
  Slice got;
  Status s = file_->Read(offset, length, &got, buffer_.get());
  if (!s.ok()) return s;
  if (got.data() != buffer_.get()) {
    pass_through_ = true;
    buffer_.reset();
    return Status::OK();
  }
  start_ = offset;
  size_ = got.size();
  return Status::OK();
}

}  // namespace leveldb
