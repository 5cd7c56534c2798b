// filter_bench: ElasticBF's filter units, Ribbon (table/elastic/ribbon_unit.h)
// against Bloom (table/elastic/filter_unit.h). Three modes:
//
// Default: Markdown tables,
//   1. memory: the slot rule's bits per key per plane (trailer included)
//      and its overhead e for segments of 256 .. 128K keys; how many key
//      sets needed a second attempt; build time per key of a full group
//      (6 units x 4 planes) against 6 Bloom units of 4 bits;
//   2. band width: the fewest slots per key at which 90% of the key sets
//      band, for rows of 64 and 128 bits (why the units use 128);
//   3. probe time per unit, present and absent keys, with the units in
//      cache (one segment) and out of it (many segments, one picked at
//      random per probe);
//   4. false-positive rate of the first j planes (j = 1..24, units of one
//      plane), of k units of 4 planes and of k Bloom units of 4 bits.
// Times are thread CPU time, the best of --reps runs.
//
// --count_probes=N --kind=ribbon|bloom|none [--units=K] [--present=0|1]
// does only N probes of the first K units (4 planes or 4 bits each) of one
// segment, as a Get probes a segment's loaded units (Ribbon units sharing
// one key probe), with absent keys (or present ones: every unit probed),
// and prints the hits; none hashes the keys only. For exact instruction
// counts under `valgrind --tool=callgrind`: (Ir at 2N - Ir at N) / N is the
// cost per probe with setup excluded, less that of none the probe itself.
//
// --micro [--benchmark_...]: Google Benchmark loops over the Bloom unit's
// hot paths: KeyHash64 of 16-byte keys, probing a decoded unit (present and
// absent keys, 4 and 24 bits), the in-place probe, building a unit.
#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "common/flags.h"
#include "table/elastic/filter_unit.h"
#include "table/elastic/ribbon_unit.h"
#include "util/coding.h"
#include "util/gf2_band.h"
#include "util/hash64.h"

namespace {

using leveldb::RibbonShape;

struct Flags {
  int64_t absent = int64_t{1} << 28;  // absent keys of the FP table
  int64_t reps = 5;
  int64_t sets = 20;  // key sets per size for attempt and width statistics
  bool widths = true;
  int64_t count_probes = 0;  // > 0: only count probes (see above)
  std::string kind = "ribbon";
  int64_t units = 1;
  bool present = false;
};

constexpr size_t kSizes[] = {256, 1024, 8192, 65536, 131072};
constexpr size_t kSegmentKeys = 8192;
constexpr int kPlanesPerUnit = 4;
constexpr int kUnits = 6;
constexpr uint64_t kPresentTag = 0x1111111111111111ull;
constexpr uint64_t kAbsentTag = 0x2222222222222222ull;

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  using bench::FlagType;
  const std::vector<bench::Flag> table = {
      {"absent", FlagType::kInt, &f.absent, "absent keys of the FP table", 1},
      {"reps", FlagType::kInt, &f.reps, "timed runs, the best kept", 1},
      {"sets", FlagType::kInt, &f.sets, "key sets per size", 1},
      {"widths", FlagType::kBool, &f.widths, "print the band-width table"},
      {"count_probes", FlagType::kInt, &f.count_probes, "only count probes", 1},
      {"kind", FlagType::kString, &f.kind, "ribbon, bloom or none"},
      {"units", FlagType::kInt, &f.units, "units probed, 1 to 16", 1},
      {"present", FlagType::kBool, &f.present, "probe present keys"},
  };
  for (int i = 1; i < argc; ++i) {
    bool unknown = false;
    std::string error = bench::ApplyFlag(table, argv[i], &unknown);
    if (error.empty() && f.units > 16) error = "--units must be at most 16";
    if (error.empty() && f.kind != "ribbon" && f.kind != "bloom" &&
        f.kind != "none") {
      error = "--kind must be ribbon, bloom or none";
    }
    if (!error.empty()) {
      std::fprintf(stderr, "filter_bench: %s\nflags:\n", error.c_str());
      bench::PrintFlags(table, 14);
      std::exit(2);
    }
  }
  f.reps = std::min<int64_t>(f.reps, 1000);
  f.sets = std::min<int64_t>(f.sets, 1000);
  return f;
}

