// Tables and filter policies mixed: stock Bloom tables under ElasticBF,
// elastic tables under other policies, the Get path's counters, and the
// elastic table format seen by a plain reader.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/table_cache.h"
#include "elastic/mq_schedule.h"
#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/helpers/memenv.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/elastic/filter_group.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "table/table_filter_setup.h"
#include "table/table_state.h"
#include "tests/elastic_test_helpers.h"
#include "tests/elastic_test_peer.h"
#include "util/epoch.h"
#include "util/hash64.h"
#include "util/io_stats.h"

namespace leveldb {
namespace {

constexpr int kKeys = 10000;

std::string IKey(const std::string& user_key, SequenceNumber seq) {
  return InternalKey(user_key, seq, kTypeValue).Encode().ToString();
}

// Entries as the DB writes them: internal keys.
test::KVVector InternalEntries(int n) {
  test::KVVector kvs;
  for (const auto& kv : test::MakeEntries(n, 30)) {
    kvs.emplace_back(IKey(kv.first, 5), kv.second);
  }
  return kvs;
}

// What a batch of lookups did.
struct Outcome {
  int found = 0;
  int wrong = 0;  // absent found, or present missed
  int rejected = 0;
  int consulted = 0;
  int block_reads = 0;
  int corrupt = 0;  // Corruption statuses, when the test tolerates them
};

class ElasticTableTest : public testing::Test {
 protected:
  ElasticTableTest()
      : env_(NewMemEnv(Env::Default())),
        icmp_(BytewiseComparator()),
        dbname_("/ettest"),
        bloom_(NewBloomFilterPolicy(10)),
        internal_bloom_(bloom_.get()) {
    EXPECT_TRUE(env_->CreateDir(dbname_).ok());
    write_options_.env = env_.get();
    write_options_.comparator = &icmp_;
    write_options_.block_size = 1024;
    read_options_ = write_options_;
  }

  void UseElastic(const ElasticFilterOptions& eo) {
    elastic_.reset(NewElasticFilterPolicy(eo));
    internal_elastic_ = std::make_unique<InternalFilterPolicy>(elastic_.get());
    eo_ = eo;
  }

  uint64_t Write(uint64_t number, const test::KVVector& kvs) {
    const std::string bytes = test::BuildTableBytes(write_options_, kvs);
    EXPECT_FALSE(bytes.empty());
    EXPECT_TRUE(
        WriteStringToFile(env_.get(), bytes, TableFileName(dbname_, number))
            .ok());
    files_[number] = bytes;
    return bytes.size();
  }

  std::unique_ptr<MQSchedule> NewSchedule(uint64_t budget = uint64_t{1} << 30) {
    MQScheduleOptions mo;
    mo.elastic = eo_;
    mo.elastic.memory_budget_bytes = budget;
    mo.info_log = &logger_;
    mo.background_thread = false;
    mo.ring_capacity = size_t{1} << 16;  // holds every probe of a test
    mo.stats = &stats_;
    mo.opener = test::OpenerFor(env_.get(), dbname_);
    return std::make_unique<MQSchedule>(mo);
  }

  // Looks up every present key and as many absent ones (internal lookup
  // keys, as Version::Get builds them).
  Outcome LookupAll(TableCache* cache, MQSchedule* /*mqs*/, uint64_t number,
                    uint64_t size) {
    Outcome out;
    for (int i = 0; i < kKeys; ++i) {
      for (int absent = 0; absent < 2; ++absent) {
        const std::string user =
            absent ? test::AbsentKey(i) : test::PresentKey(i);
        const test::TableGet get =
            test::GetFromTable(cache, number, size, user, &stats_);
        if (tolerate_corruption_ && get.status.IsCorruption()) {
          ++out.corrupt;
          continue;
        }
        EXPECT_TRUE(get.status.ok()) << get.status.ToString();
        if (get.found()) ++out.found;
        if (get.found() == static_cast<bool>(absent)) ++out.wrong;
        if (get.probe.filter_rejected) ++out.rejected;
        if (get.probe.consulted_filter) ++out.consulted;
        if (get.probe.read_data_block) ++out.block_reads;
        // A rejected probe never reads a block.
        EXPECT_FALSE(get.probe.filter_rejected && get.probe.read_data_block);
      }
    }
    return out;
  }

