// Filter units: the Bloom filters of ElasticBF.
//
// A filter unit is one Bloom filter over the user keys of one segment, with
// its own hash family (selected by the unit index, see UnitHash). The units
// 0..n-1 of a segment form its filter group; because the families are
// independent, k loaded units of b bits per key reject absent keys as well as
// one filter of k*b bits per key would.
//
// Encoding of a unit (written by this build): W whole 64-bit little-endian
// words and nothing else, where
//   W = max(1, floor(keys * bits_per_unit / 64))
// i.e. the size rounds DOWN to whole words, so that a loaded unit never
// takes more than keys * bits_per_unit / 8 bytes (only units of fewer than
// 64 / bits_per_unit keys get one word, the minimum). The last byte of the
// last word (byte 8W - 1) holds the probe count, in [1, kFilterUnitMaxProbes];
// the bit array is the nbits = 64W - 8 bits before it.
//
// Legacy encoding (units written before the size rounded down; still
// decoded): W words of bit array (nbits = 64W, W = max(64, keys *
// bits_per_unit) / 64 rounded up) followed by one probe-count byte, 8W + 1
// bytes in all. The two are told apart by the size: a multiple of 8 is the
// current encoding, one more than a multiple of 8 the legacy one.
//
// Memory: a loaded unit lives in an array of 64-bit words (the loader needs
// 8-byte alignment), so it occupies FilterUnitMemoryBytes(size) bytes: the
// size itself for current units, 8W + 8 for legacy ones. That is what the
// MultiQueue charges against the budget for it.
//
// Probe i (0 <= i < probes) of unit hash h tests bit
//   ((h1 + i * h2) mod 2^32) * nbits / 2^32,  h1 = low 32 bits of h,
//                                             h2 = (high 32 bits of h) | 1.
// Bit j of the array is bit (j % 64) of word j / 64, i.e. bit (j % 8) of
// byte j / 8.
#ifndef STORAGE_LEVELDB_TABLE_ELASTIC_FILTER_UNIT_H_
#define STORAGE_LEVELDB_TABLE_ELASTIC_FILTER_UNIT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "leveldb/slice.h"
#include "util/hash64.h"

namespace leveldb {

// Largest probe count a unit may record; larger values mark an encoding this
// build does not understand (such a unit never rules a key out).
constexpr int kFilterUnitMaxProbes = 30;

// Largest bit array a unit may have, so that bit positions fit in 32 bits.
constexpr uint64_t kFilterUnitMaxBits = 0xffffffffull & ~uint64_t{63};

// Probe count used for bits_per_unit bits per key: round(b * ln 2), clamped
// to [1, kFilterUnitMaxProbes].
int FilterUnitProbes(int bits_per_unit);

// Encoded size in bytes of a unit over n keys at bits_per_unit bits per key,
// as BuildFilterUnit writes it: a multiple of 8, at most n * bits_per_unit / 8
// once n * bits_per_unit >= 64.
size_t FilterUnitSize(size_t n, int bits_per_unit);

// Size the legacy encoding gave a unit over n keys (see the file comment).
size_t LegacyFilterUnitSize(size_t n, int bits_per_unit);

// True if `size` is what a unit over n keys at bits_per_unit bits per key
// has in either encoding; index decoders use this to validate unit sizes,
// so tables written before the size rounded down stay readable.
bool FilterUnitSizeMatches(uint64_t size, uint64_t n, int bits_per_unit);

// Bytes a loaded unit of encoded size `size` occupies in memory: its whole
// 64-bit words, i.e. `size` rounded up to a multiple of 8. This is the
// charge against the ElasticBF memory budget.
inline uint64_t FilterUnitMemoryBytes(uint64_t size) {
  return (size + 7) & ~uint64_t{7};
}

// Appends to *dst the unit `unit_index` over the n keys whose KeyHash64
// values are key_hashes[0, n) (duplicates allowed). bits_per_unit below 1 is
// treated as 1.
void BuildFilterUnit(const uint64_t* key_hashes, size_t n, int unit_index,
                     int bits_per_unit, std::string* dst);

// Probes an encoded unit in place; `unit` needs no particular alignment.
// Returns false only if the key (with KeyHash64 key_hash) was certainly not
// among the unit's keys; a malformed unit returns true.
bool FilterUnitMayMatch(const Slice& unit, uint64_t key_hash, int unit_index);

// FPR of a Bloom filter with bits_per_key bits per key and `probes` probes:
// (1 - e^(-probes / bits_per_key))^probes. Returns 1 for non-positive
// arguments.
double FilterUnitTheoreticalFpr(int bits_per_key, int probes);

// FPR of `units` independent units of bits_per_unit bits per key each, with
// the probe count FilterUnitProbes(bits_per_unit): the unit FPR to the power
// `units`. Zero units give 1.
double FilterGroupTheoreticalFpr(int bits_per_unit, int units);

// A validated unit, decoded once when it is loaded, so probing parses
// nothing. It points into the unit's memory, which must outlive it.
struct FilterUnitView {
  const uint64_t* words = nullptr;
  uint32_t nbits = 0;
  int probes = 0;
};

// Fills *view from an encoded unit. The unit's bytes must start at an
// 8-byte aligned address (copy units read from disk into uint64_t storage
// first). Returns false, leaving *view untouched, when the unit is
// misaligned, has a bad size or a bad probe count.
bool DecodeFilterUnit(const Slice& unit, FilterUnitView* view);

namespace filter_unit_internal {

inline uint32_t ScaleToRange(uint32_t x, uint32_t n) {
  return static_cast<uint32_t>((static_cast<uint64_t>(x) * n) >> 32);
}

inline uint64_t BitOf(const uint64_t* words, uint32_t bit) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(words);
  return (bytes[bit >> 3] >> (bit & 7)) & 1;
#else
  return (words[bit >> 6] >> (bit & 63)) & 1;
#endif
}

}  // namespace filter_unit_internal

// Probes a decoded unit with a unit hash (UnitHash of the key hash for this
// unit's index). Probes run in batches of four with no branch inside a
// batch; a batch that finds a clear bit ends the search.
inline bool FilterUnitViewMayMatchHash(const FilterUnitView& view,
                                       uint64_t unit_hash) {
  using filter_unit_internal::BitOf;
  using filter_unit_internal::ScaleToRange;
  uint32_t pos = static_cast<uint32_t>(unit_hash);
  const uint32_t step = static_cast<uint32_t>(unit_hash >> 32) | 1;
  int remaining = view.probes;
  while (remaining > 0) {
    uint64_t all_set = 1;
    const int batch = remaining < 4 ? remaining : 4;
    for (int i = 0; i < batch; ++i) {
      all_set &= BitOf(view.words, ScaleToRange(pos, view.nbits));
      pos += step;
    }
    if (all_set == 0) return false;
    remaining -= batch;
  }
  return true;
}

// Probes a decoded unit of index unit_index with a key's KeyHash64.
inline bool FilterUnitViewMayMatch(const FilterUnitView& view,
                                   uint64_t key_hash, int unit_index) {
  return FilterUnitViewMayMatchHash(view, UnitHash(key_hash, unit_index));
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_ELASTIC_FILTER_UNIT_H_