uint64_t KeyHashOf(uint64_t tag, uint64_t i) {
  char key[16];
  leveldb::StoreFixed64(key, tag);
  leveldb::StoreFixed64(key + 8, i);
  return leveldb::KeyHash64(key, sizeof(key));
}

std::vector<uint64_t> KeyHashes(uint64_t tag, size_t n) {
  std::vector<uint64_t> hashes(n);
  for (size_t i = 0; i < n; ++i) hashes[i] = KeyHashOf(tag, i);
  return hashes;
}

double ThreadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

// Best thread CPU time of `reps` runs of fn, in nanoseconds per item.
double BestNsPerItem(int reps, uint64_t items,
                     const std::function<void()>& fn) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const double start = ThreadSeconds();
    fn();
    best = std::min(best, ThreadSeconds() - start);
  }
  return best * 1e9 / static_cast<double>(items);
}

std::vector<std::string> BuildRibbon(const std::vector<uint64_t>& hashes,
                                     const RibbonShape& shape,
                                     leveldb::RibbonBuildInfo* info = nullptr) {
  std::vector<std::string> units;
  if (!leveldb::BuildRibbonUnits(hashes.data(), hashes.size(), shape, &units,
                                 info)
           .ok()) {
    std::fprintf(stderr, "filter_bench: build rejected\n");
    std::exit(1);
  }
  return units;
}

std::vector<std::string> BuildBloom(const std::vector<uint64_t>& hashes,
                                    int units) {
  std::vector<std::string> out(units);
  for (int u = 0; u < units; ++u) {
    leveldb::BuildFilterUnit(hashes.data(), hashes.size(), u, kPlanesPerUnit,
                             &out[u]);
  }
  return out;
}

std::vector<leveldb::RibbonUnitView> Views(
    const std::vector<std::string>& units) {
  std::vector<leveldb::RibbonUnitView> views(units.size());
  for (size_t u = 0; u < units.size(); ++u) {
    if (!leveldb::DecodeRibbonUnit(units[u], &views[u])) std::abort();
  }
  return views;
}

// 1. Memory, attempts and build time per segment size.
void MemoryTable(const Flags& f) {
  std::printf(
      "## Memory and build time (units of %d planes; build: %d units)\n\n"
      "| keys | slots per key | unit bytes | bits per key per plane | e "
      "| key sets needing a 2nd attempt | Ribbon build ns/key "
      "| Bloom build ns/key (%d x %d bits) | Ribbon / Bloom |\n"
      "|---|---|---|---|---|---|---|---|---|\n",
      kPlanesPerUnit, kUnits, kUnits, kPlanesPerUnit);
  const RibbonShape shape{kPlanesPerUnit, kUnits};
  for (size_t n : kSizes) {
    const size_t bytes = leveldb::RibbonUnitSize(n, kPlanesPerUnit);
    const double per_plane = bytes * 8.0 / (n * kPlanesPerUnit);
    int retried = 0;
    for (int s = 0; s < f.sets; ++s) {
      leveldb::RibbonBuildInfo info;
      BuildRibbon(KeyHashes(kPresentTag ^ (uint64_t(s + 1) << 40), n), shape,
                  &info);
      retried += info.attempt > 0;
    }
    const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, n);
    const double ribbon =
        BestNsPerItem(f.reps, n, [&] { BuildRibbon(hashes, shape); });
    const double bloom =
        BestNsPerItem(f.reps, n, [&] { BuildBloom(hashes, kUnits); });
    std::printf(
        "| %zu | %.4f | %zu | %.4f | %.2f%% | %d of %d | %.1f | %.1f "
        "| %.2fx |\n",
        n, leveldb::RibbonBlocks(n, 0) * 64.0 / n, bytes, per_plane,
        (per_plane - 1) * 100, retried, static_cast<int>(f.sets), ribbon, bloom,
        ribbon / bloom);
  }
  std::printf("\n");
}

