// The MultiQueue's decisions, driven by a fake logical clock.
#include "elastic/multi_queue.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/elastic_test_peer.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace {

using SegmentId = MultiQueue::SegmentId;
using Hotness = MultiQueue::Hotness;

SegmentId Seg(uint64_t file, uint32_t index) {
  return MakeSegmentId(file, index);
}

Hotness Hot(uint64_t absent, uint64_t last_access) {
  Hotness h;
  h.absent_probes = absent;
  h.accesses = absent;
  h.last_access = last_access;
  return h;
}

// n = 4 units of FPR 1/2 each, fixed lifetime 10, 100-byte units.
MultiQueue::Options SmallOptions(uint64_t budget) {
  MultiQueue::Options o;
  o.units_per_segment = 4;
  o.unit_fpr = 0.5;
  o.lifetime = 10;
  o.budget_bytes = budget;
  return o;
}

constexpr uint64_t kUnit = 100;

// SmallOptions with counts halved every `lifetimes` lifetimes.
MultiQueue::Options AgingOptions(uint64_t budget, uint64_t lifetimes) {
  MultiQueue::Options o = SmallOptions(budget);
  o.aging_lifetimes = lifetimes;
  return o;
}

// Attaches a segment and gives it `units` units from free memory.
void AttachWithUnits(MultiQueue* mq, SegmentId id, int units,
                     const Hotness& hot, uint64_t unit_bytes = kUnit) {
  ASSERT_TRUE(mq->Attach(id, unit_bytes, /*lsm_level=*/1, hot));
  MultiQueue::Plan p = mq->PlanInitialUnits(id, units, hot.last_access);
  ASSERT_EQ(units, p.units_to_load);
  ASSERT_TRUE(p.victims.empty());
}

void ExpectConsistent(const MultiQueue& mq) {
  std::string why;
  EXPECT_TRUE(MultiQueueTestPeer::CheckInvariants(&mq, &why)) << why;
}

TEST(MultiQueueTest, SegmentIdLayout) {
  const SegmentId id = Seg(12345, 678);
  EXPECT_EQ((12345ull << 20) | 678, id);
  EXPECT_EQ(12345u, FileNumberOf(id));
  EXPECT_EQ(678u, SegmentIndexOf(id));
}

TEST(MultiQueueTest, FalsePositiveRates) {
  MultiQueue mq(SmallOptions(0));
  EXPECT_EQ(1.0, MultiQueueTestPeer::FalsePositiveRate(&mq, 0));
  EXPECT_EQ(0.5, MultiQueueTestPeer::FalsePositiveRate(&mq, 1));
  EXPECT_EQ(0.0625, MultiQueueTestPeer::FalsePositiveRate(&mq, 4));
}

// (a)
TEST(MultiQueueTest, HotSegmentGainsUnitsWhileMemoryIsFree) {
  MultiQueue mq(SmallOptions(1000));
  const SegmentId a = Seg(1, 0);
  ASSERT_TRUE(mq.Attach(a, kUnit, 0, Hotness()));
  for (int k = 0; k < 4; ++k) {
    ASSERT_TRUE(mq.RecordAccess(a, k + 1, /*absent=*/true));
    MultiQueue::Plan p = mq.PlanAccess(a, k + 1);
    EXPECT_TRUE(p.load_one_more());
    EXPECT_EQ(k, p.first_unit);
    EXPECT_EQ(1, p.units_to_load);
    EXPECT_TRUE(p.victims.empty());
    EXPECT_EQ(k + 1, mq.UnitsLoaded(a));
    EXPECT_EQ((k + 1) * kUnit, mq.used_bytes());
  }
  // Full group: nothing more to load, and that is not a rejection.
  ASSERT_TRUE(mq.RecordAccess(a, 5, true));
  EXPECT_FALSE(mq.PlanAccess(a, 5).load_one_more());
  MultiQueue::Stats st = mq.GetStats();
  EXPECT_EQ(4u, st.loads);
  EXPECT_EQ(4u, st.adjustments);
  EXPECT_EQ(0u, st.swaps);
  EXPECT_EQ(0u, st.rejected_no_victims + st.rejected_no_gain);
  EXPECT_EQ(1u, st.segments_per_queue[4]);
  ExpectConsistent(mq);
}

// (b) Highest queue first, even when a lower queue holds an older segment.
TEST(MultiQueueTest, VictimsComeFromTheHighestQueueFirst) {
  MultiQueue mq(SmallOptions(5 * kUnit));
  const SegmentId w = Seg(1, 0), y = Seg(1, 1), h = Seg(2, 0);
  AttachWithUnits(&mq, y, 1, Hot(0, 1));  // oldest, in Q_1
  AttachWithUnits(&mq, w, 3, Hot(0, 5));  // in Q_3
  AttachWithUnits(&mq, h, 1, Hot(0, 6));
  ASSERT_EQ(5 * kUnit, mq.used_bytes());

  ASSERT_TRUE(mq.RecordAccess(h, 100, true));
  MultiQueue::Plan p = mq.PlanAccess(h, 100);
  ASSERT_TRUE(p.load_one_more());
  EXPECT_EQ(1, p.first_unit);
  ASSERT_EQ(1u, p.victims.size());
  EXPECT_EQ(w, p.victims[0].id);
  EXPECT_EQ(2, p.victims[0].unit);
  EXPECT_EQ(2, mq.UnitsLoaded(w));
  EXPECT_EQ(1, mq.UnitsLoaded(y));
  EXPECT_EQ(2, mq.UnitsLoaded(h));
  EXPECT_EQ(5 * kUnit, mq.used_bytes());
  EXPECT_EQ(1u, mq.GetStats().swaps);
  ExpectConsistent(mq);
}

