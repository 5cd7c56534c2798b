// Crash-consistency tests. The DB runs on an in-memory file system that
// records what has reached "stable storage": file bytes become durable when
// the file is synced, and directory entries (creations, removals, renames)
// become durable when their directory is synced, which the POSIX Env does on
// the first Sync of each file and after each rename. A simulated crash throws
// away everything that is not durable and the DB is then reopened.
//
// The checks use a write history: the state recovered after a crash must be
// the state after some prefix of the acknowledged writes (batches are atomic),
// and that prefix must include every write acknowledged with sync=true and
// everything written before it.

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/write_batch.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "tests/test_util.h"
#include "util/mutexlock.h"
#include "util/random.h"

namespace leveldb {
namespace {

// ---------------------------------------------------------------------------
// The crashable file system.

struct MemFile {
  std::string data;
  size_t synced = 0;        // data[0, synced) survives a crash
  bool dir_synced = false;  // its first Sync has synced the directory
};
using FilePtr = std::shared_ptr<MemFile>;

std::string DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string BaseOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Which DB files a fault applies to.
enum FileClass : unsigned {
  kClassLog = 1u << 0,
  kClassTable = 1u << 1,
  kClassManifest = 1u << 2,
  kClassOther = 1u << 3,
  kClassAny = 0xfu,
};

unsigned ClassOf(const std::string& path) {
  uint64_t number;
  FileType type;
  if (!ParseFileName(BaseOf(path), &number, &type)) return kClassOther;
  switch (type) {
    case kLogFile:
      return kClassLog;
    case kTableFile:
      return kClassTable;
    case kDescriptorFile:
      return kClassManifest;
    default:
      return kClassOther;
  }
}

enum class FaultKind { kNone, kAppend, kSync, kCreate };

// A directory entry change not yet made durable by syncing its directory.
struct DirOp {
  enum Kind { kCreate, kRemove, kRename };
  Kind kind;
  std::string path;    // created or removed file, or the rename source
  std::string target;  // rename target
  FilePtr file;        // the created file
};

class FaultEnv : public EnvWrapper {
 public:
  explicit FaultEnv(Env* base) : EnvWrapper(base), hold_cv_(&mu_) {}

  ~FaultEnv() override = default;

  // --- fault controls ---------------------------------------------------

  // Makes appends (as "no space left": only part of the data lands), syncs
  // or file creations fail for the files of `classes`.
  void SetFault(FaultKind kind, unsigned classes) {
    MutexLock l(&mu_);
    fault_ = kind;
    fault_classes_ = classes;
  }

  // From now on every mutation fails, as if the machine had stopped.
  void Freeze() {
    MutexLock l(&mu_);
    frozen_ = true;
  }

  void Thaw() {
    MutexLock l(&mu_);
    frozen_ = false;
  }

  // Loses everything not durable. With `random_prefix` a random prefix of
  // each directory's unsynced entry changes survives (file systems that
  // journal metadata in order); otherwise all of them are lost.
  void DropUnsyncedState(bool random_prefix, Random* rnd) {
    MutexLock l(&mu_);
    last_crash_ = DescribeLocked();
    std::map<std::string, FilePtr> state = durable_;
    for (const auto& dir_ops : journal_) {
      const std::vector<DirOp>& ops = dir_ops.second;
      size_t keep = 0;
      if (random_prefix) {
        keep = rnd->Uniform(static_cast<int>(ops.size()) + 1);
      }
      for (size_t i = 0; i < keep; ++i) ApplyOp(ops[i], &state);
    }
    journal_.clear();
    for (auto& entry : state) {
      MemFile* f = entry.second.get();
      if (f->data.size() > f->synced) f->data.resize(f->synced);
    }
    live_ = state;
    durable_ = state;
  }

  // While held, background work queued through Schedule waits.
  void HoldBackgroundWork(bool hold) {
    MutexLock l(&mu_);
    hold_ = hold;
    if (!hold) hold_cv_.SignalAll();
  }

  // What the last crash found: each file's size, synced size and whether
  // its directory entry was durable. For failure messages.
  std::string LastCrashReport() {
    MutexLock l(&mu_);
    return last_crash_;
  }

  int SyncCount(unsigned classes) {
    MutexLock l(&mu_);
    int n = 0;
    for (const auto& c : sync_counts_) {
      if ((c.first & classes) != 0) n += c.second;
    }
    return n;
  }

  int CountFiles(unsigned classes) {
    MutexLock l(&mu_);
    int n = 0;
    for (const auto& entry : live_) {
      if ((ClassOf(entry.first) & classes) != 0) ++n;
    }
    return n;
  }

  // --- Env --------------------------------------------------------------

