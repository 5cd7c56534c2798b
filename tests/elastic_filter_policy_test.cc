// ElasticFilterOptions validation, the policy's accessors and segment rule,
// its standard-policy fallback, and AsElasticPolicy.
#include "table/elastic/elastic_filter_policy.h"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {
namespace {

// Expects InvalidArgument whose message names the field and the value.
void ExpectRejected(const ElasticFilterOptions& options, const char* field,
                    const std::string& value) {
  const Status s = ValidateElasticFilterOptions(options);
  ASSERT_TRUE(s.IsInvalidArgument())
      << field << "=" << value << ": " << s.ToString();
  const std::string message = s.ToString();
  EXPECT_NE(std::string::npos, message.find(field)) << message;
  EXPECT_NE(std::string::npos, message.find(value)) << message;
}

void ExpectAccepted(const ElasticFilterOptions& options) {
  const Status s = ValidateElasticFilterOptions(options);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// Sets `field` of `o` to each of `good` (accepted) and then to each of `bad`
// (rejected by a message naming `name` and the value).
template <typename T>
void CheckField(ElasticFilterOptions o, T ElasticFilterOptions::*field,
                const char* name, std::initializer_list<T> good,
                std::initializer_list<T> bad) {
  for (T v : good) {
    o.*field = v;
    ExpectAccepted(o);
  }
  for (T v : bad) {
    o.*field = v;
    ExpectRejected(o, name, std::to_string(v));
  }
}

TEST(ElasticFilterOptionsTest, Defaults) {
  const ElasticFilterOptions o;
  EXPECT_EQ(0, o.bits_per_unit);  // automatic: 1 x 16 at 4 bits per key
  EXPECT_EQ(0, o.units_per_segment);
  EXPECT_EQ(0u, o.segment_bytes);
  EXPECT_EQ(4.0, o.memory_bits_per_key);
  EXPECT_EQ(0u, o.memory_budget_bytes);
  EXPECT_EQ(0u, o.lifetime);
  EXPECT_EQ(1, o.initial_units);
  EXPECT_FALSE(o.inherit_hotness);  // chosen by measurement
  EXPECT_EQ(ElasticFilterOptions::UnitKind::kRibbon, o.unit_kind);
  ExpectAccepted(o);
}

TEST(ElasticFilterOptionsTest, UnitKind) {
  using Kind = ElasticFilterOptions::UnitKind;
  ElasticFilterOptions o;
  o.unit_kind = Kind::kRibbon;
  ExpectAccepted(o);  // 1 x 16 = 16 planes
  o.unit_kind = static_cast<Kind>(2);
  ExpectRejected(o, "unit_kind", "2");
  o.unit_kind = static_cast<Kind>(-1);
  ExpectRejected(o, "unit_kind", "-1");

  // Both kinds take every shape the other limits allow, up to 32 x 16.
  for (Kind kind : {Kind::kRibbon, Kind::kBloom}) {
    o.unit_kind = kind;
    for (auto shape :
         {std::pair<int, int>{32, 2}, {4, 16}, {1, 1}, {5, 13}, {32, 16}}) {
      o.bits_per_unit = shape.first;
      o.units_per_segment = shape.second;
      ExpectAccepted(o);
    }
  }
}

TEST(ElasticFilterOptionsTest, BitsPerUnit) {
  CheckField(ElasticFilterOptions(), &ElasticFilterOptions::bits_per_unit,
             "bits_per_unit", {0, 1, 2, 31, 32}, {-1, 33, 1000});
}

TEST(ElasticFilterOptionsTest, UnitsPerSegment) {
  ElasticFilterOptions o;
  o.initial_units = 0;
  CheckField(o, &ElasticFilterOptions::units_per_segment, "units_per_segment",
             {0, 1, 2, 15, 16}, {-3, 17, 64});
}

TEST(ElasticFilterOptionsTest, AutomaticShapeFollowsTheBudget) {
  using Kind = ElasticFilterOptions::UnitKind;
  struct Case {
    Kind kind;
    double budget_bits;
    int bits_per_unit;
    int units;
  };
  // Ribbon: one plane per unit while 16 units cover the budget plus one.
  // Bloom: half the budget per unit, at least 1. Both in [1, 8] bits, with
  // 24 bits per key on disk or the budget plus one unit, at most 16 units.
  const Case cases[] = {
      {Kind::kRibbon, 0, 1, 16},   {Kind::kRibbon, 4, 1, 16},
      {Kind::kRibbon, 15, 1, 16},  {Kind::kRibbon, 15.5, 2, 12},
      {Kind::kRibbon, 16, 2, 12},  {Kind::kRibbon, 30, 2, 16},
      {Kind::kRibbon, 40, 3, 15},  {Kind::kRibbon, 1e6, 8, 16},
      {Kind::kBloom, 0, 1, 16},    {Kind::kBloom, 1, 1, 16},
      {Kind::kBloom, 3.99, 1, 16}, {Kind::kBloom, 4, 2, 12},
      {Kind::kBloom, 6, 3, 8},     {Kind::kBloom, 8, 4, 6},
      {Kind::kBloom, 12, 6, 4},    {Kind::kBloom, 16, 8, 3},
      {Kind::kBloom, 30, 8, 5},    {Kind::kBloom, 1e6, 8, 16},
  };
  for (const Case& c : cases) {
    ElasticFilterOptions o;
    o.unit_kind = c.kind;
    o.memory_bits_per_key = c.budget_bits;
    const ElasticFilterOptions r = ResolveElasticShape(o);
    const int kind = static_cast<int>(c.kind);
    EXPECT_EQ(c.bits_per_unit, r.bits_per_unit) << kind << " " << c.budget_bits;
    EXPECT_EQ(c.units, r.units_per_segment) << kind << " " << c.budget_bits;
    ExpectAccepted(o);
  }
  // A budget in bytes has no per-key size when tables are written: the
  // shape of 4 bits per key.
  ElasticFilterOptions bytes;
  bytes.memory_bits_per_key = 20;
  bytes.memory_budget_bytes = 1 << 20;
  EXPECT_EQ(1, ResolveElasticShape(bytes).bits_per_unit);
  EXPECT_EQ(16, ResolveElasticShape(bytes).units_per_segment);
  bytes.unit_kind = Kind::kBloom;
  EXPECT_EQ(2, ResolveElasticShape(bytes).bits_per_unit);
  EXPECT_EQ(12, ResolveElasticShape(bytes).units_per_segment);
  // A value given is kept; the other one follows it.
  ElasticFilterOptions given;
  given.bits_per_unit = 5;
  EXPECT_EQ(5, ResolveElasticShape(given).bits_per_unit);
  EXPECT_EQ(5, ResolveElasticShape(given).units_per_segment);
  given.bits_per_unit = 0;
  given.units_per_segment = 3;
  EXPECT_EQ(1, ResolveElasticShape(given).bits_per_unit);
  EXPECT_EQ(3, ResolveElasticShape(given).units_per_segment);
  // Invalid values pass through to validation.
  given.bits_per_unit = -2;
  given.units_per_segment = 0;
  EXPECT_EQ(-2, ResolveElasticShape(given).bits_per_unit);
  EXPECT_EQ(0, ResolveElasticShape(given).units_per_segment);
  ExpectRejected(given, "bits_per_unit", "-2");
}

TEST(ElasticFilterOptionsTest, InitialUnits) {
  ElasticFilterOptions o;
  o.units_per_segment = 6;
  CheckField(o, &ElasticFilterOptions::initial_units, "initial_units",
             {0, 1, 5, 6}, {-1, 7, 100});
  // The upper bound follows units_per_segment, automatic ones included.
  o.units_per_segment = 0;  // 12 Bloom units at 4 bits per key
  o.unit_kind = ElasticFilterOptions::UnitKind::kBloom;
  o.initial_units = 12;
  ExpectAccepted(o);
  o.initial_units = 13;
  ExpectRejected(o, "initial_units", "13");
  o.unit_kind = ElasticFilterOptions::UnitKind::kRibbon;
  o.units_per_segment = 16;
  o.initial_units = 16;
  ExpectAccepted(o);
  o.units_per_segment = 1;
  o.initial_units = 2;
  ExpectRejected(o, "initial_units", "2");
}

TEST(ElasticFilterOptionsTest, MemoryBitsPerKey) {
  ElasticFilterOptions o;
  for (double v : {0.0, 0.5, 4.0, 1e6}) {
    o.memory_bits_per_key = v;
    ExpectAccepted(o);
  }
  o.memory_bits_per_key = -0.5;
  ExpectRejected(o, "memory_bits_per_key", "-0.5");
  o.memory_bits_per_key = std::numeric_limits<double>::infinity();
  ExpectRejected(o, "memory_bits_per_key", "inf");
  o.memory_bits_per_key = -std::numeric_limits<double>::infinity();
  ExpectRejected(o, "memory_bits_per_key", "inf");
  o.memory_bits_per_key = std::numeric_limits<double>::quiet_NaN();
  ExpectRejected(o, "memory_bits_per_key", "nan");
}

TEST(ElasticFilterOptionsTest, SegmentBytes) {
  CheckField<size_t>(ElasticFilterOptions(),
                     &ElasticFilterOptions::segment_bytes, "segment_bytes",
                     {0, 1024, 1025, size_t{4} << 20}, {1, 512, 1023});
}

TEST(ElasticFilterOptionsTest, UncheckedFieldsAcceptAnyValue) {
  ElasticFilterOptions o;
  o.memory_budget_bytes = std::numeric_limits<size_t>::max();
  o.lifetime = std::numeric_limits<uint64_t>::max();
  o.inherit_hotness = true;
  ExpectAccepted(o);
}

TEST(ElasticFilterPolicyTest, NameAndOptions) {
  ElasticFilterOptions o;
  o.bits_per_unit = 5;
  o.units_per_segment = 3;
  o.lifetime = 777;
  std::unique_ptr<const FilterPolicy> policy(NewElasticFilterPolicy(o));
  EXPECT_STREQ("leveldb.ElasticBF", policy->Name());
  const ElasticFilterPolicy* elastic = AsElasticPolicy(policy.get(), nullptr);
  ASSERT_NE(nullptr, elastic);
  EXPECT_EQ(5, elastic->options().bits_per_unit);
  EXPECT_EQ(3, elastic->options().units_per_segment);
  EXPECT_EQ(777u, elastic->options().lifetime);
  // The policy holds the automatic shape resolved.
  std::unique_ptr<const FilterPolicy> automatic(
      NewElasticFilterPolicy(ElasticFilterOptions()));
  elastic = AsElasticPolicy(automatic.get(), nullptr);
  ASSERT_NE(nullptr, elastic);
  EXPECT_EQ(1, elastic->options().bits_per_unit);
  EXPECT_EQ(16, elastic->options().units_per_segment);
  EXPECT_EQ(32768, elastic->keys_per_segment());
}

TEST(ElasticFilterPolicyTest, KeysPerSegment) {
  ElasticFilterOptions o;
  // One unit of one 4 KiB page: 32768 bits / bits_per_unit.
  const std::vector<std::pair<int, int>> cases = {
      {1, 32768}, {4, 8192}, {5, 6553}, {8, 4096}, {32, 1024}};
  for (const auto& c : cases) {
    o.bits_per_unit = c.first;
    ElasticFilterPolicy policy(o);
    EXPECT_EQ(c.second, policy.keys_per_segment()) << c.first;
    EXPECT_FALSE(policy.SegmentComplete(c.second - 1, 1u << 30));
    EXPECT_TRUE(policy.SegmentComplete(c.second, 0));
  }
  // Out-of-range widths never divide by zero.
  o.bits_per_unit = -7;
  EXPECT_EQ(32768, ElasticFilterPolicy(o).keys_per_segment());
  o.bits_per_unit = 1000;
  EXPECT_EQ(1024, ElasticFilterPolicy(o).keys_per_segment());
  // With segment_bytes set, segments are cut by data bytes.
  o.bits_per_unit = 4;
  o.segment_bytes = 64 << 10;
  ElasticFilterPolicy by_bytes(o);
  EXPECT_EQ(0, by_bytes.keys_per_segment());
  EXPECT_FALSE(by_bytes.SegmentComplete(1000000, (64 << 10) - 1));
  EXPECT_TRUE(by_bytes.SegmentComplete(1, 64 << 10));
}

TEST(ElasticFilterPolicyTest, StandardPolicyFallback) {
  // Used as an ordinary policy, it builds and probes one unit over the keys.
  ElasticFilterOptions o;
  o.bits_per_unit = 10;
  ElasticFilterPolicy policy(o);
  std::vector<std::string> storage;
  for (int i = 0; i < 2000; ++i) storage.push_back("key" + std::to_string(i));
  std::vector<Slice> keys(storage.begin(), storage.end());
  std::string filter = "keep";
  policy.CreateFilter(keys.data(), static_cast<int>(keys.size()), &filter);
  ASSERT_EQ("keep", filter.substr(0, 4));
  const Slice built(filter.data() + 4, filter.size() - 4);
  for (const Slice& key : keys) ASSERT_TRUE(policy.KeyMayMatch(key, built));
  int positives = 0;
  for (int i = 0; i < 10000; ++i) {
    positives += policy.KeyMayMatch("absent" + std::to_string(i), built);
  }
  // 10 bits per key, 7 probes: theory 0.8%; allow up to 2%.
  EXPECT_LT(positives, 200);
  // An empty filter rejects, a garbage one never does.
  std::string empty;
  policy.CreateFilter(nullptr, 0, &empty);
  EXPECT_FALSE(policy.KeyMayMatch("anything", empty));
  EXPECT_TRUE(policy.KeyMayMatch("anything", "garbage"));
  // Invalid options must not break it either.
  o.bits_per_unit = -1;
  ElasticFilterPolicy degenerate(o);
  std::string f;
  degenerate.CreateFilter(keys.data(), static_cast<int>(keys.size()), &f);
  for (const Slice& key : keys) ASSERT_TRUE(degenerate.KeyMayMatch(key, f));
}

TEST(ElasticFilterPolicyTest, AsElasticPolicyDirectAndWrapped) {
  std::unique_ptr<const FilterPolicy> elastic(
      NewElasticFilterPolicy(ElasticFilterOptions()));
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));

  bool strips = true;
  EXPECT_EQ(elastic.get(), AsElasticPolicy(elastic.get(), &strips));
  EXPECT_FALSE(strips);

  InternalFilterPolicy wrapped(elastic.get());
  strips = false;
  EXPECT_EQ(elastic.get(), AsElasticPolicy(&wrapped, &strips));
  EXPECT_TRUE(strips);
  EXPECT_EQ(elastic.get(), AsElasticPolicy(&wrapped, nullptr));

  strips = true;
  EXPECT_EQ(nullptr, AsElasticPolicy(bloom.get(), &strips));
  EXPECT_FALSE(strips);

  InternalFilterPolicy wrapped_bloom(bloom.get());
  strips = true;
  EXPECT_EQ(nullptr, AsElasticPolicy(&wrapped_bloom, &strips));
  EXPECT_FALSE(strips);

  InternalFilterPolicy wrapped_null(nullptr);
  EXPECT_EQ(nullptr, AsElasticPolicy(&wrapped_null, &strips));
  strips = true;
  EXPECT_EQ(nullptr, AsElasticPolicy(nullptr, &strips));
  EXPECT_FALSE(strips);
}

}  // namespace
}  // namespace leveldb
