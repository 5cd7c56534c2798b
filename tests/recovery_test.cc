// Recovery: replaying write-ahead logs after a close or a crash, damaged
// logs, reuse_logs, and RepairDB. Runs on the POSIX Env and on an in-memory
// Env; files are damaged through the Env so both behave alike.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "db/log_writer.h"
#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/write_batch.h"
#include "tests/db_test_helpers.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace {

using test::EnvKind;
using test::EnvKindName;
using test::Key;

// A value that names its key, padded to `size` bytes.
std::string ValueFor(int i, size_t size = 100) {
  std::string v = "value-of-" + Key(i) + "-";
  while (v.size() < size) v.push_back(static_cast<char>('a' + v.size() % 26));
  return v;
}

#define ASSERT_OK(expr) ASSERT_TRUE((expr).ok())

class RecoveryTest : public test::DBFixture {
 protected:
  RecoveryTest() : DBFixture("recovery_test") {}

  std::vector<std::string> Children(const std::string& dir) {
    std::vector<std::string> children, result;
    env_->GetChildren(dir, &children);
    for (const std::string& c : children) {
      if (c != "." && c != "..") result.push_back(c);
    }
    return result;
  }

  uint64_t FileSize(const std::string& fname) {
    uint64_t size = 0;
    EXPECT_TRUE(env_->GetFileSize(fname, &size).ok()) << fname;
    return size;
  }

  // Flips the top bit of `bytes` bytes starting at offset.
  void CorruptFile(const std::string& fname, size_t offset, size_t bytes) {
    std::string contents;
    ASSERT_OK(ReadFileToString(env_, fname, &contents));
    ASSERT_LE(offset + bytes, contents.size());
    for (size_t i = offset; i < offset + bytes; i++) contents[i] ^= 0x80;
    ASSERT_OK(WriteStringToFile(env_, contents, fname));
  }

  void TruncateFile(const std::string& fname, size_t new_size) {
    std::string contents;
    ASSERT_OK(ReadFileToString(env_, fname, &contents));
    ASSERT_LE(new_size, contents.size());
    contents.resize(new_size);
    ASSERT_OK(WriteStringToFile(env_, contents, fname));
  }

  // Writes a log file holding one batch whose first record gets `seq`.
  void WriteLogFile(uint64_t number, SequenceNumber seq, WriteBatch* batch) {
    WritableFile* file = nullptr;
    ASSERT_OK(env_->NewWritableFile(LogFileName(dbname_, number), &file));
    {
      log::Writer writer(file);
      WriteBatchInternal::SetSequence(batch, seq);
      ASSERT_OK(writer.AddRecord(WriteBatchInternal::Contents(batch)));
    }
    ASSERT_OK(file->Close());
    delete file;
  }

  std::string InfoLogContents() {
    std::string contents;
    ReadFileToString(env_, InfoLogFileName(dbname_), &contents);
    return contents;
  }

  // Writes keys [0, 100) with ValueFor, closes the database and sets *logs
  // to its log files, of which there must be exactly one.
  void PutHundredAndClose(std::vector<uint64_t>* logs) {
    for (int i = 0; i < 100; i++) ASSERT_OK(Put(Key(i), ValueFor(i)));
    Close();
    *logs = FileNumbers(kLogFile);
    ASSERT_EQ(1u, logs->size());
  }

  // Counts the keys of [0, n) that are gone; every other one must still hold
  // ValueFor(i, value_size).
  void CountMissing(int n, size_t value_size, int* missing) {
    *missing = 0;
    for (int i = 0; i < n; i++) {
      const std::string v = Get(Key(i));
      if (v == "NOT_FOUND") {
        ++*missing;
      } else {
        ASSERT_EQ(ValueFor(i, value_size), v) << i;
      }
    }
  }
};

// ---------------------------------------------------------------------------
// Replaying logs