// (b) Within a queue, least recently used first.
TEST(MultiQueueTest, VictimsComeFromTheLruEndOfAQueue) {
  MultiQueue mq(SmallOptions(5 * kUnit));
  const SegmentId x1 = Seg(1, 0), x2 = Seg(1, 1), h = Seg(2, 0);
  AttachWithUnits(&mq, x2, 2, Hot(0, 0));
  AttachWithUnits(&mq, x1, 2, Hot(0, 0));
  AttachWithUnits(&mq, h, 1, Hot(0, 0));
  // Access order decides LRU order: x1 is older than x2.
  ASSERT_TRUE(mq.RecordAccess(x1, 2, false));
  ASSERT_TRUE(mq.RecordAccess(x2, 3, false));

  ASSERT_TRUE(mq.RecordAccess(h, 100, true));
  MultiQueue::Plan p = mq.PlanAccess(h, 100);
  ASSERT_EQ(1u, p.victims.size());
  EXPECT_EQ(x1, p.victims[0].id);
  EXPECT_EQ(1, p.victims[0].unit);

  ASSERT_TRUE(mq.RecordAccess(h, 101, true));
  p = mq.PlanAccess(h, 101);
  ASSERT_TRUE(p.load_one_more());
  EXPECT_EQ(2, p.first_unit);
  ASSERT_EQ(1u, p.victims.size());
  EXPECT_EQ(x2, p.victims[0].id);

  EXPECT_EQ(1, mq.UnitsLoaded(x1));
  EXPECT_EQ(1, mq.UnitsLoaded(x2));
  EXPECT_EQ(3, mq.UnitsLoaded(h));
  EXPECT_EQ(5 * kUnit, mq.used_bytes());
  ExpectConsistent(mq);
}

// (b) A larger unit takes one unit from each of several victims.
TEST(MultiQueueTest, SeveralVictimsCoverOneLargeUnit) {
  MultiQueue mq(SmallOptions(5 * kUnit));
  const SegmentId v1 = Seg(1, 0), v2 = Seg(1, 1), v3 = Seg(1, 2);
  const SegmentId big = Seg(2, 0);
  AttachWithUnits(&mq, v1, 1, Hot(0, 1));
  AttachWithUnits(&mq, v2, 1, Hot(0, 2));
  AttachWithUnits(&mq, v3, 1, Hot(0, 3));
  ASSERT_TRUE(mq.Attach(big, 2 * kUnit, 0, Hot(5, 50)));
  ASSERT_EQ(1, mq.PlanInitialUnits(big, 1, 50).units_to_load);
  ASSERT_EQ(5 * kUnit, mq.used_bytes());

  ASSERT_TRUE(mq.RecordAccess(big, 100, true));
  MultiQueue::Plan p = mq.PlanAccess(big, 100);
  ASSERT_TRUE(p.load_one_more());
  ASSERT_EQ(2u, p.victims.size());
  EXPECT_EQ(v1, p.victims[0].id);
  EXPECT_EQ(v2, p.victims[1].id);
  EXPECT_EQ(1, mq.UnitsLoaded(v3));
  EXPECT_EQ(5 * kUnit, mq.used_bytes());
  ExpectConsistent(mq);
}

// (c)
TEST(MultiQueueTest, NothingExpiredMeansNoChange) {
  MultiQueue mq(SmallOptions(3 * kUnit));
  const SegmentId a = Seg(1, 0), b = Seg(1, 1), h = Seg(2, 0);
  AttachWithUnits(&mq, a, 1, Hot(0, 95));
  AttachWithUnits(&mq, b, 1, Hot(0, 96));
  AttachWithUnits(&mq, h, 1, Hot(0, 97));
  const double e_before = MultiQueueTestPeer::ExpectedExtraIo(&mq);

  ASSERT_TRUE(mq.RecordAccess(h, 100, true));
  MultiQueue::Plan p = mq.PlanAccess(h, 100);
  EXPECT_FALSE(p.load_one_more());
  EXPECT_TRUE(p.victims.empty());
  EXPECT_EQ(1, mq.UnitsLoaded(a));
  EXPECT_EQ(1, mq.UnitsLoaded(b));
  EXPECT_EQ(1, mq.UnitsLoaded(h));
  EXPECT_EQ(3 * kUnit, mq.used_bytes());
  EXPECT_EQ(1u, mq.GetStats().rejected_no_victims);
  EXPECT_EQ(0u, mq.GetStats().adjustments);
  // The access itself raised E (h's f grew by one); the plan changed nothing.
  EXPECT_DOUBLE_EQ(e_before + 0.5, MultiQueueTestPeer::ExpectedExtraIo(&mq));
  ExpectConsistent(mq);
}

// (c) An expired accessor never takes its own units, and expired units that
// do not cover the new unit are left alone.
TEST(MultiQueueTest, NotEnoughExpiredUnitsMeansNoChange) {
  MultiQueue mq(SmallOptions(5 * kUnit));
  const SegmentId old = Seg(1, 0), fresh = Seg(1, 1), h = Seg(2, 0);
  // Q_1 holds old, h, fresh in LRU order: h's own 300 bytes would cover
  // its next unit if it could give them to itself.
  AttachWithUnits(&mq, old, 1, Hot(0, 1));
  ASSERT_TRUE(mq.Attach(h, 3 * kUnit, 0, Hot(7, 2)));  // expired itself
  ASSERT_EQ(1, mq.PlanInitialUnits(h, 1, 2).units_to_load);
  AttachWithUnits(&mq, fresh, 1, Hot(0, 99));

  MultiQueue::Plan p = mq.PlanAccess(h, 100);  // only 100 expired bytes
  EXPECT_FALSE(p.load_one_more());
  EXPECT_TRUE(p.victims.empty());
  EXPECT_EQ(1, mq.UnitsLoaded(old));
  EXPECT_EQ(1, mq.UnitsLoaded(h));
  EXPECT_EQ(1u, mq.GetStats().rejected_no_victims);
  ExpectConsistent(mq);
}

// (d)
TEST(MultiQueueTest, SwapOnlyWhenExpectedExtraIoFalls) {
  MultiQueue mq(SmallOptions(3 * kUnit));
  const SegmentId was_hot = Seg(1, 0), h = Seg(2, 0);
  // Expired, but its past absent probes make each of its units valuable.
  AttachWithUnits(&mq, was_hot, 2, Hot(1000, 1));
  AttachWithUnits(&mq, h, 1, Hot(0, 2));
  const double e_before = MultiQueueTestPeer::ExpectedExtraIo(&mq);

  ASSERT_TRUE(mq.RecordAccess(h, 100, true));
  MultiQueue::Plan p = mq.PlanAccess(h, 100);
  EXPECT_FALSE(p.load_one_more());
  EXPECT_TRUE(p.victims.empty());
  EXPECT_EQ(2, mq.UnitsLoaded(was_hot));
  EXPECT_EQ(1, mq.UnitsLoaded(h));
  EXPECT_EQ(1u, mq.GetStats().rejected_no_gain);
  EXPECT_DOUBLE_EQ(e_before + 0.5, MultiQueueTestPeer::ExpectedExtraIo(&mq));
  ExpectConsistent(mq);
}

