// Helpers shared by the ElasticBF table tests: building tables in memory,
// finding their meta blocks, files that count or hold up reads, and point
// lookups through a TableCache made the way Version::Get makes them.
#ifndef STORAGE_LEVELDB_TESTS_ELASTIC_TEST_HELPERS_H_
#define STORAGE_LEVELDB_TESTS_ELASTIC_TEST_HELPERS_H_

#include <atomic>
#include <condition_variable>  // NOLINT
#include <cstdarg>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>  // NOLINT
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/table_cache.h"
#include "elastic/table_file_opener.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"
#include "table/block.h"
#include "table/elastic/filter_group.h"
#include "table/format.h"
#include "table/internal_filter_policy.h"
#include "table/key_lookup.h"
#include "tests/table_test_helpers.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/hash64.h"

namespace leveldb {
namespace test {

// Sorted user keys "k<8 digits>" (even numbers only, so that odd numbers
// make absent keys interleaved with present ones) and values.
inline std::string PresentKey(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "k%08d", 2 * i);
  return buf;
}
inline std::string AbsentKey(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "k%08d", 2 * i + 1);
  return buf;
}
inline KVVector MakeEntries(int n, size_t value_size) {
  KVVector kvs;
  kvs.reserve(n);
  for (int i = 0; i < n; ++i) {
    std::string value = "v" + std::to_string(i);
    value.resize(value_size, 'x');
    kvs.emplace_back(PresentKey(i), value);
  }
  return kvs;
}

// Writes the entries (in order) as a table and returns the file's bytes.
inline std::string BuildTableBytes(const Options& options,
                                   const KVVector& kvs) {
  StringSink sink;
  TableBuilder builder(options, &sink);
  for (const auto& kv : kvs) builder.Add(Slice(kv.first), Slice(kv.second));
  Status s = builder.Finish();
  if (!s.ok()) return std::string();
  return sink.contents();
}

inline Status ReadFooter(const std::string& file, Footer* footer) {
  if (file.size() < Footer::kEncodedLength) {
    return Status::Corruption("short file");
  }
  Slice in(file.data() + file.size() - Footer::kEncodedLength,
           Footer::kEncodedLength);
  return footer->DecodeFrom(&in);
}

// Every (name, handle) of the metaindex.
inline Status ReadMetaIndex(
    const std::string& file,
    std::vector<std::pair<std::string, BlockHandle>>* entries) {
  Footer footer;
  Status s = ReadFooter(file, &footer);
  if (!s.ok()) return s;
  StringSource source(file);
  ReadOptions ro;
  ro.verify_checksums = true;
  BlockContents contents;
  s = ReadBlock(&source, ro, footer.metaindex_handle(), &contents);
  if (!s.ok()) return s;
  Block block(contents);
  BlockIterator it(BytewiseComparator(), &block);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    Slice v = it.value();
    BlockHandle h;
    s = h.DecodeFrom(&v);
    if (!s.ok()) return s;
    entries->emplace_back(it.key().ToString(), h);
  }
  return it.status();
}

inline bool FindMetaBlock(const std::string& file, const std::string& name,
                          BlockHandle* handle) {
  std::vector<std::pair<std::string, BlockHandle>> entries;
  if (!ReadMetaIndex(file, &entries).ok()) return false;
  for (const auto& e : entries) {
    if (e.first == name) {
      *handle = e.second;
      return true;
    }
  }
  return false;
}

inline Status ReadElasticIndexOf(const std::string& file, ElasticIndex* index) {
  BlockHandle h;
  if (!FindMetaBlock(file, kElasticIndexBlockName, &h)) {
    return Status::NotFound("no elastic index");
  }
  StringSource source(file);
  ReadOptions ro;
  ro.verify_checksums = true;
  BlockContents contents;
  Status s = ReadBlock(&source, ro, h, &contents);
  if (!s.ok()) return s;
  s = ElasticIndex::Decode(contents.data, file.size(), index);
  if (contents.heap_allocated) delete[] contents.data.data();
  return s;
}

// Handles (offset, size) of the data blocks, from the index block.
inline std::vector<BlockHandle> DataBlockHandles(const std::string& file,
                                                 const Comparator* cmp) {
  std::vector<BlockHandle> handles;
  Footer footer;
  if (!ReadFooter(file, &footer).ok()) return handles;
  StringSource source(file);
  BlockContents contents;
  if (!ReadBlock(&source, ReadOptions(), footer.index_handle(), &contents)
           .ok()) {
    return handles;
  }
  Block block(contents);
  BlockIterator it(cmp, &block);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    Slice v = it.value();
    BlockHandle h;
    if (h.DecodeFrom(&v).ok()) handles.push_back(h);
  }
  return handles;
}

// A RandomAccessFile over a string that counts reads and can hold them up
// at a gate (for "load in flight" tests).
class GatedFile : public RandomAccessFile {
 public:
  explicit GatedFile(std::string contents) : source_(std::move(contents)) {}

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    reads_.fetch_add(1);
    {
      std::unique_lock<std::mutex> l(mu_);
      ++waiting_;
      changed_.notify_all();
      changed_.wait(l, [this] { return open_; });
      --waiting_;
    }
    return source_.Read(offset, n, result, scratch);
  }

  void SetOpen(bool open) {
    std::lock_guard<std::mutex> l(mu_);
    open_ = open;
    changed_.notify_all();
  }
  // Blocks until at least one reader waits at the closed gate.
  void AwaitBlockedReader() {
    std::unique_lock<std::mutex> l(mu_);
    changed_.wait(l, [this] { return waiting_ > 0; });
  }
  int reads() const { return reads_.load(); }
  uint64_t size() const { return source_.Size(); }

 private:
  StringSource source_;
  mutable std::atomic<int> reads_{0};
  mutable std::mutex mu_;
  mutable std::condition_variable changed_;
  mutable int waiting_ = 0;
  bool open_ = true;
};