TEST_P(RecoveryTest, ReplaysManySmallWritesFromTheLog) {
  Open();
  for (int i = 0; i < 5000; i++) ASSERT_OK(Put(Key(i), ValueFor(i, 20)));
  for (int i = 0; i < 5000; i += 7) {
    ASSERT_OK(db_->Delete(WriteOptions(), Key(i)));
  }
  EXPECT_EQ(0, TotalTableFiles());  // all of it is in the memtable + log
  Close();

  const std::vector<uint64_t> logs = FileNumbers(kLogFile);
  ASSERT_EQ(1u, logs.size());
  EXPECT_GT(FileSize(LogFileName(dbname_, logs[0])), 5000u * 20);
  EXPECT_TRUE(FileNumbers(kTableFile).empty());

  Open();
  for (int i = 0; i < 5000; i++) {
    ASSERT_EQ(i % 7 == 0 ? "NOT_FOUND" : ValueFor(i, 20), Get(Key(i)));
  }
  // Without reuse_logs the replayed data moved to a table and the old log
  // was retired.
  EXPECT_GE(TotalTableFiles(), 1);
  const std::vector<uint64_t> new_logs = FileNumbers(kLogFile);
  ASSERT_EQ(1u, new_logs.size());
  EXPECT_GT(new_logs[0], logs[0]);
}

TEST_P(RecoveryTest, CrashWithoutCloseLosesNothingWritten) {
  Open();
  for (int i = 0; i < 300; i++) ASSERT_OK(Put(Key(i), ValueFor(i)));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  for (int i = 200; i < 600; i++) ASSERT_OK(Put(Key(i), ValueFor(i + 1)));
  WriteOptions sync;
  sync.sync = true;
  ASSERT_OK(db_->Put(sync, "synced", "yes"));

  // A crash leaves exactly the files as they are now; the live DB is never
  // closed before the copy is taken.
  const std::string copy = dbname_ + "_crash";
  test::RemoveDirRecursively(env_, copy);
  ASSERT_OK(env_->CreateDir(copy));
  for (const std::string& child : Children(dbname_)) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type) || type == kDBLockFile ||
        type == kInfoLogFile) {
      continue;
    }
    std::string contents;
    ASSERT_OK(ReadFileToString(env_, dbname_ + "/" + child, &contents));
    ASSERT_OK(WriteStringToFile(env_, contents, copy + "/" + child));
  }

  DB* recovered = nullptr;
  Options o = DefaultOptions();
  o.create_if_missing = false;
  ASSERT_OK(DB::Open(o, copy, &recovered));
  for (int i = 0; i < 600; i++) {
    std::string v;
    ASSERT_OK(recovered->Get(ReadOptions(), Key(i), &v));
    ASSERT_EQ(i < 200 ? ValueFor(i) : ValueFor(i + 1), v);
  }
  std::string v;
  ASSERT_OK(recovered->Get(ReadOptions(), "synced", &v));
  EXPECT_EQ("yes", v);
  delete recovered;
  ASSERT_OK(DestroyDB(copy, o));
  test::RemoveDirRecursively(env_, copy);
}

TEST_P(RecoveryTest, ReplaysSeveralLogsInOrder) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("b", "1"));
  ASSERT_OK(Put("c", "1"));  // last sequence is now 3
  Close();
  const std::vector<uint64_t> logs = FileNumbers(kLogFile);
  ASSERT_EQ(1u, logs.size());
  const uint64_t base = logs[0];

  // Two more logs, as if the DB had switched memtables before crashing.
  WriteBatch first;
  first.Put("a", "2");
  first.Put("d", "2");
  WriteLogFile(base + 1, 4, &first);
  WriteBatch second;
  second.Put("a", "3");
  second.Delete("c");
  WriteLogFile(base + 2, 6, &second);

  Open();
  EXPECT_EQ("3", Get("a"));
  EXPECT_EQ("1", Get("b"));
  EXPECT_EQ("NOT_FOUND", Get("c"));
  EXPECT_EQ("2", Get("d"));
  // File numbers and sequence numbers continue after the replayed logs.
  for (uint64_t n : FileNumbers(kLogFile)) EXPECT_GT(n, base + 2);
  ASSERT_OK(Put("a", "4"));
  ASSERT_OK(Put("c", "4"));
  Close();
  Open();
  EXPECT_EQ("4", Get("a"));
  EXPECT_EQ("4", Get("c"));
  EXPECT_EQ("2", Get("d"));
}

