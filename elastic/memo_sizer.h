// MemoSizer: how large a database's false-positive memo should be, weighed
// against the filter units on one scale: the reads per Get a byte saves.
//
// The memo's side is measured: its hits per Get over a window of Gets, per
// rank of the entries hit (FalsePositiveMemo keeps each set's entries from
// newest to oldest, so rank r holds about the r-th quarter of the bytes by
// age). What a doubling would earn is extrapolated from the oldest quarter:
// as many quarters again, each earning less than the one before by the
// fall from the next-to-oldest quarter to the oldest. What halving would
// lose is what the older half earned. The units' side is the MultiQueue's
// model (MultiQueue::UnitValue): what the cheapest units worth the bytes a
// doubling takes save, and what the best units not loaded would save with
// the bytes a halving gives.
//
// At the end of each window the size doubles when the memo's side wins by
// the margin, halves when the units' side does, and stays otherwise;
// always within [min_bytes, max_bytes]. The margin keeps it from swinging
// on noise. A memo at its smallest size that still does not pay is
// switched off (0 bytes: a Get then skips it at the cost of one load) for
// rest_windows windows, then measured again at the smallest size, so it
// comes back if the lookups change. A step needs a few hits to grow on.
//
// Pure decisions: no I/O, no threads, not thread-safe (the UnitManager
// calls it under its mutex).
#ifndef STORAGE_LEVELDB_ELASTIC_MEMO_SIZER_H_
#define STORAGE_LEVELDB_ELASTIC_MEMO_SIZER_H_

#include <cstddef>
#include <cstdint>

#include "elastic/false_positive_memo.h"

namespace leveldb {

class MemoSizer {
 public:
  static constexpr int kRanks = FalsePositiveMemo::kWays;

  struct Options {
    size_t min_bytes = 0;  // the smallest size (rounded as the memo rounds)
    size_t max_bytes = 0;  // the largest; 0: no memo
    uint64_t window_gets = uint64_t{1} << 16;
    double margin = 1.5;        // > 1
    uint64_t min_hits = 8;      // hits of the oldest quarter needed to grow
    uint64_t rest_windows = 8;  // windows off before measuring again
  };

  // What the memo shows at a moment: the clock (Gets), its bytes and its
  // hit counters per rank since it was made.
  struct Sample {
    uint64_t now = 0;
    size_t bytes = 0;
    uint64_t hits_at[kRanks] = {};
  };

  explicit MemoSizer(const Options& options);

  // The size to start with: the largest allowed (what was asked for, until
  // measurements say otherwise).
  size_t InitialBytes() const;

  // New bounds (they follow the budget); the next decision keeps to them.
  void SetBounds(size_t min_bytes, size_t max_bytes) {
    options_.min_bytes = min_bytes;
    options_.max_bytes = max_bytes;
  }

  // What unit memory is worth, in reads saved per Get per byte.
  struct UnitValues {
    double taken = 0;  // of the cheapest units worth sample.bytes
    double given = 0;  // of the best units not loaded worth sample.bytes / 2
  };

  // Whether Next(sample, ...) decides (a window has passed), so that the
  // caller computes the units' values only then.
  bool Due(const Sample& sample) const;

  // The size the memo should have after `sample`. Returns sample.bytes
  // until a window of Gets has passed since the last decision.
  size_t Next(const Sample& sample, const UnitValues& units);

  // Decisions that changed the size.
  uint64_t grows() const { return grows_; }
  uint64_t shrinks() const { return shrinks_; }

 private:
  size_t Clamp(size_t bytes) const;
  // Whether `sample` begins a new window (first sample, the size changed,
  // or the clock went back).
  bool Starts(const Sample& sample) const;
  // The size after a window in which the memo did not pay at `bytes`: half,
  // or off once it is at its smallest.
  size_t Shrunk(const Sample& sample);

  Options options_;
  bool started_ = false;
  Sample last_;           // the sample the current window began with
  bool resting_ = false;  // switched off since rest_start_
  uint64_t rest_start_ = 0;
  uint64_t grows_ = 0;
  uint64_t shrinks_ = 0;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_MEMO_SIZER_H_
