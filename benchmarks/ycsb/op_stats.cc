#include "op_stats.h"

namespace ycsb {

const char* OpTypeName(OpType type) {
  static const char* const kNames[kOpTypeCount] = {
      "INSERT", "READ", "READ_ABSENT", "UPDATE", "SCAN", "READ_MODIFY_WRITE"};
  return type < kOpTypeCount ? kNames[type] : "?";
}

void PhaseStats::RecordError(OpType type, const std::string& message) {
  ++ops_[type].errors;
  if (first_error_.empty()) {
    first_error_ = std::string(OpTypeName(type)) + ": " + message;
  }
}

uint64_t PhaseStats::TotalOperations() const {
  uint64_t total = 0;
  for (const OpStats& stats : ops_) total += stats.latency.count();
  return total;
}

uint64_t PhaseStats::TotalErrors() const {
  uint64_t total = 0;
  for (const OpStats& stats : ops_) total += stats.errors;
  return total;
}

void PhaseStats::Merge(const PhaseStats& other) {
  for (int i = 0; i < kOpTypeCount; ++i) {
    ops_[i].latency.Merge(other.ops_[i].latency);
    ops_[i].not_found += other.ops_[i].not_found;
    ops_[i].errors += other.ops_[i].errors;
    ops_[i].scanned_records += other.ops_[i].scanned_records;
  }
  if (first_error_.empty()) first_error_ = other.first_error_;
}

}  // namespace ycsb
