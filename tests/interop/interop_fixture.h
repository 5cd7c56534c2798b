// The common fixture of the GoogleTest drivers that run an interop tool as
// child processes: the paths of the tool's two builds (the fork's and
// upstream's, given by CMake as INTEROP_FORK_TOOL and INTEROP_UPSTREAM_TOOL),
// a scratch directory per test and a Run() that keeps the output of every
// step in a numbered file there.
#ifndef STORAGE_LEVELDB_TESTS_INTEROP_INTEROP_FIXTURE_H_
#define STORAGE_LEVELDB_TESTS_INTEROP_INTEROP_FIXTURE_H_

#include <string>

#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "tests/interop/interop_process.h"
#include "tests/test_util.h"

#ifndef INTEROP_FORK_TOOL
#error "INTEROP_FORK_TOOL must name the fork's build of the interop tool"
#endif
#ifndef INTEROP_UPSTREAM_TOOL
#error "INTEROP_UPSTREAM_TOOL must name the upstream build of the interop tool"
#endif

namespace leveldb {
namespace interop {

inline constexpr char kForkTool[] = INTEROP_FORK_TOOL;
inline constexpr char kUpstreamTool[] = INTEROP_UPSTREAM_TOOL;

class ToolTest : public testing::Test {
 protected:
  // `tag` names the scratch directory.
  explicit ToolTest(const char* tag) : tag_(tag) {}

  void SetUp() override { dir_ = test::NewTempDir(Env::Default(), tag_); }
  void TearDown() override { test::RemoveDirRecursively(Env::Default(), dir_); }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  // Where the database under test lives.
  std::string Db() const { return Path("db"); }

  // Runs `tool args`; returns "" or the failure (with its stderr); *out
  // gets its stdout.
  std::string Run(const std::string& tool, const std::string& args,
                  std::string* out) {
    const std::string out_path = Path("step" + std::to_string(++steps_));
    const std::string err = RunTool(tool, args, out_path);
    *out = ReadWholeFile(out_path);
    return err;
  }

  std::string dir_;

 private:
  const char* const tag_;
  int steps_ = 0;
};

}  // namespace interop
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_INTEROP_INTEROP_FIXTURE_H_
