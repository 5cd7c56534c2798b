// ElasticBF hotness through the DB: compaction outputs inherit the hotness
// of the input segments they overlap; hotness is recorded in the MANIFEST
// (with compactions, in periodic checkpoints and at close) and restored at
// open; checkpoints keep the MANIFEST bounded; a failed MANIFEST write loses
// nothing; inherit_hotness = false starts cold; StripElasticMetadata hands the
// MANIFEST back to LevelDB 1.23's records.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/version_edit.h"
#include "elastic/hotness_inheritance.h"
#include "elastic/mq_schedule.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/write_batch.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "tests/db_impl_test_peer.h"
#include "tests/db_test_helpers.h"
#include "tests/elastic_test_helpers.h"
#include "tests/elastic_test_peer.h"
#include "tests/manifest_fault_env.h"
#include "tests/test_util.h"
#include "util/mutexlock.h"

namespace leveldb {
namespace {

using test::AbsentKey;
using test::PresentKey;

constexpr int kKeys = 20000;
// The hot key range: absent keys between PresentKey(kHotBegin) and
// PresentKey(kHotEnd) are probed again and again.
constexpr int kHotBegin = 8000;
constexpr int kHotEnd = 9000;
constexpr int kInitialUnits = 1;

std::string ValueFor(int i) {
  std::string v = "value-" + std::to_string(i) + "-";
  v.resize(100, 'v');
  return v;
}

class ElasticHotnessTest : public test::DBTestBase<testing::Test> {
 protected:
  ElasticHotnessTest() : DBTestBase("elastic_hotness_test"), fault_env_(env_) {}

  // The base class removes dbname_; the DB may use fault_env_, which goes
  // away before the base class does, so close it here.
  ~ElasticHotnessTest() override {
    Close();
    if (!copy_.empty()) {
      DestroyDB(copy_, DefaultOptions());
      test::RemoveDirRecursively(env_, copy_);
    }
  }

  Options ElasticOptions(bool inherit = true) {
    ElasticFilterOptions eo;
    // Bloom units: at about 140 keys per segment a Ribbon unit's fixed
    // costs (whole blocks, trailer) would leave the budget no room to grow.
    eo.unit_kind = ElasticFilterOptions::UnitKind::kBloom;
    eo.segment_bytes = 16 << 10;  // about 140 keys per segment
    eo.memory_bits_per_key = 8;   // room for hot segments to grow
    eo.initial_units = kInitialUnits;
    eo.inherit_hotness = inherit;
    Options o = DefaultOptions();
    o.write_buffer_size = 256 << 10;
    o.compression = kNoCompression;  // segment_bytes counts stored bytes
    o.filter_policy = KeepPolicy(NewElasticFilterPolicy(eo));
    return o;
  }

  MQSchedule* mqs() { return DBImplTestPeer::elastic(dbfull()); }

  void Fill() {
    WriteBatch batch;
    for (int i = 0; i < kKeys; ++i) {
      batch.Put(PresentKey(i), ValueFor(i));
      if (i % 1000 == 999) {
        ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());
        batch.Clear();
      }
    }
    ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());
  }

  // Fills the database and compacts it into one level; returns the level.
  int Build() {
    Fill();
    db_->CompactRange(nullptr, nullptr);
    DBImplTestPeer::WaitForBackgroundWork(dbfull());
    return TableLevel();
  }

  // The one level holding tables (-1 if none or several).
  int TableLevel() {
    int found = -1;
    for (int level = 0; level < config::kNumLevels; ++level) {
      if (NumTableFilesAtLevel(level) == 0) continue;
      if (found != -1) return -1;
      found = level;
    }
    return found;
  }

  // Probes the absent keys of the hot range `rounds` times.
  void HeatHotRange(int rounds) {
    for (int r = 0; r < rounds; ++r) {
      for (int i = kHotBegin; i < kHotEnd; ++i) {
        ASSERT_EQ("NOT_FOUND", Get(AbsentKey(i)));
      }
    }
    MQScheduleTestPeer::WaitIdle(mqs());
  }

