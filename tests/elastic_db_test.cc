// ElasticBF through the DB: option validation in DB::Open, ordinary reads
// and writes with elastic tables, filters actually saving data-block reads,
// tables of both formats in one database, tables the DB builds equal to
// those a standalone TableBuilder writes, the memory budget under load
// (and a budget too large for 64 bits), corrupt filter units, hotness
// across table-cache evictions, and failed hotness checkpoints (writes go
// on, a new MANIFEST is started, a crash right after recovers).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>  // NOLINT
#include <utility>
#include <vector>

#include "db/db_impl.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/version_edit.h"
#include "elastic/mq_schedule.h"
#include "elastic/multi_queue.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/io_stats.h"
#include "leveldb/iterator.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"
#include "leveldb/write_batch.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "table/elastic/filter_group.h"
#include "tests/db_impl_test_peer.h"
#include "tests/db_test_helpers.h"
#include "tests/elastic_test_helpers.h"
#include "tests/elastic_test_peer.h"
#include "tests/manifest_fault_env.h"
#include "tests/table_test_helpers.h"
#include "tests/test_util.h"
#include "util/mutexlock.h"

namespace leveldb {
namespace {

using test::AbsentKey;
using test::PresentKey;

// "name: <integer>" from a property text; false if missing.
bool FindNumber(const std::string& text, const std::string& name,
                uint64_t* value) {
  const std::string prefix = name + ":";
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    if (text.compare(pos, prefix.size(), prefix) == 0) {
      size_t start = pos + prefix.size();
      while (start < end && text[start] == ' ') ++start;
      const std::string digits = text.substr(start, end - start);
      if (digits.empty() ||
          digits.find_first_not_of("0123456789") != std::string::npos) {
        return false;
      }
      *value = std::stoull(digits);
      return true;
    }
    pos = end + 1;
  }
  return false;
}

std::string ValueFor(int i, int generation = 0) {
  std::string v =
      "value-" + std::to_string(i) + "-" + std::to_string(generation) + "-";
  v.resize(100, 'x');
  return v;
}

class ElasticDBTest : public test::DBTestBase<testing::Test> {
 protected:
  ElasticDBTest() : DBTestBase("elastic_db_test") {}

  Options BaseOptions() const { return DefaultOptions(); }

  // Options with ElasticBF; the policy lives as long as the fixture.
  Options ElasticOptions(const ElasticFilterOptions& eo) {
    Options o = BaseOptions();
    o.filter_policy = KeepPolicy(NewElasticFilterPolicy(eo));
    return o;
  }
  Options BloomOptions(int bits_per_key) {
    Options o = BaseOptions();
    o.filter_policy = KeepPolicy(NewBloomFilterPolicy(bits_per_key));
    return o;
  }

  MQSchedule* mqs() { return DBImplTestPeer::elastic(dbfull()); }

  // Every live table has its segment locator registered (its filters are
  // usable) and the LOG has no "no room" line.
  void ExpectEveryTableFiltered(const std::string& context) {
    SCOPED_TRACE(context);
    MQScheduleTestPeer::WaitIdle(mqs());
    uint64_t live = 0;
    for (int level = 0; level < config::kNumLevels; ++level) {
      std::string files;
      ASSERT_TRUE(db_->GetProperty(
          "leveldb.num-files-at-level" + std::to_string(level), &files));
      live += std::stoull(files);
    }
    ASSERT_GT(live, 0u);
    const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(mqs());
    EXPECT_EQ(live, st.attached_tables);
    EXPECT_LE(st.installed_bytes + st.locator_bytes, st.budget_bytes);
    std::string log;
    ASSERT_TRUE(ReadFileToString(env_, dbname_ + "/LOG", &log).ok());
    EXPECT_EQ(std::string::npos, log.find("no room in the budget")) << log;
  }

  // Writes PresentKey(i) for i in [begin, end).
  void Fill(int begin, int end, int generation = 0) {
    WriteBatch batch;
    for (int i = begin; i < end; ++i) {
      batch.Put(PresentKey(i), ValueFor(i, generation));
      if ((i - begin) % 1000 == 999) {
        ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());
        batch.Clear();
      }
    }
    ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());
  }

  // The counter `name` of the DB property `property`, which must exist.
  uint64_t PropertyNumber(const std::string& property,
                          const std::string& name) {
    std::string text;
    EXPECT_TRUE(db_->GetProperty(property, &text)) << property;
    uint64_t v = 0;
    EXPECT_TRUE(FindNumber(text, name, &v)) << name << " in\n" << text;
    return v;
  }
  uint64_t IoStat(const std::string& name) {
    return PropertyNumber("leveldb.io-stats", name);
  }
  uint64_t ElasticStat(const std::string& name) {
    return PropertyNumber("leveldb.elasticbf", name);
  }

  // Compacts every level into the next, so that every table is rewritten
  // (manual compactions never just move a file).
  void RewriteAllTables() {
    for (int level = 0; level + 1 < config::kNumLevels; ++level) {
      dbfull()->TEST_CompactRange(level, nullptr, nullptr);
    }
  }

  std::string ReadFile(const std::string& fname) {
    std::string data;
    EXPECT_TRUE(ReadFileToString(env_, fname, &data).ok()) << fname;
    return data;
  }

  // The metaindex entry names of a table.
  std::set<std::string> MetaBlockNames(uint64_t number) {
    const std::string bytes = ReadFile(TableFileName(dbname_, number));
    std::vector<std::pair<std::string, BlockHandle>> entries;
    EXPECT_TRUE(test::ReadMetaIndex(bytes, &entries).ok());
    std::set<std::string> names;
    for (const auto& e : entries) names.insert(e.first);
    return names;
  }

  // Rebuilds every table of the database with a standalone TableBuilder,
  // under the table options the DB derives from `options`, and expects
  // the same bytes.
  void ExpectStandaloneTablesMatch(const Options& options) {
    const InternalKeyComparator icmp(options.comparator);
    const InternalFilterPolicy ipolicy(options.filter_policy);
    Options table_options = options;
    table_options.comparator = &icmp;
    table_options.filter_policy =
        options.filter_policy == nullptr ? nullptr : &ipolicy;
    const std::set<uint64_t> tables = TableFiles();
    ASSERT_FALSE(tables.empty());
    for (uint64_t number : tables) {
      const std::string bytes = ReadFile(TableFileName(dbname_, number));
      test::StringSource source(bytes);
      Table* raw = nullptr;
      ASSERT_TRUE(Table::Open(table_options, &source, bytes.size(), &raw).ok());
      std::unique_ptr<Table> table(raw);
      test::StringSink sink;
      TableBuilder builder(table_options, &sink);
      std::unique_ptr<Iterator> it(table->NewIterator(ReadOptions()));
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        builder.Add(it->key(), it->value());
      }
      ASSERT_TRUE(it->status().ok());
      ASSERT_TRUE(builder.Finish().ok());
      EXPECT_GT(builder.NumEntries(), 0u);
      EXPECT_TRUE(bytes == sink.contents()) << "table " << number;
    }
  }

  // The unit kind of an elastic table (which must have an elastic index).
  ElasticUnitKind KindOf(uint64_t number) {
    ElasticIndex index;
    EXPECT_TRUE(test::ReadElasticIndexOf(
                    ReadFile(TableFileName(dbname_, number)), &index)
                    .ok())
        << number;
    return index.unit_kind();
  }

  // Name -> contents of every file in the directory.
  std::map<std::string, std::string> DirectorySnapshot() {
    std::map<std::string, std::string> snapshot;
    std::vector<std::string> children;
    if (!env_->GetChildren(dbname_, &children).ok()) return snapshot;
    for (const std::string& child : children) {
      if (child == "." || child == "..") continue;
      std::string data;
      if (ReadFileToString(env_, dbname_ + "/" + child, &data).ok()) {
        snapshot[child] = data;
      } else {
        snapshot[child] = "<unreadable>";
      }
    }
    return snapshot;
  }
};

