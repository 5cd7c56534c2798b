// The limits of ElasticBF's table format and options, defined once: the
// option validation, the elastic index decoder, the filter layer and the
// MANIFEST's hotness records all check against these.
#ifndef STORAGE_LEVELDB_TABLE_ELASTIC_LIMITS_H_
#define STORAGE_LEVELDB_TABLE_ELASTIC_LIMITS_H_

#include <cstdint>

namespace leveldb {

// Largest units_per_segment a table may declare (the option's limit).
constexpr int kMaxElasticUnits = 16;
// Largest bits_per_unit a table may declare (the option's limit).
constexpr int kMaxElasticBitsPerUnit = 32;
// Bits of a segment id that number a segment within its table file.
constexpr int kElasticSegmentIndexBits = 20;
// Largest segment count per table.
constexpr uint32_t kMaxElasticSegments = uint32_t{1}
                                         << kElasticSegmentIndexBits;

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_ELASTIC_LIMITS_H_
