// Ribbon filter units: bit-planes of one Ribbon filter, cut into separable
// units.
//
// A standard Ribbon filter over a segment's keys stores a solution S of a
// banded linear system over GF(2) (util/gf2_band.h). Each key x gives a
// start s(x), a 128-bit coefficient row c(x) with bit 0 set, and one result
// bit h_j(x) per plane j; plane j of S satisfies
//   XOR over k of c_k(x) & S_j[s(x) + k] = h_j(x)
// for every key of the segment. An absent key matches plane j with
// probability 1/2 independently of every other plane (its h_j is a fresh
// hash bit), so any j planes keep a false-positive rate of 2^-j. All planes
// are solved together; unit u holds planes [u*b, (u+1)*b) and can be loaded,
// probed and dropped on its own like a Bloom unit (filter_unit.h).
//
// Per key, from its KeyHash64 h and the segment's attempt number a:
//   r      = h for a = 0, else Avalanche(h + a * kRibbonAttemptStep)
//   start  = high 64 bits of r * (slots - 127)        (slots - 127 starts)
//   c low  = ((r ^ (r >> 31)) * kRibbonCoeffLow) | 1
//   c high = (r ^ (r >> 29)) * kRibbonCoeffHigh
//   results word w = Avalanche(r + (w + 1) * kUnitStep), plane j reading
//   bit j % 64 of word j / 64 (one word, hence one banding, per 64 planes).
//
// Encoding of a unit (self-describing; every unit of a segment repeats the
// attempt and block count):
//   blocks x planes 64-bit little-endian solution words, block-major: word
//     (k * planes + p) holds slots [64k, 64k + 64) of the unit's plane p,
//     slot 64k + t in bit t;
//   an 8-byte trailer (RibbonUnitTrailer): format version (1), planes per
//     unit, unit index, attempt (one byte each), then blocks as fixed32.
// slots = 64 * blocks, blocks >= 2, and the size must be exactly
// 8 * blocks * planes + 8. A unit with blocks 0 (the trailer alone) keeps
// every key: it is written only if every attempt to solve failed. A
// probe reads the 2 or 3 consecutive blocks its 128 slots touch, i.e.
// 16 * planes or 24 * planes contiguous bytes.
//
// Attempts: attempt a uses RibbonBlocks(n, a) blocks; the first
// kRibbonAttemptsPerSize attempts use the base count, each later group of
// that many adds a sixteenth of it (at least one block). Building tries
// attempts 0, 1, ... until the system solves.
#ifndef STORAGE_LEVELDB_TABLE_ELASTIC_RIBBON_UNIT_H_
#define STORAGE_LEVELDB_TABLE_ELASTIC_RIBBON_UNIT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "table/elastic/limits.h"
#include "util/coding.h"
#include "util/gf2_band.h"
#include "util/hash64.h"

namespace leveldb {

// Bits of a coefficient row (the band width) and slots per block.
constexpr int kRibbonWidth = 128;
constexpr int kRibbonBlockSlots = 64;
constexpr int kRibbonFormatVersion = 1;
constexpr size_t kRibbonTrailerSize = 8;
// Attempts numbered 0 .. kRibbonAttempts - 1 (the trailer keeps one byte).
constexpr int kRibbonAttempts = 256;
constexpr int kRibbonAttemptsPerSize = 16;

// The units of one segment: units_per_segment units of planes_per_unit
// planes each; planes_per_unit at most kMaxRibbonPlanesPerUnit and
// planes_per_unit * units at most kMaxRibbonPlanes.
struct RibbonShape {
  int planes_per_unit = 4;
  int units = 6;
};

// OK if `shape` and a segment of n keys are within the limits.
Status CheckRibbonShape(size_t n, const RibbonShape& shape);

// 64-slot blocks attempt `attempt` uses for n keys (n within limits).
uint32_t RibbonBlocks(size_t n, int attempt);

// Encoded size (and memory) of a unit over n keys with planes_per_unit
// planes, as the first attempt writes it (almost always the final size).
size_t RibbonUnitSize(size_t n, int planes_per_unit);

// True if `size` is a size a unit over n keys with planes_per_unit planes
// can have: that of some attempt, or the trailer alone.
bool RibbonUnitSizeMatches(uint64_t size, uint64_t n, int planes_per_unit);

// Most blocks a unit may have (above what any attempt gives the largest
// segment), so that slot numbers fit 32 bits with room to spare.
constexpr uint32_t kMaxRibbonBlocks = kMaxRibbonSegmentKeys / 16;

// The last kRibbonTrailerSize bytes of a unit.
struct RibbonUnitTrailer {
  int planes = 0;
  int unit_index = 0;
  int attempt = 0;
  uint32_t blocks = 0;