// ---------------------------------------------------------------------------
// Validation

struct BadCase {
  const char* field;
  ElasticFilterOptions options;
};

std::vector<BadCase> BadCases() {
  std::vector<BadCase> cases;
  auto add = [&cases](const char* field, auto mutate) {
    BadCase c{field, ElasticFilterOptions()};
    mutate(&c.options);
    cases.push_back(c);
  };
  add("bits_per_unit", [](ElasticFilterOptions* o) { o->bits_per_unit = -1; });
  add("bits_per_unit", [](ElasticFilterOptions* o) { o->bits_per_unit = 33; });
  add("bits_per_unit", [](ElasticFilterOptions* o) { o->bits_per_unit = -4; });
  add("units_per_segment",
      [](ElasticFilterOptions* o) { o->units_per_segment = -1; });
  add("units_per_segment",
      [](ElasticFilterOptions* o) { o->units_per_segment = 17; });
  add("initial_units", [](ElasticFilterOptions* o) { o->initial_units = -1; });
  add("initial_units", [](ElasticFilterOptions* o) {
    o->units_per_segment = 3;
    o->initial_units = 4;
  });
  add("memory_bits_per_key",
      [](ElasticFilterOptions* o) { o->memory_bits_per_key = -0.5; });
  add("memory_bits_per_key", [](ElasticFilterOptions* o) {
    o->memory_bits_per_key = std::numeric_limits<double>::quiet_NaN();
  });
  add("memory_bits_per_key", [](ElasticFilterOptions* o) {
    o->memory_bits_per_key = std::numeric_limits<double>::infinity();
  });
  add("segment_bytes", [](ElasticFilterOptions* o) { o->segment_bytes = 1; });
  add("segment_bytes",
      [](ElasticFilterOptions* o) { o->segment_bytes = 1023; });
  add("unit_kind", [](ElasticFilterOptions* o) {
    o->unit_kind = static_cast<ElasticFilterOptions::UnitKind>(7);
  });
  return cases;
}

TEST_F(ElasticDBTest, InvalidOptionsFailBeforeTheDirectoryIsCreated) {
  const std::string missing = dbname_ + "/not-yet";
  for (const BadCase& c : BadCases()) {
    SCOPED_TRACE(c.field);
    Status s = DB::Open(ElasticOptions(c.options), missing, &db_);
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(c.field)) << s.ToString();
    EXPECT_EQ(nullptr, db_);
    EXPECT_FALSE(env_->FileExists(missing));
  }
}

TEST_F(ElasticDBTest, InvalidOptionsLeaveAnExistingDatabaseUntouched) {
  Open(ElasticOptions(ElasticFilterOptions()));
  Fill(0, 3000);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  Fill(3000, 3100);  // also a live log
  Close();
  const std::map<std::string, std::string> before = DirectorySnapshot();
  ASSERT_FALSE(before.empty());
  ASSERT_EQ(1u, before.count("LOG"));

  for (const BadCase& c : BadCases()) {
    SCOPED_TRACE(c.field);
    Status s = TryOpen(ElasticOptions(c.options));
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(c.field)) << s.ToString();
    // Not a byte changed: no LOG rotation, no lock file, no new log.
    EXPECT_EQ(before, DirectorySnapshot());
  }

  // The database still opens with valid options and has everything.
  Open(ElasticOptions(ElasticFilterOptions()));
  for (int i = 0; i < 3100; i += 7) ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
}

TEST_F(ElasticDBTest, BoundaryValuesAreAccepted) {
  ElasticFilterOptions eo;
  eo.bits_per_unit = 32;
  eo.units_per_segment = 16;
  eo.initial_units = 16;
  eo.segment_bytes = 1024;
  eo.memory_bits_per_key = 0;
  Open(ElasticOptions(eo));
  Fill(0, 500);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  for (int i = 0; i < 500; i += 3) ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));

  eo = ElasticFilterOptions();
  eo.bits_per_unit = 1;
  eo.units_per_segment = 1;
  eo.initial_units = 0;
  Open(ElasticOptions(eo));
  for (int i = 0; i < 500; i += 3) ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));

  // Huge lifetimes: counts never age (the aging period, a multiple of the
  // lifetime, once wrapped to 0 and the background thread divided by it).
  for (uint64_t lifetime : {uint64_t{1} << 62, ~uint64_t{0}}) {
    eo = ElasticFilterOptions();
    eo.lifetime = lifetime;
    Open(ElasticOptions(eo));
    for (int i = 0; i < 500; i += 3) {
      ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
    }
    // A table that joins once the clock has moved.
    Fill(500, 600);
    ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
    MQScheduleTestPeer::WaitIdle(mqs());
    for (int i = 1; i < 600; i += 3) {
      ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
    }
  }
}

TEST_F(ElasticDBTest, TinyTablesAndReopenedSmallStoresHaveFilters) {
  Open(ElasticOptions(ElasticFilterOptions()));
  for (int t = 0; t < 20; ++t) {  // a store growing from empty
    Fill(2 * t, 2 * t + 2);
    ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  }
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  ExpectEveryTableFiltered("grown");
  Fill(40, 43);  // left in the log: recovery writes a table at open
  Close();
  Reopen();  // tables register in the background
  for (int i = 0; i < 43; ++i) ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
  ExpectEveryTableFiltered("reopened");
}

