// MQSchedule over an in-memory set of elastic tables: access records drive
// unit loads and evictions under a budget.
#include "elastic/mq_schedule.h"
#include "elastic/unit_manager.h"

#include <algorithm>
#include <atomic>
#include <chrono>  // NOLINT
#include <memory>
#include <string>
#include <thread>  // NOLINT
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "table/elastic/filter_group.h"
#include "tests/elastic_test_helpers.h"
#include "tests/elastic_test_peer.h"
#include "tests/test_util.h"
#include "util/hash64.h"
#include "util/io_stats.h"
#include "util/random.h"

namespace leveldb {
namespace {

// One table of the set, with its file and runtime filter state.
struct MemTable {
  std::unique_ptr<test::GatedFile> file;
  ElasticIndex index;
  std::shared_ptr<TableFilterGroups> groups;
};

class MQScheduleTest : public testing::Test {
 protected:
  // Tables of `keys` keys cut into segments of about 4 KiB of data, with
  // Bloom units: a unit of b bits per key takes at most b bits per key of
  // its segment, which the budget arithmetic below relies on (a Ribbon
  // unit of so few keys takes more).
  void MakeTables(int count, int keys, int units_per_segment = 6) {
    ElasticFilterOptions eo;
    eo.unit_kind = ElasticFilterOptions::UnitKind::kBloom;
    eo.units_per_segment = units_per_segment;
    eo.segment_bytes = 4096;
    std::unique_ptr<const FilterPolicy> policy(NewElasticFilterPolicy(eo));
    Options options;
    options.block_size = 1024;
    options.compression = kNoCompression;
    options.filter_policy = policy.get();
    for (int t = 0; t < count; ++t) {
      auto table = std::make_unique<MemTable>();
      const std::string bytes =
          test::BuildTableBytes(options, test::MakeEntries(keys + t, 20));
      ASSERT_TRUE(test::ReadElasticIndexOf(bytes, &table->index).ok());
      table->file = std::make_unique<test::GatedFile>(bytes);
      table->groups =
          std::make_shared<TableFilterGroups>(table->index, bytes.size());
      tables_.push_back(std::move(table));
    }
  }

  MQScheduleOptions Opts(uint64_t budget, uint64_t lifetime, bool background,
                         int units = 6) {
    MQScheduleOptions o;
    o.elastic.units_per_segment = units;
    o.elastic.memory_budget_bytes = budget;
    o.elastic.lifetime = lifetime;
    o.background_thread = background;
    o.stats = &stats_;
    o.info_log = &logger_;
    // Background loads read the tables' in-memory files.
    o.opener = std::make_shared<test::FunctionOpener>(
        [this](uint64_t number, std::unique_ptr<RandomAccessFile>* file) {
          if (number < FileNumber(0) ||
              number - FileNumber(0) >= tables_.size()) {
            return Status::NotFound("no such test table");
          }
          file->reset(
              new test::BorrowedFile(tables_[number - 100]->file.get()));
          return Status::OK();
        });
    return o;
  }

  static uint64_t FileNumber(size_t t) { return 100 + t; }
  static MultiQueue::SegmentId Seg(size_t t, uint32_t s) {
    return MakeSegmentId(FileNumber(t), s);
  }

  Status Attach(MQSchedule* mqs, size_t t, int initial,
                const InheritedHotness* inherited = nullptr) {
    return mqs->AttachTable(FileNumber(t), tables_[t]->groups,
                            tables_[t]->file.get(), inherited, initial);
  }

  static void ExpectInvariants(const MQSchedule& mqs) {
    std::string error;
    EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(&mqs, &error)) << error;
  }

  std::vector<std::unique_ptr<MemTable>> tables_;
  IoStats stats_;
  test::CapturingLogger logger_;
};

TEST_F(MQScheduleTest, HotSegmentsGainUnitsAndExpiredOnesGiveThemUp) {
  MakeTables(1, 3000);
  const ElasticIndex& index = tables_[0]->index;
  ASSERT_GE(index.num_segments(), 3u);
  // A: the segment with the largest units, so one of its units makes room
  // for one of B's.
  uint32_t a = 0;
  for (uint32_t s = 1; s < index.num_segments(); ++s) {
    if (index.segment(s).unit_size > index.segment(a).unit_size) a = s;
  }
  const uint32_t b = (a + 1) % index.num_segments();
  const uint64_t unit_a = index.segment(a).unit_size;
  MQSchedule mqs(Opts(6 * unit_a, /*lifetime=*/10, /*background=*/false));
  ASSERT_TRUE(Attach(&mqs, 0, /*initial=*/0).ok());
  TableFilterGroups* groups = tables_[0]->groups.get();
  EXPECT_EQ(0, groups->LoadedCount(a));

  // Each absent probe of A earns it one more unit while memory is free.
  for (int i = 1; i <= 6; ++i) {
    MQScheduleTestPeer::SetClock(&mqs, i);
    mqs.layer()->RecordAccess(Seg(0, a), /*absent=*/true);
    MQScheduleTestPeer::WaitIdle(&mqs);
    EXPECT_EQ(i, groups->LoadedCount(a));
    ExpectInvariants(mqs);
  }
  // Full, and A is not expired: B gets nothing.
  MQScheduleTestPeer::SetClock(&mqs, 7);
  mqs.layer()->RecordAccess(Seg(0, b), true);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(0, groups->LoadedCount(b));
  EXPECT_EQ(6, groups->LoadedCount(a));
  EXPECT_GE(MQScheduleTestPeer::GetStats(&mqs).mq.rejected_no_victims, 1u);

  // Long after A's last access, A is expired and gives B a unit.
  MQScheduleTestPeer::SetClock(&mqs, 100);
  mqs.layer()->RecordAccess(Seg(0, b), true);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(1, groups->LoadedCount(b));
  EXPECT_EQ(5, groups->LoadedCount(a));
  const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(&mqs);
  EXPECT_EQ(1u, st.unit_evictions);
  EXPECT_EQ(1u, st.mq.swaps);
  EXPECT_EQ(7u, st.unit_loads);
  EXPECT_EQ(7u, stats_.unit_loads.load());
  EXPECT_EQ(1u, stats_.unit_evictions.load());
  EXPECT_EQ(5 * unit_a + index.segment(b).unit_size, st.installed_bytes);
  ExpectInvariants(mqs);

  // Present-key probes never earn units: filters cannot save their reads.
  const uint32_t c = (b + 1) % index.num_segments();
  if (c != a) {
    for (int i = 0; i < 5; ++i) mqs.layer()->RecordAccess(Seg(0, c), false);
    MQScheduleTestPeer::WaitIdle(&mqs);
    EXPECT_EQ(0, groups->LoadedCount(c));
  }
  mqs.ForgetFile(FileNumber(0));
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).installed_bytes);
}

