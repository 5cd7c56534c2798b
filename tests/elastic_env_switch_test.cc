// The LEVELDB_ELASTICBF environment switch: its parser, the decision for a
// database's filter policy, and DB::Open with the variable set (ElasticBF
// replaces the built-in Bloom policy or no policy, never the application's
// own; an invalid value fails before anything is created; hotness stays out
// of the MANIFEST unless asked for).
#include "db/elastic_env_switch.h"

#include <atomic>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/version_edit.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/write_batch.h"
#include "table/elastic/elastic_filter_policy.h"
#include "tests/db_impl_test_peer.h"
#include "tests/db_test_helpers.h"
#include "tests/elastic_test_helpers.h"
#include "tests/test_util.h"

namespace leveldb {
namespace {

using test::AbsentKey;
using test::PresentKey;

// Sets (or, with nullopt, unsets) the variable for the life of the object
// and restores what was there before.
class ScopedElasticVariable {
 public:
  explicit ScopedElasticVariable(std::optional<std::string> value) {
    const char* old = std::getenv(kElasticEnvVariable);
    if (old != nullptr) saved_ = old;
    Set(value);
  }
  ~ScopedElasticVariable() { Set(saved_); }

  ScopedElasticVariable(const ScopedElasticVariable&) = delete;
  ScopedElasticVariable& operator=(const ScopedElasticVariable&) = delete;

 private:
  static void Set(const std::optional<std::string>& value) {
    if (value.has_value()) {
      setenv(kElasticEnvVariable, value->c_str(), /*overwrite=*/1);
    } else {
      unsetenv(kElasticEnvVariable);
    }
  }