// ---------------------------------------------------------------------------
// Ordinary operation

TEST_F(ElasticDBTest, PutGetDeleteIterateAndReopen) {
  ElasticFilterOptions eo;
  // A unit takes a little more than bits_per_unit bits per key (64-bit
  // words and its probe-count byte): leave room for one per segment.
  eo.memory_bits_per_key = 5;
  Options o = ElasticOptions(eo);
  o.write_buffer_size = 100 << 10;  // several tables and compactions
  Open(o);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 6000; ++i) {
    ASSERT_TRUE(db_->Put(WriteOptions(), PresentKey(i), ValueFor(i)).ok());
    model[PresentKey(i)] = ValueFor(i);
  }
  for (int i = 0; i < 6000; i += 5) {
    ASSERT_TRUE(db_->Delete(WriteOptions(), PresentKey(i)).ok());
    model.erase(PresentKey(i));
  }
  for (int i = 1; i < 6000; i += 10) {
    ASSERT_TRUE(db_->Put(WriteOptions(), PresentKey(i), ValueFor(i, 1)).ok());
    model[PresentKey(i)] = ValueFor(i, 1);
  }

  auto check = [&]() {
    for (int i = 0; i < 6000; ++i) {
      auto it = model.find(PresentKey(i));
      ASSERT_EQ(it == model.end() ? "NOT_FOUND" : it->second,
                Get(PresentKey(i)))
          << i;
      ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
    }
    std::unique_ptr<Iterator> iter(db_->NewIterator(ReadOptions()));
    auto expected = model.begin();
    for (iter->SeekToFirst(); iter->Valid(); iter->Next(), ++expected) {
      ASSERT_NE(model.end(), expected);
      ASSERT_EQ(expected->first, iter->key().ToString());
      ASSERT_EQ(expected->second, iter->value().ToString());
    }
    EXPECT_EQ(model.end(), expected);
    ASSERT_TRUE(iter->status().ok());
    auto back = model.rbegin();
    for (iter->SeekToLast(); iter->Valid(); iter->Prev(), ++back) {
      ASSERT_NE(model.rend(), back);
      ASSERT_EQ(back->first, iter->key().ToString());
    }
    EXPECT_EQ(model.rend(), back);
  };

  check();
  db_->CompactRange(nullptr, nullptr);
  check();
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("leveldb.elasticbf", &prop));
  EXPECT_EQ(0u, prop.find("enabled: yes\n")) << prop;
  EXPECT_GT(ElasticStat("tables_attached"), 0u);
  EXPECT_GT(ElasticStat("memory_used_bytes"), 0u) << prop;

  Open(o);  // reopen
  check();
  // Every table was written by this DB: all of them are elastic.
  for (uint64_t number : TableFiles()) {
    const std::set<std::string> names = MetaBlockNames(number);
    EXPECT_EQ(1u, names.count(kElasticIndexBlockName)) << number;
    for (const std::string& name : names) {
      EXPECT_NE(0u, name.find("filter.")) << name;
    }
  }
}

TEST_F(ElasticDBTest, PropertiesWithElasticBFOff) {
  Open(BaseOptions());
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("leveldb.elasticbf", &prop));
  EXPECT_EQ("enabled: no\n", prop);
  ASSERT_TRUE(db_->GetProperty("leveldb.io-stats", &prop));
  EXPECT_EQ(nullptr, DBImplTestPeer::elastic(dbfull()));
}

TEST_F(ElasticDBTest, PropertyReportsMemoryHistogramAndActivity) {
  ElasticFilterOptions eo;
  eo.memory_bits_per_key = 12;
  Options o = ElasticOptions(eo);
  o.write_buffer_size = 256 << 10;
  Open(o);
  Fill(0, 20000);
  db_->CompactRange(nullptr, nullptr);
  for (int i = 0; i < 20000; i += 2) Get(AbsentKey(i));
  MQScheduleTestPeer::WaitIdle(mqs());

  std::string prop;
  ASSERT_TRUE(db_->GetProperty("leveldb.elasticbf", &prop));
  for (const char* name :
       {"memory_used_bytes", "memory_budget_bytes", "lifetime",
        "segments_attached", "unit_loads", "unit_evictions", "adjustments",
        "rejected_no_victims", "rejected_no_gain", "ring_drops"}) {
    uint64_t v;
    EXPECT_TRUE(FindNumber(prop, name, &v)) << name << "\n" << prop;
  }
  EXPECT_NE(std::string::npos, prop.find("expected_extra_io: ")) << prop;
  EXPECT_NE(std::string::npos, prop.find("units loaded per LSM level"));
  EXPECT_GT(ElasticStat("adjustments"), 0u) << prop;
  EXPECT_LE(ElasticStat("memory_used_bytes"),
            ElasticStat("memory_budget_bytes"));

  // The per-level histogram tags segments with the level of their table:
  // after a full compaction every segment is at the level holding the
  // tables, none at level 0.
  int table_level = -1;
  for (int level = 0; level < config::kNumLevels; ++level) {
    std::string files;
    ASSERT_TRUE(db_->GetProperty(
        "leveldb.num-files-at-level" + std::to_string(level), &files));
    if (files != "0") {
      ASSERT_EQ(-1, table_level) << "tables at two levels";
      table_level = level;
    }
  }
  ASSERT_GT(table_level, 0);
  auto expect_all_at = [this](int level, const std::string& context) {
    const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(mqs());
    ASSERT_LT(static_cast<size_t>(level), st.mq.segments_by_level.size());
    uint64_t at_level = 0;
    for (uint64_t n : st.mq.segments_by_level[level]) at_level += n;
    EXPECT_GT(st.mq.attached_segments, 0u) << context;
    EXPECT_EQ(st.mq.attached_segments, at_level) << context;
  };
  expect_all_at(table_level, prop);
  EXPECT_NE(std::string::npos,
            prop.find("  level " + std::to_string(table_level) + ":"))
      << prop;
  EXPECT_EQ(std::string::npos, prop.find("  level 0:")) << prop;

  // Tables registered after a reopen (in the background, no Get needed)
  // get their level too: it was recorded when the recovered version was
  // installed.
  Open(o);
  MQScheduleTestPeer::WaitIdle(mqs());
  EXPECT_GT(ElasticStat("tables_attached"), 0u);
  expect_all_at(table_level, "after reopen");

  // The approximate memory usage includes the loaded units.
  uint64_t used, budget;
  mqs()->GetMemory(&used, &budget);
  ASSERT_GT(used, 0u);
  std::string mem;
  ASSERT_TRUE(db_->GetProperty("leveldb.approximate-memory-usage", &mem));
  EXPECT_GE(std::stoull(mem), used);
}