TEST_P(RecoveryTest, LargeLogIsFlushedInPiecesDuringReplay) {
  Open();  // 4 MiB write buffer: everything stays in the log
  for (int i = 0; i < 3000; i++) ASSERT_OK(Put(Key(i), ValueFor(i, 300)));
  EXPECT_EQ(0, TotalTableFiles());
  Close();

  Options small = DefaultOptions();
  small.write_buffer_size = 64 << 10;
  Open(small);
  // ~1 MB of log with a 64 KiB buffer: many tables during recovery.
  EXPECT_GE(TotalTableFiles(), 5);
  for (int i = 0; i < 3000; i++) ASSERT_EQ(ValueFor(i, 300), Get(Key(i)));
}

// ---------------------------------------------------------------------------
// reuse_logs

TEST_P(RecoveryTest, ReuseLogsKeepsAppendingToTheLastLog) {
  Options o = DefaultOptions();
  o.reuse_logs = true;
  Open(o);
  std::vector<uint64_t> logs;
  ASSERT_NO_FATAL_FAILURE(PutHundredAndClose(&logs));
  const uint64_t size_before = FileSize(LogFileName(dbname_, logs[0]));

  Open(o);
  EXPECT_EQ(logs, FileNumbers(kLogFile));
  EXPECT_EQ(0, TotalTableFiles());
  for (int i = 100; i < 200; i++) ASSERT_OK(Put(Key(i), ValueFor(i)));
  Close();
  EXPECT_EQ(logs, FileNumbers(kLogFile));
  EXPECT_GT(FileSize(LogFileName(dbname_, logs[0])), size_before);

  Open(o);
  for (int i = 0; i < 200; i++) ASSERT_EQ(ValueFor(i), Get(Key(i)));
  EXPECT_EQ(0, TotalTableFiles());
  Close();

  // Turning reuse off moves the data into a table and starts a new log.
  Open();
  EXPECT_GE(TotalTableFiles(), 1);
  const std::vector<uint64_t> after = FileNumbers(kLogFile);
  ASSERT_EQ(1u, after.size());
  EXPECT_GT(after[0], logs[0]);
  for (int i = 0; i < 200; i++) ASSERT_EQ(ValueFor(i), Get(Key(i)));
}

TEST_P(RecoveryTest, ReuseLogsNotForALogThatNeededFlushing) {
  Open();
  for (int i = 0; i < 2000; i++) ASSERT_OK(Put(Key(i), ValueFor(i, 200)));
  Close();
  const std::vector<uint64_t> logs = FileNumbers(kLogFile);
  ASSERT_EQ(1u, logs.size());

  Options o = DefaultOptions();
  o.reuse_logs = true;
  o.write_buffer_size = 64 << 10;  // the log no longer fits one memtable
  Open(o);
  EXPECT_GE(TotalTableFiles(), 1);
  const std::vector<uint64_t> after = FileNumbers(kLogFile);
  ASSERT_EQ(1u, after.size());
  EXPECT_NE(logs[0], after[0]);
  for (int i = 0; i < 2000; i++) ASSERT_EQ(ValueFor(i, 200), Get(Key(i)));
}

