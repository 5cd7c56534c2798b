// The standard filter block of a table: one filter for every 2 KiB of
// data-block file offsets, so a lookup can ask the filter of the block it
// is about to read.
//
// Layout: filter 0, filter 1, ..., then a fixed32 start offset for each
// filter, then the fixed32 offset of that array, then one byte holding
// log2 of the offset range each filter covers.
#ifndef STORAGE_LEVELDB_TABLE_FILTER_BLOCK_H_
#define STORAGE_LEVELDB_TABLE_FILTER_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "leveldb/slice.h"

namespace leveldb {

class FilterPolicy;

// log2 of the data-block offset range covered by one filter.
constexpr int kFilterBaseLg = 11;
constexpr size_t kFilterBase = size_t{1} << kFilterBaseLg;

// Call order: (StartBlock AddKey*)* Finish.
class FilterBlockBuilder {
 public:
  explicit FilterBlockBuilder(const FilterPolicy* policy);

  FilterBlockBuilder(const FilterBlockBuilder&) = delete;
  FilterBlockBuilder& operator=(const FilterBlockBuilder&) = delete;

  // The data block starting at block_offset receives the following keys.
  void StartBlock(uint64_t block_offset);
  void AddKey(const Slice& key);
  // Returns the whole filter block; valid while the builder lives.
  Slice Finish();

 private:
  // Turns the pending keys into the next filter (empty if there are none).
  void EmitFilter();

  const FilterPolicy* policy_;
  std::string key_bytes_;           // pending keys, concatenated
  std::vector<size_t> key_starts_;  // where each pending key begins
  std::string result_;              // filters emitted so far
  std::vector<uint32_t> filter_starts_;
  std::vector<Slice> key_slices_;  // scratch for CreateFilter
};

class FilterBlockReader {
 public:
  // contents must outlive the reader. Malformed contents make every query
  // answer "may match".
  FilterBlockReader(const FilterPolicy* policy, const Slice& contents);

  bool KeyMayMatch(uint64_t block_offset, const Slice& key) const;

 private:
  const FilterPolicy* policy_;
  const char* data_ = nullptr;     // start of the filter block
  const char* offsets_ = nullptr;  // start of the offset array
  size_t num_filters_ = 0;
  uint32_t offsets_start_ = 0;  // = offsets_ - data_
  int base_lg_ = 0;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_FILTER_BLOCK_H_