// ---------------------------------------------------------------------------
// Filters save reads

TEST_F(ElasticDBTest, AbsentKeysAreRejectedWithoutDataBlockReads) {
  ElasticFilterOptions eo;
  eo.bits_per_unit = 4;
  eo.units_per_segment = 6;
  eo.memory_bits_per_key = 16;  // room for four 4-bit units per segment
  eo.initial_units = 1;
  Options o = ElasticOptions(eo);
  o.write_buffer_size = 256 << 10;
  Open(o);
  constexpr int kKeys = 30000;
  Fill(0, kKeys);
  db_->CompactRange(nullptr, nullptr);
  MQScheduleTestPeer::WaitIdle(mqs());

  // Pass 1: one unit per segment (about 15% false positives at 4 bits).
  ResetIoStats(db_);
  for (int i = 0; i < kKeys; i += 3) ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  const uint64_t gets1 = IoStat("gets");
  const uint64_t probes1 = IoStat("table_probes");
  const uint64_t rejections1 = IoStat("filter_rejections");
  const uint64_t reads1 = IoStat("data_block_reads");
  const uint64_t fp1 = IoStat("false_positives");
  EXPECT_EQ(static_cast<uint64_t>((kKeys + 2) / 3), gets1);
  EXPECT_GE(probes1, gets1 * 9 / 10);  // a few keys lie past every table
  EXPECT_EQ(probes1, IoStat("filter_checks"));
  EXPECT_GE(rejections1, probes1 * 7 / 10);
  EXPECT_EQ(reads1, fp1);  // every block read for an absent key was wasted
  EXPECT_EQ(probes1, rejections1 + reads1);

  // The accesses earned the segments more units (memory was free).
  MQScheduleTestPeer::WaitIdle(mqs());
  EXPECT_GT(ElasticStat("unit_loads"), 0u);

  // Pass 2: far fewer false positives.
  ResetIoStats(db_);
  for (int i = 0; i < kKeys; i += 3) ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  const uint64_t probes2 = IoStat("table_probes");
  const uint64_t fp2 = IoStat("false_positives");
  EXPECT_GE(IoStat("filter_rejections"), probes2 * 97 / 100);
  EXPECT_LT(fp2, fp1 / 3 + 1);

  // Present keys: one data block read each, never a false negative.
  ResetIoStats(db_);
  for (int i = 0; i < kKeys; i += 7) ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
  EXPECT_EQ(0u, IoStat("false_positives"));
  EXPECT_EQ(IoStat("gets"), IoStat("data_block_reads"));
}

// ---------------------------------------------------------------------------
// Both table formats in one database

TEST_F(ElasticDBTest, OldBloomTablesKeepTheirFiltersUnderElasticBF) {
  constexpr int kOld = 8000;
  Open(BloomOptions(10));
  Fill(0, kOld);
  db_->CompactRange(nullptr, nullptr);
  Close();
  const std::set<uint64_t> old_tables = TableFiles();
  ASSERT_FALSE(old_tables.empty());
  for (uint64_t number : old_tables) {
    EXPECT_EQ(
        1u, MetaBlockNames(number).count("filter.leveldb.BuiltinBloomFilter2"));
  }

  // New keys after the old ones, flushed to a table of their own.
  // Four 1-plane units loaded from the start: the check below must not
  // depend on how soon the background thread adds units.
  ElasticFilterOptions eo;
  eo.memory_bits_per_key = 8;
  eo.initial_units = 4;
  Open(ElasticOptions(eo));
  Fill(kOld, kOld + 3000);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  std::set<uint64_t> new_tables;
  for (uint64_t number : TableFiles()) {
    if (old_tables.count(number) == 0) new_tables.insert(number);
  }
  ASSERT_FALSE(new_tables.empty());
  for (uint64_t number : new_tables) {
    const std::set<std::string> names = MetaBlockNames(number);
    EXPECT_EQ(1u, names.count(kElasticIndexBlockName)) << number;
    EXPECT_EQ(0u, names.count("filter.leveldb.BuiltinBloomFilter2"));
  }
  ASSERT_EQ(old_tables.size() + new_tables.size(), TableFiles().size());

  // Absent keys in the old range: the old tables' Bloom filters reject
  // them (10 bits per key: about 1% false positives).
  ResetIoStats(db_);
  for (int i = 0; i < kOld; i += 2) ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  uint64_t probes = IoStat("table_probes");
  EXPECT_GE(probes, static_cast<uint64_t>(kOld / 2));
  EXPECT_EQ(probes, IoStat("filter_checks"));
  EXPECT_GE(IoStat("filter_rejections"), probes * 95 / 100);

  // Absent keys in the new range: the loaded units reject most of them.
  MQScheduleTestPeer::WaitIdle(mqs());
  ResetIoStats(db_);
  for (int i = kOld; i < kOld + 3000; ++i) {
    ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  }
  probes = IoStat("table_probes");
  EXPECT_GE(probes, 2900u);
  EXPECT_GE(IoStat("filter_rejections"), probes * 7 / 10);
  // Only the new table is attached to ElasticBF.
  EXPECT_EQ(new_tables.size(), ElasticStat("tables_attached"));

  for (int i = 0; i < kOld + 3000; ++i) {
    ASSERT_EQ(ValueFor(i), Get(PresentKey(i))) << i;
  }

  // Compactions rewrite everything in the elastic format.
  RewriteAllTables();
  for (uint64_t number : TableFiles()) {
    EXPECT_EQ(1u, MetaBlockNames(number).count(kElasticIndexBlockName));
  }
  for (int i = 0; i < kOld + 3000; i += 3) {
    ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
  }
}

