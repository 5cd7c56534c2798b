// The evaluation workload shared by db_bench and rocksdb_readpath
// (benchmarks/zipf_keys.h) and their kernel read counts
// (benchmarks/common/proc_stats.h).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "benchmarks/common/proc_stats.h"
#include "benchmarks/zipf_keys.h"
#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "tests/test_util.h"

namespace {

TEST(BenchWorkloadTest, UniqueKeyOrderIsASeededPermutation) {
  for (uint32_t n : {0u, 1u, 2u, 17u, 100000u}) {
    const std::vector<uint32_t> order = zipf_keys::UniqueKeyOrder(n, 7);
    ASSERT_EQ(n, order.size());
    std::vector<bool> seen(n, false);
    for (uint32_t k : order) {
      ASSERT_LT(k, n);
      ASSERT_FALSE(seen[k]) << "key " << k << " twice";
      seen[k] = true;
    }
    EXPECT_EQ(order, zipf_keys::UniqueKeyOrder(n, 7));  // deterministic
  }
  const std::vector<uint32_t> a = zipf_keys::UniqueKeyOrder(100000, 0);
  const std::vector<uint32_t> b = zipf_keys::UniqueKeyOrder(100000, 1);
  EXPECT_NE(a, b);
  // Shuffled: few keys stay in place, and the first tenth of the order is
  // spread over the whole key space.
  size_t fixed = 0;
  for (uint32_t i = 0; i < a.size(); i++) fixed += a[i] == i;
  EXPECT_LT(fixed, 100u);
  const uint32_t top = *std::max_element(a.begin(), a.begin() + a.size() / 10);
  EXPECT_GT(top, 90000u);
}

TEST(BenchWorkloadTest, KeysAreSixteenBytesAndAbsentKeysSortBetween) {
  zipf_keys::KeyFormatter f;
  EXPECT_EQ("0000000000000042", std::string(f.Set(42)));
  EXPECT_EQ(static_cast<size_t>(zipf_keys::kKeySize), f.Set(123456789).size());
  const std::string present = std::string(f.Set(41));
  const std::string absent = std::string(f.Set(41, zipf_keys::kAbsentSuffix));
  const std::string next = std::string(f.Set(42));
  EXPECT_LT(present, absent);
  EXPECT_LT(absent, next);
}

TEST(BenchWorkloadTest, ValuesHaveTheRequestedSizeAndRepeat) {
  zipf_keys::ValueSource a(112, 0.5);
  zipf_keys::ValueSource b(112, 0.5);
  for (int i = 0; i < 1000; i++) {
    const std::string va(a.Next(112));
    ASSERT_EQ(112u, va.size());
    ASSERT_EQ(va, std::string(b.Next(112)));  // same bytes everywhere
  }
  // Half-compressible: each 100-byte piece repeats a 50-byte run.
  zipf_keys::ValueSource c(100, 0.5);
  const std::string piece(c.Next(100));
  EXPECT_EQ(piece.substr(0, 50), piece.substr(50, 50));
}

TEST(BenchWorkloadTest, ZipfLookupsAreDeterministicSkewedAndHalfAbsent) {
  const uint64_t kKeys = 1000000;
  const zipf_keys::ScrambledZipfian zipf(kKeys, 0.99);
  zipf_keys::SplitMix64 r1(zipf_keys::ThreadSeed64(0, 0));
  zipf_keys::SplitMix64 r2(zipf_keys::ThreadSeed64(0, 0));
  std::map<uint64_t, int> counts;
  int absent = 0;
  constexpr int kLookups = 200000;
  for (int i = 0; i < kLookups; i++) {
    const zipf_keys::ZipfLookup x = zipf_keys::NextZipfLookup(zipf, 0.5, &r1);
    const zipf_keys::ZipfLookup y = zipf_keys::NextZipfLookup(zipf, 0.5, &r2);
    ASSERT_EQ(x.key, y.key);
    ASSERT_EQ(x.absent, y.absent);
    ASSERT_LT(x.key, kKeys);
    counts[x.key]++;
    absent += x.absent;
  }
  EXPECT_NEAR(0.5, static_cast<double>(absent) / kLookups, 0.01);
  // Rank 0 has probability 1 / zeta(10^10, 0.99) (about 4%).
  int hottest = 0;
  for (const auto& entry : counts) hottest = std::max(hottest, entry.second);
  const double p0 = 1.0 / zipf.zetan();
  EXPECT_NEAR(p0, static_cast<double>(hottest) / kLookups, p0 * 0.1);
  // Skewed but spread: many distinct keys, yet clearly fewer than the
  // ~181000 that 200000 uniform draws over 10^6 keys would hit.
  EXPECT_GT(counts.size(), 10000u);
  EXPECT_LT(counts.size(), 160000u);
  // Without absent lookups, none is absent.
  zipf_keys::SplitMix64 r3(1);
  for (int i = 0; i < 1000; i++) {
    EXPECT_FALSE(zipf_keys::NextZipfLookup(zipf, 0.0, &r3).absent);
  }
}

TEST(BenchWorkloadTest, ProcIoCountsEveryReadSyscallOfTheThread) {
  std::string dir;
  ASSERT_TRUE(leveldb::Env::Default()->GetTestDirectory(&dir).ok());
  const std::string path = dir + "/bench_workload_test.data";
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    const std::string data(8192, 'x');
    ASSERT_EQ(static_cast<ssize_t>(data.size()),
              ::write(fd, data.data(), data.size()));
    ::close(fd);
  }
  const uint64_t overhead = proc_io::SnapshotOverhead();
  EXPECT_EQ(1u, overhead);  // one read(2) per snapshot
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  char buf[512];
  const proc_io::Snapshot before = proc_io::Thread();
  for (int i = 0; i < 25; i++) {
    ASSERT_EQ(100, ::pread(fd, buf, 100, i * 100));
  }
  const proc_io::Snapshot after = proc_io::Thread();
  ::close(fd);
  ::unlink(path.c_str());
  ASSERT_TRUE(before.valid);
  ASSERT_TRUE(after.valid);
  EXPECT_EQ(25u, after.syscr - before.syscr - overhead);
  // The process-wide counters are there too.
  EXPECT_TRUE(proc_io::Process().valid);
  EXPECT_EQ(0u, proc_io::Delta(5, 3));
  EXPECT_EQ(2u, proc_io::Delta(3, 5));
}

}  // namespace
