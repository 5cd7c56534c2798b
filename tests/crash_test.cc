// Process-crash test. The test re-executes its own binary as a writer
// (--crash_child=<dbdir>) that appends steps to a DB with sync=true and
// reports each acknowledged step through a pipe. The parent kills it with
// SIGKILL at a random moment (sometimes while it is still recovering the
// DB), reopens the DB and checks that every acknowledged step is there,
// that nothing else is, and that batches are all-or-nothing. The next
// writer continues on the same DB, so recovered DBs get recovered again.
//
// CRASH_TEST_ITERATIONS overrides the number of kills (default 20);
// scripts/crash_test.sh runs many more. This file has its own main().

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/write_batch.h"
#include "tests/test_util.h"
#include "util/random.h"

extern char** environ;

namespace leveldb {
namespace {

constexpr char kChildFlag[] = "--crash_child=";
constexpr char kStartFlag[] = "--crash_start=";
constexpr char kFdFlag[] = "--crash_fd=";

// ---------------------------------------------------------------------------
// The schedule of writes, known to both processes. Step i always writes
// key k<i>. Some steps are batches that also write e<i>; some write d<i>
// and delete it again, so d keys of completed steps must never be seen.

bool IsBatchStep(int64_t i) { return i % 4 == 2; }
bool IsDoomedStep(int64_t i) { return i % 6 == 3; }
bool IsDoomedBatchStep(int64_t i) { return i % 10 == 7; }

std::string IndexedKey(char kind, int64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%c%012" PRId64, kind, i);
  return buf;
}

// Values of up to 4 KB: synced writes are slow, and 64 KiB memtables should
// still fill every few dozen steps.
std::string StepValue(char kind, int64_t i) {
  std::string v = std::string(1, kind) + std::to_string(i) + ":";
  const size_t len = 10 + static_cast<size_t>((i * 379) % 4000);
  for (size_t j = 0; v.size() < len; ++j) {
    v.push_back(static_cast<char>('a' + (i + j) % 26));
  }
  return v;
}

Options CrashOptions() {
  Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 * 1024;  // many flushes and compactions
  options.max_file_size = 256 * 1024;
  return options;
}

bool ParseInt64(const char* text, int64_t* out) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0') return false;
  *out = v;
  return true;
}

// Writes everything or dies: a child that cannot report is useless.
void WriteAll(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) std::_Exit(3);
    p += w;
    n -= static_cast<size_t>(w);
  }
}

// Messages on the pipe: one int64 each; -1 means "DB open", any other value
// is the number of the last acknowledged step.
constexpr int64_t kReadyMessage = -1;

// ---------------------------------------------------------------------------
// The child: write forever, report progress, never exit on its own.

int RunChild(const std::string& dbdir, int64_t start, int fd) {
  DB* db = nullptr;
  Status s = DB::Open(CrashOptions(), dbdir, &db);
  if (!s.ok()) {
    std::fprintf(stderr, "crash child: open failed: %s\n",
                 s.ToString().c_str());
    return 2;
  }
  WriteAll(fd, &kReadyMessage, sizeof(kReadyMessage));
  WriteOptions sync;
  sync.sync = true;
  for (int64_t i = start;; ++i) {
    const std::string key = IndexedKey('k', i);
    const std::string value = StepValue('k', i);
    if (IsDoomedStep(i)) {
      s = db->Put(sync, IndexedKey('d', i), StepValue('d', i));
      if (s.ok()) s = db->Delete(sync, IndexedKey('d', i));
    }
    if (!s.ok()) {
      // Fall through to the error report below.
    } else if (IsBatchStep(i) || IsDoomedBatchStep(i)) {
      WriteBatch batch;
      if (IsBatchStep(i)) batch.Put(IndexedKey('e', i), StepValue('e', i));
      if (IsDoomedBatchStep(i)) {
        batch.Put(IndexedKey('d', i), StepValue('d', i));
        batch.Delete(IndexedKey('d', i));
      }
      batch.Put(key, value);
      s = db->Write(sync, &batch);
    } else {
      s = db->Put(sync, key, value);
    }
    if (!s.ok()) {
      std::fprintf(stderr, "crash child: step %" PRId64 " failed: %s\n", i,
                   s.ToString().c_str());
      return 2;
    }
    WriteAll(fd, &i, sizeof(i));
  }
}

// ---------------------------------------------------------------------------
// The parent side.

struct ChildResult {
  bool ready = false;   // the child reported that its Open succeeded
  int64_t acked = -1;   // highest acknowledged step, -1 if none
  int exit_status = 0;  // from waitpid
  uint64_t killed_after_micros = 0;
};

