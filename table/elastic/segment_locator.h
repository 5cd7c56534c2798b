// Finds the ElasticBF segment (table/elastic/segment.h) a lookup key
// belongs to without seeking the table's index block.
//
// A 64 MiB table's index holds ~16k entries, and a binary search over it
// misses the CPU cache at every step. Most tables a Get visits are ruled
// out by their units, so the segment is all those probes need: it is the
// segment of the first index entry >= key, i.e. the first segment whose
// last index key is >= key. The locator keeps just those last keys (one
// per segment, a few KiB per table), copied from the index, so its answer
// is exactly the one the index seek would give.

#ifndef STORAGE_LEVELDB_TABLE_ELASTIC_SEGMENT_LOCATOR_H_
#define STORAGE_LEVELDB_TABLE_ELASTIC_SEGMENT_LOCATOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "table/elastic/segment_key_range.h"

namespace leveldb {

class Block;
class Comparator;
class ElasticIndex;

class SegmentLocator {
 public:
  SegmentLocator() = default;
  SegmentLocator(const SegmentLocator&) = delete;
  SegmentLocator& operator=(const SegmentLocator&) = delete;

  // Scans `index_block` (ordered by `cmp`) once and keeps the last key of
  // every segment of `index`. On an undecodable block handle or an index
  // that cannot be read returns Corruption and stays unusable.
  Status Build(const Comparator* cmp, Block* index_block,
               const ElasticIndex& index);

  // True once Build succeeded.
  bool usable() const { return usable_; }

  // For a caller who knows that the comparator orders keys bytewise by
  // their user part (the whole key, or the key without its 8-byte tag when
  // internal_keys): Find then compares the user part of a key with the
  // prefix all the kept keys share, and the 8 bytes that follow it as
  // integers, calling the comparator only when those are equal. Call after
  // Build, before the locator is shared.
  void UseOrderPrefixes(bool internal_keys);

  // The index entries (restart runs of the index block) a key located in a
  // segment can only be found in: [first, last]. `known` is false when the
  // index does not have one entry per restart run.
  struct EntryRange {
    bool known = false;
    uint32_t first = 0;
    uint32_t last = 0;
  };

  // Sets *segment to the segment of the first index entry >= key (and
  // *range, if not null, to the entries of that segment) and returns true;
  // returns false when key is past the table's last entry. Requires
  // usable().
  bool Find(const Slice& key, uint32_t* segment,
            EntryRange* range = nullptr) const;

  // The first 8 bytes of `user_key` as a big-endian integer, zero-padded:
  // for keys in bytewise order, a smaller prefix means a smaller key (equal
  // prefixes decide nothing).
  static uint64_t OrderPrefix(const Slice& user_key);

  // The last index key of every segment of the index (empty for a segment
  // without data blocks). Requires usable().
  void LastKeys(std::vector<std::string>* keys) const;

  // Heap bytes held (keys, their offsets and segment numbers).
  size_t ApproximateMemoryUsage() const;

 private:
  Slice KeyAt(size_t i) const {
    const uint32_t begin = i == 0 ? 0 : ends_[i - 1];
    return Slice(keys_.data() + begin, ends_[i] - begin);
  }

  const Comparator* cmp_ = nullptr;
  bool usable_ = false;
  uint32_t num_segments_ = 0;  // of the index, blocks or not
  // Only segments with at least one data block have an entry, in order.
  std::string keys_;                // their last index keys, back to back
  std::vector<uint32_t> ends_;      // end of key i in keys_
  std::vector<uint32_t> segments_;  // segment number of key i
  // Index entry of the first block of segment i, and the entry count;
  // meaningful when entries_are_runs_ (one entry per restart run).
  std::vector<uint32_t> first_entries_;
  uint32_t num_entries_ = 0;
  bool entries_are_runs_ = false;
  // With UseOrderPrefixes: the user-key prefix shared by every kept key
  // but the last, and OrderPrefix of what follows it in key i's user part.
  std::string shared_;
  std::vector<uint64_t> prefixes_;
  bool internal_keys_ = false;
  bool last_shares_ = false;  // the last kept key starts with shared_
};

// The user-key range of each segment of a table whose entries are internal
// keys with user keys in [smallest_user_key, largest_user_key], from the
// segments' last index keys (SegmentLocator::LastKeys). A range runs from
// the separator closing the previous segment to the one closing its own:
// a superset of the segment's keys, exact at the table's two ends. Sets
// *ranges empty and returns Corruption on an index key too short to be an
// internal key.
Status SegmentKeyRanges(const std::vector<std::string>& last_keys,
                        const Slice& smallest_user_key,
                        const Slice& largest_user_key,
                        std::vector<SegmentKeyRange>* ranges);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_ELASTIC_SEGMENT_LOCATOR_H_
