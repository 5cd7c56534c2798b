#include "db/version_set.h"

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "db/builder.h"
#include "db/filename.h"
#include "db/log_writer.h"
#include "db/table_cache.h"
#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/helpers/memenv.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "table/merger.h"
#include "tests/table_test_helpers.h"
#include "util/mutexlock.h"

namespace leveldb {
namespace {

constexpr uint64_t kMiB = 1048576;

// ---------------------------------------------------------------------------
// FindFile and SomeFileOverlapsRange over hand-built file lists.

class FileListTest : public testing::Test {
 protected:
  FileListTest() : icmp_(BytewiseComparator()) {}

  // A file numbered in creation order, owned by the fixture.
  FileMetaData* Make(const char* smallest, SequenceNumber smallest_seq,
                     const char* largest, SequenceNumber largest_seq) {
    auto f = std::make_unique<FileMetaData>();
    f->number = owned_.size() + 1;
    f->smallest = InternalKey(smallest, smallest_seq, kTypeValue);
    f->largest = InternalKey(largest, largest_seq, kTypeValue);
    owned_.push_back(std::move(f));
    return owned_.back().get();
  }

  // Appends a new file to files_.
  void Add(const char* smallest, const char* largest,
           SequenceNumber smallest_seq = 100,
           SequenceNumber largest_seq = 100) {
    files_.push_back(Make(smallest, smallest_seq, largest, largest_seq));
  }

  // Index of the first file that may hold user key `key` at any sequence.
  int Find(const char* key) {
    InternalKey target(key, kMaxSequenceNumber, kValueTypeForSeek);
    return FindFile(icmp_, files_, target.Encode());
  }

  bool Overlaps(const char* smallest, const char* largest) {
    Slice lo(smallest == nullptr ? "" : smallest);
    Slice hi(largest == nullptr ? "" : largest);
    return SomeFileOverlapsRange(icmp_, disjoint_, files_,
                                 smallest == nullptr ? nullptr : &lo,
                                 largest == nullptr ? nullptr : &hi);
  }

  const InternalKeyComparator icmp_;
  bool disjoint_ = true;
  std::vector<FileMetaData*> files_;
  std::vector<std::unique_ptr<FileMetaData>> owned_;
};

TEST_F(FileListTest, EmptyList) {
  EXPECT_EQ(0, Find("anything"));
  EXPECT_FALSE(Overlaps("a", "z"));
  EXPECT_FALSE(Overlaps(nullptr, "z"));
  EXPECT_FALSE(Overlaps("a", nullptr));
  EXPECT_FALSE(Overlaps(nullptr, nullptr));
  disjoint_ = false;
  EXPECT_FALSE(Overlaps(nullptr, nullptr));
}

TEST_F(FileListTest, SingleFile) {
  Add("p", "q");
  EXPECT_EQ(0, Find("a"));
  EXPECT_EQ(0, Find("p"));
  EXPECT_EQ(0, Find("p1"));
  EXPECT_EQ(0, Find("q"));
  EXPECT_EQ(1, Find("q1"));
  EXPECT_EQ(1, Find("z"));

  for (bool disjoint : {true, false}) {
    disjoint_ = disjoint;
    EXPECT_FALSE(Overlaps("a", "b"));
    EXPECT_FALSE(Overlaps("z1", "z2"));
    EXPECT_FALSE(Overlaps("q1", "r"));
    EXPECT_TRUE(Overlaps("a", "p"));
    EXPECT_TRUE(Overlaps("a", "q"));
    EXPECT_TRUE(Overlaps("a", "z"));
    EXPECT_TRUE(Overlaps("p", "p1"));
    EXPECT_TRUE(Overlaps("p1", "p2"));
    EXPECT_TRUE(Overlaps("q", "q"));
    EXPECT_TRUE(Overlaps("q", "q1"));

    EXPECT_FALSE(Overlaps(nullptr, "j"));
    EXPECT_FALSE(Overlaps("r", nullptr));
    EXPECT_TRUE(Overlaps(nullptr, "p"));
    EXPECT_TRUE(Overlaps(nullptr, "p1"));
    EXPECT_TRUE(Overlaps("q", nullptr));
    EXPECT_TRUE(Overlaps(nullptr, nullptr));
  }
}

TEST_F(FileListTest, SeveralDisjointFiles) {
  Add("b", "d");
  Add("f", "h");
  Add("j", "l");
  EXPECT_EQ(0, Find("a"));
  EXPECT_EQ(0, Find("b"));
  EXPECT_EQ(0, Find("d"));
  EXPECT_EQ(1, Find("e"));
  EXPECT_EQ(1, Find("f"));
  EXPECT_EQ(1, Find("h"));
  EXPECT_EQ(2, Find("i"));
  EXPECT_EQ(2, Find("l"));
  EXPECT_EQ(3, Find("m"));

  EXPECT_FALSE(Overlaps("a", "a"));
  EXPECT_FALSE(Overlaps("e", "e"));
  EXPECT_FALSE(Overlaps("i", "i1"));
  EXPECT_FALSE(Overlaps("m", "z"));
  EXPECT_FALSE(Overlaps(nullptr, "a"));
  EXPECT_FALSE(Overlaps("l1", nullptr));
  EXPECT_TRUE(Overlaps("a", "b"));
  EXPECT_TRUE(Overlaps("d", "e"));
  EXPECT_TRUE(Overlaps("e", "f"));
  EXPECT_TRUE(Overlaps("g", "g"));
  EXPECT_TRUE(Overlaps("i", "j"));
  EXPECT_TRUE(Overlaps("c", "k"));
  EXPECT_TRUE(Overlaps(nullptr, "b"));
  EXPECT_TRUE(Overlaps("l", nullptr));
  EXPECT_TRUE(Overlaps(nullptr, nullptr));
}

TEST_F(FileListTest, UserKeySharedAcrossFileBoundary) {
  // Files split between two entries of user key "m": newer entries first.
  Add("a", "m", 100, 90);
  Add("m", "z", 80, 70);
  InternalKey m95("m", 95, kTypeValue);
  InternalKey m85("m", 85, kTypeValue);
  InternalKey m75("m", 75, kTypeValue);
  EXPECT_EQ(0, FindFile(icmp_, files_, m95.Encode()));
  EXPECT_EQ(1, FindFile(icmp_, files_, m85.Encode()));
  EXPECT_EQ(1, FindFile(icmp_, files_, m75.Encode()));
  EXPECT_TRUE(Overlaps("m", "m"));
  EXPECT_TRUE(Overlaps(nullptr, "a"));
}

TEST_F(FileListTest, OverlappingFilesNeedTheLinearScan) {
  disjoint_ = false;
  Add("a", "m");
  Add("c", "e");
  Add("x", "z");
  EXPECT_TRUE(Overlaps("f", "g"));
  EXPECT_TRUE(Overlaps("d", "d"));
  EXPECT_TRUE(Overlaps("y", nullptr));
  EXPECT_TRUE(Overlaps(nullptr, "a"));
  EXPECT_FALSE(Overlaps("n", "w"));
  EXPECT_FALSE(Overlaps("z1", nullptr));
}

// ---------------------------------------------------------------------------
// AddBoundaryInputs

class BoundaryInputsTest : public FileListTest {};

TEST_F(BoundaryInputsTest, NothingToExtend) {
  std::vector<FileMetaData*> level;
  std::vector<FileMetaData*> compaction;
  AddBoundaryInputs(icmp_, level, &compaction);
  EXPECT_TRUE(compaction.empty());

  FileMetaData* f1 = Make("a", 5, "b", 4);
  level.push_back(f1);
  AddBoundaryInputs(icmp_, level, &compaction);
  EXPECT_TRUE(compaction.empty());

  compaction.push_back(f1);
  AddBoundaryInputs(icmp_, std::vector<FileMetaData*>(), &compaction);
  ASSERT_EQ(1u, compaction.size());
}

TEST_F(BoundaryInputsTest, DifferentUserKeysAreNotBoundaries) {
  FileMetaData* f1 = Make("a", 5, "b", 4);
  FileMetaData* f2 = Make("c", 3, "d", 2);
  std::vector<FileMetaData*> compaction{f1};
  AddBoundaryInputs(icmp_, {f1, f2}, &compaction);
  EXPECT_EQ(std::vector<FileMetaData*>({f1}), compaction);
}

TEST_F(BoundaryInputsTest, OlderEntriesOfTheLargestKeyAreAdded) {
  FileMetaData* f1 = Make("a", 5, "b", 4);
  FileMetaData* f2 = Make("b", 3, "c", 2);
  std::vector<FileMetaData*> compaction{f1};
  AddBoundaryInputs(icmp_, {f1, f2}, &compaction);
  EXPECT_EQ(std::vector<FileMetaData*>({f1, f2}), compaction);
}

TEST_F(BoundaryInputsTest, ChainsAreFollowedInKeyOrder) {
  FileMetaData* f1 = Make("a", 10, "b", 9);
  FileMetaData* f2 = Make("b", 8, "b", 7);
  FileMetaData* f3 = Make("b", 6, "c", 5);
  FileMetaData* f4 = Make("c", 4, "d", 3);
  FileMetaData* f5 = Make("e", 2, "f", 1);
  std::vector<FileMetaData*> compaction{f1};
  // Level given out of order: the nearest boundary file must still win.
  AddBoundaryInputs(icmp_, {f5, f4, f3, f2, f1}, &compaction);
  EXPECT_EQ(std::vector<FileMetaData*>({f1, f2, f3, f4}), compaction);
}

TEST_F(BoundaryInputsTest, NewerEntriesOfTheLargestKeyAreNotAdded) {
  // g starts with a newer "b" than the compaction's largest key; it sorts
  // before it, so it is not a boundary file of this compaction.
  FileMetaData* f = Make("a", 1, "b", 1);
  FileMetaData* g = Make("b", 5, "c", 5);
  std::vector<FileMetaData*> compaction{f};
  AddBoundaryInputs(icmp_, {g, f}, &compaction);
  EXPECT_EQ(std::vector<FileMetaData*>({f}), compaction);
}

TEST_F(BoundaryInputsTest, LargestKeyIsTakenOverAllInputs) {
  FileMetaData* f1 = Make("a", 9, "c", 8);
  FileMetaData* f2 = Make("d", 7, "e", 6);
  FileMetaData* f3 = Make("e", 5, "g", 4);
  FileMetaData* f4 = Make("c", 3, "c", 2);  // boundary of f1 only
  std::vector<FileMetaData*> compaction{f2, f1};
  AddBoundaryInputs(icmp_, {f1, f4, f2, f3}, &compaction);
  EXPECT_EQ(std::vector<FileMetaData*>({f2, f1, f3}), compaction);
}

// ---------------------------------------------------------------------------
// VersionSet end to end, in a memory Env.

// Fails MANIFEST writes on demand.
class FaultyEnv : public EnvWrapper {
 public:
  explicit FaultyEnv(Env* base) : EnvWrapper(base) {}