// Stock Bloom filters, Bloom units and Ribbon units in one database: each
// table keeps what it was written with until a compaction rewrites it.
TEST_F(ElasticDBTest, BloomRibbonAndStockFilterTablesMix) {
  constexpr int kPart = 4000;
  Open(BloomOptions(10));
  Fill(0, kPart);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  Close();
  const std::set<uint64_t> stock = TableFiles();

  ElasticFilterOptions eo;
  eo.memory_bits_per_key = 32;  // room for every unit
  eo.unit_kind = ElasticFilterOptions::UnitKind::kBloom;
  Open(ElasticOptions(eo));
  Fill(kPart, 2 * kPart);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  Close();
  std::set<uint64_t> bloom_units = TableFiles();
  for (uint64_t n : stock) bloom_units.erase(n);

  eo.unit_kind = ElasticFilterOptions::UnitKind::kRibbon;
  Open(ElasticOptions(eo));
  Fill(2 * kPart, 3 * kPart);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  std::set<uint64_t> ribbon_units = TableFiles();
  for (uint64_t n : stock) ribbon_units.erase(n);
  for (uint64_t n : bloom_units) ribbon_units.erase(n);
  ASSERT_FALSE(stock.empty());
  ASSERT_FALSE(bloom_units.empty());
  ASSERT_FALSE(ribbon_units.empty());
  for (uint64_t n : stock) {
    EXPECT_EQ(0u, MetaBlockNames(n).count(kElasticIndexBlockName));
  }
  for (uint64_t n : bloom_units) EXPECT_EQ(ElasticUnitKind::kBloom, KindOf(n));
  for (uint64_t n : ribbon_units) {
    EXPECT_EQ(ElasticUnitKind::kRibbon, KindOf(n));
  }

  // Every key found; absent keys of every range rejected by its filters.
  auto check = [this](const char* when) {
    SCOPED_TRACE(when);
    MQScheduleTestPeer::WaitIdle(mqs());
    for (int part = 0; part < 3; ++part) {
      SCOPED_TRACE(part);
      ResetIoStats(db_);
      for (int i = part * kPart; i < (part + 1) * kPart; ++i) {
        ASSERT_EQ(ValueFor(i), Get(PresentKey(i))) << i;
        ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
      }
      // One loaded 4-bit Bloom unit alone rejects about 85%.
      EXPECT_GE(IoStat("filter_rejections"), kPart * 8 / 10);
    }
  };
  check("mixed");
  // Both kinds of elastic table are attached (opened by the lookups).
  EXPECT_EQ(bloom_units.size() + ribbon_units.size(),
            ElasticStat("tables_attached"));

  // Compactions rewrite every table with Ribbon units.
  RewriteAllTables();
  for (uint64_t n : TableFiles()) {
    EXPECT_EQ(0u,
              stock.count(n) + bloom_units.count(n) + ribbon_units.count(n));
    EXPECT_EQ(ElasticUnitKind::kRibbon, KindOf(n)) << n;
  }
  check("compacted");
  Close();
  Open(ElasticOptions(eo));
  check("reopened");
}

TEST_F(ElasticDBTest, ElasticTablesReadWithoutFiltersOrWithBloom) {
  Options elastic = ElasticOptions(ElasticFilterOptions());
  elastic.write_buffer_size = 128 << 10;
  Open(elastic);
  Fill(0, 6000);
  db_->CompactRange(nullptr, nullptr);
  Fill(6000, 7000);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  Close();

  // No filter policy at all: every key is found, no filter is consulted.
  Open(BaseOptions());
  ResetIoStats(db_);
  for (int i = 0; i < 7000; ++i) ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
  for (int i = 0; i < 7000; i += 5) ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  EXPECT_EQ(0u, IoStat("filter_checks"));
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("leveldb.elasticbf", &prop));
  EXPECT_EQ("enabled: no\n", prop);
  Close();

  // A Bloom policy: elastic tables have no standard filter, keys are found.
  Open(BloomOptions(10));
  ResetIoStats(db_);
  for (int i = 0; i < 7000; ++i) ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
  EXPECT_EQ(0u, IoStat("filter_checks"));
  // Once rewritten, the tables carry Bloom filters again.
  RewriteAllTables();
  ResetIoStats(db_);
  for (int i = 0; i < 7000; i += 2) ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  EXPECT_GT(IoStat("filter_rejections"), 3000u);
  for (int i = 0; i < 7000; ++i) ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
  Close();

  // And back to ElasticBF: the Bloom tables keep working.
  Open(elastic);
  for (int i = 0; i < 7000; i += 3) ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
}

// ---------------------------------------------------------------------------
// Tables the DB builds (with the filter setup it resolved when it opened)
// hold the bytes a standalone TableBuilder writes for the same entries.

TEST_F(ElasticDBTest, DBTablesMatchStandaloneTables) {
  ElasticFilterOptions eo;
  eo.segment_bytes = 16 << 10;  // several segments per table
  const Options configs[] = {BaseOptions(), BloomOptions(10),
                             ElasticOptions(eo)};
  for (const Options& options : configs) {
    SCOPED_TRACE(options.filter_policy == nullptr
                     ? "no policy"
                     : options.filter_policy->Name());
    Close();
    ASSERT_TRUE(DestroyDB(dbname_, options).ok());
    Open(options);
    Fill(0, 5000);
    ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());  // BuildTable
    ExpectStandaloneTablesMatch(options);
    RewriteAllTables();  // compaction outputs
    ExpectStandaloneTablesMatch(options);
  }
}

// ---------------------------------------------------------------------------
// Memory budget

TEST_F(ElasticDBTest, MemoryStaysWithinBudgetWhileAWorkloadRuns) {
  ElasticFilterOptions eo;
  eo.memory_bits_per_key = 3;  // less than one 4-bit unit per key
  eo.segment_bytes = 4096;     // many small segments
  eo.lifetime = 200;
  Options o = ElasticOptions(eo);
  o.write_buffer_size = 128 << 10;
  Open(o);
  Fill(0, 5000);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());

  std::atomic<bool> done{false};
  std::atomic<int> polls{0};
  std::atomic<int> nonzero{0};
  std::atomic<int> violations{0};
  std::string violation_text;
  std::thread poller([&] {
    while (!done.load()) {
      std::string prop;
      if (!db_->GetProperty("leveldb.elasticbf", &prop)) {
        violations.fetch_add(1);
        break;
      }
      uint64_t used = 0, budget = 0;
      if (!FindNumber(prop, "memory_used_bytes", &used) ||
          !FindNumber(prop, "memory_budget_bytes", &budget) || used > budget) {
        if (violations.fetch_add(1) == 0) violation_text = prop;
      }
      if (used > 0) nonzero.fetch_add(1);
      polls.fetch_add(1);
      std::this_thread::yield();
    }
  });

  // Writes (flushes, compactions, tables opened and closed) and skewed
  // reads (accesses, loads, evictions).
  Random rnd(test::RandomSeed());
  for (int round = 0; round < 20; ++round) {
    Fill(round * 1000, round * 1000 + 2000, round);
    for (int i = 0; i < 3000; ++i) {
      const int k = static_cast<int>(rnd.Skewed(14)) % (round * 1000 + 2000);
      Get(rnd.OneIn(2) ? PresentKey(k) : AbsentKey(k));
    }
    if (round % 5 == 4) db_->CompactRange(nullptr, nullptr);
  }
  MQScheduleTestPeer::WaitIdle(mqs());
  done.store(true);
  poller.join();

  EXPECT_EQ(0, violations.load()) << violation_text;
  EXPECT_GT(polls.load(), 0);
  EXPECT_GT(nonzero.load(), 0);
  EXPECT_GT(ElasticStat("unit_evictions") + ElasticStat("rejected_no_victims"),
            0u);
  std::string error;
  EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(mqs(), &error)) << error;
  // Every key written is still there.
  for (int i = 0; i < 21000; i += 11) {
    const std::string v = Get(PresentKey(i));
    ASSERT_EQ(0u, v.find("value-" + std::to_string(i) + "-")) << i << v;
  }
}

