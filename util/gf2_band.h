// A banded linear system over GF(2), solved on the fly.
//
// Every equation has a start column s and a coefficient row c of W bits
// (W = 64 or 128) whose bit 0 is set: it reads
//   sum over k of c_k * x[s + k] = r   (mod 2)
// for up to 64 right-hand sides r at once (one bit each). Adding an equation
// eliminates it against the rows already stored, so that each column holds
// at most one row and that row has its leading bit in that column: the
// system stays in echelon form and a back-substitution from the last column
// down solves every right-hand side.
//
// This is the solver of a Ribbon filter (table/elastic/ribbon_unit.h); it
// knows nothing about keys or hashing.
#ifndef STORAGE_LEVELDB_UTIL_GF2_BAND_H_
#define STORAGE_LEVELDB_UTIL_GF2_BAND_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace leveldb {

// 128-bit coefficient rows (a GCC and Clang extension on 64-bit targets).
__extension__ typedef unsigned __int128 Gf2Row128;

namespace gf2_band_internal {

inline int TrailingZeros(uint64_t x) { return __builtin_ctzll(x); }
inline int TrailingZeros(Gf2Row128 x) {
  const uint64_t low = static_cast<uint64_t>(x);
  return low != 0 ? __builtin_ctzll(low)
                  : 64 + __builtin_ctzll(static_cast<uint64_t>(x >> 64));
}

inline int Parity(uint64_t x) { return __builtin_parityll(x); }
inline int Parity(Gf2Row128 x) {
  return __builtin_parityll(static_cast<uint64_t>(x) ^
                            static_cast<uint64_t>(x >> 64));
}

}  // namespace gf2_band_internal

// Row is uint64_t or Gf2Row128.
template <typename Row>
class Gf2Band {
 public:
  static constexpr int kWidth = static_cast<int>(sizeof(Row) * 8);

  // An empty system of `columns` columns (>= kWidth).
  explicit Gf2Band(uint32_t columns) : slots_(columns) {}

  uint32_t columns() const { return static_cast<uint32_t>(slots_.size()); }

  // Adds the equation (start, row, result); requires start + kWidth <=
  // columns() and bit 0 of row set. Returns false if the system has become
  // inconsistent (the row reduced to zero with a non-zero result), in which
  // case the system is left unusable. A row that reduces to zero with a zero
  // result (e.g. a duplicate) is redundant and accepted.
  bool Add(uint32_t start, Row row, uint64_t result) {
    for (;;) {
      Slot& slot = slots_[start];
      if (slot.row == 0) {
        slot.row = row;
        slot.result = result;
        return true;
      }
      row ^= slot.row;
      result ^= slot.result;
      if (row == 0) return result == 0;
      const int shift = gf2_band_internal::TrailingZeros(row);
      start += static_cast<uint32_t>(shift);
      row >>= shift;
    }
  }

  // Solves the system for right-hand side bits [0, planes) (planes <= 64)
  // and hands the solution to emit(plane, block, word) in 64-column blocks:
  // bit k of `word` is the solution of `plane` at column 64 * block + k
  // (columns past the end read 0). Columns without a row take 0. Blocks
  // come from the last one down.
  template <typename Emit>
  void BackSubstitute(int planes, const Emit& emit) const {
    // windows[p] bit k is the solution of plane p at column (col + k).
    std::vector<Row> windows(planes, Row{0});
    for (size_t col = slots_.size(); col-- > 0;) {
      const Slot& slot = slots_[col];
      if (slot.row == 0) {
        for (int p = 0; p < planes; ++p) windows[p] <<= 1;
      } else {
        for (int p = 0; p < planes; ++p) {
          const Row window = windows[p] << 1;
          const int bit = gf2_band_internal::Parity(slot.row & window) ^
                          static_cast<int>((slot.result >> p) & 1);
          windows[p] = window | static_cast<Row>(bit);
        }
      }
      if (col % 64 == 0) {
        for (int p = 0; p < planes; ++p) {
          emit(p, static_cast<uint32_t>(col / 64),
               static_cast<uint64_t>(windows[p]));
        }
      }
    }
  }

 private:
  // A column's row (leading bit in that column; 0 if none) and its result
  // bits, side by side so that one step of Add touches one cache line.
  struct Slot {
    Row row = 0;
    uint64_t result = 0;
  };
  std::vector<Slot> slots_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_GF2_BAND_H_