TEST(MultiQueueTest, SwapWithAWarmVictimWhenTheGainIsLarger) {
  MultiQueue mq(SmallOptions(4 * kUnit));
  const SegmentId warm = Seg(1, 0), h = Seg(2, 0);
  AttachWithUnits(&mq, warm, 3, Hot(1, 1));  // loss 1 * (1/4 - 1/8)
  AttachWithUnits(&mq, h, 1, Hot(9, 2));     // gain 10 * (1/2 - 1/4)
  ASSERT_TRUE(mq.RecordAccess(h, 100, true));
  const double e_before = MultiQueueTestPeer::ExpectedExtraIo(&mq);
  MultiQueue::Plan p = mq.PlanAccess(h, 100);
  ASSERT_TRUE(p.load_one_more());
  ASSERT_EQ(1u, p.victims.size());
  EXPECT_EQ(warm, p.victims[0].id);
  EXPECT_DOUBLE_EQ(e_before - 10 * 0.25 + 1 * 0.125,
                   MultiQueueTestPeer::ExpectedExtraIo(&mq));
  EXPECT_LT(MultiQueueTestPeer::ExpectedExtraIo(&mq), e_before);
  ExpectConsistent(mq);
}

// Three equally hot segments (one per database sharing a budget, or three
// segments of one database) probed in turn: none is ever expired, since
// each is probed every 3 Gets and the automatic lifetime is at least 64.
// Units must still move from the segment that got most while memory was
// free to the ones that got least, until no move lowers E[extra I/O] by
// more than the load's read.
class EquallyHotTest : public testing::Test {
 protected:
  static constexpr int kSegments = 3;

  // n = 6 units of FPR 1/2, automatic lifetime, 7 units and a bit of budget.
  EquallyHotTest() : mq_(Options()) {}

  static MultiQueue::Options Options() {
    MultiQueue::Options o;
    o.units_per_segment = 6;
    o.unit_fpr = 0.5;
    o.budget_bytes = 7 * kUnit + kUnit / 2;
    return o;
  }

  void Start(const std::vector<int>& units) {
    for (int i = 0; i < kSegments; ++i) {
      AttachWithUnits(&mq_, Seg(i + 1, 0), units[i], Hot(0, 1));
    }
  }

  // `gets` Gets that miss, spread in turn over the segments.
  void ProbeInTurn(uint64_t gets) {
    for (uint64_t t = 0; t < gets; ++t) {
      now_++;
      const SegmentId id = Seg(t % kSegments + 1, 0);
      ASSERT_TRUE(mq_.RecordAccess(id, now_, /*absent=*/true));
      mq_.PlanAccess(id, now_);
      ASSERT_LE(mq_.used_bytes(), mq_.budget_bytes());
    }
  }

  std::vector<int> Units() const {
    std::vector<int> units;
    for (int i = 0; i < kSegments; ++i) {
      units.push_back(mq_.UnitsLoaded(Seg(i + 1, 0)));
    }
    return units;
  }

  MultiQueue mq_;
  uint64_t now_ = 1;
};

TEST_F(EquallyHotTest, UnitsMoveToTheSegmentsHoldingFewest) {
  Start({5, 1, 1});
  ASSERT_GE(MultiQueueTestPeer::lifetime(&mq_), 64u);
  ProbeInTurn(3000);
  const std::vector<int> units = Units();
  EXPECT_EQ(3, units[0]);
  EXPECT_EQ(2, units[1]);
  EXPECT_EQ(2, units[2]);
  EXPECT_EQ(7 * kUnit, mq_.used_bytes());
  // 5/1/1 -> 4/2/1 -> 3/2/2: two moves, not a stream of them.
  EXPECT_EQ(2u, mq_.GetStats().swaps);
  EXPECT_EQ(2u, mq_.GetStats().warm_swaps);
  ExpectConsistent(mq_);
}

TEST_F(EquallyHotTest, SplitsOneUnitApartStayPut) {
  Start({3, 2, 2});
  ProbeInTurn(3000);
  EXPECT_EQ(std::vector<int>({3, 2, 2}), Units());
  EXPECT_EQ(0u, mq_.GetStats().swaps);
  EXPECT_GT(mq_.GetStats().rejected_no_victims, 0u);
  ExpectConsistent(mq_);
}

// Segments of Bloom and Ribbon tables in one queue: each segment's r(k)
// uses its own unit FPR.
// The scale the false-positive memo is weighed on: reads per Get per byte.
TEST(MultiQueueTest, UnitValueAveragesTheCheapestOrBestUnitsPerGetPerByte) {
  using UnitMemory = MultiQueue::UnitMemory;
  MultiQueue empty(SmallOptions(1000));
  EXPECT_EQ(0.0, empty.UnitValue(UnitMemory::kTaken, 100, 100));
  EXPECT_EQ(0.0, empty.UnitValue(UnitMemory::kGiven, 100, 100));

  MultiQueue mq(SmallOptions(1000));
  // Losses of the top unit / gains of the next: 40 * (1/2 - 1/4) = 10 and
  // 40 * (1/4 - 1/8) = 5; 10 * (1 - 1/2) = 5 and 10 * (1/2 - 1/4) = 2.5;
  // none and 90 * (1 - 1/2) = 45.
  AttachWithUnits(&mq, Seg(1, 0), 2, Hot(40, 1));
  AttachWithUnits(&mq, Seg(1, 1), 1, Hot(10, 1));
  AttachWithUnits(&mq, Seg(1, 2), 0, Hot(90, 1));
  // Without aging the counts span every Get so far (1000).
  EXPECT_DOUBLE_EQ(5.0 / kUnit / 1000,
                   mq.UnitValue(UnitMemory::kTaken, kUnit, 1000));
  EXPECT_DOUBLE_EQ(15.0 / (2 * kUnit) / 1000,
                   mq.UnitValue(UnitMemory::kTaken, 2 * kUnit, 1000));
  EXPECT_DOUBLE_EQ(15.0 / (2 * kUnit) / 1000,
                   mq.UnitValue(UnitMemory::kTaken, 50 * kUnit, 1000));
  EXPECT_DOUBLE_EQ(45.0 / kUnit / 1000,
                   mq.UnitValue(UnitMemory::kGiven, kUnit, 1000));
  EXPECT_DOUBLE_EQ(50.0 / (2 * kUnit) / 1000,
                   mq.UnitValue(UnitMemory::kGiven, 2 * kUnit, 1000));

  // Halved every 2 lifetimes (20 Gets): at 50, the counts are halved twice
  // and span 10 + 20 * (1/2 + 1/4) Gets.
  MultiQueue aging(AgingOptions(1000, 2));
  AttachWithUnits(&aging, Seg(2, 0), 1, Hot(40, 0));
  EXPECT_DOUBLE_EQ(10 * 0.5 / kUnit / 25,
                   aging.UnitValue(UnitMemory::kTaken, kUnit, 50));
  ExpectConsistent(aging);
}