TEST_F(MQScheduleTest, EvictedUnitsComeBackFromFreedMemory) {
  MakeTables(2, 3000);
  const ElasticIndex& index0 = tables_[0]->index;
  uint32_t a = 0;  // table 0's segment with the largest units
  for (uint32_t s = 1; s < index0.num_segments(); ++s) {
    if (index0.segment(s).unit_size > index0.segment(a).unit_size) a = s;
  }
  const uint64_t unit_a = index0.segment(a).unit_size;
  const ElasticIndex& index1 = tables_[1]->index;
  uint32_t b = 0;  // a segment of table 1 whose unit fits in one of A's
  while (b < index1.num_segments() && index1.segment(b).unit_size > unit_a) {
    ++b;
  }
  ASSERT_LT(b, index1.num_segments());
  MQSchedule mqs(Opts(6 * unit_a, /*lifetime=*/10, /*background=*/false));
  ASSERT_TRUE(Attach(&mqs, 0, /*initial=*/0).ok());
  ASSERT_TRUE(Attach(&mqs, 1, /*initial=*/0).ok());
  for (int i = 1; i <= 6; ++i) {
    MQScheduleTestPeer::SetClock(&mqs, i);
    mqs.layer()->RecordAccess(Seg(0, a), /*absent=*/true);
    MQScheduleTestPeer::WaitIdle(&mqs);
  }
  ASSERT_EQ(6, tables_[0]->groups->LoadedCount(a));
  // A has expired: B takes one of its units.
  MQScheduleTestPeer::SetClock(&mqs, 100);
  mqs.layer()->RecordAccess(Seg(1, b), /*absent=*/true);
  MQScheduleTestPeer::WaitIdle(&mqs);
  ASSERT_EQ(5, tables_[0]->groups->LoadedCount(a));
  ASSERT_EQ(1, tables_[1]->groups->LoadedCount(b));

  // Table 1 goes away: the memory it frees brings A's unit back, since
  // free memory left idle would only cost A's probes their filter.
  mqs.ForgetFile(FileNumber(1));
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(6, tables_[0]->groups->LoadedCount(a));
  ExpectInvariants(mqs);
}

TEST_F(MQScheduleTest, NewSegmentsWithoutHistoryAreNotExpiredAtOnce) {
  MakeTables(2, 3000);
  const uint32_t count0 = tables_[0]->index.num_segments();
  uint64_t unit_bytes = 0;  // the first unit of every segment of table 0
  for (uint32_t s = 0; s < count0; ++s) {
    unit_bytes += FilterUnitMemoryBytes(tables_[0]->index.segment(s).unit_size);
  }
  MQSchedule mqs(Opts(unit_bytes, /*lifetime=*/10, /*background=*/false));
  MQScheduleTestPeer::SetClock(&mqs, 1000);  // long after the start
  // Table 0 opens (a flush, say) with one unit per segment and no history.
  ASSERT_TRUE(Attach(&mqs, 0, /*initial=*/1).ok());
  MQScheduleTestPeer::WaitIdle(&mqs);
  for (uint32_t s = 0; s < count0; ++s) {
    ASSERT_EQ(1, tables_[0]->groups->LoadedCount(s));
  }
  // A hot segment of table 1 asks for units within the newcomer's first
  // lifetime: nothing of table 0 is expired, so nothing is taken.
  ASSERT_TRUE(Attach(&mqs, 1, /*initial=*/0).ok());
  MQScheduleTestPeer::SetClock(&mqs, 1005);
  mqs.layer()->RecordAccess(Seg(1, 0), /*absent=*/true);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(0, tables_[1]->groups->LoadedCount(0));
  for (uint32_t s = 0; s < count0; ++s) {
    EXPECT_EQ(1, tables_[0]->groups->LoadedCount(s));
  }
  // A lifetime later, still never probed: now they are cold and give way.
  MQScheduleTestPeer::SetClock(&mqs, 1100);
  mqs.layer()->RecordAccess(Seg(1, 0), /*absent=*/true);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(1, tables_[1]->groups->LoadedCount(0));
  ExpectInvariants(mqs);
}

TEST_F(MQScheduleTest, InitialUnitsComeInOneSequentialReadPerUnit) {
  MakeTables(2, 3000);
  MQSchedule mqs(Opts(uint64_t{1} << 30, 0, false));
  ASSERT_TRUE(Attach(&mqs, 0, /*initial=*/2).ok());
  EXPECT_EQ(2, tables_[0]->file->reads());
  EXPECT_EQ(2u, MQScheduleTestPeer::GetStats(&mqs).region_reads);
  for (uint32_t s = 0; s < tables_[0]->index.num_segments(); ++s) {
    EXPECT_EQ(2, tables_[0]->groups->LoadedCount(s));
  }
  ExpectInvariants(mqs);

  // Room for unit 0 of three segments only: three single reads.
  const ElasticIndex& index = tables_[1]->index;
  ASSERT_GT(index.num_segments(), 3u);
  uint64_t used, budget;
  mqs.GetMemory(&used, &budget);
  MQScheduleOptions tight_options =
      Opts(index.segment(0).unit_size + index.segment(1).unit_size +
               index.segment(2).unit_size,
           0, false);
  tight_options.stats = nullptr;  // its own unit counters
  MQSchedule tight(tight_options);
  ASSERT_TRUE(Attach(&tight, 1, /*initial=*/1).ok());
  EXPECT_EQ(3, tables_[1]->file->reads());
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&tight).region_reads);
  EXPECT_EQ(3u, MQScheduleTestPeer::GetStats(&tight).unit_loads);
  EXPECT_EQ(1, tables_[1]->groups->LoadedCount(2));
  EXPECT_EQ(0, tables_[1]->groups->LoadedCount(3));
  ExpectInvariants(tight);
}

