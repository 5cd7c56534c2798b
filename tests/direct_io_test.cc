// Tests of DirectIOEnv(): table files read with O_DIRECT through aligned
// bounce buffers, byte-exact at any offset and length; the buffered fallback
// for filesystems without direct I/O; and a whole database running on it.
#include "leveldb/direct_io.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/write_batch.h"
#include "port/port.h"
#include "tests/test_util.h"
#include "util/direct_io_test_helper.h"
#include "util/env_posix_test_helper.h"
#include "util/random.h"

namespace leveldb {
namespace {

// Few enough read-only descriptors that the database tests and
// ReadsWithoutAKeptDescriptor run out of them, so table files are also read
// by reopening them for every read. Set before Env::Default() is built.
constexpr int kTestFdLimit = 4;
const bool kFdLimitInstalled = [] {
  EnvPosixTestHelper::SetReadOnlyFDLimit(kTestFdLimit);
  return true;
}();

// Deterministic file contents: byte i depends on i, with a period that is
// not a power of two so that misplaced blocks show.
char ContentByte(uint64_t i) {
  return static_cast<char>((i * 131 + i / 4093) & 0xff);
}

std::string MakeContent(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; i++) s[i] = ContentByte(i);
  return s;
}

void WriteThrough(Env* env, const std::string& path, const std::string& data) {
  WritableFile* file = nullptr;
  ASSERT_TRUE(env->NewWritableFile(path, &file).ok());
  std::unique_ptr<WritableFile> owner(file);
  ASSERT_TRUE(file->Append(data).ok());
  ASSERT_TRUE(file->Close().ok());
}

std::string RealPath(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) == nullptr) return path;
  return buf;
}

// Open-file flags of every descriptor of this process that refers to
// `path`, read from /proc/self/fdinfo.
std::vector<long> OpenFlagsOf(const std::string& path) {
  const std::string target = RealPath(path);
  std::vector<long> flags;
  for (int fd = 0; fd < 4096; fd++) {
    char link[PATH_MAX];
    const std::string proc_fd = "/proc/self/fd/" + std::to_string(fd);
    ssize_t n = ::readlink(proc_fd.c_str(), link, sizeof(link) - 1);
    if (n <= 0) continue;
    link[n] = '\0';
    if (target != link) continue;
    std::ifstream info("/proc/self/fdinfo/" + std::to_string(fd));
    std::string name;
    while (info >> name) {
      if (name == "flags:") {
        std::string octal;
        info >> octal;
        flags.push_back(std::strtol(octal.c_str(), nullptr, 8));
        break;
      }
    }
  }
  return flags;
}

bool IsMapped(const std::string& path) {
  std::ifstream maps("/proc/self/maps");
  const std::string target = RealPath(path);
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find(target) != std::string::npos) return true;
  }
  return false;
}

// Whether the filesystem holding `path` accepts O_DIRECT, probed directly.
bool FilesystemSupportsDirectIO(const std::string& path) {
#if defined(O_DIRECT)
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECT);
  if (fd < 0) return false;
  ::close(fd);
  return true;
#else
  (void)path;
  return false;
#endif
}

bool HasDirectFlag(long flags) {
#if defined(O_DIRECT)
  return (flags & O_DIRECT) != 0;
#else
  (void)flags;
  return false;
#endif
}

// Where the test files live: the system temp directory, a directory under
// the current (build) directory on the real disk, and /dev/shm (tmpfs,
// which may or may not support O_DIRECT depending on the kernel).
enum class Location { kTemp, kWorkingDir, kShm };

std::string LocationName(Location where) {
  switch (where) {
    case Location::kTemp:
      return "Temp";
    case Location::kWorkingDir:
      return "WorkingDir";
    case Location::kShm:
      return "Shm";
  }
  return "Unknown";
}

class DirectIOTest : public testing::TestWithParam<Location> {
 protected:
  void SetUp() override {
    env_ = DirectIOEnv();
    const std::string tag = "direct_io_" + LocationName(GetParam());
    switch (GetParam()) {
      case Location::kTemp:
        dir_ = test::NewTempDir(Env::Default(), tag);
        break;
      case Location::kWorkingDir: {
        char cwd[PATH_MAX];
        ASSERT_NE(::getcwd(cwd, sizeof(cwd)), nullptr);
        dir_ = std::string(cwd) + "/" + tag + "_" + std::to_string(::getpid());
        test::RemoveDirRecursively(Env::Default(), dir_);
        ASSERT_TRUE(Env::Default()->CreateDir(dir_).ok());
        break;
      }
      case Location::kShm:
        if (::access("/dev/shm", W_OK) != 0) {
          // Nothing to exercise; run in the temp directory instead so the
          // test still asserts everything.
          dir_ = test::NewTempDir(Env::Default(), tag);
        } else {
          dir_ = "/dev/shm/leveldb_" + tag + "_" + std::to_string(::getpid());
          test::RemoveDirRecursively(Env::Default(), dir_);
          ASSERT_TRUE(Env::Default()->CreateDir(dir_).ok());
        }
        break;
    }
  }