  std::unique_ptr<Env> env_;
  const InternalKeyComparator icmp_;
  const std::string dbname_;
  std::unique_ptr<const FilterPolicy> bloom_;
  InternalFilterPolicy internal_bloom_;
  std::unique_ptr<const FilterPolicy> elastic_;
  std::unique_ptr<InternalFilterPolicy> internal_elastic_;
  ElasticFilterOptions eo_;
  Options write_options_;
  Options read_options_;
  IoStats stats_;
  std::map<uint64_t, std::string> files_;
  bool tolerate_corruption_ = false;
  test::CapturingLogger logger_;
};

TEST_F(ElasticTableTest, StockBloomTablesKeepTheirFiltersUnderElasticBF) {
  write_options_.filter_policy = &internal_bloom_;  // as stock LevelDB does
  const uint64_t size = Write(1, InternalEntries(kKeys));
  BlockHandle h;
  ASSERT_TRUE(
      test::FindMetaBlock(files_[1], "filter.leveldb.BuiltinBloomFilter2", &h));

  UseElastic(ElasticFilterOptions());
  read_options_.filter_policy = internal_elastic_.get();
  auto mqs = NewSchedule();
  TableCache cache(dbname_, read_options_, 10, mqs.get());
  const Outcome out = LookupAll(&cache, mqs.get(), 1, size);
  EXPECT_EQ(kKeys, out.found);
  EXPECT_EQ(0, out.wrong);
  EXPECT_EQ(2 * kKeys, out.consulted);
  // 10 bits per key: about 1% of absent keys pass.
  EXPECT_GT(out.rejected, kKeys * 95 / 100);
  EXPECT_EQ(2 * kKeys - out.rejected, out.block_reads);
  EXPECT_EQ(static_cast<uint64_t>(2 * kKeys), stats_.filter_checks.load());
  EXPECT_EQ(static_cast<uint64_t>(out.rejected),
            stats_.filter_rejections.load());
  EXPECT_EQ(static_cast<uint64_t>(out.block_reads),
            stats_.data_block_reads.load());
  EXPECT_EQ(static_cast<uint64_t>(kKeys - out.rejected),
            stats_.false_positives.load());
  EXPECT_EQ(0u, stats_.unfiltered_misses.load());
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(mqs.get()).attached_tables);
}

TEST_F(ElasticTableTest, StockBloomTablesUnderAnotherPolicyWithUserKeys) {
  // Tables written outside the DB hold user keys with the plain policy.
  write_options_.comparator = BytewiseComparator();
  write_options_.filter_policy = bloom_.get();
  const std::string bytes =
      test::BuildTableBytes(write_options_, test::MakeEntries(kKeys, 30));
  UseElastic(ElasticFilterOptions());
  read_options_.comparator = BytewiseComparator();
  read_options_.filter_policy = elastic_.get();
  test::StringSource source(bytes);
  Table* raw = nullptr;
  ASSERT_TRUE(Table::Open(read_options_, &source, bytes.size(), &raw).ok());
  std::unique_ptr<Table> table(raw);
  // Through the public API only: every key is still there.
  std::unique_ptr<Iterator> it(table->NewIterator(ReadOptions()));
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  EXPECT_EQ(kKeys, n);

  // And opened as the cache opens tables, its Bloom filter rejects absent
  // keys (DB lookups need internal keys, so the filter is asked directly).
  TableState state;
  ASSERT_TRUE(OpenTableState(read_options_,
                             ResolveTableFilter(read_options_.filter_policy),
                             &source, bytes.size(), &state)
                  .ok());
  ASSERT_NE(nullptr, state.filter);
  int rejected = 0;
  for (int i = 0; i < kKeys; ++i) {
    const std::string key = test::AbsentKey(i);
    BlockIterator index(BytewiseComparator(), state.index_block);
    index.Seek(key);
    if (!index.Valid()) continue;
    Slice handle_bytes = index.value();
    BlockHandle handle;
    ASSERT_TRUE(handle.DecodeFrom(&handle_bytes).ok());
    if (!state.filter->KeyMayMatch(handle.offset(), key)) ++rejected;
  }
  EXPECT_GT(rejected, kKeys * 95 / 100);
}

TEST_F(ElasticTableTest, ElasticTablesWorkWithoutFiltersUnderOtherPolicies) {
  UseElastic(ElasticFilterOptions());
  write_options_.filter_policy = internal_elastic_.get();
  const uint64_t size = Write(3, InternalEntries(kKeys));

  const FilterPolicy* policies[] = {&internal_bloom_, nullptr};
  for (const FilterPolicy* policy : policies) {
    read_options_.filter_policy = policy;
    auto mqs = NewSchedule();
    TableCache cache(dbname_, read_options_, 10, mqs.get());
    const Outcome out = LookupAll(&cache, mqs.get(), 3, size);
    EXPECT_EQ(kKeys, out.found);
    EXPECT_EQ(0, out.wrong);
    EXPECT_EQ(0, out.consulted);
    EXPECT_EQ(0, out.rejected);
    EXPECT_EQ(2 * kKeys, out.block_reads);
    EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(mqs.get()).attached_tables);
  }
  // With no filter to ask, every absent key's read is an unfiltered miss.
  EXPECT_EQ(0u, stats_.false_positives.load());
  EXPECT_EQ(static_cast<uint64_t>(2 * kKeys), stats_.unfiltered_misses.load());
}

