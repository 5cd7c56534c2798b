// Physical layout of a table file: block handles, the footer, and reading a
// block with its 5-byte trailer (compression type + masked CRC32C).
#ifndef STORAGE_LEVELDB_TABLE_FORMAT_H_
#define STORAGE_LEVELDB_TABLE_FORMAT_H_

#include <cstdint>
#include <string>

#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

class RandomAccessFile;
struct ReadOptions;

// Location of a block inside a file: offset and size, without the trailer.
class BlockHandle {
 public:
  // Longest encoding: two varint64s.
  static constexpr size_t kMaxEncodedLength = 20;

  BlockHandle() = default;
  BlockHandle(uint64_t offset, uint64_t size) : offset_(offset), size_(size) {}

  uint64_t offset() const { return offset_; }
  void set_offset(uint64_t offset) { offset_ = offset; }
  uint64_t size() const { return size_; }
  void set_size(uint64_t size) { size_ = size; }

  void EncodeTo(std::string* dst) const;
  Status DecodeFrom(Slice* input);

 private:
  uint64_t offset_ = ~uint64_t{0};
  uint64_t size_ = ~uint64_t{0};
};

// The fixed-size tail of every table file.
class Footer {
 public:
  // Two padded handles plus the 8-byte magic number.
  static constexpr size_t kEncodedLength =
      2 * BlockHandle::kMaxEncodedLength + 8;

  Footer() = default;

  const BlockHandle& metaindex_handle() const { return metaindex_handle_; }
  void set_metaindex_handle(const BlockHandle& h) { metaindex_handle_ = h; }
  const BlockHandle& index_handle() const { return index_handle_; }
  void set_index_handle(const BlockHandle& h) { index_handle_ = h; }

  void EncodeTo(std::string* dst) const;
  Status DecodeFrom(Slice* input);

 private:
  BlockHandle metaindex_handle_;
  BlockHandle index_handle_;
};

constexpr uint64_t kTableMagicNumber = 0xdb4775248b80fb57ull;

// Compression byte + masked CRC32C after every block.
constexpr size_t kBlockTrailerSize = 5;

// The bytes of one block after reading (and decompressing).
struct BlockContents {
  Slice data;
  bool cachable = false;        // true if data may be kept in a cache
  bool heap_allocated = false;  // true if the caller must delete[] data.data()
};

// Reads the block at `handle`, checking its CRC when
// options.verify_checksums is set, and decompressing it.
Status ReadBlock(RandomAccessFile* file, const ReadOptions& options,
                 const BlockHandle& handle, BlockContents* result);

// True if the trailer after the n bytes at data (type byte, masked CRC32C)
// holds the CRC of those bytes and the type byte.
bool BlockChecksumMatches(const char* data, size_t n);

// The block whose n bytes and trailer are at raw[0, n + kBlockTrailerSize),
// already in memory (read as part of a larger span): checks its CRC always
// and sets *result to a heap copy, uncompressed.
Status ParseBlock(const char* raw, size_t n, BlockContents* result);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_FORMAT_H_
