// MemoSizer: when a false-positive memo doubles, halves or stays.
#include "elastic/memo_sizer.h"

#include "gtest/gtest.h"

namespace leveldb {
namespace {

constexpr size_t kSmallest = 4096;
constexpr size_t kLargest = 65536;
constexpr uint64_t kWindow = 1000;

MemoSizer::Options Sizing() {
  MemoSizer::Options o;
  o.min_bytes = kSmallest;
  o.max_bytes = kLargest;
  o.window_gets = kWindow;
  o.margin = 2.0;
  o.min_hits = 8;
  return o;
}

// A sample at `now` of a memo of `bytes` whose ranks were hit `hits` times
// each since it was made.
MemoSizer::Sample At(uint64_t now, size_t bytes, uint64_t newer_hits,
                     uint64_t older_hits) {
  MemoSizer::Sample s;
  s.now = now;
  s.bytes = bytes;
  for (int r = 0; r < MemoSizer::kRanks; ++r) {
    s.hits_at[r] = r < MemoSizer::kRanks / 2 ? newer_hits : older_hits;
  }
  return s;
}

// Units worth `value` per Get per byte, taken or given alike.
MemoSizer::UnitValues Units(double value) {
  MemoSizer::UnitValues units;
  units.taken = value;
  units.given = value;
  return units;
}

// What the oldest quarter of `bytes` earns per Get per byte when its rank
// was hit `hits` times in a window.
double QuarterValue(uint64_t hits, size_t bytes) {
  return static_cast<double>(hits) / kWindow /
         (static_cast<double>(bytes) / MemoSizer::kRanks);
}

TEST(MemoSizerTest, StartsAtTheLargestSizeWithinBounds) {
  EXPECT_EQ(kLargest, MemoSizer(Sizing()).InitialBytes());
  MemoSizer::Options o = Sizing();
  o.max_bytes = 0;
  EXPECT_EQ(0u, MemoSizer(o).InitialBytes());
  o.max_bytes = 5000;  // rounded down to a power of two of sets
  EXPECT_EQ(4096u, MemoSizer(o).InitialBytes());
}

TEST(MemoSizerTest, DecidesOnlyAfterAWindowOfGets) {
  MemoSizer sizer(Sizing());
  const size_t bytes = 16384;
  EXPECT_EQ(bytes, sizer.Next(At(100, bytes, 0, 0), Units(1.0)));
  EXPECT_FALSE(sizer.Due(At(100 + kWindow - 1, bytes, 0, 0)));
  EXPECT_EQ(bytes, sizer.Next(At(100 + kWindow - 1, bytes, 0, 0), Units(1.0)));
  EXPECT_TRUE(sizer.Due(At(100 + kWindow, bytes, 0, 0)));
  // No hits at all, units worth something: half the memo goes.
  EXPECT_EQ(bytes / 2, sizer.Next(At(100 + kWindow, bytes, 0, 0), Units(1e-9)));
  EXPECT_EQ(1u, sizer.shrinks());
}

TEST(MemoSizerTest, GrowsWhenTheOldestQuarterEarnsMoreThanUnits) {
  const size_t bytes = 16384;
  const uint64_t hits = 100;
  const double quarter = QuarterValue(hits, bytes);
  MemoSizer sizer(Sizing());
  sizer.Next(At(0, bytes, 0, 0), Units(0));
  // Worth more than units, but not by the margin: it stays.
  EXPECT_EQ(bytes,
            sizer.Next(At(kWindow, bytes, hits, hits), Units(quarter / 1.5)));
  // By the margin: it doubles.
  EXPECT_EQ(2 * bytes, sizer.Next(At(2 * kWindow, bytes, 2 * hits, 2 * hits),
                                  Units(quarter / 2.5)));
  EXPECT_EQ(1u, sizer.grows());
  EXPECT_EQ(0u, sizer.shrinks());
}

TEST(MemoSizerTest, ShrinksWhenTheOlderHalfEarnsLessThanUnits) {
  const size_t bytes = 16384;
  const uint64_t hits = 100;
  // The older half (two ranks, half the bytes) earns what one rank's
  // quarter does.
  const double half = QuarterValue(hits, bytes);
  MemoSizer sizer(Sizing());
  sizer.Next(At(0, bytes, 0, 0), Units(0));
  EXPECT_EQ(bytes,
            sizer.Next(At(kWindow, bytes, 1000, hits), Units(half * 1.5)));
  EXPECT_EQ(bytes / 2, sizer.Next(At(2 * kWindow, bytes, 2000, 2 * hits),
                                  Units(half * 2.5)));
  EXPECT_EQ(1u, sizer.shrinks());
}

TEST(MemoSizerTest, GrowingWeighsTakenUnitsShrinkingWeighsGivenOnes) {
  const size_t bytes = 16384;
  const uint64_t hits = 100;
  const double quarter = QuarterValue(hits, bytes);
  MemoSizer sizer(Sizing());
  sizer.Next(At(0, bytes, 0, 0), Units(0));
  // The units it would take are worth too much, and memory given to units
  // would buy nothing: it stays.
  MemoSizer::UnitValues units;
  units.taken = 10 * quarter;
  units.given = 0;
  EXPECT_EQ(bytes, sizer.Next(At(kWindow, bytes, hits, hits), units));
  // Memory given to units would buy more than the older half earns.
  units.given = 10 * quarter;
  EXPECT_EQ(bytes / 2,
            sizer.Next(At(2 * kWindow, bytes, 2 * hits, 2 * hits), units));
}

TEST(MemoSizerTest, HitsFallingWithAgeCountForLessWhenGrowing) {
  const size_t bytes = 16384;
  // Flat hits: a doubling adds four quarters earning what the oldest did.
  MemoSizer flat(Sizing());
  flat.Next(At(0, bytes, 0, 0), Units(0));
  const double flat_value = 4 * QuarterValue(100, bytes) / 4;
  EXPECT_EQ(2 * bytes,
            flat.Next(At(kWindow, bytes, 100, 100), Units(flat_value / 2.5)));
  // The oldest quarter earned half the next-to-oldest: the doubling's four
  // quarters earn 25 + 12.5 + 6.25 + 3.125 hits, under an eighth of flat.
  MemoSizer::Sample falling = At(kWindow, bytes, 200, 100);
  falling.hits_at[MemoSizer::kRanks - 1] = 50;
  MemoSizer sizer(Sizing());
  sizer.Next(At(0, bytes, 0, 0), Units(0));
  EXPECT_EQ(bytes, sizer.Next(falling, Units(flat_value / 2.5)));
  EXPECT_EQ(0u, sizer.grows());
}

TEST(MemoSizerTest, AFewHitsAreNoReasonToGrow) {
  const size_t bytes = 16384;
  MemoSizer sizer(Sizing());
  sizer.Next(At(0, bytes, 0, 0), Units(0));
  // Units are worth nothing (free memory) but 7 hits are too few.
  EXPECT_EQ(bytes, sizer.Next(At(kWindow, bytes, 7, 7), Units(0.0)));
  EXPECT_EQ(2 * bytes, sizer.Next(At(2 * kWindow, bytes, 15, 15), Units(0.0)));
}

TEST(MemoSizerTest, StaysWithinItsBounds) {
  MemoSizer sizer(Sizing());
  sizer.Next(At(0, kLargest, 0, 0), Units(0));
  EXPECT_EQ(kLargest,
            sizer.Next(At(kWindow, kLargest, 1000, 1000), Units(0.0)));
  EXPECT_EQ(0u, sizer.grows());
  sizer.Next(At(2 * kWindow, kSmallest, 0, 0), Units(0));  // a new window
  // Earning as much as units: it stays at the smallest size.
  EXPECT_EQ(kSmallest, sizer.Next(At(3 * kWindow, kSmallest, 100, 100),
                                  Units(QuarterValue(100, kSmallest))));
  EXPECT_EQ(0u, sizer.shrinks());
}

TEST(MemoSizerTest, OffWhereItDoesNotPayThenMeasuredAgain) {
  MemoSizer::Options o = Sizing();
  o.rest_windows = 4;
  MemoSizer sizer(o);
  sizer.Next(At(0, kSmallest, 0, 0), Units(0));
  // At its smallest and still earning nothing: switched off.
  EXPECT_EQ(0u, sizer.Next(At(kWindow, kSmallest, 0, 0), Units(1.0)));
  EXPECT_EQ(1u, sizer.shrinks());
  EXPECT_FALSE(sizer.Due(At(2 * kWindow, 0, 0, 0)));
  for (uint64_t w = 1; w < 4; ++w) {
    EXPECT_EQ(0u, sizer.Next(At((1 + w) * kWindow, 0, 0, 0), Units(1.0)));
  }
  // Four windows later it measures again at the smallest size.
  EXPECT_EQ(kSmallest, sizer.Next(At(5 * kWindow, 0, 0, 0), Units(1.0)));
  EXPECT_EQ(kSmallest, sizer.Next(At(5 * kWindow, kSmallest, 0, 0), Units(1)));
  // Now it pays: it grows from there.
  EXPECT_EQ(2 * kSmallest,
            sizer.Next(At(6 * kWindow, kSmallest, 1000, 1000), Units(0.0)));
}

TEST(MemoSizerTest, ANewSizeOrAClockGoingBackStartsANewWindow) {
  MemoSizer sizer(Sizing());
  sizer.Next(At(0, 16384, 0, 0), Units(0));
  // The budget granted less than asked: the window starts over.
  EXPECT_FALSE(sizer.Due(At(kWindow, 8192, 0, 0)));
  EXPECT_EQ(8192u, sizer.Next(At(kWindow, 8192, 0, 0), Units(1.0)));
  EXPECT_FALSE(sizer.Due(At(kWindow + 10, 8192, 0, 0)));
  EXPECT_EQ(8192u, sizer.Next(At(5, 8192, 0, 0), Units(1.0)));  // restored
  EXPECT_TRUE(sizer.Due(At(5 + kWindow, 8192, 0, 0)));
}

}  // namespace
}  // namespace leveldb