  Status NewSequentialFile(const std::string& fname,
                           SequentialFile** result) override;
  Status NewRandomAccessFile(const std::string& fname,
                             RandomAccessFile** result) override;
  Status NewWritableFile(const std::string& fname,
                         WritableFile** result) override {
    return OpenForWrite(fname, /*truncate=*/true, result);
  }
  Status NewAppendableFile(const std::string& fname,
                           WritableFile** result) override {
    return OpenForWrite(fname, /*truncate=*/false, result);
  }

  bool FileExists(const std::string& fname) override {
    MutexLock l(&mu_);
    return live_.count(fname) > 0 || dirs_.count(fname) > 0;
  }

  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* result) override {
    MutexLock l(&mu_);
    result->clear();
    if (dirs_.count(dir) == 0) return Status::NotFound(dir, "no such dir");
    for (const auto& entry : live_) {
      if (DirOf(entry.first) == dir) result->push_back(BaseOf(entry.first));
    }
    return Status::OK();
  }

  Status RemoveFile(const std::string& fname) override {
    MutexLock l(&mu_);
    if (frozen_) return Crashed(fname);
    if (live_.erase(fname) == 0) return Status::NotFound(fname, "no file");
    journal_[DirOf(fname)].push_back(DirOp{DirOp::kRemove, fname, "", nullptr});
    return Status::OK();
  }

  Status CreateDir(const std::string& dirname) override {
    MutexLock l(&mu_);
    if (frozen_) return Crashed(dirname);
    dirs_.insert(dirname);
    return Status::OK();
  }

  Status RemoveDir(const std::string& dirname) override {
    MutexLock l(&mu_);
    if (frozen_) return Crashed(dirname);
    dirs_.erase(dirname);
    return Status::OK();
  }

  Status GetFileSize(const std::string& fname, uint64_t* size) override {
    MutexLock l(&mu_);
    auto it = live_.find(fname);
    if (it == live_.end()) return Status::NotFound(fname, "no file");
    *size = it->second->data.size();
    return Status::OK();
  }

  Status RenameFile(const std::string& src,
                    const std::string& target) override {
    MutexLock l(&mu_);
    if (frozen_) return Crashed(src);
    if (DirOf(src) != DirOf(target)) {
      return Status::NotSupported("rename across directories", src);
    }
    if (live_.count(src) == 0) return Status::NotFound(src, "no file");
    DirOp op{DirOp::kRename, src, target, nullptr};
    ApplyOp(op, &live_);
    journal_[DirOf(src)].push_back(op);
    // The POSIX Env syncs the directory after every rename.
    SyncDirLocked(DirOf(target));
    return Status::OK();
  }

  Status LockFile(const std::string& fname, FileLock** lock) override;
  Status UnlockFile(FileLock* lock) override;

  void Schedule(void (*function)(void*), void* arg) override {
    target()->Schedule(&FaultEnv::RunHeldJob, new Job{this, function, arg});
  }

  Status GetTestDirectory(std::string* path) override {
    *path = "/fault_test";
    MutexLock l(&mu_);
    dirs_.insert(*path);
    return Status::OK();
  }

  Status NewLogger(const std::string& fname, Logger** result) override;

  // --- used by the file objects ------------------------------------------

  Status Append(const std::string& path, const FilePtr& file,
                const Slice& data) {
    MutexLock l(&mu_);
    if (frozen_) return Crashed(path);
    if (Faulty(FaultKind::kAppend, path)) {
      // A full disk accepts part of the write before failing.
      file->data.append(data.data(), data.size() / 2);
      return Status::IOError(path, "No space left on device");
    }
    file->data.append(data.data(), data.size());
    return Status::OK();
  }

  Status Sync(const std::string& path, const FilePtr& file) {
    MutexLock l(&mu_);
    if (frozen_) return Crashed(path);
    if (Faulty(FaultKind::kSync, path)) {
      return Status::IOError(path, "No space left on device (sync)");
    }
    file->synced = file->data.size();
    sync_counts_[ClassOf(path)]++;
    // Like the POSIX Env (util/env_posix.cc): every MANIFEST sync syncs the
    // directory, tables never do, other files on their first Sync. Keep the
    // two in step.
    const std::string base = BaseOf(path);
    const bool manifest = base.rfind("MANIFEST", 0) == 0;
    const bool table =
        base.size() > 4 && (base.compare(base.size() - 4, 4, ".ldb") == 0 ||
                            base.compare(base.size() - 4, 4, ".sst") == 0);
    if (manifest || (!table && !file->dir_synced)) {
      SyncDirLocked(DirOf(path));
      file->dir_synced = true;
    }
    return Status::OK();
  }

  std::string ReadAt(const FilePtr& file, uint64_t offset, size_t n) {
    MutexLock l(&mu_);
    if (offset >= file->data.size()) return std::string();
    return file->data.substr(offset, n);
  }

  void AppendLogLine(const FilePtr& file, const std::string& line) {
    MutexLock l(&mu_);
    if (!frozen_) file->data.append(line);
  }

