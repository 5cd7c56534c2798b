// DumpFile: hand-made log, descriptor and table files are rendered as the
// expected text, a real database's files can be dumped, and names that are
// not database files are rejected.
#include "leveldb/dumpfile.h"

#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/log_writer.h"
#include "db/version_edit.h"
#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"
#include "leveldb/write_batch.h"
#include "tests/db_test_helpers.h"
#include "tests/test_util.h"

namespace leveldb {
namespace {

// Collects everything DumpFile writes.
class StringSink : public WritableFile {
 public:
  Status Append(const Slice& data) override {
    contents_.append(data.data(), data.size());
    appends_++;
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }

  const std::string& contents() const { return contents_; }
  int appends() const { return appends_; }

 private:
  std::string contents_;
  int appends_ = 0;
};

// dbname_ holds hand-made files, and a real database in one test.
class DumpFileTest : public test::DBTestBase<testing::Test> {
 protected:
  DumpFileTest() : DBTestBase("dumpfile"), dir_(dbname_) {}

  // Writes the given records to `name` in the log format.
  void WriteLogFile(const std::string& name,
                    const std::vector<std::string>& records) {
    WritableFile* file;
    ASSERT_TRUE(env_->NewWritableFile(dir_ + "/" + name, &file).ok());
    {
      log::Writer writer(file);
      for (const std::string& record : records) {
        ASSERT_TRUE(writer.AddRecord(record).ok());
      }
    }
    ASSERT_TRUE(file->Close().ok());
    delete file;
  }

  std::string Dump(const std::string& name, Status* status) {
    StringSink sink;
    *status = DumpFile(env_, dir_ + "/" + name, &sink);
    return sink.contents();
  }

  std::string DumpOk(const std::string& name) {
    Status s;
    std::string out = Dump(name, &s);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return out;
  }

  // Names of the files of `type` in the directory.
  std::vector<std::string> FilesOfType(FileType wanted) {
    std::vector<std::pair<uint64_t, std::string>> files;
    EXPECT_TRUE(test::ListFilesOfType(env_, dir_, wanted, &files).ok());
    std::vector<std::string> result;
    for (const auto& file : files) result.push_back(file.second);
    return result;
  }

