// Builds one table block: prefix-compressed entries followed by the restart
// array (fixed32 offsets of entries stored with their full key) and its
// length.
#ifndef STORAGE_LEVELDB_TABLE_BLOCK_BUILDER_H_
#define STORAGE_LEVELDB_TABLE_BLOCK_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "leveldb/slice.h"

namespace leveldb {

struct Options;

class BlockBuilder {
 public:
  // Reads options->block_restart_interval on every Add, so the options may
  // change between blocks. *options must outlive the builder.
  explicit BlockBuilder(const Options* options);

  BlockBuilder(const BlockBuilder&) = delete;
  BlockBuilder& operator=(const BlockBuilder&) = delete;

  // Starts a new, empty block.
  void Reset();

  // Keys must arrive in increasing order, and not after Finish().
  void Add(const Slice& key, const Slice& value);

  // Appends the restart array and returns the finished block, which stays
  // valid until Reset() or destruction.
  Slice Finish();

  // Size of the block if it were finished now.
  size_t CurrentSizeEstimate() const;

  // The block Finish() would return after Add(key, value), built in *out;
  // the builder is left as it was.
  void FinishedCopyAfterAdding(const Slice& key, const Slice& value,
                               std::string* out) const;

  // Exactly what CurrentSizeEstimate() would return after Add(key, value).
  size_t SizeEstimateAfterAdding(const Slice& key, const Slice& value) const;

  bool empty() const { return buffer_.empty(); }

 private:
  // Bytes of `key` shared with the previous key if it were added now (0 at
  // a restart point).
  size_t SharedPrefix(const Slice& key) const;
  bool AtRestart() const;
  // Appends the entry, sharing `shared` bytes with the previous key.
  static void AppendEntry(size_t shared, const Slice& key, const Slice& value,
                          std::string* dst);

  const Options* options_;
  std::string buffer_;
  std::vector<uint32_t> restarts_;
  int entries_since_restart_;
  bool finished_;
  std::string last_key_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_BLOCK_BUILDER_H_