TEST_F(ElasticTableTest, ElasticTablesAreValidLevelDBTables) {
  UseElastic(ElasticFilterOptions());
  write_options_.filter_policy = internal_elastic_.get();
  const test::KVVector kvs = InternalEntries(kKeys);
  Write(4, kvs);
  const std::string& bytes = files_[4];

  // The metaindex names only the elastic index; data blocks come first.
  std::vector<std::pair<std::string, BlockHandle>> meta;
  ASSERT_TRUE(test::ReadMetaIndex(bytes, &meta).ok());
  ASSERT_EQ(1u, meta.size());
  EXPECT_EQ(kElasticIndexBlockName, meta[0].first);
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(bytes, &index).ok());
  for (const BlockHandle& h : test::DataBlockHandles(bytes, &icmp_)) {
    EXPECT_LT(h.offset() + h.size(), index.region_offset(0));
  }

  // A reader without any policy sees the same entries.
  Options plain;
  plain.comparator = &icmp_;
  test::StringSource source(bytes);
  Table* raw = nullptr;
  ASSERT_TRUE(Table::Open(plain, &source, bytes.size(), &raw).ok());
  std::unique_ptr<Table> table(raw);
  std::unique_ptr<Iterator> it(table->NewIterator(ReadOptions()));
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_LT(i, kvs.size());
    EXPECT_EQ(kvs[i].first, it->key().ToString());
    EXPECT_EQ(kvs[i].second, it->value().ToString());
  }
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(kvs.size(), i);
  // Offsets still make sense with the units between data and index.
  EXPECT_LE(table->ApproximateOffsetOf(kvs.back().first),
            index.region_offset(0));
}

TEST_F(ElasticTableTest, StandardPolicyTablesCarryNoElasticBlocks) {
  write_options_.filter_policy = &internal_bloom_;
  Write(5, InternalEntries(2000));
  Write(6, InternalEntries(2000));
  EXPECT_EQ(files_[5], files_[6]);  // deterministic
  std::vector<std::pair<std::string, BlockHandle>> meta;
  ASSERT_TRUE(test::ReadMetaIndex(files_[5], &meta).ok());
  ASSERT_EQ(1u, meta.size());
  EXPECT_EQ("filter.leveldb.BuiltinBloomFilter2", meta[0].first);
}

