// A Bloom filter unit copied into 8-byte aligned memory and decoded once,
// as the filter layer's loader keeps it: what the unit benchmarks probe.
#ifndef STORAGE_LEVELDB_BENCHMARKS_ALIGNED_BLOOM_UNIT_H_
#define STORAGE_LEVELDB_BENCHMARKS_ALIGNED_BLOOM_UNIT_H_

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "leveldb/slice.h"
#include "table/elastic/filter_unit.h"

namespace leveldb {
namespace bench {

struct AlignedBloomUnit {
  std::vector<uint64_t> words;
  FilterUnitView view;  // points into words
};

// Aborts on a unit that does not decode: benchmarks build their own units.
inline AlignedBloomUnit LoadAlignedBloomUnit(const std::string& encoded) {
  AlignedBloomUnit unit;
  unit.words.resize((encoded.size() + 7) / 8);
  std::memcpy(unit.words.data(), encoded.data(), encoded.size());
  const Slice slice(reinterpret_cast<const char*>(unit.words.data()),
                    encoded.size());
  if (!DecodeFilterUnit(slice, &unit.view)) std::abort();
  return unit;
}

}  // namespace bench
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_BENCHMARKS_ALIGNED_BLOOM_UNIT_H_
