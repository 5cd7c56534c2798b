// Latency histogram with exponentially growing buckets, for benchmarks and
// the leveldb.stats property.
#ifndef STORAGE_LEVELDB_UTIL_HISTOGRAM_H_
#define STORAGE_LEVELDB_UTIL_HISTOGRAM_H_

#include <string>
#include <vector>

namespace leveldb {

class Histogram {
 public:
  Histogram();

  void Clear();
  void Add(double value);
  void Merge(const Histogram& other);

  double Count() const { return count_; }
  double Average() const;
  double StandardDeviation() const;
  double Min() const { return min_; }
  double Max() const { return max_; }
  // Estimated value below which p percent of the samples lie (0 <= p <= 100).
  double Percentile(double p) const;
  double Median() const { return Percentile(50.0); }

  // Multi-line summary with count, mean, percentiles and a bucket chart.
  std::string ToString() const;

 private:
  double min_;
  double max_;
  double count_;
  double sum_;
  double sum_squares_;
  std::vector<double> buckets_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_HISTOGRAM_H_
