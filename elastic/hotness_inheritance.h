// ElasticBF hotness inheritance (paper §3.3): a segment written by a
// compaction starts with the hotness of the input segments whose key ranges
// overlap it, so hot data keeps its filters across compactions.
//
// Counts (absent_probes, accesses) are shared out, not copied. Each input
// segment's counts are split evenly among the output segments that overlap
// it, so a compaction conserves them: one wide upper-level segment whose
// range now holds ten output segments gives each a tenth, not its whole
// count (copying made ten segments look as hot as the one and cost units
// elsewhere; measured in eval/mixed-long/).
//
// The two input levels are averaged per key range, each on its own:
//   - within a level, shares of disjoint tables add up; tables that overlap
//     each other (level 0) saw the same probes, so their shares are
//     averaged instead;
//   - across the two levels, an absent key probes both for the same range,
//     so each level alone estimates the output's future probes. Their
//     difference is mostly age (counts grow with the time a segment
//     existed), and the output replaces segments of the older, output
//     level: the larger level estimate is taken (with its accesses and
//     unit target).
//   last_access: the maximum over all overlapping inputs. Expiry asks
//     whether a key range is still in use; one recently probed input says
//     it is.
//   units (the filter units to start with): rounded mean of the units held
//     by the overlapping inputs of the level chosen above, over inputs whose
//     units are known.
// Inputs of unknown hotness (tables without filter groups) are left out.
// An output segment that overlaps no known input segment gets zero hotness
// and no unit target (it starts like a flushed table, with initial_units).
#ifndef STORAGE_LEVELDB_ELASTIC_HOTNESS_INHERITANCE_H_
#define STORAGE_LEVELDB_ELASTIC_HOTNESS_INHERITANCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "elastic/multi_queue.h"
#include "leveldb/slice.h"
#include "table/elastic/segment_key_range.h"

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
  // table's initial_units applies). A copy for carrying targets across
  // compactions and reopens: a registered segment's target itself is kept
  // by the UnitManager only.
  std::vector<int> units;

  // units[segment], or -1 when there is no target.
  int UnitTarget(size_t segment) const;

  // Equal segment hotness and unit targets ("no units" equals all -1).
  bool operator==(const InheritedHotness& other) const;
  bool operator!=(const InheritedHotness& other) const {
    return !(*this == other);
  }
};

// One input segment: its user-key range (a superset of its keys is fine)
// and what it knew when the output was cut.
struct InputSegment {
  Slice first;
  Slice last;
  MultiQueue::Hotness hotness;
  int units = -1;  // filter units it held; negative: unknown
};

// The input tables of one level of a compaction.
struct InputLevel {
  // True when the tables may overlap each other (level 0).
  bool tables_overlap = false;
  // One list per table, each in key order (neighbours may share an end key).
  std::vector<std::vector<InputSegment>> tables;
};

// For each output segment, its inherited hotness as defined above.
// `output_segments` are the segments of one output table, in key order.
// The result has one entry per output segment in `segments` and in `units`.
InheritedHotness InheritSegmentHotness(
    const Comparator* ucmp, const std::vector<InputLevel>& input_levels,
    const std::vector<SegmentKeyRange>& output_segments);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_HOTNESS_INHERITANCE_H_
