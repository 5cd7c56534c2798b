// ElasticBF filter-unit hot paths (internal headers): KeyHash64 on 16-byte
// keys, probing a decoded unit for present and absent keys, and building one
// unit of a default-sized segment (8192 keys at 4 bits per key).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "aligned_bloom_unit.h"
#include "table/elastic/filter_unit.h"
#include "util/coding.h"
#include "util/hash64.h"

namespace {

constexpr size_t kSegmentKeys = 8192;
constexpr uint64_t kPresentTag = 0x1111111111111111ull;
constexpr uint64_t kAbsentTag = 0x2222222222222222ull;

// 16-byte keys: an 8-byte tag followed by a counter.
std::vector<std::string> MakeKeys(uint64_t tag, size_t n) {
  std::vector<std::string> keys(n, std::string(16, '\0'));
  for (size_t i = 0; i < n; ++i) {
    leveldb::StoreFixed64(&keys[i][0], tag);
    leveldb::StoreFixed64(&keys[i][8], i);
  }
  return keys;
}

std::vector<uint64_t> HashAll(const std::vector<std::string>& keys) {
  std::vector<uint64_t> hashes;
  hashes.reserve(keys.size());
  for (const std::string& k : keys) {
    hashes.push_back(leveldb::KeyHash64(k.data(), k.size()));
  }
  return hashes;
}

void BM_KeyHash64_16B(benchmark::State& state) {
  const std::vector<std::string> keys = MakeKeys(kPresentTag, 1024);
  size_t i = 0;
  for (auto _ : state) {
    const std::string& k = keys[i++ & 1023];
    benchmark::DoNotOptimize(leveldb::KeyHash64(k.data(), k.size()));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_KeyHash64_16B);

// A unit over the segment's keys in aligned storage, with its view.
using LoadedUnit = leveldb::bench::AlignedBloomUnit;

LoadedUnit LoadUnit(const std::vector<uint64_t>& hashes, int bits_per_unit) {
  std::string encoded;
  leveldb::BuildFilterUnit(hashes.data(), hashes.size(), 0, bits_per_unit,
                           &encoded);
  return leveldb::bench::LoadAlignedBloomUnit(encoded);
}

// range(0): 1 probes present keys (hits), 0 absent keys (mostly misses).
// range(1): bits per unit.
void BM_FilterUnitMayMatch(benchmark::State& state) {
  const bool present = state.range(0) != 0;
  const int bits = static_cast<int>(state.range(1));
  const std::vector<uint64_t> segment =
      HashAll(MakeKeys(kPresentTag, kSegmentKeys));
  const LoadedUnit unit = LoadUnit(segment, bits);
  const std::vector<uint64_t> probes =
      present ? segment : HashAll(MakeKeys(kAbsentTag, kSegmentKeys));
  size_t i = 0;
  int64_t matches = 0;
  for (auto _ : state) {
    const uint64_t h = probes[i++ % kSegmentKeys];
    matches += leveldb::FilterUnitViewMayMatch(unit.view, h, 0);
  }
  benchmark::DoNotOptimize(matches);
  state.counters["match_rate"] =
      static_cast<double>(matches) / static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_FilterUnitMayMatch)
    ->ArgNames({"present", "bits"})
    ->Args({1, 4})
    ->Args({0, 4})
    ->Args({1, 24})
    ->Args({0, 24});

// The unaligned in-place probe (no decoded view), on absent keys.
void BM_FilterUnitMayMatchInPlace(benchmark::State& state) {
  const std::vector<uint64_t> segment =
      HashAll(MakeKeys(kPresentTag, kSegmentKeys));
  std::string encoded;
  leveldb::BuildFilterUnit(segment.data(), segment.size(), 0, 4, &encoded);
  const std::vector<uint64_t> probes =
      HashAll(MakeKeys(kAbsentTag, kSegmentKeys));
  size_t i = 0;
  int64_t matches = 0;
  for (auto _ : state) {
    matches +=
        leveldb::FilterUnitMayMatch(encoded, probes[i++ % kSegmentKeys], 0);
  }
  benchmark::DoNotOptimize(matches);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_FilterUnitMayMatchInPlace);

// range(0): bits per unit.
void BM_BuildFilterUnit(benchmark::State& state) {
  const int bits = static_cast<int>(state.range(0));
  const std::vector<uint64_t> segment =
      HashAll(MakeKeys(kPresentTag, kSegmentKeys));
  std::string unit;
  for (auto _ : state) {
    unit.clear();
    leveldb::BuildFilterUnit(segment.data(), segment.size(), 3, bits, &unit);
    benchmark::DoNotOptimize(unit.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(kSegmentKeys));
}
BENCHMARK(BM_BuildFilterUnit)->Arg(4)->Arg(24);

}  // namespace

BENCHMARK_MAIN();
