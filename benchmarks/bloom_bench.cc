// Built-in Bloom filter policy at 10 bits per key, through the public API
// only, so the same source measures the fork and upstream LevelDB.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"

namespace {

// Distinct 16-byte keys; `salt` separates present keys from absent ones.
std::vector<std::string> MakeKeys(int count, int salt) {
  std::vector<std::string> keys;
  keys.reserve(static_cast<size_t>(count));
  char buf[32];
  for (int i = 0; i < count; ++i) {
    std::snprintf(buf, sizeof(buf), "%c%015d", 'a' + salt, i * 7919);
    keys.emplace_back(buf, 16);
  }
  return keys;
}

std::vector<leveldb::Slice> AsSlices(const std::vector<std::string>& keys) {
  return std::vector<leveldb::Slice>(keys.begin(), keys.end());
}

struct Fixture {
  explicit Fixture(int n)
      : policy(leveldb::NewBloomFilterPolicy(10)),
        present(MakeKeys(n, 0)),
        absent(MakeKeys(n, 1)) {
    std::vector<leveldb::Slice> slices = AsSlices(present);
    policy->CreateFilter(slices.data(), static_cast<int>(slices.size()),
                         &filter);
  }
  std::unique_ptr<const leveldb::FilterPolicy> policy;
  std::vector<std::string> present;
  std::vector<std::string> absent;
  std::string filter;
};

void BM_BloomCreateFilter(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      leveldb::NewBloomFilterPolicy(10));
  const std::vector<std::string> keys = MakeKeys(n, 0);
  const std::vector<leveldb::Slice> slices = AsSlices(keys);
  std::string filter;
  for (auto _ : state) {
    filter.clear();
    policy->CreateFilter(slices.data(), n, &filter);
    benchmark::DoNotOptimize(filter.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}
BENCHMARK(BM_BloomCreateFilter)->Arg(1000)->Arg(10000);

// Probes every key of one set per pass; reports probes per second.
void RunProbes(benchmark::State& state, bool hit) {
  Fixture f(static_cast<int>(state.range(0)));
  const std::vector<std::string>& probes = hit ? f.present : f.absent;
  size_t matched = 0;
  for (auto _ : state) {
    for (const std::string& key : probes) {
      matched += f.policy->KeyMayMatch(key, f.filter) ? 1 : 0;
    }
    benchmark::DoNotOptimize(matched);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(probes.size()));
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

}  // namespace

BENCHMARK_MAIN();
