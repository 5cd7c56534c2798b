#include "table/elastic/ribbon_unit.h"

#include <algorithm>

namespace leveldb {

namespace {

using ribbon_unit_internal::CoeffHigh;
using ribbon_unit_internal::CoeffLow;
using ribbon_unit_internal::Remix;
using ribbon_unit_internal::Results;
using ribbon_unit_internal::Start;
using ribbon_unit_internal::Starts;

int FloorLog2(uint64_t x) { return 63 - __builtin_clzll(x); }

// Slots beyond n the first attempts get: a band of width 128 needs room
// that grows with log n, and never fewer than 8.
uint64_t SpareSlots(uint64_t n) {
  const int log2n = n > 0 ? FloorLog2(n) : 0;
  const uint64_t spare = log2n > 3 ? n * (log2n - 3) * 19 / 8192 : 0;
  return std::max<uint64_t>(spare, 8);
}

uint32_t BaseBlocks(uint64_t n) {
  const uint64_t slots = n + SpareSlots(n);
  const uint64_t blocks = (slots + kRibbonBlockSlots - 1) / kRibbonBlockSlots;
  return static_cast<uint32_t>(
      std::max<uint64_t>(blocks, kRibbonWidth / kRibbonBlockSlots));
}

uint64_t UnitBytes(uint64_t blocks, int planes) {
  return blocks * planes * 8 + kRibbonTrailerSize;
}

Gf2Row128 Row(uint64_t r) {
  return (static_cast<Gf2Row128>(CoeffHigh(r)) << 64) | CoeffLow(r);
}

// Adds every key's equation for result word `word`, masked to `planes`
// planes.
bool Band(const uint64_t* key_hashes, size_t n, int attempt, int word,
          int planes, Gf2Band<Gf2Row128>* band) {
  const uint32_t starts = band->columns() - kRibbonWidth + 1;
  const uint64_t mask =
      planes >= 64 ? ~uint64_t{0} : (uint64_t{1} << planes) - 1;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = Remix(key_hashes[i], attempt);
    if (!band->Add(Start(r, starts), Row(r), Results(r, word) & mask)) {
      return false;
    }
  }
  return true;
}

// Solution words of every unit: words[u][block * planes_per_unit + p].
using UnitWords = std::vector<std::vector<uint64_t>>;

// Solves the planes of every result word (one banding each: the rows are
// the same, only the results differ) into *words; false if a system has
// no solution.
bool Solve(const uint64_t* key_hashes, size_t n, const RibbonShape& shape,
           uint32_t blocks, int attempt, UnitWords* words) {
  const int b = shape.planes_per_unit;
  const int planes = b * shape.units;
  words->assign(shape.units,
                std::vector<uint64_t>(static_cast<size_t>(blocks) * b));
  for (int first = 0; first < planes; first += 64) {
    Gf2Band<Gf2Row128> band(blocks * kRibbonBlockSlots);
    const int count = std::min(64, planes - first);
    if (!Band(key_hashes, n, attempt, first / 64, count, &band)) return false;
    band.BackSubstitute(count, [&](int p, uint32_t block, uint64_t word) {
      const int plane = first + p;
      (*words)[plane / b][static_cast<size_t>(block) * b + plane % b] = word;
    });
  }
  return true;
}

// Encodes the solved units.
void EmitUnits(const UnitWords& words, const RibbonShape& shape,
               uint32_t blocks, int attempt, std::vector<std::string>* units) {
  const int b = shape.planes_per_unit;
  units->resize(shape.units);
  for (int u = 0; u < shape.units; ++u) {
    std::string& out = (*units)[u];
    out.clear();
    out.reserve(UnitBytes(blocks, b));
    for (uint64_t w : words[u]) AppendFixed64(&out, w);
    RibbonUnitTrailer{b, u, attempt, blocks}.EncodeTo(&out);
  }
}

// Units of the trailer alone: they keep every key.
void EmitKeepAll(const RibbonShape& shape, int attempt,
                 std::vector<std::string>* units) {
  units->resize(shape.units);
  for (int u = 0; u < shape.units; ++u) {
    (*units)[u].clear();
    RibbonUnitTrailer{shape.planes_per_unit, u, attempt, 0}.EncodeTo(
        &(*units)[u]);
  }
}

}  // namespace

Status CheckRibbonShape(size_t n, const RibbonShape& shape) {
  if (shape.planes_per_unit < 1 || shape.units < 1 ||
      shape.units > kMaxRibbonUnits ||
      shape.planes_per_unit > kMaxRibbonPlanesPerUnit ||
      shape.planes_per_unit > kMaxRibbonPlanes / shape.units) {
    return Status::InvalidArgument(
        "ribbon units: need 1 <= units <= " + std::to_string(kMaxRibbonUnits) +
        " and 1 <= planes per unit <= " +
        std::to_string(kMaxRibbonPlanesPerUnit) +
        " with units * planes per unit <= " + std::to_string(kMaxRibbonPlanes));
  }
  if (n > kMaxRibbonSegmentKeys) {
    return Status::InvalidArgument("ribbon units: too many keys",
                                   std::to_string(n));
  }
  return Status::OK();
}