TEST(MultiQueueTest, RateClassesGiveEachSegmentItsOwnUnitFpr) {
  MultiQueue mq(SmallOptions(0));
  EXPECT_EQ(0, mq.RateClass(0.5));  // Options::unit_fpr
  const int ribbon = mq.RateClass(0.0625);
  EXPECT_EQ(1, ribbon);
  EXPECT_EQ(ribbon, mq.RateClass(0.0625));
  EXPECT_EQ(0.5, MultiQueueTestPeer::FalsePositiveRate(&mq, 1));
  EXPECT_EQ(0.0625, MultiQueueTestPeer::FalsePositiveRate(&mq, 1, ribbon));
  EXPECT_EQ(1.0 / 256, MultiQueueTestPeer::FalsePositiveRate(&mq, 2, ribbon));
  EXPECT_FALSE(mq.Attach(Seg(1, 0), kUnit, 1, Hot(0, 0), 2));  // unknown
  EXPECT_FALSE(mq.Attach(Seg(1, 0), kUnit, 1, Hot(0, 0), -1));
  EXPECT_FALSE(MultiQueueTestPeer::IsAttached(&mq, Seg(1, 0)));
  // Beyond kMaxRateClasses, a new rate joins the nearest class.
  for (int c = 2; c < MultiQueue::kMaxRateClasses; ++c) {
    EXPECT_EQ(c, mq.RateClass(0.9 + c / 1000.0));
  }
  EXPECT_EQ(0, mq.RateClass(0.49));
  EXPECT_EQ(ribbon, mq.RateClass(0.06));
}

TEST(MultiQueueTest, SwapDecisionsUseEachSegmentsRate) {
  // Victim v (FPR 1/2 units) holds 1 unit, f = 10: losing it costs
  // 10 * (1 - 1/2) = 5. Segment h asks for its 2nd unit with f = 50.
  for (bool h_is_ribbon : {false, true}) {
    MultiQueue mq(SmallOptions(2 * kUnit));
    const int h_class = h_is_ribbon ? mq.RateClass(0.0625) : 0;
    const SegmentId v = Seg(1, 0), h = Seg(2, 0);
    ASSERT_TRUE(mq.Attach(v, kUnit, 1, Hot(10, 1)));
    ASSERT_EQ(1, mq.PlanInitialUnits(v, 1, 1).units_to_load);
    ASSERT_TRUE(mq.Attach(h, kUnit, 1, Hot(49, 2), h_class));
    ASSERT_EQ(1, mq.PlanInitialUnits(h, 1, 2).units_to_load);
    ASSERT_TRUE(mq.RecordAccess(h, 100, true));
    const double r1 = h_is_ribbon ? 0.0625 : 0.5;
    EXPECT_DOUBLE_EQ(10 * 0.5 + 50 * r1,
                     MultiQueueTestPeer::ExpectedExtraIo(&mq));

    MultiQueue::Plan p = mq.PlanAccess(h, 100);
    if (h_is_ribbon) {
      // Gain 50 * (1/16 - 1/256) < 5: a Ribbon unit already filters well.
      EXPECT_FALSE(p.load_one_more());
      EXPECT_EQ(1u, mq.GetStats().rejected_no_gain);
      EXPECT_EQ(1, mq.UnitsLoaded(v));
    } else {
      // Gain 50 * (1/2 - 1/4) > 5.
      ASSERT_TRUE(p.load_one_more());
      ASSERT_EQ(1u, p.victims.size());
      EXPECT_EQ(v, p.victims[0].id);
      EXPECT_DOUBLE_EQ(10 * 1.0 + 50 * 0.25,
                       MultiQueueTestPeer::ExpectedExtraIo(&mq));
    }
    ExpectConsistent(mq);
  }
}

TEST(MultiQueueTest, CountsHalveOncePerAgingPeriod) {
  // Lifetime 10: a halving every 20 Gets.
  MultiQueue mq(AgingOptions(10 * kUnit, 2));
  const SegmentId a = Seg(1, 0), b = Seg(1, 1);
  ASSERT_TRUE(mq.Attach(a, kUnit, 1, Hot(40, 0)));
  ASSERT_TRUE(mq.Attach(b, kUnit, 1, Hot(0, 0)));
  ASSERT_TRUE(mq.RecordAccess(a, 5, true));
  Hotness h;
  ASSERT_TRUE(mq.GetHotness(a, &h));
  EXPECT_EQ(41u, h.absent_probes);

  ASSERT_TRUE(mq.RecordAccess(b, 25, false));  // one period has passed
  ASSERT_TRUE(mq.GetHotness(a, &h));
  EXPECT_EQ(20u, h.absent_probes);  // 41 / 2, read without touching a
  EXPECT_EQ(20u, h.accesses);
  EXPECT_EQ(5u, h.last_access);  // times are not aged

  ASSERT_TRUE(mq.RecordAccess(b, 65, false));  // three periods in all
  ASSERT_TRUE(mq.RecordAccess(a, 65, true));
  ASSERT_TRUE(mq.GetHotness(a, &h));
  EXPECT_EQ(41u / 8 + 1, h.absent_probes);
  EXPECT_DOUBLE_EQ(MultiQueueTestPeer::RecomputeExpectedExtraIo(&mq),
                   MultiQueueTestPeer::ExpectedExtraIo(&mq));
  ExpectConsistent(mq);
}