  bool fail_manifest_create = false;
  bool fail_manifest_sync = false;

  Status NewWritableFile(const std::string& name,
                         WritableFile** result) override {
    const bool manifest = name.find("MANIFEST") != std::string::npos;
    if (manifest && fail_manifest_create) {
      *result = nullptr;
      return Status::IOError(name, "injected create failure");
    }
    Status s = target()->NewWritableFile(name, result);
    if (s.ok() && manifest) *result = new SyncCheckingFile(this, *result);
    return s;
  }

 private:
  class SyncCheckingFile : public WritableFile {
   public:
    SyncCheckingFile(FaultyEnv* env, WritableFile* base)
        : env_(env), base_(base) {}
    Status Append(const Slice& data) override { return base_->Append(data); }
    Status Close() override { return base_->Close(); }
    Status Flush() override { return base_->Flush(); }
    Status Sync() override {
      if (env_->fail_manifest_sync) {
        return Status::IOError("injected sync failure");
      }
      return base_->Sync();
    }

   private:
    FaultyEnv* const env_;
    std::unique_ptr<WritableFile> base_;
  };
};

// A comparator with another name, for the mismatch check.
class OtherComparator : public Comparator {
 public:
  const char* Name() const override { return "test.OtherComparator"; }
  int Compare(const Slice& a, const Slice& b) const override {
    return BytewiseComparator()->Compare(a, b);
  }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

class VersionSetTest : public testing::Test {
 protected:
  VersionSetTest()
      : mem_env_(NewMemEnv(Env::Default())),
        env_(mem_env_.get()),
        icmp_(BytewiseComparator()),
        dbname_("/vstest") {
    options_.env = &env_;
    options_.comparator = &icmp_;
    EXPECT_TRUE(env_.CreateDir(dbname_).ok());
    table_cache_ = std::make_unique<TableCache>(dbname_, options_, 100);
  }

  ~VersionSetTest() override { vset_.reset(); }

  // What a freshly created database has on disk: MANIFEST-000001 with one
  // edit, and CURRENT naming it.
  void CreateEmptyDb(const char* comparator_name = nullptr) {
    VersionEdit edit;
    edit.SetComparatorName(comparator_name != nullptr
                               ? comparator_name
                               : BytewiseComparator()->Name());
    edit.SetLogNumber(0);
    edit.SetNextFile(2);
    edit.SetLastSequence(0);
    WriteManifest(1, {edit});
    ASSERT_TRUE(SetCurrentFile(&env_, dbname_, 1).ok());
  }

  void WriteManifest(uint64_t number, const std::vector<VersionEdit>& edits) {
    WritableFile* file;
    ASSERT_TRUE(
        env_.NewWritableFile(DescriptorFileName(dbname_, number), &file).ok());
    {
      log::Writer writer(file);
      for (const VersionEdit& edit : edits) {
        std::string record;
        edit.EncodeTo(&record);
        ASSERT_TRUE(writer.AddRecord(record).ok());
      }
    }
    ASSERT_TRUE(file->Close().ok());
    delete file;
  }

  // Replaces vset_ by a VersionSet recovered from disk.
  Status Reopen(bool* save_manifest = nullptr) {
    vset_.reset();
    table_cache_ = std::make_unique<TableCache>(dbname_, options_, 100);
    vset_ = std::make_unique<VersionSet>(dbname_, &options_, table_cache_.get(),
                                         &icmp_);
    bool ignored;
    return vset_->Recover(save_manifest != nullptr ? save_manifest : &ignored);
  }

  Status Apply(VersionEdit* edit) {
    MutexLock lock(&mu_);
    return vset_->LogAndApply(edit, &mu_);
  }

  // Adds a (file-less) table to the current version.
  uint64_t AddFile(int level, const char* smallest, const char* largest,
                   uint64_t size = 1000, SequenceNumber smallest_seq = 100,
                   SequenceNumber largest_seq = 100) {
    const uint64_t number = vset_->NewFileNumber();
    VersionEdit edit;
    edit.AddFile(level, number, size,
                 InternalKey(smallest, smallest_seq, kTypeValue),
                 InternalKey(largest, largest_seq, kTypeValue));
    EXPECT_TRUE(Apply(&edit).ok());
    return number;
  }

  static std::string ManifestBaseName(uint64_t number) {
    char buf[40];
    std::snprintf(buf, sizeof(buf), "MANIFEST-%06llu",
                  static_cast<unsigned long long>(number));
    return buf;
  }

