// FilterPolicy: turns the keys of a table into a small summary, a filter,
// which is stored in the table file.  A read checks the filter first and
// does not touch the data when the filter says the key cannot be there.
// NewBloomFilterPolicy() gives the standard choice.

#ifndef STORAGE_LEVELDB_INCLUDE_FILTER_POLICY_H_
#define STORAGE_LEVELDB_INCLUDE_FILTER_POLICY_H_

#include <string>

#include "leveldb/export.h"

namespace leveldb {

class Slice;

class LEVELDB_EXPORT FilterPolicy {
 public:
  virtual ~FilterPolicy();

  // Recorded in each table next to its filter; a table's filter is only used
  // by a policy of the same name.  Return a new name after any incompatible
  // change to the filter format.
  virtual const char* Name() const = 0;

  // keys[0..n-1] come in comparator order, possibly repeated.  Builds their
  // filter and appends it to *dst; the bytes already in *dst must stay as
  // they are.
  virtual void CreateFilter(const Slice* keys, int n,
                            std::string* dst) const = 0;

  // `filter` holds bytes appended by CreateFilter().  A false result means
  // "key was not among those keys", so every one of them must give true (no
  // false negatives).  Other keys should give false as often as possible.
  virtual bool KeyMayMatch(const Slice& key, const Slice& filter) const = 0;
};

// Returns a Bloom filter policy that uses about bits_per_key bits for each
// key; 10 bits give about 1% false positives.  The caller owns it and may
// delete it only after closing every database that uses it.
//
// This filter hashes the whole user key.  A comparator that treats some
// different keys as equal (by skipping some of their bytes, say) needs a
// custom FilterPolicy that skips the same bytes; this one would miss keys.
LEVELDB_EXPORT const FilterPolicy* NewBloomFilterPolicy(int bits_per_key);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_FILTER_POLICY_H_
