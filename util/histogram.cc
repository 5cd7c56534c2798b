// Histogram over fixed, exponentially spaced buckets. Bucket edges follow
// the R10 preferred-number series (ten steps per decade, ratio ~1.26).
#include "util/histogram.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>

namespace leveldb {

namespace {

// Upper edges of every bucket; bucket i holds [edge(i-1), edge(i)), with
// edge(-1) = 0. The last edge is infinite, so every value has a bucket.
const std::vector<double>& BucketEdges() {
  static const std::vector<double> edges = [] {
    static const double kSteps[] = {1.0,  1.25, 1.6, 2.0, 2.5,
                                    3.15, 4.0,  5.0, 6.3, 8.0};
    std::vector<double> e;
    double decade = 1.0;
    for (int d = 0; d < 16; ++d, decade *= 10.0) {
      for (double step : kSteps) e.push_back(step * decade);
    }
    e.push_back(std::numeric_limits<double>::infinity());
    return e;
  }();
  return edges;
}

size_t BucketFor(double value) {
  const std::vector<double>& edges = BucketEdges();
  // First edge strictly greater than value.
  auto it = std::upper_bound(edges.begin(), edges.end(), value);
  if (it == edges.end()) --it;
  return static_cast<size_t>(it - edges.begin());
}

double LowerEdge(size_t bucket) {
  return bucket == 0 ? 0.0 : BucketEdges()[bucket - 1];
}

}  // namespace

Histogram::Histogram() { Clear(); }

void Histogram::Clear() {
  min_ = DBL_MAX;
  max_ = 0;
  count_ = 0;
  sum_ = 0;
  sum_squares_ = 0;
  buckets_.assign(BucketEdges().size(), 0.0);
}

void Histogram::Add(double value) {
  buckets_[BucketFor(value)] += 1.0;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
  count_ += 1;
  sum_ += value;
  sum_squares_ += value * value;
}

void Histogram::Merge(const Histogram& other) {
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  sum_ += other.sum_;
  sum_squares_ += other.sum_squares_;
  for (size_t i = 0; i < buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
}

double Histogram::Average() const { return count_ == 0 ? 0.0 : sum_ / count_; }

double Histogram::StandardDeviation() const {
  if (count_ == 0) return 0.0;
  const double variance =
      (sum_squares_ * count_ - sum_ * sum_) / (count_ * count_);
  // Rounding can push a zero variance slightly negative.
  return variance <= 0 ? 0.0 : std::sqrt(variance);
}

double Histogram::Percentile(double p) const {
  if (count_ == 0) return 0.0;
  const double target = count_ * (p / 100.0);
  double seen = 0;
  for (size_t b = 0; b < buckets_.size(); ++b) {
    if (buckets_[b] == 0) continue;
    const double before = seen;
    seen += buckets_[b];
    if (seen < target) continue;
    // Assume the samples are spread evenly across the bucket's range, then
    // clamp to what was actually observed.
    const double lo = std::max(LowerEdge(b), min_);
    const double hi = std::min(BucketEdges()[b], max_);
    const double frac = (target - before) / buckets_[b];
    return std::clamp(lo + (hi - lo) * frac, min_, max_);
  }
  return max_;
}

std::string Histogram::ToString() const {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof(line),
                "Count: %.0f  Average: %.4f  StdDev: %.2f\n", count_, Average(),
                StandardDeviation());
  out.append(line);
  std::snprintf(line, sizeof(line), "Min: %.4f  Median: %.4f  Max: %.4f\n",
                count_ == 0 ? 0.0 : min_, Median(), max_);
  out.append(line);
  std::snprintf(line, sizeof(line),
                "Percentiles: P50: %.2f P75: %.2f P99: %.2f P99.9: %.2f\n",
                Percentile(50), Percentile(75), Percentile(99),
                Percentile(99.9));
  out.append(line);
  out.append(std::string(54, '-'));
  out.push_back('\n');

  constexpr int kBarWidth = 20;
  double running = 0;
  for (size_t b = 0; b < buckets_.size(); ++b) {
    if (buckets_[b] == 0) continue;
    running += buckets_[b];
    const double share = buckets_[b] / count_;
    std::snprintf(line, sizeof(line), "[ %7.0f, %7.0f ) %7.0f %7.3f%% %7.3f%% ",
                  LowerEdge(b), BucketEdges()[b], buckets_[b], 100.0 * share,
                  100.0 * running / count_);
    out.append(line);
    const int marks = static_cast<int>(kBarWidth * share + 0.5);
    out.append(static_cast<size_t>(marks), '#');
    out.push_back('\n');
  }
  return out;
}

}  // namespace leveldb