  std::string ReadCurrent() {
    std::string contents;
    EXPECT_TRUE(
        ReadFileToString(&env_, CurrentFileName(dbname_), &contents).ok());
    return contents;
  }

  // A compaction of the user keys [lo, hi] at `level` (nullptr if none).
  Compaction* CompactUserRange(int level, const char* lo, const char* hi) {
    InternalKey begin(lo, kMaxSequenceNumber, kValueTypeForSeek);
    InternalKey end(hi, 0, kTypeDeletion);
    return vset_->CompactRange(level, &begin, &end);
  }

  // Numbers of the input files of c.
  static std::vector<uint64_t> Inputs(const Compaction* c, int which) {
    std::vector<uint64_t> numbers;
    for (int i = 0; i < c->num_input_files(which); ++i) {
      numbers.push_back(c->input(which, i)->number);
    }
    return numbers;
  }

  std::unique_ptr<Env> mem_env_;
  FaultyEnv env_;
  const InternalKeyComparator icmp_;
  const std::string dbname_;
  Options options_;
  std::unique_ptr<TableCache> table_cache_;
  std::unique_ptr<VersionSet> vset_;
  port::Mutex mu_;
};

TEST_F(VersionSetTest, RecoverEmptyDatabase) {
  CreateEmptyDb();
  bool save_manifest = false;
  ASSERT_TRUE(Reopen(&save_manifest).ok());
  EXPECT_TRUE(save_manifest);  // reuse_logs is off
  EXPECT_EQ(0u, vset_->LastSequence());
  EXPECT_EQ(0u, vset_->LogNumber());
  EXPECT_EQ(0u, vset_->PrevLogNumber());
  EXPECT_EQ(2u, vset_->ManifestFileNumber());
  EXPECT_EQ(3u, vset_->NewFileNumber());
  for (int level = 0; level < config::kNumLevels; ++level) {
    EXPECT_EQ(0, vset_->NumLevelFiles(level));
    EXPECT_EQ(0, vset_->NumLevelBytes(level));
  }
  EXPECT_FALSE(vset_->NeedsCompaction());
  EXPECT_EQ(nullptr, vset_->PickCompaction());
  VersionSet::LevelSummaryStorage scratch;
  EXPECT_STREQ("files[ 0 0 0 0 0 0 0 ]", vset_->LevelSummary(&scratch));
}

TEST_F(VersionSetTest, LogAndApplyThenRecoverGivesTheSameState) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());

  const uint64_t a = AddFile(0, "a", "k", 1000);
  const uint64_t b = AddFile(0, "c", "z", 2000);
  const uint64_t c = AddFile(1, "a", "f", 3000);
  const uint64_t d = AddFile(1, "g", "m", 4000);
  const uint64_t e = AddFile(3, "b", "y", 5000);
  EXPECT_EQ("MANIFEST-000002\n", ReadCurrent());

  // A compaction-like edit: two files leave, one arrives, plus counters.
  const uint64_t log = vset_->NewFileNumber();
  const uint64_t f = vset_->NewFileNumber();
  VersionEdit edit;
  edit.RemoveFile(0, a);
  edit.RemoveFile(1, c);
  edit.AddFile(2, f, 6000, InternalKey("a", 50, kTypeValue),
               InternalKey("k", 60, kTypeDeletion));
  edit.SetLogNumber(log);
  edit.SetPrevLogNumber(0);
  edit.SetCompactPointer(1, InternalKey("f", 100, kTypeValue));
  vset_->SetLastSequence(12345);
  ASSERT_TRUE(Apply(&edit).ok());

  EXPECT_EQ(1, vset_->NumLevelFiles(0));
  EXPECT_EQ(1, vset_->NumLevelFiles(1));
  EXPECT_EQ(1, vset_->NumLevelFiles(2));
  EXPECT_EQ(1, vset_->NumLevelFiles(3));
  EXPECT_EQ(2000, vset_->NumLevelBytes(0));
  EXPECT_EQ(6000, vset_->NumLevelBytes(2));
  VersionSet::LevelSummaryStorage scratch;
  EXPECT_STREQ("files[ 1 1 1 1 0 0 0 ]", vset_->LevelSummary(&scratch));

  const std::string before = vset_->current()->DebugString();
  const uint64_t next_before = vset_->NewFileNumber();
  std::set<uint64_t> live;
  vset_->AddLiveFiles(&live);
  EXPECT_EQ(std::set<uint64_t>({b, d, e, f}), live);

  bool save_manifest = false;
  ASSERT_TRUE(Reopen(&save_manifest).ok());
  EXPECT_TRUE(save_manifest);
  EXPECT_EQ(before, vset_->current()->DebugString());
  EXPECT_EQ(12345u, vset_->LastSequence());
  EXPECT_EQ(log, vset_->LogNumber());
  EXPECT_EQ(0u, vset_->PrevLogNumber());
  // The recorded next-file number becomes the new MANIFEST's number.
  EXPECT_EQ(next_before, vset_->ManifestFileNumber());
  EXPECT_EQ(next_before + 1, vset_->NewFileNumber());
  live.clear();
  vset_->AddLiveFiles(&live);
  EXPECT_EQ(std::set<uint64_t>({b, d, e, f}), live);

  // The recovered set writes a new MANIFEST with the full state, and that
  // recovers to the same state too.
  const uint64_t g = AddFile(5, "x", "y");
  EXPECT_EQ(ManifestBaseName(next_before) + "\n", ReadCurrent());
  const std::string after = vset_->current()->DebugString();
  ASSERT_TRUE(Reopen().ok());
  EXPECT_EQ(after, vset_->current()->DebugString());
  live.clear();
  vset_->AddLiveFiles(&live);
  EXPECT_EQ(std::set<uint64_t>({b, d, e, f, g}), live);
}

TEST_F(VersionSetTest, OldVersionsKeepTheirFilesAlive) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  const uint64_t a = AddFile(1, "a", "b");
  Version* old = vset_->current();
  {
    MutexLock lock(&mu_);
    old->Ref();
  }
  VersionEdit edit;
  edit.RemoveFile(1, a);
  ASSERT_TRUE(Apply(&edit).ok());
  EXPECT_EQ(0, vset_->NumLevelFiles(1));
  EXPECT_EQ(1, old->NumFiles(1));

  std::set<uint64_t> live;
  vset_->AddLiveFiles(&live);
  EXPECT_EQ(1u, live.count(a));

  {
    MutexLock lock(&mu_);
    old->Unref();
  }
  live.clear();
  vset_->AddLiveFiles(&live);
  EXPECT_EQ(0u, live.count(a));
}