 private:
  struct Job {
    FaultEnv* env;
    void (*function)(void*);
    void* arg;
  };

  static void RunHeldJob(void* arg) {
    Job* job = static_cast<Job*>(arg);
    job->env->WaitWhileHeld();
    job->function(job->arg);
    delete job;
  }

  void WaitWhileHeld() {
    MutexLock l(&mu_);
    while (hold_) hold_cv_.Wait();
  }

  static Status Crashed(const std::string& path) {
    return Status::IOError(path, "simulated crash: file system is gone");
  }

  bool Faulty(FaultKind kind, const std::string& path) const
      EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return fault_ == kind && (ClassOf(path) & fault_classes_) != 0;
  }

  static void ApplyOp(const DirOp& op, std::map<std::string, FilePtr>* state) {
    switch (op.kind) {
      case DirOp::kCreate:
        (*state)[op.path] = op.file;
        break;
      case DirOp::kRemove:
        state->erase(op.path);
        break;
      case DirOp::kRename: {
        auto it = state->find(op.path);
        if (it == state->end()) break;
        FilePtr f = it->second;
        state->erase(it);
        (*state)[op.target] = f;
        break;
      }
    }
  }

  std::string DescribeLocked() const EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    std::string out;
    std::set<std::string> names;
    for (const auto& e : live_) names.insert(e.first);
    for (const auto& e : durable_) names.insert(e.first);
    for (const std::string& name : names) {
      auto il = live_.find(name);
      auto id = durable_.find(name);
      const MemFile* f = (il != live_.end() ? il->second : id->second).get();
      out += "  " + name + ": size " + std::to_string(f->data.size()) +
             ", synced " + std::to_string(f->synced);
      if (il == live_.end()) {
        out += ", removed (removal not durable)";
      } else if (id == durable_.end() || id->second != il->second) {
        out += ", entry not durable";
      }
      out += "\n";
    }
    for (const auto& dir_ops : journal_) {
      out += "  " + std::to_string(dir_ops.second.size()) +
             " unsynced entry changes in " + dir_ops.first + "\n";
    }
    return out;
  }

  void SyncDirLocked(const std::string& dir) EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    for (auto it = durable_.begin(); it != durable_.end();) {
      it = DirOf(it->first) == dir ? durable_.erase(it) : std::next(it);
    }
    for (const auto& entry : live_) {
      if (DirOf(entry.first) == dir) durable_[entry.first] = entry.second;
    }
    journal_.erase(dir);
  }

  // Finds or creates the file; a creation is a journaled entry change.
  Status OpenForWrite(const std::string& fname, bool truncate,
                      WritableFile** result);

  port::Mutex mu_;
  port::CondVar hold_cv_ GUARDED_BY(mu_);
  std::map<std::string, FilePtr> live_ GUARDED_BY(mu_);
  std::map<std::string, FilePtr> durable_ GUARDED_BY(mu_);
  std::map<std::string, std::vector<DirOp>> journal_ GUARDED_BY(mu_);
  std::set<std::string> dirs_ GUARDED_BY(mu_);
  std::set<std::string> locked_ GUARDED_BY(mu_);
  std::map<unsigned, int> sync_counts_ GUARDED_BY(mu_);
  std::string last_crash_ GUARDED_BY(mu_);
  bool frozen_ GUARDED_BY(mu_) = false;
  bool hold_ GUARDED_BY(mu_) = false;
  FaultKind fault_ GUARDED_BY(mu_) = FaultKind::kNone;
  unsigned fault_classes_ GUARDED_BY(mu_) = 0;
};

class FaultSequentialFile : public SequentialFile {
 public:
  FaultSequentialFile(FaultEnv* env, FilePtr file)
      : env_(env), file_(std::move(file)) {}

  Status Read(size_t n, Slice* result, char* scratch) override {
    const std::string got = env_->ReadAt(file_, pos_, n);
    std::copy(got.begin(), got.end(), scratch);
    *result = Slice(scratch, got.size());
    pos_ += got.size();
    return Status::OK();
  }

  Status Skip(uint64_t n) override {
    pos_ += n;
    return Status::OK();
  }

 private:
  FaultEnv* const env_;
  const FilePtr file_;
  uint64_t pos_ = 0;
};

class FaultRandomAccessFile : public RandomAccessFile {
 public:
  FaultRandomAccessFile(FaultEnv* env, FilePtr file)
      : env_(env), file_(std::move(file)) {}

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    const std::string got = env_->ReadAt(file_, offset, n);
    std::copy(got.begin(), got.end(), scratch);
    *result = Slice(scratch, got.size());
    return Status::OK();
  }

 private:
  FaultEnv* const env_;
  const FilePtr file_;
};

class FaultWritableFile : public WritableFile {
 public:
  FaultWritableFile(FaultEnv* env, std::string path, FilePtr file)
      : env_(env), path_(std::move(path)), file_(std::move(file)) {}

