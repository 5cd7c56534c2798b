#include "elastic/memo_sizer.h"

#include <algorithm>

namespace leveldb {

MemoSizer::MemoSizer(const Options& options) : options_(options) {}

size_t MemoSizer::Clamp(size_t bytes) const {
  const size_t low = FalsePositiveMemo::RoundBytes(options_.min_bytes);
  const size_t high = FalsePositiveMemo::RoundBytes(options_.max_bytes);
  return std::min(std::max(FalsePositiveMemo::RoundBytes(bytes), low), high);
}

size_t MemoSizer::InitialBytes() const { return Clamp(options_.max_bytes); }

bool MemoSizer::Starts(const Sample& sample) const {
  return !started_ || sample.bytes != last_.bytes || sample.now < last_.now;
}

bool MemoSizer::Due(const Sample& sample) const {
  return !Starts(sample) && sample.bytes > 0 &&
         sample.now - last_.now >= options_.window_gets;
}

size_t MemoSizer::Shrunk(const Sample& sample) {
  const size_t half = Clamp(sample.bytes / 2);
  if (half < sample.bytes) return half;
  resting_ = true;
  rest_start_ = sample.now;
  return 0;
}

size_t MemoSizer::Next(const Sample& sample, const UnitValues& units) {
  if (resting_) {
    const uint64_t rest = options_.window_gets * options_.rest_windows;
    if (sample.now >= rest_start_ && sample.now - rest_start_ < rest) {
      return 0;
    }
    // Rested (or the clock went back): measure again at the smallest size.
    resting_ = false;
    started_ = false;
    ++grows_;
    return Clamp(options_.min_bytes);
  }
  if (Starts(sample)) {
    // A new window starts with the memo's current size (the budget may have
    // granted less than asked).
    started_ = true;
    last_ = sample;
    return sample.bytes;
  }
  if (!Due(sample)) return sample.bytes;
  const uint64_t gets = sample.now - last_.now;
  uint64_t hits[kRanks];
  for (int r = 0; r < kRanks; ++r) {
    hits[r] = sample.hits_at[r] - last_.hits_at[r];
  }
  last_ = sample;
  // Reads per Get per byte. A doubling adds kRanks more quarters, each
  // earning less than the one before: the fall from the next-to-oldest
  // quarter to the oldest, repeated. Halving loses the older half.
  const double bytes = static_cast<double>(sample.bytes);
  const double per_get = 1.0 / static_cast<double>(gets);
  const uint64_t oldest = hits[kRanks - 1];
  const uint64_t next_oldest = hits[kRanks - 2];
  const double fall =
      next_oldest > oldest ? static_cast<double>(oldest) / next_oldest : 1.0;
  double doubling_hits = 0;
  double quarter_hits = static_cast<double>(oldest);
  for (int r = 0; r < kRanks; ++r) {
    quarter_hits *= fall;
    doubling_hits += quarter_hits;
  }
  uint64_t older_half = 0;
  for (int r = kRanks / 2; r < kRanks; ++r) older_half += hits[r];
  const double doubling_value = doubling_hits * per_get / bytes;
  const double older_half_value = older_half * per_get / (bytes / 2);
  size_t wanted = sample.bytes;
  if (oldest >= options_.min_hits &&
      doubling_value > units.taken * options_.margin) {
    wanted = Clamp(sample.bytes * 2);
  } else if (older_half_value * options_.margin < units.given) {
    wanted = Shrunk(sample);
  }
  if (wanted > sample.bytes) ++grows_;
  if (wanted < sample.bytes) ++shrinks_;
  // The next window starts now, at the new size (if the budget grants
  // less, it starts again when that shows).
  last_.bytes = wanted;
  return wanted;
}

}  // namespace leveldb
