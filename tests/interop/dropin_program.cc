// A client program written for LevelDB 1.23 and compiled ONLY against
// Debian's headers (/usr/include/leveldb), linked with Debian's
// libleveldb.so.1d. ctest runs it once as built and once with the loader
// pointed at the fork's libleveldb.so.1d: a drop-in replacement must pass
// every check below without recompiling.
//
// It exercises the C++ API (including subclasses of Comparator, Env via
// EnvWrapper, WritableFile, RandomAccessFile, Logger, Cache, FilterPolicy
// and WriteBatch::Handler, whose virtual tables the library calls into) and
// the C API. Output lines starting with "dropin:" tell the ctest script which
// library was loaded; the exit status is 0 only if every check passed.
//
//   dropin_program WORK_DIR
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "leveldb/c.h"
#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/db.h"
#include "leveldb/dumpfile.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/helpers/memenv.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "leveldb/write_batch.h"

namespace {

int g_checks = 0;
int g_failures = 0;

void Report(bool ok, const char* file, int line, const std::string& what) {
  ++g_checks;
  if (!ok) {
    ++g_failures;
    std::fprintf(stderr, "FAILED %s:%d: %s\n", file, line, what.c_str());
  }
}

#define EXPECT(cond) Report((cond), __FILE__, __LINE__, #cond)
#define EXPECT_MSG(cond, msg) \
  Report((cond), __FILE__, __LINE__, std::string(#cond) + ": " + (msg))
#define EXPECT_OK(expr)                                                  \
  do {                                                                   \
    leveldb::Status _s = (expr);                                         \
    Report(_s.ok(), __FILE__, __LINE__, #expr + (": " + _s.ToString())); \
  } while (0)

// A deterministic key and value for index i; values are incompressible and
// large enough that a few thousand of them fill several tables.
std::string KeyFor(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

std::string ValueFor(int i, int version) {
  std::string v;
  uint32_t x = static_cast<uint32_t>(i * 2654435761u + version * 40503u + 1);
  const size_t size = 20 + static_cast<size_t>(i % 7) * 60;
  for (size_t j = 0; j < size; ++j) {
    x = x * 1103515245u + 12345u;
    v.push_back(static_cast<char>(x >> 24));
  }
  return v;
}

// ---------------------------------------------------------------------------
// Subclasses whose virtual functions the library calls.

// Orders keys by reversed bytewise order.
class ReverseComparator : public leveldb::Comparator {
 public:
  int Compare(const leveldb::Slice& a, const leveldb::Slice& b) const override {
    return -a.compare(b);
  }
  const char* Name() const override { return "dropin.ReverseComparator"; }
  void FindShortestSeparator(std::string*,
                             const leveldb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

// The built-in Bloom filter under another name, counting how it is used.
class CountingFilterPolicy : public leveldb::FilterPolicy {
 public:
  CountingFilterPolicy() : bloom_(leveldb::NewBloomFilterPolicy(10)) {}
  const char* Name() const override { return "dropin.CountingBloom"; }
  void CreateFilter(const leveldb::Slice* keys, int n,
                    std::string* dst) const override {
    creates_ += 1;
    keys_ += n;
    bloom_->CreateFilter(keys, n, dst);
  }
  bool KeyMayMatch(const leveldb::Slice& key,
                   const leveldb::Slice& filter) const override {
    probes_ += 1;
    const bool match = bloom_->KeyMayMatch(key, filter);
    if (!match) rejections_ += 1;
    return match;
  }

  mutable std::atomic<int> creates_{0};
  mutable std::atomic<int> keys_{0};
  mutable std::atomic<int> probes_{0};
  mutable std::atomic<int> rejections_{0};

 private:
  std::unique_ptr<const leveldb::FilterPolicy> bloom_;
};

// Keeps every line the library logs.
class CapturingLogger : public leveldb::Logger {
 public:
  void Logv(const char* format, std::va_list ap) override {
    char buf[1024];
    std::vsnprintf(buf, sizeof(buf), format, ap);
    std::lock_guard<std::mutex> lock(mu_);
    lines_.emplace_back(buf);
  }
  size_t Count() {
    std::lock_guard<std::mutex> lock(mu_);
    return lines_.size();
  }

 private:
  std::mutex mu_;
  std::vector<std::string> lines_;
};

// An unbounded reference-counted cache, standing in for the LRU cache.
class MapCache : public leveldb::Cache {
 public:
  ~MapCache() override {
    for (auto& entry : map_) Unref(entry.second);
  }
  Handle* Insert(const leveldb::Slice& key, void* value, size_t charge,
                 void (*deleter)(const leveldb::Slice& key,
                                 void* value)) override {
    std::lock_guard<std::mutex> lock(mu_);
    Entry* e = new Entry;
    e->key = key.ToString();
    e->value = value;
    e->charge = charge;
    e->deleter = deleter;
    e->refs = 2;  // the map's and the caller's
    auto it = map_.find(e->key);
    if (it != map_.end()) {
      Unref(it->second);
      it->second = e;
    } else {
      map_.emplace(e->key, e);
    }
    total_charge_ += charge;
    inserts_ += 1;
    return e;
  }
  Handle* Lookup(const leveldb::Slice& key) override {
    std::lock_guard<std::mutex> lock(mu_);
    lookups_ += 1;
    auto it = map_.find(key.ToString());
    if (it == map_.end()) return nullptr;
    hits_ += 1;
    it->second->refs += 1;
    return it->second;
  }
  void Release(Handle* handle) override {
    std::lock_guard<std::mutex> lock(mu_);
    Unref(static_cast<Entry*>(handle));
  }
  void* Value(Handle* handle) override {
    return static_cast<Entry*>(handle)->value;
  }
  void Erase(const leveldb::Slice& key) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(key.ToString());
    if (it == map_.end()) return;
    Unref(it->second);
    map_.erase(it);
  }
  uint64_t NewId() override { return ++last_id_; }
  size_t TotalCharge() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return total_charge_;
  }

  std::atomic<int> inserts_{0};
  std::atomic<int> lookups_{0};
  std::atomic<int> hits_{0};

 private:
  struct Entry : Handle {
    std::string key;
    void* value;
    size_t charge;
    void (*deleter)(const leveldb::Slice&, void*);
    int refs;
  };
  void Unref(Entry* e) {
    if (--e->refs == 0) {
      total_charge_ -= e->charge;
      e->deleter(e->key, e->value);
      delete e;
    }
  }

  mutable std::mutex mu_;
  std::map<std::string, Entry*> map_;
  size_t total_charge_ = 0;
  std::atomic<uint64_t> last_id_{0};
};

// Wraps the library's files, counting the calls the library makes.
class CountingWritableFile : public leveldb::WritableFile {
 public:
  CountingWritableFile(leveldb::WritableFile* base, std::atomic<int64_t>* bytes)
      : base_(base), bytes_(bytes) {}
  ~CountingWritableFile() override { delete base_; }
  leveldb::Status Append(const leveldb::Slice& data) override {
    *bytes_ += static_cast<int64_t>(data.size());
    return base_->Append(data);
  }
  leveldb::Status Close() override { return base_->Close(); }
  leveldb::Status Flush() override { return base_->Flush(); }
  leveldb::Status Sync() override { return base_->Sync(); }

 private:
  leveldb::WritableFile* const base_;
  std::atomic<int64_t>* const bytes_;
};

class CountingRandomAccessFile : public leveldb::RandomAccessFile {
 public:
  CountingRandomAccessFile(leveldb::RandomAccessFile* base,
                           std::atomic<int>* reads)
      : base_(base), reads_(reads) {}
  ~CountingRandomAccessFile() override { delete base_; }
  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    *reads_ += 1;
    leveldb::Status s = base_->Read(offset, n, result, scratch);
    // Hand back our own copy, as a non-mmap file would: the library may then
    // keep the block in the block cache.
    if (s.ok() && result->data() != scratch) {
      std::memcpy(scratch, result->data(), result->size());
      *result = leveldb::Slice(scratch, result->size());
    }
    return s;
  }

 private:
  leveldb::RandomAccessFile* const base_;
  std::atomic<int>* const reads_;
};

class CountingEnv : public leveldb::EnvWrapper {
 public:
  CountingEnv() : EnvWrapper(leveldb::Env::Default()) {}

  leveldb::Status NewWritableFile(const std::string& f,
                                  leveldb::WritableFile** r) override {
    writable_opens_ += 1;
    leveldb::Status s = target()->NewWritableFile(f, r);
    if (s.ok()) *r = new CountingWritableFile(*r, &bytes_written_);
    return s;
  }
  leveldb::Status NewRandomAccessFile(const std::string& f,
                                      leveldb::RandomAccessFile** r) override {
    random_opens_ += 1;
    leveldb::Status s = target()->NewRandomAccessFile(f, r);
    if (s.ok()) *r = new CountingRandomAccessFile(*r, &random_reads_);
    return s;
  }
  leveldb::Status NewSequentialFile(const std::string& f,
                                    leveldb::SequentialFile** r) override {
    sequential_opens_ += 1;
    return target()->NewSequentialFile(f, r);
  }
  leveldb::Status RenameFile(const std::string& s,
                             const std::string& t) override {
    renames_ += 1;
    return target()->RenameFile(s, t);
  }
  leveldb::Status LockFile(const std::string& f,
                           leveldb::FileLock** l) override {
    locks_ += 1;
    return target()->LockFile(f, l);
  }
  void Schedule(void (*f)(void*), void* a) override {
    schedules_ += 1;
    target()->Schedule(f, a);
  }

  std::atomic<int> writable_opens_{0};
  std::atomic<int> random_opens_{0};
  std::atomic<int> sequential_opens_{0};
  std::atomic<int> renames_{0};
  std::atomic<int> locks_{0};
  std::atomic<int> schedules_{0};
  std::atomic<int> random_reads_{0};
  std::atomic<int64_t> bytes_written_{0};
};

// Records what a batch holds.
class RecordingHandler : public leveldb::WriteBatch::Handler {
 public:
  void Put(const leveldb::Slice& key, const leveldb::Slice& value) override {
    ops_ += "put(" + key.ToString() + "," + value.ToString() + ")";
  }
  void Delete(const leveldb::Slice& key) override {
    ops_ += "del(" + key.ToString() + ")";
  }
  std::string ops_;
};

// Collects what DumpFile prints.
class StringFile : public leveldb::WritableFile {
 public:
  leveldb::Status Append(const leveldb::Slice& data) override {
    text_.append(data.data(), data.size());
    return leveldb::Status::OK();
  }
  leveldb::Status Close() override { return leveldb::Status::OK(); }
  leveldb::Status Flush() override { return leveldb::Status::OK(); }
  leveldb::Status Sync() override { return leveldb::Status::OK(); }
  std::string text_;
};

// ---------------------------------------------------------------------------
// Which library is this?

void ReportLibrary() {
  Dl_info info;
  std::memset(&info, 0, sizeof(info));
  const void* symbol = reinterpret_cast<const void*>(&leveldb_major_version);
  if (dladdr(symbol, &info) != 0 && info.dli_fname != nullptr) {
    std::printf("dropin: loaded-from=%s\n", info.dli_fname);
  } else {
    std::printf("dropin: loaded-from=unknown\n");
  }
  std::printf("dropin: version=%d.%d\n", leveldb_major_version(),
              leveldb_minor_version());
  EXPECT(leveldb_major_version() == 1);
  EXPECT(leveldb_minor_version() == 23);
}

// ---------------------------------------------------------------------------
// C++ API

std::string Get(leveldb::DB* db, const std::string& key,
                const leveldb::ReadOptions& ro = leveldb::ReadOptions()) {
  std::string value;
  leveldb::Status s = db->Get(ro, key, &value);
  if (s.IsNotFound()) return "NOT_FOUND";
  if (!s.ok()) return "ERROR: " + s.ToString();
  return value;
}

void TestBasicOperations(leveldb::DB* db) {
  leveldb::WriteOptions wo;
  EXPECT_OK(db->Put(wo, "alpha", "1"));
  EXPECT_OK(db->Put(wo, "beta", "2"));
  EXPECT(Get(db, "alpha") == "1");
  EXPECT_OK(db->Delete(wo, "alpha"));
  EXPECT(Get(db, "alpha") == "NOT_FOUND");
  EXPECT_OK(db->Delete(wo, "never-written"));
  // An empty key and binary bytes are ordinary keys.
  EXPECT_OK(db->Put(wo, "", "empty-key"));
  const std::string binary("\0\xff\x01", 3);
  EXPECT_OK(db->Put(wo, binary, std::string("\0v\0", 3)));
  EXPECT(Get(db, "") == "empty-key");
  EXPECT(Get(db, binary) == std::string("\0v\0", 3));
  EXPECT_OK(db->Delete(wo, ""));
  EXPECT_OK(db->Delete(wo, binary));

  leveldb::WriteBatch batch;
  batch.Put("gamma", "3");
  batch.Delete("beta");
  batch.Put("delta", "4");
  leveldb::WriteBatch more;
  more.Put("epsilon", "5");
  batch.Append(more);
  EXPECT(batch.ApproximateSize() > 12);
  RecordingHandler handler;
  EXPECT_OK(batch.Iterate(&handler));
  EXPECT_MSG(handler.ops_ == "put(gamma,3)del(beta)put(delta,4)put(epsilon,5)",
             handler.ops_);
  wo.sync = true;
  EXPECT_OK(db->Write(wo, &batch));
  EXPECT(Get(db, "beta") == "NOT_FOUND");
  EXPECT(Get(db, "gamma") == "3");
  EXPECT(Get(db, "epsilon") == "5");
  batch.Clear();
  EXPECT_OK(batch.Iterate(&handler));
  for (const char* k : {"gamma", "delta", "epsilon"}) batch.Delete(k);
  EXPECT_OK(db->Write(leveldb::WriteOptions(), &batch));
  EXPECT(Get(db, "delta") == "NOT_FOUND");
}

// Writes kCount keys (some overwritten, some deleted) and returns the model.
std::map<std::string, std::string> FillDb(leveldb::DB* db, int count) {
  std::map<std::string, std::string> model;
  leveldb::WriteOptions wo;
  for (int i = 0; i < count; ++i) {
    EXPECT_OK(db->Put(wo, KeyFor(i), ValueFor(i, 0)));
    model[KeyFor(i)] = ValueFor(i, 0);
  }
  for (int i = 0; i < count; i += 5) {
    EXPECT_OK(db->Put(wo, KeyFor(i), ValueFor(i, 1)));
    model[KeyFor(i)] = ValueFor(i, 1);
  }
  for (int i = 3; i < count; i += 11) {
    EXPECT_OK(db->Delete(wo, KeyFor(i)));
    model.erase(KeyFor(i));
  }
  return model;
}

void CheckContents(leveldb::DB* db,
                   const std::map<std::string, std::string>& model, int count,
                   const char* when) {
  int wrong = 0;
  for (int i = 0; i < count; ++i) {
    auto it = model.find(KeyFor(i));
    const std::string want = it == model.end() ? "NOT_FOUND" : it->second;
    if (Get(db, KeyFor(i)) != want) ++wrong;
  }
  EXPECT_MSG(wrong == 0, std::string(when) + ": " + std::to_string(wrong) +
                             " keys read back wrong");

  leveldb::ReadOptions ro;
  ro.verify_checksums = true;
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(ro));
  auto expected = model.begin();
  int mismatches = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++expected) {
    if (expected == model.end() || it->key() != expected->first ||
        it->value() != expected->second) {
      ++mismatches;
      break;
    }
  }
  EXPECT_OK(it->status());
  EXPECT_MSG(mismatches == 0 && expected == model.end(),
             std::string(when) + ": forward iteration differs");
  auto back = model.rbegin();
  mismatches = 0;
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++back) {
    if (back == model.rend() || it->key() != back->first ||
        it->value() != back->second) {
      ++mismatches;
      break;
    }
  }
  EXPECT_MSG(mismatches == 0 && back == model.rend(),
             std::string(when) + ": backward iteration differs");
  // Seek to a deleted key lands on the next live one; Prev steps back.
  it->Seek(KeyFor(3));
  auto next = model.lower_bound(KeyFor(3));
  EXPECT(it->Valid() && next != model.end() && it->key() == next->first);
  it->Prev();
  EXPECT(it->Valid() && it->key() == KeyFor(2));
  it->Seek("zzz");
  EXPECT(!it->Valid());
}

bool g_cleanup_ran = false;
void MarkCleanup(void* arg1, void* arg2) {
  g_cleanup_ran = (arg1 == &g_cleanup_ran && arg2 == nullptr);
}

void TestSnapshotAndIteratorCleanup(leveldb::DB* db) {
  leveldb::WriteOptions wo;
  EXPECT_OK(db->Put(wo, "snap", "old"));
  const leveldb::Snapshot* snapshot = db->GetSnapshot();
  std::unique_ptr<leveldb::Iterator> before(
      db->NewIterator(leveldb::ReadOptions()));
  EXPECT_OK(db->Put(wo, "snap", "new"));
  EXPECT_OK(db->Put(wo, "snap2", "x"));
  leveldb::ReadOptions ro;
  ro.snapshot = snapshot;
  EXPECT(Get(db, "snap", ro) == "old");
  EXPECT(Get(db, "snap2", ro) == "NOT_FOUND");
  EXPECT(Get(db, "snap") == "new");
  // An iterator sees the state at its creation.
  before->Seek("snap");
  EXPECT(before->Valid() && before->value() == "old");
  before->Next();
  EXPECT(!before->Valid() || before->key() != "snap2");
  before->RegisterCleanup(&MarkCleanup, &g_cleanup_ran, nullptr);
  before.reset();
  EXPECT(g_cleanup_ran);
  db->ReleaseSnapshot(snapshot);
  EXPECT_OK(db->Delete(wo, "snap"));
  EXPECT_OK(db->Delete(wo, "snap2"));
}

uint64_t PropertyNumber(leveldb::DB* db, const std::string& name) {
  std::string value;
  if (!db->GetProperty(name, &value)) return UINT64_MAX;
  return std::strtoull(value.c_str(), nullptr, 10);
}

void TestPropertiesAndSizes(leveldb::DB* db, int count) {
  db->CompactRange(nullptr, nullptr);
  uint64_t files = 0;
  for (int level = 0; level < 7; ++level) {
    const uint64_t n = PropertyNumber(
        db, "leveldb.num-files-at-level" + std::to_string(level));
    EXPECT(n != UINT64_MAX);
    if (n != UINT64_MAX) files += n;
  }
  EXPECT_MSG(files >= 1, "files after compaction: " + std::to_string(files));
  std::string value;
  EXPECT(!db->GetProperty("leveldb.num-files-at-level7", &value));
  EXPECT(!db->GetProperty("leveldb.no-such-property", &value));
  EXPECT(db->GetProperty("leveldb.stats", &value) && !value.empty());
  EXPECT(db->GetProperty("leveldb.sstables", &value) && !value.empty());
  EXPECT(PropertyNumber(db, "leveldb.approximate-memory-usage") > 0 &&
         PropertyNumber(db, "leveldb.approximate-memory-usage") != UINT64_MAX);

  // Compacting a sub-range keeps the data.
  const std::string from = KeyFor(count / 4), to = KeyFor(count / 2);
  leveldb::Slice b(from), e(to);
  db->CompactRange(&b, &e);

  leveldb::Range ranges[3] = {
      leveldb::Range(KeyFor(0), KeyFor(count)),
      leveldb::Range(KeyFor(0), KeyFor(count / 2)),
      leveldb::Range("zzz0", "zzz9"),
  };
  uint64_t sizes[3] = {0, 0, 0};
  db->GetApproximateSizes(ranges, 3, sizes);
  // About count * 200 bytes of incompressible values are in tables.
  EXPECT_MSG(sizes[0] > static_cast<uint64_t>(count) * 100,
             "whole range: " + std::to_string(sizes[0]));
  EXPECT_MSG(sizes[1] > 0 && sizes[1] < sizes[0],
             "half range: " + std::to_string(sizes[1]));
  EXPECT_MSG(sizes[2] == 0, "empty range: " + std::to_string(sizes[2]));
}

void TestCppApi(const std::string& dir) {
  const std::string path = dir + "/cpp";
  CountingEnv env;
  CapturingLogger logger;
  MapCache cache;
  CountingFilterPolicy policy;
  leveldb::Options options;
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.paranoid_checks = true;
  options.env = &env;
  options.info_log = &logger;
  options.block_cache = &cache;
  options.filter_policy = &policy;
  options.write_buffer_size = 64 * 1024;
  options.compression = leveldb::kSnappyCompression;

  // The marker: only the fork knows "leveldb.io-stats".
  leveldb::DB* raw = nullptr;
  EXPECT_OK(leveldb::DB::Open(options, path, &raw));
  if (raw == nullptr) return;
  std::unique_ptr<leveldb::DB> db(raw);
  std::string io_stats;
  const bool has_io_stats = db->GetProperty("leveldb.io-stats", &io_stats);
  std::printf("dropin: io-stats=%s\n", has_io_stats ? "present" : "absent");

  // A second Open of the same directory fails on the lock.
  leveldb::Options again = options;
  again.error_if_exists = false;
  leveldb::DB* second = nullptr;
  leveldb::Status locked = leveldb::DB::Open(again, path, &second);
  EXPECT_MSG(locked.IsIOError(), locked.ToString());
  delete second;

  TestBasicOperations(db.get());
  const int kCount = 3000;
  std::map<std::string, std::string> model = FillDb(db.get(), kCount);
  CheckContents(db.get(), model, kCount, "after writes");
  TestSnapshotAndIteratorCleanup(db.get());
  TestPropertiesAndSizes(db.get(), kCount);
  CheckContents(db.get(), model, kCount, "after compactions");

  // Reads through the filter and cache. Absent keys between present ones
  // reach a table's filter, which rules most of them out.
  for (int i = 0; i < 500; ++i) {
    EXPECT(Get(db.get(), KeyFor(i * 5 + 1) + "-absent") == "NOT_FOUND");
  }
  CheckContents(db.get(), model, kCount, "second read");
  EXPECT_MSG(policy.creates_ > 0 && policy.keys_ >= kCount,
             "filters built: " + std::to_string(policy.creates_.load()));
  EXPECT_MSG(policy.probes_ > 0 && policy.rejections_ > 250,
             "filter probes " + std::to_string(policy.probes_.load()) +
                 ", rejections " + std::to_string(policy.rejections_.load()));
  EXPECT_MSG(cache.inserts_ > 0 && cache.hits_ > 0 && cache.TotalCharge() > 0,
             "cache inserts " + std::to_string(cache.inserts_.load()) +
                 ", hits " + std::to_string(cache.hits_.load()));
  EXPECT(env.writable_opens_ > 0 && env.random_opens_ > 0);
  EXPECT(env.sequential_opens_ > 0 && env.renames_ > 0 && env.locks_ > 0);
  EXPECT(env.schedules_ > 0 && env.random_reads_ > 0);
  EXPECT(env.bytes_written_ > static_cast<int64_t>(kCount) * 100);
  EXPECT(logger.Count() > 0);
  db.reset();

  // Reopen: everything is recovered, through the same custom objects.
  options.error_if_exists = false;
  options.create_if_missing = false;
  EXPECT_OK(leveldb::DB::Open(options, path, &raw));
  db.reset(raw);
  if (db) CheckContents(db.get(), model, kCount, "after reopen");
  db.reset();

  // The files are listed by the Env; a log can be dumped.
  std::vector<std::string> children;
  EXPECT_OK(leveldb::Env::Default()->GetChildren(path, &children));
  std::string log_name;
  for (const std::string& child : children) {
    if (child.size() > 4 && child.compare(child.size() - 4, 4, ".log") == 0) {
      log_name = child;
    }
  }
  EXPECT(std::find(children.begin(), children.end(), "CURRENT") !=
         children.end());
  EXPECT(!log_name.empty());
  if (!log_name.empty()) {
    StringFile dump;
    EXPECT_OK(leveldb::DumpFile(leveldb::Env::Default(), path + "/" + log_name,
                                &dump));
  }

  // A database made with the bytewise comparator refuses another one.
  ReverseComparator reverse;
  leveldb::Options reversed;
  reversed.comparator = &reverse;
  leveldb::Status mismatch = leveldb::DB::Open(reversed, path, &raw);
  EXPECT_MSG(mismatch.IsInvalidArgument(), mismatch.ToString());
  if (mismatch.ok()) delete raw;

  // Repair keeps the data; destroy removes the database.
  leveldb::Options plain;
  plain.filter_policy = &policy;
  plain.paranoid_checks = true;
  EXPECT_OK(leveldb::RepairDB(path, plain));
  EXPECT_OK(leveldb::DB::Open(plain, path, &raw));
  db.reset(raw);
  if (db) CheckContents(db.get(), model, kCount, "after repair");
  db.reset();
  EXPECT_OK(leveldb::DestroyDB(path, plain));
  EXPECT(!leveldb::Env::Default()->FileExists(path + "/CURRENT"));
  leveldb::Status missing = leveldb::DB::Open(plain, path, &raw);
  EXPECT_MSG(missing.IsInvalidArgument(), missing.ToString());
  if (missing.ok()) delete raw;
}

void TestCustomComparator(const std::string& dir) {
  const std::string path = dir + "/reverse";
  ReverseComparator reverse;
  leveldb::Options options;
  options.create_if_missing = true;
  options.comparator = &reverse;
  options.write_buffer_size = 64 * 1024;
  leveldb::DB* raw = nullptr;
  EXPECT_OK(leveldb::DB::Open(options, path, &raw));
  if (raw == nullptr) return;
  std::unique_ptr<leveldb::DB> db(raw);
  const int kCount = 2000;
  for (int i = 0; i < kCount; ++i) {
    EXPECT_OK(db->Put(leveldb::WriteOptions(), KeyFor(i), ValueFor(i, 2)));
  }
  db->CompactRange(nullptr, nullptr);
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(leveldb::ReadOptions()));
  int expected = kCount - 1;
  bool in_order = true;
  for (it->SeekToFirst(); it->Valid(); it->Next(), --expected) {
    if (expected < 0 || it->key() != KeyFor(expected) ||
        it->value() != ValueFor(expected, 2)) {
      in_order = false;
      break;
    }
  }
  EXPECT(in_order && expected == -1);
  // Seek finds the first key at or after the target in reverse order.
  it->Seek(KeyFor(500) + "x");
  EXPECT(it->Valid() && it->key() == KeyFor(500));
  it->SeekToLast();
  EXPECT(it->Valid() && it->key() == KeyFor(0));
  it->Prev();
  EXPECT(it->Valid() && it->key() == KeyFor(1));
  it.reset();
  db.reset();