// True if the keys band in `blocks` blocks with rows of Row's width,
// deriving starts and rows as the units do.
template <typename Row>
bool Bands(const std::vector<uint64_t>& hashes, uint32_t blocks) {
  namespace ri = leveldb::ribbon_unit_internal;
  constexpr int kWidth = leveldb::Gf2Band<Row>::kWidth;
  leveldb::Gf2Band<Row> band(blocks * 64);
  const uint32_t starts = blocks * 64 - kWidth + 1;
  for (uint64_t h : hashes) {
    const uint64_t r = ri::Remix(h, 0);
    Row row = static_cast<Row>(ri::CoeffLow(r));
    if constexpr (kWidth > 64) row |= static_cast<Row>(ri::CoeffHigh(r)) << 64;
    if (!band.Add(ri::Start(r, starts), row, ri::Results(r, 0) & 1))
      return false;
  }
  return true;
}

// Fewest blocks at which at least 90% of the key sets band.
template <typename Row>
uint32_t FewestBlocks(const std::vector<std::vector<uint64_t>>& sets,
                      size_t n) {
  constexpr uint32_t kMinBlocks = leveldb::Gf2Band<Row>::kWidth / 64;
  uint32_t lo = std::max<uint32_t>(kMinBlocks, (n + 63) / 64);
  uint32_t hi = 2 * lo + 4;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    size_t ok = 0;
    for (const auto& hashes : sets) ok += Bands<Row>(hashes, mid);
    if (ok * 10 >= sets.size() * 9) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

// 2. Slots per key each band width needs.
void WidthTable(const Flags& f) {
  std::printf(
      "## Band width: fewest slots per key at which 90%% of %d key sets "
      "band\n\n| keys | 64-bit rows | 128-bit rows | the units' rule |\n"
      "|---|---|---|---|\n",
      static_cast<int>(f.sets));
  for (size_t n : kSizes) {
    std::vector<std::vector<uint64_t>> sets;
    for (int s = 0; s < f.sets; ++s) {
      sets.push_back(KeyHashes(kPresentTag ^ (uint64_t(s + 1) << 40), n));
    }
    const double w64 = FewestBlocks<uint64_t>(sets, n) * 64.0 / n;
    const double w128 = FewestBlocks<leveldb::Gf2Row128>(sets, n) * 64.0 / n;
    std::printf("| %zu | %.4f | %.4f | %.4f |\n", n, w64, w128,
                leveldb::RibbonBlocks(n, 0) * 64.0 / n);
  }
  std::printf("\n");
}

// A Bloom unit copied into 8-byte aligned memory and decoded once, as the
// filter layer's loader keeps it.
struct BloomUnit {
  std::vector<uint64_t> words;
  leveldb::FilterUnitView view;  // points into words
};

BloomUnit LoadBloom(const std::string& encoded) {
  BloomUnit unit;
  unit.words.resize((encoded.size() + 7) / 8);
  std::memcpy(unit.words.data(), encoded.data(), encoded.size());
  const leveldb::Slice slice(reinterpret_cast<const char*>(unit.words.data()),
                             encoded.size());
  if (!leveldb::DecodeFilterUnit(slice, &unit.view)) std::abort();
  return unit;
}

// Unit 0 of `segments` segments of kSegmentKeys keys, both kinds.
struct Segments {
  std::vector<std::string> ribbon_bytes;
  std::vector<leveldb::RibbonUnitView> ribbon;
  std::vector<BloomUnit> bloom;
};

Segments BuildSegments(size_t segments) {
  Segments out;
  for (size_t s = 0; s < segments; ++s) {
    const std::vector<uint64_t> hashes =
        KeyHashes(kPresentTag + s, kSegmentKeys);
    out.ribbon_bytes.push_back(BuildRibbon(hashes, {kPlanesPerUnit, 1})[0]);
    out.bloom.push_back(LoadBloom(BuildBloom(hashes, 1)[0]));
  }
  out.ribbon = Views(out.ribbon_bytes);
  return out;
}

// Probes: (segment, key hash) pairs, present keys of that segment or
// absent keys.
struct Probe {
  uint32_t segment;
  uint64_t hash;
};

std::vector<Probe> MakeProbes(size_t segments, bool present, size_t count) {
  std::vector<Probe> probes(count);
  uint64_t x = 12345;
  for (size_t i = 0; i < count; ++i) {
    x = leveldb::hash64_internal::Avalanche(x + i);
    const uint32_t s = static_cast<uint32_t>(x % segments);
    probes[i] = {s, present
                        ? KeyHashOf(kPresentTag + s, (x >> 32) % kSegmentKeys)
                        : KeyHashOf(kAbsentTag, i)};
  }
  return probes;
}

// Waits until every earlier instruction has completed (x86 LFENCE), so
// that probes cannot overlap: what remains is each probe's latency.
inline void Serialize() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_lfence();
#else
  __asm__ volatile("" ::: "memory");
#endif
}