TEST_F(MQScheduleTest, BitsPerKeyBudgetEqualToUnitWidthFitsEveryFirstUnit) {
  // memory_bits_per_key == bits_per_unit (4 and 4, the defaults): a unit
  // takes at most bits_per_unit bits per key of its segment, so the budget
  // holds unit 0 of every segment, all loaded by one region read.
  MakeTables(1, 3000);
  const ElasticIndex& index = tables_[0]->index;
  ASSERT_GT(index.num_segments(), 3u);
  MQScheduleOptions o = Opts(0, 0, false);
  o.elastic.memory_bits_per_key = 4;
  MQSchedule mqs(o);
  ASSERT_TRUE(Attach(&mqs, 0, /*initial=*/1).ok());
  uint64_t unit_bytes = 0;
  for (uint32_t s = 0; s < index.num_segments(); ++s) {
    EXPECT_EQ(1, tables_[0]->groups->LoadedCount(s)) << s;
    EXPECT_LE(index.segment(s).unit_size * 8, index.segment(s).num_keys * 4);
    unit_bytes += index.segment(s).unit_size;
  }
  EXPECT_EQ(1u, MQScheduleTestPeer::GetStats(&mqs).region_reads);
  uint64_t used, budget;
  mqs.GetMemory(&used, &budget);
  EXPECT_EQ(index.total_keys() * 4 / 8, budget);
  EXPECT_EQ(unit_bytes, used);
  EXPECT_EQ(
      unit_bytes,
      MQScheduleTestPeer::GetStats(&mqs).mq.used_bytes);  // charged = allocated
  EXPECT_LE(used, budget);
  ExpectInvariants(mqs);
}

TEST_F(MQScheduleTest, BudgetFollowsTheKeysOfAttachedTables) {
  MakeTables(2, 3000);
  MQScheduleOptions o = Opts(0, 0, false);
  o.elastic.memory_bits_per_key = 8;  // two 4-bit units per key
  MQSchedule mqs(o);
  ASSERT_TRUE(Attach(&mqs, 0, /*initial=*/6).ok());
  const uint64_t keys0 = tables_[0]->index.total_keys();
  const uint64_t keys1 = tables_[1]->index.total_keys();
  uint64_t used, budget;
  mqs.GetMemory(&used, &budget);
  EXPECT_EQ(keys0, budget);  // 8 bits per key = 1 byte per key
  EXPECT_LE(used, budget);
  EXPECT_GT(used, budget / 2);
  ExpectInvariants(mqs);

  ASSERT_TRUE(Attach(&mqs, 1, /*initial=*/6).ok());
  mqs.GetMemory(&used, &budget);
  EXPECT_EQ(keys0 + keys1, budget);
  EXPECT_LE(used, budget);
  ExpectInvariants(mqs);

  mqs.ForgetFile(FileNumber(1));
  mqs.GetMemory(&used, &budget);
  EXPECT_EQ(keys0, budget);
  EXPECT_LE(used, budget);
  for (uint32_t s = 0; s < tables_[1]->index.num_segments(); ++s) {
    EXPECT_EQ(0, tables_[1]->groups->LoadedCount(s));
  }
  ExpectInvariants(mqs);
  mqs.ForgetFile(FileNumber(0));
  mqs.GetMemory(&used, &budget);
  EXPECT_EQ(0u, used);
  EXPECT_EQ(0u, budget);
}