  Status Append(const Slice& data) override {
    return env_->Append(path_, file_, data);
  }
  Status Close() override { return Status::OK(); }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return env_->Sync(path_, file_); }

 private:
  FaultEnv* const env_;
  const std::string path_;
  const FilePtr file_;
};

class FaultLogger : public Logger {
 public:
  FaultLogger(FaultEnv* env, FilePtr file)
      : env_(env), file_(std::move(file)) {}

  void Logv(const char* format, std::va_list ap) override {
    char buf[512];
    std::vsnprintf(buf, sizeof(buf), format, ap);
    env_->AppendLogLine(file_, std::string(buf) + "\n");
  }

 private:
  FaultEnv* const env_;
  const FilePtr file_;
};

class FaultFileLock : public FileLock {
 public:
  explicit FaultFileLock(std::string name) : name(std::move(name)) {}
  const std::string name;
};

Status FaultEnv::NewSequentialFile(const std::string& fname,
                                   SequentialFile** result) {
  MutexLock l(&mu_);
  *result = nullptr;
  auto it = live_.find(fname);
  if (it == live_.end()) return Status::NotFound(fname, "no file");
  *result = new FaultSequentialFile(this, it->second);
  return Status::OK();
}

Status FaultEnv::NewRandomAccessFile(const std::string& fname,
                                     RandomAccessFile** result) {
  MutexLock l(&mu_);
  *result = nullptr;
  auto it = live_.find(fname);
  if (it == live_.end()) return Status::NotFound(fname, "no file");
  *result = new FaultRandomAccessFile(this, it->second);
  return Status::OK();
}

Status FaultEnv::OpenForWrite(const std::string& fname, bool truncate,
                              WritableFile** result) {
  MutexLock l(&mu_);
  *result = nullptr;
  if (frozen_) return Crashed(fname);
  if (dirs_.count(DirOf(fname)) == 0) return Status::IOError(fname, "no dir");
  auto it = live_.find(fname);
  FilePtr file;
  if (it != live_.end()) {
    file = it->second;
    if (truncate) {
      file->data.clear();
      file->synced = 0;
    }
  } else {
    if (Faulty(FaultKind::kCreate, fname)) {
      return Status::IOError(fname, "No space left on device (create)");
    }
    file = std::make_shared<MemFile>();
    DirOp op{DirOp::kCreate, fname, "", file};
    ApplyOp(op, &live_);
    journal_[DirOf(fname)].push_back(op);
  }
  *result = new FaultWritableFile(this, fname, file);
  return Status::OK();
}

Status FaultEnv::LockFile(const std::string& fname, FileLock** lock) {
  *lock = nullptr;
  WritableFile* file = nullptr;
  Status s = NewAppendableFile(fname, &file);
  if (!s.ok()) return s;
  delete file;
  MutexLock l(&mu_);
  if (!locked_.insert(fname).second) {
    return Status::IOError(fname, "lock held by this process");
  }
  *lock = new FaultFileLock(fname);
  return Status::OK();
}

Status FaultEnv::UnlockFile(FileLock* lock) {
  FaultFileLock* mine = static_cast<FaultFileLock*>(lock);
  {
    MutexLock l(&mu_);
    locked_.erase(mine->name);
  }
  delete mine;
  return Status::OK();
}

Status FaultEnv::NewLogger(const std::string& fname, Logger** result) {
  WritableFile* file = nullptr;
  Status s = NewWritableFile(fname, &file);
  if (!s.ok()) {
    *result = nullptr;
    return s;
  }
  delete file;
  MutexLock l(&mu_);
  *result = new FaultLogger(this, live_[fname]);
  return Status::OK();
}

// ---------------------------------------------------------------------------
// The write history and the prefix check.

struct Op {
  std::string key;
  bool is_delete;
  std::string value;
};
using KV = std::map<std::string, std::string>;

class History {
 public:
  // One atomic write (a Put, a Delete or a batch).
  void Add(std::vector<Op> group) { pending_.push_back(std::move(group)); }

  // Everything added so far must survive.
  void MarkDurable() {
    for (const auto& group : pending_) Apply(group, &base_);
    pending_.clear();
  }

  // Checks that `db` equals the state after the durable writes plus some
  // prefix of the later ones. On success the lost writes are forgotten and
  // the recovered state becomes the durable base.
  ::testing::AssertionResult MatchRecovered(const KV& db) {
    KV state = base_;
    size_t mismatches = 0;
    std::set<std::string> keys;
    for (const auto& e : state) keys.insert(e.first);
    for (const auto& e : db) keys.insert(e.first);
    for (const std::string& k : keys) mismatches += Differs(state, db, k);
    const size_t initial_mismatches = mismatches;

    size_t matched = 0;
    bool found = mismatches == 0;
    for (size_t g = 0; g < pending_.size() && !found; ++g) {
      for (const Op& op : pending_[g]) {
        mismatches -= Differs(state, db, op.key);
        Apply({op}, &state);
        mismatches += Differs(state, db, op.key);
      }
      if (mismatches == 0) {
        found = true;
        matched = g + 1;
      }
    }
    if (!found) {
      return ::testing::AssertionFailure()
             << "recovered state is not any prefix of the history that "
                "includes the synced writes: "
             << initial_mismatches << " keys differ from the durable state, "
             << pending_.size() << " unsynced writes; " << Describe(base_, db);
    }
    pending_.resize(matched);
    MarkDurable();
    return ::testing::AssertionSuccess();
  }