  std::optional<std::string> saved_;
};

bool SameOptions(const ElasticFilterOptions& a, const ElasticFilterOptions& b) {
  return a.bits_per_unit == b.bits_per_unit &&
         a.units_per_segment == b.units_per_segment &&
         a.segment_bytes == b.segment_bytes &&
         a.memory_bits_per_key == b.memory_bits_per_key &&
         a.memory_budget_bytes == b.memory_budget_bytes &&
         a.lifetime == b.lifetime && a.initial_units == b.initial_units &&
         a.inherit_hotness == b.inherit_hotness && a.unit_kind == b.unit_kind &&
         a.false_positive_memo_bytes == b.false_positive_memo_bytes &&
         a.block_alignment == b.block_alignment;
}

ElasticFilterOptions SwitchDefaults() {
  ElasticFilterOptions o;
  o.inherit_hotness = false;
  return o;
}

// ---------------------------------------------------------------------------
// Parser

TEST(ElasticEnvParseTest, OffValuesLeaveElasticBFOff) {
  for (const char* value : {"", "0", "off"}) {
    SCOPED_TRACE(value);
    ElasticEnvSetting setting;
    setting.enabled = true;
    ASSERT_TRUE(ParseElasticEnvSetting(value, &setting).ok());
    EXPECT_FALSE(setting.enabled);
  }
}

TEST(ElasticEnvParseTest, OnValuesUseTheDefaultsWithoutHotnessRecords) {
  for (const char* value : {"1", "on"}) {
    SCOPED_TRACE(value);
    ElasticEnvSetting setting;
    ASSERT_TRUE(ParseElasticEnvSetting(value, &setting).ok());
    EXPECT_TRUE(setting.enabled);
    EXPECT_TRUE(SameOptions(SwitchDefaults(), setting.options));
    EXPECT_FALSE(setting.options.inherit_hotness);
  }
}

TEST(ElasticEnvParseTest, EveryFieldCanBeSet) {
  ElasticEnvSetting setting;
  ASSERT_TRUE(ParseElasticEnvSetting(
                  "bits_per_unit=2,units_per_segment=12,segment_bytes=8192,"
                  "memory_bits_per_key=4.5,memory_budget_bytes=100000,"
                  "lifetime=77,initial_units=0,inherit_hotness=true,"
                  "unit_kind=ribbon,false_positive_memo_bytes=65536,"
                  "block_alignment=4096",
                  &setting)
                  .ok());
  EXPECT_TRUE(setting.enabled);
  ElasticFilterOptions want;
  want.bits_per_unit = 2;
  want.units_per_segment = 12;
  want.segment_bytes = 8192;
  want.memory_bits_per_key = 4.5;
  want.memory_budget_bytes = 100000;
  want.lifetime = 77;
  want.initial_units = 0;
  want.inherit_hotness = true;
  want.unit_kind = ElasticFilterOptions::UnitKind::kRibbon;
  want.false_positive_memo_bytes = 65536;
  want.block_alignment = 4096;
  EXPECT_TRUE(SameOptions(want, setting.options))
      << ElasticOptionsString(setting.options);
}

TEST(ElasticEnvParseTest, UnsetFieldsKeepTheSwitchDefaults) {
  ElasticEnvSetting setting;
  ASSERT_TRUE(
      ParseElasticEnvSetting("memory_bits_per_key=4,bits_per_unit=2", &setting)
          .ok());
  ElasticFilterOptions want = SwitchDefaults();
  want.bits_per_unit = 2;
  EXPECT_TRUE(SameOptions(want, setting.options));

  for (const char* value : {"inherit_hotness=1", "inherit_hotness=true"}) {
    ASSERT_TRUE(ParseElasticEnvSetting(value, &setting).ok()) << value;
    EXPECT_TRUE(setting.options.inherit_hotness) << value;
  }
  for (const char* value : {"inherit_hotness=0", "inherit_hotness=false"}) {
    ASSERT_TRUE(ParseElasticEnvSetting(value, &setting).ok()) << value;
    EXPECT_FALSE(setting.options.inherit_hotness) << value;
  }
  ASSERT_TRUE(ParseElasticEnvSetting("unit_kind=bloom", &setting).ok());
  EXPECT_EQ(ElasticFilterOptions::UnitKind::kBloom, setting.options.unit_kind);
  Status bad = ParseElasticEnvSetting("unit_kind=xor", &setting);
  EXPECT_TRUE(bad.IsInvalidArgument());
  EXPECT_NE(std::string::npos, bad.ToString().find("bloom or ribbon"))
      << bad.ToString();
  for (const char* value : {"block_alignment=4000", "block_alignment=-1",
                            "block_alignment=131072", "block_alignment=x"}) {
    bad = ParseElasticEnvSetting(value, &setting);
    EXPECT_TRUE(bad.IsInvalidArgument()) << value;
    EXPECT_NE(std::string::npos, bad.ToString().find("block_alignment"))
        << bad.ToString();
  }
  // Numbers in every accepted form.
  ASSERT_TRUE(
      ParseElasticEnvSetting("memory_bits_per_key=1e16", &setting).ok());
  EXPECT_EQ(1e16, setting.options.memory_bits_per_key);
  ASSERT_TRUE(ParseElasticEnvSetting("memory_bits_per_key=.5", &setting).ok());
  EXPECT_EQ(0.5, setting.options.memory_bits_per_key);
  ASSERT_TRUE(
      ParseElasticEnvSetting("lifetime=18446744073709551615", &setting).ok());
  EXPECT_EQ(~uint64_t{0}, setting.options.lifetime);
}

TEST(ElasticEnvParseTest, OptionsStringParsesBackToTheSameOptions) {
  ElasticFilterOptions o;
  o.bits_per_unit = 3;
  o.units_per_segment = 7;
  o.segment_bytes = 4096;
  o.memory_bits_per_key = 0.1;
  o.memory_budget_bytes = 12345;
  o.lifetime = 99;
  o.initial_units = 2;
  o.inherit_hotness = true;
  o.block_alignment = 512;
  const std::string text = ElasticOptionsString(o);
  ElasticEnvSetting setting;
  ASSERT_TRUE(ParseElasticEnvSetting(text, &setting).ok()) << text;
  EXPECT_TRUE(SameOptions(o, setting.options)) << text;
}

struct BadValue {
  const char* value;
  const char* names;  // what the message must mention
};

const BadValue kBadValues[] = {
    {"bits_per_unit=4x", "bits_per_unit"},
    {"bits_per_unit= 4", "bits_per_unit"},
    {"bits_per_unit=+4", "bits_per_unit"},
    {"bits_per_unit=", "bits_per_unit="},
    {"bits_per_unit", "bits_per_unit"},
    {"=4", "=4"},
    {"bits_per_unit=99999999999", "bits_per_unit"},
    {"bits_per_unit=33", "bits_per_unit"},
    {"bits_per_unit=-1", "bits_per_unit"},
    {"units_per_segment=17", "units_per_segment"},
    {"units_per_segment=3,initial_units=4", "initial_units"},
    {"initial_units=-1", "initial_units"},
    {"segment_bytes=-1", "segment_bytes"},
    {"segment_bytes=100", "segment_bytes"},
    {"memory_budget_bytes=1.5", "memory_budget_bytes"},
    {"lifetime=18446744073709551616", "lifetime"},
    {"memory_bits_per_key=abc", "memory_bits_per_key"},
    {"memory_bits_per_key=4 ", "memory_bits_per_key"},
    {"memory_bits_per_key=1e999", "memory_bits_per_key"},
    {"memory_bits_per_key=-1", "memory_bits_per_key"},
    {"memory_bits_per_key=nan", "memory_bits_per_key"},
    {"memory_bits_per_key=inf", "memory_bits_per_key"},
    {"inherit_hotness=yes", "inherit_hotness"},
    {"inherit_hotness=2", "inherit_hotness"},
    {"no_such_field=1", "no_such_field"},
    {"bits_per_unit=4,bits_per_unit=5", "bits_per_unit"},
    {"bits_per_unit=4,", "''"},
    {",bits_per_unit=4", "''"},
    {"2", "'2'"},
    {"shared_budget_mb=0", "shared_budget_mb"},
    {"shared_budget_mb=-1", "shared_budget_mb"},
    {"shared_budget_mb=8MB", "shared_budget_mb"},
    {"shared_budget_mb=17592186044416", "shared_budget_mb"},
    {"shared_budget_mb=99999999999999999999999", "shared_budget_mb"},
    {"shared_budget_mb=4,memory_budget_bytes=5", "shared_budget_mb"},
    {"shared_budget_mb=4,shared_budget_mb=4", "shared_budget_mb"},
    {"ON", "'ON'"},
    {"yes", "'yes'"},
};

TEST(ElasticEnvParseTest, InvalidValuesNameTheVariableAndTheField) {
  for (const BadValue& bad : kBadValues) {
    SCOPED_TRACE(bad.value);
    ElasticEnvSetting setting;
    const Status s = ParseElasticEnvSetting(bad.value, &setting);
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("LEVELDB_ELASTICBF"))
        << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(bad.names)) << s.ToString();
  }
}