// ElasticBF hotness records follow their file: a newer record gives the
// next Version a new FileMetaData (older Versions keep theirs), a move to
// another level keeps it, and recovery replays the latest one.
TEST_F(VersionSetTest, HotnessRecordsFollowTheirFile) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  auto hotness = [](uint64_t accesses) {
    auto h = std::make_shared<InheritedHotness>();
    h->segments = {MultiQueue::Hotness{1, accesses, 10},
                   MultiQueue::Hotness{0, 0, 0}};
    h->units = {3, -1};
    return h;
  };
  const uint64_t f = vset_->NewFileNumber();
  const uint64_t other = AddFile(1, "x", "z");
  VersionEdit add;
  add.AddFile(1, f, 1000, InternalKey("a", 1, kTypeValue),
              InternalKey("c", 2, kTypeValue));
  add.SetFileHotness(f, hotness(5));
  ASSERT_TRUE(Apply(&add).ok());
  const FileMetaData* first = vset_->current()->LevelFiles(1)[0];
  ASSERT_EQ(f, first->number);
  ASSERT_NE(nullptr, first->hotness);
  EXPECT_TRUE(*first->hotness == *hotness(5));
  EXPECT_EQ(nullptr, vset_->current()->LevelFiles(1)[1]->hotness);

  // A checkpoint-like record: the new Version gets its own FileMetaData.
  Version* old = vset_->current();
  {
    MutexLock lock(&mu_);
    old->Ref();
  }
  VersionEdit checkpoint;
  checkpoint.SetFileHotness(f, hotness(9));
  checkpoint.SetElasticClock(1234);
  ASSERT_TRUE(Apply(&checkpoint).ok());
  const FileMetaData* second = vset_->current()->LevelFiles(1)[0];
  EXPECT_NE(first, second);
  EXPECT_EQ(first->allowed_seeks, second->allowed_seeks);
  EXPECT_TRUE(*second->hotness == *hotness(9));
  EXPECT_TRUE(*old->LevelFiles(1)[0]->hotness == *hotness(5));
  // The other file is shared, unchanged.
  EXPECT_EQ(old->LevelFiles(1)[1], vset_->current()->LevelFiles(1)[1]);
  EXPECT_EQ(1234u, vset_->elastic_clock());
  {
    MutexLock lock(&mu_);
    old->Unref();
  }

  // Moved to level 2 without a record: it keeps its hotness.
  VersionEdit move;
  move.RemoveFile(1, f);
  move.AddFile(2, f, 1000, InternalKey("a", 1, kTypeValue),
               InternalKey("c", 2, kTypeValue));
  ASSERT_TRUE(Apply(&move).ok());
  ASSERT_EQ(1, vset_->NumLevelFiles(2));
  EXPECT_TRUE(*vset_->current()->LevelFiles(2)[0]->hotness == *hotness(9));

  // Recovery replays the records to the same result.
  ASSERT_TRUE(Reopen().ok());
  ASSERT_EQ(1, vset_->NumLevelFiles(2));
  ASSERT_NE(nullptr, vset_->current()->LevelFiles(2)[0]->hotness);
  EXPECT_TRUE(*vset_->current()->LevelFiles(2)[0]->hotness == *hotness(9));
  EXPECT_EQ(1234u, vset_->elastic_clock());
  EXPECT_FALSE(vset_->keeps_hotness());  // no ElasticBF here

  // Without ElasticBF the records are not written back: the MANIFEST
  // written by the next change holds LevelDB 1.23's records only.
  AddFile(4, "m", "n");
  ASSERT_TRUE(Reopen().ok());
  EXPECT_EQ(nullptr, vset_->current()->LevelFiles(2)[0]->hotness);
  EXPECT_EQ(0u, vset_->elastic_clock());
  EXPECT_EQ(other, vset_->current()->LevelFiles(1)[0]->number);
}

TEST_F(VersionSetTest, MarkFileNumberUsedAndReuse) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  vset_->MarkFileNumberUsed(50);
  const uint64_t n = vset_->NewFileNumber();
  EXPECT_EQ(51u, n);
  vset_->MarkFileNumberUsed(10);  // lower: no effect
  vset_->ReuseFileNumber(n);
  EXPECT_EQ(51u, vset_->NewFileNumber());
  vset_->NewFileNumber();      // 52
  vset_->ReuseFileNumber(51);  // not the last one: ignored
  EXPECT_EQ(53u, vset_->NewFileNumber());
}

TEST_F(VersionSetTest, RecoverMarksLogNumbersUsed) {
  VersionEdit edit;
  edit.SetComparatorName(BytewiseComparator()->Name());
  edit.SetLogNumber(40);
  edit.SetPrevLogNumber(45);
  edit.SetNextFile(7);
  edit.SetLastSequence(3);
  WriteManifest(1, {edit});
  ASSERT_TRUE(SetCurrentFile(&env_, dbname_, 1).ok());
  ASSERT_TRUE(Reopen().ok());
  EXPECT_EQ(40u, vset_->LogNumber());
  EXPECT_EQ(45u, vset_->PrevLogNumber());
  EXPECT_EQ(7u, vset_->ManifestFileNumber());
  EXPECT_EQ(46u, vset_->NewFileNumber());
}

TEST_F(VersionSetTest, RecoverWithoutCurrentFails) {
  Status s = Reopen();
  EXPECT_FALSE(s.ok());
}

TEST_F(VersionSetTest, CurrentWithoutNewlineIsCorruption) {
  CreateEmptyDb();
  ASSERT_TRUE(
      WriteStringToFile(&env_, "MANIFEST-000001", CurrentFileName(dbname_))
          .ok());
  Status s = Reopen();
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ("Corruption: CURRENT file does not end with newline", s.ToString());

  ASSERT_TRUE(WriteStringToFile(&env_, "", CurrentFileName(dbname_)).ok());
  EXPECT_TRUE(Reopen().IsCorruption());
}

TEST_F(VersionSetTest, CurrentNamingAMissingManifestIsCorruption) {
  CreateEmptyDb();
  ASSERT_TRUE(SetCurrentFile(&env_, dbname_, 9).ok());
  Status s = Reopen();
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos,
            s.ToString().find("CURRENT points to a non-existent file"));
}

TEST_F(VersionSetTest, ComparatorMismatchIsInvalidArgument) {
  CreateEmptyDb("test.OtherComparator");
  Status s = Reopen();
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos,
            s.ToString().find("test.OtherComparator does not match existing "
                              "comparator"));
  EXPECT_NE(std::string::npos, s.ToString().find(BytewiseComparator()->Name()));
}

TEST_F(VersionSetTest, MissingCountersAreCorruption) {
  struct Case {
    bool log, next, seq;
    const char* message;
  };
  const Case cases[] = {
      {true, false, true, "no meta-nextfile entry in descriptor"},
      {false, true, true, "no meta-lognumber entry in descriptor"},
      {true, true, false, "no last-sequence-number entry in descriptor"},
  };
  for (const Case& c : cases) {
    VersionEdit edit;
    edit.SetComparatorName(BytewiseComparator()->Name());
    if (c.log) edit.SetLogNumber(1);
    if (c.next) edit.SetNextFile(5);
    if (c.seq) edit.SetLastSequence(9);
    WriteManifest(1, {edit});
    ASSERT_TRUE(SetCurrentFile(&env_, dbname_, 1).ok());
    Status s = Reopen();
    ASSERT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_EQ(std::string("Corruption: ") + c.message, s.ToString());
  }
}

TEST_F(VersionSetTest, CountersMaySpreadOverSeveralEdits) {
  VersionEdit first;
  first.SetComparatorName(BytewiseComparator()->Name());
  first.SetLogNumber(4);
  first.AddFile(2, 3, 100, InternalKey("a", 1, kTypeValue),
                InternalKey("b", 1, kTypeValue));
  VersionEdit second;
  second.SetNextFile(8);
  VersionEdit third;
  third.SetLastSequence(77);
  third.SetLogNumber(5);
  WriteManifest(1, {first, second, third});
  ASSERT_TRUE(SetCurrentFile(&env_, dbname_, 1).ok());
  ASSERT_TRUE(Reopen().ok());
  EXPECT_EQ(5u, vset_->LogNumber());
  EXPECT_EQ(77u, vset_->LastSequence());
  EXPECT_EQ(8u, vset_->ManifestFileNumber());
  EXPECT_EQ(1, vset_->NumLevelFiles(2));
}

TEST_F(VersionSetTest, UndecodableEditIsCorruption) {
  CreateEmptyDb();
  WritableFile* file;
  ASSERT_TRUE(
      env_.NewAppendableFile(DescriptorFileName(dbname_, 1), &file).ok());
  uint64_t size = 0;
  ASSERT_TRUE(env_.GetFileSize(DescriptorFileName(dbname_, 1), &size).ok());
  {
    log::Writer writer(file, size);
    ASSERT_TRUE(writer.AddRecord(Slice("\x63garbage", 8)).ok());
  }
  delete file;
  Status s = Reopen();
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("VersionEdit"));
}

