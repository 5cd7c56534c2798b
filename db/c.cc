// The C binding: thin adapters between the opaque handles of
// include/leveldb/c.h and the C++ classes they stand for.
#include "leveldb/c.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/status.h"
#include "leveldb/write_batch.h"

using leveldb::Cache;
using leveldb::Comparator;
using leveldb::CompressionType;
using leveldb::DB;
using leveldb::Env;
using leveldb::FilterPolicy;
using leveldb::Iterator;
using leveldb::Logger;
using leveldb::Options;
using leveldb::Range;
using leveldb::ReadOptions;
using leveldb::Slice;
using leveldb::Snapshot;
using leveldb::Status;
using leveldb::WriteBatch;
using leveldb::WriteOptions;

// Each handle owns (or, where noted, borrows) the C++ object it wraps.

struct leveldb_t {
  DB* db;
};

struct leveldb_iterator_t {
  Iterator* iter;
};

struct leveldb_writebatch_t {
  WriteBatch batch;
};

struct leveldb_snapshot_t {
  const Snapshot* snapshot;  // released through the DB, not deleted
};

struct leveldb_readoptions_t {
  ReadOptions options;
};

struct leveldb_writeoptions_t {
  WriteOptions options;
};

struct leveldb_options_t {
  Options options;  // borrows every pointer it holds
};

struct leveldb_cache_t {
  Cache* cache;
};

struct leveldb_logger_t {
  Logger* logger;
};

struct leveldb_env_t {
  Env* env;
  bool owned;  // false for Env::Default(), which must never be deleted
};

// A comparator whose behaviour comes from C callbacks.
struct leveldb_comparator_t : public Comparator {
  using CompareFn = int (*)(void*, const char*, size_t, const char*, size_t);
  using NameFn = const char* (*)(void*);

  leveldb_comparator_t(void* state, void (*destructor)(void*),
                       CompareFn compare, NameFn name)
      : state_(state),
        destructor_(destructor),
        compare_(compare),
        name_(name) {}

  ~leveldb_comparator_t() override {
    if (destructor_ != nullptr) destructor_(state_);
  }

  int Compare(const Slice& a, const Slice& b) const override {
    return compare_(state_, a.data(), a.size(), b.data(), b.size());
  }

  const char* Name() const override { return name_(state_); }

  // C comparators cannot shorten keys; leaving them unchanged is always
  // correct, merely less compact.
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  void* const state_;
  void (*const destructor_)(void*);
  const CompareFn compare_;
  const NameFn name_;
};

// A filter policy that either forwards to C callbacks or, for the handle
// made by leveldb_filterpolicy_create_bloom, to an owned built-in policy.
struct leveldb_filterpolicy_t : public FilterPolicy {
  using CreateFn = char* (*)(void*, const char* const*, const size_t*, int,
                             size_t*);
  using MatchFn = uint8_t (*)(void*, const char*, size_t, const char*, size_t);
  using NameFn = const char* (*)(void*);

  leveldb_filterpolicy_t(void* state, void (*destructor)(void*),
                         CreateFn create, MatchFn match, NameFn name)
      : state_(state),
        destructor_(destructor),
        create_(create),
        match_(match),
        name_(name),
        builtin_(nullptr) {}

  explicit leveldb_filterpolicy_t(const FilterPolicy* builtin)
      : state_(nullptr),
        destructor_(nullptr),
        create_(nullptr),
        match_(nullptr),
        name_(nullptr),
        builtin_(builtin) {}

  ~leveldb_filterpolicy_t() override {
    delete builtin_;
    if (destructor_ != nullptr) destructor_(state_);
  }

  const char* Name() const override {
    return builtin_ != nullptr ? builtin_->Name() : name_(state_);
  }

  void CreateFilter(const Slice* keys, int n, std::string* dst) const override {
    if (builtin_ != nullptr) {
      builtin_->CreateFilter(keys, n, dst);
      return;
    }
    std::vector<const char*> pointers(n);
    std::vector<size_t> lengths(n);
    for (int i = 0; i < n; i++) {
      pointers[i] = keys[i].data();
      lengths[i] = keys[i].size();
    }
    size_t filter_size = 0;
    char* filter =
        create_(state_, pointers.data(), lengths.data(), n, &filter_size);
    if (filter != nullptr) {
      dst->append(filter, filter_size);
      std::free(filter);
    }
  }

  bool KeyMayMatch(const Slice& key, const Slice& filter) const override {
    if (builtin_ != nullptr) return builtin_->KeyMayMatch(key, filter);
    return match_(state_, key.data(), key.size(), filter.data(),
                  filter.size()) != 0;
  }

 private:
  void* const state_;
  void (*const destructor_)(void*);
  const CreateFn create_;
  const MatchFn match_;
  const NameFn name_;
  const FilterPolicy* const builtin_;
};

