#include "db/log_reader.h"

#include "leveldb/env.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {
namespace log {

Reader::Reporter::~Reporter() = default;

Reader::Reader(SequentialFile* file, Reporter* reporter, bool checksum,
               uint64_t initial_offset)
    : file_(file),
      reporter_(reporter),
      checksum_(checksum),
      backing_store_(new char[kBlockSize]),
      buffer_(),
      eof_(false),
      last_record_offset_(0),
      end_of_buffer_offset_(0),
      initial_offset_(initial_offset),
      resyncing_(initial_offset > 0),
      need_initial_skip_(initial_offset > 0) {}

Reader::~Reader() { delete[] backing_store_; }

uint64_t Reader::LastRecordOffset() { return last_record_offset_; }

bool Reader::SkipToInitialBlock() {
  const uint64_t within_block = initial_offset_ % kBlockSize;
  uint64_t block_start = initial_offset_ - within_block;
  // An offset inside a block's zero-filled tail cannot start a record; the
  // first candidate is the next block.
  if (within_block > static_cast<uint64_t>(kBlockSize - kHeaderSize)) {
    block_start += kBlockSize;
  }
  end_of_buffer_offset_ = block_start;
  if (block_start > 0) {
    Status s = file_->Skip(block_start);
    if (!s.ok()) {
      ReportDrop(block_start, s);
      eof_ = true;  // the position is unknown: read nothing more
      return false;
    }
  }
  return true;
}

bool Reader::ReadRecord(Slice* record, std::string* scratch) {
  if (need_initial_skip_) {
    need_initial_skip_ = false;
    if (!SkipToInitialBlock()) return false;
  }

  scratch->clear();
  *record = Slice();
  bool assembling = false;    // inside a FIRST ... LAST sequence
  uint64_t record_start = 0;  // offset of the record being assembled

  Slice fragment;
  for (;;) {
    const unsigned int type = ReadPhysicalRecord(&fragment);
    // Where this fragment's header began (meaningful for real fragments).
    const uint64_t fragment_start =
        end_of_buffer_offset_ - buffer_.size() - kHeaderSize - fragment.size();

    if (resyncing_) {
      // Fragments continuing a record that began before initial_offset are
      // not ours to return or report.
      if (type == kMiddleType || type == kBadRecord) continue;
      if (type == kLastType) {
        resyncing_ = false;
        continue;
      }
      resyncing_ = false;
    }

    switch (type) {
      case kFullType:
        // An empty FIRST just before a block boundary is how some old
        // writers started a record; only report if data is really lost.
        if (assembling && !scratch->empty()) {
          ReportCorruption(scratch->size(), "partial record without end");
        }
        scratch->clear();
        *record = fragment;
        last_record_offset_ = fragment_start;
        end_of_last_record_ = end_of_buffer_offset_ - buffer_.size();
        return true;

      case kFirstType:
        if (assembling && !scratch->empty()) {
          ReportCorruption(scratch->size(), "partial record without end");
        }
        record_start = fragment_start;
        scratch->assign(fragment.data(), fragment.size());
        assembling = true;
        break;

      case kMiddleType:
        if (!assembling) {
          ReportCorruption(fragment.size(),
                           "missing start of fragmented record");
        } else {
          scratch->append(fragment.data(), fragment.size());
        }
        break;

      case kLastType:
        if (!assembling) {
          ReportCorruption(fragment.size(),
                           "missing start of fragmented record");
        } else {
          scratch->append(fragment.data(), fragment.size());
          *record = Slice(*scratch);
          last_record_offset_ = record_start;
          end_of_last_record_ = end_of_buffer_offset_ - buffer_.size();
          return true;
        }
        break;

      case kEof:
        // A record cut short at the end of the file is what a writer that
        // crashed mid-append leaves behind: drop it quietly.
        scratch->clear();
        return false;

      case kBadRecord:
        if (assembling) {
          ReportCorruption(scratch->size(), "error in middle of record");
          assembling = false;
          scratch->clear();
        }
        break;

      default: {
        const size_t lost =
            fragment.size() + (assembling ? scratch->size() : 0);
        ReportCorruption(lost, "unknown record type");
        assembling = false;
        scratch->clear();
        break;
      }
    }
  }
}

bool Reader::AppendableAt(uint64_t end, uint64_t size) {
  if (end == size) return true;
  return end < size && size % kBlockSize == 0 &&
         size - end < static_cast<uint64_t>(kHeaderSize);
}

bool Reader::FillBuffer() {
  buffer_ = Slice();
  Status s = file_->Read(kBlockSize, &buffer_, backing_store_);
  end_of_buffer_offset_ += buffer_.size();
  if (!s.ok()) {
    buffer_ = Slice();
    ReportDrop(kBlockSize, s);
    eof_ = true;
    return false;
  }
  if (buffer_.size() < static_cast<size_t>(kBlockSize)) eof_ = true;
  return true;
}

unsigned int Reader::ReadPhysicalRecord(Slice* fragment) {
  *fragment = Slice();
  for (;;) {
    if (buffer_.size() < static_cast<size_t>(kHeaderSize)) {
      // Whatever is left is a zero-filled block tail, or (at end of file)
      // a header the writer did not finish.
      if (eof_) {
        buffer_ = Slice();
        return kEof;
      }
      if (!FillBuffer()) return kEof;
      continue;
    }

    const char* header = buffer_.data();
    const uint32_t length = static_cast<uint32_t>(
        static_cast<uint8_t>(header[4]) |
        (static_cast<uint32_t>(static_cast<uint8_t>(header[5])) << 8));
    const unsigned int type = static_cast<uint8_t>(header[6]);

    if (kHeaderSize + length > buffer_.size()) {
      const size_t dropped = buffer_.size();
      buffer_ = Slice();
      if (eof_) return kEof;  // writer died mid-record: not corruption
      ReportCorruption(dropped, "bad record length");
      return kBadRecord;
    }

    if (type == kZeroType && length == 0) {
      // Preallocated, never-written space (e.g. from mmap-based writers).
      buffer_ = Slice();
      return kBadRecord;
    }

    if (checksum_) {
      const uint32_t stored = crc32c::Unmask(LoadFixed32(header));
      const uint32_t actual = crc32c::Value(header + 6, 1 + length);
      if (stored != actual) {
        // The length may itself be corrupt, so nothing else in this block
        // can be trusted.
        const size_t dropped = buffer_.size();
        buffer_ = Slice();
        ReportCorruption(dropped, "checksum mismatch");
        return kBadRecord;
      }
    }

    buffer_.remove_prefix(kHeaderSize + length);

    const uint64_t record_start =
        end_of_buffer_offset_ - buffer_.size() - kHeaderSize - length;
    if (record_start < initial_offset_) return kBadRecord;

    *fragment = Slice(header + kHeaderSize, length);
    return type;
  }
}

void Reader::ReportCorruption(uint64_t bytes, const char* reason) {
  ReportDrop(bytes, Status::Corruption(reason));
}

void Reader::ReportDrop(uint64_t bytes, const Status& reason) {
  if (reporter_ == nullptr) return;
  // Only report losses at or after initial_offset; earlier data was not
  // asked for. I/O errors are always reported.
  const uint64_t end = end_of_buffer_offset_ - buffer_.size();
  const uint64_t start = bytes <= end ? end - bytes : 0;
  if (!reason.IsCorruption() || start >= initial_offset_) {
    reporter_->Corruption(static_cast<size_t>(bytes), reason);
  }
}

}  // namespace log
}  // namespace leveldb