  void EncodeTo(std::string* dst) const;
  // Parses the trailer at the end of `unit`; false if it is too short, a
  // field is out of range (unknown version, planes beyond the limit, one
  // block or too many) or the unit's size does not match it.
  static bool DecodeFrom(const Slice& unit, RibbonUnitTrailer* trailer);
};

// What building did.
struct RibbonBuildInfo {
  int attempt = 0;      // the attempt that solved (or the last one tried)
  uint32_t blocks = 0;  // blocks of each unit; 0 if the units keep all keys
};

// Builds the shape.units units of a segment whose keys have the KeyHash64
// values key_hashes[0, n) (duplicates allowed) into (*units)[0, units).
// InvalidArgument (and *units untouched) if the shape or n is out of
// limits. If no attempt solves, the units keep every key.
Status BuildRibbonUnits(const uint64_t* key_hashes, size_t n,
                        const RibbonShape& shape,
                        std::vector<std::string>* units,
                        RibbonBuildInfo* info = nullptr);

// One attempt with a given block count: false, *units untouched, if the
// system has no solution (or the shape, n or blocks, which must be at least
// 2, are out of limits).
bool BuildRibbonUnitsOnce(const uint64_t* key_hashes, size_t n,
                          const RibbonShape& shape, uint32_t blocks,
                          int attempt, std::vector<std::string>* units);

// A validated unit; it points into the unit's bytes, which must outlive it.
// The bytes need no alignment.
struct RibbonUnitView {
  const char* words = nullptr;
  uint32_t blocks = 0;  // 0: the unit keeps every key
  int planes = 0;
  int first_plane = 0;  // unit index * planes
  int attempt = 0;
};

// Fills *view from an encoded unit; false, *view untouched, if the unit is
// malformed (bad trailer, or a size that does not fit it).
bool DecodeRibbonUnit(const Slice& unit, RibbonUnitView* view);

namespace ribbon_unit_internal {

constexpr uint64_t kRibbonAttemptStep = 0xd6e8feb86659fd93ull;
constexpr uint64_t kRibbonCoeffLow = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kRibbonCoeffHigh = 0xc2b2ae3d27d4eb4full;

// The key hash is already uniform, so the first attempt (the one almost
// every segment keeps) uses it as it is: a remix would lengthen every
// probe's dependency chain.
inline uint64_t Remix(uint64_t key_hash, int attempt) {
  if (attempt == 0) return key_hash;
  return hash64_internal::Avalanche(key_hash + static_cast<uint64_t>(attempt) *
                                                   kRibbonAttemptStep);
}

inline uint32_t Start(uint64_t r, uint32_t starts) {
  return static_cast<uint32_t>((static_cast<Gf2Row128>(r) * starts) >> 64);
}

inline uint64_t CoeffLow(uint64_t r) {
  return ((r ^ (r >> 31)) * kRibbonCoeffLow) | 1;
}

inline uint64_t CoeffHigh(uint64_t r) {
  return (r ^ (r >> 29)) * kRibbonCoeffHigh;
}

// Result bits of planes [64 * word, 64 * word + 64).
inline uint64_t Results(uint64_t r, int word) {
  return hash64_internal::Avalanche(r + static_cast<uint64_t>(word + 1) *
                                            hash64_internal::kUnitStep);
}

// Result bits of planes [first, first + planes), planes <= 64, in bits
// [0, planes) (higher bits are garbage).
inline uint64_t UnitResults(uint64_t r, int first, int planes) {
  const int shift = first % 64;
  uint64_t bits = Results(r, first / 64) >> shift;
  if (shift + planes > 64) bits |= Results(r, first / 64 + 1) << (64 - shift);
  return bits;
}

// Starts of a system of `blocks` blocks.
inline uint32_t Starts(uint32_t blocks) {
  return blocks * kRibbonBlockSlots - kRibbonWidth + 1;
}

// Parity of (c shifted up by `shift` slots) & the plane's words w0, w1, w2.
inline uint64_t PlaneParity(const char* w, size_t stride, uint64_t c0,
                            uint64_t c1, uint64_t c2, bool three) {
  uint64_t x = (LoadFixed64(w) & c0) ^ (LoadFixed64(w + stride) & c1);
  if (three) x ^= LoadFixed64(w + 2 * stride) & c2;
  return static_cast<uint64_t>(__builtin_parityll(x));
}

// BuildRibbonUnits limited to attempts [0, attempts); tests force the
// keep-all fallback with few.
Status BuildWithAttempts(const uint64_t* key_hashes, size_t n,
                         const RibbonShape& shape, int attempts,
                         std::vector<std::string>* units,
                         RibbonBuildInfo* info);

}  // namespace ribbon_unit_internal

// What a probe derives from a key's KeyHash64 and a unit's attempt and
// block count, the same for every unit of a segment: the units of one
// segment share it and pay for the derivation once.
struct RibbonKeyProbe {
  uint64_t r = 0;
  uint64_t results0 = 0;            // result bits of planes [0, 64)
  uint64_t c0 = 0, c1 = 0, c2 = 0;  // the row in the 2 or 3 words it spans
  uint32_t first_block = 0;
  uint32_t blocks = 0;
  int attempt = 0;
  bool three = false;
};

// Fills *probe for units with view's attempt and block count (not 0).
inline void PrepareRibbonKeyProbe(const RibbonUnitView& view, uint64_t key_hash,
                                  RibbonKeyProbe* probe) {
  namespace ri = ribbon_unit_internal;
  const uint64_t r = ri::Remix(key_hash, view.attempt);
  const uint32_t start = ri::Start(r, ri::Starts(view.blocks));
  const uint64_t lo = ri::CoeffLow(r);
  const uint64_t hi = ri::CoeffHigh(r);
  const int shift = static_cast<int>(start % kRibbonBlockSlots);
  probe->r = r;
  probe->results0 = ri::Results(r, 0);
  probe->three = shift != 0;
  probe->c0 = lo << shift;
  probe->c1 = probe->three ? (hi << shift) | (lo >> (64 - shift)) : hi;
  probe->c2 = probe->three ? hi >> (64 - shift) : 0;
  probe->first_block = start / kRibbonBlockSlots;
  probe->blocks = view.blocks;
  probe->attempt = view.attempt;
}

// Checks a unit's planes against a probe prepared for its attempt and
// block count.
inline bool RibbonKeyProbeMatches(const RibbonKeyProbe& probe,
                                  const RibbonUnitView& view) {
  namespace ri = ribbon_unit_internal;
  const size_t stride = 8 * static_cast<size_t>(view.planes);
  const char* block = view.words + stride * probe.first_block;
  const uint64_t expected =
      view.first_plane + view.planes <= 64
          ? probe.results0 >> view.first_plane
          : ri::UnitResults(probe.r, view.first_plane, view.planes);
  uint64_t mismatch = 0;
  for (int p = 0; p < view.planes; ++p) {
    mismatch |= ri::PlaneParity(block + 8 * p, stride, probe.c0, probe.c1,
                                probe.c2, probe.three) ^
                ((expected >> p) & 1);
  }
  return mismatch == 0;
}

// Probes one unit of a segment with a key's KeyHash64, reusing *probe if
// it was prepared for the unit's attempt and block count (as for every
// unit of a well-formed segment) and preparing it again otherwise: false
// only if the key was certainly not among the segment's keys. Start with a
// default RibbonKeyProbe for each key.
inline bool RibbonUnitMayMatchWith(const RibbonUnitView& view,
                                   uint64_t key_hash, RibbonKeyProbe* probe) {
  if (view.blocks == 0) return true;  // keeps every key
  if (view.blocks != probe->blocks || view.attempt != probe->attempt) {
    PrepareRibbonKeyProbe(view, key_hash, probe);
  }
  return RibbonKeyProbeMatches(*probe, view);
}

// Probes a decoded unit with a key's KeyHash64: false only if the key was
// certainly not among the segment's keys.
inline bool RibbonUnitViewMayMatch(const RibbonUnitView& view,
                                   uint64_t key_hash) {
  if (view.blocks == 0) return true;  // keeps every key
  RibbonKeyProbe probe;
  PrepareRibbonKeyProbe(view, key_hash, &probe);
  return RibbonKeyProbeMatches(probe, view);
}

// Decodes and probes in one step; a malformed unit returns true.
bool RibbonUnitMayMatch(const Slice& unit, uint64_t key_hash);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_ELASTIC_RIBBON_UNIT_H_