TEST(ElasticEnvParseTest, ValidBoundaryValuesAreAccepted) {
  ElasticEnvSetting setting;
  for (const char* value :
       {"bits_per_unit=1", "bits_per_unit=32", "units_per_segment=16",
        "units_per_segment=16,initial_units=16", "initial_units=0",
        "segment_bytes=0", "segment_bytes=1024", "memory_bits_per_key=0",
        "memory_budget_bytes=0", "lifetime=0"}) {
    EXPECT_TRUE(ParseElasticEnvSetting(value, &setting).ok()) << value;
    EXPECT_TRUE(setting.enabled) << value;
  }
}

TEST(ElasticEnvParseTest, SharedBudgetIsParsedApartFromTheOptions) {
  ElasticEnvSetting setting;
  ASSERT_TRUE(
      ParseElasticEnvSetting("shared_budget_mb=8,bits_per_unit=2", &setting)
          .ok());
  EXPECT_TRUE(setting.enabled);
  EXPECT_EQ(8u, setting.shared_budget_mb);
  EXPECT_EQ(2, setting.options.bits_per_unit);
  EXPECT_EQ(nullptr, setting.options.shared_budget);
  ASSERT_TRUE(ParseElasticEnvSetting("bits_per_unit=2", &setting).ok());
  EXPECT_EQ(0u, setting.shared_budget_mb);
}

