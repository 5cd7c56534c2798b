// ElasticBF hotness inheritance (paper §3.3): a segment written by a
// compaction starts with the mean hotness of the input segments whose key
// ranges overlap it, so hot data keeps its filters across compactions.
//
// "Mean hotness" of the overlapping input segments, field by field:
//   absent_probes, accesses: arithmetic mean, rounded to the nearest integer
//     (halves up). Output segments have about the size of input segments
//     (one filter unit per page), so per-segment counts keep their scale.
//   last_access: the maximum. Expiry asks whether a key range is still in
//     use; one recently probed input says it is. The mean of timestamps
//     has no such meaning: mixing a never-probed input (time 0) with a hot
//     one would make the new segment look long expired and lose its units.
//   units (the filter units to start with): arithmetic mean of the units
//     the inputs held, rounded to the nearest integer, over inputs whose
//     units are known.
// Inputs of unknown hotness (tables without filter groups) are left out.
// An output segment that overlaps no known input segment gets zero hotness
// and no unit target (it starts like a flushed table, with initial_units).
#ifndef STORAGE_LEVELDB_UTIL_HOTNESS_INHERITANCE_H_
#define STORAGE_LEVELDB_UTIL_HOTNESS_INHERITANCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "leveldb/slice.h"
#include "util/multi_queue.h"

namespace leveldb {

class Comparator;

// Per-segment hotness of one table: what its segments start with when the
// table is opened (inherited from a compaction's inputs, or recorded in the
// MANIFEST by an earlier run).
struct InheritedHotness {
  // One entry per segment.
  std::vector<MultiQueue::Hotness> segments;
  // Empty, or one entry per segment: the filter units the segment should
  // hold, as the budget allows; a negative entry means "no target" (the
  // table's initial_units applies).
  std::vector<int> units;

  // units[segment], or -1 when there is no target.
  int UnitTarget(size_t segment) const;

  // Equal segment hotness and unit targets ("no units" equals all -1).
  bool operator==(const InheritedHotness& other) const;
  bool operator!=(const InheritedHotness& other) const {
    return !(*this == other);
  }
};

// The user-key range [first, last] (both inclusive) of one segment.
struct SegmentKeyRange {
  std::string first;
  std::string last;
};

// One input segment: its user-key range (a superset of its keys is fine)
// and what it knew when the output was cut.
struct InputSegment {
  Slice first;
  Slice last;
  MultiQueue::Hotness hotness;
  int units = -1;  // filter units it held; negative: unknown
};

// For each output segment (in any order), the mean hotness of the input
// segments overlapping it, as defined above. `input_tables` holds one list
// per input table, each in key order (neighbours may share an end key);
// tables may overlap each other (level 0). The result has one entry per
// output segment in `segments` and in `units`.
InheritedHotness InheritSegmentHotness(
    const Comparator* ucmp,
    const std::vector<std::vector<InputSegment>>& input_tables,
    const std::vector<SegmentKeyRange>& output_segments);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_HOTNESS_INHERITANCE_H_
