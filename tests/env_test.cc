// Tests for the Env implementations. One suite runs against both the POSIX
// Env (in a scratch directory) and the in-memory Env; a few POSIX-specific
// tests follow.
#include "leveldb/env.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <regex>  // NOLINT
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/helpers/memenv.h"
#include "port/port.h"
#include "tests/test_util.h"
#include "util/env_posix_test_helper.h"
#include "util/env_util.h"
#include "util/mutexlock.h"
#include "util/random.h"

namespace leveldb {
namespace {

// Limits installed for the POSIX Env in main(), small enough that tests
// with a few dozen files run out of mmaps and of kept descriptors.
constexpr int kTestMmapLimit = 8;
constexpr int kTestFdLimit = 8;

enum class EnvKind { kPosix, kMemory };

std::string ReadAll(Env* env, const std::string& fname) {
  std::string data;
  Status s = ReadFileToString(env, fname, &data);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return data;
}

// Deterministic contents for large-file tests: byte i depends on i.
char PatternByte(uint64_t i) {
  return static_cast<char>((i * 7 + i / 251) & 0xff);
}

std::vector<std::string> ChildrenWithoutDots(Env* env, const std::string& dir) {
  std::vector<std::string> all;
  Status s = env->GetChildren(dir, &all);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::vector<std::string> names;
  for (const std::string& name : all) {
    if (name != "." && name != "..") names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

class EnvTest : public testing::TestWithParam<EnvKind> {
 protected:
  void SetUp() override {
    if (GetParam() == EnvKind::kPosix) {
      env_ = Env::Default();
      dir_ = test::NewTempDir(env_, "env_test");
    } else {
      owned_env_.reset(NewMemEnv(Env::Default()));
      env_ = owned_env_.get();
      dir_ = "/mem/env_test";
      ASSERT_TRUE(env_->CreateDir(dir_).ok());
    }
  }

  void TearDown() override {
    test::RemoveDirRecursively(env_, dir_);
    owned_env_.reset();
  }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  void WriteFile(const std::string& name, const std::string& contents) {
    Status s = WriteStringToFile(env_, contents, Path(name));
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  Env* env_ = nullptr;
  std::unique_ptr<Env> owned_env_;
  std::string dir_;
};

TEST_P(EnvTest, WriteReadAndAppend) {
  WritableFile* raw = nullptr;
  ASSERT_TRUE(env_->NewWritableFile(Path("f"), &raw).ok());
  std::unique_ptr<WritableFile> file(raw);
  ASSERT_TRUE(file->Append("hello ").ok());
  ASSERT_TRUE(file->Append("world").ok());
  ASSERT_TRUE(file->Flush().ok());
  ASSERT_TRUE(file->Sync().ok());
  ASSERT_TRUE(file->Close().ok());
  file.reset();
  EXPECT_EQ("hello world", ReadAll(env_, Path("f")));

  ASSERT_TRUE(env_->NewAppendableFile(Path("f"), &raw).ok());
  file.reset(raw);
  ASSERT_TRUE(file->Append("!!").ok());
  ASSERT_TRUE(file->Close().ok());
  file.reset();
  EXPECT_EQ("hello world!!", ReadAll(env_, Path("f")));

  // An appendable file that does not exist yet is created.
  ASSERT_TRUE(env_->NewAppendableFile(Path("fresh"), &raw).ok());
  file.reset(raw);
  ASSERT_TRUE(file->Append("abc").ok());
  file.reset();  // Destruction without Close() must still flush.
  EXPECT_EQ("abc", ReadAll(env_, Path("fresh")));
}

TEST_P(EnvTest, NewWritableFileTruncates) {
  WriteFile("f", "a long original content");
  WriteFile("f", "short");
  EXPECT_EQ("short", ReadAll(env_, Path("f")));
  uint64_t size = 0;
  ASSERT_TRUE(env_->GetFileSize(Path("f"), &size).ok());
  EXPECT_EQ(5u, size);
}

TEST_P(EnvTest, StringHelpersRoundTrip) {
  std::string data(100000, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = PatternByte(i);
  ASSERT_TRUE(WriteStringToFile(env_, data, Path("plain")).ok());
  ASSERT_TRUE(WriteStringToFileSync(env_, data, Path("synced")).ok());
  EXPECT_EQ(data, ReadAll(env_, Path("plain")));
  EXPECT_EQ(data, ReadAll(env_, Path("synced")));
  ASSERT_TRUE(WriteStringToFile(env_, "", Path("empty")).ok());
  EXPECT_EQ("", ReadAll(env_, Path("empty")));
}

TEST_P(EnvTest, SequentialReadAndSkip) {
  WriteFile("f", "0123456789abcdefghij");
  SequentialFile* raw = nullptr;
  ASSERT_TRUE(env_->NewSequentialFile(Path("f"), &raw).ok());
  std::unique_ptr<SequentialFile> file(raw);
  char scratch[64];
  Slice got;

  ASSERT_TRUE(file->Read(4, &got, scratch).ok());
  EXPECT_EQ("0123", got.ToString());
  ASSERT_TRUE(file->Skip(6).ok());
  ASSERT_TRUE(file->Read(3, &got, scratch).ok());
  EXPECT_EQ("abc", got.ToString());
  // A read at the end is short, not an error.
  ASSERT_TRUE(file->Read(50, &got, scratch).ok());
  EXPECT_EQ("defghij", got.ToString());
  ASSERT_TRUE(file->Read(50, &got, scratch).ok());
  EXPECT_TRUE(got.empty());
  // Skipping past the end is allowed and leaves nothing to read.
  ASSERT_TRUE(file->Skip(1000).ok());
  ASSERT_TRUE(file->Read(10, &got, scratch).ok());
  EXPECT_TRUE(got.empty());
}

TEST_P(EnvTest, RandomReadsAtOffsets) {
  std::string data(30000, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = PatternByte(i);
  WriteFile("f", data);

  RandomAccessFile* raw = nullptr;
  ASSERT_TRUE(env_->NewRandomAccessFile(Path("f"), &raw).ok());
  std::unique_ptr<RandomAccessFile> file(raw);
  std::vector<char> scratch(data.size() + 100);
  Slice got;

  const uint64_t offsets[] = {0, 1, 4095, 4096, 8191, 8192, 12345, 29990};
  for (uint64_t offset : offsets) {
    ASSERT_TRUE(file->Read(offset, 10, &got, scratch.data()).ok());
    EXPECT_EQ(data.substr(offset, 10), got.ToString()) << offset;
  }
  // Reverse order and a read spanning the whole file.
  ASSERT_TRUE(file->Read(20000, 9000, &got, scratch.data()).ok());
  EXPECT_EQ(data.substr(20000, 9000), got.ToString());
  ASSERT_TRUE(file->Read(0, data.size(), &got, scratch.data()).ok());
  EXPECT_EQ(data, got.ToString());
}

TEST_P(EnvTest, ReadingPastTheEndIsShort) {
  WriteFile("f", "0123456789");
  RandomAccessFile* raw = nullptr;
  ASSERT_TRUE(env_->NewRandomAccessFile(Path("f"), &raw).ok());
  std::unique_ptr<RandomAccessFile> file(raw);
  char scratch[100];
  Slice got;

  ASSERT_TRUE(file->Read(6, 50, &got, scratch).ok());
  EXPECT_EQ("6789", got.ToString());
  // Exactly at the end: nothing left, still OK. Beyond the end the two Envs
  // differ (see PosixEnvTest and MemEnvTest).
  got = Slice("x");
  ASSERT_TRUE(file->Read(10, 5, &got, scratch).ok());
  EXPECT_TRUE(got.empty());
}

TEST_P(EnvTest, EmptyFileIsReadable) {
  WriteFile("empty", "");
  RandomAccessFile* raw = nullptr;
  ASSERT_TRUE(env_->NewRandomAccessFile(Path("empty"), &raw).ok());
  std::unique_ptr<RandomAccessFile> file(raw);
  char scratch[10];
  Slice got("x");
  ASSERT_TRUE(file->Read(0, 10, &got, scratch).ok());
  EXPECT_TRUE(got.empty());
}

TEST_P(EnvTest, FileSizeAndExistence) {
  EXPECT_FALSE(env_->FileExists(Path("f")));
  uint64_t size = 123;
  Status s = env_->GetFileSize(Path("f"), &size);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();

  WriteFile("f", std::string(777, 'x'));
  EXPECT_TRUE(env_->FileExists(Path("f")));
  ASSERT_TRUE(env_->GetFileSize(Path("f"), &size).ok());
  EXPECT_EQ(777u, size);
}

TEST_P(EnvTest, MissingFilesAreNotFound) {
  SequentialFile* seq = reinterpret_cast<SequentialFile*>(1);
  Status s = env_->NewSequentialFile(Path("missing"), &seq);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_EQ(nullptr, seq);

  RandomAccessFile* ra = reinterpret_cast<RandomAccessFile*>(1);
  s = env_->NewRandomAccessFile(Path("missing"), &ra);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_EQ(nullptr, ra);

  s = env_->RemoveFile(Path("missing"));
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  s = env_->RenameFile(Path("missing"), Path("other"));
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();

  std::string data = "stale";
  s = ReadFileToString(env_, Path("missing"), &data);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_TRUE(data.empty());
}

TEST_P(EnvTest, RenameReplacesTarget) {
  WriteFile("a", "contents of a");
  WriteFile("b", "contents of b");
  ASSERT_TRUE(env_->RenameFile(Path("a"), Path("b")).ok());
  EXPECT_FALSE(env_->FileExists(Path("a")));
  EXPECT_EQ("contents of a", ReadAll(env_, Path("b")));

  // Renaming to a new name.
  ASSERT_TRUE(env_->RenameFile(Path("b"), Path("c")).ok());
  EXPECT_FALSE(env_->FileExists(Path("b")));
  EXPECT_EQ("contents of a", ReadAll(env_, Path("c")));
}

TEST_P(EnvTest, RemoveFile) {
  WriteFile("f", "data");
  ASSERT_TRUE(env_->RemoveFile(Path("f")).ok());
  EXPECT_FALSE(env_->FileExists(Path("f")));
  EXPECT_TRUE(env_->RemoveFile(Path("f")).IsNotFound());
  // The deprecated spelling reaches the same operation.
  WriteFile("g", "data");
  ASSERT_TRUE(env_->DeleteFile(Path("g")).ok());
  EXPECT_FALSE(env_->FileExists(Path("g")));
}

TEST_P(EnvTest, RemovedFileStaysReadableThroughOpenHandles) {
  WriteFile("f", "still here");
  RandomAccessFile* ra_raw = nullptr;
  SequentialFile* seq_raw = nullptr;
  ASSERT_TRUE(env_->NewRandomAccessFile(Path("f"), &ra_raw).ok());
  ASSERT_TRUE(env_->NewSequentialFile(Path("f"), &seq_raw).ok());
  std::unique_ptr<RandomAccessFile> ra(ra_raw);
  std::unique_ptr<SequentialFile> seq(seq_raw);

  ASSERT_TRUE(env_->RemoveFile(Path("f")).ok());
  EXPECT_FALSE(env_->FileExists(Path("f")));

  char scratch[32];
  Slice got;
  ASSERT_TRUE(ra->Read(6, 4, &got, scratch).ok());
  EXPECT_EQ("here", got.ToString());
  ASSERT_TRUE(seq->Read(32, &got, scratch).ok());
  EXPECT_EQ("still here", got.ToString());
}

TEST_P(EnvTest, RenameLeavesOpenReadersOnTheirFiles) {
  WriteFile("a", "contents of a");
  WriteFile("b", "contents of b");
  RandomAccessFile* raw = nullptr;
  ASSERT_TRUE(env_->NewRandomAccessFile(Path("a"), &raw).ok());
  std::unique_ptr<RandomAccessFile> reader_a(raw);
  ASSERT_TRUE(env_->NewRandomAccessFile(Path("b"), &raw).ok());
  std::unique_ptr<RandomAccessFile> reader_b(raw);

  ASSERT_TRUE(env_->RenameFile(Path("a"), Path("b")).ok());
  char scratch[32];
  Slice got;
  ASSERT_TRUE(reader_a->Read(0, sizeof(scratch), &got, scratch).ok());
  EXPECT_EQ("contents of a", got.ToString());
  // The replaced target is gone from the directory, not from its reader.
  ASSERT_TRUE(reader_b->Read(0, sizeof(scratch), &got, scratch).ok());
  EXPECT_EQ("contents of b", got.ToString());
  EXPECT_EQ("contents of a", ReadAll(env_, Path("b")));
}

TEST_P(EnvTest, RenameToItselfKeepsTheFile) {
  WriteFile("f", "kept");
  ASSERT_TRUE(env_->RenameFile(Path("f"), Path("f")).ok());
  EXPECT_TRUE(env_->FileExists(Path("f")));
  EXPECT_EQ("kept", ReadAll(env_, Path("f")));
}

TEST_P(EnvTest, GetChildrenListsEntries) {
  EXPECT_TRUE(ChildrenWithoutDots(env_, dir_).empty());
  WriteFile("a", "1");
  WriteFile("b", "2");
  WriteFile("CURRENT", "3");
  std::vector<std::string> expected = {"CURRENT", "a", "b"};
  EXPECT_EQ(expected, ChildrenWithoutDots(env_, dir_));

  ASSERT_TRUE(env_->RemoveFile(Path("a")).ok());
  expected = {"CURRENT", "b"};
  EXPECT_EQ(expected, ChildrenWithoutDots(env_, dir_));
}

TEST_P(EnvTest, CreateAndRemoveAnEmptyDirectory) {
  ASSERT_TRUE(env_->CreateDir(Path("sub")).ok());
  WriteFile("sub/f", "x");
  EXPECT_EQ("x", ReadAll(env_, Path("sub/f")));
  ASSERT_TRUE(env_->RemoveFile(Path("sub/f")).ok());
  EXPECT_TRUE(env_->RemoveDir(Path("sub")).ok());
  EXPECT_TRUE(ChildrenWithoutDots(env_, dir_).empty());
}

TEST_P(EnvTest, TestDirectoryIsNamed) {
  std::string path;
  ASSERT_TRUE(env_->GetTestDirectory(&path).ok());
  EXPECT_FALSE(path.empty());
}

TEST_P(EnvTest, LockIsExclusiveUntilUnlocked) {
  FileLock* first = nullptr;
  ASSERT_TRUE(env_->LockFile(Path("LOCK"), &first).ok());
  ASSERT_NE(nullptr, first);

  FileLock* second = reinterpret_cast<FileLock*>(1);
  Status s = env_->LockFile(Path("LOCK"), &second);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("held")) << s.ToString();
  EXPECT_EQ(nullptr, second);

  // A different file can be locked meanwhile.
  FileLock* other = nullptr;
  ASSERT_TRUE(env_->LockFile(Path("OTHER"), &other).ok());
  ASSERT_TRUE(env_->UnlockFile(other).ok());

  ASSERT_TRUE(env_->UnlockFile(first).ok());
  ASSERT_TRUE(env_->LockFile(Path("LOCK"), &second).ok());
  ASSERT_NE(nullptr, second);
  ASSERT_TRUE(env_->UnlockFile(second).ok());
}

TEST_P(EnvTest, LargeFileWrittenInManyAppends) {
  constexpr uint64_t kSize = 6 * 1024 * 1024 + 12345;
  Random rnd(test::RandomSeed());
  WritableFile* raw = nullptr;
  ASSERT_TRUE(env_->NewWritableFile(Path("big"), &raw).ok());
  std::unique_ptr<WritableFile> file(raw);
  uint64_t written = 0;
  std::string piece;
  int appends = 0;
  while (written < kSize) {
    // Mix tiny pieces with pieces larger than any internal buffer.
    size_t len = rnd.OneIn(50) ? 1 + rnd.Uniform(150000) : 1 + rnd.Uniform(500);
    len = static_cast<size_t>(std::min<uint64_t>(len, kSize - written));
    piece.resize(len);
    for (size_t i = 0; i < len; ++i) piece[i] = PatternByte(written + i);
    ASSERT_TRUE(file->Append(piece).ok());
    written += len;
    ++appends;
  }
  ASSERT_TRUE(file->Close().ok());
  file.reset();
  EXPECT_GT(appends, 1000);

  uint64_t size = 0;
  ASSERT_TRUE(env_->GetFileSize(Path("big"), &size).ok());
  EXPECT_EQ(kSize, size);

  // Whole-file check through the sequential interface.
  std::string contents = ReadAll(env_, Path("big"));
  ASSERT_EQ(kSize, contents.size());
  size_t mismatches = 0;
  for (uint64_t i = 0; i < kSize; ++i) {
    if (contents[i] != PatternByte(i)) ++mismatches;
  }
  EXPECT_EQ(0u, mismatches);

  // Spot checks through the random-access interface.
  RandomAccessFile* ra_raw = nullptr;
  ASSERT_TRUE(env_->NewRandomAccessFile(Path("big"), &ra_raw).ok());
  std::unique_ptr<RandomAccessFile> ra(ra_raw);
  std::vector<char> scratch(100000);
  for (int i = 0; i < 50; ++i) {
    uint64_t offset = rnd.Uniform(static_cast<int>(kSize));
    size_t n = 1 + rnd.Uniform(static_cast<int>(scratch.size()));
    Slice got;
    ASSERT_TRUE(ra->Read(offset, n, &got, scratch.data()).ok());
    ASSERT_EQ(std::min<uint64_t>(n, kSize - offset), got.size());
    for (size_t j = 0; j < got.size(); ++j) {
      ASSERT_EQ(PatternByte(offset + j), got[j]) << offset + j;
    }
  }
}

TEST_P(EnvTest, ManifestSyncSucceeds) {
  WritableFile* raw = nullptr;
  ASSERT_TRUE(env_->NewWritableFile(Path("MANIFEST-000001"), &raw).ok());
  std::unique_ptr<WritableFile> file(raw);
  ASSERT_TRUE(file->Append("edit").ok());
  ASSERT_TRUE(file->Sync().ok());
  ASSERT_TRUE(file->Close().ok());
  EXPECT_EQ("edit", ReadAll(env_, Path("MANIFEST-000001")));
}

// State shared between a test and the functions it schedules.
struct ScheduleState {
  port::Mutex mu;
  port::CondVar cv{&mu};
  std::vector<int> order GUARDED_BY(mu);
};

struct ScheduledCall {
  ScheduleState* state;
  int index;
};

void RecordCall(void* arg) {
  auto* call = static_cast<ScheduledCall*>(arg);
  MutexLock l(&call->state->mu);
  call->state->order.push_back(call->index);
  call->state->cv.SignalAll();
}

TEST_P(EnvTest, ScheduleRunsEverythingInFifoOrder) {
  constexpr int kCalls = 200;
  ScheduleState state;
  std::vector<ScheduledCall> calls(kCalls);
  for (int i = 0; i < kCalls; ++i) {
    calls[i] = ScheduledCall{&state, i};
    env_->Schedule(&RecordCall, &calls[i]);
  }
  MutexLock l(&state.mu);
  while (state.order.size() < static_cast<size_t>(kCalls)) state.cv.Wait();
  for (int i = 0; i < kCalls; ++i) EXPECT_EQ(i, state.order[i]);
}

TEST_P(EnvTest, StartThreadRunsFunction) {
  constexpr int kThreads = 3;
  ScheduleState state;
  std::vector<ScheduledCall> calls(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    calls[i] = ScheduledCall{&state, i};
    env_->StartThread(&RecordCall, &calls[i]);
  }
  MutexLock l(&state.mu);
  while (state.order.size() < static_cast<size_t>(kThreads)) state.cv.Wait();
  std::set<int> seen(state.order.begin(), state.order.end());
  EXPECT_EQ(static_cast<size_t>(kThreads), seen.size());
}

TEST_P(EnvTest, NowMicrosDoesNotGoBackwards) {
  uint64_t before = env_->NowMicros();
  env_->SleepForMicroseconds(1000);
  uint64_t after = env_->NowMicros();
  EXPECT_GE(after, before);
  EXPECT_GT(before, 0u);
}

TEST_P(EnvTest, LoggerWritesWholeLines) {
  Logger* raw = nullptr;
  ASSERT_TRUE(env_->NewLogger(Path("LOG"), &raw).ok());
  std::unique_ptr<Logger> logger(raw);
  const std::string long_text(20000, 'z');
  Log(logger.get(), "hello %d", 42);
  Log(logger.get(), "already terminated\n");
  Log(logger.get(), "long: %s", long_text.c_str());
  Log(nullptr, "goes nowhere %d", 1);  // Must be harmless.
  logger.reset();

  std::string log = ReadAll(env_, Path("LOG"));
  ASSERT_FALSE(log.empty());
  EXPECT_EQ('\n', log.back());
  EXPECT_EQ(3, std::count(log.begin(), log.end(), '\n'));
  EXPECT_NE(std::string::npos, log.find("hello 42\n"));
  EXPECT_NE(std::string::npos, log.find("already terminated\n"));
  EXPECT_NE(std::string::npos, log.find("long: " + long_text + "\n"));
}

INSTANTIATE_TEST_SUITE_P(AllEnvs, EnvTest,
                         testing::Values(EnvKind::kPosix, EnvKind::kMemory),
                         [](const testing::TestParamInfo<EnvKind>& info) {
                           return info.param == EnvKind::kPosix ? "Posix"
                                                                : "Memory";
                         });

// --- POSIX-only
// ---------------------------------------------------------------

class PosixEnvTest : public testing::Test {
 protected:
  void SetUp() override { dir_ = test::NewTempDir(env_, "posix_env_test"); }
  void TearDown() override { test::RemoveDirRecursively(env_, dir_); }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  Env* const env_ = Env::Default();
  std::string dir_;
};

TEST_F(PosixEnvTest, DefaultIsASingleton) {
  EXPECT_EQ(Env::Default(), Env::Default());
}

TEST_F(PosixEnvTest, ManyOpenRandomAccessFilesAreAllReadable) {
  // More files than mmap slots plus kept descriptors, so every reading
  // strategy (mmap, kept fd, open per read) is in use at once.
  constexpr int kFiles = 3 * (kTestMmapLimit + kTestFdLimit);
  std::vector<std::unique_ptr<RandomAccessFile>> files;
  for (int i = 0; i < kFiles; ++i) {
    std::string name = Path("file" + std::to_string(i));
    ASSERT_TRUE(
        WriteStringToFile(env_, "contents-" + std::to_string(i), name).ok());
    RandomAccessFile* raw = nullptr;
    ASSERT_TRUE(env_->NewRandomAccessFile(name, &raw).ok());
    files.emplace_back(raw);
  }
  char scratch[64];
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < kFiles; ++i) {
      Slice got;
      ASSERT_TRUE(files[i]->Read(0, sizeof(scratch), &got, scratch).ok());
      EXPECT_EQ("contents-" + std::to_string(i), got.ToString()) << i;
    }
  }
  // Closing returns the slots; new files can map/keep descriptors again.
  files.clear();
  RandomAccessFile* raw = nullptr;
  ASSERT_TRUE(env_->NewRandomAccessFile(Path("file0"), &raw).ok());
  std::unique_ptr<RandomAccessFile> again(raw);
  Slice got;
  ASSERT_TRUE(again->Read(9, 1, &got, scratch).ok());
  EXPECT_EQ("0", got.ToString());
}

TEST_F(PosixEnvTest, RemovedFileReadableThroughEveryReaderKind) {
  constexpr int kFiles = 2 * (kTestMmapLimit + kTestFdLimit);
  std::vector<std::unique_ptr<RandomAccessFile>> files;
  for (int i = 0; i < kFiles; ++i) {
    std::string name = Path("r" + std::to_string(i));
    ASSERT_TRUE(
        WriteStringToFile(env_, "value" + std::to_string(i), name).ok());
    RandomAccessFile* raw = nullptr;
    ASSERT_TRUE(env_->NewRandomAccessFile(name, &raw).ok());
    files.emplace_back(raw);
  }
  for (int i = 0; i < kFiles; ++i) {
    ASSERT_TRUE(env_->RemoveFile(Path("r" + std::to_string(i))).ok());
  }
  // Mapped files and files with a kept descriptor still read; files that
  // reopen per read report an error, never garbage or a crash.
  int readable = 0;
  char scratch[32];
  for (int i = 0; i < kFiles; ++i) {
    Slice got;
    Status s = files[i]->Read(0, sizeof(scratch), &got, scratch);
    if (s.ok()) {
      EXPECT_EQ("value" + std::to_string(i), got.ToString());
      ++readable;
    } else {
      EXPECT_TRUE(s.IsNotFound()) << s.ToString();
    }
  }
  EXPECT_GE(readable, kTestMmapLimit + kTestFdLimit);
}

TEST_F(PosixEnvTest, ErrorsNameTheFileAndTheCause) {
  SequentialFile* raw = nullptr;
  Status s = env_->NewSequentialFile(Path("nope"), &raw);
  ASSERT_TRUE(s.IsNotFound());
  EXPECT_NE(std::string::npos, s.ToString().find(Path("nope")));
  EXPECT_NE(std::string::npos, s.ToString().find(std::strerror(ENOENT)));

  // Writing into a missing directory is an error too.
  WritableFile* w = nullptr;
  s = env_->NewWritableFile(Path("no/such/dir/f"), &w);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(nullptr, w);

  s = env_->CreateDir(dir_);  // Already exists.
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

TEST_F(PosixEnvTest, WritesAfterCloseFail) {
  WritableFile* raw = nullptr;
  ASSERT_TRUE(env_->NewWritableFile(Path("f"), &raw).ok());
  std::unique_ptr<WritableFile> file(raw);
  ASSERT_TRUE(file->Append("kept").ok());
  ASSERT_TRUE(file->Close().ok());
  EXPECT_TRUE(file->Close().ok());  // Closing twice is harmless.
  EXPECT_TRUE(file->Append("lost").IsIOError());
  EXPECT_TRUE(file->Flush().IsIOError());
  EXPECT_TRUE(file->Sync().IsIOError());
  file.reset();
  std::string contents;
  ASSERT_TRUE(ReadFileToString(env_, Path("f"), &contents).ok());
  EXPECT_EQ("kept", contents);
}

TEST_F(PosixEnvTest, GetChildrenOfMissingDirectoryFails) {
  std::vector<std::string> children;
  Status s = env_->GetChildren(Path("missing"), &children);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
}

TEST_F(PosixEnvTest, SubdirectoriesAppearOnceAmongChildren) {
  ASSERT_TRUE(env_->CreateDir(Path("sub")).ok());
  ASSERT_TRUE(WriteStringToFile(env_, "1", Path("sub/x")).ok());
  ASSERT_TRUE(WriteStringToFile(env_, "2", Path("sub/y")).ok());
  ASSERT_TRUE(WriteStringToFile(env_, "3", Path("top")).ok());
  std::vector<std::string> expected = {"sub", "top"};
  EXPECT_EQ(expected, ChildrenWithoutDots(env_, dir_));
  expected = {"x", "y"};
  EXPECT_EQ(expected, ChildrenWithoutDots(env_, Path("sub")));
}

TEST_F(PosixEnvTest, RandomReadBeyondTheEndIsEmpty) {
  ASSERT_TRUE(WriteStringToFile(env_, "0123456789", Path("f")).ok());
  RandomAccessFile* raw = nullptr;
  ASSERT_TRUE(env_->NewRandomAccessFile(Path("f"), &raw).ok());
  std::unique_ptr<RandomAccessFile> file(raw);
  char scratch[8];
  Slice got("x");
  ASSERT_TRUE(file->Read(1000, 5, &got, scratch).ok());
  EXPECT_TRUE(got.empty());
}

TEST_F(PosixEnvTest, LockFileCreatesTheFile) {
  FileLock* lock = nullptr;
  ASSERT_TRUE(env_->LockFile(Path("LOCK"), &lock).ok());
  EXPECT_TRUE(env_->FileExists(Path("LOCK")));
  ASSERT_TRUE(env_->UnlockFile(lock).ok());
}

TEST_F(PosixEnvTest, LogLinesCarryTimestampAndThreadId) {
  Logger* raw = nullptr;
  ASSERT_TRUE(env_->NewLogger(Path("LOG"), &raw).ok());
  Log(raw, "value=%s", "v1");
  delete raw;
  std::string log;
  ASSERT_TRUE(ReadFileToString(env_, Path("LOG"), &log).ok());
  std::regex line_format(
      "\\d{4}/\\d{2}/\\d{2}-\\d{2}:\\d{2}:\\d{2}\\.\\d{6} \\S+ value=v1\n");
  EXPECT_TRUE(std::regex_match(log, line_format)) << log;

  // A second logger on the same file appends.
  ASSERT_TRUE(env_->NewLogger(Path("LOG"), &raw).ok());
  Log(raw, "second");
  delete raw;
  ASSERT_TRUE(ReadFileToString(env_, Path("LOG"), &log).ok());
  EXPECT_EQ(2, std::count(log.begin(), log.end(), '\n'));
}

TEST_F(PosixEnvTest, TestDirectoryExists) {
  std::string first, second;
  ASSERT_TRUE(env_->GetTestDirectory(&first).ok());
  ASSERT_TRUE(env_->GetTestDirectory(&second).ok());
  EXPECT_EQ(first, second);
  std::vector<std::string> children;
  EXPECT_TRUE(env_->GetChildren(first, &children).ok());
}

// --- In-memory only
// -----------------------------------------------------------

// LevelDB 1.23's in-memory Env keeps one object per file name: rewriting,
// appending and renaming act on that object, so open handles see the change.
class MemEnvTest : public testing::Test {
 protected:
  void Write(const std::string& fname, const std::string& contents) {
    Status s = WriteStringToFile(env_.get(), contents, fname);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  std::unique_ptr<RandomAccessFile> OpenRandom(const std::string& fname) {
    RandomAccessFile* raw = nullptr;
    Status s = env_->NewRandomAccessFile(fname, &raw);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return std::unique_ptr<RandomAccessFile>(raw);
  }

  // The whole file as `reader` sees it now.
  static std::string ReadThrough(const RandomAccessFile& reader) {
    char scratch[64];
    Slice got;
    Status s = reader.Read(0, sizeof(scratch), &got, scratch);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return got.ToString();
  }

  std::unique_ptr<Env> env_{NewMemEnv(Env::Default())};
};

TEST_F(MemEnvTest, FilesAreIndependentOfTheBaseEnv) {
  Write("/only/in/memory", "x");
  EXPECT_TRUE(env_->FileExists("/only/in/memory"));
  EXPECT_FALSE(Env::Default()->FileExists("/only/in/memory"));

  // Two memory envs do not share files.
  std::unique_ptr<Env> other(NewMemEnv(Env::Default()));
  EXPECT_FALSE(other->FileExists("/only/in/memory"));
}

TEST_F(MemEnvTest, RandomReadBeyondTheEndIsAnError) {
  Write("/f", "0123456789");
  std::unique_ptr<RandomAccessFile> file = OpenRandom("/f");
  char scratch[16];
  Slice got;
  Status s = file->Read(11, 5, &got, scratch);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  s = file->Read(1000, 0, &got, scratch);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  // At the end, or running past it, is not an error.
  ASSERT_TRUE(file->Read(10, 5, &got, scratch).ok());
  EXPECT_TRUE(got.empty());
  ASSERT_TRUE(file->Read(8, 5, &got, scratch).ok());
  EXPECT_EQ("89", got.ToString());
}

TEST_F(MemEnvTest, RewriteIsSeenByOpenReaders) {
  Write("/f", "old contents");
  std::unique_ptr<RandomAccessFile> reader = OpenRandom("/f");
  ASSERT_EQ("old contents", ReadThrough(*reader));

  WritableFile* raw = nullptr;
  ASSERT_TRUE(env_->NewWritableFile("/f", &raw).ok());
  std::unique_ptr<WritableFile> writer(raw);
  EXPECT_EQ("", ReadThrough(*reader));  // truncated in place
  char scratch[8];
  Slice got;
  EXPECT_TRUE(reader->Read(4, 1, &got, scratch).IsIOError());

  ASSERT_TRUE(writer->Append("new!").ok());
  EXPECT_EQ("new!", ReadThrough(*reader));
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ("new!", ReadAll(env_.get(), "/f"));
}

TEST_F(MemEnvTest, SequentialReaderBeyondATruncatedEndFails) {
  Write("/f", "0123456789");
  SequentialFile* raw = nullptr;
  ASSERT_TRUE(env_->NewSequentialFile("/f", &raw).ok());
  std::unique_ptr<SequentialFile> reader(raw);
  char scratch[16];
  Slice got;
  ASSERT_TRUE(reader->Read(4, &got, scratch).ok());
  ASSERT_EQ("0123", got.ToString());

  Write("/f", "ab");  // now shorter than the reader's position
  EXPECT_TRUE(reader->Read(4, &got, scratch).IsIOError());
  EXPECT_TRUE(reader->Skip(1).IsIOError());

  Write("/f", "abcdef");  // long enough again
  ASSERT_TRUE(reader->Read(16, &got, scratch).ok());
  EXPECT_EQ("ef", got.ToString());
}

TEST_F(MemEnvTest, AppendsAreSeenByOpenReaders) {
  Write("/f", "abc");
  std::unique_ptr<RandomAccessFile> reader = OpenRandom("/f");
  WritableFile* raw = nullptr;
  ASSERT_TRUE(env_->NewAppendableFile("/f", &raw).ok());
  std::unique_ptr<WritableFile> appender(raw);
  ASSERT_TRUE(appender->Append("def").ok());
  EXPECT_EQ("abcdef", ReadThrough(*reader));
}

TEST_F(MemEnvTest, RenameMovesTheFile) {
  Write("/a", "abc");
  std::unique_ptr<RandomAccessFile> reader = OpenRandom("/a");
  ASSERT_TRUE(env_->RenameFile("/a", "/b").ok());
  WritableFile* raw = nullptr;
  ASSERT_TRUE(env_->NewAppendableFile("/b", &raw).ok());
  std::unique_ptr<WritableFile> appender(raw);
  ASSERT_TRUE(appender->Append("+").ok());
  EXPECT_EQ("abc+", ReadThrough(*reader));  // the same file, renamed
}

TEST_F(MemEnvTest, LockCreatesNoFileAndIsExclusive) {
  FileLock* lock = nullptr;
  ASSERT_TRUE(env_->LockFile("/db/LOCK", &lock).ok());
  ASSERT_NE(nullptr, lock);
  EXPECT_FALSE(env_->FileExists("/db/LOCK"));
  // 1.23 would grant this too; refusing it keeps two DB objects from
  // writing the same in-memory database.
  FileLock* second = nullptr;
  EXPECT_TRUE(env_->LockFile("/db/LOCK", &second).IsIOError());
  EXPECT_EQ(nullptr, second);
  ASSERT_TRUE(env_->UnlockFile(lock).ok());
  ASSERT_TRUE(env_->LockFile("/db/LOCK", &second).ok());
  ASSERT_TRUE(env_->UnlockFile(second).ok());
}

TEST_F(MemEnvTest, GetChildrenListsEveryFileBelowTheDirectory) {
  Write("/d/a", "1");
  Write("/d/sub/x", "2");
  Write("/d/sub/y", "3");
  Write("/dx/z", "4");
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren("/d", &children).ok());
  std::sort(children.begin(), children.end());
  EXPECT_EQ((std::vector<std::string>{"a", "sub/x", "sub/y"}), children);

  // A file or a missing name has no children; neither is an error.
  children = {"stale"};
  ASSERT_TRUE(env_->GetChildren("/d/a", &children).ok());
  EXPECT_TRUE(children.empty());
  ASSERT_TRUE(env_->GetChildren("/missing", &children).ok());
  EXPECT_TRUE(children.empty());
}

TEST_F(MemEnvTest, DirectoriesAreImplicit) {
  ASSERT_TRUE(env_->CreateDir("/d").ok());
  ASSERT_TRUE(env_->CreateDir("/d").ok());
  EXPECT_FALSE(env_->FileExists("/d"));
  Write("/d/f", "data");
  // Removing a directory never touches the files below it.
  ASSERT_TRUE(env_->RemoveDir("/d").ok());
  ASSERT_TRUE(env_->RemoveDir("/never/created").ok());
  EXPECT_EQ("data", ReadAll(env_.get(), "/d/f"));

  std::string test_dir;
  ASSERT_TRUE(env_->GetTestDirectory(&test_dir).ok());
  EXPECT_EQ("/test", test_dir);
}

}  // namespace
}  // namespace leveldb

int main(int argc, char** argv) {
  // Must precede the first Env::Default() call, which reads the limits.
  leveldb::EnvPosixTestHelper::SetReadOnlyMMapLimit(leveldb::kTestMmapLimit);
  leveldb::EnvPosixTestHelper::SetReadOnlyFDLimit(leveldb::kTestFdLimit);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