TEST_F(ElasticTableTest, GetPathCountsWhatItDoes) {
  ElasticFilterOptions eo;
  eo.bits_per_unit = 2;
  eo.units_per_segment = 12;
  eo.initial_units = 12;  // the full group: nearly every absent key rejected
  UseElastic(eo);
  write_options_.filter_policy = internal_elastic_.get();
  read_options_.filter_policy = internal_elastic_.get();
  const uint64_t size = Write(7, InternalEntries(kKeys));
  auto mqs = NewSchedule();
  TableCache cache(dbname_, read_options_, 10, mqs.get());

  const Outcome out = LookupAll(&cache, mqs.get(), 7, size);
  EXPECT_EQ(kKeys, out.found);
  EXPECT_EQ(0, out.wrong);
  EXPECT_EQ(2 * kKeys, out.consulted);
  EXPECT_GT(out.rejected, kKeys - 5);
  EXPECT_EQ(2 * kKeys - out.rejected, out.block_reads);
  EXPECT_EQ(static_cast<uint64_t>(kKeys - out.rejected),
            stats_.false_positives.load());
  EXPECT_EQ(0u, stats_.unfiltered_misses.load());
  EXPECT_EQ(static_cast<uint64_t>(out.block_reads),
            stats_.data_block_reads.load());

  // Every probe was recorded, absent ones as absent.
  MQScheduleTestPeer::WaitIdle(mqs.get());
  const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(mqs.get());
  EXPECT_EQ(static_cast<uint64_t>(2 * kKeys), st.records);
  uint64_t absent = 0, accesses = 0;
  std::vector<MultiQueue::Hotness> hot;
  ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(mqs.get(), 7, &hot));
  for (const auto& h : hot) {
    absent += h.absent_probes;
    accesses += h.accesses;
  }
  EXPECT_EQ(static_cast<uint64_t>(kKeys), absent);
  EXPECT_EQ(static_cast<uint64_t>(2 * kKeys), accesses);

  // The segment locator's memory is reported while the table is attached:
  // one key per segment, a small fraction of the table.
  const uint64_t locator =
      MQScheduleTestPeer::GetStats(mqs.get()).locator_bytes;
  EXPECT_GT(locator, 0u);
  EXPECT_LT(locator, size / 50);
  EXPECT_NE(std::string::npos,
            mqs->StatsString().find("segment_locator_bytes"));
  cache.Evict(7);
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(mqs.get()).locator_bytes);
}

TEST_F(ElasticTableTest, LocatorsAreChargedToTheBudget) {
  ElasticFilterOptions eo;
  eo.initial_units = 6;
  UseElastic(eo);
  write_options_.filter_policy = internal_elastic_.get();
  read_options_.filter_policy = internal_elastic_.get();
  const uint64_t size = Write(7, InternalEntries(kKeys));
  uint64_t locator = 0;
  uint64_t all_units = 0;
  {
    auto roomy = NewSchedule();
    TableCache cache(dbname_, read_options_, 10, roomy.get());
    LookupAll(&cache, roomy.get(), 7, size);
    locator = MQScheduleTestPeer::GetStats(roomy.get()).locator_bytes;
    all_units = MQScheduleTestPeer::GetStats(roomy.get()).installed_bytes;
    ASSERT_GT(locator, 0u);
    ASSERT_GT(all_units, 0u);
    uint64_t used, budget;
    roomy->GetMemory(&used, &budget);
    EXPECT_EQ(locator + all_units, used);
  }

  // A budget of the locator and half the units: the locator is paid for
  // first, the units share what is left.
  const uint64_t budget = locator + all_units / 2;
  auto tight = NewSchedule(budget);
  TableCache cache(dbname_, read_options_, 10, tight.get());
  const Outcome out = LookupAll(&cache, tight.get(), 7, size);
  EXPECT_EQ(kKeys, out.found);
  EXPECT_EQ(0, out.wrong);
  EXPECT_GT(out.rejected, 0);
  MQScheduleTestPeer::WaitIdle(tight.get());
  const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(tight.get());
  EXPECT_EQ(budget, st.budget_bytes);
  EXPECT_EQ(budget - locator, st.mq.budget_bytes);
  EXPECT_LE(st.installed_bytes + st.locator_bytes, budget);
  EXPECT_GT(st.installed_bytes, 0u);
  std::string error;
  EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(tight.get(), &error))
      << error;
}