TEST_F(MQScheduleTest, CompactedAwayTablesGiveUpUnitsAndBudgetAtOnce) {
  MakeTables(3, 3000);
  MQScheduleOptions o = Opts(0, 0, false);
  o.elastic.memory_bits_per_key = 8;  // two 4-bit units per key
  MQSchedule mqs(o);
  ASSERT_TRUE(Attach(&mqs, 0, /*initial=*/2).ok());
  ASSERT_TRUE(Attach(&mqs, 1, /*initial=*/2).ok());
  const uint64_t keys0 = tables_[0]->index.total_keys();
  const uint64_t keys1 = tables_[1]->index.total_keys();
  std::vector<MQSchedule::FileReport> live = {{FileNumber(0), 1, nullptr},
                                              {FileNumber(1), 1, nullptr}};
  mqs.ReportFiles(live);
  uint64_t used, budget;
  mqs.GetMemory(&used, &budget);
  EXPECT_EQ(keys0 + keys1, budget);
  EXPECT_GT(tables_[1]->groups->LoadedCount(0), 0);

  // Table 2 is being written by a compaction: attached before any version
  // names it, it must not be taken for a retired file, and its keys do not
  // raise the budget (they are the inputs' keys once more).
  ASSERT_TRUE(Attach(&mqs, 2, /*initial=*/1).ok());
  mqs.GetMemory(&used, &budget);
  EXPECT_EQ(keys0 + keys1, budget);
  EXPECT_LE(used, budget);
  EXPECT_EQ(keys0 + keys1 + tables_[2]->index.total_keys(),
            MQScheduleTestPeer::GetStats(&mqs).attached_keys);
  EXPECT_EQ(keys0 + keys1, MQScheduleTestPeer::GetStats(&mqs).budget_keys);
  // A compaction replaced table 1 by table 2; table 1 is still open (an old
  // version holds it) but leaves the live set.
  live = {{FileNumber(0), 1, nullptr}, {FileNumber(2), 2, nullptr}};
  mqs.ReportFiles(live);
  MQScheduleTestPeer::WaitIdle(&mqs);
  for (uint32_t s = 0; s < tables_[1]->index.num_segments(); ++s) {
    EXPECT_EQ(0, tables_[1]->groups->LoadedCount(s));
  }
  EXPECT_GT(tables_[2]->groups->LoadedCount(0), 0);
  mqs.GetMemory(&used, &budget);
  EXPECT_EQ(keys0 + tables_[2]->index.total_keys(), budget);
  EXPECT_LE(used, budget);
  EXPECT_TRUE(MQScheduleTestPeer::UnitsReserved(&mqs, FileNumber(1)).empty());
  // Its hotness stays readable until the file is deleted.
  std::vector<MultiQueue::Hotness> hot;
  EXPECT_TRUE(MQScheduleTestPeer::GetSegmentHotness(&mqs, FileNumber(1), &hot));
  ExpectInvariants(mqs);

  // Reopened for the old version, it is not registered again: it serves
  // without units.
  ASSERT_TRUE(Attach(&mqs, 1, /*initial=*/2).ok());
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(0, tables_[1]->groups->LoadedCount(0));
  EXPECT_FALSE(mqs.layer()->HasFilterGroups(FileNumber(1)));
  mqs.GetMemory(&used, &budget);
  EXPECT_EQ(keys0 + tables_[2]->index.total_keys(), budget);
  mqs.ForgetFile(FileNumber(1));
  EXPECT_FALSE(
      MQScheduleTestPeer::GetSegmentHotness(&mqs, FileNumber(1), &hot));
  ExpectInvariants(mqs);

  // Every file gone from the live set: nothing keeps units.
  mqs.ReportFiles({});
  mqs.GetMemory(&used, &budget);
  EXPECT_EQ(0u, used);
  EXPECT_EQ(0u, budget);
  EXPECT_FALSE(mqs.layer()->HasFilterGroups(FileNumber(0)));
  ExpectInvariants(mqs);
}

TEST_F(MQScheduleTest, HotnessAndUnitsStayUntilTheFileIsForgotten) {
  MakeTables(1, 3000);
  MQSchedule mqs(Opts(uint64_t{1} << 30, 0, false));
  ASSERT_TRUE(Attach(&mqs, 0, 0).ok());
  MQScheduleTestPeer::SetClock(&mqs, 42);
  for (int i = 0; i < 3; ++i) mqs.layer()->RecordAccess(Seg(0, 1), true);
  mqs.layer()->RecordAccess(Seg(0, 1), false);
  MQScheduleTestPeer::WaitIdle(&mqs);
  const int held = tables_[0]->groups->LoadedCount(1);
  ASSERT_GT(held, 0);

  std::vector<MultiQueue::Hotness> hot;
  ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(&mqs, FileNumber(0), &hot));
  ASSERT_EQ(tables_[0]->index.num_segments(), hot.size());
  EXPECT_EQ(3u, hot[1].absent_probes);
  EXPECT_EQ(4u, hot[1].accesses);
  EXPECT_EQ(42u, hot[1].last_access);
  EXPECT_EQ(0u, hot[0].accesses);

  // A table of the same file opened again (the table cache closed the
  // first) registers nothing new: the groups, their units and the hotness
  // stay, and inherited values are ignored.
  auto reopened = std::make_shared<TableFilterGroups>(tables_[0]->index,
                                                      tables_[0]->file->size());
  InheritedHotness inherited;
  inherited.segments.assign(tables_[0]->index.num_segments(),
                            MultiQueue::Hotness{9, 9, 9});
  ASSERT_TRUE(mqs.AttachTable(FileNumber(0), reopened, tables_[0]->file.get(),
                              &inherited, 2)
                  .ok());
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(0, reopened->LoadedCount(1));
  EXPECT_EQ(held, tables_[0]->groups->LoadedCount(1));
  ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(&mqs, FileNumber(0), &hot));
  EXPECT_EQ(3u, hot[1].absent_probes);
  EXPECT_EQ(held, MQScheduleTestPeer::UnitsReserved(&mqs, FileNumber(0))[1]);
  ExpectInvariants(mqs);

  mqs.ForgetFile(FileNumber(0));
  EXPECT_FALSE(
      MQScheduleTestPeer::GetSegmentHotness(&mqs, FileNumber(0), &hot));
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).attached_tables);
  EXPECT_EQ(0, tables_[0]->groups->LoadedCount(1));
  EXPECT_FALSE(mqs.layer()->HasFilterGroups(FileNumber(0)));
}

TEST_F(MQScheduleTest, InheritedHotnessSeedsNewSegments) {
  MakeTables(1, 3000);
  MQSchedule mqs(Opts(uint64_t{1} << 30, 0, false));
  InheritedHotness inherited;
  for (uint32_t s = 0; s < tables_[0]->index.num_segments(); ++s) {
    inherited.segments.push_back(MultiQueue::Hotness{s * 10, s * 20, 7});
  }
  ASSERT_TRUE(Attach(&mqs, 0, 1, &inherited).ok());
  std::vector<MultiQueue::Hotness> hot;
  ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(&mqs, FileNumber(0), &hot));
  for (uint32_t s = 0; s < hot.size(); ++s) {
    EXPECT_EQ(s * 10, hot[s].absent_probes);
    EXPECT_EQ(s * 20, hot[s].accesses);
  }
  EXPECT_GT(MQScheduleTestPeer::GetStats(&mqs).mq.expected_extra_io, 0.0);
}

