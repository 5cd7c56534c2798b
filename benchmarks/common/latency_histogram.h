// Latency histogram of the YCSB runner and db_bench --histogram: log-linear
// buckets (32 per power of two, so a percentile is within about 3% of the
// true value), exact count, sum, minimum and maximum. One per operation type
// and thread; merged after the threads finish.
#ifndef LEVELDB_BENCHMARKS_COMMON_LATENCY_HISTOGRAM_H_
#define LEVELDB_BENCHMARKS_COMMON_LATENCY_HISTOGRAM_H_

#include <cstdint>
#include <vector>

namespace bench {

class LatencyHistogram {
 public:
  LatencyHistogram();

  void Add(uint64_t nanos);
  void Merge(const LatencyHistogram& other);

  uint64_t count() const { return count_; }
  uint64_t min() const { return count_ == 0 ? 0 : min_; }
  uint64_t max() const { return max_; }
  double Average() const;
  double StdDev() const;
  // Samples in bucket `index`.
  uint64_t bucket(int index) const { return buckets_[index]; }
  // The latency below which `percent` % of the samples fall, in [min, max];
  // 0 when empty.
  double Percentile(double percent) const;

  // Bucket layout, exposed for tests.
  static int BucketIndex(uint64_t nanos);
  static uint64_t BucketLow(int index);
  static uint64_t BucketHigh(int index);  // inclusive
  static int BucketCount();

 private:
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
  double sum_ = 0;
  double sum_squares_ = 0;
};

}  // namespace bench

#endif  // LEVELDB_BENCHMARKS_COMMON_LATENCY_HISTOGRAM_H_