// ---------------------------------------------------------------------------
// Damaged filter units

TEST_F(ElasticDBTest, CorruptUnitCostsOnlyTheFilter) {
  ElasticFilterOptions eo;
  eo.segment_bytes = 8192;
  eo.initial_units = 2;
  eo.memory_bits_per_key = 16;
  Options o = ElasticOptions(eo);
  Open(o);
  constexpr int kKeys = 4000;
  Fill(0, kKeys);
  db_->CompactRange(nullptr, nullptr);
  Close();

  // Damage unit 0 of segment 0 and unit 1 of the last segment of every
  // table.
  std::set<uint64_t> tables = TableFiles();
  ASSERT_FALSE(tables.empty());
  for (uint64_t number : tables) {
    const std::string fname = TableFileName(dbname_, number);
    std::string bytes = ReadFile(fname);
    ElasticIndex index;
    ASSERT_TRUE(test::ReadElasticIndexOf(bytes, &index).ok());
    ASSERT_GE(index.units_per_segment(), 2);
    ASSERT_GE(index.num_segments(), 2u);
    const BlockHandle first = index.UnitHandle(0, 0);
    const BlockHandle last = index.UnitHandle(index.num_segments() - 1, 1);
    bytes[first.offset() + first.size() / 2] ^= 0x40;
    bytes[last.offset() + 1] ^= 0x01;
    ASSERT_TRUE(env_->RemoveFile(fname).ok());
    ASSERT_TRUE(WriteStringToFile(env_, bytes, fname).ok());
  }

  Open(o);
  for (int i = 0; i < kKeys; ++i) ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
  for (int i = 0; i < kKeys; ++i) ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  MQScheduleTestPeer::WaitIdle(mqs());
  EXPECT_GE(IoStat("unit_load_failures"), 2 * tables.size());
  EXPECT_GE(ElasticStat("unit_load_failures"), 2 * tables.size());
  std::string error;
  EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(mqs(), &error)) << error;
  Close();

  const std::string log = ReadFile(InfoLogFileName(dbname_));
  EXPECT_NE(std::string::npos, log.find("ElasticBF: cannot")) << log;
  EXPECT_NE(std::string::npos, log.find("filter unit")) << log;
}

// ---------------------------------------------------------------------------
// Table-cache evictions

// Counts table files opened for reading.
class TableOpenCountingEnv : public EnvWrapper {
 public:
  explicit TableOpenCountingEnv(Env* base) : EnvWrapper(base) {}
  Status NewRandomAccessFile(const std::string& fname,
                             RandomAccessFile** result) override {
    if (fname.size() > 4 && fname.compare(fname.size() - 4, 4, ".ldb") == 0) {
      opens_.fetch_add(1);
    }
    return target()->NewRandomAccessFile(fname, result);
  }
  int opens() const { return opens_.load(); }

 private:
  std::atomic<int> opens_{0};
};

TEST_F(ElasticDBTest, RecoveredTablesRegisterBeforeAnyGet) {
  TableOpenCountingEnv counting_env(env_);
  ElasticFilterOptions eo;
  eo.bits_per_unit = 4;  // a first unit rejects 15/16 of absent keys
  eo.units_per_segment = 6;
  // Tiny tables: room for each one's locator and first unit.
  eo.memory_bits_per_key = 16;
  Options o = ElasticOptions(eo);
  o.env = &counting_env;
  o.max_open_files = 20;  // clipped to the minimum: 64 open tables
  Open(o);
  // The DB goes before counting_env, however the test ends.
  struct AtExit {
    std::function<void()> run;
    ~AtExit() { run(); }
  } close_first{[this] { Close(); }};
  constexpr int kTables = 80;
  constexpr int kPerTable = 100;
  for (int t = 0; t < kTables; ++t) {
    Fill(t * kPerTable, (t + 1) * kPerTable);
    ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  }
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  const size_t tables = TableFiles().size();
  ASSERT_GE(tables, static_cast<size_t>(kTables));

  // Reopened: the filter layer registers every recovered table (filter
  // groups and first units) in the background, without a Get.
  Open(o);
  MQScheduleTestPeer::WaitIdle(mqs());
  EXPECT_EQ(static_cast<uint64_t>(tables), ElasticStat("tables_attached"));

  // So the first Gets of absent keys are ruled out without opening the
  // tables, more of them than the table cache could even hold. (Paused:
  // background unit loads, which open files too, are not counted.)
  MQScheduleTestPeer::Pause(mqs(), true);
  const int opens_before = counting_env.opens();
  const uint64_t rejections_before = IoStat("filter_rejections");
  int gets = 0;
  for (int t = 0; t < kTables; ++t) {
    for (int i = t * kPerTable; i < t * kPerTable + 5; ++i, ++gets) {
      ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
    }
  }
  const uint64_t rejected = IoStat("filter_rejections") - rejections_before;
  EXPECT_GE(rejected, static_cast<uint64_t>(gets * 8 / 10));
  EXPECT_LE(static_cast<uint64_t>(counting_env.opens() - opens_before),
            gets - rejected);
  MQScheduleTestPeer::Pause(mqs(), false);
  for (int i = 0; i < kTables * kPerTable; i += 7) {
    ASSERT_EQ(ValueFor(i), Get(PresentKey(i))) << i;
  }
}