// Runs one writer, kills it after `delay_ms` (counted from its "ready"
// message when `after_open`, else from the spawn) and collects its reports.
::testing::AssertionResult RunAndKillChild(const std::string& dbdir,
                                           int64_t start, int delay_ms,
                                           bool after_open,
                                           ChildResult* result) {
  int fds[2];
  if (::pipe(fds) != 0) {
    return ::testing::AssertionFailure() << "pipe: " << std::strerror(errno);
  }
  ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);

  const std::string a_db = kChildFlag + dbdir;
  const std::string a_start = kStartFlag + std::to_string(start);
  const std::string a_fd = kFdFlag + std::to_string(fds[1]);
  char self[] = "/proc/self/exe";
  std::vector<char*> argv = {self, const_cast<char*>(a_db.c_str()),
                             const_cast<char*>(a_start.c_str()),
                             const_cast<char*>(a_fd.c_str()), nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr,
                               argv.data(), environ);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return ::testing::AssertionFailure()
           << "posix_spawn: " << std::strerror(rc);
  }

  using Clock = std::chrono::steady_clock;
  const auto spawned = Clock::now();
  auto deadline = after_open ? Clock::time_point::max()
                             : spawned + std::chrono::milliseconds(delay_ms);
  // A child that never gets its DB open within this time is stuck.
  const auto give_up = spawned + std::chrono::seconds(60);
  bool eof = false;
  std::string pending;  // partial message bytes
  auto drain = [&](int timeout_ms) {
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return;
    char buf[4096];
    const ssize_t n = ::read(fds[0], buf, sizeof(buf));
    if (n <= 0) {
      if (n == 0 || errno != EINTR) eof = true;
      return;
    }
    pending.append(buf, static_cast<size_t>(n));
    size_t used = 0;
    for (; used + sizeof(int64_t) <= pending.size(); used += sizeof(int64_t)) {
      int64_t msg;
      std::memcpy(&msg, pending.data() + used, sizeof(msg));
      if (msg == kReadyMessage) {
        result->ready = true;
        if (after_open) {
          deadline = Clock::now() + std::chrono::milliseconds(delay_ms);
        }
      } else if (msg > result->acked) {
        result->acked = msg;
      }
    }
    pending.erase(0, used);
  };

  while (!eof) {
    const auto now = Clock::now();
    if (now >= deadline || now >= give_up) break;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::min(deadline, give_up) - now)
                          .count();
    drain(static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(left, 50))));
  }
  result->killed_after_micros = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() -
                                                            spawned)
          .count());
  ::kill(pid, SIGKILL);
  // Reports sent before death are still in the pipe.
  while (!eof) drain(1000);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result->exit_status = status;
  if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) {
    return ::testing::AssertionFailure()
           << "the writer ended by itself (status " << status
           << "); see its message above";
  }
  if (!result->ready && after_open) {
    return ::testing::AssertionFailure()
           << "the writer did not open the DB within 60 s";
  }
  return ::testing::AssertionSuccess();
}

