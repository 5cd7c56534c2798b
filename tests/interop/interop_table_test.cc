// Table-format interop with Debian's LevelDB 1.23, through two builds of
// interop_table_tool: the fork's and upstream's (each a separate process, so
// the two libraries never meet in one executable). For every parameter set:
//   (a) upstream writes; upstream and the fork dump it identically;
//   (b) the fork writes; upstream dumps it identically to (a);
//   (c) both writers produce byte-identical files.
#include <fstream>
#include <string>
#include <tuple>

#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "tests/interop/interop_process.h"
#include "tests/test_util.h"

#ifndef INTEROP_FORK_TOOL
#error "INTEROP_FORK_TOOL must name the fork's interop_table_tool"
#endif
#ifndef INTEROP_UPSTREAM_TOOL
#error "INTEROP_UPSTREAM_TOOL must name the upstream interop_table_tool"
#endif
#ifndef INTEROP_FORK_LIBDIR
#error \
    "INTEROP_FORK_LIBDIR must name the directory of the fork's libleveldb.so.1d"
#endif

namespace leveldb {
namespace {

const char kForkTool[] = INTEROP_FORK_TOOL;
const char kUpstreamTool[] = INTEROP_UPSTREAM_TOOL;
const char kForkLibDir[] = INTEROP_FORK_LIBDIR;

using interop::Quote;
using interop::ReadWholeFile;
using interop::RunTool;

// "" when equal, else where the two differ.
std::string FirstDifference(const std::string& a, const std::string& b) {
  if (a == b) return "";
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  size_t line = 1;
  for (size_t j = 0; j < i; ++j) line += (a[j] == '\n');
  return "sizes " + std::to_string(a.size()) + " vs " +
         std::to_string(b.size()) + ", first difference at byte " +
         std::to_string(i) + " (line " + std::to_string(line) + ")";
}

struct BlockShape {
  int block_size;
  int restart_interval;
};
const BlockShape kShapes[] = {{4096, 16}, {1024, 3}};

// snappy, bloom bits per key, index into kShapes, number of keys.
using Params = std::tuple<bool, int, int, int>;

// Gives each test a fresh directory.
class TempDirTest : public testing::Test {
 protected:
  void SetUp() override { dir_ = test::NewTempDir(Env::Default(), "interop"); }
  void TearDown() override { test::RemoveDirRecursively(Env::Default(), dir_); }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
};

class InteropTableTest : public TempDirTest,
                         public testing::WithParamInterface<Params> {};

TEST_P(InteropTableTest, BothWaysAndByteIdentical) {
  const bool snappy = std::get<0>(GetParam());
  const int bloom_bits = std::get<1>(GetParam());
  const BlockShape shape = kShapes[std::get<2>(GetParam())];
  const int n = std::get<3>(GetParam());
  const int seed = 7919 * n + 31 * shape.block_size + bloom_bits + snappy;

  const std::string write_args =
      std::to_string(n) + " " + std::to_string(seed) + " " +
      (snappy ? "1" : "0") + " " + std::to_string(bloom_bits) + " " +
      std::to_string(shape.block_size) + " " +
      std::to_string(shape.restart_interval);
  const std::string bloom = " " + std::to_string(bloom_bits);
  const std::string up_file = Path("upstream.ldb");
  const std::string fork_file = Path("fork.ldb");

  ASSERT_EQ("",
            RunTool(kUpstreamTool, "write " + Quote(up_file) + " " + write_args,
                    Path("w1.out")));
  ASSERT_EQ("",
            RunTool(kForkTool, "write " + Quote(fork_file) + " " + write_args,
                    Path("w2.out")));

  // (a) upstream's file, read by both.
  ASSERT_EQ("", RunTool(kUpstreamTool, "dump " + Quote(up_file) + bloom,
                        Path("ref.txt")));
  const std::string reference = ReadWholeFile(Path("ref.txt"));
  ASSERT_NE(std::string::npos,
            ("\n" + reference).find("\nentries " + std::to_string(n) + "\n"))
      << "upstream dump lacks the entry count";
  ASSERT_EQ("", RunTool(kForkTool, "dump " + Quote(up_file) + bloom,
                        Path("fork_reads_upstream.txt")));
  EXPECT_EQ("", FirstDifference(reference,
                                ReadWholeFile(Path("fork_reads_upstream.txt"))))
      << "fork's dump of upstream's table";

  // (b) the fork's file, read by upstream (and by the fork itself).
  ASSERT_EQ("", RunTool(kUpstreamTool, "dump " + Quote(fork_file) + bloom,
                        Path("upstream_reads_fork.txt")));
  EXPECT_EQ("", FirstDifference(reference,
                                ReadWholeFile(Path("upstream_reads_fork.txt"))))
      << "upstream's dump of the fork's table";
  ASSERT_EQ("", RunTool(kForkTool, "dump " + Quote(fork_file) + bloom,
                        Path("fork_reads_fork.txt")));
  EXPECT_EQ("", FirstDifference(reference,
                                ReadWholeFile(Path("fork_reads_fork.txt"))))
      << "fork's dump of its own table";

  // (c) same parameters, same bytes.
  EXPECT_EQ("",
            FirstDifference(ReadWholeFile(up_file), ReadWholeFile(fork_file)))
      << "table files differ";
}

std::string ParamName(const testing::TestParamInfo<Params>& info) {
  const BlockShape shape = kShapes[std::get<2>(info.param)];
  return std::string(std::get<0>(info.param) ? "snappy" : "raw") + "_bloom" +
         std::to_string(std::get<1>(info.param)) + "_block" +
         std::to_string(shape.block_size) + "r" +
         std::to_string(shape.restart_interval) + "_n" +
         std::to_string(std::get<3>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Tables, InteropTableTest,
                         testing::Combine(testing::Bool(),
                                          testing::Values(0, 10),
                                          testing::Values(0, 1),
                                          testing::Values(0, 1, 1000, 20000)),
                         ParamName);

// Both readers must refuse a damaged table with an error, not a crash or
// silently wrong output.
using InteropCorruptionTest = TempDirTest;
using InteropAbiTest = TempDirTest;

TEST_F(InteropCorruptionTest, BothReadersRejectTruncatedTable) {
  const std::string file = Path("t.ldb");
  ASSERT_EQ("", RunTool(kUpstreamTool,
                        "write " + Quote(file) + " 500 17 1 10 4096 16",
                        Path("w.out")));
  std::string contents = ReadWholeFile(file);
  ASSERT_GT(contents.size(), 100u);
  // Drop the tail: the footer's magic number is gone.
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(contents.data(),
              static_cast<std::streamsize>(contents.size() - 9));
  }
  EXPECT_NE("", RunTool(kUpstreamTool, "dump " + Quote(file) + " 10",
                        Path("d1.out")));
  EXPECT_NE("",
            RunTool(kForkTool, "dump " + Quote(file) + " 10", Path("d2.out")));
}

TEST_F(InteropCorruptionTest, BothReadersRejectFlippedDataByte) {
  const std::string file = Path("f.ldb");
  ASSERT_EQ(
      "", RunTool(kUpstreamTool, "write " + Quote(file) + " 500 23 0 0 4096 16",
                  Path("w.out")));
  std::string contents = ReadWholeFile(file);
  ASSERT_GT(contents.size(), 100u);
  // The first data block starts at offset 0; checksums are verified.
  contents[10] ^= 0x40;
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  }
  EXPECT_NE(
      "", RunTool(kUpstreamTool, "dump " + Quote(file) + " 0", Path("d1.out")));
  EXPECT_NE("",
            RunTool(kForkTool, "dump " + Quote(file) + " 0", Path("d2.out")));
}

// Binary compatibility: the tool compiled against Debian's headers and linked
// with its libleveldb.so.1d must run unchanged on the fork's shared library
// (found first through LD_LIBRARY_PATH) and produce the same results.
TEST_F(InteropAbiTest, UpstreamBinaryRunsOnForkSharedLibrary) {
  const std::string on_fork = "LD_LIBRARY_PATH=" + Quote(kForkLibDir) + " ";
  // The dynamic loader lists what it would load; make sure it is the fork.
  ASSERT_EQ(
      "", RunTool("env",
                  "LD_TRACE_LOADED_OBJECTS=1 " + on_fork + Quote(kUpstreamTool),
                  Path("ldd.out")));
  const std::string loaded = ReadWholeFile(Path("ldd.out"));
  ASSERT_NE(std::string::npos,
            loaded.find(std::string(kForkLibDir) + "/libleveldb.so.1d"))
      << loaded;

  const std::string args = " 3000 99 1 10 2048 8";
  const std::string ref_file = Path("ref.ldb");
  const std::string abi_file = Path("abi.ldb");
  ASSERT_EQ("", RunTool(kUpstreamTool, "write " + Quote(ref_file) + args,
                        Path("w1.out")));
  ASSERT_EQ("", RunTool("env",
                        on_fork + Quote(kUpstreamTool) + " write " +
                            Quote(abi_file) + args,
                        Path("w2.out")));
  EXPECT_EQ("",
            FirstDifference(ReadWholeFile(ref_file), ReadWholeFile(abi_file)));
  ASSERT_EQ("", RunTool(kUpstreamTool, "dump " + Quote(ref_file) + " 10",
                        Path("ref.txt")));
  ASSERT_EQ("", RunTool("env",
                        on_fork + Quote(kUpstreamTool) + " dump " +
                            Quote(ref_file) + " 10",
                        Path("abi.txt")));
  EXPECT_EQ("", FirstDifference(ReadWholeFile(Path("ref.txt")),
                                ReadWholeFile(Path("abi.txt"))));
}

}  // namespace
}  // namespace leveldb