// ---------------------------------------------------------------------------
// The decision for one database

class NamedPolicy : public FilterPolicy {
 public:
  explicit NamedPolicy(const char* name) : name_(name) {}
  const char* Name() const override { return name_; }
  void CreateFilter(const Slice*, int n, std::string* dst) const override {
    created_.fetch_add(1, std::memory_order_relaxed);
    dst->push_back(static_cast<char>(n & 0x7f));
  }
  bool KeyMayMatch(const Slice&, const Slice&) const override { return true; }
  int created() const { return created_.load(std::memory_order_relaxed); }

 private:
  const char* const name_;
  mutable std::atomic<int> created_{0};
};

TEST(ElasticEnvDecideTest, UnsetOrOffChangesNothing) {
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  for (const char* value :
       {static_cast<const char*>(nullptr), "", "0", "off"}) {
    ElasticEnvDecision d;
    ASSERT_TRUE(DecideElasticEnvSwitch(value, bloom.get(), &d).ok());
    EXPECT_EQ(nullptr, d.policy);
    EXPECT_EQ("", d.log_message);
    ASSERT_TRUE(DecideElasticEnvSwitch(value, nullptr, &d).ok());
    EXPECT_EQ(nullptr, d.policy);
  }
}

TEST(ElasticEnvDecideTest, ReplacesTheBuiltinBloomPolicyOrNoPolicy) {
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  for (const FilterPolicy* user :
       {bloom.get(), static_cast<const FilterPolicy*>(nullptr)}) {
    ElasticEnvDecision d;
    ASSERT_TRUE(
        DecideElasticEnvSwitch("bits_per_unit=2,units_per_segment=12", user, &d)
            .ok());
    ASSERT_NE(nullptr, d.policy);
    EXPECT_STREQ("leveldb.ElasticBF", d.policy->Name());
    const ElasticFilterPolicy* elastic =
        AsElasticPolicy(d.policy.get(), nullptr);
    ASSERT_NE(nullptr, elastic);
    EXPECT_EQ(2, elastic->options().bits_per_unit);
    EXPECT_EQ(12, elastic->options().units_per_segment);
    EXPECT_FALSE(elastic->options().inherit_hotness);
    EXPECT_NE(std::string::npos, d.log_message.find("applied"))
        << d.log_message;
    EXPECT_NE(std::string::npos,
              d.log_message.find(ElasticOptionsString(elastic->options())))
        << d.log_message;
  }
}

TEST(ElasticEnvDecideTest, NeverReplacesThePolicyOfTheApplication) {
  NamedPolicy own("test.OwnPolicy");
  std::unique_ptr<const FilterPolicy> elastic(
      NewElasticFilterPolicy(ElasticFilterOptions()));
  for (const FilterPolicy* user :
       {static_cast<const FilterPolicy*>(&own), elastic.get()}) {
    ElasticEnvDecision d;
    ASSERT_TRUE(DecideElasticEnvSwitch("1", user, &d).ok());
    EXPECT_EQ(nullptr, d.policy);
    EXPECT_NE(std::string::npos, d.log_message.find("not applied"))
        << d.log_message;
    EXPECT_NE(std::string::npos, d.log_message.find(user->Name()))
        << d.log_message;
  }
}

TEST(ElasticEnvDecideTest, InvalidValueFailsWhateverThePolicy) {
  NamedPolicy own("test.OwnPolicy");
  for (const FilterPolicy* user : {static_cast<const FilterPolicy*>(&own),
                                   static_cast<const FilterPolicy*>(nullptr)}) {
    ElasticEnvDecision d;
    const Status s = DecideElasticEnvSwitch("bits_per_unit=40", user, &d);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_EQ(nullptr, d.policy);
  }
}