  // Every segment of every live table holds exactly kInitialUnits.
  void ExpectInitialUnitsEverywhere() {
    for (uint64_t number : TableFiles()) {
      for (int units : MQScheduleTestPeer::UnitsReserved(mqs(), number)) {
        EXPECT_EQ(kInitialUnits, units);
      }
    }
  }

  // After opening every table: all of them start cold.
  void ExpectColdTables() {
    OpenAllTables();
    MQScheduleTestPeer::WaitIdle(mqs());
    ExpectInitialUnitsEverywhere();
  }

  void CheckAllData() {
    for (int i = 0; i < kKeys; ++i) {
      ASSERT_EQ(ValueFor(i), Get(PresentKey(i))) << i;
    }
  }

  // Opens every table without probing any segment (an iterator records no
  // accesses), so that all of them are attached.
  void OpenAllTables() {
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    int n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
    ASSERT_TRUE(it->status().ok());
    ASSERT_EQ(kKeys, n);
  }

  // Per live table: units reserved and hotness of each segment.
  struct TableState {
    std::vector<int> units;
    InheritedHotness hotness;
  };
  std::map<uint64_t, TableState> Snapshot() {
    MQScheduleTestPeer::WaitIdle(mqs());
    std::map<uint64_t, TableState> state;
    for (uint64_t number : TableFiles()) {
      TableState& t = state[number];
      t.units = MQScheduleTestPeer::UnitsReserved(mqs(), number);
      EXPECT_TRUE(mqs()->GetFileHotness(number, &t.hotness)) << number;
    }
    return state;
  }

  // The MANIFEST named by CURRENT: how many records, and how many of them
  // hold ElasticBF records.
  void ScanManifest(const std::string& dir, int* records, int* elastic) {
    *records = 0;
    *elastic = 0;
    std::string current;
    ASSERT_TRUE(ReadFileToString(env_, CurrentFileName(dir), &current).ok());
    ASSERT_FALSE(current.empty());
    current.pop_back();
    SequentialFile* file = nullptr;
    ASSERT_TRUE(env_->NewSequentialFile(dir + "/" + current, &file).ok());
    std::unique_ptr<SequentialFile> owned(file);
    log::Reader reader(file, nullptr, true, 0);
    Slice record;
    std::string scratch;
    while (reader.ReadRecord(&record, &scratch)) {
      VersionEdit edit;
      ASSERT_TRUE(edit.DecodeFrom(record).ok());
      ++*records;
      if (edit.HasElastic()) ++*elastic;
    }
  }
  // Bytes of the MANIFEST named by CURRENT.
  uint64_t ManifestSize() {
    std::string current;
    EXPECT_TRUE(
        ReadFileToString(env_, CurrentFileName(dbname_), &current).ok());
    if (current.empty()) return 0;
    current.pop_back();
    uint64_t size = 0;
    EXPECT_TRUE(env_->GetFileSize(dbname_ + "/" + current, &size).ok());
    return size;
  }
  // MANIFEST files in the DB directory.
  int ManifestFiles() {
    std::vector<std::string> children;
    EXPECT_TRUE(env_->GetChildren(dbname_, &children).ok());
    int manifests = 0;
    for (const std::string& child : children) {
      uint64_t number;
      FileType type;
      manifests +=
          ParseFileName(child, &number, &type) && type == kDescriptorFile;
    }
    return manifests;
  }
  int ElasticRecords(const std::string& dir = "") {
    int records = 0, elastic = 0;
    ScanManifest(dir.empty() ? dbname_ : dir, &records, &elastic);
    return elastic;
  }

