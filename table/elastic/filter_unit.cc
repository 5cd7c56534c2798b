#include "table/elastic/filter_unit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace leveldb {

namespace {

constexpr uint64_t kWordBits = 64;
constexpr uint64_t kMaxWords = kFilterUnitMaxBits / kWordBits;

int ClampBitsPerUnit(int bits_per_unit) { return std::max(bits_per_unit, 1); }

// n * bits_per_unit, saturated at kFilterUnitMaxBits (which no unit may
// exceed anyway).
uint64_t WantedBits(size_t n, int bits_per_unit) {
  const uint64_t per_key =
      static_cast<uint64_t>(ClampBitsPerUnit(bits_per_unit));
  if (n >= kFilterUnitMaxBits / per_key) return kFilterUnitMaxBits;
  return static_cast<uint64_t>(n) * per_key;
}

// Words of a unit in the current encoding: the wanted bits rounded down to
// whole words, at least one. The probe count takes the last byte.
uint64_t UnitWords(size_t n, int bits_per_unit) {
  const uint64_t words = WantedBits(n, bits_per_unit) / kWordBits;
  return std::clamp<uint64_t>(words, 1, kMaxWords);
}

// Header fields of an encoded unit, validated.
struct UnitLayout {
  uint32_t nbits;
  int probes;
};

bool ParseLayout(const Slice& unit, UnitLayout* layout) {
  const size_t size = unit.size();
  const uint64_t words = size / 8;
  const bool legacy = size % 8 == 1;
  if ((size % 8 != 0 && !legacy) || words < 1 || words > kMaxWords) {
    return false;
  }
  const int probes = static_cast<uint8_t>(unit[size - 1]);
  if (probes < 1 || probes > kFilterUnitMaxProbes) return false;
  // A current unit keeps its probe count in its last byte; a legacy unit
  // appends it after whole words of bits.
  layout->nbits = static_cast<uint32_t>(words * kWordBits - (legacy ? 0 : 8));
  layout->probes = probes;
  return true;
}

}  // namespace

int FilterUnitProbes(int bits_per_unit) {
  const double ideal = ClampBitsPerUnit(bits_per_unit) * std::log(2.0);
  const long rounded = std::lround(ideal);
  return static_cast<int>(std::clamp<long>(rounded, 1, kFilterUnitMaxProbes));
}

size_t FilterUnitSize(size_t n, int bits_per_unit) {
  return static_cast<size_t>(UnitWords(n, bits_per_unit) * 8);
}

size_t LegacyFilterUnitSize(size_t n, int bits_per_unit) {
  const uint64_t bits = std::max(kWordBits, WantedBits(n, bits_per_unit));
  const uint64_t words =
      std::min((bits + kWordBits - 1) / kWordBits, kMaxWords);
  return static_cast<size_t>(words * 8 + 1);
}

bool FilterUnitSizeMatches(uint64_t size, uint64_t n, int bits_per_unit) {
  if (n > std::numeric_limits<size_t>::max()) return false;
  const size_t keys = static_cast<size_t>(n);
  return size == FilterUnitSize(keys, bits_per_unit) ||
         size == LegacyFilterUnitSize(keys, bits_per_unit);
}

void BuildFilterUnit(const uint64_t* key_hashes, size_t n, int unit_index,
                     int bits_per_unit, std::string* dst) {
  const uint64_t words = UnitWords(n, bits_per_unit);
  const uint32_t nbits = static_cast<uint32_t>(words * kWordBits - 8);
  const int probes = FilterUnitProbes(bits_per_unit);
  const size_t base = dst->size();
  dst->resize(base + words * 8 - 1, '\0');
  dst->push_back(static_cast<char>(probes));
  // Setting bits byte by byte gives the little-endian word layout on any
  // host.
  uint8_t* bytes = reinterpret_cast<uint8_t*>(&(*dst)[base]);
  for (size_t k = 0; k < n; ++k) {
    const uint64_t h = UnitHash(key_hashes[k], unit_index);
    uint32_t pos = static_cast<uint32_t>(h);
    const uint32_t step = static_cast<uint32_t>(h >> 32) | 1;
    for (int i = 0; i < probes; ++i) {
      const uint32_t bit = filter_unit_internal::ScaleToRange(pos, nbits);
      bytes[bit >> 3] |= static_cast<uint8_t>(1u << (bit & 7));
      pos += step;
    }
  }
}

bool FilterUnitMayMatch(const Slice& unit, uint64_t key_hash, int unit_index) {
  UnitLayout layout;
  if (!ParseLayout(unit, &layout)) return true;
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(unit.data());
  const uint64_t h = UnitHash(key_hash, unit_index);
  uint32_t pos = static_cast<uint32_t>(h);
  const uint32_t step = static_cast<uint32_t>(h >> 32) | 1;
  for (int i = 0; i < layout.probes; ++i) {
    const uint32_t bit = filter_unit_internal::ScaleToRange(pos, layout.nbits);
    if (((bytes[bit >> 3] >> (bit & 7)) & 1) == 0) return false;
    pos += step;
  }
  return true;
}

double FilterUnitTheoreticalFpr(int bits_per_key, int probes) {
  if (bits_per_key <= 0 || probes <= 0) return 1.0;
  const double k = probes;
  return std::pow(1.0 - std::exp(-k / bits_per_key), k);
}

double FilterGroupTheoreticalFpr(int bits_per_unit, int units) {
  if (units <= 0) return 1.0;
  const int b = ClampBitsPerUnit(bits_per_unit);
  return std::pow(FilterUnitTheoreticalFpr(b, FilterUnitProbes(b)), units);
}

bool DecodeFilterUnit(const Slice& unit, FilterUnitView* view) {
  if (reinterpret_cast<uintptr_t>(unit.data()) % alignof(uint64_t) != 0) {
    return false;
  }
  UnitLayout layout;
  if (!ParseLayout(unit, &layout)) return false;
  view->words = reinterpret_cast<const uint64_t*>(unit.data());
  view->nbits = layout.nbits;
  view->probes = layout.probes;
  return true;
}

}  // namespace leveldb