namespace {

// A malloc()ed NUL-terminated copy of s, which C callers free().
char* MallocString(const std::string& s) {
  char* copy = static_cast<char*>(std::malloc(s.size() + 1));
  std::memcpy(copy, s.data(), s.size());
  copy[s.size()] = '\0';
  return copy;
}

// Implements the errptr convention: success leaves *errptr untouched, a
// failure replaces any earlier message with a fresh one. Returns true on
// failure so that callers can bail out.
bool SaveError(char** errptr, const Status& s) {
  if (s.ok()) return false;
  std::free(*errptr);
  *errptr = MallocString(s.ToString());
  return true;
}

// Handler that replays a batch into C callbacks.
class CallbackHandler : public WriteBatch::Handler {
 public:
  using PutFn = void (*)(void*, const char*, size_t, const char*, size_t);
  using DeleteFn = void (*)(void*, const char*, size_t);

  CallbackHandler(void* state, PutFn put, DeleteFn del)
      : state_(state), put_(put), del_(del) {}

  void Put(const Slice& key, const Slice& value) override {
    put_(state_, key.data(), key.size(), value.data(), value.size());
  }
  void Delete(const Slice& key) override {
    del_(state_, key.data(), key.size());
  }

 private:
  void* const state_;
  const PutFn put_;
  const DeleteFn del_;
};

}  // namespace