// Checks the DB against the schedule: steps [0, acked] complete, step
// acked + 1 possibly in flight (all-or-nothing per batch), nothing later.
// Sets *resume to the step the next writer should start from.
::testing::AssertionResult VerifyDB(DB* db, int64_t acked) {
  int64_t next_k = 0;  // k keys must be 0, 1, 2, ... without gaps
  std::vector<int64_t> e_seen, d_seen;
  Iterator* it = db->NewIterator(ReadOptions());
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string key = it->key().ToString();
    int64_t index = -1;
    if (key.size() != 13 || !ParseInt64(key.c_str() + 1, &index) || index < 0) {
      result = ::testing::AssertionFailure()
               << "unexpected key '" << key << "'";
      break;
    }
    const char kind = key[0];
    if (it->value().ToString() != StepValue(kind, index)) {
      result = ::testing::AssertionFailure()
               << "wrong value for " << key << ": '"
               << it->value().ToString().substr(0, 40) << "'";
      break;
    }
    if (kind == 'k') {
      if (index != next_k) {
        result = ::testing::AssertionFailure()
                 << "step " << next_k << " is missing but " << key
                 << " is present (acknowledged up to " << acked << ")";
        break;
      }
      ++next_k;
    } else if (kind == 'e') {
      e_seen.push_back(index);
    } else if (kind == 'd') {
      d_seen.push_back(index);
    } else {
      result = ::testing::AssertionFailure()
               << "unexpected key '" << key << "'";
      break;
    }
  }
  if (result && !it->status().ok()) {
    result = ::testing::AssertionFailure()
             << "iterator error: " << it->status().ToString();
  }
  delete it;
  if (!result) return result;

  const int64_t last_k = next_k - 1;
  if (last_k < acked) {
    return ::testing::AssertionFailure()
           << "acknowledged steps lost: last present step " << last_k
           << ", acknowledged up to " << acked;
  }
  if (last_k > acked + 1) {
    return ::testing::AssertionFailure()
           << "step " << last_k << " present but only " << acked
           << " acknowledged and the writer runs one step at a time";
  }
  for (int64_t e : e_seen) {
    if (!IsBatchStep(e) || e > last_k) {
      return ::testing::AssertionFailure()
             << "e-key of step " << e << " without its batch (last step "
             << last_k << ")";
    }
  }
  // Every batch step up to last_k has its e key (same batch as its k key).
  size_t expected_e = 0;
  for (int64_t i = 2; i <= last_k; i += 4) ++expected_e;
  if (e_seen.size() != expected_e) {
    return ::testing::AssertionFailure()
           << e_seen.size() << " e-keys for " << expected_e
           << " batch steps: a batch was applied partially";
  }
  for (int64_t d : d_seen) {
    // Only the doomed Put of the in-flight step may be visible.
    if (d <= acked || !IsDoomedStep(d) || d > acked + 1) {
      return ::testing::AssertionFailure()
             << "deleted key d" << d << " is back (acknowledged up to " << acked
             << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

int Iterations() {
  const char* text = std::getenv("CRASH_TEST_ITERATIONS");
  int64_t n = 0;
  if (text != nullptr && ParseInt64(text, &n) && n > 0) {
    return static_cast<int>(n);
  }
  return 20;
}

TEST(CrashTest, AcknowledgedWritesSurviveSigkill) {
  Env* env = Env::Default();
  const std::string dbdir = test::NewTempDir(env, "crash_test");
  Random rnd(test::RandomSeed());
  const int iterations = Iterations();
  int64_t acked = -1;  // over all writers so far
  int64_t total_reports = 0;
  int killed_before_open = 0;

  for (int iter = 0; iter < iterations; ++iter) {
    // Between a few ms and ~300 ms; one kill in four counts from the spawn,
    // so it may land while the writer is still recovering the DB.
    const int delay_ms =
        3 + static_cast<int>(rnd.Skewed(8)) + static_cast<int>(rnd.Uniform(40));
    const bool after_open = !rnd.OneIn(4);
    ChildResult child;
    ASSERT_TRUE(RunAndKillChild(dbdir, acked + 1, delay_ms, after_open, &child))
        << "iteration " << iter;
    if (!child.ready) ++killed_before_open;
    if (child.acked >= 0) {
      ASSERT_GE(child.acked, acked + 1) << "iteration " << iter;
      total_reports += child.acked - acked;
      acked = child.acked;
    }

    Options options = CrashOptions();
    options.create_if_missing = iter == 0 && !child.ready;
    options.paranoid_checks = iter % 2 == 1;
    DB* db = nullptr;
    Status s = DB::Open(options, dbdir, &db);
    ASSERT_TRUE(s.ok()) << "iteration " << iter << " (killed after "
                        << child.killed_after_micros << " us"
                        << (child.ready ? "" : ", during its Open")
                        << "): reopen failed: " << s.ToString();
    ASSERT_TRUE(VerifyDB(db, acked))
        << "iteration " << iter << ", killed after "
        << child.killed_after_micros << " us";
    delete db;
  }
  std::vector<std::string> files;
  int tables = 0;
  if (env->GetChildren(dbdir, &files).ok()) {
    for (const std::string& f : files) {
      tables += f.size() > 4 && f.compare(f.size() - 4, 4, ".ldb") == 0;
    }
  }
  std::fprintf(stderr,
               "crash test: %d kills (%d during recovery), %" PRId64
               " acknowledged steps, %d tables at the end\n",
               iterations, killed_before_open, total_reports, tables);
  // Some writer must have got going, or the test tested nothing.
  EXPECT_GT(total_reports, 0);
  test::RemoveDirRecursively(env, dbdir);
}

}  // namespace
}  // namespace leveldb

int main(int argc, char** argv) {
  std::string child_db;
  int64_t start = -1, fd = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(leveldb::kChildFlag, 0) == 0) {
      child_db = arg.substr(std::strlen(leveldb::kChildFlag));
    } else if (arg.rfind(leveldb::kStartFlag, 0) == 0) {
      if (!leveldb::ParseInt64(argv[i] + std::strlen(leveldb::kStartFlag),
                               &start)) {
        start = -1;
      }
    } else if (arg.rfind(leveldb::kFdFlag, 0) == 0) {
      if (!leveldb::ParseInt64(argv[i] + std::strlen(leveldb::kFdFlag), &fd)) {
        fd = -1;
      }
    }
  }
  if (!child_db.empty()) {
    if (start < 0 || fd < 0) {
      std::fprintf(stderr, "usage: %s %s<dbdir> %s<step> %s<fd>\n", argv[0],
                   leveldb::kChildFlag, leveldb::kStartFlag, leveldb::kFdFlag);
      return 2;
    }
    return leveldb::RunChild(child_db, start, static_cast<int>(fd));
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
