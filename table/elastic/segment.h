// ElasticBF segments. This is the one definition; other comments and
// docs/elasticbf.md ("Segments") refer to it.
//
// A segment is a run of consecutive data blocks of one table whose keys
// share one filter group (table/elastic/filter_group.h); units, hotness and
// memory decisions all work per segment. While a table is written, its open
// segment is closed at the first data-block boundary at which it holds
//   - at least ElasticFilterOptions::segment_bytes bytes of data blocks,
//     when that option is set, or else (segment_bytes = 0, the default)
//   - at least kSegmentUnitPageBytes * 8 / bits_per_unit keys, so that each
//     of its units fills about one page;
// the table's last segment takes whatever is left. ElasticFilterPolicy::
// SegmentComplete applies this rule. With Ribbon units a segment also
// closes once one more block as large as its table's largest so far could
// take it past kMaxRibbonSegmentKeys (FilterGroupBuilder applies that). A
// segment thus never splits a data block: a block belongs to the last segment
// starting at or before it. Segments are numbered from 0 in file order within
// their table.
#ifndef STORAGE_LEVELDB_TABLE_ELASTIC_SEGMENT_H_
#define STORAGE_LEVELDB_TABLE_ELASTIC_SEGMENT_H_

#include <cstdint>

namespace leveldb {

// The page size a unit of a segment cut by key count is sized for.
constexpr int kSegmentUnitPageBytes = 4096;

// The key count that completes a segment for units of bits_per_unit bits
// per key (in [1, kMaxElasticBitsPerUnit]): each unit about one page.
constexpr int SegmentKeysForBits(int bits_per_unit) {
  return kSegmentUnitPageBytes * 8 / bits_per_unit;
}

// The rule above: an open segment holding `keys` keys and `data_bytes`
// bytes of data blocks is complete (and closes at this block boundary)
// once it reaches segment_bytes when that is set, else segment_keys keys.
inline bool SegmentIsComplete(uint64_t keys, uint64_t data_bytes,
                              uint64_t segment_bytes, uint64_t segment_keys) {
  if (segment_bytes != 0) return data_bytes >= segment_bytes;
  return keys >= segment_keys;
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_ELASTIC_SEGMENT_H_
