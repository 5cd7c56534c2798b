// The ElasticBF filter policy: carries ElasticFilterOptions from the user to
// the table layer, which builds and probes filter groups itself (see
// table/elastic/filter_unit.h) instead of calling CreateFilter/KeyMayMatch.
#ifndef STORAGE_LEVELDB_TABLE_ELASTIC_ELASTIC_FILTER_POLICY_H_
#define STORAGE_LEVELDB_TABLE_ELASTIC_ELASTIC_FILTER_POLICY_H_

#include <cstdint>
#include <string>

#include "leveldb/elastic_filter.h"
#include "leveldb/filter_policy.h"

namespace leveldb {

class ElasticFilterPolicy : public FilterPolicy {
 public:
  explicit ElasticFilterPolicy(const ElasticFilterOptions& options);

  const char* Name() const override;

  // Only for code that treats this as a standard policy: builds one filter
  // unit of index 0 at bits_per_unit bits per key over the keys, and probes
  // such a filter. The elastic table format does not use them.
  void CreateFilter(const Slice* keys, int n, std::string* dst) const override;
  bool KeyMayMatch(const Slice& key, const Slice& filter) const override;

  const ElasticFilterOptions& options() const { return options_; }

  // The key count that completes a segment (table/elastic/segment.h) when
  // segment_bytes is 0, with bits_per_unit clamped to [1, 32]; 0 when
  // segment_bytes is set.
  int keys_per_segment() const;

  // True once an open segment holding `keys` keys and `data_bytes` bytes of
  // data blocks is complete, by the rule in table/elastic/segment.h; it is
  // then closed at the next block boundary.
  bool SegmentComplete(uint64_t keys, uint64_t data_bytes) const;

 private:
  const ElasticFilterOptions options_;
};

// `options` with an automatic unit shape (bits_per_unit or
// units_per_segment 0) replaced by the one chosen for its budget (see
// include/leveldb/elastic_filter.h); other fields, valid or not, as given.
// The policy holds its options in this form.
ElasticFilterOptions ResolveElasticShape(const ElasticFilterOptions& options);

// What ValidateElasticFilterOptions rejects, in parts, so that callers
// reading options from elsewhere (an environment variable) can word the
// error in their own terms.
struct ElasticOptionProblem {
  std::string field;  // e.g. "bits_per_unit"
  std::string value;  // the rejected value, as text
  std::string rule;   // e.g. "must be in [1, 32]"
};

// Fills *problem with the first invalid field of `options` and returns
// true; returns false when every field is valid.
bool FindElasticOptionProblem(const ElasticFilterOptions& options,
                              ElasticOptionProblem* problem);

// Returns the ElasticFilterPolicy behind `policy`, which may be the policy
// itself or the DB's InternalFilterPolicy wrapping it; nullptr for any other
// policy (or nullptr). *strips_internal_suffix (if not null) is set to true
// exactly when the policy is wrapped, i.e. when the keys handed to the table
// are internal keys whose 8-byte trailer must be removed before hashing.
// A shorthand for ResolveTableFilter (table/table_filter_setup.h), for
// checks made once, e.g. when a DB opens; tables take the resolved setup.
const ElasticFilterPolicy* AsElasticPolicy(const FilterPolicy* policy,
                                           bool* strips_internal_suffix);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_ELASTIC_ELASTIC_FILTER_POLICY_H_