// Hotness recorded by another process (a reopened DB's MANIFEST) arrives in
// a MultiQueue whose clock starts over: its counts are already aged to the
// epoch of their last access and must not be halved again for it.
TEST(MultiQueueTest, InheritedCountsAreNotAgedTwice) {
  // Lifetime 10: a halving every 20 Gets.
  MultiQueue mq(AgingOptions(10 * kUnit, 2));
  const SegmentId a = Seg(1, 0);
  ASSERT_TRUE(mq.Attach(a, kUnit, 1, Hot(40, 45)));  // third period
  ASSERT_TRUE(mq.RecordAccess(a, 50, true));         // the same period
  Hotness h;
  ASSERT_TRUE(mq.GetHotness(a, &h));
  EXPECT_EQ(41u, h.absent_probes);
  EXPECT_EQ(41u, h.accesses);

  ASSERT_TRUE(mq.RecordAccess(a, 65, true));  // the next period: halved
  ASSERT_TRUE(mq.GetHotness(a, &h));
  EXPECT_EQ(41u / 2 + 1, h.absent_probes);
  EXPECT_DOUBLE_EQ(MultiQueueTestPeer::RecomputeExpectedExtraIo(&mq),
                   MultiQueueTestPeer::ExpectedExtraIo(&mq));
  ExpectConsistent(mq);
}

TEST(MultiQueueTest, HugeLifetimeNeverAges) {
  // 16 lifetimes of 2^62 Gets do not fit in 64 bits: the aging period
  // saturates instead of wrapping to 0.
  MultiQueue::Options o = AgingOptions(10 * kUnit, 16);
  o.lifetime = uint64_t{1} << 62;
  MultiQueue mq(o);
  const SegmentId a = Seg(1, 0);
  ASSERT_TRUE(mq.Attach(a, kUnit, 1, Hot(40, 45)));
  ASSERT_TRUE(mq.RecordAccess(a, 50, true));
  ASSERT_TRUE(mq.RecordAccess(a, uint64_t{1} << 63, true));
  Hotness h;
  ASSERT_TRUE(mq.GetHotness(a, &h));
  EXPECT_EQ(42u, h.absent_probes);  // never halved
  ExpectConsistent(mq);
}

TEST(MultiQueueTest, AgingLetsRecentProbesOutweighAnOldTotal) {
  // The setting of SwapOnlyWhenExpectedExtraIoFalls, where the old total
  // wins; with aging it has faded by the time the new segment is probed.
  MultiQueue mq(AgingOptions(3 * kUnit, 1));
  const SegmentId was_hot = Seg(1, 0), h = Seg(2, 0);
  AttachWithUnits(&mq, was_hot, 2, Hot(1000, 1));
  AttachWithUnits(&mq, h, 1, Hot(0, 2));

  ASSERT_TRUE(mq.RecordAccess(h, 100, true));  // ten halvings: 1000 -> 0
  MultiQueue::Plan p = mq.PlanAccess(h, 100);
  ASSERT_TRUE(p.load_one_more());
  ASSERT_EQ(1u, p.victims.size());
  EXPECT_EQ(was_hot, p.victims[0].id);
  EXPECT_EQ(1, mq.UnitsLoaded(was_hot));
  EXPECT_EQ(2, mq.UnitsLoaded(h));
  EXPECT_DOUBLE_EQ(MultiQueueTestPeer::RecomputeExpectedExtraIo(&mq),
                   MultiQueueTestPeer::ExpectedExtraIo(&mq));
  ExpectConsistent(mq);
}

TEST(MultiQueueTest, AgingKeepsTheAccountingExact) {
  MultiQueue mq(AgingOptions(6 * kUnit, 1));
  Random rnd(test::RandomSeed());
  uint64_t now = 1;
  for (int step = 0; step < 20000; ++step) {
    now += rnd.Uniform(4);
    const SegmentId id = Seg(1 + rnd.Uniform(3), rnd.Uniform(4));
    switch (rnd.Uniform(5)) {
      case 0:
        mq.Attach(id, kUnit, 1, Hot(rnd.Uniform(100), now));
        break;
      case 1:
        mq.Detach(id);
        break;
      default:
        if (mq.RecordAccess(id, now, rnd.OneIn(2))) mq.PlanAccess(id, now);
        break;
    }
    ASSERT_LE(mq.used_bytes(), mq.budget_bytes());
    ASSERT_NEAR(MultiQueueTestPeer::RecomputeExpectedExtraIo(&mq),
                MultiQueueTestPeer::ExpectedExtraIo(&mq), 1e-9)
        << "step " << step;
  }
  ExpectConsistent(mq);
}

// (e)
TEST(MultiQueueTest, ProbesThatFindTheirKeyDoNotCount) {
  MultiQueue mq(SmallOptions(10 * kUnit));
  const SegmentId present = Seg(1, 0), absent = Seg(1, 1);
  ASSERT_TRUE(mq.Attach(present, kUnit, 0, Hotness()));
  ASSERT_TRUE(mq.Attach(absent, kUnit, 0, Hotness()));
  for (uint64_t t = 1; t <= 1000; ++t) {
    ASSERT_TRUE(mq.RecordAccess(present, t, /*absent=*/false));
    EXPECT_FALSE(mq.PlanAccess(present, t).load_one_more());
  }
  EXPECT_EQ(0, mq.UnitsLoaded(present));
  Hotness hot;
  ASSERT_TRUE(mq.GetHotness(present, &hot));
  EXPECT_EQ(1000u, hot.accesses);
  EXPECT_EQ(0u, hot.absent_probes);
  EXPECT_EQ(1000u, hot.last_access);
  EXPECT_EQ(0.0, MultiQueueTestPeer::ExpectedExtraIo(&mq));

  ASSERT_TRUE(mq.RecordAccess(absent, 1001, /*absent=*/true));
  EXPECT_TRUE(mq.PlanAccess(absent, 1001).load_one_more());
  EXPECT_EQ(1, mq.UnitsLoaded(absent));
  ExpectConsistent(mq);
}

