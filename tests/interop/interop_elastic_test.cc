// Handing an ElasticBF database back to stock LevelDB 1.23. The fork writes
// a database whose MANIFEST records segment hotness (tags stock LevelDB
// does not know); Debian's LevelDB refuses it as corrupt; after
// `leveldbutil strip-elastic` or StripElasticMetadata() it opens it and
// reads every key, and so does the fork.
#include <string>

#include "db/filename.h"
#include "db/log_reader.h"
#include "db/version_edit.h"
#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "tests/interop/interop_fixture.h"
#include "tests/interop/interop_process.h"

#ifndef INTEROP_LEVELDBUTIL
#error "INTEROP_LEVELDBUTIL must name the fork's leveldbutil"
#endif

namespace leveldb {
namespace {

using interop::kForkTool;
using interop::kUpstreamTool;
using interop::Quote;

const char kLevelDbUtil[] = INTEROP_LEVELDBUTIL;

constexpr int kKeys = 20000;

class InteropElasticTest : public interop::ToolTest {
 protected:
  InteropElasticTest() : ToolTest("interop_elastic") {}

  std::string Verify(const std::string& tool, std::string* out) {
    return Run(tool, "verify " + Quote(Db()) + " " + std::to_string(kKeys),
               out);
  }

  // Records of the MANIFEST named by CURRENT that carry ElasticBF tags.
  int ElasticRecords() {
    Env* env = Env::Default();
    std::string current;
    EXPECT_TRUE(ReadFileToString(env, CurrentFileName(Db()), &current).ok());
    if (current.empty()) return -1;
    current.pop_back();
    SequentialFile* file = nullptr;
    EXPECT_TRUE(env->NewSequentialFile(Db() + "/" + current, &file).ok());
    if (file == nullptr) return -1;
    log::Reader reader(file, nullptr, true, 0);
    Slice record;
    std::string scratch;
    int elastic = 0;
    while (reader.ReadRecord(&record, &scratch)) {
      VersionEdit edit;
      EXPECT_TRUE(edit.DecodeFrom(record).ok());
      if (edit.HasElastic()) ++elastic;
    }
    delete file;
    return elastic;
  }

  // Fork builds; stock LevelDB refuses the MANIFEST as corrupt.
  void BuildAndExpectRejection() {
    std::string out;
    ASSERT_EQ(
        "", Run(kForkTool, "build " + Quote(Db()) + " " + std::to_string(kKeys),
                &out));
    EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
    ASSERT_GT(ElasticRecords(), 0);

    const std::string err = Verify(kUpstreamTool, &out);
    ASSERT_NE("", err) << "stock LevelDB opened the hotness MANIFEST";
    EXPECT_NE(std::string::npos, err.find("Corruption")) << err;
    // The failed open changed nothing: still the fork's MANIFEST.
    EXPECT_GT(ElasticRecords(), 0);
  }

  // After stripping, both sides read everything.
  void ExpectBothRead() {
    EXPECT_EQ(0, ElasticRecords());
    std::string out;
    ASSERT_EQ("", Verify(kUpstreamTool, &out));
    EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
    ASSERT_EQ("", Verify(kForkTool, &out));
    EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
  }
};

TEST_F(InteropElasticTest, LeveldbutilStripElasticHandsTheDatabaseBack) {
  BuildAndExpectRejection();
  std::string out;
  ASSERT_EQ("", Run(kLevelDbUtil, "strip-elastic " + Quote(Db()), &out));
  EXPECT_NE(std::string::npos, out.find("OK")) << out;
  ExpectBothRead();
}

TEST_F(InteropElasticTest, StripElasticMetadataHandsTheDatabaseBack) {
  BuildAndExpectRejection();
  std::string out;
  ASSERT_EQ("", Run(kForkTool, "strip " + Quote(Db()), &out));
  ExpectBothRead();
}

TEST_F(InteropElasticTest, LeveldbutilReportsBadArguments) {
  std::string out;
  // No such database, and a missing argument: both fail with a message.
  std::string err =
      Run(kLevelDbUtil, "strip-elastic " + Quote(dir_ + "/nothing"), &out);
  EXPECT_NE(std::string::npos, err.find("strip-elastic")) << err;
  err = Run(kLevelDbUtil, "strip-elastic", &out);
  EXPECT_NE(std::string::npos, err.find("Usage")) << err;
}

}  // namespace
}  // namespace leveldb
