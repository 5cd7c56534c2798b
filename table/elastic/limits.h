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

// Ribbon filter units (table/elastic/ribbon_unit.h): the most bit-planes one
// segment's units may hold together (units x planes per unit; every shape
// the options allow), the most one unit may hold, so that a unit's result
// bits come from at most two 64-bit words, and the most units (a unit's
// index takes one byte).
constexpr int kMaxRibbonPlanes = kMaxElasticUnits * kMaxElasticBitsPerUnit;
constexpr int kMaxRibbonPlanesPerUnit = 64;
constexpr int kMaxRibbonUnits = 64;
static_assert(kMaxElasticBitsPerUnit <= kMaxRibbonPlanesPerUnit &&
                  kMaxElasticUnits <= kMaxRibbonUnits,
              "every shape the options allow must suit Ribbon units");
// The most keys (duplicates included) one segment's Ribbon units may cover;
// building needs about 32 bytes per slot.
constexpr uint32_t kMaxRibbonSegmentKeys = uint32_t{1} << 20;

// ElasticFilterOptions::block_alignment: 0 (off) or a power of two in
// [kMinBlockAlignment, kMaxBlockAlignment].
constexpr uint64_t kMinBlockAlignment = 512;
constexpr uint64_t kMaxBlockAlignment = 65536;

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_ELASTIC_LIMITS_H_