TEST_F(ElasticTableTest, NoRoomForTheLocatorMeansNoFilter) {
  UseElastic(ElasticFilterOptions());
  write_options_.filter_policy = internal_elastic_.get();
  read_options_.filter_policy = internal_elastic_.get();
  const uint64_t size = Write(7, InternalEntries(kKeys));
  auto mqs = NewSchedule(/*budget=*/16);
  TableCache cache(dbname_, read_options_, 10, mqs.get());
  const Outcome out = LookupAll(&cache, mqs.get(), 7, size);
  // Every answer right, none filtered, nothing over the budget.
  EXPECT_EQ(kKeys, out.found);
  EXPECT_EQ(0, out.wrong);
  EXPECT_EQ(0, out.rejected);
  EXPECT_EQ(0, out.consulted);
  const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(mqs.get());
  EXPECT_EQ(0u, st.attached_tables);
  EXPECT_EQ(0u, st.locator_bytes);
  EXPECT_EQ(0u, st.installed_bytes);
  bool logged = false;
  for (const std::string& line : logger_.lines()) {
    if (line.find("no room in the budget") != std::string::npos) logged = true;
  }
  EXPECT_TRUE(logged);
}

TEST_F(ElasticTableTest, RefusedTableGetsItsFiltersWhenRoomAppears) {
  UseElastic(ElasticFilterOptions());
  write_options_.filter_policy = internal_elastic_.get();
  read_options_.filter_policy = internal_elastic_.get();
  const uint64_t size7 = Write(7, InternalEntries(kKeys));
  const uint64_t size8 = Write(8, InternalEntries(kKeys));
  uint64_t locator = 0;
  {
    auto roomy = NewSchedule();
    TableCache cache(dbname_, read_options_, 10, roomy.get());
    LookupAll(&cache, roomy.get(), 7, size7);
    locator = MQScheduleTestPeer::GetStats(roomy.get()).locator_bytes;
    ASSERT_GT(locator, 0u);
  }
  // Room for one of the two (equal) locators.
  auto mqs = NewSchedule(locator + locator / 2);
  mqs->ReportFiles({{7, 1, nullptr, size7}, {8, 1, nullptr, size8}});
  TableCache cache(dbname_, read_options_, 10, mqs.get());
  LookupAll(&cache, mqs.get(), 7, size7);
  Outcome out = LookupAll(&cache, mqs.get(), 8, size8);
  EXPECT_EQ(kKeys, out.found);
  EXPECT_EQ(0, out.consulted);  // 8 is read without filters
  std::vector<std::string> bounds;
  EXPECT_FALSE(mqs->SegmentBounds(8, &bounds));
  EXPECT_EQ(1u, MQScheduleTestPeer::GetStats(mqs.get()).attached_tables);

  // 7 leaves the live set: its room goes to 8, which is screened from then
  // on (its segments are found and their probes counted; units would follow
  // as memory allows).
  mqs->ReportFiles({{8, 1, nullptr, size8}});
  EXPECT_TRUE(mqs->SegmentBounds(8, &bounds));
  MQSchedule::Stats st = MQScheduleTestPeer::GetStats(mqs.get());
  EXPECT_EQ(1u, st.attached_tables);
  EXPECT_EQ(locator, st.locator_bytes);
  EXPECT_EQ(1u, st.mq.attached_segments);
  out = LookupAll(&cache, mqs.get(), 8, size8);
  EXPECT_EQ(kKeys, out.found);
  EXPECT_EQ(0, out.wrong);
  MQScheduleTestPeer::WaitIdle(mqs.get());
  InheritedHotness hotness;
  ASSERT_TRUE(mqs->GetFileHotness(8, &hotness));
  ASSERT_FALSE(hotness.segments.empty());
  EXPECT_GT(hotness.segments[0].accesses, 0u);
  st = MQScheduleTestPeer::GetStats(mqs.get());
  EXPECT_LE(st.installed_bytes + st.locator_bytes, st.budget_bytes);
  std::string error;
  EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(mqs.get(), &error)) << error;
  int refusals = 0;
  for (const std::string& line : logger_.lines()) {
    if (line.find("no room in the budget") != std::string::npos) ++refusals;
  }
  EXPECT_EQ(1, refusals);
}

