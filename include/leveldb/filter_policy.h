// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.
//
// A FilterPolicy builds compact summaries ("filters") of the keys stored in
// a table.  The filters are saved alongside the data and checked before
// reading from disk, so that most lookups of absent keys cost no disk seek
// at all.  NewBloomFilterPolicy() is the usual choice.

#ifndef STORAGE_LEVELDB_INCLUDE_FILTER_POLICY_H_
#define STORAGE_LEVELDB_INCLUDE_FILTER_POLICY_H_

#include <string>

#include "leveldb/export.h"

namespace leveldb {

class Slice;

class LEVELDB_EXPORT FilterPolicy {
 public:
  virtual ~FilterPolicy();

  // Identifies the filter encoding; it is recorded in every table.  Change
  // it whenever the encoding changes incompatibly, so that old filters are
  // never interpreted with the new code.
  virtual const char* Name() const = 0;

  // Appends to *dst a filter summarising keys[0, n).  The keys are sorted by
  // the database comparator and may contain duplicates.  Existing contents
  // of *dst must be preserved.
  virtual void CreateFilter(const Slice* keys, int n,
                            std::string* dst) const = 0;

  // `filter` is something CreateFilter() produced.  Must return true for
  // every key that was passed to CreateFilter(); for other keys it should
  // return false as often as possible.
  virtual bool KeyMayMatch(const Slice& key, const Slice& filter) const = 0;
};

// A Bloom filter policy spending about bits_per_key bits per key (10 gives
// roughly a 1% false-positive rate).  The caller owns the result and must
// keep it alive until every database using it has been closed.
//
// The Bloom filter hashes whole user keys.  If a custom comparator treats
// keys that differ in some bytes as equal, this policy is unsuitable; write
// a FilterPolicy that ignores the same bytes instead.
LEVELDB_EXPORT const FilterPolicy* NewBloomFilterPolicy(int bits_per_key);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_FILTER_POLICY_H_
