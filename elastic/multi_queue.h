// The MultiQueue: ElasticBF's in-memory manager of filter units.
//
// Pure bookkeeping and decisions: no I/O, no threads, no locks. Its
// UnitManager calls it under the manager's mutex (the class is not
// thread-safe). It tracks, for
// every segment of every open table, how many filter units are loaded (k),
// the segment's hotness, and the memory the loaded units use, and decides
// which units to load and which to evict under a byte budget.
//
// Queue Q_k holds the attached segments with exactly k units loaded, least
// recently used first. Decisions follow ElasticBF's adjustment rule: a
// segment gains a unit when memory is free, or when expired segments found
// from Q_n down to Q_1 (LRU end first) can give up one unit each and the
// exchange lowers E[extra I/O] = sum_i f_i * r(k_i), where f_i counts the
// probes of segment i that did not find their key and r(k) = p_i^k, p_i
// the FPR of one unit of segment i. When no expired units cover it, one
// unexpired segment (the LRU end of some queue) may give a unit if the
// exchange saves more than the one read the load costs: otherwise segments
// that are all probed within a lifetime (a few equally hot ones) would keep
// whatever split of memory they first got. Segments of different unit kinds
// (Bloom and Ribbon tables in one DB) have different p: each segment attaches
// with a rate class (RateClass()), class 0 being Options::unit_fpr.
//
// Every decision is applied to the bookkeeping at once. A load is reserved:
// k grows and its bytes are charged before the I/O happens, so the budget
// holds even while loads are in flight; AbortLoad() gives the reservation
// back if the I/O fails. Victims lose their units immediately; the caller
// must unpublish and free those units.
//
// Complexity: RecordAccess is O(1); PlanAccess is O(n + victims scanned)
// because each queue's scan stops at its first unexpired segment.
#ifndef STORAGE_LEVELDB_ELASTIC_MULTI_QUEUE_H_
#define STORAGE_LEVELDB_ELASTIC_MULTI_QUEUE_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "elastic/segment_id.h"
#include "table/elastic/limits.h"

namespace leveldb {

class MultiQueue {
 public:
  // MakeSegmentId(file_number, segment_index) (elastic/segment_id.h).
  using SegmentId = leveldb::SegmentId;
  // Most distinct unit FPRs (rate classes) one queue tracks.
  static constexpr int kMaxRateClasses = 8;
  static constexpr int kSegmentIndexBits = kElasticSegmentIndexBits;
  static constexpr uint32_t kMaxSegmentsPerFile = kMaxElasticSegments;
  // Largest value of units_per_segment.
  static constexpr int kMaxUnits = kMaxElasticUnits;
  // lsm_level tags are clamped to [0, kMaxLsmLevels).
  static constexpr int kMaxLsmLevels = 16;

  struct Options {
    int units_per_segment = 6;  // n, clamped to [1, kMaxUnits]
    double unit_fpr = 0.5;      // FPR of one unit of class 0, clamped to [0, 1]
    // A segment is expired when now - last_access > lifetime. 0 = auto:
    // max(min_auto_lifetime, number of attached segments).
    uint64_t lifetime = 0;
    uint64_t min_auto_lifetime = 64;
    uint64_t budget_bytes = 0;
    // Aging of the counts: every `aging_lifetimes` lifetimes of Gets, every
    // segment's counts are halved (lazily, when next looked at), so f is a
    // recent frequency and segments of different ages compare fairly (an
    // old segment's lifetime total would otherwise outweigh a new one's).
    // 0 = counts since the segment's history began.
    uint64_t aging_lifetimes = 0;
  };

  struct Hotness {
    uint64_t absent_probes = 0;  // f: probes whose key was not present
    uint64_t accesses = 0;       // all probes
    uint64_t last_access = 0;    // logical time
  };

  // One unit a segment loses; the caller drops unit index `unit` (the
  // segment keeps units [0, unit)).
  struct Victim {
    SegmentId id;
    int unit;
  };

  struct Plan {
    int first_unit = 0;     // index of the first unit reserved
    int units_to_load = 0;  // units [first_unit, first_unit + units_to_load)
    std::vector<Victim> victims;
    bool load_one_more() const { return units_to_load > 0; }
  };

  // Units a segment held when it left (Detach/Forget): [0, units).
  struct Released {
    SegmentId id;
    int units;
  };

  struct Stats {
    uint64_t used_bytes = 0;
    uint64_t budget_bytes = 0;
    uint64_t lifetime = 0;
    uint64_t attached_segments = 0;
    uint64_t detached_segments = 0;
    std::vector<uint64_t> segments_per_queue;  // [k], k = 0..n
    // [lsm_level][k]: attached segments of that level with k units.
    std::vector<std::vector<uint64_t>> segments_by_level;
    uint64_t loads = 0;                // units reserved (access + initial)
    uint64_t aborted_loads = 0;        // reservations rolled back
    uint64_t evictions = 0;            // units taken from victims
    uint64_t adjustments = 0;          // PlanAccess decisions that added a unit
    uint64_t swaps = 0;                // ...of which took units from victims
    uint64_t warm_swaps = 0;           // ...of which from an unexpired one
    uint64_t rejected_no_victims = 0;  // not enough expired units
    uint64_t rejected_no_gain = 0;     // E[extra I/O] would not fall
    double expected_extra_io = 0;
  };