  // Segments of the live tables classified by key range: inside the hot
  // range, or far from it (more than 1000 keys away).
  struct Classified {
    std::vector<std::pair<uint64_t, uint32_t>> hot;
    std::vector<std::pair<uint64_t, uint32_t>> cold;
  };
  Classified ClassifySegments() {
    Classified c;
    const std::string hot_lo = PresentKey(kHotBegin);
    const std::string hot_hi = PresentKey(kHotEnd - 1);
    const std::string far_lo = PresentKey(kHotBegin - 1000);
    const std::string far_hi = PresentKey(kHotEnd + 1000);
    for (uint64_t number : TableFiles()) {
      std::vector<SegmentKeyRange> ranges;
      EXPECT_TRUE(
          DBImplTestPeer::SegmentKeyRanges(dbfull(), number, &ranges).ok());
      for (uint32_t s = 0; s < ranges.size(); ++s) {
        if (ranges[s].first >= hot_lo && ranges[s].last <= hot_hi) {
          c.hot.emplace_back(number, s);
        } else if (ranges[s].last < far_lo || ranges[s].first > far_hi) {
          c.cold.emplace_back(number, s);
        }
      }
    }
    return c;
  }

  test::TornManifestEnv fault_env_;
  std::string copy_;
};

// ---------------------------------------------------------------------------
// Inheritance

TEST_F(ElasticHotnessTest, CompactionOutputsInheritTheHotRange) {
  Open(ElasticOptions());
  const int level = Build();
  ASSERT_GE(level, 1);
  ASSERT_LT(level, config::kNumLevels - 1);
  HeatHotRange(3);

  // Before: the hot range's segments earned units, the rest kept one.
  Classified before = ClassifySegments();
  ASSERT_GE(before.hot.size(), 3u);
  ASSERT_GE(before.cold.size(), 20u);
  for (const auto& [file, seg] : before.hot) {
    EXPECT_GT(MQScheduleTestPeer::UnitsReserved(mqs(), file)[seg],
              kInitialUnits);
  }

  // Every table is rewritten into the next level.
  const std::set<uint64_t> inputs = TableFiles();
  dbfull()->TEST_CompactRange(level, nullptr, nullptr);
  ASSERT_EQ(level + 1, TableLevel());
  MQScheduleTestPeer::WaitIdle(mqs());
  for (uint64_t number : TableFiles()) ASSERT_EQ(0u, inputs.count(number));

  // After: the new segments of the hot range start hot, the others cold.
  Classified after = ClassifySegments();
  ASSERT_GE(after.hot.size(), 3u);
  ASSERT_GE(after.cold.size(), 20u);
  for (const auto& [file, seg] : after.hot) {
    SCOPED_TRACE("hot segment " + std::to_string(seg) + " of " +
                 std::to_string(file));
    EXPECT_GT(MQScheduleTestPeer::UnitsReserved(mqs(), file)[seg],
              kInitialUnits);
    std::vector<MultiQueue::Hotness> h;
    ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(mqs(), file, &h));
    EXPECT_GT(h[seg].absent_probes, 0u);
    EXPECT_GT(h[seg].last_access, 0u);
    // Recorded in the compaction's MANIFEST record too.
    std::shared_ptr<const InheritedHotness> recorded =
        DBImplTestPeer::RecordedHotness(dbfull(), file);
    ASSERT_NE(nullptr, recorded);
    EXPECT_GT(recorded->UnitTarget(seg), kInitialUnits);
  }
  for (const auto& [file, seg] : after.cold) {
    EXPECT_LE(MQScheduleTestPeer::UnitsReserved(mqs(), file)[seg],
              kInitialUnits);
    std::vector<MultiQueue::Hotness> h;
    ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(mqs(), file, &h));
    EXPECT_EQ(0u, h[seg].absent_probes);
  }
  EXPECT_GT(ElasticRecords(), 0);
  std::string error;
  EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(mqs(), &error)) << error;
  CheckAllData();
}