// Nanoseconds per probe of unit 0 of the probe's segment, probes free to
// overlap (throughput) or serialized (latency).
template <typename MayMatch>
double ProbeNs(const Flags& f, const std::vector<Probe>& probes, bool serial,
               const MayMatch& may_match, uint64_t* hits) {
  return BestNsPerItem(f.reps, probes.size(), [&] {
    uint64_t count = 0;
    for (const Probe& p : probes) {
      count += may_match(p.segment, p.hash);
      if (serial) Serialize();
    }
    *hits = count;
  });
}

void ProbeRow(const Flags& f, const Segments& seg, const char* label,
              bool present) {
  const std::vector<Probe> probes =
      MakeProbes(seg.ribbon.size(), present, size_t{1} << 20);
  auto ribbon = [&](uint32_t s, uint64_t h) -> uint64_t {
    return leveldb::RibbonUnitViewMayMatch(seg.ribbon[s], h);
  };
  auto bloom = [&](uint32_t s, uint64_t h) -> uint64_t {
    return leveldb::FilterUnitViewMayMatch(seg.bloom[s].view, h, 0);
  };
  uint64_t ribbon_hits = 0, bloom_hits = 0;
  const double ri = ProbeNs(f, probes, false, ribbon, &ribbon_hits);
  const double bi = ProbeNs(f, probes, false, bloom, &bloom_hits);
  const double rd = ProbeNs(f, probes, true, ribbon, &ribbon_hits);
  const double bd = ProbeNs(f, probes, true, bloom, &bloom_hits);
  std::printf("| %s | %.1f | %.1f | %.1f | %.1f | %.4f | %.4f |\n", label, ri,
              bi, rd, bd, static_cast<double>(ribbon_hits) / probes.size(),
              static_cast<double>(bloom_hits) / probes.size());
}

// 3. Probe time of one unit: throughput, and latency with each probe
// serialized.
void ProbeTable(const Flags& f) {
  std::printf(
      "## Probe time per unit (%zu-key segments; Ribbon unit of %d planes, "
      "Bloom unit of %d bits)\n\n"
      "| probes | Ribbon ns | Bloom ns | Ribbon ns, serialized "
      "| Bloom ns, serialized | Ribbon match rate | Bloom match rate |\n"
      "|---|---|---|---|---|---|---|\n",
      kSegmentKeys, kPlanesPerUnit, kPlanesPerUnit);
  const Segments one = BuildSegments(1);
  ProbeRow(f, one, "present keys, 1 segment (in cache)", true);
  ProbeRow(f, one, "absent keys, 1 segment (in cache)", false);
  const Segments many = BuildSegments(2048);
  ProbeRow(f, many, "present keys, 2048 segments (8 MiB of units per kind)",
           true);
  ProbeRow(f, many, "absent keys, 2048 segments (8 MiB of units per kind)",
           false);
  std::printf("\n");
}