// A log whose tail was torn (a record cut short) must not be appended to:
// the next recovery would drop the new records with the torn one.
TEST_P(RecoveryTest, ReuseLogsStartsANewLogAfterATornTail) {
  for (bool paranoid : {false, true}) {
    SCOPED_TRACE(paranoid ? "paranoid" : "not paranoid");
    Close();
    DestroyDB(dbname_, DefaultOptions());
    Options o = DefaultOptions();
    o.reuse_logs = true;
    o.paranoid_checks = paranoid;
    Open(o);
    std::vector<uint64_t> logs;
    ASSERT_NO_FATAL_FAILURE(PutHundredAndClose(&logs));
    const std::string log = LogFileName(dbname_, logs[0]);
    TruncateFile(log, FileSize(log) - 5);

    Open(o);
    EXPECT_NE(logs, FileNumbers(kLogFile));
    for (int i = 100; i < 200; i++) ASSERT_OK(Put(Key(i), ValueFor(i)));
    Close();
    Open(o);
    for (int i = 0; i < 99; i++) ASSERT_EQ(ValueFor(i), Get(Key(i)));
    EXPECT_EQ("NOT_FOUND", Get(Key(99)));  // the torn write itself
    for (int i = 100; i < 200; i++) ASSERT_EQ(ValueFor(i), Get(Key(i))) << i;
  }
}

// The same for the MANIFEST, which reuse_logs also keeps appending to: an
// edit cut short by a crash must not have later edits written after it.
TEST_P(RecoveryTest, ReuseLogsStartsANewManifestAfterATornTail) {
  Options o = DefaultOptions();
  o.reuse_logs = true;
  Open(o);
  for (int i = 0; i < 100; i++) ASSERT_OK(Put(Key(i), ValueFor(i)));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  Close();
  std::string current;
  ASSERT_OK(ReadFileToString(env_, CurrentFileName(dbname_), &current));
  ASSERT_FALSE(current.empty());
  const std::string manifest =
      dbname_ + "/" + current.substr(0, current.size() - 1);
  std::string contents;
  ASSERT_OK(ReadFileToString(env_, manifest, &contents));
  // A record header promising 80 bytes, of which 5 were written.
  contents.append(
      "\x11\x22\x33\x44\x50\x00\x01"
      "abcde",
      12);
  ASSERT_OK(WriteStringToFile(env_, contents, manifest));

  Open(o);
  for (int i = 100; i < 200; i++) ASSERT_OK(Put(Key(i), ValueFor(i)));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());  // an edit after the tear
  Close();
  Open(o);
  for (int i = 0; i < 200; i++) ASSERT_EQ(ValueFor(i), Get(Key(i))) << i;
}

// ---------------------------------------------------------------------------
// Damaged logs

TEST_P(RecoveryTest, TruncatedLogTailLosesOnlyTheLastWrite) {
  for (bool paranoid : {true, false}) {
    SCOPED_TRACE(paranoid ? "paranoid" : "not paranoid");
    Close();
    DestroyDB(dbname_, DefaultOptions());
    Open();
    std::vector<uint64_t> logs;
    ASSERT_NO_FATAL_FAILURE(PutHundredAndClose(&logs));
    const std::string log = LogFileName(dbname_, logs[0]);
    TruncateFile(log, FileSize(log) - 5);

    Options o = DefaultOptions();
    o.paranoid_checks = paranoid;
    // A torn final record is what a crash mid-write leaves: not an error.
    Open(o);
    for (int i = 0; i < 99; i++) ASSERT_EQ(ValueFor(i), Get(Key(i)));
    EXPECT_EQ("NOT_FOUND", Get(Key(99)));
    ASSERT_OK(Put(Key(99), "rewritten"));
    Close();
    Open(o);
    EXPECT_EQ("rewritten", Get(Key(99)));
    EXPECT_EQ(ValueFor(98), Get(Key(98)));
  }
}