TEST_F(ElasticHotnessTest, WithoutInheritanceNewTablesStartCold) {
  Open(ElasticOptions(/*inherit=*/false));
  const int level = Build();
  ASSERT_GE(level, 1);
  HeatHotRange(3);
  Classified before = ClassifySegments();
  ASSERT_FALSE(before.hot.empty());
  EXPECT_GT(MQScheduleTestPeer::UnitsReserved(
                mqs(), before.hot[0].first)[before.hot[0].second],
            kInitialUnits);

  dbfull()->TEST_CompactRange(level, nullptr, nullptr);
  MQScheduleTestPeer::WaitIdle(mqs());
  ExpectInitialUnitsEverywhere();
  for (uint64_t number : TableFiles()) {
    std::vector<MultiQueue::Hotness> h;
    ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(mqs(), number, &h));
    for (const MultiQueue::Hotness& seg : h) {
      EXPECT_EQ(0u, seg.accesses);
    }
    EXPECT_EQ(nullptr, DBImplTestPeer::RecordedHotness(dbfull(), number));
  }
  // Nothing ElasticBF-specific reaches the MANIFEST, at close neither.
  EXPECT_EQ(0, ElasticRecords());
  Close();
  EXPECT_EQ(0, ElasticRecords());

  // Reopened: still cold.
  Open(ElasticOptions(/*inherit=*/false));
  ExpectColdTables();
  CheckAllData();
}

// ---------------------------------------------------------------------------
// Restarts and checkpoints

TEST_F(ElasticHotnessTest, CleanReopenRestoresHotnessAndUnits) {
  Open(ElasticOptions());
  Build();
  HeatHotRange(3);
  OpenAllTables();
  const std::map<uint64_t, TableState> before = Snapshot();
  const uint64_t clock = mqs()->layer()->Now();
  ASSERT_GT(clock, 0u);
  int hot_segments = 0;
  for (const auto& [number, t] : before) {
    for (int units : t.units) hot_segments += units > kInitialUnits;
  }
  ASSERT_GT(hot_segments, 0);

  Close();  // records the latest hotness
  EXPECT_GT(ElasticRecords(), 0);
  Open(ElasticOptions());
  EXPECT_GE(mqs()->layer()->Now(), clock);  // the logical clock goes on
  OpenAllTables();
  const std::map<uint64_t, TableState> after = Snapshot();
  ASSERT_EQ(before.size(), after.size());
  for (const auto& [number, t] : before) {
    SCOPED_TRACE("table " + std::to_string(number));
    auto it = after.find(number);
    ASSERT_NE(after.end(), it);
    EXPECT_EQ(t.units, it->second.units);
    EXPECT_TRUE(t.hotness.segments.size() ==
                it->second.hotness.segments.size());
    for (size_t s = 0; s < t.hotness.segments.size(); ++s) {
      EXPECT_EQ(t.hotness.segments[s].absent_probes,
                it->second.hotness.segments[s].absent_probes);
      EXPECT_EQ(t.hotness.segments[s].accesses,
                it->second.hotness.segments[s].accesses);
      EXPECT_EQ(t.hotness.segments[s].last_access,
                it->second.hotness.segments[s].last_access);
    }
  }
  uint64_t used, budget;
  mqs()->GetMemory(&used, &budget);
  EXPECT_LE(used, budget);
  CheckAllData();
}