TEST_F(VersionSetTest, ChecksumMismatchInManifestIsCorruption) {
  CreateEmptyDb();
  const std::string name = DescriptorFileName(dbname_, 1);
  std::string contents;
  ASSERT_TRUE(ReadFileToString(&env_, name, &contents).ok());
  contents[contents.size() - 3] ^= 0x40;  // inside the record payload
  ASSERT_TRUE(WriteStringToFile(&env_, contents, name).ok());
  Status s = Reopen();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST_F(VersionSetTest, OverlappingFilesInASortedLevelAreCorruption) {
  // A complete first edit with two overlapping files at `level`.
  auto two_overlapping_files = [](int level) {
    VersionEdit edit;
    edit.SetComparatorName(BytewiseComparator()->Name());
    edit.SetLogNumber(1);
    edit.SetNextFile(10);
    edit.SetLastSequence(100);
    edit.AddFile(level, 3, 100, InternalKey("a", 5, kTypeValue),
                 InternalKey("m", 5, kTypeValue));
    edit.AddFile(level, 4, 100, InternalKey("c", 6, kTypeValue),
                 InternalKey("z", 6, kTypeValue));
    return edit;
  };
  WriteManifest(1, {two_overlapping_files(1)});
  ASSERT_TRUE(SetCurrentFile(&env_, dbname_, 1).ok());
  Status s = Reopen();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();

  // Level 0 files may overlap.
  WriteManifest(1, {two_overlapping_files(0)});
  EXPECT_TRUE(Reopen().ok());
  EXPECT_EQ(2, vset_->NumLevelFiles(0));
}

TEST_F(VersionSetTest, ManifestWriteFailureInstallsNothing) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  const uint64_t manifest = vset_->ManifestFileNumber();
  const std::string manifest_name = DescriptorFileName(dbname_, manifest);

  env_.fail_manifest_sync = true;
  const uint64_t number = vset_->NewFileNumber();
  // Each attempt adds the same file with a fresh edit.
  auto add_file = [&]() {
    VersionEdit edit;
    edit.AddFile(1, number, 10, InternalKey("a", 1, kTypeValue),
                 InternalKey("b", 1, kTypeValue));
    return Apply(&edit);
  };
  Status s = add_file();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(0, vset_->NumLevelFiles(1));
  EXPECT_FALSE(env_.FileExists(manifest_name));
  EXPECT_EQ("MANIFEST-000001\n", ReadCurrent());

  env_.fail_manifest_sync = false;
  env_.fail_manifest_create = true;
  EXPECT_TRUE(add_file().IsIOError());
  EXPECT_EQ(0, vset_->NumLevelFiles(1));

  env_.fail_manifest_create = false;
  ASSERT_TRUE(add_file().ok());
  EXPECT_EQ(1, vset_->NumLevelFiles(1));
  EXPECT_TRUE(env_.FileExists(manifest_name));

  ASSERT_TRUE(Reopen().ok());
  EXPECT_EQ(1, vset_->NumLevelFiles(1));
}

TEST_F(VersionSetTest, ReuseSmallManifest) {
  options_.reuse_logs = true;
  CreateEmptyDb();
  bool save_manifest = true;
  ASSERT_TRUE(Reopen(&save_manifest).ok());
  EXPECT_FALSE(save_manifest);
  EXPECT_EQ(1u, vset_->ManifestFileNumber());

  const uint64_t a = AddFile(2, "k", "p");
  // Appended to the old MANIFEST; no new one.
  EXPECT_EQ("MANIFEST-000001\n", ReadCurrent());
  std::vector<std::string> children;
  ASSERT_TRUE(env_.GetChildren(dbname_, &children).ok());
  int manifests = 0;
  for (const std::string& child : children) {
    if (child.rfind("MANIFEST", 0) == 0) ++manifests;
  }
  EXPECT_EQ(1, manifests);

  options_.reuse_logs = false;
  ASSERT_TRUE(Reopen(&save_manifest).ok());
  EXPECT_TRUE(save_manifest);
  std::set<uint64_t> live;
  vset_->AddLiveFiles(&live);
  EXPECT_EQ(std::set<uint64_t>({a}), live);
}

TEST_F(VersionSetTest, LargeManifestIsNotReused) {
  options_.reuse_logs = true;
  options_.max_file_size = 16;  // the MANIFEST is already larger
  CreateEmptyDb();
  bool save_manifest = false;
  ASSERT_TRUE(Reopen(&save_manifest).ok());
  EXPECT_TRUE(save_manifest);
  EXPECT_NE(1u, vset_->ManifestFileNumber());
}

// ---------------------------------------------------------------------------
// Overlap queries and compaction picking on a Version.

TEST_F(VersionSetTest, GetOverlappingInputsGrowsTheRangeAtLevel0) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  const uint64_t f1 = AddFile(0, "a", "c");
  const uint64_t f2 = AddFile(0, "b", "f");
  const uint64_t f3 = AddFile(0, "e", "h");
  AddFile(0, "x", "z");
  const uint64_t g1 = AddFile(1, "a", "c");
  const uint64_t g2 = AddFile(1, "d", "f");
  AddFile(1, "g", "h");

  InternalKey begin("a", kMaxSequenceNumber, kValueTypeForSeek);
  InternalKey end("a", 0, kTypeDeletion);
  std::vector<FileMetaData*> inputs;
  vset_->current()->GetOverlappingInputs(0, &begin, &end, &inputs);
  std::set<uint64_t> numbers;
  for (FileMetaData* f : inputs) numbers.insert(f->number);
  EXPECT_EQ(std::set<uint64_t>({f1, f2, f3}), numbers);

  // Sorted levels are not widened.
  InternalKey end_d("d", 0, kTypeDeletion);
  vset_->current()->GetOverlappingInputs(1, &begin, &end_d, &inputs);
  ASSERT_EQ(2u, inputs.size());
  EXPECT_EQ(g1, inputs[0]->number);
  EXPECT_EQ(g2, inputs[1]->number);

  // Unbounded on both sides: everything.
  vset_->current()->GetOverlappingInputs(1, nullptr, nullptr, &inputs);
  EXPECT_EQ(3u, inputs.size());
  vset_->current()->GetOverlappingInputs(2, nullptr, nullptr, &inputs);
  EXPECT_TRUE(inputs.empty());

  Slice lo("i");
  Slice hi("w");
  EXPECT_FALSE(vset_->current()->OverlapInLevel(0, &lo, &hi));
  EXPECT_TRUE(vset_->current()->OverlapInLevel(0, &lo, nullptr));
  EXPECT_FALSE(vset_->current()->OverlapInLevel(1, &lo, &hi));
  EXPECT_TRUE(vset_->current()->OverlapInLevel(1, nullptr, &hi));
}

TEST_F(VersionSetTest, PickLevelForMemTableOutput) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  Version* v = vset_->current();
  EXPECT_EQ(config::kMaxMemCompactLevel,
            v->PickLevelForMemTableOutput("a", "b"));

  AddFile(2, "c", "d");
  EXPECT_EQ(1, vset_->current()->PickLevelForMemTableOutput("c", "c"));
  EXPECT_EQ(2, vset_->current()->PickLevelForMemTableOutput("e", "f"));

  AddFile(1, "g", "h");
  EXPECT_EQ(0, vset_->current()->PickLevelForMemTableOutput("a", "g"));

  AddFile(0, "x", "y");
  EXPECT_EQ(0, vset_->current()->PickLevelForMemTableOutput("w", "x"));

  // A big overlap two levels down stops the push early.
  AddFile(3, "m", "n", 21 * kMiB);
  EXPECT_EQ(1, vset_->current()->PickLevelForMemTableOutput("m", "m"));
  AddFile(2, "r", "s", 21 * kMiB);
  EXPECT_EQ(0, vset_->current()->PickLevelForMemTableOutput("r1", "r2"));
  AddFile(3, "v1", "v2", 20 * kMiB);  // exactly the limit: allowed
  EXPECT_EQ(2, vset_->current()->PickLevelForMemTableOutput("v1", "v1"));
}

