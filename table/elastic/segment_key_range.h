// The user-key range of one ElasticBF segment (table/elastic/segment.h), as
// a table writer records it and hotness inheritance matches it against
// other tables' segments.
#ifndef STORAGE_LEVELDB_TABLE_ELASTIC_SEGMENT_KEY_RANGE_H_
#define STORAGE_LEVELDB_TABLE_ELASTIC_SEGMENT_KEY_RANGE_H_

#include <string>

namespace leveldb {

// The user-key range [first, last] (both inclusive) of one segment.
struct SegmentKeyRange {
  std::string first;
  std::string last;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_ELASTIC_SEGMENT_KEY_RANGE_H_