TEST_F(ElasticHotnessTest, PeriodicCheckpointsBoundWhatACrashLoses) {
  Open(ElasticOptions());
  Build();
  OpenAllTables();
  DBImplTestPeer::SetHotnessCheckpointInterval(dbfull(), 500);
  ASSERT_EQ(0u, DBImplTestPeer::HotnessCheckpoints(dbfull()));

  // 1000 Gets: the background thread writes a checkpoint on its own.
  HeatHotRange(1);
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  ASSERT_GE(DBImplTestPeer::HotnessCheckpoints(dbfull()), 1u);
  // Freeze the hotness now in a checkpoint, then take a crash image of
  // the directory (what a crash right now would leave).
  DBImplTestPeer::SetHotnessCheckpointInterval(dbfull(), 1 << 30);
  ASSERT_TRUE(DBImplTestPeer::CheckpointHotness(dbfull()).ok());
  const std::map<uint64_t, TableState> checkpointed = Snapshot();
  for (const auto& [number, t] : checkpointed) {
    std::shared_ptr<const InheritedHotness> recorded =
        DBImplTestPeer::RecordedHotness(dbfull(), number);
    ASSERT_NE(nullptr, recorded) << number;
    EXPECT_TRUE(*recorded == t.hotness) << number;
  }
  // Nothing changed: the next checkpoint writes nothing.
  const uint64_t written = DBImplTestPeer::HotnessCheckpoints(dbfull());
  ASSERT_TRUE(DBImplTestPeer::CheckpointHotness(dbfull()).ok());
  EXPECT_EQ(written, DBImplTestPeer::HotnessCheckpoints(dbfull()));

  copy_ = test::NewTempDir(env_, "elastic_hotness_crash");
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren(dbname_, &children).ok());
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type) || type == kDBLockFile) continue;
    std::string data;
    ASSERT_TRUE(ReadFileToString(env_, dbname_ + "/" + child, &data).ok());
    ASSERT_TRUE(WriteStringToFile(env_, data, copy_ + "/" + child).ok());
  }

  // More probes after the image: a crash loses them.
  HeatHotRange(2);
  Close();

  ASSERT_TRUE(TryOpen(ElasticOptions(), copy_).ok());
  OpenAllTables();
  MQScheduleTestPeer::WaitIdle(mqs());
  for (const auto& [number, t] : checkpointed) {
    InheritedHotness restored;
    ASSERT_TRUE(mqs()->GetFileHotness(number, &restored)) << number;
    EXPECT_TRUE(restored == t.hotness) << number;
    EXPECT_EQ(t.units, MQScheduleTestPeer::UnitsReserved(mqs(), number))
        << number;
  }
  CheckAllData();
}

TEST_F(ElasticHotnessTest, ThousandCheckpointsKeepTheManifestBounded) {
  Open(ElasticOptions());
  // A load that rewrites its keys a few times, as loads do: flushes, then
  // compactions whose outputs record the hotness they inherit.
  for (int round = 0; round < 3; ++round) Fill();
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  const uint64_t after_load = ManifestSize();
  ASSERT_GT(after_load, 0u);
  DBImplTestPeer::SetHotnessCheckpointInterval(dbfull(), 1 << 30);  // only ours

  uint64_t largest = 0;
  for (int i = 0; i < 1000; ++i) {
    // A moving hot spot: every checkpoint has new hotness to record.
    const int key = kHotBegin + (i * 37) % (kHotEnd - kHotBegin);
    ASSERT_EQ("NOT_FOUND", Get(AbsentKey(key)));
    ASSERT_EQ(ValueFor(key), Get(PresentKey(key)));
    MQScheduleTestPeer::WaitIdle(mqs());
    ASSERT_TRUE(DBImplTestPeer::CheckpointHotness(dbfull()).ok()) << i;
    largest = std::max(largest, ManifestSize());
  }
  EXPECT_EQ(1000u, DBImplTestPeer::HotnessCheckpoints(dbfull()));
  // Without new MANIFESTs the appends alone would pass the bound.
  EXPECT_GE(DBImplTestPeer::HotnessManifestsStarted(dbfull()), 1u);
  EXPECT_LE(largest, 2 * after_load);
  EXPECT_EQ(1, ManifestFiles());  // the replaced ones are gone

  // The newest MANIFEST holds the latest checkpoint.
  OpenAllTables();
  ASSERT_TRUE(DBImplTestPeer::CheckpointHotness(dbfull()).ok());
  const std::map<uint64_t, TableState> before = Snapshot();
  for (const auto& [number, t] : before) {
    std::shared_ptr<const InheritedHotness> recorded =
        DBImplTestPeer::RecordedHotness(dbfull(), number);
    ASSERT_NE(nullptr, recorded) << number;
    EXPECT_TRUE(*recorded == t.hotness) << number;
  }
  Close();
  Open(ElasticOptions());
  OpenAllTables();
  MQScheduleTestPeer::WaitIdle(mqs());
  for (const auto& [number, t] : before) {
    InheritedHotness restored;
    ASSERT_TRUE(mqs()->GetFileHotness(number, &restored)) << number;
    EXPECT_TRUE(restored == t.hotness) << number;
  }
  CheckAllData();

  // A MANIFEST a checkpoint started is handed back to LevelDB like any.
  Close();
  Options plain;
  plain.env = env_;
  ASSERT_TRUE(StripElasticMetadata(dbname_, plain).ok());
  EXPECT_EQ(0, ElasticRecords());
  Open(plain);
  CheckAllData();
}