// (g)
TEST(MultiQueueTest, DetachKeepsHotnessAndForgetDropsIt) {
  MultiQueue mq(SmallOptions(10 * kUnit));
  const SegmentId a = Seg(7, 0), b = Seg(7, 1), other = Seg(8, 0);
  AttachWithUnits(&mq, a, 2, Hot(3, 10));
  AttachWithUnits(&mq, b, 1, Hot(0, 10));
  AttachWithUnits(&mq, other, 1, Hot(0, 10));
  ASSERT_TRUE(mq.RecordAccess(a, 20, true));
  EXPECT_FALSE(mq.Attach(a, kUnit, 0, Hotness()));  // already attached

  EXPECT_EQ(2, mq.Detach(a));
  EXPECT_FALSE(MultiQueueTestPeer::IsAttached(&mq, a));
  EXPECT_EQ(-1, mq.UnitsLoaded(a));
  EXPECT_EQ(2 * kUnit, mq.used_bytes());
  EXPECT_EQ(0, mq.Detach(a));
  Hotness hot;
  ASSERT_TRUE(mq.GetHotness(a, &hot));
  EXPECT_EQ(4u, hot.absent_probes);
  EXPECT_EQ(20u, hot.last_access);
  // A detached segment is out of E[extra I/O].
  EXPECT_EQ(0.0, MultiQueueTestPeer::ExpectedExtraIo(&mq));

  // Re-attaching restores the recorded hotness, not the one passed in.
  ASSERT_TRUE(mq.Attach(a, kUnit, 2, Hot(99, 99)));
  EXPECT_EQ(0, mq.UnitsLoaded(a));
  ASSERT_TRUE(mq.GetHotness(a, &hot));
  EXPECT_EQ(4u, hot.absent_probes);
  EXPECT_DOUBLE_EQ(4.0, MultiQueueTestPeer::ExpectedExtraIo(&mq));

  ASSERT_EQ(1, mq.PlanInitialUnits(a, 1, 21).units_to_load);
  std::vector<MultiQueue::Released> gone = mq.Forget(7);
  ASSERT_EQ(2u, gone.size());
  int total = 0;
  for (const auto& r : gone) {
    EXPECT_TRUE(r.id == a || r.id == b);
    total += r.units;
  }
  EXPECT_EQ(2, total);
  EXPECT_FALSE(mq.GetHotness(a, &hot));
  EXPECT_FALSE(mq.GetHotness(b, &hot));
  EXPECT_TRUE(mq.GetHotness(other, &hot));
  EXPECT_EQ(kUnit, mq.used_bytes());

  ASSERT_TRUE(mq.Attach(a, kUnit, 0, Hot(5, 30)));  // a stranger now
  ASSERT_TRUE(mq.GetHotness(a, &hot));
  EXPECT_EQ(5u, hot.absent_probes);
  EXPECT_TRUE(mq.Forget(99).empty());
  ExpectConsistent(mq);
}

// (h)
TEST(MultiQueueTest, AutoLifetimeTracksAttachedSegments) {
  MultiQueue::Options o = SmallOptions(0);
  o.lifetime = 0;
  o.min_auto_lifetime = 4;
  MultiQueue mq(o);
  EXPECT_EQ(4u, MultiQueueTestPeer::lifetime(&mq));
  for (uint32_t i = 0; i < 10; ++i) {
    ASSERT_TRUE(mq.Attach(Seg(1, i), kUnit, 0, Hotness()));
  }
  EXPECT_EQ(10u, MultiQueueTestPeer::lifetime(&mq));
  mq.Detach(Seg(1, 0));
  mq.Detach(Seg(1, 1));
  EXPECT_EQ(8u, MultiQueueTestPeer::lifetime(&mq));
  for (uint32_t i = 0; i < 100; ++i) {
    ASSERT_TRUE(mq.Attach(Seg(2, i), kUnit, 0, Hotness()));
  }
  EXPECT_EQ(108u, MultiQueueTestPeer::lifetime(&mq));
  EXPECT_EQ(108u, mq.GetStats().lifetime);
  mq.Forget(2);
  mq.Forget(1);
  EXPECT_EQ(4u, MultiQueueTestPeer::lifetime(&mq));

  // Expiry uses the current lifetime: now - last_access > lifetime.
  ASSERT_TRUE(mq.Attach(Seg(3, 0), kUnit, 0, Hot(0, 10)));
  EXPECT_FALSE(MultiQueueTestPeer::IsExpired(&mq, Seg(3, 0), 14));
  EXPECT_TRUE(MultiQueueTestPeer::IsExpired(&mq, Seg(3, 0), 15));
  for (uint32_t i = 1; i < 20; ++i) {
    ASSERT_TRUE(mq.Attach(Seg(3, i), kUnit, 0, Hotness()));
  }
  EXPECT_FALSE(MultiQueueTestPeer::IsExpired(&mq, Seg(3, 0), 15));
  EXPECT_TRUE(MultiQueueTestPeer::IsExpired(&mq, Seg(3, 0), 31));

  MultiQueue::Options fixed = SmallOptions(0);
  fixed.lifetime = 1234;
  MultiQueue mq2(fixed);
  ASSERT_TRUE(mq2.Attach(Seg(1, 0), kUnit, 0, Hotness()));
  EXPECT_EQ(1234u, MultiQueueTestPeer::lifetime(&mq2));
}

// (i)
TEST(MultiQueueTest, InitialUnitsRespectTheBudget) {
  MultiQueue mq(SmallOptions(3 * kUnit + 50));
  const SegmentId a = Seg(1, 0), b = Seg(1, 1);
  ASSERT_TRUE(mq.Attach(a, kUnit, 0, Hot(0, 100)));
  MultiQueue::Plan p = mq.PlanInitialUnits(a, 2, 100);
  EXPECT_EQ(0, p.first_unit);
  EXPECT_EQ(2, p.units_to_load);
  ASSERT_TRUE(mq.Attach(b, kUnit, 0, Hot(0, 100)));
  p = mq.PlanInitialUnits(b, 4, 100);  // only one more unit fits
  EXPECT_EQ(1, p.units_to_load);
  EXPECT_TRUE(p.victims.empty());
  EXPECT_EQ(3 * kUnit, mq.used_bytes());
  p = mq.PlanInitialUnits(b, 4, 101);  // nothing expired: nothing more
  EXPECT_EQ(0, p.units_to_load);
  EXPECT_EQ(1, p.first_unit);
  EXPECT_EQ(3u, mq.GetStats().loads);
  ExpectConsistent(mq);
}

TEST(MultiQueueTest, InitialUnitsMayTakeFromColdExpiredSegments) {
  MultiQueue mq(SmallOptions(3 * kUnit));
  const SegmentId cold = Seg(1, 0), valued = Seg(1, 1), fresh = Seg(2, 0);
  AttachWithUnits(&mq, valued, 1, Hot(50, 1));  // expired but useful
  AttachWithUnits(&mq, cold, 2, Hot(0, 2));     // expired and never missed
  ASSERT_TRUE(mq.Attach(fresh, kUnit, 0, Hot(0, 100)));
  MultiQueue::Plan p = mq.PlanInitialUnits(fresh, 3, 100);
  // Both of cold's units are free to take (no E[extra I/O] lost); valued's
  // unit is not (fresh has no absent probes to gain from it).
  EXPECT_EQ(2, p.units_to_load);
  ASSERT_EQ(2u, p.victims.size());
  EXPECT_EQ(cold, p.victims[0].id);
  EXPECT_EQ(1, p.victims[0].unit);
  EXPECT_EQ(cold, p.victims[1].id);
  EXPECT_EQ(0, p.victims[1].unit);
  EXPECT_EQ(1, mq.UnitsLoaded(valued));
  EXPECT_EQ(2, mq.UnitsLoaded(fresh));
  EXPECT_EQ(3 * kUnit, mq.used_bytes());
  ExpectConsistent(mq);
}

