// A view of a table file for one reader that goes through it from front to
// back (a compaction's scan of an input table): each read the window does
// not hold fetches the next `window` bytes in one read of the file, so the
// scan costs one read per window instead of one per block. Under direct
// I/O that is the difference between a syscall (and two pages) per block
// and a few large reads per table.
//
// Not thread-safe: owned by the one iterator that reads through it.
#ifndef STORAGE_LEVELDB_TABLE_READAHEAD_FILE_H_
#define STORAGE_LEVELDB_TABLE_READAHEAD_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "leveldb/env.h"

namespace leveldb {

class ReadaheadFile final : public RandomAccessFile {
 public:
  // Reads from *file (not owned; it must outlive this object), whose first
  // file_size bytes are the table.
  ReadaheadFile(const RandomAccessFile* file, uint64_t file_size,
                size_t window);
  ReadaheadFile(const ReadaheadFile&) = delete;
  ReadaheadFile& operator=(const ReadaheadFile&) = delete;
  ~ReadaheadFile() override;

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;

 private:
  // Makes the window start at `offset` and hold at least n bytes, when
  // the file has them.
  Status Fill(uint64_t offset, size_t n) const;

  const RandomAccessFile* const file_;
  const uint64_t file_size_;
  const size_t window_;
  mutable std::unique_ptr<char[]> buffer_;
  mutable uint64_t start_ = 0;  // file offset of buffer_[0]
  mutable size_t size_ = 0;     // bytes of buffer_ that hold the file
  // The file hands out its own memory (a memory-mapped table): copying it
  // through a window would only cost, so reads go straight to it.
  mutable bool pass_through_ = false;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_READAHEAD_FILE_H_