TEST_F(MQScheduleTest, ForgettingAFileDoesNotWaitForItsLoadsInFlight) {
  MakeTables(1, 3000);
  MQSchedule mqs(Opts(uint64_t{1} << 30, 0, /*background=*/true));
  ASSERT_TRUE(Attach(&mqs, 0, 0).ok());
  test::GatedFile* file = tables_[0]->file.get();
  file->SetOpen(false);
  mqs.layer()->RecordAccess(Seg(0, 2), true);
  file->AwaitBlockedReader();  // the background thread is reading the unit

  // Returns while the read is held at the gate (it would hang otherwise).
  mqs.ForgetFile(FileNumber(0));
  EXPECT_FALSE(mqs.layer()->HasFilterGroups(FileNumber(0)));
  file->SetOpen(true);
  MQScheduleTestPeer::WaitIdle(&mqs);
  // The load finished into groups nobody can reach: nothing installed.
  for (uint32_t s = 0; s < tables_[0]->index.num_segments(); ++s) {
    EXPECT_EQ(0, tables_[0]->groups->LoadedCount(s));
  }
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).installed_bytes);
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).mq.used_bytes);
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).attached_tables);
  ExpectInvariants(mqs);
}

TEST_F(MQScheduleTest, FullRingDropsRecordsWithoutBlocking) {
  MakeTables(1, 3000);
  MQScheduleOptions o = Opts(uint64_t{1} << 30, 0, false);
  o.ring_capacity = 64;
  MQSchedule mqs(o);
  ASSERT_TRUE(Attach(&mqs, 0, 0).ok());
  for (int i = 0; i < 1000; ++i) mqs.layer()->RecordAccess(Seg(0, 0), true);
  EXPECT_EQ(936u, MQScheduleTestPeer::GetStats(&mqs).ring_drops);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(64u, MQScheduleTestPeer::GetStats(&mqs).records);
  EXPECT_EQ(6, tables_[0]->groups->LoadedCount(0));
  // Room again after the drain.
  mqs.layer()->RecordAccess(Seg(0, 1), true);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(65u, MQScheduleTestPeer::GetStats(&mqs).records);
  EXPECT_EQ(936u, MQScheduleTestPeer::GetStats(&mqs).ring_drops);
}

TEST_F(MQScheduleTest, PausedBackgroundThreadProcessesNothing) {
  MakeTables(1, 3000);
  MQSchedule mqs(Opts(uint64_t{1} << 30, 0, /*background=*/true));
  ASSERT_TRUE(Attach(&mqs, 0, 0).ok());
  MQScheduleTestPeer::Pause(&mqs, true);
  for (int i = 0; i < 10; ++i) mqs.layer()->RecordAccess(Seg(0, 0), true);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).records);
  EXPECT_EQ(0, tables_[0]->groups->LoadedCount(0));
  MQScheduleTestPeer::Pause(&mqs, false);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(10u, MQScheduleTestPeer::GetStats(&mqs).records);
  EXPECT_EQ(6, tables_[0]->groups->LoadedCount(0));
}

TEST_F(MQScheduleTest, TablesWithSmallerGroupsAreNotAskedForMore) {
  MakeTables(1, 3000, /*units_per_segment=*/2);
  MQSchedule mqs(Opts(uint64_t{1} << 30, 0, false, /*units=*/6));
  ASSERT_TRUE(Attach(&mqs, 0, /*initial=*/4).ok());
  EXPECT_EQ(2, tables_[0]->groups->LoadedCount(0));
  for (int i = 0; i < 20; ++i) mqs.layer()->RecordAccess(Seg(0, 0), true);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(2, tables_[0]->groups->LoadedCount(0));
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).unit_load_failures);
  ExpectInvariants(mqs);
}

TEST_F(MQScheduleTest, BudgetHoldsUnderChurn) {
  MakeTables(4, 4000);
  uint64_t largest = 0;
  for (const auto& t : tables_) {
    for (uint32_t s = 0; s < t->index.num_segments(); ++s) {
      largest = std::max(largest, t->index.segment(s).unit_size);
    }
  }
  MQSchedule mqs(Opts(3 * largest, /*lifetime=*/1, /*background=*/true));
  for (size_t t = 0; t < tables_.size(); ++t) {
    ASSERT_TRUE(Attach(&mqs, t, 1).ok());
  }

  std::atomic<bool> stop{false};
  std::atomic<int> violations{0};
  std::atomic<int> checks{0};
  std::thread monitor([&] {
    while (!stop.load()) {
      uint64_t used, budget;
      mqs.GetMemory(&used, &budget);
      if (used > budget) violations.fetch_add(1);
      std::string error;
      if (!MQScheduleTestPeer::CheckInvariants(&mqs, &error))
        violations.fetch_add(1);
      checks.fetch_add(1);
    }
  });

  // The monitor checks at least once before, during and after the churn.
  auto await_check = [&checks] {
    const int seen = checks.load();
    while (checks.load() < seen + 2) std::this_thread::yield();
  };
  await_check();
  Random rnd(test::RandomSeed());
  for (int i = 0; i < 30000; ++i) {
    mqs.layer()->Tick();
    const size_t t = rnd.Uniform(static_cast<int>(tables_.size()));
    const uint32_t s = rnd.Uniform(tables_[t]->index.num_segments());
    mqs.layer()->RecordAccess(Seg(t, s), rnd.OneIn(10) ? false : true);
    // Drain from this thread too now and then (the background thread
    // drains concurrently), so that few records are dropped.
    if (i % 2000 == 1999) MQScheduleTestPeer::WaitIdle(&mqs);
    if (i % 5000 == 2999) await_check();
    if (i % 5000 == 4999) {
      // A file goes and a new one registers in the middle of it all.
      mqs.ForgetFile(FileNumber(t));
      tables_[t]->groups = std::make_shared<TableFilterGroups>(
          tables_[t]->index, tables_[t]->file->size());
      ASSERT_TRUE(Attach(&mqs, t, 1).ok());
    }
  }
  MQScheduleTestPeer::WaitIdle(&mqs);
  await_check();
  stop.store(true);
  monitor.join();
  EXPECT_EQ(0, violations.load());
  EXPECT_GT(checks.load(), 0);
  const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(&mqs);
  EXPECT_GT(st.unit_loads, 10u);
  EXPECT_GT(st.unit_evictions, 10u);
  EXPECT_LE(st.installed_bytes, 3 * largest);
  ExpectInvariants(mqs);
  for (size_t t = 0; t < tables_.size(); ++t) mqs.ForgetFile(FileNumber(t));
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).installed_bytes);
}

