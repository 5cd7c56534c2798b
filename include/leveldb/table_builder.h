// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.
//
// TableBuilder writes a Table (sorted, immutable key/value file) from keys
// supplied in increasing order.
//
// Thread safety: concurrent calls to const member functions are fine.  As
// soon as one thread may call a non-const member, every thread using that
// builder needs outside synchronization.

#ifndef STORAGE_LEVELDB_INCLUDE_TABLE_BUILDER_H_
#define STORAGE_LEVELDB_INCLUDE_TABLE_BUILDER_H_

#include <cstdint>

#include "leveldb/export.h"
#include "leveldb/options.h"
#include "leveldb/status.h"

namespace leveldb {

class BlockBuilder;
class BlockHandle;
class ElasticTableBuilderAccess;
class WritableFile;

class LEVELDB_EXPORT TableBuilder {
 public:
  // Starts a table that will be written to *file.  The builder never closes
  // the file; the caller does that after Finish().
  TableBuilder(const Options& options, WritableFile* file);

  TableBuilder(const TableBuilder&) = delete;
  TableBuilder& operator=(const TableBuilder&) = delete;

  // Finish() or Abandon() must have been called first.
  ~TableBuilder();

  // Swaps in new options.  Only some fields may differ from those given to
  // the constructor (the comparator, for one, may not); if a fixed field
  // differs, an error is returned and nothing changes.
  Status ChangeOptions(const Options& options);

  // Appends an entry.  key must sort after every key added so far, and the
  // builder must not have been finished or abandoned.
  void Add(const Slice& key, const Slice& value);

  // Ends the current data block early and writes it out, so that the next
  // entry starts a new block.  Rarely needed.  Not allowed after Finish()
  // or Abandon().
  void Flush();

  // The first error encountered, or OK.
  Status status() const;

  // Writes out the remaining data and the table's metadata.  The file is
  // not touched after this returns.  Not allowed after Finish() or
  // Abandon().
  Status Finish();

  // Gives up on the table; the file is not touched after this returns.
  // Must be called before destruction whenever Finish() is not.  Not
  // allowed after Finish() or Abandon().
  void Abandon();

  // How many entries have been added.
  uint64_t NumEntries() const;

  // Bytes written to the file so far; after a successful Finish(), the size
  // of the complete table.
  uint64_t FileSize() const;

 private:
  // Internal: lets the DB read what the ElasticBF builder recorded.
  friend class ElasticTableBuilderAccess;

  bool ok() const { return status().ok(); }
  void WriteBlock(BlockBuilder* block, BlockHandle* handle);
  void WriteRawBlock(const Slice& data, CompressionType, BlockHandle* handle);

  struct Rep;
  Rep* rep_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_TABLE_BUILDER_H_