TEST_F(VersionSetTest, Level0CompactionTakesAllOverlappingFiles) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  const uint64_t f1 = AddFile(0, "a", "c");
  const uint64_t f2 = AddFile(0, "b", "d");
  const uint64_t f3 = AddFile(0, "c", "e");
  EXPECT_FALSE(vset_->NeedsCompaction());  // 3 of 4
  const uint64_t f4 = AddFile(0, "x", "z");
  EXPECT_TRUE(vset_->NeedsCompaction());
  const uint64_t g1 = AddFile(1, "d", "f");
  AddFile(1, "g", "h");

  std::unique_ptr<Compaction> c(vset_->PickCompaction());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(0, c->level());
  std::vector<uint64_t> in0 = Inputs(c.get(), 0);
  std::set<uint64_t> level0(in0.begin(), in0.end());
  EXPECT_EQ(std::set<uint64_t>({f1, f2, f3}), level0);
  EXPECT_EQ(std::vector<uint64_t>({g1}), Inputs(c.get(), 1));
  EXPECT_FALSE(c->IsTrivialMove());

  VersionEdit edit;
  c->AddInputDeletions(&edit);
  const std::string s = edit.DebugString();
  for (uint64_t n : {f1, f2, f3}) {
    EXPECT_NE(std::string::npos, s.find("RemoveFile: 0 " + std::to_string(n)));
  }
  EXPECT_NE(std::string::npos, s.find("RemoveFile: 1 " + std::to_string(g1)));
  EXPECT_EQ(std::string::npos, s.find("RemoveFile: 0 " + std::to_string(f4)));
  c->ReleaseInputs();
}

TEST_F(VersionSetTest, SizeCompactionRoundRobin) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  std::vector<uint64_t> files;
  const char* keys[] = {"a", "b", "c", "d", "e", "f"};
  for (const char* k : keys) files.push_back(AddFile(1, k, k, 2 * kMiB));
  // 12 MiB in level 1 (limit 10 MiB).
  EXPECT_TRUE(vset_->NeedsCompaction());
  for (int round = 0; round < 8; ++round) {
    std::unique_ptr<Compaction> c(vset_->PickCompaction());
    ASSERT_NE(nullptr, c);
    EXPECT_EQ(1, c->level());
    EXPECT_EQ(std::vector<uint64_t>({files[round % files.size()]}),
              Inputs(c.get(), 0))
        << round;
    EXPECT_TRUE(c->IsTrivialMove());
    EXPECT_EQ(options_.max_file_size, c->MaxOutputFileSize());
  }
}

TEST_F(VersionSetTest, CompactPointerSurvivesRecovery) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  std::vector<uint64_t> files;
  for (const char* k : {"a", "b", "c", "d", "e", "f"}) {
    files.push_back(AddFile(1, k, k, 2 * kMiB));
  }
  {
    std::unique_ptr<Compaction> c(vset_->PickCompaction());
    ASSERT_NE(nullptr, c);
    // Record the pointer the way a finished compaction would.
    ASSERT_TRUE(Apply(c->edit()).ok());
  }
  ASSERT_TRUE(Reopen().ok());
  std::unique_ptr<Compaction> c(vset_->PickCompaction());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(std::vector<uint64_t>({files[1]}), Inputs(c.get(), 0));
}

TEST_F(VersionSetTest, SeekCompaction) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  const uint64_t a = AddFile(2, "a", "c", 1000);
  AddFile(2, "d", "f", 1000);
  EXPECT_FALSE(vset_->NeedsCompaction());

  Version* v = vset_->current();
  Version::GetStats stats;
  stats.seek_file = v->LevelFiles(2)[0];
  stats.seek_file_level = 2;
  // Small files get the minimum of 100 seeks.
  for (int i = 0; i < 99; ++i) {
    EXPECT_FALSE(v->UpdateStats(stats)) << i;
  }
  EXPECT_TRUE(v->UpdateStats(stats));
  EXPECT_TRUE(vset_->NeedsCompaction());
  EXPECT_FALSE(v->UpdateStats(stats));  // already scheduled

  std::unique_ptr<Compaction> c(vset_->PickCompaction());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(2, c->level());
  EXPECT_EQ(std::vector<uint64_t>({a}), Inputs(c.get(), 0));

  Version::GetStats none{nullptr, -1};
  EXPECT_FALSE(v->UpdateStats(none));
}

TEST_F(VersionSetTest, AllowedSeeksScaleWithFileSize) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  AddFile(1, "a", "b", 100);
  AddFile(1, "c", "d", 16384 * 250);
  std::vector<FileMetaData*> files = vset_->current()->LevelFiles(1);
  ASSERT_EQ(2u, files.size());
  EXPECT_EQ(100, files[0]->allowed_seeks);
  EXPECT_EQ(250, files[1]->allowed_seeks);
}

TEST_F(VersionSetTest, SizeCompactionIsPreferredOverSeekCompaction) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  AddFile(3, "a", "b", 1000);
  for (const char* k : {"c", "d", "e", "f", "g", "h"}) {
    AddFile(1, k, k, 2 * kMiB);
  }
  Version* v = vset_->current();
  Version::GetStats stats{v->LevelFiles(3)[0], 3};
  while (!v->UpdateStats(stats)) {
  }
  std::unique_ptr<Compaction> c(vset_->PickCompaction());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(1, c->level());
}

TEST_F(VersionSetTest, PickCompactionAddsBoundaryFiles) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  // Two level-1 files share user key "m"; together over the size limit.
  const uint64_t f1 = AddFile(1, "a", "m", 6 * kMiB, 200, 150);
  const uint64_t f2 = AddFile(1, "m", "z", 6 * kMiB, 140, 100);
  const uint64_t g1 = AddFile(2, "n", "o");
  std::unique_ptr<Compaction> c(vset_->PickCompaction());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(1, c->level());
  EXPECT_EQ(std::vector<uint64_t>({f1, f2}), Inputs(c.get(), 0));
  EXPECT_EQ(std::vector<uint64_t>({g1}), Inputs(c.get(), 1));
}

TEST_F(VersionSetTest, LevelPlusOneInputsGetBoundaryFilesToo) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  const uint64_t f1 = AddFile(1, "a", "c", 1000);
  const uint64_t g1 = AddFile(2, "b", "k", 1000, 100, 90);
  const uint64_t g2 = AddFile(2, "k", "p", 1000, 80, 70);
  AddFile(2, "q", "r", 1000);
  std::unique_ptr<Compaction> c(CompactUserRange(1, "a", "c"));
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(std::vector<uint64_t>({f1}), Inputs(c.get(), 0));
  EXPECT_EQ(std::vector<uint64_t>({g1, g2}), Inputs(c.get(), 1));
}

TEST_F(VersionSetTest, InputsExpandWhenLevelPlusOneIsUnchanged) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  const uint64_t f1 = AddFile(1, "a", "b");
  const uint64_t f2 = AddFile(1, "c", "d");
  const uint64_t g = AddFile(2, "a", "d");
  std::unique_ptr<Compaction> c(CompactUserRange(1, "a", "a"));
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(std::vector<uint64_t>({f1, f2}), Inputs(c.get(), 0));
  EXPECT_EQ(std::vector<uint64_t>({g}), Inputs(c.get(), 1));
}