TEST_P(RecoveryTest, FlippedBitsInLog) {
  Open();
  constexpr int kRecords = 300;  // ~1 KiB each: about nine 32 KiB blocks
  for (int i = 0; i < kRecords; i++) {
    ASSERT_OK(Put(Key(i), ValueFor(i, 1000)));
  }
  Close();
  const std::vector<uint64_t> logs = FileNumbers(kLogFile);
  ASSERT_EQ(1u, logs.size());
  const std::string log = LogFileName(dbname_, logs[0]);
  const std::string pristine_log = [&] {
    std::string c;
    EXPECT_TRUE(ReadFileToString(env_, log, &c).ok());
    return c;
  }();
  CorruptFile(log, 4 * 32768 + 5000, 3);

  // Paranoid: refuse to open, and leave the files alone.
  Options paranoid = DefaultOptions();
  paranoid.paranoid_checks = true;
  Status s = TryOpen(paranoid);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(nullptr, db_);
  EXPECT_EQ(logs, FileNumbers(kLogFile));
  EXPECT_EQ(pristine_log.size(), FileSize(log));

  // Not paranoid: open, dropping only what the damaged block held.
  Options lenient = DefaultOptions();
  lenient.paranoid_checks = false;
  Open(lenient);
  int missing = 0;
  ASSERT_NO_FATAL_FAILURE(CountMissing(kRecords, 1000, &missing));
  EXPECT_GE(missing, 1);
  EXPECT_LE(missing, 40);  // about one block's worth of records
  for (int i = 0; i < 100; i++) ASSERT_EQ(ValueFor(i, 1000), Get(Key(i)));
  for (int i = kRecords - 100; i < kRecords; i++) {
    ASSERT_EQ(ValueFor(i, 1000), Get(Key(i)));
  }
  // The drop is reported in the info log.
  const std::string info = InfoLogContents();
  EXPECT_NE(std::string::npos, info.find("(ignoring error)")) << info;
}

// ---------------------------------------------------------------------------
// RepairDB

TEST_P(RecoveryTest, RepairRecoversEverythingAfterLosingTheManifest) {
  Open();
  for (int i = 0; i < 200; i++) ASSERT_OK(Put(Key(i), ValueFor(i)));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  db_->CompactRange(nullptr, nullptr);
  for (int i = 100; i < 300; i++) ASSERT_OK(Put(Key(i), ValueFor(i + 1000)));
  ASSERT_OK(dbfull()->TEST_CompactMemTable());
  // Only in the log: deletions of values that live in tables, new keys.
  for (int i = 0; i < 50; i++) ASSERT_OK(db_->Delete(WriteOptions(), Key(i)));
  for (int i = 300; i < 350; i++) ASSERT_OK(Put(Key(i), ValueFor(i)));
  Close();

  for (uint64_t n : FileNumbers(kDescriptorFile)) {
    ASSERT_OK(env_->RemoveFile(DescriptorFileName(dbname_, n)));
  }
  ASSERT_OK(env_->RemoveFile(CurrentFileName(dbname_)));
  Options no_create = DefaultOptions();
  no_create.create_if_missing = false;
  EXPECT_FALSE(TryOpen(no_create).ok());

  ASSERT_OK(RepairDB(dbname_, DefaultOptions()));
  EXPECT_TRUE(FileNumbers(kLogFile).empty());  // converted and archived
  EXPECT_FALSE(Children(dbname_ + "/lost").empty());

  Open(no_create);
  for (int i = 0; i < 350; i++) {
    std::string expected;
    if (i < 50) {
      expected = "NOT_FOUND";
    } else if (i < 100) {
      expected = ValueFor(i);
    } else if (i < 300) {
      expected = ValueFor(i + 1000);
    } else {
      expected = ValueFor(i);
    }
    ASSERT_EQ(expected, Get(Key(i))) << i;
  }
  // New writes get sequence numbers above everything recovered.
  ASSERT_OK(Put(Key(150), "after-repair"));
  ASSERT_OK(Put(Key(10), "resurrected"));
  db_->CompactRange(nullptr, nullptr);
  Close();
  Open(no_create);
  EXPECT_EQ("after-repair", Get(Key(150)));
  EXPECT_EQ("resurrected", Get(Key(10)));
  EXPECT_EQ("NOT_FOUND", Get(Key(11)));
}