// Reads through a file someone else owns: what an opener hands the filter
// layer for a test's in-memory table.
class BorrowedFile : public RandomAccessFile {
 public:
  explicit BorrowedFile(const RandomAccessFile* file) : file_(file) {}
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    return file_->Read(offset, n, result, scratch);
  }

 private:
  const RandomAccessFile* const file_;
};

// A filter layer's way to a test's table files: `open` opens one for unit
// reads; registering files in the background is not supported.
class FunctionOpener : public leveldb::TableFileOpener {
 public:
  using OpenFn =
      std::function<Status(uint64_t, std::unique_ptr<RandomAccessFile>*)>;
  explicit FunctionOpener(OpenFn open) : open_(std::move(open)) {}
  Status OpenFile(uint64_t number,
                  std::unique_ptr<RandomAccessFile>* file) override {
    return open_(number, file);
  }
  Status OpenFilterGroups(uint64_t, uint64_t,
                          std::unique_ptr<RandomAccessFile>*,
                          std::shared_ptr<TableFilterGroups>*) override {
    return Status::NotSupported("test opener");
  }

 private:
  const OpenFn open_;
};

// What a DB gives its filter layer to load units: opens the tables of
// database `dbname` in `env`.
inline std::shared_ptr<leveldb::TableFileOpener> OpenerFor(
    Env* env, const std::string& dbname) {
  return std::make_shared<FunctionOpener>(
      [env, dbname](uint64_t number, std::unique_ptr<RandomAccessFile>* file) {
        RandomAccessFile* opened = nullptr;
        Status s = OpenTableFile(env, dbname, number, &opened);
        file->reset(opened);
        return s;
      });
}

// Keeps every line logged.
class CapturingLogger : public Logger {
 public:
  void Logv(const char* format, std::va_list ap) override {
    char buf[1024];
    std::vsnprintf(buf, sizeof(buf), format, ap);
    std::lock_guard<std::mutex> l(mu_);
    lines_.emplace_back(buf);
  }
  std::vector<std::string> lines() const {
    std::lock_guard<std::mutex> l(mu_);
    return lines_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> lines_;
};

// The entries with each key made the internal key of a value written at
// sequence number `seq`, as a DB's tables hold them.
inline KVVector InternalEntries(const KVVector& kvs, SequenceNumber seq = 1) {
  KVVector internal;
  internal.reserve(kvs.size());
  for (const auto& kv : kvs) {
    std::string key;
    AppendInternalKey(&key, ParsedInternalKey(kv.first, seq, kTypeValue));
    internal.emplace_back(std::move(key), kv.second);
  }
  return internal;
}

// Options for tables of internal keys over user keys ordered by `user`,
// filtered as a DB filters them: the user keys go into `base`'s filter
// policy.
class InternalKeyOptions {
 public:
  explicit InternalKeyOptions(const Comparator* user = BytewiseComparator())
      : icmp_(user) {}
  InternalKeyOptions(const InternalKeyOptions&) = delete;
  InternalKeyOptions& operator=(const InternalKeyOptions&) = delete;

  // `base` with internal keys; the result lives until the next call.
  const Options& From(const Options& base) {
    options_ = base;
    options_.comparator = &icmp_;
    policy_.reset(base.filter_policy == nullptr
                      ? nullptr
                      : new InternalFilterPolicy(base.filter_policy));
    options_.filter_policy = policy_.get();
    return options_;
  }

 private:
  const InternalKeyComparator icmp_;
  std::unique_ptr<const FilterPolicy> policy_;
  Options options_;
};

// What one lookup of a user key in one table found and did.
struct TableGet {
  Status status;
  KeyLookup::Outcome outcome = KeyLookup::Outcome::kNotFound;
  std::string value;
  KeyLookup::Probe probe;

  bool found() const { return outcome == KeyLookup::Outcome::kFound; }
};

// Looks up the newest entry of `user_key` in table `number` (of internal
// keys) through `cache`, as Version::Get does; the probe is counted in
// `stats` (may be null).
inline TableGet GetFromTable(TableCache* cache, uint64_t number, uint64_t size,
                             const std::string& user_key,
                             IoStats* stats = nullptr,
                             const ReadOptions& options = ReadOptions()) {
  const LookupKey key(user_key, kMaxSequenceNumber);
  TableGet get;
  KeyLookup lookup(BytewiseComparator(), key.internal_key(),
                   KeyHash64(user_key.data(), user_key.size()), &get.value,
                   stats);
  get.status = cache->Get(options, number, size, &lookup);
  get.outcome = lookup.outcome();
  get.probe = lookup.probe();
  return get;
}

// Rewrites the raw block at `handle` with new contents of the same size,
// and a type-0 trailer whose CRC matches them.
inline void RewriteBlock(std::string* file, const BlockHandle& handle,
                         const std::string& contents) {
  const size_t off = static_cast<size_t>(handle.offset());
  file->replace(off, contents.size(), contents);
  char trailer[kBlockTrailerSize];
  trailer[0] = 0;
  uint32_t crc = crc32c::Value(contents.data(), contents.size());
  crc = crc32c::Extend(crc, trailer, 1);
  StoreFixed32(trailer + 1, crc32c::Mask(crc));
  file->replace(off + contents.size(), kBlockTrailerSize,
                std::string(trailer, kBlockTrailerSize));
}

}  // namespace test
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_ELASTIC_TEST_HELPERS_H_