  const std::string dir_;
};

std::string EncodedBatch(SequenceNumber seq, const WriteBatch& batch) {
  WriteBatch copy = batch;
  WriteBatchInternal::SetSequence(&copy, seq);
  return WriteBatchInternal::Contents(&copy).ToString();
}

TEST_F(DumpFileTest, LogRecordsPrintedAsBatches) {
  WriteBatch first;
  first.Put("k1", "v1");
  first.Delete("k2");
  WriteBatch second;
  second.Put(Slice("\x01key", 4), "value\n");
  WriteLogFile("000005.log",
               {EncodedBatch(100, first), EncodedBatch(102, second), "tiny"});

  const std::string out = DumpOk("000005.log");
  EXPECT_EQ(0u, out.find("--- offset 0; sequence 100; count 2\n"
                         "  put 'k1' 'v1'\n"
                         "  del 'k2'\n"))
      << out;
  EXPECT_NE(std::string::npos, out.find("; sequence 102; count 1\n"
                                        "  put '\\x01key' 'value\\x0a'\n"))
      << out;
  // The 4-byte record cannot hold a batch header.
  EXPECT_NE(std::string::npos, out.find("corrupt")) << out;
}

TEST_F(DumpFileTest, BatchWithBadRecordShowsError) {
  // A header claiming one record, followed by an unknown tag.
  WriteBatch empty;
  std::string record = EncodedBatch(7, empty);
  record[8] = 1;  // count = 1
  record.push_back('\x09');
  WriteLogFile("000006.log", {record});
  const std::string out = DumpOk("000006.log");
  EXPECT_NE(std::string::npos, out.find("sequence 7; count 1\n")) << out;
  EXPECT_NE(std::string::npos, out.find("  error: ")) << out;
}

TEST_F(DumpFileTest, DescriptorRecordsPrintedAsEdits) {
  VersionEdit edit;
  edit.SetComparatorName("leveldb.BytewiseComparator");
  edit.SetLogNumber(12);
  edit.SetNextFile(13);
  edit.SetLastSequence(99);
  edit.AddFile(1, 8, 4096, InternalKey("apple", 5, kTypeValue),
               InternalKey("melon", 9, kTypeDeletion));
  std::string encoded;
  edit.EncodeTo(&encoded);
  WriteLogFile("MANIFEST-000004", {encoded, "\x7f garbage"});

  const std::string out = DumpOk("MANIFEST-000004");
  EXPECT_EQ(0u, out.find("--- offset 0\n" + edit.DebugString())) << out;
  EXPECT_NE(std::string::npos, out.find("leveldb.BytewiseComparator")) << out;
  // The second record does not decode: reported inline, dump still OK.
  EXPECT_NE(std::string::npos, out.find("  error: Corruption")) << out;
}

TEST_F(DumpFileTest, TableEntriesPrintedWithParsedKeys) {
  WritableFile* file;
  ASSERT_TRUE(env_->NewWritableFile(dir_ + "/000009.ldb", &file).ok());
  Options options;
  options.compression = kNoCompression;
  TableBuilder builder(options, file);
  std::string put_key;
  AppendInternalKey(&put_key, ParsedInternalKey("a", 5, kTypeValue));
  std::string del_key;
  AppendInternalKey(&del_key, ParsedInternalKey("b", 4, kTypeDeletion));
  builder.Add(put_key, "va");
  builder.Add(del_key, "");
  builder.Add("zz", "orphan");  // too short to be an internal key
  ASSERT_TRUE(builder.Finish().ok());
  ASSERT_TRUE(file->Close().ok());
  delete file;

  StringSink sink;
  Status s = DumpFile(env_, dir_ + "/000009.ldb", &sink);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(
      "'a' @ 5 : put => 'va'\n"
      "'b' @ 4 : del\n"
      "badkey 7a7a => 'orphan'\n",
      sink.contents());
  EXPECT_EQ(3, sink.appends());  // one Append per line
}

TEST_F(DumpFileTest, CorruptTableIsAnError) {
  ASSERT_TRUE(
      WriteStringToFile(env_, std::string(100, 'x'), dir_ + "/000010.sst")
          .ok());
  Status s;
  Dump("000010.sst", &s);
  EXPECT_FALSE(s.ok());
}

TEST_F(DumpFileTest, UnknownFilesRejected) {
  ASSERT_TRUE(WriteStringToFile(env_, "hello", dir_ + "/notes.txt").ok());
  ASSERT_TRUE(
      WriteStringToFile(env_, "MANIFEST-000001\n", dir_ + "/CURRENT").ok());
  for (const char* name : {"notes.txt", "CURRENT", "LOCK", "LOG"}) {
    Status s;
    const std::string out = Dump(name, &s);
    EXPECT_TRUE(s.IsInvalidArgument()) << name << ": " << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(name)) << s.ToString();
    EXPECT_TRUE(out.empty());
  }
}

TEST_F(DumpFileTest, MissingFileIsAnError) {
  Status s;
  Dump("000077.log", &s);
  EXPECT_FALSE(s.ok());
  Dump("000078.ldb", &s);
  EXPECT_FALSE(s.ok());
}

TEST_F(DumpFileTest, RealDatabaseFiles) {
  ASSERT_NO_FATAL_FAILURE(Open());
  ASSERT_TRUE(Put("alpha", "one").ok());
  ASSERT_TRUE(Put("beta", "two").ok());
  ASSERT_TRUE(Delete("gamma").ok());
  Close();

  // The writes are still only in the log.
  std::vector<std::string> logs = FilesOfType(kLogFile);
  ASSERT_FALSE(logs.empty());
  std::string log_text;
  for (const std::string& log : logs) log_text += DumpOk(log);
  EXPECT_NE(std::string::npos, log_text.find("  put 'alpha' 'one'\n"))
      << log_text;
  EXPECT_NE(std::string::npos, log_text.find("  put 'beta' 'two'\n"));
  EXPECT_NE(std::string::npos, log_text.find("  del 'gamma'\n"));
  EXPECT_NE(std::string::npos, log_text.find("sequence 1;")) << log_text;

  std::vector<std::string> manifests = FilesOfType(kDescriptorFile);
  ASSERT_FALSE(manifests.empty());
  const std::string manifest_text = DumpOk(manifests[0]);
  EXPECT_NE(std::string::npos, manifest_text.find("leveldb.BytewiseComparator"))
      << manifest_text;

  // Move everything into tables.
  ASSERT_NO_FATAL_FAILURE(Open());
  db_->CompactRange(nullptr, nullptr);
  Close();
  std::vector<std::string> tables = FilesOfType(kTableFile);
  ASSERT_FALSE(tables.empty());
  std::string table_text;
  for (const std::string& table : tables) table_text += DumpOk(table);
  EXPECT_NE(std::string::npos, table_text.find("'alpha' @ ")) << table_text;
  EXPECT_NE(std::string::npos, table_text.find(" : put => 'one'\n"));
  EXPECT_NE(std::string::npos, table_text.find("'beta' @ "));
}

}  // namespace
}  // namespace leveldb
