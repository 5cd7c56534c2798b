// Encoding of a WriteBatch (also the payload of each write-ahead log record):
//
//   fixed64 sequence number of the first record
//   fixed32 number of records
//   records, each one of
//     kTypeValue    (1), length-prefixed key, length-prefixed value
//     kTypeDeletion (0), length-prefixed key
#include "leveldb/write_batch.h"

#include "db/dbformat.h"
#include "db/memtable.h"
#include "db/write_batch_internal.h"
#include "leveldb/slice.h"
#include "util/coding.h"

namespace leveldb {

namespace {

constexpr size_t kSequenceOffset = 0;
constexpr size_t kCountOffset = 8;

// Replays a batch into a memtable, numbering records consecutively.
class MemTableInserter : public WriteBatch::Handler {
 public:
  MemTableInserter(SequenceNumber first, MemTable* mem)
      : next_sequence_(first), mem_(mem) {}

  void Put(const Slice& key, const Slice& value) override {
    mem_->Add(next_sequence_++, kTypeValue, key, value);
  }
  void Delete(const Slice& key) override {
    mem_->Add(next_sequence_++, kTypeDeletion, key, Slice());
  }

 private:
  SequenceNumber next_sequence_;
  MemTable* const mem_;
};

}  // namespace

WriteBatch::Handler::~Handler() = default;

WriteBatch::WriteBatch() { Clear(); }

WriteBatch::~WriteBatch() = default;

void WriteBatch::Clear() { rep_.assign(WriteBatchInternal::kHeaderSize, '\0'); }

size_t WriteBatch::ApproximateSize() const { return rep_.size(); }

void WriteBatch::Put(const Slice& key, const Slice& value) {
  WriteBatchInternal::SetCount(this, WriteBatchInternal::Count(this) + 1);
  rep_.push_back(static_cast<char>(kTypeValue));
  AppendLengthPrefixed(&rep_, key);
  AppendLengthPrefixed(&rep_, value);
}

void WriteBatch::Delete(const Slice& key) {
  WriteBatchInternal::SetCount(this, WriteBatchInternal::Count(this) + 1);
  rep_.push_back(static_cast<char>(kTypeDeletion));
  AppendLengthPrefixed(&rep_, key);
}

void WriteBatch::Append(const WriteBatch& source) {
  WriteBatchInternal::Append(this, &source);
}

Status WriteBatch::Iterate(Handler* handler) const {
  Slice input(rep_);
  if (input.size() < WriteBatchInternal::kHeaderSize) {
    return Status::Corruption("malformed WriteBatch (too small)");
  }
  input.remove_prefix(WriteBatchInternal::kHeaderSize);

  int seen = 0;
  while (!input.empty()) {
    const char tag = input[0];
    input.remove_prefix(1);
    Slice key;
    Slice value;
    switch (tag) {
      case kTypeValue:
        if (!ConsumeLengthPrefixed(&input, &key) ||
            !ConsumeLengthPrefixed(&input, &value)) {
          return Status::Corruption("bad WriteBatch Put");
        }
        handler->Put(key, value);
        break;
      case kTypeDeletion:
        if (!ConsumeLengthPrefixed(&input, &key)) {
          return Status::Corruption("bad WriteBatch Delete");
        }
        handler->Delete(key);
        break;
      default:
        return Status::Corruption("unknown WriteBatch tag");
    }
    ++seen;
  }
  if (seen != WriteBatchInternal::Count(this)) {
    return Status::Corruption("WriteBatch has wrong count");
  }
  return Status::OK();
}

// Only SetContents can leave rep_ shorter than the header (Iterate then
// reports it as malformed). The accessors below treat a missing header as
// zeros instead of reading past the end.

int WriteBatchInternal::Count(const WriteBatch* batch) {
  if (batch->rep_.size() < kHeaderSize) return 0;
  return static_cast<int>(LoadFixed32(batch->rep_.data() + kCountOffset));
}

void WriteBatchInternal::SetCount(WriteBatch* batch, int n) {
  if (batch->rep_.size() < kHeaderSize) batch->rep_.resize(kHeaderSize, '\0');
  StoreFixed32(&batch->rep_[kCountOffset], static_cast<uint32_t>(n));
}

SequenceNumber WriteBatchInternal::Sequence(const WriteBatch* batch) {
  if (batch->rep_.size() < kHeaderSize) return 0;
  return LoadFixed64(batch->rep_.data() + kSequenceOffset);
}

void WriteBatchInternal::SetSequence(WriteBatch* batch, SequenceNumber seq) {
  if (batch->rep_.size() < kHeaderSize) batch->rep_.resize(kHeaderSize, '\0');
  StoreFixed64(&batch->rep_[kSequenceOffset], seq);
}

void WriteBatchInternal::SetContents(WriteBatch* batch, const Slice& contents) {
  batch->rep_.assign(contents.data(), contents.size());
}

Status WriteBatchInternal::InsertInto(const WriteBatch* batch,
                                      MemTable* memtable) {
  MemTableInserter inserter(Sequence(batch), memtable);
  return batch->Iterate(&inserter);
}

void WriteBatchInternal::Append(WriteBatch* dst, const WriteBatch* src) {
  if (src->rep_.size() <= kHeaderSize) return;  // nothing to add
  SetCount(dst, Count(dst) + Count(src));
  dst->rep_.append(src->rep_.data() + kHeaderSize,
                   src->rep_.size() - kHeaderSize);
}

}  // namespace leveldb