  void TearDown() override {
    DirectIOTestHelper::SimulateUnsupportedFilesystem(false);
    DirectIOTestHelper::SimulateRefusedReads(false);
    test::RemoveDirRecursively(Env::Default(), dir_);
  }

  // Reads [offset, offset + n) through `file` into an unaligned scratch
  // buffer and checks it against `content`, including the short result of
  // a read that runs past the end of the file.
  void CheckRange(const RandomAccessFile* file, const std::string& content,
                  uint64_t offset, size_t n) {
    std::vector<char> storage(n + 1);
    char* scratch = storage.data() + 1;  // deliberately misaligned
    Slice result;
    Status s = file->Read(offset, n, &result, scratch);
    ASSERT_TRUE(s.ok()) << s.ToString() << " at " << offset << "+" << n;
    size_t expected_size = 0;
    if (offset < content.size()) {
      expected_size = std::min<uint64_t>(n, content.size() - offset);
    }
    ASSERT_EQ(expected_size, result.size()) << "at " << offset << "+" << n;
    if (expected_size > 0) {
      ASSERT_EQ(
          0, std::memcmp(result.data(), content.data() + offset, expected_size))
          << "at " << offset << "+" << n;
    }
  }

  // A mix of reads: block-aligned, straddling block boundaries, tiny, large,
  // at and past the end of the file, and random ones.
  void CheckManyRanges(const RandomAccessFile* file,
                       const std::string& content) {
    const uint64_t size = content.size();
    const std::vector<std::pair<uint64_t, size_t>> fixed = {
        {0, 1},          {0, 4096},        {0, 4097},
        {1, 4095},       {4095, 2},        {4096, 4096},
        {4000, 200},     {100, 20000},     {size - 1, 1},
        {size - 10, 10}, {size - 10, 100}, {size - 5000, 9000},
        {size, 1},       {size, 4096},     {size + 4096, 10},
        {0, size},       {0, size + 123},  {3, 0}};
    for (const auto& range : fixed) {
      CheckRange(file, content, range.first, range.second);
    }
    Random rnd(test::RandomSeed());
    for (int i = 0; i < 300; i++) {
      const uint64_t offset = rnd.Uniform(static_cast<int>(size + 100));
      const size_t n = 1 + rnd.Uniform(rnd.OneIn(4) ? 40000 : 5000);
      CheckRange(file, content, offset, n);
    }
  }

  Env* env_ = nullptr;
  std::string dir_;
};

// Not a multiple of 4096, so the last block is partial.
constexpr size_t kFileSize = 9 * 4096 + 1234;

TEST_P(DirectIOTest, ReadsTableFilesExactlyAtAnyOffset) {
  const std::string content = MakeContent(kFileSize);
  for (const char* name : {"000007.ldb", "000008.sst"}) {
    const std::string path = dir_ + "/" + name;
    WriteThrough(env_, path, content);
    RandomAccessFile* file = nullptr;
    ASSERT_TRUE(env_->NewRandomAccessFile(path, &file).ok());
    std::unique_ptr<RandomAccessFile> owner(file);

    // The file is read through a descriptor, never a mapping, and that
    // descriptor uses O_DIRECT exactly when the filesystem supports it.
    EXPECT_FALSE(IsMapped(path));
    const std::vector<long> flags = OpenFlagsOf(path);
    ASSERT_EQ(1u, flags.size()) << name;
    EXPECT_EQ(FilesystemSupportsDirectIO(path), HasDirectFlag(flags[0]));

    CheckManyRanges(file, content);
  }
}

TEST_P(DirectIOTest, ReadsWithoutAKeptDescriptor) {
  ASSERT_TRUE(kFdLimitInstalled);
  const std::string content = MakeContent(kFileSize);
  std::vector<std::string> paths;
  std::vector<std::unique_ptr<RandomAccessFile>> files;
  for (int i = 0; i < kTestFdLimit + 2; i++) {
    paths.push_back(dir_ + "/00002" + std::to_string(i) + ".ldb");
    WriteThrough(env_, paths.back(), content);
    RandomAccessFile* file = nullptr;
    ASSERT_TRUE(env_->NewRandomAccessFile(paths.back(), &file).ok());
    files.emplace_back(file);
  }
  // The last files found the descriptor budget exhausted: they hold no
  // descriptor and open the file for each read.
  const std::string& last = paths.back();
  EXPECT_TRUE(OpenFlagsOf(last).empty());
  EXPECT_FALSE(IsMapped(last));
  CheckManyRanges(files.back().get(), content);

  // Reopening may meet a filesystem without direct I/O, too.
  DirectIOTestHelper::SimulateUnsupportedFilesystem(true);
  CheckManyRanges(files.back().get(), content);
  CheckManyRanges(files.front().get(), content);
}

