// ResolveTableFilter: what it makes of each kind of policy, bare and
// wrapped in the DB's internal-key adapter.
#include "table/table_filter_setup.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "table/elastic/elastic_filter_policy.h"
#include "table/internal_filter_policy.h"

namespace leveldb {
namespace {

// A policy of the user's own: its filter is the concatenated keys.
class ListPolicy : public FilterPolicy {
 public:
  const char* Name() const override { return "test.ListPolicy"; }
  void CreateFilter(const Slice* keys, int n, std::string* dst) const override {
    for (int i = 0; i < n; ++i) dst->append(keys[i].data(), keys[i].size());
  }
  bool KeyMayMatch(const Slice& key, const Slice& filter) const override {
    return filter.ToString().find(key.ToString()) != std::string::npos;
  }
};

// `user_key` followed by an 8-byte sequence and type.
std::string InternalKeyOf(const std::string& user_key) {
  return user_key + std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8);
}

// True if the setup's Bloom reader reads a stock Bloom filter of user keys
// through keys of the given form (internal keys or user keys).
bool BloomReaderMatches(const TableFilterSetup& setup, bool internal_keys) {
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  const Slice keys[] = {Slice("apple"), Slice("pear")};
  std::string filter;
  bloom->CreateFilter(keys, 2, &filter);
  const std::string probe =
      internal_keys ? InternalKeyOf("apple") : std::string("apple");
  return setup.builtin_bloom->KeyMayMatch(probe, filter);
}

TEST(TableFilterSetupTest, NoPolicyMeansNoFilter) {
  const TableFilterSetup setup = ResolveTableFilter(nullptr);
  EXPECT_EQ(nullptr, setup.policy);
  EXPECT_EQ(nullptr, setup.elastic);
  EXPECT_FALSE(setup.internal_keys);
  EXPECT_EQ(nullptr, setup.builtin_bloom);
}

TEST(TableFilterSetupTest, BuiltinBloom) {
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  const TableFilterSetup bare = ResolveTableFilter(bloom.get());
  EXPECT_EQ(bloom.get(), bare.policy);
  EXPECT_EQ(nullptr, bare.elastic);
  EXPECT_FALSE(bare.internal_keys);
  ASSERT_NE(nullptr, bare.builtin_bloom);
  EXPECT_STREQ("leveldb.BuiltinBloomFilter2", bare.builtin_bloom->Name());
  EXPECT_TRUE(BloomReaderMatches(bare, /*internal_keys=*/false));

  InternalFilterPolicy wrapped(bloom.get());
  const TableFilterSetup internal = ResolveTableFilter(&wrapped);
  EXPECT_EQ(&wrapped, internal.policy);
  EXPECT_EQ(nullptr, internal.elastic);
  EXPECT_TRUE(internal.internal_keys);
  ASSERT_NE(nullptr, internal.builtin_bloom);
  EXPECT_NE(bare.builtin_bloom, internal.builtin_bloom);
  EXPECT_TRUE(BloomReaderMatches(internal, /*internal_keys=*/true));
}

TEST(TableFilterSetupTest, UserPolicy) {
  ListPolicy user;
  const TableFilterSetup bare = ResolveTableFilter(&user);
  EXPECT_EQ(&user, bare.policy);
  EXPECT_EQ(nullptr, bare.elastic);
  EXPECT_FALSE(bare.internal_keys);
  ASSERT_NE(nullptr, bare.builtin_bloom);  // for tables of stock LevelDB
  EXPECT_TRUE(BloomReaderMatches(bare, /*internal_keys=*/false));

  InternalFilterPolicy wrapped(&user);
  const TableFilterSetup internal = ResolveTableFilter(&wrapped);
  EXPECT_EQ(&wrapped, internal.policy);
  EXPECT_EQ(nullptr, internal.elastic);
  EXPECT_TRUE(internal.internal_keys);
  ASSERT_NE(nullptr, internal.builtin_bloom);
  EXPECT_TRUE(BloomReaderMatches(internal, /*internal_keys=*/true));
}

TEST(TableFilterSetupTest, Elastic) {
  std::unique_ptr<const FilterPolicy> elastic(
      NewElasticFilterPolicy(ElasticFilterOptions()));
  const TableFilterSetup bare = ResolveTableFilter(elastic.get());
  EXPECT_EQ(elastic.get(), bare.policy);
  EXPECT_EQ(elastic.get(), bare.elastic);
  EXPECT_FALSE(bare.internal_keys);
  ASSERT_NE(nullptr, bare.builtin_bloom);
  EXPECT_TRUE(BloomReaderMatches(bare, /*internal_keys=*/false));

  InternalFilterPolicy wrapped(elastic.get());
  const TableFilterSetup internal = ResolveTableFilter(&wrapped);
  EXPECT_EQ(&wrapped, internal.policy);
  EXPECT_EQ(elastic.get(), internal.elastic);
  EXPECT_TRUE(internal.internal_keys);
  ASSERT_NE(nullptr, internal.builtin_bloom);
  EXPECT_TRUE(BloomReaderMatches(internal, /*internal_keys=*/true));
}

TEST(TableFilterSetupTest, WrapperOfNoPolicyIsNotElastic) {
  InternalFilterPolicy wrapped(nullptr);
  const TableFilterSetup setup = ResolveTableFilter(&wrapped);
  EXPECT_EQ(&wrapped, setup.policy);
  EXPECT_EQ(nullptr, setup.elastic);
  EXPECT_TRUE(setup.internal_keys);
}

TEST(TableFilterSetupTest, AsElasticPolicyAgreesWithTheSetup) {
  std::unique_ptr<const FilterPolicy> elastic(
      NewElasticFilterPolicy(ElasticFilterOptions()));
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  InternalFilterPolicy wrapped_elastic(elastic.get());
  InternalFilterPolicy wrapped_bloom(bloom.get());
  const FilterPolicy* policies[] = {nullptr, bloom.get(), &wrapped_bloom,
                                    elastic.get(), &wrapped_elastic};
  for (const FilterPolicy* policy : policies) {
    const TableFilterSetup setup = ResolveTableFilter(policy);
    bool strips = false;
    EXPECT_EQ(setup.elastic, AsElasticPolicy(policy, &strips));
    EXPECT_EQ(setup.elastic != nullptr && setup.internal_keys, strips);
  }
}

}  // namespace
}  // namespace leveldb