TEST_F(MQScheduleTest, StatsStringReportsMemoryAndActivity) {
  MakeTables(1, 3000);
  MQSchedule mqs(Opts(uint64_t{1} << 20, 0, false));
  ASSERT_TRUE(Attach(&mqs, 0, 1).ok());
  mqs.layer()->RecordAccess(Seg(0, 0), true);
  MQScheduleTestPeer::WaitIdle(&mqs);
  const std::string text = mqs.StatsString();
  EXPECT_NE(std::string::npos, text.find("budget 1048576"));
  EXPECT_NE(std::string::npos, text.find("segments by units loaded:"));
  EXPECT_NE(std::string::npos, text.find("E[extra I/O]"));
  EXPECT_NE(std::string::npos, text.find("1 processed, 0 dropped"));
}

TEST_F(MQScheduleTest, UnreadableUnitsAreReportedAndNeverInstalled) {
  MakeTables(1, 3000);
  const ElasticIndex& index = tables_[0]->index;
  // The file ends inside the unit-0 region: every unit read fails.
  std::string bytes(static_cast<size_t>(index.region_offset(0) + 10), 'x');
  test::StringSource truncated(bytes);
  auto groups =
      std::make_shared<TableFilterGroups>(index, tables_[0]->file->size());
  MQSchedule mqs(Opts(uint64_t{1} << 30, 0, false));
  ASSERT_TRUE(
      mqs.AttachTable(FileNumber(0), groups, &truncated, nullptr, 1).ok());
  MQSchedule::Stats st = MQScheduleTestPeer::GetStats(&mqs);
  EXPECT_EQ(index.num_segments(), st.unit_load_failures);
  EXPECT_EQ(index.num_segments(), stats_.unit_load_failures.load());
  EXPECT_EQ(0u, st.unit_loads);
  EXPECT_EQ(0u, st.installed_bytes);
  EXPECT_EQ(0u, st.mq.used_bytes);        // every reservation was given back
  ASSERT_EQ(1u, logger_.lines().size());  // one report for the region
  EXPECT_NE(std::string::npos, logger_.lines()[0].find("filter unit 0"));

  // Later accesses do not retry the broken units.
  for (uint32_t s = 0; s < index.num_segments(); ++s) {
    mqs.layer()->RecordAccess(Seg(0, s), true);
  }
  MQScheduleTestPeer::WaitIdle(&mqs);
  st = MQScheduleTestPeer::GetStats(&mqs);
  EXPECT_EQ(index.num_segments(), st.unit_load_failures);
  for (uint32_t s = 0; s < index.num_segments(); ++s) {
    EXPECT_EQ(0, groups->LoadedCount(s));
  }
  ExpectInvariants(mqs);
}

TEST_F(MQScheduleTest, RejectsBadArguments) {
  MakeTables(1, 3000);
  MQSchedule mqs(Opts(uint64_t{1} << 20, 0, false));
  EXPECT_TRUE(mqs.AttachTable(uint64_t{1} << 50, tables_[0]->groups,
                              tables_[0]->file.get(), nullptr, 1)
                  .IsInvalidArgument());
  EXPECT_FALSE(mqs.layer()->HasFilterGroups(uint64_t{1} << 50));
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).attached_tables);
  // A table without filter groups registers as such: screens send Gets to
  // the table itself.
  EXPECT_TRUE(mqs.AttachTable(1, nullptr, nullptr, nullptr, 1).ok());
  EXPECT_FALSE(mqs.layer()->HasFilterGroups(1));
  EXPECT_EQ(FilterLayer::Screening::kNoFilter,
            mqs.layer()->Screen(1, Slice("k"), 0).verdict);
  EXPECT_EQ(FilterLayer::Screening::kUnknown,
            mqs.layer()->Screen(2, Slice("k"), 0).verdict);
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).attached_tables);
  // Unknown segments are ignored.
  mqs.layer()->RecordAccess(Seg(5, 0), true);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(1u, MQScheduleTestPeer::GetStats(&mqs).records);
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(&mqs).unit_loads);
}

// ---------------------------------------------------------------------------
// Unit targets, seeds and top-ups (hotness inheritance and restarts)

// Inherited hotness with a unit target per segment: 3 for segment 1, 0 for
// segment 2, none (initial_units) for the others.
InheritedHotness TargetsFor(uint32_t segments) {
  InheritedHotness h;
  h.segments.assign(segments, MultiQueue::Hotness{});
  h.units.assign(segments, -1);
  h.segments[1] = MultiQueue::Hotness{50, 60, 9};
  h.units[1] = 3;
  h.units[2] = 0;
  return h;
}

