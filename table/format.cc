#include "table/format.h"

#include <cstring>

#include <limits>

#include "leveldb/env.h"
#include "leveldb/options.h"
#include "port/port.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

void BlockHandle::EncodeTo(std::string* dst) const {
  AppendVarint64(dst, offset_);
  AppendVarint64(dst, size_);
}

Status BlockHandle::DecodeFrom(Slice* input) {
  uint64_t offset;
  uint64_t size;
  if (!ConsumeVarint64(input, &offset) || !ConsumeVarint64(input, &size)) {
    return Status::Corruption("bad block handle");
  }
  offset_ = offset;
  size_ = size;
  return Status::OK();
}

void Footer::EncodeTo(std::string* dst) const {
  const size_t start = dst->size();
  metaindex_handle_.EncodeTo(dst);
  index_handle_.EncodeTo(dst);
  // Pad so the magic number always sits at the same distance from the end.
  dst->resize(start + 2 * BlockHandle::kMaxEncodedLength, '\0');
  AppendFixed64(dst, kTableMagicNumber);
}

Status Footer::DecodeFrom(Slice* input) {
  if (input->size() < kEncodedLength) {
    return Status::Corruption("not an sstable (footer too short)");
  }
  const char* base = input->data();
  const size_t handles_length = 2 * BlockHandle::kMaxEncodedLength;
  if (LoadFixed64(base + handles_length) != kTableMagicNumber) {
    return Status::Corruption("not an sstable (bad magic number)");
  }
  Slice handles(base, handles_length);
  Status s = metaindex_handle_.DecodeFrom(&handles);
  if (s.ok()) s = index_handle_.DecodeFrom(&handles);
  if (s.ok()) input->remove_prefix(kEncodedLength);
  return s;
}

namespace {

// Turns a verified snappy payload into a fresh heap buffer.
Status UncompressSnappy(const char* data, size_t n, BlockContents* result) {
  if (!port::SnappyAvailable()) {
    return Status::NotSupported(
        "snappy compressed block found but snappy support is not built in");
  }
  size_t length = 0;
  if (!port::SnappyUncompressedLength(data, n, &length)) {
    return Status::Corruption("corrupted snappy compressed block contents");
  }
  // Snappy cannot expand input by more than ~22x (a 3-byte copy tag yields
  // at most 64 bytes), so a larger claim is damage; refusing it up front
  // avoids a huge allocation driven by garbage.
  const size_t kMaxExpansion = 32;
  if (length / kMaxExpansion > n + 16) {
    return Status::Corruption("corrupted snappy compressed block contents");
  }
  char* out = new char[length == 0 ? 1 : length];
  if (!port::SnappyUncompress(data, n, out)) {
    delete[] out;
    return Status::Corruption("corrupted snappy compressed block contents");
  }
  result->data = Slice(out, length);
  result->heap_allocated = true;
  result->cachable = true;
  return Status::OK();
}

}  // namespace

bool BlockChecksumMatches(const char* data, size_t n) {
  return crc32c::Unmask(LoadFixed32(data + n + 1)) ==
         crc32c::Value(data, n + 1);
}

Status ReadBlock(RandomAccessFile* file, const ReadOptions& options,
                 const BlockHandle& handle, BlockContents* result) {
  result->data = Slice();
  result->cachable = false;
  result->heap_allocated = false;

  if (handle.size() >
      std::numeric_limits<size_t>::max() - kBlockTrailerSize - 1) {
    return Status::Corruption("block handle size too large");
  }
  const size_t n = static_cast<size_t>(handle.size());
  const size_t wanted = n + kBlockTrailerSize;
  char* buf = new char[wanted];
  Slice contents;
  Status s = file->Read(handle.offset(), wanted, &contents, buf);
  if (!s.ok()) {
    delete[] buf;
    return s;
  }
  if (contents.size() != wanted) {
    delete[] buf;
    return Status::Corruption("truncated block read");
  }

  const char* data = contents.data();
  // Reads for compactions, for paranoid databases and for callers that ask
  // verify every block; plain reads skip the CRC as LevelDB does (snappy still
  // rejects most damaged compressed blocks).
  if (options.verify_checksums && !BlockChecksumMatches(data, n)) {
    delete[] buf;
    return Status::Corruption("block checksum mismatch");
  }

  switch (static_cast<unsigned char>(data[n])) {
    case kNoCompression:
      if (data != buf) {
        // The file handed out its own memory (e.g. an mmap); use it in place.
        // It stays valid as long as the file, so it is not cached.
        delete[] buf;
        result->data = Slice(data, n);
      } else {
        result->data = Slice(buf, n);
        result->heap_allocated = true;
        result->cachable = true;
      }
      return Status::OK();
    case kSnappyCompression:
      s = UncompressSnappy(data, n, result);
      delete[] buf;
      return s;
    default:
      delete[] buf;
      return Status::Corruption("bad block type");
  }
}

Status ParseBlock(const char* raw, size_t n, BlockContents* result) {
  result->data = Slice();
  result->cachable = false;
  result->heap_allocated = false;
  if (!BlockChecksumMatches(raw, n)) {
    return Status::Corruption("block checksum mismatch");
  }
  switch (static_cast<unsigned char>(raw[n])) {
    case kNoCompression: {
      char* copy = new char[n == 0 ? 1 : n];
      std::memcpy(copy, raw, n);
      result->data = Slice(copy, n);
      result->heap_allocated = true;
      result->cachable = true;
      return Status::OK();
    }
    case kSnappyCompression:
      return UncompressSnappy(raw, n, result);
    default:
      return Status::Corruption("bad block type");
  }
}

}  // namespace leveldb