  leveldb::Options other;
  leveldb::Status s = leveldb::DB::Open(other, path, &raw);
  EXPECT_MSG(s.IsInvalidArgument(), s.ToString());
  if (s.ok()) delete raw;
  EXPECT_OK(leveldb::DB::Open(options, path, &raw));
  db.reset(raw);
  if (db) EXPECT(Get(db.get(), KeyFor(77)) == ValueFor(77, 2));
}

void TestLruCacheDirectly() {
  std::unique_ptr<leveldb::Cache> cache(leveldb::NewLRUCache(1000));
  static int deleted = 0;
  auto deleter = [](const leveldb::Slice&, void* v) {
    deleted += *static_cast<int*>(v);
    delete static_cast<int*>(v);
  };
  leveldb::Cache::Handle* h = cache->Insert("a", new int(1), 10, deleter);
  EXPECT(h != nullptr && *static_cast<int*>(cache->Value(h)) == 1);
  cache->Release(h);
  h = cache->Lookup("a");
  EXPECT(h != nullptr);
  if (h != nullptr) cache->Release(h);
  EXPECT(cache->Lookup("b") == nullptr);
  EXPECT(cache->TotalCharge() == 10);
  cache->Erase("a");
  EXPECT(deleted == 1 && cache->Lookup("a") == nullptr);
  // Beyond capacity, unpinned entries go.
  for (int i = 0; i < 300; ++i) {
    cache->Release(
        cache->Insert("k" + std::to_string(i), new int(100), 10, deleter));
  }
  EXPECT(cache->TotalCharge() <= 1000);
  cache->Prune();
  EXPECT(cache->TotalCharge() == 0);
  EXPECT(cache->NewId() != cache->NewId());
}