TEST_F(VersionSetTest, InputsDoNotExpandWhenLevelPlusOneWouldGrow) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  const uint64_t f1 = AddFile(1, "a", "c");
  AddFile(1, "d", "f");
  const uint64_t g1 = AddFile(2, "b", "e");
  AddFile(2, "f", "h");
  std::unique_ptr<Compaction> c(CompactUserRange(1, "a", "a"));
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(std::vector<uint64_t>({f1}), Inputs(c.get(), 0));
  EXPECT_EQ(std::vector<uint64_t>({g1}), Inputs(c.get(), 1));
}

TEST_F(VersionSetTest, InputsDoNotExpandPastTheByteLimit) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  // 25 * 2 MiB = 50 MiB limit on expanded inputs.
  const uint64_t f1 = AddFile(1, "a", "b", 1 * kMiB);
  AddFile(1, "c", "d", 30 * kMiB);
  const uint64_t g = AddFile(2, "a", "d", 20 * kMiB);
  std::unique_ptr<Compaction> c(CompactUserRange(1, "a", "a"));
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(std::vector<uint64_t>({f1}), Inputs(c.get(), 0));
  EXPECT_EQ(std::vector<uint64_t>({g}), Inputs(c.get(), 1));
}

TEST_F(VersionSetTest, CompactRangeLimitsInputAboveLevel0) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  std::vector<uint64_t> files;
  for (const char* k : {"a", "b", "c", "d", "e"}) {
    files.push_back(AddFile(1, k, k, kMiB));
  }
  std::unique_ptr<Compaction> c(vset_->CompactRange(1, nullptr, nullptr));
  ASSERT_NE(nullptr, c);
  // Two files reach max_file_size (2 MiB).
  EXPECT_EQ(std::vector<uint64_t>({files[0], files[1]}), Inputs(c.get(), 0));

  InternalKey begin("x", kMaxSequenceNumber, kValueTypeForSeek);
  EXPECT_EQ(nullptr, vset_->CompactRange(1, &begin, nullptr));
  EXPECT_EQ(nullptr, vset_->CompactRange(4, nullptr, nullptr));

  // Level 0 takes everything overlapping, whatever the size.
  for (const char* k : {"a", "b", "c"}) AddFile(0, k, k, 5 * kMiB);
  std::unique_ptr<Compaction> l0(vset_->CompactRange(0, nullptr, nullptr));
  ASSERT_NE(nullptr, l0);
  EXPECT_EQ(3, l0->num_input_files(0));
}

TEST_F(VersionSetTest, TrivialMoveNeedsLittleGrandparentOverlap) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  AddFile(1, "a", "m");
  AddFile(3, "b", "c", 11 * kMiB);
  InternalKey begin("a", kMaxSequenceNumber, kValueTypeForSeek);
  std::unique_ptr<Compaction> c(vset_->CompactRange(1, &begin, nullptr));
  ASSERT_NE(nullptr, c);
  EXPECT_TRUE(c->IsTrivialMove());  // 11 MiB <= 20 MiB
  c.reset();

  AddFile(3, "d", "e", 10 * kMiB);
  c.reset(vset_->CompactRange(1, &begin, nullptr));
  ASSERT_NE(nullptr, c);
  EXPECT_FALSE(c->IsTrivialMove());  // 21 MiB
}

TEST_F(VersionSetTest, IsBaseLevelForKey) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  AddFile(1, "a", "z");
  AddFile(3, "f", "h");
  AddFile(5, "p", "r");
  std::unique_ptr<Compaction> c(vset_->CompactRange(1, nullptr, nullptr));
  ASSERT_NE(nullptr, c);
  EXPECT_TRUE(c->IsBaseLevelForKey("a"));
  EXPECT_FALSE(c->IsBaseLevelForKey("f"));
  EXPECT_FALSE(c->IsBaseLevelForKey("g"));
  EXPECT_TRUE(c->IsBaseLevelForKey("i"));
  EXPECT_FALSE(c->IsBaseLevelForKey("q"));
  EXPECT_TRUE(c->IsBaseLevelForKey("s"));
}

TEST_F(VersionSetTest, ShouldStopBeforeTooMuchGrandparentOverlap) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  AddFile(1, "a", "z");
  AddFile(3, "b", "c", 8 * kMiB);
  AddFile(3, "d", "e", 8 * kMiB);
  AddFile(3, "f", "g", 8 * kMiB);
  AddFile(3, "h", "i", 8 * kMiB);
  std::unique_ptr<Compaction> c(vset_->CompactRange(1, nullptr, nullptr));
  ASSERT_NE(nullptr, c);
  auto key = [](const char* k) {
    return InternalKey(k, 10, kTypeValue).Encode().ToString();
  };
  EXPECT_FALSE(c->ShouldStopBefore(key("a")));
  EXPECT_FALSE(c->ShouldStopBefore(key("c1")));  // 8 MiB
  EXPECT_FALSE(c->ShouldStopBefore(key("e1")));  // 16 MiB
  EXPECT_TRUE(c->ShouldStopBefore(key("g1")));   // 24 MiB > 20 MiB
  EXPECT_FALSE(c->ShouldStopBefore(key("h")));   // counting restarted
  EXPECT_FALSE(c->ShouldStopBefore(key("z")));   // 8 MiB
}

TEST_F(VersionSetTest, MaxNextLevelOverlappingBytes) {
  CreateEmptyDb();
  ASSERT_TRUE(Reopen().ok());
  EXPECT_EQ(0, vset_->MaxNextLevelOverlappingBytes());
  AddFile(1, "a", "f");
  AddFile(1, "g", "k");
  AddFile(2, "a", "b", 300);
  AddFile(2, "c", "h", 500);
  AddFile(2, "i", "j", 100);
  EXPECT_EQ(800, vset_->MaxNextLevelOverlappingBytes());
}

// ---------------------------------------------------------------------------
// Versions over real tables.

std::string IKey(const std::string& user_key, SequenceNumber seq,
                 ValueType type = kTypeValue) {
  return InternalKey(user_key, seq, type).Encode().ToString();
}

class VersionReadTest : public VersionSetTest {
 protected:
  VersionReadTest() {
    CreateEmptyDb();
    EXPECT_TRUE(Reopen().ok());
    // Oldest data at level 1, then two overlapping level-0 tables.
    l1_ = BuildAndAdd(
        1,
        {{IKey("a", 1), "a-old"}, {IKey("bb", 2), "bb"}, {IKey("d", 3), "d"}});
    older_l0_ = BuildAndAdd(
        0,
        {{IKey("a", 10), "a1"}, {IKey("b", 11), "b1"}, {IKey("c", 12), "c1"}});
    newer_l0_ = BuildAndAdd(
        0, {{IKey("b", 20, kTypeDeletion), ""}, {IKey("c", 21), "c2"}});
    vset_->SetLastSequence(21);
  }

  uint64_t BuildAndAdd(int level, test::KVVector entries) {
    FileMetaData meta;
    meta.number = vset_->NewFileNumber();
    test::VectorIterator iter(&icmp_, std::move(entries));
    EXPECT_TRUE(
        BuildTable(dbname_, &env_, options_, table_cache_.get(), &iter, &meta)
            .ok());
    EXPECT_GT(meta.file_size, 0u);
    VersionEdit edit;
    edit.AddFile(level, meta.number, meta.file_size, meta.smallest,
                 meta.largest);
    EXPECT_TRUE(Apply(&edit).ok());
    return meta.number;
  }

  // Looks key up at snapshot seq; returns the value, "NOT_FOUND" or the
  // error, and the file charged with a seek (0 for none).
  std::string Get(const std::string& key, SequenceNumber seq,
                  uint64_t* charged = nullptr) {
    Version::GetStats stats;
    std::string value;
    LookupKey lookup(key, seq);
    Status s = vset_->current()->Get(ReadOptions(), lookup, &value, &stats,
                                     /*key_hash=*/0, /*io_stats=*/nullptr);
    if (charged != nullptr) {
      *charged = stats.seek_file == nullptr ? 0 : stats.seek_file->number;
    }
    if (s.IsNotFound()) return "NOT_FOUND";
    if (!s.ok()) return s.ToString();
    return value;
  }

