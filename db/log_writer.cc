#include "db/log_writer.h"

#include "leveldb/env.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {
namespace log {

namespace {

void ComputeTypeCrcs(uint32_t* crcs) {
  for (int type = 0; type <= kMaxRecordType; ++type) {
    const char byte = static_cast<char>(type);
    crcs[type] = crc32c::Value(&byte, 1);
  }
}

}  // namespace

Writer::Writer(WritableFile* dest) : Writer(dest, 0) {}

Writer::Writer(WritableFile* dest, uint64_t dest_length)
    : dest_(dest),
      offset_in_block_(static_cast<int>(dest_length % kBlockSize)) {
  ComputeTypeCrcs(type_crc_);
}

Writer::~Writer() = default;

Status Writer::AddRecord(const Slice& slice) {
  const char* data = slice.data();
  size_t remaining = slice.size();
  bool first = true;

  // Emit at least one fragment, so that an empty record is still written.
  Status s;
  do {
    const int space = kBlockSize - offset_in_block_;
    if (space < kHeaderSize) {
      // Too little room for a header: pad the block tail with zeros, which
      // readers skip, and continue in the next block.
      if (space > 0) {
        static const char kZeros[kHeaderSize] = {};
        s = dest_->Append(Slice(kZeros, static_cast<size_t>(space)));
        if (!s.ok()) return s;
      }
      offset_in_block_ = 0;
    }

    const size_t room =
        static_cast<size_t>(kBlockSize - offset_in_block_ - kHeaderSize);
    const size_t take = remaining < room ? remaining : room;
    const bool last = (take == remaining);
    RecordType type;
    if (first && last) {
      type = kFullType;
    } else if (first) {
      type = kFirstType;
    } else if (last) {
      type = kLastType;
    } else {
      type = kMiddleType;
    }

    s = WriteFragment(type, data, take);
    data += take;
    remaining -= take;
    first = false;
  } while (s.ok() && remaining > 0);
  return s;
}

Status Writer::WriteFragment(RecordType type, const char* data, size_t length) {
  char header[kHeaderSize];
  const uint32_t crc = crc32c::Extend(type_crc_[type], data, length);
  StoreFixed32(header, crc32c::Mask(crc));
  header[4] = static_cast<char>(length & 0xff);
  header[5] = static_cast<char>(length >> 8);
  header[6] = static_cast<char>(type);

  Status s = dest_->Append(Slice(header, kHeaderSize));
  if (s.ok()) s = dest_->Append(Slice(data, length));
  if (s.ok()) s = dest_->Flush();
  // Advance even on failure: the bytes may have partly reached the file.
  offset_in_block_ += static_cast<int>(kHeaderSize + length);
  return s;
}

}  // namespace log
}  // namespace leveldb