TEST_F(ElasticHotnessTest, FailedCheckpointWriteLeavesAWorkingDatabase) {
  // Large writes fail: a new MANIFEST's first record, or a large append.
  test::TornManifestEnv env(env_, 1024);
  Options o = ElasticOptions();
  o.env = &env;
  Open(o);
  for (int round = 0; round < 3; ++round) Fill();
  DBImplTestPeer::WaitForBackgroundWork(dbfull());
  DBImplTestPeer::SetHotnessCheckpointInterval(dbfull(), 1 << 30);
  env.Arm();
  int failed = -1;
  for (int i = 0; i < 1000 && failed < 0; ++i) {
    const int key = kHotBegin + (i * 37) % (kHotEnd - kHotBegin);
    ASSERT_EQ("NOT_FOUND", Get(AbsentKey(key)));
    MQScheduleTestPeer::WaitIdle(mqs());
    if (!DBImplTestPeer::CheckpointHotness(dbfull()).ok()) failed = i;
  }
  ASSERT_GE(failed, 0);
  ASSERT_EQ(1, env.failures());

  // A hint was lost, nothing else: writes, checkpoints and reads go on.
  ASSERT_TRUE(Put(PresentKey(0), ValueFor(0)).ok());
  ASSERT_EQ("NOT_FOUND", Get(AbsentKey(kHotBegin)));
  MQScheduleTestPeer::WaitIdle(mqs());
  ASSERT_TRUE(DBImplTestPeer::CheckpointHotness(dbfull()).ok());
  EXPECT_EQ(1, ManifestFiles());
  Close();
  Open(o);
  CheckAllData();
  Close();  // before `env` goes
}

TEST_F(ElasticHotnessTest, FailedManifestWriteAfterTheTablesLosesNothing) {
  Options o = ElasticOptions();
  o.env = &fault_env_;
  Open(o);
  const int level = Build();
  ASSERT_GE(level, 1);
  HeatHotRange(1);
  Close();  // a checkpoint records the hotness
  Open(o);
  const std::set<uint64_t> live = TableFiles();

  // The compaction writes its tables, then its MANIFEST record fails half
  // way, as a crash at that point would leave it.
  fault_env_.Arm();
  dbfull()->TEST_CompactRange(level, nullptr, nullptr);
  EXPECT_EQ(1, fault_env_.failures());
  std::set<uint64_t> orphans;
  for (uint64_t number : TableFiles()) {
    if (live.count(number) == 0) orphans.insert(number);
  }
  EXPECT_FALSE(orphans.empty());  // the outputs were written
  // The database refuses writes now (background error).
  EXPECT_FALSE(db_->Put(WriteOptions(), "x", "y").ok());
  Close();

  // Reopened: the old tables are still the live ones, every key is there,
  // the orphan outputs are gone and the hotness recorded before is kept.
  // (Checked before any Get, whose passing time would age the counts.)
  Open(o);
  EXPECT_EQ(live, TableFiles());
  OpenAllTables();
  Classified c = ClassifySegments();
  ASSERT_FALSE(c.hot.empty());
  std::vector<MultiQueue::Hotness> h;
  ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(mqs(), c.hot[0].first, &h));
  EXPECT_GT(h[c.hot[0].second].absent_probes, 0u);
  CheckAllData();
  // And it works on: the same compaction now succeeds.
  dbfull()->TEST_CompactRange(level, nullptr, nullptr);
  EXPECT_EQ(level + 1, TableLevel());
  CheckAllData();
}

// ---------------------------------------------------------------------------
// Compatibility

TEST_F(ElasticHotnessTest, ManifestWithoutHotnessOpensCold) {
  Open(ElasticOptions(/*inherit=*/false));
  Build();
  HeatHotRange(1);
  Close();
  ASSERT_EQ(0, ElasticRecords());

  Open(ElasticOptions());
  ExpectColdTables();
  CheckAllData();
}