  explicit MultiQueue(const Options& options);

  MultiQueue(const MultiQueue&) = delete;
  MultiQueue& operator=(const MultiQueue&) = delete;

  ~MultiQueue();

  // The segment's table was opened: it joins Q_0 with no units. A segment
  // seen before (detached) keeps its recorded hotness and ignores `initial`
  // (pass inherited hotness for new segments). Its units each have the FPR
  // of `rate_class` (from RateClass()). Returns false, changing nothing, if
  // the segment is already attached or the class is unknown.
  bool Attach(SegmentId id, uint64_t unit_bytes, int lsm_level,
              const Hotness& initial, int rate_class = 0);

  // The rate class of units with FPR unit_fpr (clamped to [0, 1]), added if
  // new; class 0 is Options::unit_fpr. When kMaxRateClasses are in use, a
  // new rate maps to the known class whose rate is nearest.
  int RateClass(double unit_fpr);

  // The segment's table was closed: it leaves its queue and releases its
  // units, which the caller frees. Hotness is kept. Returns the number of
  // units it held (0 if unknown or already detached).
  int Detach(SegmentId id);

  // The table file was deleted: every segment of it is dropped, hotness
  // included. Returns the attached ones' units for the caller to free.
  std::vector<Released> Forget(uint64_t file_number);

  // False if the segment is unknown. Works for detached segments (hotness
  // inheritance reads it). Counts are aged to the latest time seen.
  bool GetHotness(SegmentId id, Hotness* hotness) const;

  // Updates the tag reported in Stats::segments_by_level.
  bool SetLsmLevel(SegmentId id, int lsm_level);

  // A Get probed the segment at logical time `now`; absent = the key was not
  // in the segment. Moves an attached segment to the MRU end of its queue.
  // Returns false if the segment is unknown.
  bool RecordAccess(SegmentId id, uint64_t now, bool absent);

  // The adjustment rule, run after RecordAccess: may reserve one more unit
  // for `id`, taking one unit from each victim. Applied immediately.
  Plan PlanAccess(SegmentId id, uint64_t now);

  // For a table being opened: reserves up to `wanted` more units for `id`,
  // from free memory first, then from expired victims as in the rule. A
  // newcomer may take units when the exchange does not raise E[extra I/O]
  // (ties favor it: its hotness is only inherited or unknown).
  Plan PlanInitialUnits(SegmentId id, int wanted, uint64_t now);

  // The load of unit `unit` failed: rolls back that reservation and any
  // above it. Returns how many units were rolled back (0 if the segment no
  // longer holds that unit, e.g. it was evicted meanwhile); the caller frees
  // any of them it already installed.
  int AbortLoad(SegmentId id, int unit);

  // Changes the budget. If usage exceeds it, evicts units (expired segments
  // first, highest queue first, LRU end first; then the LRU ends of the
  // highest queues) until it fits, and returns them.
  std::vector<Victim> SetBudget(uint64_t budget_bytes, uint64_t now);

  // What `bytes` of unit memory are worth, on the scale the false-positive
  // memo is weighed on (elastic/memo_sizer.h): the reads per Get they save,
  // per byte, on average. kTaken: the cheapest loaded units (the top unit
  // of each segment), which memory taken from the units would cost;
  // kGiven: the most valuable units not loaded (the next unit of each
  // segment), which memory given to the units could buy. 0 if there are
  // none.
  enum class UnitMemory { kTaken, kGiven };
  double UnitValue(UnitMemory which, uint64_t bytes, uint64_t now);

  // Units loaded by an attached segment; -1 if unknown or detached.
  int UnitsLoaded(SegmentId id) const;

  uint64_t used_bytes() const { return used_bytes_; }
  uint64_t budget_bytes() const { return budget_bytes_; }

  Stats GetStats() const;

 private:
  // Test-only queries and knobs (aging, invariants, E[extra I/O] from
  // scratch) are reached through it.
  friend class MultiQueueTestPeer;  // tests/elastic_test_peer.h

  struct Link {
    Link* prev;
    Link* next;
  };

  struct Segment : Link {
    SegmentId id = 0;
    uint64_t unit_bytes = 0;
    Hotness hotness;
    int units = 0;  // k; 0 when detached
    int lsm_level = 0;
    int rate_class = 0;
    bool attached = false;
    uint64_t aged_epoch = 0;  // aging epoch its counts are aged to
  };