struct ThreadFlag {
  std::atomic<int> runs{0};
};
void BumpFlag(void* arg) { static_cast<ThreadFlag*>(arg)->runs += 1; }

void TestEnvDirectly(const std::string& dir) {
  leveldb::Env* env = leveldb::Env::Default();
  const std::string file = dir + "/env_file";
  EXPECT_OK(leveldb::WriteStringToFile(env, "hello drop-in", file));
  std::string contents;
  EXPECT_OK(leveldb::ReadFileToString(env, file, &contents));
  EXPECT(contents == "hello drop-in");
  uint64_t size = 0;
  EXPECT_OK(env->GetFileSize(file, &size));
  EXPECT(size == 13);
  EXPECT_OK(env->RemoveFile(file));
  EXPECT(!env->FileExists(file));
  std::string test_dir;
  EXPECT_OK(env->GetTestDirectory(&test_dir));
  EXPECT(!test_dir.empty());

  ThreadFlag flag;
  env->Schedule(&BumpFlag, &flag);
  env->StartThread(&BumpFlag, &flag);
  const uint64_t start = env->NowMicros();
  while (flag.runs < 2 && env->NowMicros() - start < 20 * 1000 * 1000) {
    env->SleepForMicroseconds(1000);
  }
  EXPECT(flag.runs == 2);

  // An in-memory Env writes nothing to disk.
  std::unique_ptr<leveldb::Env> mem(leveldb::NewMemEnv(env));
  leveldb::Options options;
  options.env = mem.get();
  options.create_if_missing = true;
  leveldb::DB* raw = nullptr;
  EXPECT_OK(leveldb::DB::Open(options, dir + "/in-memory", &raw));
  std::unique_ptr<leveldb::DB> db(raw);
  if (db) {
    EXPECT_OK(db->Put(leveldb::WriteOptions(), "m", "v"));
    EXPECT(Get(db.get(), "m") == "v");
  }
  db.reset();
  EXPECT(!env->FileExists(dir + "/in-memory"));
}