TEST_P(DirectIOTest, SeesDataRewrittenAfterOpen) {
  const std::string path = dir_ + "/000009.ldb";
  const std::string first = MakeContent(3 * 4096 + 17);
  WriteThrough(env_, path, first);
  {
    RandomAccessFile* file = nullptr;
    ASSERT_TRUE(env_->NewRandomAccessFile(path, &file).ok());
    std::unique_ptr<RandomAccessFile> owner(file);
    CheckRange(file, first, 5000, 3000);
  }
  // Recently written (possibly still dirty) pages must be visible to a
  // direct read of a newly opened file.
  std::string second = first;
  for (char& c : second) c = static_cast<char>(~c);
  WriteThrough(env_, path, second);
  RandomAccessFile* file = nullptr;
  ASSERT_TRUE(env_->NewRandomAccessFile(path, &file).ok());
  std::unique_ptr<RandomAccessFile> owner(file);
  CheckManyRanges(file, second);
}

TEST_P(DirectIOTest, OtherFilesAreNotOpenedForDirectIO) {
  const std::string content = MakeContent(2 * 4096 + 5);
  for (const char* name :
       {"MANIFEST-000002", "000003.log", "CURRENT", "table.ldb.tmp", ".ldb"}) {
    const std::string path = dir_ + "/" + name;
    WriteThrough(env_, path, content);
    RandomAccessFile* file = nullptr;
    ASSERT_TRUE(env_->NewRandomAccessFile(path, &file).ok());
    std::unique_ptr<RandomAccessFile> owner(file);
    for (long flags : OpenFlagsOf(path)) {
      EXPECT_FALSE(HasDirectFlag(flags)) << name;
    }
    CheckRange(file, content, 4000, 200);
    CheckRange(file, content, 8000, 1000);
  }
}

TEST_P(DirectIOTest, FallsBackWhenFilesystemRefusesDirectOpen) {
  const std::string content = MakeContent(kFileSize);
  const std::string path = dir_ + "/000010.ldb";
  WriteThrough(env_, path, content);
  DirectIOTestHelper::SimulateUnsupportedFilesystem(true);
  RandomAccessFile* file = nullptr;
  Status s = env_->NewRandomAccessFile(path, &file);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<RandomAccessFile> owner(file);
  EXPECT_FALSE(IsMapped(path));
  const std::vector<long> flags = OpenFlagsOf(path);
  ASSERT_EQ(1u, flags.size());
  EXPECT_FALSE(HasDirectFlag(flags[0]));
  CheckManyRanges(file, content);
}

TEST_P(DirectIOTest, FallsBackWhenFilesystemRefusesDirectReads) {
  const std::string content = MakeContent(kFileSize);
  const std::string path = dir_ + "/000011.ldb";
  WriteThrough(env_, path, content);
  RandomAccessFile* file = nullptr;
  ASSERT_TRUE(env_->NewRandomAccessFile(path, &file).ok());
  std::unique_ptr<RandomAccessFile> owner(file);
  DirectIOTestHelper::SimulateRefusedReads(true);
  CheckManyRanges(file, content);
}

TEST_P(DirectIOTest, MissingTableFileIsNotFound) {
  RandomAccessFile* file = nullptr;
  Status s = env_->NewRandomAccessFile(dir_ + "/000099.ldb", &file);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_EQ(nullptr, file);
}