TEST(ElasticEnvDecideTest, SharedBudgetIsOnePerProcessAndSize) {
  ElasticEnvDecision a, b, c;
  ASSERT_TRUE(DecideElasticEnvSwitch("shared_budget_mb=3", nullptr, &a).ok());
  ASSERT_TRUE(DecideElasticEnvSwitch("shared_budget_mb=3", nullptr, &b).ok());
  ASSERT_TRUE(DecideElasticEnvSwitch("shared_budget_mb=5", nullptr, &c).ok());
  const ElasticFilterPolicy* pa = AsElasticPolicy(a.policy.get(), nullptr);
  const ElasticFilterPolicy* pb = AsElasticPolicy(b.policy.get(), nullptr);
  const ElasticFilterPolicy* pc = AsElasticPolicy(c.policy.get(), nullptr);
  ASSERT_NE(nullptr, pa);
  ASSERT_NE(nullptr, pb);
  ASSERT_NE(nullptr, pc);
  ASSERT_NE(nullptr, pa->options().shared_budget);
  EXPECT_EQ(pa->options().shared_budget, pb->options().shared_budget);
  EXPECT_NE(pa->options().shared_budget, pc->options().shared_budget);
  EXPECT_EQ(size_t{3} << 20, pa->options().shared_budget->bytes());
  EXPECT_EQ(size_t{5} << 20, pc->options().shared_budget->bytes());
  EXPECT_EQ(0u, pa->options().memory_budget_bytes);
  EXPECT_NE(std::string::npos, a.log_message.find("shared_budget_mb=3"))
      << a.log_message;
}

// ---------------------------------------------------------------------------
// DB::Open with the variable set

constexpr int kKeys = 5000;

std::string ValueFor(int i) {
  std::string v = "value-" + std::to_string(i) + "-";
  v.resize(100, 'e');
  return v;
}

class ElasticEnvSwitchDBTest : public test::DBTestBase<testing::Test> {
 protected:
  ElasticEnvSwitchDBTest() : DBTestBase("elastic_env_switch_test") {}

  void Fill() {
    WriteBatch batch;
    for (int i = 0; i < kKeys; ++i) batch.Put(PresentKey(i), ValueFor(i));
    ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());
    ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  }

  void CheckData() {
    for (int i = 0; i < kKeys; i += 7) {
      ASSERT_EQ(ValueFor(i), Get(PresentKey(i))) << i;
      ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i))) << i;
    }
  }

  std::string ElasticProperty() {
    std::string text;
    EXPECT_TRUE(db_->GetProperty("leveldb.elasticbf", &text));
    return text;
  }
  bool ElasticEnabled() {
    return ElasticProperty().rfind("enabled: yes", 0) == 0;
  }

  std::string InfoLog() {
    std::string text;
    EXPECT_TRUE(ReadFileToString(env_, InfoLogFileName(dbname_), &text).ok());
    return text;
  }

  // Records of the MANIFEST named by CURRENT, and how many carry ElasticBF
  // tags (which stock LevelDB refuses).
  void ScanManifest(int* records, int* elastic) {
    *records = 0;
    *elastic = 0;
    std::string current;
    ASSERT_TRUE(
        ReadFileToString(env_, CurrentFileName(dbname_), &current).ok());
    ASSERT_FALSE(current.empty());
    current.pop_back();
    SequentialFile* file = nullptr;
    ASSERT_TRUE(env_->NewSequentialFile(dbname_ + "/" + current, &file).ok());
    std::unique_ptr<SequentialFile> owned(file);
    log::Reader reader(file, nullptr, /*checksum=*/true, 0);
    Slice record;
    std::string scratch;
    while (reader.ReadRecord(&record, &scratch)) {
      VersionEdit edit;
      ASSERT_TRUE(edit.DecodeFrom(record).ok());
      ++*records;
      if (edit.HasElastic()) ++*elastic;
    }
  }

  // The names of the files in `dir`.
  std::vector<std::string> Children(const std::string& dir) {
    std::vector<std::string> all, children;
    env_->GetChildren(dir, &all);
    for (const std::string& child : all) {
      if (child != "." && child != "..") children.push_back(child);
    }
    return children;
  }
};

