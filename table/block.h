// An immutable, decoded-on-the-fly view of one table block, and the
// iterator over its entries.
#ifndef STORAGE_LEVELDB_TABLE_BLOCK_H_
#define STORAGE_LEVELDB_TABLE_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "leveldb/iterator.h"
#include "table/format.h"

namespace leveldb {

class Comparator;

class Block {
 public:
  // Takes ownership of contents.data when contents.heap_allocated is set.
  explicit Block(const BlockContents& contents);

  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  ~Block();

  // Bytes held by the block (its cache charge).
  size_t size() const { return size_; }

  // False when the trailing restart array cannot be right; iterators over
  // such a block report Corruption.
  bool ok() const { return restarts_valid_; }

  // Heap-allocated iterator; the block must outlive it.
  Iterator* NewIterator(const Comparator* comparator) const;

  // Restart points of the block (every entry of an index block is one).
  uint32_t num_restarts() const { return num_restarts_; }

 private:
  friend class BlockIterator;

  const char* data_;
  size_t size_;
  uint32_t restarts_offset_;  // where the restart array begins
  uint32_t num_restarts_;
  bool restarts_valid_;
  bool owned_;
};

// Iterator over a Block. Public so hot paths can keep one on the stack; use
// Block::NewIterator otherwise. The block must outlive the iterator.
class BlockIterator final : public Iterator {
 public:
  BlockIterator(const Comparator* comparator, const Block* block);

  bool Valid() const override { return current_ < restarts_offset_; }
  Status status() const override { return status_; }
  Slice key() const override { return key_; }
  Slice value() const override { return value_; }

  void Next() override;
  void Prev() override;
  void Seek(const Slice& target) override;
  // Seek, for a caller who knows that the first entry >= target starts
  // restart run `first` or comes after it, and comes no later than run
  // `last`: the binary search covers those runs only.
  void SeekInRestarts(const Slice& target, uint32_t first, uint32_t last);
  void SeekToFirst() override;
  void SeekToLast() override;

 private:
  // Offset just past the current entry (the start of the next one).
  uint32_t EndOfCurrent() const {
    return static_cast<uint32_t>(value_.data() + value_.size() - data_);
  }

  // Reads restart point `index` into *offset; on a bad offset marks the
  // iterator corrupt and returns false.
  bool RestartPoint(uint32_t index, uint32_t* offset);

  // Positions just before the first entry of restart run `index`.
  bool SeekToRestartPoint(uint32_t index);

  // Decodes the entry after the current one. Returns false at the end of
  // the block or on corruption (then status() says so).
  bool ParseNextEntry();

  // Full key stored at restart point `index` (its entry shares nothing).
  bool RestartKey(uint32_t index, Slice* key);

  void MarkInvalid();
  void MarkCorrupt();

  const Comparator* const comparator_;
  const char* const data_;
  const uint32_t restarts_offset_;
  const uint32_t num_restarts_;

  uint32_t current_;        // offset of the current entry; invalid if past
  uint32_t restart_index_;  // last restart point at or before current_
  // Entries stored with their full key (every restart point, so every
  // index entry) are served straight from the block; only keys rebuilt
  // from a shared prefix are assembled in key_buffer_.
  Slice key_;
  std::string key_buffer_;
  Slice value_;
  Status status_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_BLOCK_H_