TEST_F(MQScheduleTest, TargetsBeyondInitialUnitsAreToppedUpInTheBackground) {
  MakeTables(1, 3000);
  const uint32_t count = tables_[0]->index.num_segments();
  ASSERT_GE(count, 4u);
  MQSchedule mqs(Opts(uint64_t{1} << 30, 0, /*background=*/false));
  const InheritedHotness inherited = TargetsFor(count);
  ASSERT_TRUE(Attach(&mqs, 0, /*initial=*/1, &inherited).ok());
  TableFilterGroups* groups = tables_[0]->groups.get();
  // Opening loads at most initial_units, and no more than the target.
  EXPECT_EQ(1, groups->LoadedCount(0));
  EXPECT_EQ(1, groups->LoadedCount(1));
  EXPECT_EQ(0, groups->LoadedCount(2));
  EXPECT_EQ(1, groups->LoadedCount(3));
  // The target counts for checkpoints before the top-up is done.
  InheritedHotness now;
  ASSERT_TRUE(mqs.GetFileHotness(FileNumber(0), &now));
  EXPECT_EQ(3, now.units[1]);
  EXPECT_EQ(0, now.units[2]);
  EXPECT_EQ(50u, now.segments[1].absent_probes);

  MQScheduleTestPeer::WaitIdle(&mqs);  // the background work, in this thread
  EXPECT_EQ(3, groups->LoadedCount(1));
  EXPECT_EQ(0, groups->LoadedCount(2));
  EXPECT_EQ(1, groups->LoadedCount(0));
  const std::vector<int> reserved =
      MQScheduleTestPeer::UnitsReserved(&mqs, FileNumber(0));
  ASSERT_EQ(count, reserved.size());
  EXPECT_EQ((std::vector<int>{1, 3, 0, 1}),
            std::vector<int>(reserved.begin(), reserved.begin() + 4));
  ExpectInvariants(mqs);
  mqs.ForgetFile(FileNumber(0));
  EXPECT_TRUE(MQScheduleTestPeer::UnitsReserved(&mqs, FileNumber(0)).empty());
}

TEST_F(MQScheduleTest, TopUpsUseFreeMemoryOnlyAndWaitForIt) {
  MakeTables(2, 3000);
  const ElasticIndex& index = tables_[0]->index;
  const uint32_t count = index.num_segments();
  uint64_t one_each = 0;  // unit 0 of every segment of table 0
  for (uint32_t s = 0; s < count; ++s) one_each += index.segment(s).unit_size;
  // Table 1 fills the budget but for exactly unit 0 of each segment of
  // table 0 that wants one (segment 2's target is 0). The clock stands
  // still, so nothing expires and nothing can be taken from table 1.
  uint64_t table1 = 0;
  for (uint32_t s = 0; s < tables_[1]->index.num_segments(); ++s) {
    table1 += tables_[1]->index.segment(s).unit_size;
  }
  MQSchedule mqs(Opts(table1 + one_each - index.segment(2).unit_size,
                      /*lifetime=*/1000000, false));
  ASSERT_TRUE(Attach(&mqs, 1, 1).ok());

  const InheritedHotness inherited = TargetsFor(count);
  ASSERT_TRUE(Attach(&mqs, 0, 1, &inherited).ok());
  MQScheduleTestPeer::WaitIdle(&mqs);
  TableFilterGroups* groups = tables_[0]->groups.get();
  EXPECT_EQ(1, groups->LoadedCount(1));  // target 3, no free memory
  EXPECT_EQ(0, groups->LoadedCount(2));
  uint64_t used, budget;
  mqs.GetMemory(&used, &budget);
  EXPECT_LE(used, budget);
  ExpectInvariants(mqs);

  // Table 1 is deleted: its memory is free, the top-up completes.
  mqs.ForgetFile(FileNumber(1));
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(3, groups->LoadedCount(1));
  EXPECT_EQ(0, groups->LoadedCount(2));
  EXPECT_EQ(1, groups->LoadedCount(0));
  ExpectInvariants(mqs);
}

TEST_F(MQScheduleTest, SeedsServeFilesNotOpenedYet) {
  MakeTables(2, 3000);
  const uint32_t count = tables_[0]->index.num_segments();
  MQSchedule mqs(Opts(uint64_t{1} << 30, 0, false));
  std::vector<MultiQueue::Hotness> hot;
  EXPECT_FALSE(
      MQScheduleTestPeer::GetSegmentHotness(&mqs, FileNumber(0), &hot));

  InheritedHotness seed = TargetsFor(count);
  mqs.SeedFileHotness(FileNumber(0), seed);
  // Readable before the table opens (a compaction may read it).
  InheritedHotness got;
  ASSERT_TRUE(mqs.GetFileHotness(FileNumber(0), &got));
  EXPECT_TRUE(got == seed);
  ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(&mqs, FileNumber(0), &hot));
  EXPECT_EQ(50u, hot[1].absent_probes);
  // A second seed does not replace the first.
  InheritedHotness other = seed;
  other.segments[1].absent_probes = 1;
  mqs.SeedFileHotness(FileNumber(0), other);
  ASSERT_TRUE(mqs.GetFileHotness(FileNumber(0), &got));
  EXPECT_EQ(50u, got.segments[1].absent_probes);

  // The table opens with the seed (no caller-supplied hotness).
  ASSERT_TRUE(Attach(&mqs, 0, 1).ok());
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(3, tables_[0]->groups->LoadedCount(1));
  EXPECT_EQ(0, tables_[0]->groups->LoadedCount(2));
  ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(&mqs, FileNumber(0), &hot));
  EXPECT_EQ(60u, hot[1].accesses);
  // Seeds for a known file are ignored.
  mqs.SeedFileHotness(FileNumber(0), other);
  ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(&mqs, FileNumber(0), &hot));
  EXPECT_EQ(50u, hot[1].absent_probes);

  // Files reported with hotness are seeded; forgetting drops the seed.
  std::vector<MQSchedule::FileReport> files = {{FileNumber(1), 3, &seed},
                                               {FileNumber(0), 2, &other}};
  mqs.ReportFiles(files);
  ASSERT_TRUE(mqs.GetFileHotness(FileNumber(1), &got));
  EXPECT_TRUE(got == seed);
  mqs.ForgetFile(FileNumber(1));
  EXPECT_FALSE(mqs.GetFileHotness(FileNumber(1), &got));
  ExpectInvariants(mqs);
}