  // All entries of it, as "userkey@seq=value" strings.
  static std::vector<std::string> Drain(Iterator* it) {
    std::vector<std::string> out;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ParsedInternalKey parsed;
      EXPECT_TRUE(ParseInternalKey(it->key(), &parsed));
      out.push_back(parsed.user_key.ToString() + "@" +
                    std::to_string(parsed.sequence) + "=" +
                    it->value().ToString());
    }
    EXPECT_TRUE(it->status().ok());
    return out;
  }

  const std::vector<std::string> all_entries_{
      "a@10=a1", "a@1=a-old", "b@20=",   "b@11=b1",
      "bb@2=bb", "c@21=c2",   "c@12=c1", "d@3=d"};

  uint64_t l1_ = 0;
  uint64_t older_l0_ = 0;
  uint64_t newer_l0_ = 0;
};

TEST_F(VersionReadTest, GetFindsTheNewestVisibleEntry) {
  uint64_t charged = 99;
  EXPECT_EQ("a1", Get("a", 100, &charged));
  EXPECT_EQ(0u, charged);  // one probe: nothing to charge
  EXPECT_EQ("NOT_FOUND", Get("b", 100, &charged));
  EXPECT_EQ(0u, charged);
  EXPECT_EQ("c2", Get("c", 100));
  EXPECT_EQ("d", Get("d", 100, &charged));
  EXPECT_EQ(0u, charged);
  EXPECT_EQ("NOT_FOUND", Get("e", 100, &charged));
  EXPECT_EQ(0u, charged);
  EXPECT_EQ("NOT_FOUND", Get("0", 100));
}

TEST_F(VersionReadTest, GetAtOlderSnapshots) {
  EXPECT_EQ("b1", Get("b", 19));
  EXPECT_EQ("c1", Get("c", 20));
  EXPECT_EQ("a-old", Get("a", 9));
  EXPECT_EQ("NOT_FOUND", Get("c", 11));
}

TEST_F(VersionReadTest, SeekIsChargedToTheFirstFileProbed) {
  uint64_t charged = 0;
  // Newer L0 table misses, older one hits.
  EXPECT_EQ("b1", Get("b", 15, &charged));
  EXPECT_EQ(newer_l0_, charged);
  // Both L0 tables miss, level 1 hits.
  EXPECT_EQ("bb", Get("bb", 100, &charged));
  EXPECT_EQ(newer_l0_, charged);
  // Only the older L0 table covers "a"; it misses at this snapshot.
  EXPECT_EQ("a-old", Get("a", 5, &charged));
  EXPECT_EQ(older_l0_, charged);
}

TEST_F(VersionReadTest, ChargedSeeksEventuallyScheduleACompaction) {
  Version* v = vset_->current();
  Version::GetStats stats;
  std::string value;
  LookupKey lookup("bb", 100);
  bool scheduled = false;
  for (int i = 0; i < 200 && !scheduled; ++i) {
    ASSERT_TRUE(v->Get(ReadOptions(), lookup, &value, &stats, /*key_hash=*/0,
                       /*io_stats=*/nullptr)
                    .ok());
    scheduled = v->UpdateStats(stats);
  }
  EXPECT_TRUE(scheduled);
  EXPECT_TRUE(vset_->NeedsCompaction());
}

TEST_F(VersionReadTest, MissingTableIsAnErrorNotAMiss) {
  ASSERT_TRUE(env_.RemoveFile(TableFileName(dbname_, l1_)).ok());
  table_cache_->Evict(l1_);
  const std::string result = Get("d", 100);
  EXPECT_EQ(0u, result.find("Corruption: missing table file")) << result;
  // Level 0 reads are unaffected.
  EXPECT_EQ("c2", Get("c", 100));
}

TEST_F(VersionReadTest, AddIteratorsCoversEveryTable) {
  std::vector<Iterator*> iters;
  vset_->current()->AddIterators(ReadOptions(), &iters);
  ASSERT_EQ(3u, iters.size());  // two L0 tables, one for level 1
  std::unique_ptr<Iterator> merged(
      NewMergingIterator(&icmp_, iters.data(), static_cast<int>(iters.size())));
  EXPECT_EQ(all_entries_, Drain(merged.get()));
}

TEST_F(VersionReadTest, LevelIteratorSeeksAndStepsBack) {
  // Add more level-1 tables so the concatenating iterator crosses files.
  BuildAndAdd(1, {{IKey("e", 4), "e"}, {IKey("f", 5), "f"}});
  BuildAndAdd(1, {{IKey("g", 6), "g"}});
  std::vector<Iterator*> iters;
  vset_->current()->AddIterators(ReadOptions(), &iters);
  ASSERT_EQ(3u, iters.size());
  std::unique_ptr<Iterator> level1(iters[2]);
  delete iters[0];
  delete iters[1];

  EXPECT_EQ(std::vector<std::string>(
                {"a@1=a-old", "bb@2=bb", "d@3=d", "e@4=e", "f@5=f", "g@6=g"}),
            Drain(level1.get()));
  level1->Seek(IKey("d5", kMaxSequenceNumber));
  ASSERT_TRUE(level1->Valid());
  EXPECT_EQ(IKey("e", 4), level1->key().ToString());
  level1->Prev();
  ASSERT_TRUE(level1->Valid());
  EXPECT_EQ(IKey("d", 3), level1->key().ToString());
  level1->SeekToLast();
  ASSERT_TRUE(level1->Valid());
  EXPECT_EQ(IKey("g", 6), level1->key().ToString());
  level1->Seek(IKey("z", kMaxSequenceNumber));
  EXPECT_FALSE(level1->Valid());
}

TEST_F(VersionReadTest, MakeInputIteratorMergesAllInputs) {
  std::unique_ptr<Compaction> c(vset_->CompactRange(0, nullptr, nullptr));
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(2, c->num_input_files(0));
  EXPECT_EQ(1, c->num_input_files(1));
  std::unique_ptr<Iterator> it(vset_->MakeInputIterator(c.get()));
  EXPECT_EQ(all_entries_, Drain(it.get()));
}

TEST_F(VersionReadTest, ApproximateOffsetOf) {
  Version* v = vset_->current();
  uint64_t total = 0;
  for (int level = 0; level < config::kNumLevels; ++level) {
    total += vset_->NumLevelBytes(level);
  }
  EXPECT_EQ(0u, vset_->ApproximateOffsetOf(
                    v, InternalKey("0", kMaxSequenceNumber, kTypeValue)));
  EXPECT_EQ(total, vset_->ApproximateOffsetOf(
                       v, InternalKey("z", kMaxSequenceNumber, kTypeValue)));
  const uint64_t middle = vset_->ApproximateOffsetOf(
      v, InternalKey("bb", kMaxSequenceNumber, kTypeValue));
  EXPECT_LE(middle, total);
}

TEST_F(VersionReadTest, RecordReadSample) {
  Version* v = vset_->current();
  // Only the level-1 table holds "d": nothing to charge.
  for (int i = 0; i < 300; ++i) {
    ASSERT_FALSE(v->RecordReadSample(IKey("d", 100)));
  }
  EXPECT_FALSE(v->RecordReadSample(Slice("short")));
  // "bb" lies in three tables' ranges.
  bool scheduled = false;
  for (int i = 0; i < 200 && !scheduled; ++i) {
    scheduled = v->RecordReadSample(IKey("bb", 100));
  }
  EXPECT_TRUE(scheduled);
  EXPECT_TRUE(vset_->NeedsCompaction());
}

}  // namespace
}  // namespace leveldb