TEST_P(DirectIOTest, SharesEverythingElseWithTheDefaultEnv) {
  // Same background thread: work scheduled on either Env runs in order on
  // one queue.
  struct Order {
    port::Mutex mu;
    port::CondVar cv{&mu};
    std::vector<int> seen;
  } order;
  struct Item {
    Order* order;
    int id;
  };
  Item items[4] = {{&order, 0}, {&order, 1}, {&order, 2}, {&order, 3}};
  auto run = [](void* arg) {
    Item* item = static_cast<Item*>(arg);
    port::Mutex* mu = &item->order->mu;
    mu->Lock();
    item->order->seen.push_back(item->id);
    item->order->cv.SignalAll();
    mu->Unlock();
  };
  for (int i = 0; i < 4; i++) {
    Env* env = (i % 2 == 0) ? env_ : Env::Default();
    env->Schedule(run, &items[i]);
  }
  order.mu.Lock();
  while (order.seen.size() < 4) order.cv.Wait();
  order.mu.Unlock();
  EXPECT_EQ((std::vector<int>{0, 1, 2, 3}), order.seen);

  // Same lock table: a lock held through one Env is held for the other.
  FileLock* lock = nullptr;
  ASSERT_TRUE(env_->LockFile(dir_ + "/LOCK", &lock).ok());
  FileLock* second = nullptr;
  EXPECT_FALSE(Env::Default()->LockFile(dir_ + "/LOCK", &second).ok());
  ASSERT_TRUE(env_->UnlockFile(lock).ok());

  EXPECT_EQ(env_, DirectIOEnv());
}

// A database on DirectIOEnv(): writes, flushes, compactions, Gets and
// iteration, with the block cache bypassed so reads really reach the files.
void ExerciseDatabase(const std::string& dbname) {
  Options options;
  options.env = DirectIOEnv();
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;  // many small tables
  options.block_size = 1024;
  DestroyDB(dbname, options);
  DB* db = nullptr;
  Status s = DB::Open(options, dbname, &db);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<DB> owner(db);

  constexpr int kKeys = 6000;
  auto key_of = [](int i) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "key%08d", i);
    return std::string(buf);
  };
  auto value_of = [](int i, int round) {
    return std::string(50 + i % 150, static_cast<char>('a' + (i + round) % 26));
  };
  for (int round = 0; round < 2; round++) {
    for (int i = round; i < kKeys; i += 1 + round) {
      ASSERT_TRUE(db->Put(WriteOptions(), key_of(i), value_of(i, round)).ok());
    }
  }
  for (int i = 0; i < kKeys; i += 7) {
    ASSERT_TRUE(db->Delete(WriteOptions(), key_of(i)).ok());
  }
  auto expected = [&](int i) -> std::string {
    if (i % 7 == 0) return "";
    return value_of(i, i % 2 == 1 ? 1 : 0);
  };

  auto check_all = [&]() {
    ReadOptions read;
    read.fill_cache = false;
    std::string value;
    for (int i = 0; i < kKeys; i++) {
      Status g = db->Get(read, key_of(i), &value);
      if (expected(i).empty()) {
        ASSERT_TRUE(g.IsNotFound()) << key_of(i) << " " << g.ToString();
      } else {
        ASSERT_TRUE(g.ok()) << key_of(i) << " " << g.ToString();
        ASSERT_EQ(expected(i), value) << key_of(i);
      }
    }
    std::unique_ptr<Iterator> it(db->NewIterator(read));
    int next = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      while (expected(next).empty()) next++;
      ASSERT_EQ(key_of(next), it->key().ToString());
      ASSERT_EQ(expected(next), it->value().ToString());
      next++;
    }
    ASSERT_TRUE(it->status().ok()) << it->status().ToString();
    while (next < kKeys && expected(next).empty()) next++;
    ASSERT_EQ(kKeys, next);
  };

  check_all();
  db->CompactRange(nullptr, nullptr);
  std::string files;
  ASSERT_TRUE(db->GetProperty("leveldb.num-files-at-level0", &files));
  EXPECT_EQ("0", files);
  check_all();

  // Reopen: recovery and table opening also go through the direct Env.
  owner.reset();
  db = nullptr;
  s = DB::Open(options, dbname, &db);
  ASSERT_TRUE(s.ok()) << s.ToString();
  owner.reset(db);
  check_all();
  owner.reset();
  DestroyDB(dbname, options);
}

TEST_P(DirectIOTest, DatabaseWorks) { ExerciseDatabase(dir_ + "/db"); }

TEST_P(DirectIOTest, DatabaseWorksOnFilesystemWithoutDirectIO) {
  DirectIOTestHelper::SimulateUnsupportedFilesystem(true);
  ExerciseDatabase(dir_ + "/db");
}

TEST_P(DirectIOTest, DatabaseWorksWhenDirectReadsAreRefused) {
  DirectIOTestHelper::SimulateRefusedReads(true);
  ExerciseDatabase(dir_ + "/db");
}

INSTANTIATE_TEST_SUITE_P(Locations, DirectIOTest,
                         testing::Values(Location::kTemp, Location::kWorkingDir,
                                         Location::kShm),
                         [](const testing::TestParamInfo<Location>& info) {
                           return LocationName(info.param);
                         });

}  // namespace
}  // namespace leveldb
