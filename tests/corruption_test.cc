// Damaged files on disk: the WAL, tables (data block, index block, footer),
// the MANIFEST and CURRENT. Whatever is damaged, reads must return either
// the right value or an error (Corruption, or NotFound for writes that a
// damaged log lost) -- never a wrong value, never a crash. Paranoid checks
// and verify_checksums must report the damage; RepairDB must salvage what is
// intact; a compaction that meets a damaged table must stop with a sticky
// error instead of dropping good data.

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/log_format.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/write_batch.h"
#include "table/format.h"
#include "tests/test_util.h"
#include "util/coding.h"
#include "util/random.h"

namespace leveldb {
namespace {

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%016d", i);
  return buf;
}

// A value that depends only on the key number and the size.
std::string Value(int i, size_t size) {
  Random rnd(static_cast<uint32_t>(i) * 2654435761u + 17);
  return test::RandomString(&rnd, size);
}

// Printable form of possibly binary bytes, for failure messages.
std::string EscapeForMessage(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes.substr(0, 40)) {
    if (c >= ' ' && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

// Outcome of reading keys [begin, end).
struct Tally {
  int correct = 0;
  int missing = 0;  // NotFound
  int corrupt = 0;  // Corruption
  int wrong = 0;    // a value that was never written: always a failure
  std::string first_wrong;
  std::vector<int> corrupt_keys;
};

class CorruptionTest : public ::testing::Test {
 protected:
  CorruptionTest()
      : env_(Env::Default()), dbname_(test::NewTempDir(env_, "corruption")) {
    options_.env = env_;
    options_.create_if_missing = true;
    // Uncompressed blocks: a flipped byte stays a flipped byte of a value.
    options_.compression = kNoCompression;
    Status s = Reopen();
    EXPECT_TRUE(s.ok()) << s.ToString();
  }

  ~CorruptionTest() override {
    Close();
    DestroyDB(dbname_, Options());
    test::RemoveDirRecursively(env_, dbname_);
  }

  void Close() {
    delete db_;
    db_ = nullptr;
  }

  Status Reopen(bool paranoid = false) {
    Close();
    options_.paranoid_checks = paranoid;
    return DB::Open(options_, dbname_, &db_);
  }

  DBImpl* impl() { return static_cast<DBImpl*>(db_); }

  // Writes keys [start, start + n), one write (and log record) each.
  void Build(int n, int start = 0, size_t value_size = 100, int step = 1) {
    for (int i = start; i < start + n * step; i += step) {
      ASSERT_TRUE(db_->Put(WriteOptions(), Key(i), Value(i, value_size)).ok());
    }
  }

  void Flush() { ASSERT_TRUE(impl()->TEST_CompactMemTable().ok()); }

  // Files of `type`, oldest (lowest number) first.
  std::vector<std::string> Files(FileType want) {
    std::vector<std::string> children;
    EXPECT_TRUE(env_->GetChildren(dbname_, &children).ok());
    std::vector<std::pair<uint64_t, std::string>> found;
    for (const std::string& c : children) {
      uint64_t number;
      FileType type;
      if (ParseFileName(c, &number, &type) && type == want) {
        found.emplace_back(number, dbname_ + "/" + c);
      }
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (const auto& f : found) out.push_back(f.second);
    return out;
  }

  std::string NewestFile(FileType type) {
    std::vector<std::string> files = Files(type);
    EXPECT_FALSE(files.empty()) << "no file of type " << type;
    return files.empty() ? std::string() : files.back();
  }

  std::string ReadFile(const std::string& fname) {
    std::string data;
    Status s = ReadFileToString(env_, fname, &data);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return data;
  }

  void WriteFile(const std::string& fname, const std::string& data) {
    Status s = WriteStringToFile(env_, data, fname);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // Flips the top bit of `bytes` bytes at `offset` (from the end if
  // negative) of `fname`.
  void FlipBytes(const std::string& fname, int64_t offset, int bytes) {
    std::string data = ReadFile(fname);
    if (offset < 0) offset += static_cast<int64_t>(data.size());
    ASSERT_GE(offset, 0);
    ASSERT_LE(static_cast<size_t>(offset + bytes), data.size()) << fname;
    for (int i = 0; i < bytes; ++i) data[offset + i] ^= '\x80';
    WriteFile(fname, data);
  }

  // Flips one byte in the middle of key i's value as stored in table
  // `fname` (blocks are uncompressed, so the value appears verbatim).
  void FlipValueByte(const std::string& fname, int i, size_t value_size) {
    const std::string data = ReadFile(fname);
    const size_t at = data.find(Value(i, value_size));
    ASSERT_NE(std::string::npos, at) << "value of " << Key(i) << " not found";
    FlipBytes(fname, static_cast<int64_t>(at + value_size / 2), 1);
  }

  void Overwrite(const std::string& fname, size_t offset,
                 const std::string& bytes) {
    std::string data = ReadFile(fname);
    ASSERT_LE(offset + bytes.size(), data.size()) << fname;
    data.replace(offset, bytes.size(), bytes);
    WriteFile(fname, data);
  }

  void Truncate(const std::string& fname, size_t size) {
    std::string data = ReadFile(fname);
    ASSERT_LT(size, data.size());
    data.resize(size);
    WriteFile(fname, data);
  }

  // The table's index handle and the handle of its first data block.
  void TableLayout(const std::string& fname, BlockHandle* index,
                   BlockHandle* first_data) {
    const std::string data = ReadFile(fname);
    ASSERT_GE(data.size(), Footer::kEncodedLength);
    Slice footer_bytes(data.data() + data.size() - Footer::kEncodedLength,
                       Footer::kEncodedLength);
    Footer footer;
    ASSERT_TRUE(footer.DecodeFrom(&footer_bytes).ok());
    *index = footer.index_handle();
    ASSERT_LE(index->offset() + index->size(), data.size());
    // First index entry: shared (0), unshared, value length, key, handle.
    Slice entry(data.data() + index->offset(), index->size());
    uint32_t shared, unshared, value_len;
    ASSERT_TRUE(ConsumeVarint32(&entry, &shared));
    ASSERT_TRUE(ConsumeVarint32(&entry, &unshared));
    ASSERT_TRUE(ConsumeVarint32(&entry, &value_len));
    ASSERT_EQ(0u, shared);
    ASSERT_GE(entry.size(), unshared + value_len);
    entry.remove_prefix(unshared);
    Slice handle_bytes(entry.data(), value_len);
    ASSERT_TRUE(first_data->DecodeFrom(&handle_bytes).ok());
  }

  // Reads keys [begin, end) (every `step`-th) with point lookups and one
  // scan. Statuses other than OK, NotFound and Corruption fail the test.
  Tally Check(int begin, int end, size_t value_size,
              const ReadOptions& ro = ReadOptions(), int step = 1) {
    Tally t;
    for (int i = begin; i < end; i += step) {
      std::string v;
      Status s = db_->Get(ro, Key(i), &v);
      if (s.ok()) {
        if (v == Value(i, value_size)) {
          ++t.correct;
        } else if (t.wrong++ == 0) {
          t.first_wrong = Key(i);
        }
      } else if (s.IsNotFound()) {
        ++t.missing;
      } else if (s.IsCorruption()) {
        ++t.corrupt;
        t.corrupt_keys.push_back(i);
      } else {
        ADD_FAILURE() << Key(i) << ": unexpected status " << s.ToString();
      }
    }
    Iterator* it = db_->NewIterator(ro);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string k = it->key().ToString();
      int i = -1;
      if (k.size() == 16) i = std::atoi(k.c_str());
      if (i < 0 || Key(i) != k) {
        ADD_FAILURE() << "scan returned a key never written: "
                      << EscapeForMessage(it->key().ToString());
        break;
      }
      if (i < begin || i >= end || (i - begin) % step != 0) continue;
      if (it->value() != Slice(Value(i, value_size)) && t.wrong++ == 0) {
        t.first_wrong = k + " (scan)";
      }
    }
    Status s = it->status();
    EXPECT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
    delete it;
    if (!allow_wrong_values_) {
      EXPECT_EQ(0, t.wrong)
          << "wrong value returned, first for " << t.first_wrong;
    }
    return t;
  }

  Env* const env_;
  const std::string dbname_;
  Options options_;
  DB* db_ = nullptr;
  // Unverified reads of a damaged block may return its damaged bytes.
  bool allow_wrong_values_ = false;
};

// ---------------------------------------------------------------------------
// Write-ahead log

// 100 records of ~1 KB span four 32 KiB log blocks. Damage in blocks 0 and
// 1 may cost every record starting there; those from block 2 on survive.
TEST_F(CorruptionTest, LogBitFlipsLoseOnlyDamagedBlocks) {
  Build(100, 0, 1000);
  Close();
  const std::string log = NewestFile(kLogFile);
  FlipBytes(log, 19, 1);  // inside the first record's batch
  FlipBytes(log, log::kBlockSize + 1000, 1);
  ASSERT_TRUE(Reopen().ok());
  Tally t = Check(0, 100, 1000);
  EXPECT_GE(t.correct, 36);  // records 64..99 start in blocks 2 and 3
  EXPECT_LE(t.correct, 98);  // the two damaged records cannot be recovered
  EXPECT_EQ(0, t.corrupt);   // lost log records are simply absent
  // Records after the damaged blocks are all there.
  for (int i = 70; i < 100; ++i) {
    std::string v;
    ASSERT_TRUE(db_->Get(ReadOptions(), Key(i), &v).ok()) << i;
  }
  // The recovered DB works and survives another reopen.
  Build(10, 1000, 1000);
  ASSERT_TRUE(Reopen().ok());
  EXPECT_EQ(10, Check(1000, 1010, 1000).correct);
}

TEST_F(CorruptionTest, LogBitFlipFailsParanoidOpen) {
  Build(100, 0, 1000);
  Close();
  FlipBytes(NewestFile(kLogFile), log::kBlockSize + 1000, 1);
  Status s = Reopen(/*paranoid=*/true);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

// Garbage over a whole stretch of the log (a torn page) behaves the same.
TEST_F(CorruptionTest, LogGarbageOverwrite) {
  Build(100, 0, 1000);
  Close();
  const std::string log = NewestFile(kLogFile);
  Overwrite(log, 40000, std::string(3000, '\xff'));
  // Paranoid first: a successful lenient open replaces the damaged log.
  Status s = Reopen(/*paranoid=*/true);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  ASSERT_TRUE(Reopen().ok());
  Tally t = Check(0, 100, 1000);
  EXPECT_GE(t.correct, 60);
  EXPECT_LT(t.correct, 100);
}

// A log cut short (a crash mid-write) loses a suffix of the writes, and is
// not an error even for paranoid checks: every crash leaves such a tail.
TEST_F(CorruptionTest, LogTruncatedLosesOnlyASuffix) {
  Build(100, 0, 1000);
  Close();
  const std::string log = NewestFile(kLogFile);
  const size_t size = ReadFile(log).size();
  Truncate(log, size / 2 + 123);
  // Paranoid first: that open sees the truncated log; the lenient one
  // after it checks that the recovered state stays put.
  for (bool paranoid : {true, false}) {
    SCOPED_TRACE(paranoid ? "paranoid" : "lenient");
    Status s = Reopen(paranoid);
    ASSERT_TRUE(s.ok()) << s.ToString();
    Tally t = Check(0, 100, 1000);
    EXPECT_GE(t.correct, 45);
    EXPECT_LE(t.correct, 55);
    // A prefix: key i is present exactly when i < correct.
    for (int i = 0; i < 100; ++i) {
      std::string v;
      EXPECT_EQ(i < t.correct, db_->Get(ReadOptions(), Key(i), &v).ok()) << i;
    }
  }
}

// ---------------------------------------------------------------------------
// Tables

constexpr int kTableKeys = 1000;
constexpr size_t kTableValue = 100;

class TableCorruptionTest : public CorruptionTest {
 protected:
  // One table holding keys [0, kTableKeys), the log empty.
  void BuildTable() {
    Build(kTableKeys, 0, kTableValue);
    Flush();
    Close();
    ASSERT_EQ(1u, Files(kTableFile).size());
    table_ = Files(kTableFile)[0];
    TableLayout(table_, &index_, &first_block_);
  }

  std::string table_;
  BlockHandle index_;
  BlockHandle first_block_;
};

// verify_checksums=true: the damaged block reads as Corruption, every other
// key is fine.
TEST_F(TableCorruptionTest, DataBlockWithVerifyChecksums) {
  BuildTable();
  FlipValueByte(table_, 20, kTableValue);
  ASSERT_TRUE(Reopen().ok());
  ReadOptions verify;
  verify.verify_checksums = true;
  Tally t = Check(0, kTableKeys, kTableValue, verify);
  EXPECT_GT(t.corrupt, 0) << "the damaged block went unnoticed";
  EXPECT_EQ(0, t.missing) << "a damaged block must not hide keys";
  EXPECT_GE(t.correct, kTableKeys - 60);  // one 4 KB block of ~120 B entries
  // Only keys at the front of the table (in the first block) are affected.
  for (int k : t.corrupt_keys) EXPECT_LT(k, 60);
}

// Default reads (verify_checksums=false, no paranoid checks) skip the CRC
// as LevelDB does: entries of the damaged block may come back damaged, but
// no key goes missing and everything outside that block is intact.
TEST_F(TableCorruptionTest, DataBlockDefaultReadsLoseNothing) {
  BuildTable();
  FlipValueByte(table_, 20, kTableValue);
  ASSERT_TRUE(Reopen().ok());
  allow_wrong_values_ = true;
  Tally t = Check(0, kTableKeys, kTableValue);
  EXPECT_GE(t.correct, kTableKeys - 60);
  EXPECT_LE(t.wrong + t.corrupt, 2 * 60);  // point reads and the scan
  EXPECT_EQ(0, t.missing);
}

// With paranoid_checks the damage shows at Open or at the first read of
// the damaged block.
TEST_F(TableCorruptionTest, DataBlockParanoidReportsCorruption) {
  BuildTable();
  FlipValueByte(table_, 20, kTableValue);
  Status s = Reopen(/*paranoid=*/true);
  if (!s.ok()) {
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    return;
  }
  Tally t = Check(0, kTableKeys, kTableValue);
  EXPECT_GT(t.corrupt, 0) << "paranoid DB read a damaged block silently";
  EXPECT_EQ(0, t.missing);
}

// A damaged index block makes the whole table unreadable: every lookup
// reports Corruption (NotFound would be a false negative).
TEST_F(TableCorruptionTest, IndexBlock) {
  BuildTable();
  FlipBytes(table_, index_.offset() + index_.size() / 2, 1);
  ASSERT_TRUE(Reopen().ok());
  Tally t = Check(0, kTableKeys, kTableValue);
  EXPECT_EQ(kTableKeys, t.corrupt);
  Status s = Reopen(/*paranoid=*/true);
  if (s.ok()) {
    t = Check(0, kTableKeys, kTableValue);
    EXPECT_EQ(kTableKeys, t.corrupt);
  } else {
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
}

TEST_F(TableCorruptionTest, FooterMagic) {
  BuildTable();
  FlipBytes(table_, -1, 1);  // last byte of the magic number
  ASSERT_TRUE(Reopen().ok());
  Tally t = Check(0, kTableKeys, kTableValue);
  EXPECT_EQ(kTableKeys, t.corrupt);
}

TEST_F(TableCorruptionTest, FooterHandles) {
  BuildTable();
  // The index handle's varints: point them past the end of the file.
  const size_t footer = ReadFile(table_).size() - Footer::kEncodedLength;
  Overwrite(table_, footer, std::string(20, '\xfe'));
  ASSERT_TRUE(Reopen().ok());
  Tally t = Check(0, kTableKeys, kTableValue);
  EXPECT_EQ(kTableKeys, t.corrupt);
}

TEST_F(TableCorruptionTest, Truncated) {
  BuildTable();
  Truncate(table_, ReadFile(table_).size() / 2);
  ASSERT_TRUE(Reopen().ok());
  Tally t = Check(0, kTableKeys, kTableValue);
  EXPECT_EQ(kTableKeys, t.corrupt);
}

// A table the MANIFEST lists is gone: opening must not pretend the DB is
// fine (its keys would silently vanish).
TEST_F(TableCorruptionTest, MissingTableFailsOpen) {
  BuildTable();
  ASSERT_TRUE(env_->RemoveFile(table_).ok());
  for (bool paranoid : {false, true}) {
    Status s = Reopen(paranoid);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
  // RepairDB gives up the lost table and keeps the DB usable.
  Close();
  ASSERT_TRUE(RepairDB(dbname_, options_).ok());
  ASSERT_TRUE(Reopen().ok());
  Tally t = Check(0, kTableKeys, kTableValue);
  EXPECT_EQ(kTableKeys, t.missing);
  ASSERT_TRUE(db_->Put(WriteOptions(), "new", "value").ok());
}

// ---------------------------------------------------------------------------
// Compaction over a damaged table

class CompactionCorruptionTest : public CorruptionTest {
 protected:
  // Even keys in an older table on level 2, odd keys in a newer one on
  // level 1: compacting level 1 must read both.
  void BuildTwoLevels() {
    Build(kTableKeys / 2, 0, kTableValue, /*step=*/2);
    Flush();
    Build(kTableKeys / 2, 1, kTableValue, /*step=*/2);
    Flush();
    std::string l1, l2;
    ASSERT_TRUE(db_->GetProperty("leveldb.num-files-at-level1", &l1));
    ASSERT_TRUE(db_->GetProperty("leveldb.num-files-at-level2", &l2));
    ASSERT_EQ("1", l1) << "setup: expected the odd keys on level 1";
    ASSERT_EQ("1", l2) << "setup: expected the even keys on level 2";
    Close();
    std::vector<std::string> tables = Files(kTableFile);
    ASSERT_EQ(2u, tables.size());
    even_table_ = tables[0];
    odd_table_ = tables[1];
  }

  // Reads every key; odd keys (the intact table) must all be correct.
  void CheckOddKeysIntact() {
    ReadOptions verify;
    verify.verify_checksums = true;
    Tally odd = Check(1, kTableKeys, kTableValue, verify, 2);
    EXPECT_EQ(kTableKeys / 2, odd.correct) << "good data was lost";
    Tally even = Check(0, kTableKeys, kTableValue, verify, 2);
    EXPECT_EQ(0, even.missing) << "keys of the damaged table vanished";
    EXPECT_GE(even.correct, kTableKeys / 2 - 40);
  }

  void ExpectWritesFail() {
    for (int i = 0; i < 5; ++i) {
      Status s = db_->Put(WriteOptions(), "after", "error");
      EXPECT_FALSE(s.ok()) << "write " << i
                           << " accepted after a failed compaction";
    }
  }

  std::string even_table_;
  std::string odd_table_;
};

// paranoid_checks: compaction verifies checksums, stops, and the error is
// sticky. Neither input is lost.
TEST_F(CompactionCorruptionTest, ParanoidCompactionStopsAtDamagedBlock) {
  BuildTwoLevels();
  FlipValueByte(even_table_, 20, kTableValue);
  ASSERT_TRUE(Reopen(/*paranoid=*/true).ok());
  impl()->TEST_CompactRange(1, nullptr, nullptr);
  ExpectWritesFail();
  CheckOddKeysIntact();
  EXPECT_TRUE(env_->FileExists(odd_table_));
  EXPECT_TRUE(env_->FileExists(even_table_));
  // Nothing was lost on disk either. (Paranoid again: the reads above may
  // have earned the level-1 table a seek compaction, and a lenient one would
  // copy the damaged value: see LenientCompactionDoesNotLaunderDamage.)
  ASSERT_TRUE(Reopen(/*paranoid=*/true).ok());
  CheckOddKeysIntact();
}

// A block whose structure is broken (restart count) cannot be parsed even
// without checksums: the compaction must fail rather than skip the block.
TEST_F(CompactionCorruptionTest, BrokenBlockStopsLenientCompaction) {
  BuildTwoLevels();
  BlockHandle index, first;
  TableLayout(even_table_, &index, &first);
  std::string huge(4, '\xff');
  Overwrite(even_table_, first.offset() + first.size() - 4, huge);
  ASSERT_TRUE(Reopen().ok());
  impl()->TEST_CompactRange(1, nullptr, nullptr);
  ExpectWritesFail();
  CheckOddKeysIntact();
  ASSERT_TRUE(Reopen().ok());
  CheckOddKeysIntact();
}

// Without paranoid checks a compaction must still not copy a damaged value
// into a new table with a fresh, valid checksum: afterwards a
// verify_checksums read would accept the wrong value.
TEST_F(CompactionCorruptionTest, LenientCompactionDoesNotLaunderDamage) {
  BuildTwoLevels();
  FlipValueByte(even_table_, 20, kTableValue);
  ASSERT_TRUE(Reopen().ok());
  impl()->TEST_CompactRange(1, nullptr, nullptr);
  CheckOddKeysIntact();
  ASSERT_TRUE(Reopen().ok());
  CheckOddKeysIntact();
}

// ---------------------------------------------------------------------------
// MANIFEST and CURRENT

class MetadataCorruptionTest : public CorruptionTest {
 protected:
  // Keys [0, 600) in three tables (three MANIFEST edits), [600, 700) in the
  // log.
  void BuildDB() {
    for (int t = 0; t < 3; ++t) {
      Build(200, t * 200, kTableValue);
      Flush();
    }
    Build(100, 600, kTableValue);
    Close();
  }

  // Reopen either fails with Corruption or reads only correct values.
  void ExpectCorruptionOrCorrect(bool paranoid) {
    Status s = Reopen(paranoid);
    if (s.ok()) {
      Check(0, 700, kTableValue);
    } else {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    }
  }

  // RepairDB salvages everything: no table or log was damaged.
  void ExpectRepairRecoversAll() {
    Close();
    Status s = RepairDB(dbname_, options_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    s = Reopen();
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(700, Check(0, 700, kTableValue).correct);
    // New writes win over recovered ones (sequence numbers moved on).
    ASSERT_TRUE(db_->Put(WriteOptions(), Key(5), "newer").ok());
    ASSERT_TRUE(Reopen().ok());
    std::string v;
    ASSERT_TRUE(db_->Get(ReadOptions(), Key(5), &v).ok());
    EXPECT_EQ("newer", v);
  }
};

TEST_F(MetadataCorruptionTest, ManifestBitFlip) {
  BuildDB();
  const std::string manifest = NewestFile(kDescriptorFile);
  FlipBytes(manifest, ReadFile(manifest).size() / 2, 1);
  Status s = Reopen(/*paranoid=*/true);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  ExpectCorruptionOrCorrect(false);
  ExpectRepairRecoversAll();
}

TEST_F(MetadataCorruptionTest, ManifestGarbage) {
  BuildDB();
  const std::string manifest = NewestFile(kDescriptorFile);
  WriteFile(manifest, std::string(1000, 'x'));
  Status s = Reopen(/*paranoid=*/true);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  ExpectCorruptionOrCorrect(false);
  ExpectRepairRecoversAll();
}

TEST_F(MetadataCorruptionTest, ManifestMissing) {
  BuildDB();
  ASSERT_TRUE(env_->RemoveFile(NewestFile(kDescriptorFile)).ok());
  for (bool paranoid : {false, true}) {
    Status s = Reopen(paranoid);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
  ExpectRepairRecoversAll();
}

TEST_F(MetadataCorruptionTest, CurrentDamaged) {
  const char* const kBadContents[] = {
      "",                       // empty
      "MANIFEST-000002",        // no newline
      "MANIFEST-987654\n",      // names a missing file
      "\x01\x02garbage\xff\n",  // not a file name at all
  };
  BuildDB();
  const std::string current = dbname_ + "/CURRENT";
  const std::string good = ReadFile(current);
  for (const char* bad : kBadContents) {
    SCOPED_TRACE(std::string("CURRENT = '") + bad + "'");
    WriteFile(current, bad);
    Options strict = options_;
    strict.create_if_missing = false;
    for (bool paranoid : {false, true}) {
      Close();
      strict.paranoid_checks = paranoid;
      Status s = DB::Open(strict, dbname_, &db_);
      EXPECT_FALSE(s.ok());
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    }
  }
  WriteFile(current, good);
  ASSERT_TRUE(Reopen().ok());
  EXPECT_EQ(700, Check(0, 700, kTableValue).correct);
  Close();
  WriteFile(current, "MANIFEST-987654\n");
  ExpectRepairRecoversAll();
}

// ---------------------------------------------------------------------------
// RepairDB with damaged data

TEST_F(CorruptionTest, RepairSalvagesIntactData) {
  // Keys [0, 1000) in a table, [1000, 1100) in the log.
  Build(kTableKeys, 0, kTableValue);
  Flush();
  Build(100, 1000, 1000);
  Close();
  const std::string table = Files(kTableFile)[0];
  FlipValueByte(table, 20, kTableValue);
  FlipBytes(NewestFile(kLogFile), log::kBlockSize + 1000, 1);
  ASSERT_TRUE(env_->RemoveFile(NewestFile(kDescriptorFile)).ok());

  ASSERT_TRUE(RepairDB(dbname_, options_).ok());
  ASSERT_TRUE(Reopen().ok());
  ReadOptions verify;
  verify.verify_checksums = true;
  Tally t = Check(0, kTableKeys, kTableValue, verify);
  EXPECT_GE(t.correct, kTableKeys - 60);  // all but the damaged block
  Tally logged = Check(1000, 1100, 1000, verify);
  EXPECT_GE(logged.correct, 30);  // all but the damaged log blocks
  // The repaired DB is healthy: paranoid open, writes, compaction.
  ASSERT_TRUE(Reopen(/*paranoid=*/true).ok());
  ASSERT_TRUE(db_->Put(WriteOptions(), Key(1), "after repair").ok());
  db_->CompactRange(nullptr, nullptr);
  std::string v;
  ASSERT_TRUE(db_->Get(verify, Key(1), &v).ok());
  EXPECT_EQ("after repair", v);
  t = Check(2, kTableKeys, kTableValue, verify);
  EXPECT_EQ(0, t.corrupt) << "repair kept a damaged block";
}

}  // namespace
}  // namespace leveldb