TEST_F(MQScheduleTest, RestoredClockOnlyMovesForward) {
  MQSchedule mqs(Opts(uint64_t{1} << 20, 0, false));
  mqs.layer()->RestoreClock(1000);
  EXPECT_EQ(1000u, mqs.layer()->Now());
  mqs.layer()->RestoreClock(10);
  EXPECT_EQ(1000u, mqs.layer()->Now());
  EXPECT_EQ(1001u, mqs.layer()->Tick());
}

// A database as the unit manager sees it: a layer, no files.
class LayerOnlyClient : public UnitClient {
 public:
  explicit LayerOnlyClient(WakeSignal* wake) : layer_(64, wake) {}
  FilterLayer* layer() override { return &layer_; }
  Status OpenFile(uint64_t, std::unique_ptr<RandomAccessFile>*) override {
    return Status::NotSupported("no files");
  }
  size_t RegisterPending(size_t) override { return 0; }

 private:
  FilterLayer layer_;
};

TEST(UnitManagerTest, ServesOneDatabaseAtATime) {
  UnitManagerOptions options;
  options.background_thread = false;
  options.elastic.memory_budget_bytes = 1 << 20;
  UnitManager manager(options);
  LayerOnlyClient first(manager.wake());
  LayerOnlyClient second(manager.wake());
  UnitManager::DbHandle a;
  UnitManager::DbHandle b;
  ASSERT_TRUE(manager.Join(&first, &a).ok());
  EXPECT_FALSE(manager.Join(&second, &b).ok());
  manager.Leave(a);
  ASSERT_TRUE(manager.Join(&second, &b).ok());
  EXPECT_NE(a, b);  // handles are not reused
  UnitManager::FileChanges changes;
  changes.budget_keys = 1000;
  manager.Apply(b, changes);
  uint64_t installed;
  uint64_t budget;
  manager.GetMemory(&installed, &budget);
  EXPECT_EQ(0u, installed);
  EXPECT_EQ(uint64_t{1} << 20, budget);
  manager.Leave(b);
}

// The memo's size is weighed against the units (MemoSizer): a memo that
// earns nothing gives its bytes to units that want them, down to the
// smallest size, and grows again, keeping its entries, once its oldest
// entries earn more per byte than the units it takes.
TEST_F(MQScheduleTest, MemoGivesWayToUnitsAndGrowsBackWhenItPays) {
  // More units than the budget holds: the last tables get none.
  const size_t kTables = 60;
  MakeTables(kTables, 6000);
  MQScheduleOptions o = Opts(400000, /*lifetime=*/0, /*background=*/false);
  o.elastic.false_positive_memo_bytes = 4096;
  o.memo_window_gets = 100;
  MQSchedule mqs(o);
  for (size_t t = 0; t < kTables; ++t) Attach(&mqs, t, /*initial=*/6);
  MQScheduleTestPeer::WaitIdle(&mqs);
  const size_t last = kTables - 1;
  ASSERT_LT(tables_[last]->groups->LoadedCount(0), 6);
  FalsePositiveMemo* memo = mqs.layer()->memo();
  ASSERT_EQ(4096u, memo->bytes());
  auto check_budget = [&] {
    const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(&mqs);
    EXPECT_LE(st.installed_bytes + st.locator_bytes + st.memo_bytes,
              st.budget_bytes);
    EXPECT_EQ(st.budget_bytes - st.locator_bytes - st.memo_bytes,
              st.mq.budget_bytes);
  };
  check_budget();

  // The last table's segments miss their units; the memo is never hit.
  const uint32_t segments = tables_[last]->index.num_segments();
  uint64_t now = 0;
  auto absent_window = [&](size_t table) {
    for (int i = 0; i < 100; ++i) {
      MQScheduleTestPeer::SetClock(&mqs, ++now);
      mqs.layer()->RecordAccess(Seg(table, i % segments), /*absent=*/true);
    }
    MQScheduleTestPeer::WaitIdle(&mqs);
  };
  absent_window(last);
  // Halved, to the smallest size: the budget's 1/128 rounded down to a
  // power of two of sets.
  EXPECT_EQ(2048u, memo->bytes());
  MQSchedule::Stats st = MQScheduleTestPeer::GetStats(&mqs);
  EXPECT_EQ(1u, st.memo_shrinks);
  EXPECT_EQ(0u, st.memo_grows);
  check_budget();

  // Now every slot is looked up again and again: its oldest quarter earns
  // more per byte than the cheapest units (never probed) lose.
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back(test::AbsentKey(i));
  auto memo_key = [memo](const std::string& key) {
    return memo->KeyOf(7, KeyHash64(key.data(), key.size()), key);
  };
  for (const std::string& key : keys) memo->Insert(memo_key(key));
  const size_t held = memo->CountEntries();
  for (int round = 0; round < 20; ++round) {
    for (const std::string& key : keys) memo->Contains(memo_key(key));
  }
  now += 100;
  MQScheduleTestPeer::SetClock(&mqs, now);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(4096u, memo->bytes());
  EXPECT_EQ(held, memo->CountEntries());  // the entries moved along
  st = MQScheduleTestPeer::GetStats(&mqs);
  EXPECT_EQ(1u, st.memo_grows);
  check_budget();

  // It stops paying while segments want units: down to the smallest size,
  // then off.
  absent_window(last);
  EXPECT_EQ(2048u, memo->bytes());
  absent_window(last);
  EXPECT_EQ(0u, memo->bytes());
  EXPECT_FALSE(memo->active());
  EXPECT_FALSE(memo->Contains(memo_key(keys[0])));
  check_budget();

  // Eight windows later it is measured again, at the smallest size.
  now += 7 * 100;
  MQScheduleTestPeer::SetClock(&mqs, now);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(0u, memo->bytes());
  now += 100;
  MQScheduleTestPeer::SetClock(&mqs, now);
  MQScheduleTestPeer::WaitIdle(&mqs);
  EXPECT_EQ(2048u, memo->bytes());
  EXPECT_TRUE(memo->active());
  check_budget();
}

}  // namespace
}  // namespace leveldb