uint32_t RibbonBlocks(size_t n, int attempt) {
  const uint32_t base = BaseBlocks(n);
  const uint32_t step = std::max<uint32_t>(1, base / 16);
  const uint32_t grown =
      static_cast<uint32_t>(std::clamp(attempt, 0, kRibbonAttempts - 1)) /
      static_cast<uint32_t>(kRibbonAttemptsPerSize);
  return base + grown * step;
}

size_t RibbonUnitSize(size_t n, int planes_per_unit) {
  return static_cast<size_t>(UnitBytes(RibbonBlocks(n, 0), planes_per_unit));
}

bool RibbonUnitSizeMatches(uint64_t size, uint64_t n, int planes_per_unit) {
  if (n > kMaxRibbonSegmentKeys || planes_per_unit < 1 ||
      planes_per_unit > kMaxRibbonPlanesPerUnit) {
    return false;
  }
  if (size == kRibbonTrailerSize) return true;
  for (int a = 0; a < kRibbonAttempts; a += kRibbonAttemptsPerSize) {
    if (size == UnitBytes(RibbonBlocks(n, a), planes_per_unit)) return true;
  }
  return false;
}

void RibbonUnitTrailer::EncodeTo(std::string* dst) const {
  dst->push_back(static_cast<char>(kRibbonFormatVersion));
  dst->push_back(static_cast<char>(planes));
  dst->push_back(static_cast<char>(unit_index));
  dst->push_back(static_cast<char>(attempt));
  AppendFixed32(dst, blocks);
}

bool RibbonUnitTrailer::DecodeFrom(const Slice& unit,
                                   RibbonUnitTrailer* trailer) {
  if (unit.size() < kRibbonTrailerSize) return false;
  const char* t = unit.data() + unit.size() - kRibbonTrailerSize;
  const int version = static_cast<uint8_t>(t[0]);
  const int planes = static_cast<uint8_t>(t[1]);
  const int unit_index = static_cast<uint8_t>(t[2]);
  const uint32_t blocks = LoadFixed32(t + 4);
  if (version != kRibbonFormatVersion || planes < 1 ||
      planes > kMaxRibbonPlanesPerUnit || unit_index >= kMaxRibbonUnits ||
      unit_index >= kMaxRibbonPlanes / planes || blocks == 1 ||
      blocks > kMaxRibbonBlocks || unit.size() != UnitBytes(blocks, planes)) {
    return false;
  }
  trailer->planes = planes;
  trailer->unit_index = unit_index;
  trailer->attempt = static_cast<uint8_t>(t[3]);
  trailer->blocks = blocks;
  return true;
}

bool BuildRibbonUnitsOnce(const uint64_t* key_hashes, size_t n,
                          const RibbonShape& shape, uint32_t blocks,
                          int attempt, std::vector<std::string>* units) {
  if (!CheckRibbonShape(n, shape).ok() || blocks < 2 ||
      blocks > kMaxRibbonBlocks) {
    return false;
  }
  UnitWords words;
  if (!Solve(key_hashes, n, shape, blocks, attempt, &words)) return false;
  EmitUnits(words, shape, blocks, attempt, units);
  return true;
}

namespace ribbon_unit_internal {

Status BuildWithAttempts(const uint64_t* key_hashes, size_t n,
                         const RibbonShape& shape, int attempts,
                         std::vector<std::string>* units,
                         RibbonBuildInfo* info) {
  Status s = CheckRibbonShape(n, shape);
  if (!s.ok()) return s;
  RibbonBuildInfo local;
  if (info == nullptr) info = &local;
  attempts = std::clamp(attempts, 1, kRibbonAttempts);
  for (int a = 0; a < attempts; ++a) {
    info->attempt = a;
    info->blocks = RibbonBlocks(n, a);
    if (BuildRibbonUnitsOnce(key_hashes, n, shape, info->blocks, a, units)) {
      return Status::OK();
    }
  }
  info->blocks = 0;
  EmitKeepAll(shape, attempts - 1, units);
  return Status::OK();
}

}  // namespace ribbon_unit_internal

Status BuildRibbonUnits(const uint64_t* key_hashes, size_t n,
                        const RibbonShape& shape,
                        std::vector<std::string>* units,
                        RibbonBuildInfo* info) {
  return ribbon_unit_internal::BuildWithAttempts(key_hashes, n, shape,
                                                 kRibbonAttempts, units, info);
}

bool DecodeRibbonUnit(const Slice& unit, RibbonUnitView* view) {
  RibbonUnitTrailer trailer;
  if (!RibbonUnitTrailer::DecodeFrom(unit, &trailer)) return false;
  view->words = unit.data();
  view->blocks = trailer.blocks;
  view->planes = trailer.planes;
  view->first_plane = trailer.unit_index * trailer.planes;
  view->attempt = trailer.attempt;
  return true;
}

bool RibbonUnitMayMatch(const Slice& unit, uint64_t key_hash) {
  RibbonUnitView view;
  if (!DecodeRibbonUnit(unit, &view)) return true;
  return RibbonUnitViewMayMatch(view, key_hash);
}

}  // namespace leveldb