  const KV& durable() const { return base_; }

  // The state with every recorded write applied.
  KV Latest() const {
    KV state = base_;
    for (const auto& group : pending_) Apply(group, &state);
    return state;
  }

 private:
  static void Apply(const std::vector<Op>& group, KV* state) {
    for (const Op& op : group) {
      if (op.is_delete) {
        state->erase(op.key);
      } else {
        (*state)[op.key] = op.value;
      }
    }
  }

  static size_t Differs(const KV& a, const KV& b, const std::string& k) {
    auto ia = a.find(k);
    auto ib = b.find(k);
    if (ia == a.end() || ib == b.end())
      return (ia == a.end()) != (ib == b.end());
    return ia->second != ib->second ? 1 : 0;
  }

  static std::string Describe(const KV& expected, const KV& got) {
    std::string out = "first differences vs durable state:";
    int shown = 0;
    std::set<std::string> keys;
    for (const auto& e : expected) keys.insert(e.first);
    for (const auto& e : got) keys.insert(e.first);
    for (const std::string& k : keys) {
      if (Differs(expected, got, k) == 0) continue;
      auto ie = expected.find(k);
      auto ig = got.find(k);
      out += " [" + k + ": want " +
             (ie == expected.end() ? "<absent>" : ie->second.substr(0, 16)) +
             ", got " +
             (ig == got.end() ? "<absent>" : ig->second.substr(0, 16)) + "]";
      if (++shown == 5) break;
    }
    return out;
  }

  KV base_;
  std::vector<std::vector<Op>> pending_;
};

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// A value unique to write number `n`, of a length that varies with it.
std::string ValueFor(uint64_t n, Random* rnd) {
  std::string v = "v" + std::to_string(n) + ".";
  v.append(rnd->Uniform(300), static_cast<char>('a' + n % 26));
  return v;
}

// ---------------------------------------------------------------------------
// Fixture

// How a storage failure is provoked.
enum class Trigger { kWrite, kSyncedWrite, kFlush, kCompaction };

struct NoSpaceParam {
  const char* name;
  FaultKind kind;
  unsigned classes;
  Trigger trigger;
};

struct CrashParam {
  bool reuse_logs;
  bool small_buffer;  // 64 KiB memtables: many flushes and compactions
  bool paranoid;
};

std::string ParamName(const ::testing::TestParamInfo<CrashParam>& info) {
  std::string name = info.param.reuse_logs ? "ReuseLogs" : "FreshLogs";
  name += info.param.small_buffer ? "SmallBuffer" : "DefaultBuffer";
  name += info.param.paranoid ? "Paranoid" : "Lenient";
  return name;
}

class FaultInjectionTest : public ::testing::Test {
 protected:
  FaultInjectionTest()
      : env_(Env::Default()), rnd_(test::RandomSeed()), dbname_("/fault/db") {
    env_.CreateDir("/fault");
  }

  ~FaultInjectionTest() override {
    // A failed assertion may leave background work held; the DB's
    // destructor waits for it.
    env_.HoldBackgroundWork(false);
    CloseDB();
  }

  Options MakeOptions() const {
    Options options;
    options.env = const_cast<FaultEnv*>(&env_);
    options.create_if_missing = true;
    options.reuse_logs = reuse_logs_;
    options.paranoid_checks = paranoid_;
    options.write_buffer_size = small_buffer_ ? 64 * 1024 : 4 << 20;
    return options;
  }

  Status OpenDB() {
    CloseDB();
    return DB::Open(MakeOptions(), dbname_, &db_);
  }

  void CloseDB() {
    delete db_;
    db_ = nullptr;
  }

  // The machine stops now: nothing more reaches storage, the DB object is
  // torn down, and everything not durable is lost.
  void Crash(bool random_prefix) {
    env_.Freeze();
    env_.HoldBackgroundWork(false);
    CloseDB();
    env_.DropUnsyncedState(random_prefix, &rnd_);
    env_.Thaw();
  }