TEST(MultiQueueTest, AbortLoadGivesTheReservationBack) {
  MultiQueue mq(SmallOptions(10 * kUnit));
  const SegmentId a = Seg(1, 0);
  ASSERT_TRUE(mq.Attach(a, kUnit, 0, Hot(1, 1)));
  MultiQueue::Plan p = mq.PlanInitialUnits(a, 3, 1);
  ASSERT_EQ(3, p.units_to_load);
  EXPECT_EQ(3 * kUnit, mq.used_bytes());
  EXPECT_EQ(2, mq.AbortLoad(a, 1));  // unit 1 failed: 1 and 2 go
  EXPECT_EQ(1, mq.UnitsLoaded(a));
  EXPECT_EQ(kUnit, mq.used_bytes());
  EXPECT_EQ(0, mq.AbortLoad(a, 1));  // already rolled back
  EXPECT_EQ(0, mq.AbortLoad(a, -1));
  EXPECT_EQ(0, mq.AbortLoad(Seg(9, 9), 0));
  EXPECT_EQ(2u, mq.GetStats().aborted_loads);
  EXPECT_DOUBLE_EQ(0.5, MultiQueueTestPeer::ExpectedExtraIo(&mq));
  ExpectConsistent(mq);
}

TEST(MultiQueueTest, ShrinkingTheBudgetEvictsExpiredThenColdest) {
  MultiQueue mq(SmallOptions(10 * kUnit));
  const SegmentId expired = Seg(1, 0), warm_hi = Seg(1, 1);
  const SegmentId warm_lo = Seg(1, 2);
  AttachWithUnits(&mq, expired, 1, Hot(0, 1));
  AttachWithUnits(&mq, warm_lo, 2, Hot(0, 95));
  AttachWithUnits(&mq, warm_hi, 3, Hot(0, 96));
  ASSERT_EQ(6 * kUnit, mq.used_bytes());

  std::vector<MultiQueue::Victim> v = mq.SetBudget(4 * kUnit, 100);
  ASSERT_EQ(2u, v.size());
  EXPECT_EQ(expired, v[0].id);  // expired first, though in the lowest queue
  EXPECT_EQ(0, v[0].unit);
  EXPECT_EQ(warm_hi, v[1].id);  // then the highest queue
  EXPECT_EQ(2, v[1].unit);
  EXPECT_EQ(4 * kUnit, mq.used_bytes());
  EXPECT_EQ(4 * kUnit, mq.budget_bytes());

  v = mq.SetBudget(0, 100);
  EXPECT_EQ(4u, v.size());
  EXPECT_EQ(0u, mq.used_bytes());
  EXPECT_TRUE(mq.SetBudget(kUnit, 100).empty());  // growing evicts nothing
  ExpectConsistent(mq);
}

TEST(MultiQueueTest, StatsReportQueuesAndLevels) {
  MultiQueue mq(SmallOptions(10 * kUnit));
  ASSERT_TRUE(mq.Attach(Seg(1, 0), kUnit, 0, Hot(0, 1)));
  ASSERT_TRUE(mq.Attach(Seg(1, 1), kUnit, 2, Hot(0, 1)));
  ASSERT_TRUE(mq.Attach(Seg(1, 2), kUnit, 2, Hot(0, 1)));
  ASSERT_EQ(2, mq.PlanInitialUnits(Seg(1, 1), 2, 1).units_to_load);
  ASSERT_TRUE(mq.SetLsmLevel(Seg(1, 0), 3));
  EXPECT_FALSE(mq.SetLsmLevel(Seg(5, 0), 3));
  mq.Attach(Seg(2, 0), kUnit, 0, Hotness());
  mq.Detach(Seg(2, 0));

  MultiQueue::Stats st = mq.GetStats();
  EXPECT_EQ(2 * kUnit, st.used_bytes);
  EXPECT_EQ(10 * kUnit, st.budget_bytes);
  EXPECT_EQ(3u, st.attached_segments);
  EXPECT_EQ(1u, st.detached_segments);
  EXPECT_EQ((std::vector<uint64_t>{2, 0, 1, 0, 0}), st.segments_per_queue);
  ASSERT_EQ(4u, st.segments_by_level.size());
  EXPECT_EQ((std::vector<uint64_t>{0, 0, 0, 0, 0}), st.segments_by_level[0]);
  EXPECT_EQ((std::vector<uint64_t>{1, 0, 1, 0, 0}), st.segments_by_level[2]);
  EXPECT_EQ((std::vector<uint64_t>{1, 0, 0, 0, 0}), st.segments_by_level[3]);
  ExpectConsistent(mq);
}

TEST(MultiQueueTest, UnknownSegmentsAreIgnored) {
  MultiQueue mq(SmallOptions(10 * kUnit));
  const SegmentId ghost = Seg(4, 4);
  EXPECT_FALSE(mq.RecordAccess(ghost, 1, true));
  EXPECT_FALSE(mq.PlanAccess(ghost, 1).load_one_more());
  EXPECT_EQ(0, mq.PlanInitialUnits(ghost, 2, 1).units_to_load);
  EXPECT_EQ(0, mq.Detach(ghost));
  EXPECT_EQ(-1, mq.UnitsLoaded(ghost));
  EXPECT_FALSE(MultiQueueTestPeer::IsExpired(&mq, ghost, 1000));
  EXPECT_EQ(0u, mq.used_bytes());
  ExpectConsistent(mq);
}

// (f) Random operations against an independent model of every segment.
class MultiQueueModelTest : public testing::Test {
 protected:
  struct ModelSegment {
    uint64_t unit_bytes = 0;
    int units = 0;
    bool attached = false;
    uint64_t absent = 0;
  };

  static constexpr int kFiles = 12;
  static constexpr int kSegmentsPerFile = 12;
  static constexpr int kUnits = 5;
  static constexpr double kUnitFpr = 0.6185 * 0.6185 * 0.6185 * 0.6185;

  MultiQueueModelTest() : mq_(MakeOptions()), rnd_(301) {}

