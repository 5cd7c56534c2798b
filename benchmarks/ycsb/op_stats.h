// Per-operation-type results of a YCSB phase: latencies, misses and errors.
#ifndef LEVELDB_BENCHMARKS_YCSB_OP_STATS_H_
#define LEVELDB_BENCHMARKS_YCSB_OP_STATS_H_

#include <cstdint>
#include <string>

#include "../common/latency_histogram.h"

namespace ycsb {

using bench::LatencyHistogram;

enum OpType {
  kInsert,
  kRead,
  kReadAbsent,  // reads of keys that were never written (zerolookup)
  kUpdate,
  kScan,
  kReadModifyWrite,
  kOpTypeCount
};

const char* OpTypeName(OpType type);

struct OpStats {
  LatencyHistogram latency;
  // Operations whose key was not in the database. Expected for every
  // READ_ABSENT; for reads and updates of loaded keys it signals lost data
  // (or a key inserted concurrently by another thread, under "latest").
  uint64_t not_found = 0;
  // Engine errors, malformed records and absent keys that were found.
  uint64_t errors = 0;
  // Records visited by scans.
  uint64_t scanned_records = 0;
};

class PhaseStats {
 public:
  OpStats& op(OpType type) { return ops_[type]; }
  const OpStats& op(OpType type) const { return ops_[type]; }

  // Counts an error; the first message is kept for the report.
  void RecordError(OpType type, const std::string& message);
  const std::string& first_error() const { return first_error_; }

  uint64_t TotalOperations() const;
  uint64_t TotalErrors() const;
  void Merge(const PhaseStats& other);

 private:
  OpStats ops_[kOpTypeCount];
  std::string first_error_;
};

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_OP_STATS_H_
