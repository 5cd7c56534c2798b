#ifndef STORAGE_LEVELDB_INCLUDE_COMPARATOR_H_
#define STORAGE_LEVELDB_INCLUDE_COMPARATOR_H_

#include <string>

#include "leveldb/export.h"

namespace leveldb {

class Slice;

// Key ordering.  One Comparator orders the keys of a database and of every
// table file in it.  The library calls it from many threads in parallel, so
// implementations must be thread-safe.
class LEVELDB_EXPORT Comparator {
 public:
  virtual ~Comparator();

  // Three-way comparison: < 0 when a sorts first, 0 when a and b are equal,
  // > 0 when b sorts first.
  virtual int Compare(const Slice& a, const Slice& b) const = 0;

  // Saved in the database when it is created; an open with a comparator of
  // another name is refused.  Change the name whenever the order itself
  // changes.  The "leveldb." prefix is reserved for the library's own
  // comparators.
  virtual const char* Name() const = 0;

  // Optional key shortening, used to keep index data small.  Leaving the
  // argument as it is always counts as a valid implementation.

  // Given *start < limit, may set *start to any k, ideally a short one, with
  // *start <= k < limit.
  virtual void FindShortestSeparator(std::string* start,
                                     const Slice& limit) const = 0;

  // May set *key to any k, ideally a short one, with k >= *key.
  virtual void FindShortSuccessor(std::string* key) const = 0;
};

// Returns the default comparator: keys are compared byte by byte as
// unsigned values, and a key that is a prefix of another sorts first.  The
// library owns this single shared object; never delete it.
LEVELDB_EXPORT const Comparator* BytewiseComparator();

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_COMPARATOR_H_
