// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.

#ifndef STORAGE_LEVELDB_INCLUDE_COMPARATOR_H_
#define STORAGE_LEVELDB_INCLUDE_COMPARATOR_H_

#include <string>

#include "leveldb/export.h"

namespace leveldb {

class Slice;

// Defines a total order on keys, used both inside table files and for the
// database as a whole.  Implementations are called from many threads at
// once and must therefore be thread-safe.
class LEVELDB_EXPORT Comparator {
 public:
  virtual ~Comparator();

  // Negative if a orders before b, zero if they are equal, positive if a
  // orders after b.
  virtual int Compare(const Slice& a, const Slice& b) const = 0;

  // Identifies the ordering.  It is stored with the database, and opening
  // the database with a comparator of a different name fails.  Pick a new
  // name whenever the ordering changes.  Names beginning with "leveldb."
  // belong to the library.
  virtual const char* Name() const = 0;

  // The two methods below let the library shorten keys it stores in index
  // structures.  Doing nothing is always a correct implementation.

  // When *start < limit, may replace *start with a shorter key k such that
  // *start <= k < limit.
  virtual void FindShortestSeparator(std::string* start,
                                     const Slice& limit) const = 0;

  // May replace *key with a shorter key that is >= the original.
  virtual void FindShortSuccessor(std::string* key) const = 0;
};

// The built-in comparator that orders keys by unsigned byte-wise
// lexicographic comparison.  It is a singleton owned by the library; do not
// delete it.
LEVELDB_EXPORT const Comparator* BytewiseComparator();

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_COMPARATOR_H_