class RepairCorruptTableTest : public RecoveryTest {
 protected:
  // Two tables: keys 0..199 in the older one, 1000..1199 in the newer.
  void BuildTwoTables() {
    Options o = DefaultOptions();
    o.block_size = 1024;
    o.compression = kNoCompression;
    Open(o);
    for (int i = 0; i < 200; i++) ASSERT_OK(Put(Key(i), ValueFor(i)));
    ASSERT_OK(dbfull()->TEST_CompactMemTable());
    for (int i = 1000; i < 1200; i++) ASSERT_OK(Put(Key(i), ValueFor(i)));
    ASSERT_OK(dbfull()->TEST_CompactMemTable());
    Close();
    tables_ = FileNumbers(kTableFile);
    ASSERT_EQ(2u, tables_.size());
  }

  void CheckSecondTableIntact() {
    for (int i = 1000; i < 1200; i++) ASSERT_EQ(ValueFor(i), Get(Key(i)));
  }

  std::vector<uint64_t> tables_;
};

TEST_P(RepairCorruptTableTest, UnreadableTableIsMovedToLost) {
  BuildTwoTables();
  const std::string victim = TableFileName(dbname_, tables_[0]);
  TruncateFile(victim, 10);  // no footer left

  ASSERT_OK(RepairDB(dbname_, DefaultOptions()));
  EXPECT_FALSE(env_->FileExists(victim));
  const std::vector<std::string> lost = Children(dbname_ + "/lost");
  const std::string victim_base = victim.substr(victim.rfind('/') + 1);
  EXPECT_NE(lost.end(), std::find(lost.begin(), lost.end(), victim_base));

  Options o = DefaultOptions();
  o.create_if_missing = false;
  Open(o);
  CheckSecondTableIntact();
  for (int i = 0; i < 200; i++) ASSERT_EQ("NOT_FOUND", Get(Key(i)));
}

TEST_P(RepairCorruptTableTest, DamagedBlockIsLeftOutAndTheRestSalvaged) {
  BuildTwoTables();
  const std::string victim = TableFileName(dbname_, tables_[0]);
  CorruptFile(victim, FileSize(victim) / 3, 16);

  ASSERT_OK(RepairDB(dbname_, DefaultOptions()));
  Options o = DefaultOptions();
  o.create_if_missing = false;
  o.paranoid_checks = true;
  Open(o);
  CheckSecondTableIntact();
  int missing = 0;
  ASSERT_NO_FATAL_FAILURE(CountMissing(200, 100, &missing));
  EXPECT_GE(missing, 1);
  EXPECT_LE(missing, 30);  // a block or two of ~8 entries each
  // Everything that remains reads cleanly, checksums included.
  ReadOptions verify;
  verify.verify_checksums = true;
  std::unique_ptr<Iterator> it(db_->NewIterator(verify));
  int count = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) count++;
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  EXPECT_EQ(400 - missing, count);
}

TEST_P(RecoveryTest, RepairOfMissingDirectoryFails) {
  Status s = RepairDB(dbname_ + "/does-not-exist", DefaultOptions());
  EXPECT_FALSE(s.ok());
}

INSTANTIATE_TEST_SUITE_P(Envs, RecoveryTest,
                         testing::Values(EnvKind::kDefault, EnvKind::kMemory),
                         EnvKindName);
INSTANTIATE_TEST_SUITE_P(Envs, RepairCorruptTableTest,
                         testing::Values(EnvKind::kDefault, EnvKind::kMemory),
                         EnvKindName);

}  // namespace
}  // namespace leveldb
