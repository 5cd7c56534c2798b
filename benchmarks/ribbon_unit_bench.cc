// ribbon_unit_bench: Ribbon filter units (table/elastic/ribbon_unit.h)
// against ElasticBF's Bloom units (table/elastic/filter_unit.h), as
// Markdown tables:
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
// usage: ribbon_unit_bench [--absent=N] [--reps=N] [--sets=N]
//                          [--widths=0|1]
//                          [--count_probes=N --kind=ribbon|bloom|none
//                           --units=K --present=0|1]
#include <time.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "aligned_bloom_unit.h"
#include "common/flags.h"
#include "table/elastic/filter_unit.h"
#include "table/elastic/ribbon_unit.h"
#include "util/coding.h"
#include "util/gf2_band.h"
#include "util/hash64.h"

namespace {

using leveldb::RibbonShape;

struct Flags {
  uint64_t absent = uint64_t{1} << 28;  // absent keys of the FP table
  int reps = 5;
  int sets = 20;  // key sets per size for attempt and width statistics
  bool widths = true;
  uint64_t count_probes = 0;  // > 0: only count probes (see above)
  std::string kind = "ribbon";
  int units = 1;
  bool present = false;
};

constexpr size_t kSizes[] = {256, 1024, 8192, 65536, 131072};
constexpr size_t kSegmentKeys = 8192;
constexpr int kPlanesPerUnit = 4;
constexpr int kUnits = 6;
constexpr uint64_t kPresentTag = 0x1111111111111111ull;
constexpr uint64_t kAbsentTag = 0x2222222222222222ull;

[[noreturn]] void Usage(const std::string& msg) {
  std::fprintf(stderr,
               "ribbon_unit_bench: %s\nusage: ribbon_unit_bench "
               "[--absent=N] [--reps=N] [--sets=N] [--widths=0|1] "
               "[--count_probes=N --kind=ribbon|bloom|none --units=K "
               "--present=0|1]\n",
               msg.c_str());
  std::exit(2);
}

uint64_t ParseCount(const std::string& arg, const std::string& v) {
  uint64_t x = 0;
  if (!bench::ParseU64(v, &x) || x == 0) Usage("bad value in " + arg);
  return x;
}

bool ParseBool(const std::string& arg, const std::string& v) {
  if (v != "0" && v != "1") Usage("bad value in " + arg);
  return v == "1";
}

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string name, v;
    if (!bench::SplitFlag(arg, &name, &v)) Usage("bad argument: " + arg);
    if (name == "absent") {
      f.absent = ParseCount(arg, v);
    } else if (name == "reps") {
      f.reps = static_cast<int>(std::min<uint64_t>(ParseCount(arg, v), 1000));
    } else if (name == "sets") {
      f.sets = static_cast<int>(std::min<uint64_t>(ParseCount(arg, v), 1000));
    } else if (name == "widths") {
      f.widths = ParseBool(arg, v);
    } else if (name == "count_probes") {
      f.count_probes = ParseCount(arg, v);
    } else if (name == "units") {
      const uint64_t units = ParseCount(arg, v);
      if (units > 16) Usage("--units must be at most 16 in " + arg);
      f.units = static_cast<int>(units);
    } else if (name == "present") {
      f.present = ParseBool(arg, v);
    } else if (name == "kind") {
      f.kind = v;
      if (f.kind != "ribbon" && f.kind != "bloom" && f.kind != "none") {
        Usage("bad value in " + arg);
      }
    } else {
      Usage("unknown flag --" + name);
    }
  }
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
    std::fprintf(stderr, "ribbon_unit_bench: build rejected\n");
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

}  // namespace

namespace {

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
        (per_plane - 1) * 100, retried, f.sets, ribbon, bloom, ribbon / bloom);
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
      f.sets);
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

}  // namespace

namespace {

using BloomUnit = leveldb::bench::AlignedBloomUnit;

BloomUnit LoadBloom(const std::string& encoded) {
  return leveldb::bench::LoadAlignedBloomUnit(encoded);
}

// Unit 0 of `segments` segments of kSegmentKeys keys, both kinds.
struct Segments {
  std::vector<std::string> ribbon_bytes;
  std::vector<leveldb::RibbonUnitView> ribbon;
  std::vector<BloomUnit> bloom;
};

Segments BuildSegments(size_t segments) {
  Segments out;
  out.ribbon_bytes.resize(segments);
  out.ribbon.resize(segments);
  for (size_t s = 0; s < segments; ++s) {
    const std::vector<uint64_t> hashes =
        KeyHashes(kPresentTag + s, kSegmentKeys);
    out.ribbon_bytes[s] = BuildRibbon(hashes, {kPlanesPerUnit, 1})[0];
    out.bloom.push_back(LoadBloom(BuildBloom(hashes, 1)[0]));
  }
  for (size_t s = 0; s < segments; ++s) {
    if (!leveldb::DecodeRibbonUnit(out.ribbon_bytes[s], &out.ribbon[s])) {
      std::abort();
    }
  }
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

}  // namespace

namespace {

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

std::vector<leveldb::RibbonUnitView> Views(
    const std::vector<std::string>& units) {
  std::vector<leveldb::RibbonUnitView> views(units.size());
  for (size_t u = 0; u < units.size(); ++u) {
    if (!leveldb::DecodeRibbonUnit(units[u], &views[u])) std::abort();
  }
  return views;
}

// at_least[j]: keys that passed the first j units (from per-key counts).
std::vector<uint64_t> AtLeast(const std::vector<uint64_t>& passed) {
  std::vector<uint64_t> out(passed.size(), 0);
  uint64_t sum = 0;
  for (size_t j = passed.size(); j-- > 0;) {
    sum += passed[j];
    out[j] = sum;
  }
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
  for (uint64_t i = 0; i < f.absent; ++i) {
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
      kSegmentKeys, f.absent, kPlanesPerUnit, kPlanesPerUnit, kPlanesPerUnit,
      kPlanesPerUnit);
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
      BuildRibbon(keys, {kPlanesPerUnit, f.units});
  std::vector<leveldb::RibbonUnitView> ribbon(f.units);
  std::vector<BloomUnit> bloom;
  for (int u = 0; u < f.units; ++u) {
    if (!leveldb::DecodeRibbonUnit(ribbon_bytes[u], &ribbon[u])) std::abort();
  }
  for (const std::string& unit : BuildBloom(keys, f.units)) {
    bloom.push_back(LoadBloom(unit));
  }
  uint64_t hits = 0;
  for (uint64_t i = 0; i < f.count_probes; ++i) {
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
              f.count_probes, hits);
}

}  // namespace

int main(int argc, char** argv) {
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
