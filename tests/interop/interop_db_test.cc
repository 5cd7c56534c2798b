// Database-level interop with Debian's LevelDB 1.23. The fork's and
// upstream's builds of interop_db_tool take turns on one database directory:
//
//   A builds (several levels, snappy, Bloom filters, a WAL tail)
//   B verifies  -> B mutates (puts, deletes, full compaction, a WAL tail)
//   A verifies  -> A mutates
//   B verifies
//
// once with A = upstream and once with A = the fork, so each side recovers
// logs, reads manifests and tables, and compacts files the other one wrote.
#include <cstdlib>
#include <string>

#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "tests/interop/interop_fixture.h"
#include "tests/interop/interop_process.h"

namespace leveldb {
namespace {

using interop::kForkTool;
using interop::kUpstreamTool;
using interop::Quote;

// Enough keys for memtable flushes to reach level 2 and leave files in
// level 0 or 1 as well.
constexpr int kKeys = 20000;

class InteropDbTest : public interop::ToolTest {
 protected:
  InteropDbTest() : ToolTest("interop_db") {}

  // Runs one tool command; returns "" or the failure, and its stdout.
  std::string Run(const std::string& tool, const std::string& command, int seed,
                  const std::string& extra, std::string* out) {
    return ToolTest::Run(tool,
                         command + " " + Quote(Db()) + " " +
                             std::to_string(seed) + " " +
                             std::to_string(kKeys) + extra,
                         out);
  }

  // The whole exchange, starting with `first` building the database.
  void Chain(const std::string& first, const std::string& second, int seed) {
    std::string out;
    ASSERT_EQ("", Run(first, "build", seed, "", &out));
    // The tool fails by itself below 2 levels; make sure it reported them.
    ASSERT_NE(std::string::npos, out.find("levels-with-files ")) << out;
    EXPECT_NE(std::string::npos, out.find("verified gen 0:")) << out;

    ASSERT_EQ("", Run(second, "verify", seed, " 0", &out));
    EXPECT_NE(std::string::npos, out.find("verified gen 0:")) << out;
    ASSERT_EQ("", Run(second, "mutate", seed, " 1", &out));
    EXPECT_NE(std::string::npos, out.find("after full compaction")) << out;

    ASSERT_EQ("", Run(first, "verify", seed, " 1", &out));
    EXPECT_NE(std::string::npos, out.find("verified gen 1:")) << out;
    ASSERT_EQ("", Run(first, "mutate", seed, " 2", &out));

    ASSERT_EQ("", Run(second, "verify", seed, " 2", &out));
    EXPECT_NE(std::string::npos, out.find("verified gen 2:")) << out;
  }
};

TEST_F(InteropDbTest, UpstreamFirst) { Chain(kUpstreamTool, kForkTool, 1201); }

TEST_F(InteropDbTest, ForkFirst) { Chain(kForkTool, kUpstreamTool, 3407); }

// The verifier must be able to fail: a state from another generation or
// another seed is reported, by both builds, with the key that differs.
using InteropDbVerifierTest = InteropDbTest;

TEST_F(InteropDbVerifierTest, RejectsWrongGenerationAndSeed) {
  std::string out;
  ASSERT_EQ("", Run(kForkTool, "build", 5, "", &out));
  for (const char* tool : {kForkTool, kUpstreamTool}) {
    SCOPED_TRACE(tool);
    std::string err = Run(tool, "verify", 5, " 1", &out);
    EXPECT_NE(std::string::npos, err.find("expected")) << err;
    err = Run(tool, "verify", 6, " 0", &out);
    EXPECT_NE(std::string::npos, err.find("expected")) << err;
    EXPECT_EQ("", Run(tool, "verify", 5, " 0", &out));
  }
  // After a mutation, the old generation no longer matches.
  ASSERT_EQ("", Run(kUpstreamTool, "mutate", 5, " 1", &out));
  for (const char* tool : {kForkTool, kUpstreamTool}) {
    SCOPED_TRACE(tool);
    std::string err = Run(tool, "verify", 5, " 0", &out);
    EXPECT_NE(std::string::npos, err.find("expected")) << err;
    EXPECT_EQ("", Run(tool, "verify", 5, " 1", &out));
  }
}

TEST_F(InteropDbVerifierTest, RejectsMissingAndExistingDatabase) {
  std::string out;
  for (const char* tool : {kForkTool, kUpstreamTool}) {
    SCOPED_TRACE(tool);
    // verify and mutate never create a database.
    EXPECT_NE("", Run(tool, "verify", 1, " 0", &out));
    EXPECT_NE("", Run(tool, "mutate", 1, " 1", &out));
    EXPECT_FALSE(Env::Default()->FileExists(Db() + "/CURRENT"));
  }
  ASSERT_EQ("", Run(kUpstreamTool, "build", 1, "", &out));
  // build refuses to overwrite an existing database, whoever made it.
  for (const char* tool : {kForkTool, kUpstreamTool}) {
    SCOPED_TRACE(tool);
    const std::string err = Run(tool, "build", 1, "", &out);
    EXPECT_NE(std::string::npos, err.find("exists")) << err;
  }
  EXPECT_EQ("", Run(kForkTool, "verify", 1, " 0", &out));
}

}  // namespace
}  // namespace leveldb
