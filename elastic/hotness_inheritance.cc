#include "elastic/hotness_inheritance.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "leveldb/comparator.h"

namespace leveldb {

namespace {

// How many of the (key-ordered) output segments overlap [first, last].
size_t OutputsOverlapping(const Comparator* ucmp,
                          const std::vector<SegmentKeyRange>& outputs,
                          const Slice& first, const Slice& last) {
  auto begin =
      std::lower_bound(outputs.begin(), outputs.end(), first,
                       [ucmp](const SegmentKeyRange& o, const Slice& k) {
                         return ucmp->Compare(Slice(o.last), k) < 0;
                       });
  size_t n = 0;
  for (auto it = begin;
       it != outputs.end() && ucmp->Compare(Slice(it->first), last) <= 0;
       ++it) {
    ++n;
  }
  return n;
}

uint64_t RoundToCount(double x) {
  if (!(x > 0)) return 0;
  // 2^64 as a double; anything at or above it saturates.
  if (x >= 18446744073709551616.0) return std::numeric_limits<uint64_t>::max();
  return static_cast<uint64_t>(std::floor(x + 0.5));
}

// What one input level says about one output segment.
class LevelEstimate {
 public:
  // Starts the shares of a new input table.
  void BeginTable() {
    table_absent_ = table_accesses_ = 0;
    table_hit_ = false;
  }
  // `in` overlaps the output segment and `spread` output segments overall.
  void Add(const InputSegment& in, size_t spread) {
    table_absent_ += static_cast<double>(in.hotness.absent_probes) / spread;
    table_accesses_ += static_cast<double>(in.hotness.accesses) / spread;
    table_hit_ = true;
    last_access_ = std::max(last_access_, in.hotness.last_access);
    if (in.units >= 0) {
      units_ += static_cast<uint64_t>(in.units);
      ++units_count_;
    }
  }
  void EndTable() {
    if (!table_hit_) return;
    absent_ += table_absent_;
    accesses_ += table_accesses_;
    ++tables_;
  }

  bool empty() const { return tables_ == 0; }
  uint64_t last_access() const { return last_access_; }

  // Overlapping tables saw the same probes: their mean; disjoint tables
  // cover different keys of the segment: their sum.
  double Absent(bool tables_overlap) const {
    return tables_overlap ? absent_ / tables_ : absent_;
  }
  double Accesses(bool tables_overlap) const {
    return tables_overlap ? accesses_ / tables_ : accesses_;
  }
  // Rounded mean of the known units (halves up); -1 if none is known.
  int Units() const {
    if (units_count_ == 0) return -1;
    return static_cast<int>((units_ + units_count_ / 2) / units_count_);
  }

 private:
  double table_absent_ = 0;
  double table_accesses_ = 0;
  bool table_hit_ = false;
  double absent_ = 0;
  double accesses_ = 0;
  uint64_t tables_ = 0;
  uint64_t last_access_ = 0;
  unsigned __int128 units_ = 0;
  uint64_t units_count_ = 0;
};

}  // namespace

int InheritedHotness::UnitTarget(size_t segment) const {
  return segment < units.size() && units[segment] >= 0 ? units[segment] : -1;
}

bool InheritedHotness::operator==(const InheritedHotness& other) const {
  if (segments.size() != other.segments.size()) return false;
  for (size_t i = 0; i < segments.size(); ++i) {
    const MultiQueue::Hotness& a = segments[i];
    const MultiQueue::Hotness& b = other.segments[i];
    if (a.absent_probes != b.absent_probes || a.accesses != b.accesses ||
        a.last_access != b.last_access ||
        UnitTarget(i) != other.UnitTarget(i)) {
      return false;
    }
  }
  return true;
}

InheritedHotness InheritSegmentHotness(
    const Comparator* ucmp, const std::vector<InputLevel>& input_levels,
    const std::vector<SegmentKeyRange>& output_segments) {
  InheritedHotness result;
  result.segments.reserve(output_segments.size());
  result.units.reserve(output_segments.size());
  for (const SegmentKeyRange& out : output_segments) {
    const Slice lo(out.first);
    const Slice hi(out.last);
    MultiQueue::Hotness best;
    int best_units = -1;
    bool found = false;
    double best_absent = -1;
    uint64_t last_access = 0;
    for (const InputLevel& level : input_levels) {
      LevelEstimate estimate;
      for (const std::vector<InputSegment>& table : level.tables) {
        estimate.BeginTable();
        // Segments are in key order: skip those ending before the output
        // starts, take them while they start no later than it ends.
        auto it =
            std::lower_bound(table.begin(), table.end(), lo,
                             [ucmp](const InputSegment& in, const Slice& k) {
                               return ucmp->Compare(in.last, k) < 0;
                             });
        for (; it != table.end() && ucmp->Compare(it->first, hi) <= 0; ++it) {
          const size_t spread =
              OutputsOverlapping(ucmp, output_segments, it->first, it->last);
          estimate.Add(*it, std::max<size_t>(spread, 1));
        }
        estimate.EndTable();
      }
      if (estimate.empty()) continue;
      last_access = std::max(last_access, estimate.last_access());
      const double absent = estimate.Absent(level.tables_overlap);
      // Ties go to the later level (the output level).
      if (absent >= best_absent) {
        best_absent = absent;
        best.absent_probes = RoundToCount(absent);
        best.accesses = RoundToCount(estimate.Accesses(level.tables_overlap));
        best_units = estimate.Units();
        found = true;
      }
    }
    if (found) best.last_access = last_access;
    result.segments.push_back(found ? best : MultiQueue::Hotness());
    result.units.push_back(found ? best_units : -1);
  }
  return result;
}

}  // namespace leveldb
