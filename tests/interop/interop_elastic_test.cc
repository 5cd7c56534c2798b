// Handing an ElasticBF database back to stock LevelDB 1.23. The fork writes
// a database whose MANIFEST records segment hotness (tags stock LevelDB
// does not know); Debian's LevelDB refuses it as corrupt; after
// `leveldbutil strip-elastic` or StripElasticMetadata() it opens it and
// reads every key, and so does the fork.
//
// The LEVELDB_ELASTICBF switch in a binary built against Debian's LevelDB
// and run on the fork's shared library: ElasticBF is on, and by default the
// database stays one that stock LevelDB opens as it is.
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/version_edit.h"
#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "table/elastic/filter_group.h"
#include "tests/elastic_test_helpers.h"
#include "tests/interop/interop_fixture.h"
#include "tests/interop/interop_process.h"

#ifndef INTEROP_LEVELDBUTIL
#error "INTEROP_LEVELDBUTIL must name the fork's leveldbutil"
#endif
#ifndef INTEROP_FORK_LIBDIR
#error "INTEROP_FORK_LIBDIR must name the directory of the fork's .so"
#endif

namespace leveldb {
namespace {

using interop::kForkTool;
using interop::kUpstreamTool;
using interop::Quote;

const char kLevelDbUtil[] = INTEROP_LEVELDBUTIL;
const char kForkLibDir[] = INTEROP_FORK_LIBDIR;

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

  // The name and contents of every table file of the database.
  std::vector<std::pair<std::string, std::string>> TableFiles() {
    Env* env = Env::Default();
    std::vector<std::string> children;
    EXPECT_TRUE(env->GetChildren(Db(), &children).ok());
    std::vector<std::pair<std::string, std::string>> tables;
    for (const std::string& child : children) {
      uint64_t number;
      FileType type;
      std::string data;
      if (ParseFileName(child, &number, &type) && type == kTableFile &&
          ReadFileToString(env, Db() + "/" + child, &data).ok()) {
        tables.emplace_back(child, std::move(data));
      }
    }
    return tables;
  }

  // Whether some table of the database carries ElasticBF filter units.
  bool HasElasticTable() {
    for (const auto& [name, data] : TableFiles()) {
      if (data.find("elasticbf.index") != std::string::npos) return true;
    }
    return false;
  }

  // Tables whose elastic index says Ribbon units; every elastic table must
  // say so (-1 otherwise).
  int RibbonTables() {
    int ribbon = 0;
    for (const auto& [name, data] : TableFiles()) {
      ElasticIndex index;
      if (!test::ReadElasticIndexOf(data, &index).ok() ||
          index.unit_kind() != ElasticUnitKind::kRibbon) {
        return -1;
      }
      ++ribbon;
    }
    return ribbon;
  }

  // Runs the Debian-built tool's envbuild with LEVELDB_ELASTICBF=`value`,
  // on the fork's shared library or (on_fork false) on Debian's.
  std::string EnvBuild(const std::string& value, bool on_fork,
                       std::string* out) {
    std::string env = on_fork ? "LD_LIBRARY_PATH=" + Quote(kForkLibDir) + " "
                              : "-u LD_LIBRARY_PATH ";
    env += "LEVELDB_ELASTICBF=" + Quote(value) + " ";
    return Run("env",
               env + Quote(kUpstreamTool) + " envbuild " + Quote(Db()) + " " +
                   std::to_string(kKeys),
               out);
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

TEST_F(InteropElasticTest, EnvSwitchInAStockBinaryKeepsTheDatabaseStock) {
  // The loader maps the fork's library into the Debian-built tool.
  std::string trace;
  ASSERT_EQ("", Run("env",
                    "LD_TRACE_LOADED_OBJECTS=1 LD_LIBRARY_PATH=" +
                        Quote(kForkLibDir) + " " + Quote(kUpstreamTool),
                    &trace));
  ASSERT_NE(std::string::npos,
            trace.find(std::string(kForkLibDir) + "/libleveldb.so.1d"))
      << trace;

  std::string out;
  ASSERT_EQ("", EnvBuild("1", /*on_fork=*/true, &out));
  EXPECT_NE(std::string::npos, out.find("elasticbf: enabled: yes")) << out;
  EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
  EXPECT_TRUE(HasElasticTable());
  // No hotness records: Debian's LevelDB opens it as it is.
  EXPECT_EQ(0, ElasticRecords());
  ASSERT_EQ("", Verify(kUpstreamTool, &out));
  EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
  ASSERT_EQ("", Verify(kForkTool, &out));
  EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
}

TEST_F(InteropElasticTest, EnvSwitchIsIgnoredByStockLevelDB) {
  std::string out;
  ASSERT_EQ("", EnvBuild("1", /*on_fork=*/false, &out));
  EXPECT_NE(std::string::npos, out.find("elasticbf: absent")) << out;
  EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
}

TEST_F(InteropElasticTest, EnvSwitchWithInheritHotnessNeedsStripping) {
  std::string out;
  ASSERT_EQ("", EnvBuild("inherit_hotness=1", /*on_fork=*/true, &out));
  EXPECT_NE(std::string::npos, out.find("elasticbf: enabled: yes")) << out;
  ASSERT_GT(ElasticRecords(), 0);
  const std::string err = Verify(kUpstreamTool, &out);
  EXPECT_NE(std::string::npos, err.find("Corruption")) << err;
  ASSERT_EQ("", Run(kLevelDbUtil, "strip-elastic " + Quote(Db()), &out));
  ExpectBothRead();
}

// Tables with Ribbon units (elastic index version 2) are valid LevelDB 1.23
// tables: Debian's LevelDB reads every key of such a database.
TEST_F(InteropElasticTest, StockLevelDBReadsRibbonUnitTables) {
  std::string out;
  ASSERT_EQ("", Run(kForkTool,
                    "build-ribbon " + Quote(Db()) + " " + std::to_string(kKeys),
                    &out));
  EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
  EXPECT_EQ(0, ElasticRecords());
  EXPECT_GT(RibbonTables(), 0);
  ASSERT_EQ("", Verify(kUpstreamTool, &out));
  EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
  ASSERT_EQ("", Verify(kForkTool, &out));
  EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
}

// Page-aligned tables (block_alignment) are valid LevelDB 1.23 tables:
// Debian's LevelDB reads every key of such a database.
TEST_F(InteropElasticTest, StockLevelDBReadsPageAlignedTables) {
  std::string out;
  ASSERT_EQ("", EnvBuild("block_alignment=4096", /*on_fork=*/true, &out));
  EXPECT_NE(std::string::npos, out.find("elasticbf: enabled: yes")) << out;
  EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
  const InternalKeyComparator icmp(BytewiseComparator());
  int blocks = 0;
  for (const auto& [name, data] : TableFiles()) {
    for (const BlockHandle& h : test::DataBlockHandles(data, &icmp)) {
      const uint64_t end = h.offset() + h.size() + kBlockTrailerSize;
      EXPECT_EQ(h.offset() / 4096, (end - 1) / 4096) << name;
      ++blocks;
    }
  }
  EXPECT_GT(blocks, 0);
  ASSERT_EQ("", Verify(kUpstreamTool, &out));
  EXPECT_NE(std::string::npos, out.find("verified 20000 keys")) << out;
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