// Units 0, 1, ... a key passes before the first that rejects it.
int RibbonPasses(const std::vector<leveldb::RibbonUnitView>& views,
                 uint64_t h) {
  int k = 0;
  while (k < static_cast<int>(views.size()) &&
         leveldb::RibbonUnitViewMayMatch(views[k], h)) {
    ++k;
  }
  return k;
}

int BloomPasses(const std::vector<BloomUnit>& units, uint64_t h) {
  int k = 0;
  while (k < static_cast<int>(units.size()) &&
         leveldb::FilterUnitViewMayMatch(units[k].view, h, k)) {
    ++k;
  }
  return k;
}

// at_least[j]: keys that passed the first j units (from per-key counts).
std::vector<uint64_t> AtLeast(const std::vector<uint64_t>& passed) {
  std::vector<uint64_t> out(passed.size());
  std::partial_sum(passed.rbegin(), passed.rend(), out.rbegin());
  return out;
}

// 4. False-positive rates of prefixes of planes and of units.
void FpTable(const Flags& f) {
  constexpr int kPlanes = kPlanesPerUnit * kUnits;
  const std::vector<uint64_t> hashes = KeyHashes(kPresentTag, kSegmentKeys);
  const std::vector<std::string> planes_bytes =
      BuildRibbon(hashes, {1, kPlanes});
  const std::vector<std::string> units_bytes =
      BuildRibbon(hashes, {kPlanesPerUnit, kUnits});
  const auto planes = Views(planes_bytes);
  const auto units = Views(units_bytes);
  std::vector<BloomUnit> bloom;
  for (const std::string& u : BuildBloom(hashes, kUnits)) {
    bloom.push_back(LoadBloom(u));
  }
  std::vector<uint64_t> p(kPlanes + 1, 0), u(kUnits + 1, 0), b(kUnits + 1, 0);
  for (int64_t i = 0; i < f.absent; ++i) {
    const uint64_t h = KeyHashOf(kAbsentTag, i);
    ++p[RibbonPasses(planes, h)];
    ++u[RibbonPasses(units, h)];
    ++b[BloomPasses(bloom, h)];
  }
  const auto pa = AtLeast(p), ua = AtLeast(u), ba = AtLeast(b);
  const double n = static_cast<double>(f.absent);
  std::printf(
      "## False-positive rate (%zu keys, %" PRIu64
      " absent keys; passes in "
      "parentheses)\n\n| planes j | 2^-j | first j planes (1-plane units) "
      "| j/%d units of %d planes | j/%d Bloom units of %d bits |\n"
      "|---|---|---|---|---|\n",
      kSegmentKeys, static_cast<uint64_t>(f.absent), kPlanesPerUnit,
      kPlanesPerUnit, kPlanesPerUnit, kPlanesPerUnit);
  for (int j = 1; j <= kPlanes; ++j) {
    std::printf("| %d | %.3e | %.3e (%" PRIu64 ") |", j, std::ldexp(1.0, -j),
                pa[j] / n, pa[j]);
    if (j % kPlanesPerUnit == 0) {
      const int k = j / kPlanesPerUnit;
      std::printf(" %.3e (%" PRIu64 ") | %.3e (%" PRIu64 ") |\n", ua[k] / n,
                  ua[k], ba[k] / n, ba[k]);
    } else {
      std::printf(" | |\n");
    }
  }
  std::printf("\n");
}

// --count_probes: N probes of one kind, nothing timed.
void CountProbes(const Flags& f) {
  const std::vector<uint64_t> keys = KeyHashes(kPresentTag, kSegmentKeys);
  const std::vector<std::string> ribbon_bytes =
      BuildRibbon(keys, {kPlanesPerUnit, static_cast<int>(f.units)});
  const std::vector<leveldb::RibbonUnitView> ribbon = Views(ribbon_bytes);
  std::vector<BloomUnit> bloom;
  for (const std::string& unit : BuildBloom(keys, f.units)) {
    bloom.push_back(LoadBloom(unit));
  }
  uint64_t hits = 0;
  for (int64_t i = 0; i < f.count_probes; ++i) {
    const uint64_t h =
        f.present ? keys[i % keys.size()] : KeyHashOf(kAbsentTag, i);
    bool pass = true;
    if (f.kind == "ribbon") {
      leveldb::RibbonKeyProbe probe;
      for (int u = 0; u < f.units && pass; ++u) {
        pass = leveldb::RibbonUnitMayMatchWith(ribbon[u], h, &probe);
      }
    } else if (f.kind == "bloom") {
      for (int u = 0; u < f.units && pass; ++u) {
        pass = leveldb::FilterUnitViewMayMatch(bloom[u].view, h, u);
      }
    } else {
      pass = h & 1;
    }
    hits += pass;
  }
  std::printf("%s: %" PRIu64 " probes, %" PRIu64 " hits\n", f.kind.c_str(),
              static_cast<uint64_t>(f.count_probes), hits);
}