  // Moves the aging epoch forward to `now`; then Age() halves a segment's
  // counts once per epoch it missed.
  void AdvanceClock(uint64_t now);
  void Age(Segment* s);
  // Counts halved `shift` times.
  static Hotness Halved(Hotness h, uint64_t shift);

  Segment* Find(SegmentId id);
  const Segment* Find(SegmentId id) const;
  bool Expired(const Segment& s, uint64_t now, uint64_t lifetime) const;

  // Queue membership, with every per-queue aggregate kept in step.
  void Enqueue(Segment* s, bool at_mru);
  void Dequeue(Segment* s);
  void MoveToMru(Segment* s);
  // Changes k by +1 or -1, moving the segment between queues and charging
  // or releasing its bytes. A victim goes to the LRU end of its new queue,
  // unless `warm`: then to the MRU end, so that an unexpired segment never
  // hides the expired ones of that queue from FindExpiredVictims.
  void Promote(Segment* s);
  void Demote(Segment* s, std::vector<Victim>* victims, bool warm = false);

  // Expired segments (other than s) from Q_n down to Q_1, each queue from
  // its LRU end until its first unexpired one, one unit each, until their
  // bytes plus the free bytes cover `needed`, their counts aged. Empty if
  // they never do.
  std::vector<Segment*> FindExpiredVictims(const Segment* s, uint64_t needed,
                                           uint64_t now);
  // When FindExpiredVictims finds none: among the LRU ends of Q_1..Q_n
  // (other than s), whose one unit with the free bytes covers `needed`, the
  // one losing least, its counts aged; null if there is none.
  Segment* FindWarmVictim(const Segment* s, uint64_t needed);
  // Whether a unit for s is worth taking from `victims` (expired or not).
  bool WorthSwapping(const Segment& s, const std::vector<Segment*>& victims,
                     bool expired) const;
  // sum over victims of f_v * (r(k_v - 1) - r(k_v)).
  double VictimLoss(const std::vector<Segment*>& victims) const;
  // f_s * (r(k) - r(k + 1)).
  double LoadGain(const Segment& s) const;
  uint64_t FreeBytes() const;
  // The Gets a segment's aged counts span at `now` (each count weighed by
  // the halvings since): with aging, the current epoch plus half the one
  // before and so on; without it, every Get so far.
  double AgedGets(uint64_t now) const;

  bool IsAttached(SegmentId id) const;
  bool IsExpired(SegmentId id, uint64_t now) const;
  // Automatic (or fixed) lifetime now.
  uint64_t lifetime() const;
  // r(k) = p^k for k in [0, n], p the unit FPR of `rate_class`.
  double FalsePositiveRate(int units, int rate_class = 0) const {
    return fpr_[rate_class][units];
  }
  // E[extra I/O] over attached segments, maintained incrementally.
  double ExpectedExtraIo() const;
  // The same from scratch, segment by segment.
  double RecomputeExpectedExtraIo() const;
  // Verifies every internal invariant (queue membership and links, byte
  // accounting, per-queue sums, histograms). O(segments).
  bool CheckInvariants(std::string* error) const;

  const int n_;
  const uint64_t fixed_lifetime_;  // 0 = auto
  const uint64_t min_auto_lifetime_;
  // Per rate class: its unit FPR and r(0..n).
  std::vector<double> unit_fprs_;
  std::vector<std::vector<double>> fpr_;
  uint64_t budget_bytes_;
  uint64_t used_bytes_ = 0;
  uint64_t aging_lifetimes_;
  uint64_t epoch_ = 0;        // halvings so far
  uint64_t epoch_start_ = 0;  // logical time the current epoch began

  std::unordered_map<SegmentId, Segment> segments_;  // nodes never move
  std::unordered_map<uint64_t, std::vector<SegmentId>> files_;
  uint64_t attached_ = 0;

  std::vector<Link> queues_;  // sentinels of Q_0..Q_n, LRU after sentinel
  std::vector<uint64_t> queue_len_;
  // Sum of f over each queue's segments, per rate class c:
  // E[extra I/O] = sum_c sum_k r_c(k) F_c,k, exact in integers, so it never
  // drifts from the recomputation. Indexed [c][k].
  std::vector<std::vector<uint64_t>> queue_absent_;
  // f of segment s, in its queue's per-class sum.
  uint64_t& AbsentSum(const Segment& s) {
    return queue_absent_[s.rate_class][s.units];
  }
  std::vector<std::vector<uint64_t>> level_hist_;  // [level][k]

  uint64_t loads_ = 0;
  uint64_t aborted_loads_ = 0;
  uint64_t evictions_ = 0;
  uint64_t adjustments_ = 0;
  uint64_t swaps_ = 0;
  uint64_t warm_swaps_ = 0;
  uint64_t rejected_no_victims_ = 0;
  uint64_t rejected_no_gain_ = 0;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_MULTI_QUEUE_H_
