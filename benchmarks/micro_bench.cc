// Micro-benchmarks through the public API only, so the same source measures
// the fork and upstream LevelDB (micro_bench_upstream; compared side by side
// by scripts/compare_micro.sh):
//   BM_Bloom*   NewBloomFilterPolicy(10): CreateFilter, KeyMayMatch hit/miss;
//   BM_Cache*   NewLRUCache: inserts with evictions, lookups that hit or
//               miss, one and two threads sharing one cache;
//   BM_Table*   TableBuilder writing a table to /tmp; point lookups through
//               Table::Open and NewIterator()->Seek, with and without Bloom.
// `micro_bench --count=cache` instead does a fixed amount of work (1M cache
// lookups) for exact instruction counts under `valgrind --tool=callgrind`,
// where timed loops are noisy.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/random.h"
#include "leveldb/cache.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"

namespace {

using leveldb::Slice;

// ---- Bloom filter policy ----

// Distinct 16-byte keys; `salt` separates present keys from absent ones.
std::vector<std::string> MakeKeys(int count, int salt) {
  std::vector<std::string> keys;
  char buf[32];
  for (int i = 0; i < count; ++i) {
    std::snprintf(buf, sizeof(buf), "%c%015d", 'a' + salt, i * 7919);
    keys.emplace_back(buf, 16);
  }
  return keys;
}

std::string CreateFilter(const leveldb::FilterPolicy& policy,
                         const std::vector<std::string>& keys) {
  const std::vector<Slice> slices(keys.begin(), keys.end());
  std::string filter;
  policy.CreateFilter(slices.data(), static_cast<int>(slices.size()), &filter);
  return filter;
}

void BM_BloomCreateFilter(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      leveldb::NewBloomFilterPolicy(10));
  const std::vector<std::string> keys = MakeKeys(n, 0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(CreateFilter(*policy, keys).data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}
BENCHMARK(BM_BloomCreateFilter)->Arg(1000)->Arg(10000);

// Probes every key of one set per pass; reports probes per second.
void RunProbes(benchmark::State& state, bool hit) {
  const int n = static_cast<int>(state.range(0));
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      leveldb::NewBloomFilterPolicy(10));
  const std::string filter = CreateFilter(*policy, MakeKeys(n, 0));
  const std::vector<std::string> probes = MakeKeys(n, hit ? 0 : 1);
  size_t matched = 0;
  for (auto _ : state) {
    for (const std::string& key : probes) {
      matched += policy->KeyMayMatch(key, filter) ? 1 : 0;
    }
    benchmark::DoNotOptimize(matched);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
  if (hit && matched != probes.size() * state.iterations()) {
    state.SkipWithError("false negative in Bloom filter");
  }
}

void BM_BloomKeyMayMatchHit(benchmark::State& state) { RunProbes(state, true); }
BENCHMARK(BM_BloomKeyMayMatchHit)->Arg(1000)->Arg(10000);

void BM_BloomKeyMayMatchMiss(benchmark::State& state) {
  RunProbes(state, false);
}
BENCHMARK(BM_BloomKeyMayMatchMiss)->Arg(1000)->Arg(10000);

// ---- LRU cache ----

// Every entry has charge 1. Shards fill unevenly, so leave room for all the
// resident keys to stay.
constexpr uint64_t kResidentKeys = 1 << 14;
constexpr size_t kCapacity = 4 * kResidentKeys;

// Keys are the 8 raw bytes of a number.
class KeyBuf {
 public:
  Slice Encode(uint64_t n) {
    std::memcpy(bytes_, &n, sizeof(n));
    return Slice(bytes_, sizeof(bytes_));
  }

 private:
  char bytes_[8];
};

void NoopDeleter(const Slice&, void*) {}

// One cache shared by all threads of a run: thread 0 creates it before the
// timed loop and deletes it after; the harness's barriers order the rest.
leveldb::Cache* g_cache = nullptr;

void SetUpShared(benchmark::State& state, bool prefill) {
  if (state.thread_index() != 0) return;
  g_cache = leveldb::NewLRUCache(kCapacity);
  KeyBuf key;
  for (uint64_t i = 0; prefill && i < kResidentKeys; ++i) {
    g_cache->Release(g_cache->Insert(key.Encode(i), nullptr, 1, NoopDeleter));
  }
}

void TearDownShared(benchmark::State& state) {
  if (state.thread_index() != 0) return;
  delete g_cache;
  g_cache = nullptr;
}

void BM_CacheInsert(benchmark::State& state) {
  SetUpShared(state, false);
  KeyBuf key;
  // Threads insert disjoint key ranges; the cache evicts as it fills.
  uint64_t next = static_cast<uint64_t>(state.thread_index()) << 40;
  for (auto _ : state) {
    g_cache->Release(
        g_cache->Insert(key.Encode(next++), nullptr, 1, NoopDeleter));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  TearDownShared(state);
}
BENCHMARK(BM_CacheInsert)->Threads(1)->Threads(2)->UseRealTime();

// Looks up resident keys or keys never inserted; fails the run if any
// lookup turns out otherwise.
void RunLookups(benchmark::State& state, bool resident) {
  SetUpShared(state, true);
  KeyBuf key;
  bench::SplitMix64 rnd(static_cast<uint64_t>(state.thread_index()) + 1);
  int64_t surprises = 0;
  for (auto _ : state) {
    const uint64_t n = resident ? rnd.Next() % kResidentKeys
                                : kResidentKeys + (rnd.Next() >> 1);
    leveldb::Cache::Handle* h = g_cache->Lookup(key.Encode(n));
    if (h != nullptr) g_cache->Release(h);
    surprises += (h != nullptr) != resident;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  if (surprises != 0) {
    state.SkipWithError(resident ? "resident key missing from cache"
                                 : "absent key found in cache");
  }
  TearDownShared(state);
}

void BM_CacheLookupHit(benchmark::State& state) { RunLookups(state, true); }
BENCHMARK(BM_CacheLookupHit)->Threads(1)->Threads(2)->UseRealTime();

void BM_CacheLookupMiss(benchmark::State& state) { RunLookups(state, false); }
BENCHMARK(BM_CacheLookupMiss)->Threads(1)->Threads(2)->UseRealTime();

// ---- Sorted tables ----

constexpr size_t kKeySize = 16;
constexpr size_t kValueSize = 100;

// n keys, sorted; spread so that neighbours differ in more than one byte.
std::vector<std::string> SortedKeys(int64_t n) {
  std::vector<std::string> keys;
  char buf[kKeySize + 1];
  for (int64_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof(buf), "%016" PRIu64,
                  static_cast<uint64_t>(i) * 2654435761u % 1000000007u);
    keys.emplace_back(buf, kKeySize);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Values are half random, half repeated, so snappy halves them (roughly).
std::string ValueAt(uint64_t i) {
  std::string half(kValueSize / 2, '\0');
  bench::SplitMix64 rnd(i);
  for (char& c : half) c = static_cast<char>(' ' + rnd.Next() % 95);
  return half + half;
}

std::string TablePath(const char* tag, int64_t n) {
  return "/tmp/leveldb_table_bench_" + std::to_string(getpid()) + "_" + tag +
         "_" + std::to_string(n) + ".ldb";
}

leveldb::Status WriteTable(const leveldb::Options& options,
                           const std::string& path,
                           const std::vector<std::string>& keys) {
  leveldb::WritableFile* raw = nullptr;
  leveldb::Status s = options.env->NewWritableFile(path, &raw);
  if (!s.ok()) return s;
  std::unique_ptr<leveldb::WritableFile> file(raw);
  leveldb::TableBuilder builder(options, file.get());
  for (size_t i = 0; i < keys.size(); ++i) builder.Add(keys[i], ValueAt(i));
  s = builder.Finish();
  if (s.ok()) s = file->Sync();
  if (s.ok()) s = file->Close();
  return s;
}

void BM_TableWrite(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::vector<std::string> keys = SortedKeys(n);
  leveldb::Options options;
  const std::string path = TablePath("write", n);
  for (auto _ : state) {
    leveldb::Status s = WriteTable(options, path, keys);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n *
                          static_cast<int64_t>(kKeySize + kValueSize));
  options.env->RemoveFile(path);
}
BENCHMARK(BM_TableWrite)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// Args: entry count, Bloom bits per key (0: no filter). Table iterators do
// not consult the filter, so it only changes the layout and open cost.
void BM_TableSeek(benchmark::State& state) {
  const int64_t n = state.range(0);
  const int bloom_bits = static_cast<int>(state.range(1));
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      bloom_bits > 0 ? leveldb::NewBloomFilterPolicy(bloom_bits) : nullptr);
  leveldb::Options options;
  options.filter_policy = policy.get();
  const std::vector<std::string> keys = SortedKeys(n);
  const std::string path = TablePath("seek", n);
  leveldb::Status s = WriteTable(options, path, keys);
  uint64_t size = 0;
  if (s.ok()) s = options.env->GetFileSize(path, &size);
  leveldb::RandomAccessFile* raw = nullptr;
  if (s.ok()) s = options.env->NewRandomAccessFile(path, &raw);
  std::unique_ptr<leveldb::RandomAccessFile> file(raw);
  leveldb::Table* table_raw = nullptr;
  if (s.ok()) s = leveldb::Table::Open(options, file.get(), size, &table_raw);
  std::unique_ptr<leveldb::Table> table(table_raw);
  bench::SplitMix64 rnd(88172645463325252ull);
  int64_t wrong = 0;
  for (auto _ : state) {
    if (!s.ok()) break;
    const std::string& target = keys[rnd.Next() % keys.size()];
    std::unique_ptr<leveldb::Iterator> it(
        table->NewIterator(leveldb::ReadOptions()));
    it->Seek(target);
    wrong += !it->Valid() || it->key() != target;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  if (!s.ok()) state.SkipWithError(s.ToString().c_str());
  if (wrong != 0) state.SkipWithError("Seek missed an existing key");
  table.reset();
  file.reset();
  options.env->RemoveFile(path);
}
BENCHMARK(BM_TableSeek)
    ->Args({10000, 0})
    ->Args({10000, 10})
    ->Args({100000, 0})
    ->Args({100000, 10});

// ---- Fixed work for callgrind (--count) ----

constexpr int kCountOps = 1000000;

int CountCacheHits() {
  std::unique_ptr<leveldb::Cache> cache(leveldb::NewLRUCache(1 << 20));
  KeyBuf key;
  for (uint64_t i = 0; i < 1024; i++) {
    cache->Release(cache->Insert(key.Encode(i), nullptr, 1, NoopDeleter));
  }
  unsigned long hits = 0;
  for (int i = 0; i < kCountOps; i++) {
    leveldb::Cache::Handle* h = cache->Lookup(key.Encode(i & 1023));
    if (h != nullptr) cache->Release(h);
    hits += h != nullptr;
  }
  std::printf("cache hits: %lu\n", hits);
  return hits == kCountOps ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strncmp(argv[1], "--count=", 8) == 0) {
    const std::string what = argv[1] + 8;
    if (what == "cache") return CountCacheHits();
    std::fprintf(stderr, "micro_bench: --count must be cache\n");
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
