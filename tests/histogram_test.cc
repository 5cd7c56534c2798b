// Histogram statistics and its text report.
#include "util/histogram.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"

namespace leveldb {
namespace {

TEST(HistogramTest, Empty) {
  Histogram h;
  EXPECT_EQ(0, h.Count());
  EXPECT_EQ(0, h.Average());
  EXPECT_EQ(0, h.StandardDeviation());
  EXPECT_EQ(0, h.Median());
  std::string text = h.ToString();
  EXPECT_NE(std::string::npos, text.find("Count: 0 "));
  EXPECT_EQ(std::string::npos, text.find('#'));
}

TEST(HistogramTest, BasicStatistics) {
  Histogram h;
  for (double v : {1.0, 2.0, 3.0, 4.0, 10.0}) h.Add(v);
  EXPECT_EQ(5, h.Count());
  EXPECT_DOUBLE_EQ(4.0, h.Average());
  EXPECT_EQ(1.0, h.Min());
  EXPECT_EQ(10.0, h.Max());
  // Population standard deviation of {1,2,3,4,10}: sqrt(10).
  EXPECT_NEAR(std::sqrt(10.0), h.StandardDeviation(), 1e-9);
}

TEST(HistogramTest, SingleValuePercentilesCollapse) {
  Histogram h;
  for (int i = 0; i < 100; ++i) h.Add(42);
  EXPECT_EQ(42, h.Median());
  EXPECT_EQ(42, h.Percentile(1));
  EXPECT_EQ(42, h.Percentile(99.9));
  EXPECT_EQ(0, h.StandardDeviation());
}

TEST(HistogramTest, PercentilesAreMonotoneAndBounded) {
  Histogram h;
  for (int i = 1; i <= 10000; ++i) h.Add(i);
  double previous = 0;
  for (double p : {0.0, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 100.0}) {
    double v = h.Percentile(p);
    EXPECT_GE(v, previous) << p;
    EXPECT_GE(v, h.Min());
    EXPECT_LE(v, h.Max());
    previous = v;
  }
  // Buckets are at most ~30% wide, so interpolation lands near the truth.
  EXPECT_NEAR(5000, h.Median(), 5000 * 0.3);
  EXPECT_NEAR(9900, h.Percentile(99), 9900 * 0.3);
  EXPECT_EQ(10000, h.Percentile(100));
}

TEST(HistogramTest, InterpolatesInsideBucket) {
  Histogram h;
  // All samples in one bucket spanning [min, max] after clamping.
  for (int i = 0; i < 4; ++i) h.Add(100);
  for (int i = 0; i < 4; ++i) h.Add(120);
  // Median is halfway through the 8 samples: halfway between 100 and 120.
  EXPECT_NEAR(110, h.Median(), 1e-9);
}

TEST(HistogramTest, ClearResets) {
  Histogram h;
  h.Add(5);
  h.Add(500);
  h.Clear();
  EXPECT_EQ(0, h.Count());
  EXPECT_EQ(0, h.Average());
  h.Add(7);
  EXPECT_EQ(7, h.Min());
  EXPECT_EQ(7, h.Max());
}

TEST(HistogramTest, MergeCombines) {
  Histogram a;
  Histogram b;
  for (int i = 0; i < 50; ++i) a.Add(1);
  for (int i = 0; i < 50; ++i) b.Add(1000);
  a.Merge(b);
  EXPECT_EQ(100, a.Count());
  EXPECT_EQ(1, a.Min());
  EXPECT_EQ(1000, a.Max());
  EXPECT_DOUBLE_EQ(500.5, a.Average());
  // Inside the [1, 1.25) bucket, interpolated.
  EXPECT_LT(a.Percentile(25), 1.25);
  EXPECT_GE(a.Percentile(75), 800.0);

  Histogram empty;
  empty.Merge(a);
  EXPECT_EQ(1, empty.Min());
  EXPECT_EQ(100, empty.Count());
}

TEST(HistogramTest, ToStringReport) {
  Histogram h;
  for (int i = 0; i < 3; ++i) h.Add(1);
  h.Add(1000);
  std::string text = h.ToString();
  EXPECT_NE(std::string::npos, text.find("Count: 4  Average: 250.7500"));
  EXPECT_NE(std::string::npos, text.find("Min: 1.0000"));
  EXPECT_NE(std::string::npos, text.find("Max: 1000.0000"));
  EXPECT_NE(std::string::npos, text.find("P50: "));
  EXPECT_NE(std::string::npos, text.find("P75: "));
  EXPECT_NE(std::string::npos, text.find("P99: "));
  EXPECT_NE(std::string::npos, text.find("P99.9: "));
  // Two non-empty buckets: 75% gets 15 marks, 25% gets 5.
  EXPECT_NE(std::string::npos, text.find(" 75.000% "));
  EXPECT_NE(std::string::npos, text.find(std::string(15, '#') + "\n"));
  EXPECT_NE(std::string::npos, text.find(" " + std::string(5, '#') + "\n"));
  EXPECT_NE(std::string::npos, text.find("100.000%"));
}

TEST(HistogramTest, HugeAndTinyValues) {
  Histogram h;
  h.Add(0);
  h.Add(0.5);
  h.Add(1e30);
  EXPECT_EQ(3, h.Count());
  EXPECT_EQ(0, h.Min());
  EXPECT_EQ(1e30, h.Max());
  EXPECT_LE(h.Percentile(100), 1e30);
  EXPECT_FALSE(h.ToString().empty());
}

}  // namespace
}  // namespace leveldb
