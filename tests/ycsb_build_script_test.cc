// Tests of contrib/ycsb-c/build_ycsbc.sh and install_binding.sh on a
// stand-in YCSB-C tree (contrib/ycsb-c/testing/fake-ycsb-c, laid out like
// YCSB-C's Makefiles, Redis part included): argument handling, relative
// install prefixes, and a build that leaves Redis out and links the binding
// against this build's libleveldb.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "tests/test_util.h"

namespace {

const std::string kContrib = YCSB_C_CONTRIB_DIR;

std::string Quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

struct Outcome {
  int status = -1;     // exit status, or -1 if the command did not exit
  std::string output;  // stdout and stderr
};

Outcome Shell(const std::string& command) {
  Outcome outcome;
  FILE* pipe = popen(("( " + command + " ) 2>&1").c_str(), "r");
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    outcome.output.append(buffer, n);
  }
  const int raw = pclose(pipe);
  if (raw != -1 && WIFEXITED(raw)) outcome.status = WEXITSTATUS(raw);
  return outcome;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class YcsbBuildScriptTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = leveldb::test::NewTempDir(leveldb::Env::Default(), "ycsb_build");
    tree_ = dir_ + "/ycsb-c";
    ASSERT_EQ(
        0, Shell("cp -R " + Quote(kContrib + "/testing/fake-ycsb-c") + " " +
                 Quote(tree_) + " && cp " + Quote(kContrib + "/testing/core") +
                 "/*.h " + Quote(tree_ + "/core/"))
               .status);
    pristine_factory_ = ReadText(tree_ + "/db/db_factory.cc");
    ASSERT_TRUE(Contains(pristine_factory_, "\"redis\""));
  }

  void TearDown() override { Shell("rm -rf " + Quote(dir_)); }

  // A prefix holding this source tree's headers and, where available, the
  // shared library of this build.
  void MakeForkPrefix(const std::string& prefix) {
    std::string command = "mkdir -p " + Quote(prefix) + " && ln -s " +
                          Quote(LEVELDB_SOURCE_INCLUDE_DIR) + " " +
                          Quote(prefix + "/include");
#if defined(LEVELDB_SHARED_LIBRARY_DIR)
    command += " && ln -s " + Quote(LEVELDB_SHARED_LIBRARY_DIR) + " " +
               Quote(prefix + "/lib");
#endif
    ASSERT_EQ(0, Shell(command).status);
  }

  // Runs `script args` from the scratch directory.
  Outcome RunScript(const std::string& script, const std::string& args) {
    return Shell("cd " + Quote(dir_) + " && " + Quote(kContrib + "/" + script) +
                 " " + args);
  }

  std::string dir_;
  std::string tree_;
  std::string pristine_factory_;
};

TEST_F(YcsbBuildScriptTest, UsageAndMissingDirectory) {
  for (const char* script : {"build_ycsbc.sh", "install_binding.sh"}) {
    Outcome outcome = RunScript(script, "");
    EXPECT_EQ(2, outcome.status) << script << outcome.output;
    EXPECT_TRUE(Contains(outcome.output, "usage:")) << outcome.output;

    outcome = RunScript(script, "a b c");
    EXPECT_EQ(2, outcome.status) << script << outcome.output;

    outcome = RunScript(script, "no-such-tree");
    EXPECT_EQ(1, outcome.status) << script << outcome.output;
    EXPECT_TRUE(Contains(outcome.output, "'no-such-tree' not found"))
        << outcome.output;
  }
  // A directory that is not a YCSB-C tree.
  MakeForkPrefix(dir_ + "/fork");
  Outcome outcome = RunScript("build_ycsbc.sh", "fork fork");
  EXPECT_EQ(1, outcome.status) << outcome.output;
  EXPECT_TRUE(Contains(outcome.output, "YCSB-C checkout")) << outcome.output;
}