TEST_F(ElasticDBTest, FiltersOutliveTablesClosedByTheTableCache) {
  TableOpenCountingEnv counting_env(env_);
  Options o = ElasticOptions(ElasticFilterOptions());
  o.env = &counting_env;
  o.max_open_files = 20;  // clipped to the minimum: 64 open tables
  Open(o);
  // Counts fade with aging; here they must stay comparable across the run.
  MQScheduleTestPeer::SetAgingLifetimes(mqs(), 0);
  // 100 disjoint tables, each flushed straight to a deeper level.
  constexpr int kTables = 100;
  constexpr int kPerTable = 200;
  for (int t = 0; t < kTables; ++t) {
    Fill(t * kPerTable, (t + 1) * kPerTable);
    ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  }
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  ASSERT_GE(TableFiles().size(), static_cast<size_t>(kTables));

  // Make the first table hot.
  const uint64_t first_table = *TableFiles().begin();
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < kPerTable; ++i) {
      ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
    }
  }
  MQScheduleTestPeer::WaitIdle(mqs());
  std::vector<MultiQueue::Hotness> hot;
  ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(mqs(), first_table, &hot));
  ASSERT_FALSE(hot.empty());
  uint64_t accesses = 0;
  for (const auto& h : hot) accesses += h.accesses;
  EXPECT_GE(accesses, 20u * (kPerTable - 1));  // the last key is past it
  const std::vector<int> units =
      MQScheduleTestPeer::UnitsReserved(mqs(), first_table);
  ASSERT_FALSE(units.empty());

  // Touch every other table: the first one is closed by the cache, its
  // filters stay registered with all the units it had.
  for (int i = kPerTable; i < kTables * kPerTable; ++i) {
    ASSERT_EQ(ValueFor(i), Get(PresentKey(i))) << i;
  }
  MQScheduleTestPeer::WaitIdle(mqs());
  EXPECT_GE(ElasticStat("tables_attached"), static_cast<uint64_t>(kTables));
  EXPECT_EQ(units, MQScheduleTestPeer::UnitsReserved(mqs(), first_table));
  std::vector<MultiQueue::Hotness> kept;
  ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(mqs(), first_table, &kept));
  uint64_t kept_accesses = 0;
  for (const auto& h : kept) kept_accesses += h.accesses;
  EXPECT_GE(kept_accesses, accesses);  // not reset by the close

  // Absent keys the resident units rule out open no file; the few they let
  // through open the table once (it then stays in the cache).
  const int opens_before = counting_env.opens();
  const uint64_t rejections_before = IoStat("filter_rejections");
  for (int i = 0; i < kPerTable; ++i) {
    ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  }
  const uint64_t rejected = IoStat("filter_rejections") - rejections_before;
  EXPECT_GE(rejected, static_cast<uint64_t>(kPerTable * 9 / 10));
  EXPECT_LE(static_cast<uint64_t>(counting_env.opens() - opens_before),
            kPerTable - rejected);

  // The hot table's keys are all there.
  for (int i = 0; i < kPerTable; ++i) {
    ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
  }
  MQScheduleTestPeer::WaitIdle(mqs());
  std::vector<MultiQueue::Hotness> after;
  ASSERT_TRUE(
      MQScheduleTestPeer::GetSegmentHotness(mqs(), first_table, &after));
  uint64_t after_accesses = 0;
  for (const auto& h : after) after_accesses += h.accesses;
  EXPECT_GT(after_accesses, kept_accesses);

  // Everything, everywhere, one more time.
  for (int i = 0; i < kTables * kPerTable; ++i) {
    ASSERT_EQ(ValueFor(i), Get(PresentKey(i))) << i;
  }
  std::string error;
  EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(mqs(), &error)) << error;
  Close();  // before counting_env goes
}

// ---------------------------------------------------------------------------
// A budget past 2^64 bytes

// memory_bits_per_key x keys / 8 beyond the range of uint64_t used to be
// converted with undefined behaviour (giving a budget of 0 on x86-64, so
// no unit was ever loaded). It saturates: the budget is unlimited.
TEST_F(ElasticDBTest, HugeMemoryBitsPerKeyGivesAnUnlimitedBudget) {
  ElasticFilterOptions eo;
  eo.memory_bits_per_key = 1e16;
  Open(ElasticOptions(eo));
  constexpr int kKeys = 20000;
  Fill(0, kKeys);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  for (int i = 0; i < kKeys; i += 97) {
    ASSERT_EQ(ValueFor(i), Get(PresentKey(i)));
    ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
  }
  MQScheduleTestPeer::WaitIdle(mqs());
  ASSERT_EQ(static_cast<uint64_t>(kKeys), ElasticStat("keys_live"));
  EXPECT_EQ(std::numeric_limits<uint64_t>::max(),
            ElasticStat("memory_budget_bytes"));
  EXPECT_GT(ElasticStat("unit_loads"), 0u);
  EXPECT_GT(ElasticStat("memory_used_bytes"), 0u);
}

// ---------------------------------------------------------------------------
// Failed hotness checkpoints

// Counts what a log reader skipped.
class CountingReporter : public log::Reader::Reporter {
 public:
  void Corruption(size_t bytes, const Status& status) override {
    dropped += bytes;
    last_error = status.ToString();
  }
  size_t dropped = 0;
  std::string last_error;
};

class ElasticCheckpointTest : public ElasticDBTest {
 protected:
  static constexpr int kKeys = 10000;

  ElasticCheckpointTest() = default;

  // The DB may use fault_env_, which goes before the base class closes it.
  ~ElasticCheckpointTest() override {
    Close();
    for (const std::string& dir : copies_) {
      DestroyDB(dir, DefaultOptions());
      test::RemoveDirRecursively(env_, dir);
    }
  }

  // Hotness kept (recorded in the MANIFEST), on the faulty Env; checkpoints
  // only when a test asks for them.
  void OpenWithCheckpoints(const std::string& dir = "") {
    ElasticFilterOptions eo;
    eo.segment_bytes = 16 << 10;
    eo.memory_bits_per_key = 8;
    eo.inherit_hotness = true;
    Options o = ElasticOptions(eo);
    o.env = &fault_env_;
    o.write_buffer_size = 256 << 10;
    ASSERT_TRUE(TryOpen(o, dir).ok());
    DBImplTestPeer::SetHotnessCheckpointInterval(dbfull(), uint64_t{1} << 40);
  }

  // Absent keys of [begin, end): changes the hotness of their segments.
  void Probe(int begin, int end) {
    for (int i = begin; i < end; ++i) ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
    MQScheduleTestPeer::WaitIdle(mqs());
  }

  void CheckKeys(int begin, int end) {
    for (int i = begin; i < end; ++i) {
      ASSERT_EQ(ValueFor(i), Get(PresentKey(i))) << i;
    }
  }

  std::string CurrentManifest(const std::string& dir) {
    std::string current = ReadFile(CurrentFileName(dir));
    EXPECT_FALSE(current.empty());
    if (!current.empty()) current.pop_back();
    return current;
  }

  // Reads every record of a MANIFEST; fails the test on anything the
  // reader skips or a record that does not decode. Returns the records.
  int ReadWholeManifest(const std::string& path) {
    SequentialFile* file = nullptr;
    EXPECT_TRUE(env_->NewSequentialFile(path, &file).ok()) << path;
    if (file == nullptr) return -1;
    std::unique_ptr<SequentialFile> owned(file);
    CountingReporter reporter;
    log::Reader reader(file, &reporter, /*checksum=*/true, 0);
    Slice record;
    std::string scratch;
    int records = 0;
    while (reader.ReadRecord(&record, &scratch)) {
      VersionEdit edit;
      EXPECT_TRUE(edit.DecodeFrom(record).ok()) << path;
      ++records;
    }
    EXPECT_EQ(0u, reporter.dropped) << path << ": " << reporter.last_error;
    return records;
  }

