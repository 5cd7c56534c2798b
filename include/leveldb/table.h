// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.

#ifndef STORAGE_LEVELDB_INCLUDE_TABLE_H_
#define STORAGE_LEVELDB_INCLUDE_TABLE_H_

#include <cstdint>

#include "leveldb/export.h"
#include "leveldb/iterator.h"

namespace leveldb {

class Block;
class BlockHandle;
class Footer;
struct Options;
class RandomAccessFile;
struct ReadOptions;
class TableCache;

// An immutable, persistent, sorted string -> string map stored in one file
// (an "sstable").  Safe to use from several threads without locking.
class LEVELDB_EXPORT Table {
 public:
  // Opens the table occupying the first file_size bytes of *file and loads
  // the index and metadata needed to serve reads.  On success *table
  // receives a heap-allocated Table (delete it when done) and OK is
  // returned; on failure *table is set to nullptr.  The Table does not take
  // ownership of *file, which must stay alive as long as the Table does.
  static Status Open(const Options& options, RandomAccessFile* file,
                     uint64_t file_size, Table** table);

  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  ~Table();

  // A heap-allocated iterator over the table's entries.  It starts out
  // unpositioned; call a Seek method first.
  Iterator* NewIterator(const ReadOptions&) const;

  // Approximate file offset at which the data for `key` starts (or would
  // start, were the key present).  Measured in file bytes, so compression
  // is taken into account; for keys past the last entry the result is near
  // the file size.
  uint64_t ApproximateOffsetOf(const Slice& key) const;

 private:
  struct Rep;
  friend class TableCache;

  explicit Table(Rep* rep) : rep_(rep) {}

  // Turns an encoded block handle into an iterator over that block;
  // arg is the Table.
  static Iterator* BlockReader(void*, const ReadOptions&, const Slice&);

  // Seeks to `key` and, unless the filter proves the key absent, calls
  // handle_result(arg, found_key, found_value) for the entry it lands on.
  Status InternalGet(const ReadOptions&, const Slice& key, void* arg,
                     void (*handle_result)(void* arg, const Slice& k,
                                           const Slice& v));

  void ReadMeta(const Footer& footer);
  void ReadFilter(const Slice& filter_handle_value);

  Rep* const rep_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_TABLE_H_
