#include "db/filename.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/env.h"

namespace leveldb {
namespace {

struct ParseCase {
  const char* name;
  uint64_t number;
  FileType type;
};

TEST(FileNameTest, ParsesDatabaseFiles) {
  const ParseCase cases[] = {
      {"100.log", 100, kLogFile},
      {"0.log", 0, kLogFile},
      {"000123.log", 123, kLogFile},
      {"0.sst", 0, kTableFile},
      {"0.ldb", 0, kTableFile},
      {"000456.ldb", 456, kTableFile},
      {"CURRENT", 0, kCurrentFile},
      {"LOCK", 0, kDBLockFile},
      {"MANIFEST-2", 2, kDescriptorFile},
      {"MANIFEST-000007", 7, kDescriptorFile},
      {"LOG", 0, kInfoLogFile},
      {"LOG.old", 0, kInfoLogFile},
      {"100.dbtmp", 100, kTempFile},
      {"18446744073709551615.log", 18446744073709551615ull, kLogFile},
      {"MANIFEST-18446744073709551615", 18446744073709551615ull,
       kDescriptorFile},
  };
  for (const ParseCase& c : cases) {
    uint64_t number = 999;
    FileType type = kTempFile;
    ASSERT_TRUE(ParseFileName(c.name, &number, &type)) << c.name;
    EXPECT_EQ(c.number, number) << c.name;
    EXPECT_EQ(c.type, type) << c.name;
  }
}

TEST(FileNameTest, RejectsOtherNames) {
  const char* const bad[] = {
      "",
      "foo",
      "foo-dx-100.log",
      ".log",
      "manifest",
      "CURREN",
      "CURRENTX",
      "current",
      "MANIFES",
      "MANIFEST",
      "MANIFEST-",
      "XMANIFEST-3",
      "MANIFEST-3x",
      "MANIFEST-3.log",
      "MANIFEST--3",
      "LOC",
      "LOCKx",
      "LO",
      "LOGx",
      "LOG.old2",
      "LOG.",
      "18446744073709551616.log",
      "184467440737095516150.log",
      "MANIFEST-18446744073709551616",
      "100",
      "100.",
      "100.lop",
      "100.logx",
      "100.dbtmpX",
      "100.sst.ldb",
      "-1.log",
      " 100.log",
      "100.log ",
      "0x10.log",
      "100/log",
  };
  for (const char* name : bad) {
    uint64_t number = 12345;
    FileType type = kTempFile;
    EXPECT_FALSE(ParseFileName(name, &number, &type)) << "'" << name << "'";
  }
}

// Strips "dbname/" and parses the rest.
void ExpectNamed(const std::string& full, const std::string& dbname,
                 uint64_t number, FileType type) {
  ASSERT_EQ(dbname + "/", full.substr(0, dbname.size() + 1)) << full;
  uint64_t parsed_number = 0;
  FileType parsed_type = kTempFile;
  ASSERT_TRUE(ParseFileName(full.substr(dbname.size() + 1), &parsed_number,
                            &parsed_type))
      << full;
  EXPECT_EQ(number, parsed_number) << full;
  EXPECT_EQ(type, parsed_type) << full;
}

TEST(FileNameTest, Construction) {
  EXPECT_EQ("foo/000192.log", LogFileName("foo", 192));
  EXPECT_EQ("foo/000200.ldb", TableFileName("foo", 200));
  EXPECT_EQ("foo/000200.sst", SSTTableFileName("foo", 200));
  EXPECT_EQ("foo/MANIFEST-000005", DescriptorFileName("foo", 5));
  EXPECT_EQ("foo/CURRENT", CurrentFileName("foo"));
  EXPECT_EQ("foo/LOCK", LockFileName("foo"));
  EXPECT_EQ("foo/000999.dbtmp", TempFileName("foo", 999));
  EXPECT_EQ("foo/LOG", InfoLogFileName("foo"));
  EXPECT_EQ("foo/LOG.old", OldInfoLogFileName("foo"));
  // More than six digits are printed in full.
  EXPECT_EQ("/tmp/db/1234567.ldb", TableFileName("/tmp/db", 1234567));
  EXPECT_EQ("x/MANIFEST-18446744073709551615",
            DescriptorFileName("x", 18446744073709551615ull));
  EXPECT_EQ("x/000000.log", LogFileName("x", 0));

  const uint64_t numbers[] = {0,      1,       99,
                              123456, 1234567, 18446744073709551615ull};
  for (uint64_t n : numbers) {
    ExpectNamed(LogFileName("db", n), "db", n, kLogFile);
    ExpectNamed(TableFileName("db", n), "db", n, kTableFile);
    ExpectNamed(SSTTableFileName("db", n), "db", n, kTableFile);
    ExpectNamed(DescriptorFileName("db", n), "db", n, kDescriptorFile);
    ExpectNamed(TempFileName("db", n), "db", n, kTempFile);
  }
  ExpectNamed(CurrentFileName("db"), "db", 0, kCurrentFile);
  ExpectNamed(LockFileName("db"), "db", 0, kDBLockFile);
  ExpectNamed(InfoLogFileName("db"), "db", 0, kInfoLogFile);
  ExpectNamed(OldInfoLogFileName("db"), "db", 0, kInfoLogFile);
}

// A minimal in-memory Env: enough for SetCurrentFile, with injectable
// failures.
class FakeEnv : public Env {
 public:
  class File : public WritableFile {
   public:
    File(FakeEnv* env, std::string name) : env_(env), name_(std::move(name)) {}
    Status Append(const Slice& data) override {
      if (env_->fail_append) return Status::IOError(name_, "append failed");
      env_->files[name_].append(data.data(), data.size());
      return Status::OK();
    }
    Status Close() override { return Status::OK(); }
    Status Flush() override { return Status::OK(); }
    Status Sync() override {
      ++env_->syncs;
      return Status::OK();
    }

