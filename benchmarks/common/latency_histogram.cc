#include "latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace bench {

namespace {

constexpr int kSubBits = 5;
constexpr uint64_t kSubBuckets = uint64_t{1} << kSubBits;  // per power of 2
// Values below kSubBuckets get a bucket each; every larger power of two up
// to 2^63 gets kSubBuckets.
constexpr int kBucketCount =
    static_cast<int>(kSubBuckets + (64 - kSubBits) * kSubBuckets);

int HighestBit(uint64_t value) { return 63 - __builtin_clzll(value); }

}  // namespace

LatencyHistogram::LatencyHistogram() : buckets_(kBucketCount, 0) {}

int LatencyHistogram::BucketCount() { return kBucketCount; }

int LatencyHistogram::BucketIndex(uint64_t nanos) {
  if (nanos < kSubBuckets) return static_cast<int>(nanos);
  const int exponent = HighestBit(nanos);
  const int shift = exponent - kSubBits;
  const uint64_t mantissa = (nanos >> shift) - kSubBuckets;
  return static_cast<int>(kSubBuckets + shift * kSubBuckets + mantissa);
}

uint64_t LatencyHistogram::BucketLow(int index) {
  if (index < static_cast<int>(kSubBuckets)) return index;
  const int shift = (index - static_cast<int>(kSubBuckets)) >> kSubBits;
  const uint64_t mantissa = static_cast<uint64_t>(index) % kSubBuckets;
  return (kSubBuckets + mantissa) << shift;
}

uint64_t LatencyHistogram::BucketHigh(int index) {
  if (index + 1 >= kBucketCount) return UINT64_MAX;
  return BucketLow(index + 1) - 1;
}

void LatencyHistogram::Add(uint64_t nanos) {
  ++buckets_[BucketIndex(nanos)];
  ++count_;
  min_ = std::min(min_, nanos);
  max_ = std::max(max_, nanos);
  sum_ += static_cast<double>(nanos);
  sum_squares_ += static_cast<double>(nanos) * static_cast<double>(nanos);
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (int i = 0; i < kBucketCount; ++i) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
  sum_squares_ += other.sum_squares_;
}

double LatencyHistogram::Average() const {
  return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_);
}

double LatencyHistogram::StdDev() const {
  if (count_ == 0) return 0.0;
  const double mean = Average();
  const double variance =
      sum_squares_ / static_cast<double>(count_) - mean * mean;
  return variance > 0 ? std::sqrt(variance) : 0.0;
}

double LatencyHistogram::Percentile(double percent) const {
  if (count_ == 0) return 0.0;
  // Rank of the sample that answers the query (1-based).
  uint64_t rank = static_cast<uint64_t>(
      std::ceil(percent / 100.0 * static_cast<double>(count_)));
  rank = std::clamp<uint64_t>(rank, 1, count_);
  uint64_t seen = 0;
  for (int i = 0; i < kBucketCount; ++i) {
    if (buckets_[i] == 0) continue;
    if (seen + buckets_[i] >= rank) {
      // Interpolate linearly inside the bucket, then stay within the
      // observed range.
      const double low = static_cast<double>(BucketLow(i));
      const double high = static_cast<double>(BucketHigh(i)) + 1.0;
      const double fraction =
          static_cast<double>(rank - seen) / static_cast<double>(buckets_[i]);
      const double estimate = low + (high - low) * fraction;
      return std::clamp(estimate, static_cast<double>(min_),
                        static_cast<double>(max_));
    }
    seen += buckets_[i];
  }
  return static_cast<double>(max_);
}

}  // namespace bench
