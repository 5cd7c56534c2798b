// Segment ids: one number naming a segment of a table file, as the access
// ring, the filter layer and the MultiQueue carry it.
#ifndef STORAGE_LEVELDB_ELASTIC_SEGMENT_ID_H_
#define STORAGE_LEVELDB_ELASTIC_SEGMENT_ID_H_

#include <cstdint>

#include "table/elastic/limits.h"

namespace leveldb {

// (file_number << kElasticSegmentIndexBits) | segment_index.
using SegmentId = uint64_t;

inline SegmentId MakeSegmentId(uint64_t file_number, uint32_t index) {
  return (file_number << kElasticSegmentIndexBits) |
         (index & (kMaxElasticSegments - 1));
}
inline uint64_t FileNumberOf(SegmentId id) {
  return id >> kElasticSegmentIndexBits;
}
inline uint32_t SegmentIndexOf(SegmentId id) {
  return static_cast<uint32_t>(id & (kMaxElasticSegments - 1));
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_SEGMENT_ID_H_