  KV ReadAll() {
    KV out;
    Iterator* it = db_->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out[it->key().ToString()] = it->value().ToString();
    }
    EXPECT_TRUE(it->status().ok()) << it->status().ToString();
    delete it;
    return out;
  }

  // Reopens after a crash and checks the recovered state against history_.
  void ReopenAndVerify() {
    Status s = OpenDB();
    ASSERT_TRUE(s.ok()) << "reopen after crash: " << s.ToString();
    const KV db = ReadAll();
    ASSERT_TRUE(history_.MatchRecovered(db)) << "files at the last crash:\n"
                                             << env_.LastCrashReport();
    // Point reads agree with the iterator.
    for (const auto& e : history_.durable()) {
      std::string v;
      s = db_->Get(ReadOptions(), e.first, &v);
      ASSERT_TRUE(s.ok()) << e.first << ": " << s.ToString();
      ASSERT_EQ(e.second, v) << e.first;
    }
  }

  // One random write: a Put, a Delete or a batch over a small key space.
  // Returns the write's status; on success it is recorded in history_.
  Status RandomWrite(bool sync) {
    std::vector<Op> group;
    const int n = rnd_.OneIn(4) ? 2 + static_cast<int>(rnd_.Uniform(5)) : 1;
    WriteBatch batch;
    for (int i = 0; i < n; ++i) {
      Op op;
      op.key = Key(static_cast<int>(rnd_.Uniform(kKeySpace)));
      op.is_delete = rnd_.OneIn(7);
      if (op.is_delete) {
        batch.Delete(op.key);
      } else {
        op.value = ValueFor(++write_counter_, &rnd_);
        batch.Put(op.key, op.value);
      }
      group.push_back(op);
    }
    WriteOptions wo;
    wo.sync = sync;
    Status s;
    if (n > 1) {
      s = db_->Write(wo, &batch);
    } else if (group[0].is_delete) {
      s = db_->Delete(wo, group[0].key);
    } else {
      s = db_->Put(wo, group[0].key, group[0].value);
    }
    if (s.ok()) {
      history_.Add(std::move(group));
      if (sync) history_.MarkDurable();
    }
    return s;
  }

  static constexpr int kKeySpace = 2000;

  FaultEnv env_;
  Random rnd_;
  const std::string dbname_;
  DB* db_ = nullptr;
  History history_;
  uint64_t write_counter_ = 0;
  bool reuse_logs_ = false;
  bool small_buffer_ = true;
  bool paranoid_ = false;
};

class CrashRecoveryTest : public FaultInjectionTest,
                          public ::testing::WithParamInterface<CrashParam> {
 protected:
  CrashRecoveryTest() {
    reuse_logs_ = GetParam().reuse_logs;
    small_buffer_ = GetParam().small_buffer;
    paranoid_ = GetParam().paranoid;
  }
};

