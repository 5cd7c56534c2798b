// The name NewBloomFilterPolicy's policy reports: tables name its filter
// block "filter." + this, and the LEVELDB_ELASTICBF switch replaces only
// that policy, so all of them read the one constant.
#ifndef STORAGE_LEVELDB_UTIL_BUILTIN_BLOOM_H_
#define STORAGE_LEVELDB_UTIL_BUILTIN_BLOOM_H_

namespace leveldb {

inline constexpr char kBuiltinBloomPolicyName[] = "leveldb.BuiltinBloomFilter2";

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_BUILTIN_BLOOM_H_