  static MultiQueue::Options MakeOptions() {
    MultiQueue::Options o;
    o.units_per_segment = kUnits;
    o.unit_fpr = kUnitFpr;
    o.lifetime = 0;
    o.min_auto_lifetime = 8;
    o.budget_bytes = 20000;
    return o;
  }

  SegmentId PickSegment() {
    // Skewed: low files and indexes are hot.
    const uint64_t file = 1 + rnd_.Skewed(4) % kFiles;
    const uint32_t index = rnd_.Skewed(4) % kSegmentsPerFile;
    return Seg(file, index);
  }

  void ApplyVictims(const std::vector<MultiQueue::Victim>& victims) {
    for (const auto& v : victims) {
      auto it = model_.find(v.id);
      ASSERT_TRUE(it != model_.end());
      ASSERT_TRUE(it->second.attached);
      ASSERT_EQ(it->second.units - 1, v.unit);
      --it->second.units;
    }
  }

  void ApplyPlan(SegmentId id, const MultiQueue::Plan& p) {
    ApplyVictims(p.victims);
    if (p.units_to_load > 0) {
      ModelSegment& m = model_[id];
      ASSERT_TRUE(m.attached);
      ASSERT_EQ(m.units, p.first_unit);
      m.units += p.units_to_load;
      ASSERT_LE(m.units, kUnits);
      if (m.units == kUnits) ++full_groups_;
    }
  }

  void Step() {
    const SegmentId id = PickSegment();
    auto it = model_.find(id);
    const bool known = it != model_.end();
    switch (rnd_.Uniform(100) / 10) {
      case 0: {  // attach
        Hotness h = Hot(rnd_.Uniform(3), now_ - rnd_.Uniform(30));
        const uint64_t unit_bytes = 50 + rnd_.Uniform(400);
        const bool attached = known && it->second.attached;
        ASSERT_EQ(!attached, mq_.Attach(id, unit_bytes, rnd_.Uniform(7), h));
        if (!attached) {
          ModelSegment& m = model_[id];
          if (!known) m.absent = h.absent_probes;
          m.unit_bytes = unit_bytes;
          m.units = 0;
          m.attached = true;
          if (rnd_.OneIn(2)) {
            ApplyPlan(id, mq_.PlanInitialUnits(id, rnd_.Uniform(3), now_));
          }
        }
        break;
      }
      case 1: {  // detach
        const int units = mq_.Detach(id);
        if (known && it->second.attached) {
          ASSERT_EQ(it->second.units, units);
          it->second.units = 0;
          it->second.attached = false;
        } else {
          ASSERT_EQ(0, units);
        }
        break;
      }
      case 2: {  // forget a whole file, rarely
        if (!rnd_.OneIn(10)) break;
        const uint64_t file = FileNumberOf(id);
        std::map<SegmentId, int> expected;
        for (auto m = model_.begin(); m != model_.end();) {
          if (FileNumberOf(m->first) == file) {
            if (m->second.attached && m->second.units > 0) {
              expected[m->first] = m->second.units;
            }
            m = model_.erase(m);
          } else {
            ++m;
          }
        }
        std::map<SegmentId, int> got;
        for (const auto& r : mq_.Forget(file)) got[r.id] = r.units;
        ASSERT_EQ(expected, got);
        break;
      }
      case 3:
      case 4:
      case 5:
      case 6: {  // a Get probes the segment, then the rule runs
        const bool absent = rnd_.Uniform(10) < 6;
        ++now_;
        ASSERT_EQ(known, mq_.RecordAccess(id, now_, absent));
        if (known && absent) ++it->second.absent;
        ApplyPlan(id, mq_.PlanAccess(id, now_));
        break;
      }
      case 7: {  // the load of some reserved unit failed
        if (!known || !it->second.attached || it->second.units == 0) break;
        const int unit = rnd_.Uniform(it->second.units);
        ASSERT_EQ(it->second.units - unit, mq_.AbortLoad(id, unit));
        it->second.units = unit;
        break;
      }
      case 8: {  // time passes without touching this segment
        now_ += rnd_.Uniform(20);
        break;
      }
      default: {  // budget changes, rarely
        if (!rnd_.OneIn(20)) break;
        ApplyVictims(mq_.SetBudget(rnd_.Uniform(30000), now_));
        break;
      }
    }
  }

  void CheckAgainstModel() {
    ASSERT_LE(mq_.used_bytes(), mq_.budget_bytes());
    uint64_t used = 0;
    double e = 0;
    std::vector<uint64_t> per_queue(kUnits + 1, 0);
    for (const auto& entry : model_) {
      const ModelSegment& m = entry.second;
      if (m.attached) {
        used += m.units * m.unit_bytes;
        e += m.absent * std::pow(kUnitFpr, m.units);
        ++per_queue[m.units];
        ASSERT_EQ(m.units, mq_.UnitsLoaded(entry.first));
      } else {
        ASSERT_EQ(-1, mq_.UnitsLoaded(entry.first));
      }
    }
    ASSERT_EQ(used, mq_.used_bytes());
    ASSERT_NEAR(e, MultiQueueTestPeer::ExpectedExtraIo(&mq_),
                1e-9 * std::max(1.0, e));
    MultiQueue::Stats st = mq_.GetStats();
    ASSERT_EQ(per_queue, st.segments_per_queue);
    std::string why;
    ASSERT_TRUE(MultiQueueTestPeer::CheckInvariants(&mq_, &why)) << why;
  }

  MultiQueue mq_;
  Random rnd_;
  uint64_t now_ = 100;
  uint64_t full_groups_ = 0;  // times a segment reached n units
  std::map<SegmentId, ModelSegment> model_;
};

TEST_F(MultiQueueModelTest, BudgetAndAccountingHoldUnderRandomOperations) {
  for (int step = 0; step < 100000; ++step) {
    ASSERT_NO_FATAL_FAILURE(Step()) << "step " << step;
    ASSERT_NO_FATAL_FAILURE(CheckAgainstModel()) << "step " << step;
  }
  // The run must have exercised the interesting paths.
  MultiQueue::Stats st = mq_.GetStats();
  EXPECT_GT(st.swaps, 0u);
  EXPECT_GT(st.evictions, 0u);
  EXPECT_GT(st.aborted_loads, 0u);
  EXPECT_GT(st.rejected_no_victims, 0u);
  EXPECT_GT(st.rejected_no_gain, 0u);
  EXPECT_GT(full_groups_, 0u);
}

}  // namespace
}  // namespace leveldb
