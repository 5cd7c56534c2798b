#include "util/hotness_inheritance.h"

#include <algorithm>

#include "leveldb/comparator.h"

namespace leveldb {

namespace {

// Running sums over the input segments overlapping one output segment.
// 128-bit sums: a mean of 64-bit counters never overflows.
class MeanAccumulator {
 public:
  void Add(const InputSegment& in) {
    absent_ += in.hotness.absent_probes;
    accesses_ += in.hotness.accesses;
    last_access_ = std::max(last_access_, in.hotness.last_access);
    ++count_;
    if (in.units >= 0) {
      units_ += static_cast<uint64_t>(in.units);
      ++units_count_;
    }
  }

  bool empty() const { return count_ == 0; }

  MultiQueue::Hotness Hotness() const {
    MultiQueue::Hotness h;
    h.absent_probes = RoundedMean(absent_, count_);
    h.accesses = RoundedMean(accesses_, count_);
    h.last_access = last_access_;
    return h;
  }

  int Units() const {
    if (units_count_ == 0) return -1;
    return static_cast<int>(RoundedMean(units_, units_count_));
  }

 private:
  // sum / n rounded to the nearest integer, halves up; n > 0.
  static uint64_t RoundedMean(unsigned __int128 sum, uint64_t n) {
    return static_cast<uint64_t>((sum + n / 2) / n);
  }

  unsigned __int128 absent_ = 0;
  unsigned __int128 accesses_ = 0;
  uint64_t last_access_ = 0;
  uint64_t count_ = 0;
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
    const Comparator* ucmp,
    const std::vector<std::vector<InputSegment>>& input_tables,
    const std::vector<SegmentKeyRange>& output_segments) {
  InheritedHotness result;
  result.segments.reserve(output_segments.size());
  result.units.reserve(output_segments.size());
  for (const SegmentKeyRange& out : output_segments) {
    const Slice lo(out.first);
    const Slice hi(out.last);
    MeanAccumulator mean;
    for (const std::vector<InputSegment>& table : input_tables) {
      // A table's segments are in key order, so their last keys are
      // non-decreasing: skip those that end before the output starts, then
      // take them while they start no later than it ends.
      auto it =
          std::lower_bound(table.begin(), table.end(), lo,
                           [ucmp](const InputSegment& in, const Slice& k) {
                             return ucmp->Compare(in.last, k) < 0;
                           });
      for (; it != table.end() && ucmp->Compare(it->first, hi) <= 0; ++it) {
        mean.Add(*it);
      }
    }
    result.segments.push_back(mean.empty() ? MultiQueue::Hotness()
                                           : mean.Hotness());
    result.units.push_back(mean.Units());
  }
  return result;
}

}  // namespace leveldb