// Rounds of random writes (one in eight synced), occasional manual
// compactions, then a crash at an arbitrary moment (background flushes and
// compactions may be in flight) and a check of the recovered state.
TEST_P(CrashRecoveryTest, SyncedWritesAndTheirPrefixSurvive) {
  const int kRounds = 8;
  const int kWritesPerRound = 1500;
  ASSERT_TRUE(OpenDB().ok());
  for (int round = 0; round < kRounds; ++round) {
    const int log_syncs_before = env_.SyncCount(kClassLog);
    int synced_writes = 0;
    for (int i = 0; i < kWritesPerRound; ++i) {
      const bool sync = rnd_.OneIn(8);
      synced_writes += sync;
      Status s = RandomWrite(sync);
      ASSERT_TRUE(s.ok()) << "round " << round << " write " << i << ": "
                          << s.ToString();
      if (rnd_.OneIn(500)) {
        const std::string a = Key(static_cast<int>(rnd_.Uniform(kKeySpace)));
        const std::string b = Key(static_cast<int>(rnd_.Uniform(kKeySpace)));
        const Slice lo(a < b ? a : b), hi(a < b ? b : a);
        db_->CompactRange(&lo, &hi);
      }
    }
    // sync=true must reach the log file's Sync (every synced write may share
    // one group commit, but there is no concurrency here).
    EXPECT_GE(env_.SyncCount(kClassLog) - log_syncs_before, synced_writes);
    Crash(/*random_prefix=*/round % 2 == 1);
    ReopenAndVerify();
    if (HasFatalFailure()) {
      ADD_FAILURE() << "failed after the crash of round " << round;
      return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, CrashRecoveryTest,
                         ::testing::Values(CrashParam{false, true, false},
                                           CrashParam{true, true, false},
                                           CrashParam{false, false, false},
                                           CrashParam{true, false, false},
                                           CrashParam{false, true, true},
                                           CrashParam{true, true, true},
                                           CrashParam{false, false, true},
                                           CrashParam{true, false, true}),
                         ParamName);

// Without a crash, a close and reopen keeps every acknowledged write,
// synced or not.
TEST_F(FaultInjectionTest, ReopenWithoutCrashKeepsEverything) {
  ASSERT_TRUE(OpenDB().ok());
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(RandomWrite(false).ok());
  history_.MarkDurable();
  ASSERT_TRUE(OpenDB().ok());  // closes and reopens, no crash
  ASSERT_TRUE(history_.MatchRecovered(ReadAll()));
  ASSERT_EQ(history_.durable(), ReadAll());
}

// Crashing again and again right after recovery, before any new write,
// tests that recovery itself leaves a recoverable DB at every step.
TEST_F(FaultInjectionTest, RepeatedCrashDuringRecovery) {
  ASSERT_TRUE(OpenDB().ok());
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(RandomWrite(rnd_.OneIn(10)).ok());
  for (int round = 0; round < 10; ++round) {
    Crash(/*random_prefix=*/round % 2 == 0);
    ReopenAndVerify();
    if (HasFatalFailure()) {
      ADD_FAILURE() << "failed at round " << round;
      return;
    }
  }
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(RandomWrite(true).ok());
  Crash(false);
  ReopenAndVerify();
}

// The log is switched when the memtable fills up, and the old log is only
// read again if the crash comes before the old memtable is flushed. A synced
// write in the new log must not survive while earlier writes that sat
// unsynced in the old log are lost.
TEST_F(FaultInjectionTest, SyncedWriteAfterLogSwitchCoversOlderLog) {
  for (bool reuse : {false, true}) {
    SCOPED_TRACE(reuse ? "reuse_logs" : "fresh logs");
    reuse_logs_ = reuse;
    history_ = History();
    env_.HoldBackgroundWork(false);
    CloseDB();
    ASSERT_TRUE(DestroyDB(dbname_, MakeOptions()).ok());
    ASSERT_TRUE(OpenDB().ok());
    env_.HoldBackgroundWork(true);  // the old memtable stays unflushed
    const int logs_before = env_.CountFiles(kClassLog);
    int writes = 0;
    while (env_.CountFiles(kClassLog) == logs_before) {
      ASSERT_TRUE(RandomWrite(false).ok());
      ASSERT_LT(++writes, 100000) << "memtable never switched";
    }
    ASSERT_TRUE(RandomWrite(true).ok());
    Crash(/*random_prefix=*/false);
    ReopenAndVerify();
  }
}

// A synced write right after Open must survive, both for a brand-new DB
// (its CURRENT and first log were just created) and for a reopened one
// (CURRENT was just switched to a new MANIFEST, or with reuse_logs the old
// MANIFEST and log are kept).
TEST_F(FaultInjectionTest, SyncedWriteRightAfterOpenSurvives) {
  for (bool reuse : {false, true}) {
    SCOPED_TRACE(reuse ? "reuse_logs" : "fresh logs");
    reuse_logs_ = reuse;
    history_ = History();
    CloseDB();
    ASSERT_TRUE(DestroyDB(dbname_, MakeOptions()).ok());
    ASSERT_TRUE(OpenDB().ok());
    ASSERT_TRUE(RandomWrite(true).ok());
    Crash(/*random_prefix=*/false);
    ReopenAndVerify();
    if (HasFatalFailure()) return;
    for (int round = 0; round < 3; ++round) {
      SCOPED_TRACE("reopen " + std::to_string(round));
      // Unsynced writes, a clean reopen (which moves them into a table),
      // then one synced write and a crash: all of it must be there.
      for (int i = 0; i < 50; ++i) ASSERT_TRUE(RandomWrite(false).ok());
      history_.MarkDurable();  // the clean close below keeps them
      ASSERT_TRUE(OpenDB().ok());
      ASSERT_TRUE(RandomWrite(true).ok());
      Crash(/*random_prefix=*/false);
      ReopenAndVerify();
      if (HasFatalFailure()) return;
    }
  }
}

// ---------------------------------------------------------------------------
// Failing storage: writes stop for good, nothing acknowledged is lost.

class NoSpaceTest : public FaultInjectionTest,
                    public ::testing::WithParamInterface<NoSpaceParam> {
 protected:
  // Big memtables: the only tables are the ones the test flushes itself.
  NoSpaceTest() { small_buffer_ = false; }

  // Provokes the fault, checks that the DB refuses every later write, then
  // reopens on healthy storage (after a crash or a clean close) and checks
  // that nothing acknowledged was lost.
  void RunScenario(bool crash);
};

std::string NoSpaceName(const ::testing::TestParamInfo<NoSpaceParam>& info) {
  return info.param.name;
}

void NoSpaceTest::RunScenario(bool crash) {
  const NoSpaceParam& p = GetParam();
  ASSERT_TRUE(OpenDB().ok());
  DBImpl* impl = static_cast<DBImpl*>(db_);

  // Two level-0 tables and some data only in the log.
  for (int i = 0; i < 1500; ++i) ASSERT_TRUE(RandomWrite(i % 5 == 0).ok());
  ASSERT_TRUE(impl->TEST_CompactMemTable().ok());
  for (int i = 0; i < 1500; ++i) ASSERT_TRUE(RandomWrite(i % 5 == 0).ok());
  ASSERT_TRUE(impl->TEST_CompactMemTable().ok());
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(RandomWrite(i % 5 == 0).ok());
  if (!crash) history_.MarkDurable();  // a clean close keeps them all
  const KV acknowledged = history_.Latest();

  env_.SetFault(p.kind, p.classes);
  Status s;
  switch (p.trigger) {
    case Trigger::kWrite:
    case Trigger::kSyncedWrite: {
      WriteOptions wo;
      wo.sync = p.trigger == Trigger::kSyncedWrite;
      s = db_->Put(wo, "trigger", "maybe");
      // A failed write may or may not be recovered later.
      if (!s.ok()) history_.Add({Op{"trigger", false, "maybe"}});
      break;
    }
    case Trigger::kFlush:
      s = impl->TEST_CompactMemTable();
      break;
    case Trigger::kCompaction:
      // The two flushed tables sit on overlapping levels (level 0, or pushed
      // down to 1 and 2); merging them writes a table and a MANIFEST record.
      for (int level = 0; level + 1 < config::kNumLevels; ++level) {
        impl->TEST_CompactRange(level, nullptr, nullptr);
      }
      s = db_->Put(WriteOptions(), "after-compaction", "x");
      break;
  }
  ASSERT_FALSE(s.ok()) << p.name << ": the fault went unnoticed";

  // Healthy storage again, but the DB must refuse writes: its in-memory
  // state may no longer match what is on disk.
  env_.SetFault(FaultKind::kNone, 0);
  for (int i = 0; i < 20; ++i) {
    WriteOptions wo;
    wo.sync = i % 2 == 0;
    const std::string key = "sticky" + std::to_string(i);
    Status w;
    if (i % 3 == 0) {
      w = db_->Put(wo, key, "must not appear");
    } else if (i % 3 == 1) {
      WriteBatch b;
      b.Put(key, "must not appear");
      b.Delete(Key(i));
      w = db_->Write(wo, &b);
    } else {
      w = db_->Delete(wo, Key(i));
    }
    ASSERT_FALSE(w.ok()) << "write " << i << " succeeded after an I/O error";
    std::string v;
    ASSERT_TRUE(db_->Get(ReadOptions(), key, &v).IsNotFound())
        << key << " became visible although its write failed";
  }

  // Reads still work and see every acknowledged write.
  const KV live = ReadAll();
  for (const auto& e : acknowledged) {
    auto it = live.find(e.first);
    ASSERT_TRUE(it != live.end()) << e.first << " missing from the live DB";
    ASSERT_EQ(e.second, it->second);
  }
  for (const auto& e : live) {
    if (e.first == "trigger") continue;  // its write failed: either way
    ASSERT_EQ(1u, acknowledged.count(e.first))
        << e.first << " is in the live DB but was deleted or never written";
  }

  {
    SCOPED_TRACE("first reopen on healthy storage");
    if (crash) Crash(/*random_prefix=*/false);
    ReopenAndVerify();
    if (HasFatalFailure()) return;
  }

  // The reopened DB accepts writes again.
  SCOPED_TRACE("reopen after more writes and a crash");
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(RandomWrite(i % 3 == 0).ok());
  Crash(/*random_prefix=*/false);
  ReopenAndVerify();
}

TEST_P(NoSpaceTest, ErrorIsStickyAndNothingAcknowledgedIsLost) {
  RunScenario(/*crash=*/false);
}

TEST_P(NoSpaceTest, ErrorIsStickyAndSyncedWritesSurviveCrash) {
  RunScenario(/*crash=*/true);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, NoSpaceTest,
    ::testing::Values(NoSpaceParam{"LogAppend", FaultKind::kAppend, kClassLog,
                                   Trigger::kWrite},
                      NoSpaceParam{"LogSync", FaultKind::kSync, kClassLog,
                                   Trigger::kSyncedWrite},
                      NoSpaceParam{"FlushTableAppend", FaultKind::kAppend,
                                   kClassTable, Trigger::kFlush},
                      NoSpaceParam{"FlushTableSync", FaultKind::kSync,
                                   kClassTable, Trigger::kFlush},
                      NoSpaceParam{"FlushManifestAppend", FaultKind::kAppend,
                                   kClassManifest, Trigger::kFlush},
                      NoSpaceParam{"FlushManifestSync", FaultKind::kSync,
                                   kClassManifest, Trigger::kFlush},
                      NoSpaceParam{"CompactionTableAppend", FaultKind::kAppend,
                                   kClassTable, Trigger::kCompaction},
                      NoSpaceParam{"CompactionManifestSync", FaultKind::kSync,
                                   kClassManifest, Trigger::kCompaction}),
    NoSpaceName);

}  // namespace
}  // namespace leveldb
