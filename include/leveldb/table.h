// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.

#ifndef STORAGE_LEVELDB_INCLUDE_TABLE_H_
#define STORAGE_LEVELDB_INCLUDE_TABLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "leveldb/export.h"
#include "leveldb/iterator.h"

namespace leveldb {

class Block;
class BlockHandle;
class Footer;
struct InheritedHotness;
class MQSchedule;
struct Options;
class RandomAccessFile;
struct ReadOptions;
class TableCache;
struct TableReadContext;

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

  // The same with per-lookup state (may be null): uses ctx's key hash for
  // ElasticBF, reports what the probe did in ctx's flags and counters, and
  // records the access with the MQSchedule. When ctx is not null the caller
  // must be inside an EpochGuard of the attached MQSchedule's epoch() for
  // the whole call, and its handle_result must set ctx->key_matched when
  // the entry it is given has the user key looked up.
  Status InternalGet(const ReadOptions&, const Slice& key, void* arg,
                     void (*handle_result)(void* arg, const Slice& k,
                                           const Slice& v),
                     TableReadContext* ctx);

  // ElasticBF: registers this table (file `file_number`) with the DB's
  // MQSchedule, which loads its initial filter units. No-op (OK) for a
  // table without filter groups. Call once; the destructor detaches.
  Status AttachElastic(MQSchedule* mqs, uint64_t file_number,
                       const InheritedHotness* inherited);

  // ElasticBF: for each segment, in order, the index key (a separator, no
  // smaller than every key of the block) of its last data block: an upper
  // bound of the segment's keys and a lower bound of the next segment's.
  // Empty for a table without filter groups; an entry stays empty for a
  // segment that holds no block. Corruption if the index cannot be read.
  Status ElasticSegmentBounds(std::vector<std::string>* bounds) const;

  void ReadMeta(const Footer& footer);
  void ReadFilter(const Slice& filter_handle_value);
  void ReadElasticIndex(const Slice& index_handle_value);

  Rep* const rep_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_TABLE_H_