TEST_F(ElasticTableTest, UndecodableIndexHandleLeavesTheTableUnfiltered) {
  ElasticFilterOptions eo;
  eo.initial_units = 6;
  UseElastic(eo);
  write_options_.filter_policy = internal_elastic_.get();
  read_options_.filter_policy = internal_elastic_.get();
  std::string bytes =
      test::BuildTableBytes(write_options_, InternalEntries(kKeys));
  ASSERT_FALSE(bytes.empty());

  // Append a copy of the index whose 4th handle does not decode, and a
  // footer naming it: the table opens, its segments cannot be located
  // without the index.
  Footer footer;
  ASSERT_TRUE(test::ReadFooter(bytes, &footer).ok());
  test::StringSource source(bytes);
  BlockContents contents;
  ASSERT_TRUE(
      ReadBlock(&source, ReadOptions(), footer.index_handle(), &contents).ok());
  Block index(contents);
  Options index_options = write_options_;
  index_options.block_restart_interval = 1;
  BlockBuilder builder(&index_options);
  BlockIterator it(&icmp_, &index);
  int n = 0;
  for (it.SeekToFirst(); it.Valid(); it.Next(), ++n) {
    builder.Add(it.key(), n == 3 ? Slice("\xff") : it.value());
  }
  bytes.resize(bytes.size() - Footer::kEncodedLength);
  const BlockHandle broken(bytes.size(), builder.CurrentSizeEstimate());
  const std::string raw = builder.Finish().ToString();
  ASSERT_EQ(broken.size(), raw.size());
  bytes.append(raw);
  bytes.append(kBlockTrailerSize, '\0');
  test::RewriteBlock(&bytes, broken, raw);
  footer.set_index_handle(broken);
  footer.EncodeTo(&bytes);
  ASSERT_TRUE(
      WriteStringToFile(env_.get(), bytes, TableFileName(dbname_, 9)).ok());

  test::CapturingLogger logger;
  read_options_.info_log = &logger;
  auto mqs = NewSchedule();
  TableCache cache(dbname_, read_options_, 10, mqs.get());
  tolerate_corruption_ = true;
  const Outcome out = LookupAll(&cache, mqs.get(), 9, bytes.size());
  // Only the keys of the one broken block fail (never a crash); the others
  // are answered right. Without a locator no key can be given its segment,
  // so the table's units are ignored (said in the log): nothing is filtered.
  EXPECT_GT(out.corrupt, 0);
  EXPECT_LT(out.corrupt, 100);
  EXPECT_EQ(0, out.wrong);
  EXPECT_GT(out.found, kKeys - 50);
  EXPECT_EQ(0, out.rejected);
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(mqs.get()).attached_tables);
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(mqs.get()).unit_loads);
  bool logged = false;
  for (const std::string& line : logger.lines()) {
    if (line.find("ignoring the filter groups") != std::string::npos) {
      logged = true;
    }
  }
  EXPECT_TRUE(logged);
}

}  // namespace
}  // namespace leveldb