TEST_F(ElasticEnvSwitchDBTest, SharedBudgetMakesTheDatabaseJoinIt) {
  ScopedElasticVariable var("shared_budget_mb=2");
  Open(DefaultOptions());
  Fill();
  CheckData();
  const std::string text = ElasticProperty();
  EXPECT_NE(std::string::npos, text.find("shared_budget_databases: 1")) << text;
  EXPECT_NE(std::string::npos, text.find("memory_budget_bytes: 2097152"))
      << text;
}

TEST_F(ElasticEnvSwitchDBTest, InvalidSharedBudgetFailsTheOpen) {
  ScopedElasticVariable var("shared_budget_mb=0");
  Options o = DefaultOptions();
  o.create_if_missing = true;
  DB* db = nullptr;
  const Status s = DB::Open(o, dbname_ + "_shared", &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("shared_budget_mb"))
      << s.ToString();
  EXPECT_EQ(nullptr, db);
  delete db;
}

TEST_F(ElasticEnvSwitchDBTest, ReplacesTheBuiltinBloomPolicy) {
  ScopedElasticVariable var("1");
  Options o = DefaultOptions();
  o.filter_policy = KeepPolicy(NewBloomFilterPolicy(10));
  Open(o);
  Fill();
  EXPECT_TRUE(ElasticEnabled()) << ElasticProperty();
  CheckData();
  const std::string log = InfoLog();
  EXPECT_NE(std::string::npos,
            log.find("LEVELDB_ELASTICBF=1 applied in place of the built-in "
                     "Bloom filter policy"))
      << log;
  // The log states the unit shape chosen for the budget.
  EXPECT_NE(
      std::string::npos,
      log.find(ElasticOptionsString(ResolveElasticShape(SwitchDefaults()))))
      << log;
  EXPECT_NE(
      std::string::npos,
      log.find("effective options: bits_per_unit=1,units_per_segment=16,"))
      << log;
}

TEST_F(ElasticEnvSwitchDBTest, ReplacesNoPolicyWithTheGivenOptions) {
  ScopedElasticVariable var("memory_bits_per_key=6,bits_per_unit=2");
  Open(DefaultOptions());
  Fill();
  ASSERT_TRUE(ElasticEnabled()) << ElasticProperty();
  CheckData();
  // The budget follows the variable's memory_bits_per_key.
  const std::string text = ElasticProperty();
  const uint64_t budget_line = text.find("memory_budget_bytes: ");
  ASSERT_NE(std::string::npos, budget_line) << text;
  const uint64_t keys_line = text.find("keys_live: ");
  ASSERT_NE(std::string::npos, keys_line) << text;
  const uint64_t budget = std::stoull(text.substr(budget_line + 21));
  const uint64_t keys = std::stoull(text.substr(keys_line + 11));
  EXPECT_EQ(static_cast<uint64_t>(kKeys), keys);
  EXPECT_EQ(keys * 6 / 8, budget);
  EXPECT_NE(std::string::npos,
            InfoLog().find("in place of no filter policy; effective options: "
                           "bits_per_unit=2,"))
      << InfoLog();
}

TEST_F(ElasticEnvSwitchDBTest, KeepsThePolicyOfTheApplication) {
  ScopedElasticVariable var("1");
  auto* own = new NamedPolicy("test.OwnPolicy");
  Options o = DefaultOptions();
  o.filter_policy = KeepPolicy(own);
  Open(o);
  Fill();
  EXPECT_EQ("enabled: no", ElasticProperty().substr(0, 11));
  EXPECT_GT(own->created(), 0);  // its filters were built
  CheckData();
  Close();
  EXPECT_NE(std::string::npos,
            InfoLog().find("not applied: the application chose the filter "
                           "policy test.OwnPolicy"))
      << InfoLog();
}