// ---------------------------------------------------------------------------
// C API

struct BatchCounts {
  int puts = 0;
  int deletes = 0;
};
void CountPut(void* state, const char*, size_t, const char*, size_t) {
  static_cast<BatchCounts*>(state)->puts++;
}
void CountDelete(void* state, const char*, size_t) {
  static_cast<BatchCounts*>(state)->deletes++;
}

int CReverseCompare(void*, const char* a, size_t alen, const char* b,
                    size_t blen) {
  const int r = std::memcmp(a, b, std::min(alen, blen));
  if (r != 0) return -r;
  return alen < blen ? 1 : (alen > blen ? -1 : 0);
}
const char* CReverseName(void*) { return "dropin.CReverse"; }
void CNoDestroy(void*) {}

// An exact filter: every key, length-prefixed by one byte.
char* CExactCreate(void* state, const char* const* keys, const size_t* lens,
                   int n, size_t* out_len) {
  ++*static_cast<int*>(state);
  std::string f;
  for (int i = 0; i < n; ++i) {
    f.push_back(static_cast<char>(lens[i]));
    f.append(keys[i], lens[i]);
  }
  char* out = static_cast<char*>(std::malloc(f.size() + 1));
  std::memcpy(out, f.data(), f.size());
  *out_len = f.size();
  return out;
}
uint8_t CExactMatch(void*, const char* key, size_t len, const char* filter,
                    size_t flen) {
  size_t pos = 0;
  while (pos < flen) {
    const size_t klen = static_cast<unsigned char>(filter[pos]);
    if (pos + 1 + klen > flen) return 1;  // malformed: may match
    if (klen == len && std::memcmp(filter + pos + 1, key, len) == 0) return 1;
    pos += 1 + klen;
  }
  return 0;
}
const char* CExactName(void*) { return "dropin.CExact"; }

