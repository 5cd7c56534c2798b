#include "table/block.h"

#include <algorithm>
#include <limits>

#include "leveldb/comparator.h"
#include "util/coding.h"

namespace leveldb {

Block::Block(const BlockContents& contents)
    : data_(contents.data.data()),
      size_(contents.data.size()),
      restarts_offset_(0),
      num_restarts_(0),
      restarts_valid_(false),
      owned_(contents.heap_allocated) {
  // Restart offsets are 32-bit, so a well-formed block is at most 4 GiB.
  if (size_ < sizeof(uint32_t) ||
      size_ > std::numeric_limits<uint32_t>::max()) {
    return;
  }
  const uint32_t count = LoadFixed32(data_ + size_ - sizeof(uint32_t));
  const size_t room = (size_ - sizeof(uint32_t)) / sizeof(uint32_t);
  // Every block written has at least one restart point (offset 0).
  if (count == 0 || count > room) return;
  num_restarts_ = count;
  restarts_offset_ =
      static_cast<uint32_t>(size_ - (1 + count) * sizeof(uint32_t));
  restarts_valid_ = true;
}

Block::~Block() {
  if (owned_) delete[] data_;
}

Iterator* Block::NewIterator(const Comparator* comparator) const {
  return new BlockIterator(comparator, this);
}

namespace {

// Decodes the three lengths of the entry at p and returns where its key
// delta starts, or nullptr if the header or the bytes it announces do not
// fit before limit.
const char* DecodeEntry(const char* p, const char* limit, uint32_t* shared,
                        uint32_t* unshared, uint32_t* value_length) {
  if (limit - p < 3) return nullptr;
  const uint8_t* u = reinterpret_cast<const uint8_t*>(p);
  if ((u[0] | u[1] | u[2]) < 0x80) {
    // Common case: all three lengths fit in one byte each.
    *shared = u[0];
    *unshared = u[1];
    *value_length = u[2];
    p += 3;
  } else {
    p = ParseVarint32(p, limit, shared);
    if (p != nullptr) p = ParseVarint32(p, limit, unshared);
    if (p != nullptr) p = ParseVarint32(p, limit, value_length);
    if (p == nullptr) return nullptr;
  }
  const uint64_t needed = uint64_t{*unshared} + *value_length;
  if (static_cast<uint64_t>(limit - p) < needed) return nullptr;
  return p;
}

}  // namespace

BlockIterator::BlockIterator(const Comparator* comparator, const Block* block)
    : comparator_(comparator),
      data_(block->data_),
      restarts_offset_(block->restarts_offset_),
      num_restarts_(block->num_restarts_),
      current_(block->restarts_offset_),
      restart_index_(block->num_restarts_) {
  if (!block->ok()) status_ = Status::Corruption("bad block contents");
}

void BlockIterator::MarkInvalid() {
  current_ = restarts_offset_;
  restart_index_ = num_restarts_;
}

void BlockIterator::MarkCorrupt() {
  MarkInvalid();
  status_ = Status::Corruption("bad entry in block");
  key_.clear();
  value_.clear();
}

bool BlockIterator::RestartPoint(uint32_t index, uint32_t* offset) {
  const uint32_t value =
      LoadFixed32(data_ + restarts_offset_ + index * sizeof(uint32_t));
  // Equality is legal only for an empty block.
  if (value > restarts_offset_) {
    MarkCorrupt();
    return false;
  }
  *offset = value;
  return true;
}

bool BlockIterator::SeekToRestartPoint(uint32_t index) {
  uint32_t offset;
  if (!RestartPoint(index, &offset)) return false;
  key_.clear();
  restart_index_ = index;
  // An empty value ending at `offset` makes ParseNextEntry start there.
  value_ = Slice(data_ + offset, 0);
  return true;
}

bool BlockIterator::RestartKey(uint32_t index, Slice* key) {
  uint32_t offset;
  if (!RestartPoint(index, &offset)) return false;
  uint32_t shared, unshared, value_length;
  const char* p = DecodeEntry(data_ + offset, data_ + restarts_offset_, &shared,
                              &unshared, &value_length);
  if (p == nullptr || shared != 0) {
    MarkCorrupt();
    return false;
  }
  *key = Slice(p, unshared);
  return true;
}

bool BlockIterator::ParseNextEntry() {
  current_ = EndOfCurrent();
  if (current_ >= restarts_offset_) {
    MarkInvalid();
    return false;
  }
  uint32_t shared, unshared, value_length;
  const char* p = DecodeEntry(data_ + current_, data_ + restarts_offset_,
                              &shared, &unshared, &value_length);
  if (p == nullptr || shared > key_.size()) {
    MarkCorrupt();
    return false;
  }
  if (shared == 0) {
    key_ = Slice(p, unshared);
  } else {
    if (key_.data() != key_buffer_.data()) {
      key_buffer_.assign(key_.data(), shared);
    } else {
      key_buffer_.resize(shared);
    }
    key_buffer_.append(p, unshared);
    key_ = Slice(key_buffer_);
  }
  value_ = Slice(p + unshared, value_length);
  while (restart_index_ + 1 < num_restarts_) {
    uint32_t next_restart;
    if (!RestartPoint(restart_index_ + 1, &next_restart)) return false;
    if (next_restart > current_) break;
    ++restart_index_;
  }
  return true;
}

void BlockIterator::Next() {
  if (!Valid()) return;
  ParseNextEntry();
}

void BlockIterator::Prev() {
  if (!Valid()) return;
  const uint32_t original = current_;
  // Find the last restart run that starts before the current entry.
  uint32_t index = restart_index_;
  for (;;) {
    uint32_t offset;
    if (!RestartPoint(index, &offset)) return;
    if (offset < original) break;
    if (index == 0) {
      MarkInvalid();  // already at the first entry
      return;
    }
    --index;
  }
  if (!SeekToRestartPoint(index)) return;
  // Walk forward to the entry that ends where the original one begins.
  do {
    if (!ParseNextEntry()) return;
  } while (EndOfCurrent() < original);
  if (EndOfCurrent() != original) MarkCorrupt();
}

void BlockIterator::Seek(const Slice& target) {
  SeekInRestarts(target, 0, num_restarts_ == 0 ? 0 : num_restarts_ - 1);
}

void BlockIterator::SeekInRestarts(const Slice& target, uint32_t first,
                                   uint32_t last) {
  if (num_restarts_ == 0) {
    MarkInvalid();
    return;
  }
  // Binary search for the last restart point whose key is < target; the
  // first entry >= target is in that run or starts the following one.
  uint32_t hi = std::min(last, num_restarts_ - 1);
  uint32_t lo = std::min(first, hi);
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo + 1) / 2;
    Slice mid_key;
    if (!RestartKey(mid, &mid_key)) return;
    if (comparator_->Compare(mid_key, target) < 0) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  if (!SeekToRestartPoint(lo)) return;
  while (ParseNextEntry()) {
    if (comparator_->Compare(key_, target) >= 0) return;
  }
}

void BlockIterator::SeekToFirst() {
  if (num_restarts_ == 0) {
    MarkInvalid();
    return;
  }
  if (SeekToRestartPoint(0)) ParseNextEntry();
}

void BlockIterator::SeekToLast() {
  if (num_restarts_ == 0) {
    MarkInvalid();
    return;
  }
  if (!SeekToRestartPoint(num_restarts_ - 1)) return;
  while (ParseNextEntry() && EndOfCurrent() < restarts_offset_) {
  }
}

}  // namespace leveldb