TEST_F(ElasticEnvSwitchDBTest, OffOrUnsetChangesNothing) {
  for (std::optional<std::string> value :
       {std::optional<std::string>(), std::optional<std::string>("0"),
        std::optional<std::string>("off"), std::optional<std::string>("")}) {
    ScopedElasticVariable var(value);
    Options o = DefaultOptions();
    o.filter_policy = KeepPolicy(NewBloomFilterPolicy(10));
    Open(o);
    EXPECT_EQ("enabled: no", ElasticProperty().substr(0, 11));
    Close();
    EXPECT_EQ(std::string::npos, InfoLog().find("LEVELDB_ELASTICBF"));
  }
}

TEST_F(ElasticEnvSwitchDBTest, InvalidValueFailsBeforeAnythingIsCreated) {
  const std::string missing = dbname_ + "/not-yet";
  for (const BadValue& bad : kBadValues) {
    SCOPED_TRACE(bad.value);
    ScopedElasticVariable var(std::string(bad.value));
    const Status s = TryOpen(DefaultOptions(), missing);
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("LEVELDB_ELASTICBF"))
        << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(bad.names)) << s.ToString();
    EXPECT_EQ(nullptr, db_);
    EXPECT_FALSE(env_->FileExists(missing));
  }
}

TEST_F(ElasticEnvSwitchDBTest, InvalidValueLeavesAnExistingDatabaseAlone) {
  {
    ScopedElasticVariable var(std::nullopt);
    Open(DefaultOptions());
    Fill();
    Close();
  }
  std::map<std::string, std::string> before;
  for (const std::string& child : Children(dbname_)) {
    ASSERT_TRUE(
        ReadFileToString(env_, dbname_ + "/" + child, &before[child]).ok());
  }
  ASSERT_EQ(1u, before.count("LOG"));
  {
    ScopedElasticVariable var("units_per_segment=-1");
    const Status s = TryOpen(DefaultOptions());
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos,
              s.ToString().find("LEVELDB_ELASTICBF: units_per_segment is -1"))
        << s.ToString();
  }
  std::map<std::string, std::string> after;
  for (const std::string& child : Children(dbname_)) {
    ASSERT_TRUE(
        ReadFileToString(env_, dbname_ + "/" + child, &after[child]).ok());
  }
  EXPECT_TRUE(before == after);  // no LOG rotation, no lock, no new log
}

TEST_F(ElasticEnvSwitchDBTest, HotnessStaysOutOfTheManifestByDefault) {
  ScopedElasticVariable var("1");
  Open(DefaultOptions());
  Fill();
  ASSERT_TRUE(ElasticEnabled());
  for (int round = 0; round < 3; ++round) CheckData();
  EXPECT_TRUE(
      DBImplTestPeer::CheckpointHotness(dbfull()).IsNotSupportedError());
  Close();
  int records = 0, elastic = 0;
  ScanManifest(&records, &elastic);
  EXPECT_GT(records, 0);
  EXPECT_EQ(0, elastic);

  // Reopened (still with the switch): the same, and every key is there.
  Open(DefaultOptions());
  CheckData();
  Close();
  ScanManifest(&records, &elastic);
  EXPECT_EQ(0, elastic);
}

TEST_F(ElasticEnvSwitchDBTest, HotnessIsRecordedWhenAskedFor) {
  ScopedElasticVariable var("inherit_hotness=1");
  Open(DefaultOptions());
  Fill();
  for (int round = 0; round < 3; ++round) CheckData();
  Close();  // a clean close records the hotness
  int records = 0, elastic = 0;
  ScanManifest(&records, &elastic);
  EXPECT_GT(elastic, 0);
}

}  // namespace
}  // namespace leveldb