   private:
    FakeEnv* env_;
    std::string name_;
  };

  Status NewSequentialFile(const std::string& f, SequentialFile**) override {
    return Status::NotSupported(f);
  }
  Status NewRandomAccessFile(const std::string& f,
                             RandomAccessFile**) override {
    return Status::NotSupported(f);
  }
  Status NewWritableFile(const std::string& f, WritableFile** r) override {
    files[f].clear();
    *r = new File(this, f);
    return Status::OK();
  }
  bool FileExists(const std::string& f) override { return files.count(f) > 0; }
  Status GetChildren(const std::string&, std::vector<std::string>*) override {
    return Status::NotSupported("GetChildren");
  }
  Status RemoveFile(const std::string& f) override {
    if (files.erase(f) == 0) return Status::NotFound(f);
    return Status::OK();
  }
  Status CreateDir(const std::string&) override { return Status::OK(); }
  Status GetFileSize(const std::string& f, uint64_t* size) override {
    auto it = files.find(f);
    if (it == files.end()) return Status::NotFound(f);
    *size = it->second.size();
    return Status::OK();
  }
  Status RenameFile(const std::string& src, const std::string& dst) override {
    if (fail_rename) return Status::IOError(src, "rename failed");
    auto it = files.find(src);
    if (it == files.end()) return Status::NotFound(src);
    files[dst] = it->second;
    files.erase(src);
    return Status::OK();
  }
  Status LockFile(const std::string& f, FileLock**) override {
    return Status::NotSupported(f);
  }
  Status UnlockFile(FileLock*) override {
    return Status::NotSupported("UnlockFile");
  }
  void Schedule(void (*)(void*), void*) override {}
  void StartThread(void (*)(void*), void*) override {}
  Status GetTestDirectory(std::string*) override {
    return Status::NotSupported("GetTestDirectory");
  }
  Status NewLogger(const std::string& f, Logger**) override {
    return Status::NotSupported(f);
  }
  uint64_t NowMicros() override { return 0; }
  void SleepForMicroseconds(int) override {}

  std::map<std::string, std::string> files;
  bool fail_append = false;
  bool fail_rename = false;
  int syncs = 0;
};

TEST(FileNameTest, SetCurrentFileWritesManifestName) {
  FakeEnv env;
  ASSERT_TRUE(SetCurrentFile(&env, "db", 5).ok());
  ASSERT_EQ(1u, env.files.size());
  EXPECT_EQ("MANIFEST-000005\n", env.files["db/CURRENT"]);
  EXPECT_GE(env.syncs, 1);  // durable before it becomes visible

  ASSERT_TRUE(SetCurrentFile(&env, "db", 1234567).ok());
  EXPECT_EQ("MANIFEST-1234567\n", env.files["db/CURRENT"]);
  EXPECT_EQ(1u, env.files.size());  // no temp file left behind
}

TEST(FileNameTest, SetCurrentFileRenameFailure) {
  FakeEnv env;
  ASSERT_TRUE(SetCurrentFile(&env, "db", 3).ok());
  env.fail_rename = true;
  const Status s = SetCurrentFile(&env, "db", 4);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  // CURRENT still names the old manifest and the temp file is gone.
  EXPECT_EQ("MANIFEST-000003\n", env.files["db/CURRENT"]);
  EXPECT_EQ(0u, env.files.count(TempFileName("db", 4)));
  EXPECT_EQ(1u, env.files.size());
}

TEST(FileNameTest, SetCurrentFileWriteFailure) {
  FakeEnv env;
  env.fail_append = true;
  const Status s = SetCurrentFile(&env, "db", 9);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(0u, env.files.count("db/CURRENT"));
  EXPECT_EQ(0u, env.files.count(TempFileName("db", 9)));
}

}  // namespace
}  // namespace leveldb
