#include "table/internal_filter_policy.h"

#include <vector>

namespace leveldb {

namespace {

// The user key inside an internal key (a key too short to carry the 8-byte
// tag is taken whole).
Slice UserKeyOf(const Slice& internal_key) {
  constexpr size_t kTagSize = 8;
  if (internal_key.size() < kTagSize) return internal_key;
  return Slice(internal_key.data(), internal_key.size() - kTagSize);
}

}  // namespace

const char* InternalFilterPolicy::Name() const { return user_policy_->Name(); }

void InternalFilterPolicy::CreateFilter(const Slice* keys, int n,
                                        std::string* dst) const {
  // Copy instead of narrowing the caller's array in place: a caller may
  // build several filters (e.g. ElasticBF units) from the same keys.
  std::vector<Slice> user_keys;
  user_keys.reserve(n > 0 ? static_cast<size_t>(n) : 0);
  for (int i = 0; i < n; ++i) user_keys.push_back(UserKeyOf(keys[i]));
  user_policy_->CreateFilter(user_keys.data(), n, dst);
}

bool InternalFilterPolicy::KeyMayMatch(const Slice& key,
                                       const Slice& filter) const {
  return user_policy_->KeyMayMatch(UserKeyOf(key), filter);
}

}  // namespace leveldb