// --micro: the Bloom unit's hot paths under Google Benchmark.
void BM_KeyHash64_16B(benchmark::State& state) {
  std::vector<std::string> keys(1024, std::string(16, '\0'));
  for (size_t i = 0; i < keys.size(); ++i) {
    leveldb::StoreFixed64(&keys[i][0], kPresentTag);
    leveldb::StoreFixed64(&keys[i][8], i);
  }
  size_t i = 0;
  for (auto _ : state) {
    const std::string& k = keys[i++ & 1023];
    benchmark::DoNotOptimize(leveldb::KeyHash64(k.data(), k.size()));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_KeyHash64_16B);

// range(0): 1 probes present keys (hits), 0 absent keys; range(1): bits.
void BM_FilterUnitMayMatch(benchmark::State& state) {
  const std::vector<uint64_t> segment = KeyHashes(kPresentTag, kSegmentKeys);
  std::string encoded;
  leveldb::BuildFilterUnit(segment.data(), segment.size(), 0,
                           static_cast<int>(state.range(1)), &encoded);
  const BloomUnit unit = LoadBloom(encoded);
  const std::vector<uint64_t> probes =
      state.range(0) != 0 ? segment : KeyHashes(kAbsentTag, kSegmentKeys);
  size_t i = 0;
  int64_t matches = 0;
  for (auto _ : state) {
    matches += leveldb::FilterUnitViewMayMatch(unit.view,
                                               probes[i++ % kSegmentKeys], 0);
  }
  benchmark::DoNotOptimize(matches);
  state.counters["match_rate"] =
      static_cast<double>(matches) / static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_FilterUnitMayMatch)
    ->ArgNames({"present", "bits"})
    ->ArgsProduct({{1, 0}, {4, 24}});

// The unaligned in-place probe (no decoded view), on absent keys.
void BM_FilterUnitMayMatchInPlace(benchmark::State& state) {
  const std::vector<uint64_t> segment = KeyHashes(kPresentTag, kSegmentKeys);
  std::string encoded;
  leveldb::BuildFilterUnit(segment.data(), segment.size(), 0, 4, &encoded);
  const std::vector<uint64_t> probes = KeyHashes(kAbsentTag, kSegmentKeys);
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
  const std::vector<uint64_t> segment = KeyHashes(kPresentTag, kSegmentKeys);
  std::string unit;
  for (auto _ : state) {
    unit.clear();
    leveldb::BuildFilterUnit(segment.data(), segment.size(), 3,
                             static_cast<int>(state.range(0)), &unit);
    benchmark::DoNotOptimize(unit.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(kSegmentKeys));
}
BENCHMARK(BM_BuildFilterUnit)->Arg(4)->Arg(24);

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--micro") == 0) {
    argv[1] = argv[0];  // Google Benchmark parses the rest
    int rest = argc - 1;
    benchmark::Initialize(&rest, argv + 1);
    if (benchmark::ReportUnrecognizedArguments(rest, argv + 1)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    return 0;
  }

  const Flags f = ParseFlags(argc, argv);
  if (f.count_probes > 0) {
    CountProbes(f);
    return 0;
  }
  MemoryTable(f);
  if (f.widths) WidthTable(f);
  ProbeTable(f);
  FpTable(f);
  return 0;
}