TEST_F(ElasticHotnessTest, OpeningWithoutElasticBFDropsTheRecords) {
  Open(ElasticOptions());
  Build();
  HeatHotRange(1);
  Close();
  ASSERT_GT(ElasticRecords(), 0);

  Options plain;
  plain.env = env_;
  Open(plain);  // reads the records, writes a MANIFEST without them
  CheckAllData();
  EXPECT_EQ(0, ElasticRecords());
  Close();
  EXPECT_EQ(0, ElasticRecords());
}

TEST_F(ElasticHotnessTest, StripElasticMetadataLeavesStandardRecordsOnly) {
  Open(ElasticOptions());
  Build();
  HeatHotRange(1);

  Options o;
  o.env = env_;
  // Not while the database is open.
  Status s = StripElasticMetadata(dbname_, o);
  EXPECT_FALSE(s.ok());
  Close();
  ASSERT_GT(ElasticRecords(), 0);
  std::string current_before;
  ASSERT_TRUE(
      ReadFileToString(env_, CurrentFileName(dbname_), &current_before).ok());
  const std::set<uint64_t> tables = TableFiles();

  ASSERT_TRUE(StripElasticMetadata(dbname_, o).ok());
  EXPECT_EQ(0, ElasticRecords());
  std::string current_after;
  ASSERT_TRUE(
      ReadFileToString(env_, CurrentFileName(dbname_), &current_after).ok());
  EXPECT_NE(current_before, current_after);
  current_before.pop_back();
  EXPECT_FALSE(env_->FileExists(dbname_ + "/" + current_before));
  EXPECT_EQ(tables, TableFiles());

  // Nothing left to strip: nothing changes.
  ASSERT_TRUE(StripElasticMetadata(dbname_, o).ok());
  std::string current_again;
  ASSERT_TRUE(
      ReadFileToString(env_, CurrentFileName(dbname_), &current_again).ok());
  EXPECT_EQ(current_after, current_again);

  // The fork opens it (cold) with all data.
  Open(ElasticOptions());
  CheckAllData();
  OpenAllTables();
  for (uint64_t number : TableFiles()) {
    std::vector<MultiQueue::Hotness> h;
    ASSERT_TRUE(MQScheduleTestPeer::GetSegmentHotness(mqs(), number, &h));
    for (const MultiQueue::Hotness& seg : h) EXPECT_EQ(0u, seg.absent_probes);
  }
}

TEST_F(ElasticHotnessTest, StripElasticMetadataRejectsBadArguments) {
  Options o;
  o.env = env_;
  Status s = StripElasticMetadata(dbname_ + "/missing", o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_FALSE(env_->FileExists(dbname_ + "/missing"));
  o.env = nullptr;
  EXPECT_TRUE(StripElasticMetadata(dbname_, o).IsInvalidArgument());
  o.env = env_;
  o.comparator = nullptr;
  EXPECT_TRUE(StripElasticMetadata(dbname_, o).IsInvalidArgument());

  // A corrupt MANIFEST is reported and left alone.
  Open(ElasticOptions());
  Fill();
  Close();
  std::string current;
  ASSERT_TRUE(ReadFileToString(env_, CurrentFileName(dbname_), &current).ok());
  current.pop_back();
  const std::string manifest = dbname_ + "/" + current;
  std::string bytes;
  ASSERT_TRUE(ReadFileToString(env_, manifest, &bytes).ok());
  // Inside the first record's payload (after its 7-byte header): its
  // checksum no longer matches.
  ASSERT_GT(bytes.size(), 20u);
  bytes[10] ^= 0x20;
  ASSERT_TRUE(env_->RemoveFile(manifest).ok());
  ASSERT_TRUE(WriteStringToFile(env_, bytes, manifest).ok());
  o.comparator = BytewiseComparator();
  s = StripElasticMetadata(dbname_, o);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  std::string unchanged;
  ASSERT_TRUE(ReadFileToString(env_, manifest, &unchanged).ok());
  EXPECT_EQ(bytes, unchanged);
}

}  // namespace
}  // namespace leveldb