#define EXPECT_NO_ERR(err)                            \
  do {                                                \
    EXPECT_MSG((err) == nullptr, (err) ? (err) : ""); \
    if ((err) != nullptr) {                           \
      leveldb_free(err);                              \
      (err) = nullptr;                                \
    }                                                 \
  } while (0)

std::string CGet(leveldb_t* db, const leveldb_readoptions_t* ro,
                 const std::string& key) {
  char* err = nullptr;
  size_t len = 0;
  char* v = leveldb_get(db, ro, key.data(), key.size(), &len, &err);
  if (err != nullptr) {
    std::string msg = std::string("ERROR: ") + err;
    leveldb_free(err);
    return msg;
  }
  if (v == nullptr) return "NOT_FOUND";
  std::string out(v, len);
  leveldb_free(v);
  return out;
}

// Separate statements: the length is only known after the call.
std::string CKey(const leveldb_iterator_t* it) {
  size_t len = 0;
  const char* data = leveldb_iter_key(it, &len);
  return std::string(data, len);
}
std::string CValue(const leveldb_iterator_t* it) {
  size_t len = 0;
  const char* data = leveldb_iter_value(it, &len);
  return std::string(data, len);
}

void TestCApi(const std::string& dir, bool cpp_saw_io_stats) {
  const std::string path = dir + "/c";
  char* err = nullptr;
  leveldb_env_t* env = leveldb_create_default_env();
  leveldb_cache_t* cache = leveldb_cache_create_lru(1 << 20);
  leveldb_filterpolicy_t* bloom = leveldb_filterpolicy_create_bloom(10);
  leveldb_options_t* options = leveldb_options_create();
  leveldb_options_set_create_if_missing(options, 1);
  leveldb_options_set_error_if_exists(options, 1);
  leveldb_options_set_paranoid_checks(options, 1);
  leveldb_options_set_env(options, env);
  leveldb_options_set_info_log(options, nullptr);
  leveldb_options_set_cache(options, cache);
  leveldb_options_set_filter_policy(options, bloom);
  leveldb_options_set_write_buffer_size(options, 64 * 1024);
  leveldb_options_set_max_open_files(options, 100);
  leveldb_options_set_block_size(options, 2048);
  leveldb_options_set_block_restart_interval(options, 8);
  leveldb_options_set_max_file_size(options, 1 << 20);
  leveldb_options_set_compression(options, leveldb_snappy_compression);
  leveldb_readoptions_t* ro = leveldb_readoptions_create();
  leveldb_readoptions_set_verify_checksums(ro, 1);
  leveldb_readoptions_set_fill_cache(ro, 1);
  leveldb_writeoptions_t* wo = leveldb_writeoptions_create();
  leveldb_writeoptions_set_sync(wo, 0);

  leveldb_destroy_db(options, path.c_str(), &err);
  EXPECT_NO_ERR(err);
  leveldb_t* db = leveldb_open(options, path.c_str(), &err);
  EXPECT_NO_ERR(err);
  if (db == nullptr) return;

  char* io = leveldb_property_value(db, "leveldb.io-stats");
  EXPECT_MSG((io != nullptr) == cpp_saw_io_stats,
             "C and C++ APIs disagree on leveldb.io-stats");
  leveldb_free(io);

  const int kCount = 2000;
  for (int i = 0; i < kCount; ++i) {
    const std::string k = KeyFor(i), v = ValueFor(i, 3);
    leveldb_put(db, wo, k.data(), k.size(), v.data(), v.size(), &err);
    EXPECT_NO_ERR(err);
  }
  for (int i = 0; i < kCount; i += 4) {
    const std::string k = KeyFor(i);
    leveldb_delete(db, wo, k.data(), k.size(), &err);
    EXPECT_NO_ERR(err);
  }
  EXPECT(CGet(db, ro, KeyFor(1)) == ValueFor(1, 3));
  EXPECT(CGet(db, ro, KeyFor(4)) == "NOT_FOUND");

  leveldb_writebatch_t* wb = leveldb_writebatch_create();
  leveldb_writebatch_put(wb, "cb1", 3, "x", 1);
  leveldb_writebatch_delete(wb, "cb1", 3);
  leveldb_writebatch_t* wb2 = leveldb_writebatch_create();
  leveldb_writebatch_put(wb2, "cb2", 3, "y", 1);
  leveldb_writebatch_append(wb, wb2);
  BatchCounts counts;
  leveldb_writebatch_iterate(wb, &counts, &CountPut, &CountDelete);
  EXPECT(counts.puts == 2 && counts.deletes == 1);
  const leveldb_snapshot_t* snap = leveldb_create_snapshot(db);
  leveldb_write(db, wo, wb, &err);
  EXPECT_NO_ERR(err);
  leveldb_writebatch_clear(wb2);
  leveldb_writebatch_destroy(wb2);
  leveldb_writebatch_destroy(wb);
  EXPECT(CGet(db, ro, "cb1") == "NOT_FOUND");
  EXPECT(CGet(db, ro, "cb2") == "y");
  leveldb_readoptions_t* at_snap = leveldb_readoptions_create();
  leveldb_readoptions_set_snapshot(at_snap, snap);
  EXPECT(CGet(db, at_snap, "cb2") == "NOT_FOUND");
  leveldb_release_snapshot(db, snap);
  leveldb_readoptions_destroy(at_snap);

  leveldb_compact_range(db, nullptr, 0, nullptr, 0);
  const std::string lo = KeyFor(100), hi = KeyFor(900);
  leveldb_compact_range(db, lo.data(), lo.size(), hi.data(), hi.size());
  char* stats = leveldb_property_value(db, "leveldb.stats");
  EXPECT(stats != nullptr);
  leveldb_free(stats);
  char* none = leveldb_property_value(db, "leveldb.no-such-property");
  EXPECT(none == nullptr);
  leveldb_free(none);
  const std::string end_key = KeyFor(kCount);
  const char* starts[2] = {"a", "zzz0"};
  const size_t start_lens[2] = {1, 4};
  const char* limits[2] = {end_key.c_str(), "zzz9"};
  const size_t limit_lens[2] = {end_key.size(), 4};
  uint64_t sizes[2] = {0, 0};
  leveldb_approximate_sizes(db, 2, starts, start_lens, limits, limit_lens,
                            sizes);
  EXPECT_MSG(sizes[0] > 100000, std::to_string(sizes[0]));
  EXPECT(sizes[1] == 0);

  // Iteration both ways, and Seek.
  leveldb_iterator_t* it = leveldb_create_iterator(db, ro);
  int forward = 0;
  std::string prev;
  bool ordered = true;
  for (leveldb_iter_seek_to_first(it); leveldb_iter_valid(it);
       leveldb_iter_next(it)) {
    const std::string key = CKey(it);
    if (forward > 0 && !(prev < key)) ordered = false;
    prev = key;
    ++forward;
  }
  int backward = 0;
  for (leveldb_iter_seek_to_last(it); leveldb_iter_valid(it);
       leveldb_iter_prev(it)) {
    ++backward;
  }
  // 1500 live keys plus "cb2".
  EXPECT_MSG(forward == kCount - kCount / 4 + 1, std::to_string(forward));
  EXPECT(backward == forward && ordered);
  const std::string target = KeyFor(8);
  leveldb_iter_seek(it, target.data(), target.size());
  EXPECT(leveldb_iter_valid(it) && CKey(it) == KeyFor(9) &&
         CValue(it) == ValueFor(9, 3));
  leveldb_iter_get_error(it, &err);
  EXPECT_NO_ERR(err);
  leveldb_iter_destroy(it);
  leveldb_close(db);

  // Repair, reopen, check, destroy.
  leveldb_options_set_error_if_exists(options, 0);
  leveldb_repair_db(options, path.c_str(), &err);
  EXPECT_NO_ERR(err);
  db = leveldb_open(options, path.c_str(), &err);
  EXPECT_NO_ERR(err);
  if (db != nullptr) {
    EXPECT(CGet(db, ro, KeyFor(kCount - 1)) == ValueFor(kCount - 1, 3));
    EXPECT(CGet(db, ro, "cb2") == "y");
    leveldb_close(db);
  }
  leveldb_destroy_db(options, path.c_str(), &err);
  EXPECT_NO_ERR(err);
  leveldb_options_set_create_if_missing(options, 0);
  db = leveldb_open(options, path.c_str(), &err);
  EXPECT(db == nullptr && err != nullptr);
  if (err != nullptr) leveldb_free(err);
  err = nullptr;
  if (db != nullptr) leveldb_close(db);

  // Custom comparator and filter policy through callbacks.
  int filters_made = 0;
  leveldb_comparator_t* cmp = leveldb_comparator_create(
      nullptr, &CNoDestroy, &CReverseCompare, &CReverseName);
  leveldb_filterpolicy_t* exact = leveldb_filterpolicy_create(
      &filters_made, &CNoDestroy, &CExactCreate, &CExactMatch, &CExactName);
  leveldb_options_t* custom = leveldb_options_create();
  leveldb_options_set_create_if_missing(custom, 1);
  leveldb_options_set_comparator(custom, cmp);
  leveldb_options_set_filter_policy(custom, exact);
  const std::string cpath = dir + "/c-custom";
  db = leveldb_open(custom, cpath.c_str(), &err);
  EXPECT_NO_ERR(err);
  if (db != nullptr) {
    for (int i = 0; i < 300; ++i) {
      const std::string k = KeyFor(i);
      leveldb_put(db, wo, k.data(), k.size(), "v", 1, &err);
      EXPECT_NO_ERR(err);
    }
    leveldb_compact_range(db, nullptr, 0, nullptr, 0);
    EXPECT(CGet(db, ro, KeyFor(123)) == "v");
    EXPECT(CGet(db, ro, "nope") == "NOT_FOUND");
    it = leveldb_create_iterator(db, ro);
    leveldb_iter_seek_to_first(it);
    EXPECT(leveldb_iter_valid(it) && CKey(it) == KeyFor(299));
    leveldb_iter_seek_to_last(it);
    EXPECT(leveldb_iter_valid(it) && CKey(it) == KeyFor(0));
    leveldb_iter_destroy(it);
    leveldb_close(db);
  }
  EXPECT(filters_made > 0);
  leveldb_destroy_db(custom, cpath.c_str(), &err);
  EXPECT_NO_ERR(err);
  leveldb_options_destroy(custom);
  leveldb_filterpolicy_destroy(exact);
  leveldb_comparator_destroy(cmp);

  leveldb_writeoptions_destroy(wo);
  leveldb_readoptions_destroy(ro);
  leveldb_options_destroy(options);
  leveldb_filterpolicy_destroy(bloom);
  leveldb_cache_destroy(cache);
  leveldb_env_destroy(env);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: dropin_program WORK_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  leveldb::Env::Default()->CreateDir(dir);  // may already exist

  ReportLibrary();
  TestCppApi(dir);
  std::string probe;
  // Asked again on a fresh database for the C API comparison.
  bool io_stats = false;
  {
    leveldb::Options options;
    options.create_if_missing = true;
    leveldb::DB* raw = nullptr;
    EXPECT_OK(leveldb::DB::Open(options, dir + "/probe", &raw));
    if (raw != nullptr) io_stats = raw->GetProperty("leveldb.io-stats", &probe);
    delete raw;
    EXPECT_OK(leveldb::DestroyDB(dir + "/probe", options));
  }
  TestCustomComparator(dir);
  TestLruCacheDirectly();
  TestEnvDirectly(dir);
  TestCApi(dir, io_stats);

  if (g_failures != 0) {
    std::printf("dropin: %d of %d checks FAILED\n", g_failures, g_checks);
    return 1;
  }
  std::printf("dropin: all %d checks passed\n", g_checks);
  return 0;
}
