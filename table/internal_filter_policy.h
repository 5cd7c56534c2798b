// A filter policy for tables whose keys are a DB's internal keys (user key
// followed by an 8-byte sequence and type): filters hold and probe the user
// keys only, through the user's policy.
#ifndef STORAGE_LEVELDB_TABLE_INTERNAL_FILTER_POLICY_H_
#define STORAGE_LEVELDB_TABLE_INTERNAL_FILTER_POLICY_H_

#include <string>

#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"

namespace leveldb {

class InternalFilterPolicy : public FilterPolicy {
 public:
  explicit InternalFilterPolicy(const FilterPolicy* p) : user_policy_(p) {}
  const char* Name() const override;
  void CreateFilter(const Slice* keys, int n, std::string* dst) const override;
  bool KeyMayMatch(const Slice& key, const Slice& filter) const override;

  const FilterPolicy* user_policy() const { return user_policy_; }

 private:
  const FilterPolicy* const user_policy_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_INTERNAL_FILTER_POLICY_H_
