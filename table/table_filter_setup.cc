#include "table/table_filter_setup.h"

#include "leveldb/filter_policy.h"
#include "table/elastic/elastic_filter_policy.h"
#include "table/internal_filter_policy.h"
#include "util/no_destructor.h"

namespace leveldb {

namespace {

// The probe count comes from each Bloom filter itself, so the bits per key
// chosen here do not matter for reading.
const FilterPolicy* BuiltinBloom() {
  static const FilterPolicy* const policy = NewBloomFilterPolicy(10);
  return policy;
}

// The same for tables whose keys are internal keys.
const FilterPolicy* InternalBuiltinBloom() {
  static NoDestructor<InternalFilterPolicy> policy(BuiltinBloom());
  return policy.get();
}

}  // namespace

TableFilterSetup ResolveTableFilter(const FilterPolicy* policy) {
  TableFilterSetup setup;
  if (policy == nullptr) return setup;
  setup.policy = policy;
  const FilterPolicy* user_policy = policy;
  if (auto* wrapper = dynamic_cast<const InternalFilterPolicy*>(policy)) {
    setup.internal_keys = true;
    user_policy = wrapper->user_policy();
  }
  setup.elastic = dynamic_cast<const ElasticFilterPolicy*>(user_policy);
  setup.builtin_bloom =
      setup.internal_keys ? InternalBuiltinBloom() : BuiltinBloom();
  return setup;
}

}  // namespace leveldb