TEST_F(YcsbBuildScriptTest, PrefixWithoutTheForkIsRefused) {
  ASSERT_EQ(0, Shell("mkdir -p " + Quote(dir_ + "/empty")).status);
  for (const char* prefix : {"empty", "missing"}) {
    Outcome outcome =
        RunScript("build_ycsbc.sh", "ycsb-c " + std::string(prefix));
    EXPECT_EQ(1, outcome.status) << outcome.output;
    // Named by its absolute path.
    EXPECT_TRUE(Contains(outcome.output,
                         "not installed in " + dir_ + "/" + prefix + " "))
        << outcome.output;
  }
  // Nothing was changed in the tree.
  EXPECT_EQ(pristine_factory_, ReadText(tree_ + "/db/db_factory.cc"));
  EXPECT_FALSE(leveldb::Env::Default()->FileExists(tree_ + "/leveldb.mk"));
  EXPECT_FALSE(
      leveldb::Env::Default()->FileExists(tree_ + "/db/leveldb_db.cc"));
}

TEST_F(YcsbBuildScriptTest, InstallBindingMakesARelativePrefixAbsolute) {
  MakeForkPrefix(dir_ + "/fork");
  Outcome outcome = RunScript("install_binding.sh", "ycsb-c ./sub/../fork");
  ASSERT_EQ(0, outcome.status) << outcome.output;
  const std::string fragment = ReadText(tree_ + "/leveldb.mk");
  EXPECT_TRUE(Contains(fragment, "\nLEVELDB_PREFIX ?= " + dir_ + "/fork\n"))
      << fragment;
  const std::string factory = ReadText(tree_ + "/db/db_factory.cc");
  EXPECT_TRUE(Contains(factory, "ycsbc::LevelDB::Create(props)")) << factory;
  EXPECT_TRUE(Contains(ReadText(tree_ + "/db/Makefile"),
                       "include " + tree_ + "/leveldb.mk"));
}

#if defined(LEVELDB_SHARED_LIBRARY_DIR)
TEST_F(YcsbBuildScriptTest, BuildsWithoutRedisFromARelativePrefix) {
  // The stand-in fails like YCSB-C under a plain make: Redis is built too.
  ASSERT_EQ(
      0, Shell("cp -R " + Quote(tree_) + " " + Quote(dir_ + "/plain")).status);
  EXPECT_NE(0, Shell("make -C " + Quote(dir_ + "/plain")).status);

  MakeForkPrefix(dir_ + "/fork");
  Outcome outcome = RunScript("build_ycsbc.sh", "ycsb-c fork");
  ASSERT_EQ(0, outcome.status) << outcome.output;
  EXPECT_FALSE(Contains(outcome.output, "redis/Makefile must not run"));
  const std::string factory = ReadText(tree_ + "/db/db_factory.cc");
  EXPECT_FALSE(Contains(factory, "redis")) << factory;
  EXPECT_TRUE(Contains(factory, "\"other\"")) << factory;
  EXPECT_FALSE(leveldb::Env::Default()->FileExists(tree_ + "/db/redis_db.o"));

  // The binary opens the fork through the factory and reports its settings.
  const std::string props = dir_ + "/good.properties";
  std::ofstream(props) << "leveldb.dbpath=" << dir_ << "/db\n"
                       << "leveldb.elastic_bf = true\n";
  outcome = Shell(Quote(tree_ + "/ycsbc") + " leveldb " + Quote(props));
  EXPECT_EQ(0, outcome.status) << outcome.output;
  EXPECT_TRUE(Contains(
      outcome.output, "leveldb: settings: path=" + dir_ + "/db filter=Elastic"))
      << outcome.output;
  EXPECT_TRUE(Contains(outcome.output, "record read back")) << outcome.output;

  // A mistyped setting stops it with a message and status 2.
  const std::string typo = dir_ + "/typo.properties";
  std::ofstream(typo) << "leveldb.dbpath=" << dir_ << "/db\n"
                      << "leveldb.bf_unit=3\n";
  outcome = Shell(Quote(tree_ + "/ycsbc") + " leveldb " + Quote(typo));
  EXPECT_EQ(2, outcome.status) << outcome.output;
  EXPECT_TRUE(Contains(outcome.output, "unknown setting 'leveldb.bf_unit'"))
      << outcome.output;
  EXPECT_FALSE(Contains(outcome.output, "Unknown database name"));

  // Running it again changes nothing more.
  outcome = RunScript("build_ycsbc.sh", "ycsb-c fork");
  ASSERT_EQ(0, outcome.status) << outcome.output;
  EXPECT_EQ(factory, ReadText(tree_ + "/db/db_factory.cc"));
}
#endif  // defined(LEVELDB_SHARED_LIBRARY_DIR)

}  // namespace