  // What a process crash right now leaves: every file's bytes as they are
  // (the half-written record included), copied to a new directory.
  std::string CrashImage(const std::string& tag) {
    const std::string copy = test::NewTempDir(env_, tag);
    copies_.push_back(copy);
    std::vector<std::string> children;
    EXPECT_TRUE(env_->GetChildren(dbname_, &children).ok());
    for (const std::string& child : children) {
      uint64_t number;
      FileType type;
      if (!ParseFileName(child, &number, &type) || type == kDBLockFile) {
        continue;
      }
      EXPECT_TRUE(WriteStringToFile(env_, ReadFile(dbname_ + "/" + child),
                                    copy + "/" + child)
                      .ok());
    }
    return copy;
  }

  // Opens with one table of kKeys keys, makes some segments hot, and fails
  // the checkpoint that records them half way through its MANIFEST record.
  // Returns the name of the MANIFEST that was torn.
  std::string FailACheckpoint() {
    OpenWithCheckpoints();
    Fill(0, kKeys);
    EXPECT_TRUE(dbfull()->TEST_CompactMemTable().ok());
    Probe(1000, 3000);
    const std::string torn = CurrentManifest(dbname_);
    fault_env_.Arm();
    const Status s = DBImplTestPeer::CheckpointHotness(dbfull());
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_EQ(1, fault_env_.failures());
    return torn;
  }

  test::TornManifestEnv fault_env_{env_, /*min_bytes=*/8};
  std::vector<std::string> copies_;
};

TEST_F(ElasticCheckpointTest, FailedCheckpointDoesNotStopWrites) {
  const std::string torn = FailACheckpoint();
  uint64_t torn_size = 0;
  ASSERT_TRUE(env_->GetFileSize(dbname_ + "/" + torn, &torn_size).ok());

  // Writes go on, and the flush's MANIFEST write starts a new MANIFEST
  // instead of appending after the torn record.
  ASSERT_TRUE(Put("after-the-failure", "yes").ok());
  Fill(kKeys, kKeys + 2000);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  const std::string fresh = CurrentManifest(dbname_);
  EXPECT_NE(torn, fresh);
  uint64_t size = 0;
  if (env_->GetFileSize(dbname_ + "/" + torn, &size).ok()) {
    EXPECT_EQ(torn_size, size);  // still there: not appended to
  }
  EXPECT_GT(ReadWholeManifest(dbname_ + "/" + fresh), 0);

  // A later checkpoint succeeds and records the hotness.
  Probe(3000, 5000);
  const uint64_t written = DBImplTestPeer::HotnessCheckpoints(dbfull());
  ASSERT_TRUE(DBImplTestPeer::CheckpointHotness(dbfull()).ok());
  EXPECT_EQ(written + 1, DBImplTestPeer::HotnessCheckpoints(dbfull()));
  EXPECT_FALSE(env_->FileExists(dbname_ + "/" + torn));  // obsolete now

  // Reopened: every key, a valid MANIFEST, and writes.
  Close();
  OpenWithCheckpoints();
  CheckKeys(0, kKeys + 2000);
  EXPECT_EQ("yes", Get("after-the-failure"));
  EXPECT_GT(ReadWholeManifest(dbname_ + "/" + CurrentManifest(dbname_)), 0);
  ASSERT_TRUE(Put("after-reopen", "yes").ok());
  EXPECT_NE(std::string::npos,
            ReadFile(dbname_ + "/LOG.old").find("hotness checkpoint failed"));
}

TEST_F(ElasticCheckpointTest, FailedBackgroundCheckpointIsRetriedLater) {
  OpenWithCheckpoints();
  Fill(0, kKeys);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  DBImplTestPeer::SetHotnessCheckpointInterval(dbfull(), 500);
  fault_env_.Arm();
  // 700 Gets: the background thread tries a checkpoint (due at 500), which
  // fails; the retry is due a whole interval after the failure, later than
  // these Gets go.
  Probe(0, 700);
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  ASSERT_EQ(1, fault_env_.failures());
  EXPECT_EQ(0u, DBImplTestPeer::HotnessCheckpoints(dbfull()));
  ASSERT_TRUE(Put("after-the-failure", "yes").ok());

  // Later Gets: the next checkpoint is written (to a new MANIFEST).
  Probe(700, 3000);
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  EXPECT_GE(DBImplTestPeer::HotnessCheckpoints(dbfull()), 1u);
  EXPECT_GT(ReadWholeManifest(dbname_ + "/" + CurrentManifest(dbname_)), 0);
  ASSERT_TRUE(Put("after-the-retry", "yes").ok());

  Close();
  OpenWithCheckpoints();
  CheckKeys(0, kKeys);
  EXPECT_EQ("yes", Get("after-the-failure"));
  EXPECT_EQ("yes", Get("after-the-retry"));
}

TEST_F(ElasticCheckpointTest, CrashRightAfterAFailedCheckpointRecovers) {
  FailACheckpoint();
  // Writes only in the log so far, then the crash.
  ASSERT_TRUE(Put("in-the-log", "yes").ok());
  const std::string crash1 = CrashImage("elastic_checkpoint_crash1");
  // Or a crash after the next MANIFEST write (a new MANIFEST).
  Fill(kKeys, kKeys + 2000);
  ASSERT_TRUE(dbfull()->TEST_CompactMemTable().ok());
  const std::string crash2 = CrashImage("elastic_checkpoint_crash2");
  Close();

  // The torn record ends the old MANIFEST: recovery reads up to it.
  OpenWithCheckpoints(crash1);
  CheckKeys(0, kKeys);
  EXPECT_EQ("yes", Get("in-the-log"));
  EXPECT_GT(ReadWholeManifest(crash1 + "/" + CurrentManifest(crash1)), 0);
  ASSERT_TRUE(Put("after-recovery", "yes").ok());
  Close();

  OpenWithCheckpoints(crash2);
  CheckKeys(0, kKeys + 2000);
  EXPECT_EQ("yes", Get("in-the-log"));
  EXPECT_GT(ReadWholeManifest(crash2 + "/" + CurrentManifest(crash2)), 0);
  ASSERT_TRUE(Put("after-recovery", "yes").ok());
}

}  // namespace
}  // namespace leveldb