extern "C" {

// ---- Database ----

leveldb_t* leveldb_open(const leveldb_options_t* options, const char* name,
                        char** errptr) {
  DB* db = nullptr;
  if (SaveError(errptr, DB::Open(options->options, name, &db))) {
    return nullptr;
  }
  return new leveldb_t{db};
}

void leveldb_close(leveldb_t* db) {
  delete db->db;
  delete db;
}

void leveldb_put(leveldb_t* db, const leveldb_writeoptions_t* options,
                 const char* key, size_t keylen, const char* val, size_t vallen,
                 char** errptr) {
  SaveError(errptr, db->db->Put(options->options, Slice(key, keylen),
                                Slice(val, vallen)));
}

void leveldb_delete(leveldb_t* db, const leveldb_writeoptions_t* options,
                    const char* key, size_t keylen, char** errptr) {
  SaveError(errptr, db->db->Delete(options->options, Slice(key, keylen)));
}

void leveldb_write(leveldb_t* db, const leveldb_writeoptions_t* options,
                   leveldb_writebatch_t* batch, char** errptr) {
  SaveError(errptr, db->db->Write(options->options, &batch->batch));
}

char* leveldb_get(leveldb_t* db, const leveldb_readoptions_t* options,
                  const char* key, size_t keylen, size_t* vallen,
                  char** errptr) {
  std::string value;
  Status s = db->db->Get(options->options, Slice(key, keylen), &value);
  if (s.ok()) {
    *vallen = value.size();
    // Values may contain NULs, so copy by length; the extra byte keeps
    // malloc(0) out of the picture for empty values.
    char* copy = static_cast<char*>(std::malloc(value.size() + 1));
    std::memcpy(copy, value.data(), value.size());
    return copy;
  }
  *vallen = 0;
  // A missing key is an ordinary answer, not an error.
  if (!s.IsNotFound()) SaveError(errptr, s);
  return nullptr;
}

leveldb_iterator_t* leveldb_create_iterator(
    leveldb_t* db, const leveldb_readoptions_t* options) {
  return new leveldb_iterator_t{db->db->NewIterator(options->options)};
}

const leveldb_snapshot_t* leveldb_create_snapshot(leveldb_t* db) {
  return new leveldb_snapshot_t{db->db->GetSnapshot()};
}

void leveldb_release_snapshot(leveldb_t* db,
                              const leveldb_snapshot_t* snapshot) {
  db->db->ReleaseSnapshot(snapshot->snapshot);
  delete snapshot;
}

char* leveldb_property_value(leveldb_t* db, const char* propname) {
  std::string value;
  if (!db->db->GetProperty(Slice(propname), &value)) return nullptr;
  return MallocString(value);
}

void leveldb_approximate_sizes(leveldb_t* db, int num_ranges,
                               const char* const* range_start_key,
                               const size_t* range_start_key_len,
                               const char* const* range_limit_key,
                               const size_t* range_limit_key_len,
                               uint64_t* sizes) {
  if (num_ranges <= 0) return;
  std::vector<Range> ranges(num_ranges);
  for (int i = 0; i < num_ranges; i++) {
    ranges[i].start = Slice(range_start_key[i], range_start_key_len[i]);
    ranges[i].limit = Slice(range_limit_key[i], range_limit_key_len[i]);
  }
  db->db->GetApproximateSizes(ranges.data(), num_ranges, sizes);
}

void leveldb_compact_range(leveldb_t* db, const char* start_key,
                           size_t start_key_len, const char* limit_key,
                           size_t limit_key_len) {
  // A NULL bound leaves that side of the range open.
  Slice start(start_key, start_key_len);
  Slice limit(limit_key, limit_key_len);
  db->db->CompactRange(start_key != nullptr ? &start : nullptr,
                       limit_key != nullptr ? &limit : nullptr);
}

// ---- Whole-database maintenance ----

void leveldb_destroy_db(const leveldb_options_t* options, const char* name,
                        char** errptr) {
  SaveError(errptr, leveldb::DestroyDB(name, options->options));
}

void leveldb_repair_db(const leveldb_options_t* options, const char* name,
                       char** errptr) {
  SaveError(errptr, leveldb::RepairDB(name, options->options));
}

// ---- Iterators ----

void leveldb_iter_destroy(leveldb_iterator_t* iter) {
  delete iter->iter;
  delete iter;
}

uint8_t leveldb_iter_valid(const leveldb_iterator_t* iter) {
  return iter->iter->Valid() ? 1 : 0;
}

void leveldb_iter_seek_to_first(leveldb_iterator_t* iter) {
  iter->iter->SeekToFirst();
}

void leveldb_iter_seek_to_last(leveldb_iterator_t* iter) {
  iter->iter->SeekToLast();
}

void leveldb_iter_seek(leveldb_iterator_t* iter, const char* k, size_t klen) {
  iter->iter->Seek(Slice(k, klen));
}

void leveldb_iter_next(leveldb_iterator_t* iter) { iter->iter->Next(); }

void leveldb_iter_prev(leveldb_iterator_t* iter) { iter->iter->Prev(); }

const char* leveldb_iter_key(const leveldb_iterator_t* iter, size_t* klen) {
  Slice key = iter->iter->key();
  *klen = key.size();
  return key.data();
}

const char* leveldb_iter_value(const leveldb_iterator_t* iter, size_t* vlen) {
  Slice value = iter->iter->value();
  *vlen = value.size();
  return value.data();
}

void leveldb_iter_get_error(const leveldb_iterator_t* iter, char** errptr) {
  SaveError(errptr, iter->iter->status());
}

// ---- Write batches ----

leveldb_writebatch_t* leveldb_writebatch_create() {
  return new leveldb_writebatch_t;
}

void leveldb_writebatch_destroy(leveldb_writebatch_t* b) { delete b; }

void leveldb_writebatch_clear(leveldb_writebatch_t* b) { b->batch.Clear(); }

void leveldb_writebatch_put(leveldb_writebatch_t* b, const char* key,
                            size_t klen, const char* val, size_t vlen) {
  b->batch.Put(Slice(key, klen), Slice(val, vlen));
}

void leveldb_writebatch_delete(leveldb_writebatch_t* b, const char* key,
                               size_t klen) {
  b->batch.Delete(Slice(key, klen));
}

void leveldb_writebatch_iterate(const leveldb_writebatch_t* b, void* state,
                                void (*put)(void*, const char* k, size_t klen,
                                            const char* v, size_t vlen),
                                void (*deleted)(void*, const char* k,
                                                size_t klen)) {
  CallbackHandler handler(state, put, deleted);
  // The C signature has no way to report a malformed batch; batches built
  // through this API are always well formed.
  b->batch.Iterate(&handler);
}

void leveldb_writebatch_append(leveldb_writebatch_t* destination,
                               const leveldb_writebatch_t* source) {
  destination->batch.Append(source->batch);
}

// ---- Database options ----

leveldb_options_t* leveldb_options_create() { return new leveldb_options_t; }

void leveldb_options_destroy(leveldb_options_t* options) { delete options; }

void leveldb_options_set_comparator(leveldb_options_t* opt,
                                    leveldb_comparator_t* cmp) {
  opt->options.comparator = cmp;
}

void leveldb_options_set_filter_policy(leveldb_options_t* opt,
                                       leveldb_filterpolicy_t* policy) {
  opt->options.filter_policy = policy;
}

void leveldb_options_set_create_if_missing(leveldb_options_t* opt, uint8_t v) {
  opt->options.create_if_missing = v != 0;
}

void leveldb_options_set_error_if_exists(leveldb_options_t* opt, uint8_t v) {
  opt->options.error_if_exists = v != 0;
}

void leveldb_options_set_paranoid_checks(leveldb_options_t* opt, uint8_t v) {
  opt->options.paranoid_checks = v != 0;
}

void leveldb_options_set_env(leveldb_options_t* opt, leveldb_env_t* env) {
  opt->options.env = env != nullptr ? env->env : nullptr;
}

void leveldb_options_set_info_log(leveldb_options_t* opt,
                                  leveldb_logger_t* logger) {
  opt->options.info_log = logger != nullptr ? logger->logger : nullptr;
}

void leveldb_options_set_write_buffer_size(leveldb_options_t* opt,
                                           size_t size) {
  opt->options.write_buffer_size = size;
}

void leveldb_options_set_max_open_files(leveldb_options_t* opt, int n) {
  opt->options.max_open_files = n;
}

void leveldb_options_set_cache(leveldb_options_t* opt, leveldb_cache_t* c) {
  opt->options.block_cache = c != nullptr ? c->cache : nullptr;
}

void leveldb_options_set_block_size(leveldb_options_t* opt, size_t size) {
  opt->options.block_size = size;
}

void leveldb_options_set_block_restart_interval(leveldb_options_t* opt, int n) {
  opt->options.block_restart_interval = n;
}

void leveldb_options_set_max_file_size(leveldb_options_t* opt, size_t size) {
  opt->options.max_file_size = size;
}

void leveldb_options_set_compression(leveldb_options_t* opt, int t) {
  opt->options.compression = static_cast<CompressionType>(t);
}

// ---- Custom comparators ----

leveldb_comparator_t* leveldb_comparator_create(
    void* state, void (*destructor)(void*),
    int (*compare)(void*, const char* a, size_t alen, const char* b,
                   size_t blen),
    const char* (*name)(void*)) {
  return new leveldb_comparator_t(state, destructor, compare, name);
}

void leveldb_comparator_destroy(leveldb_comparator_t* cmp) { delete cmp; }

// ---- Filter policies ----

leveldb_filterpolicy_t* leveldb_filterpolicy_create(
    void* state, void (*destructor)(void*),
    char* (*create_filter)(void*, const char* const* key_array,
                           const size_t* key_length_array, int num_keys,
                           size_t* filter_length),
    uint8_t (*key_may_match)(void*, const char* key, size_t length,
                             const char* filter, size_t filter_length),
    const char* (*name)(void*)) {
  return new leveldb_filterpolicy_t(state, destructor, create_filter,
                                    key_may_match, name);
}

void leveldb_filterpolicy_destroy(leveldb_filterpolicy_t* filter) {
  delete filter;
}

leveldb_filterpolicy_t* leveldb_filterpolicy_create_bloom(int bits_per_key) {
  return new leveldb_filterpolicy_t(
      leveldb::NewBloomFilterPolicy(bits_per_key));
}

// ---- Read options ----

leveldb_readoptions_t* leveldb_readoptions_create() {
  return new leveldb_readoptions_t;
}

void leveldb_readoptions_destroy(leveldb_readoptions_t* opt) { delete opt; }

void leveldb_readoptions_set_verify_checksums(leveldb_readoptions_t* opt,
                                              uint8_t v) {
  opt->options.verify_checksums = v != 0;
}

void leveldb_readoptions_set_fill_cache(leveldb_readoptions_t* opt, uint8_t v) {
  opt->options.fill_cache = v != 0;
}

void leveldb_readoptions_set_snapshot(leveldb_readoptions_t* opt,
                                      const leveldb_snapshot_t* snap) {
  opt->options.snapshot = snap != nullptr ? snap->snapshot : nullptr;
}

// ---- Write options ----

leveldb_writeoptions_t* leveldb_writeoptions_create() {
  return new leveldb_writeoptions_t;
}

void leveldb_writeoptions_destroy(leveldb_writeoptions_t* opt) { delete opt; }

void leveldb_writeoptions_set_sync(leveldb_writeoptions_t* opt, uint8_t v) {
  opt->options.sync = v != 0;
}

// ---- Block cache ----

leveldb_cache_t* leveldb_cache_create_lru(size_t capacity) {
  return new leveldb_cache_t{leveldb::NewLRUCache(capacity)};
}

void leveldb_cache_destroy(leveldb_cache_t* cache) {
  delete cache->cache;
  delete cache;
}

// ---- Environment ----

leveldb_env_t* leveldb_create_default_env() {
  return new leveldb_env_t{Env::Default(), false};
}

void leveldb_env_destroy(leveldb_env_t* env) {
  if (env->owned) delete env->env;
  delete env;
}

char* leveldb_env_get_test_directory(leveldb_env_t* env) {
  std::string dir;
  if (!env->env->GetTestDirectory(&dir).ok()) return nullptr;
  return MallocString(dir);
}

// ---- Miscellaneous ----

void leveldb_free(void* ptr) { std::free(ptr); }

int leveldb_major_version() { return leveldb::kMajorVersion; }

int leveldb_minor_version() { return leveldb::kMinorVersion; }

}  // extern "C"
