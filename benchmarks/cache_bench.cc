// LRU cache (NewLRUCache) through the public API only: inserts with
// evictions, lookups that hit, lookups that miss; with one and two threads
// sharing one cache.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>

#include "leveldb/cache.h"
#include "leveldb/slice.h"

namespace {

// Every entry has charge 1. The cache is split into shards by key hash, and
// shards fill unevenly, so leave room for the resident keys to all stay.
constexpr uint64_t kResidentKeys = 1 << 14;
constexpr size_t kCapacity = 4 * kResidentKeys;

// Keys are the 8 raw bytes of a number.
class KeyBuf {
 public:
  leveldb::Slice Encode(uint64_t n) {
    std::memcpy(bytes_, &n, sizeof(n));
    return leveldb::Slice(bytes_, sizeof(bytes_));
  }

 private:
  char bytes_[8];
};

// Cheap per-thread generator, so that the harness measures the cache.
class XorShift {
 public:
  explicit XorShift(uint64_t seed) : s_(seed * 0x9e3779b97f4a7c15ull + 1) {}
  uint64_t Next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }

 private:
  uint64_t s_;
};

void NoopDeleter(const leveldb::Slice&, void*) {}

// One cache shared by all threads of a run: thread 0 creates it before the
// timed loop and deletes it after; the harness's start/stop barriers order
// those steps against the other threads.
leveldb::Cache* g_cache = nullptr;

void SetUpShared(benchmark::State& state, bool prefill) {
  if (state.thread_index() != 0) return;
  g_cache = leveldb::NewLRUCache(kCapacity);
  if (!prefill) return;
  KeyBuf key;
  for (uint64_t i = 0; i < kResidentKeys; ++i) {
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

// Looks up resident keys (`resident`) or keys that were never inserted;
// fails the run if any lookup turns out otherwise.
void RunLookups(benchmark::State& state, bool resident) {
  SetUpShared(state, true);
  KeyBuf key;
  XorShift rnd(static_cast<uint64_t>(state.thread_index()) + 1);
  int64_t surprises = 0;
  for (auto _ : state) {
    // Keys at or above kResidentKeys were never inserted.
    const uint64_t n = resident ? rnd.Next() % kResidentKeys
                                : kResidentKeys + (rnd.Next() >> 1);
    leveldb::Cache::Handle* h = g_cache->Lookup(key.Encode(n));
    const bool found = h != nullptr;
    if (found) g_cache->Release(h);
    if (found != resident) ++surprises;
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

}  // namespace

BENCHMARK_MAIN();
