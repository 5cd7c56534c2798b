// The built-in Bloom filter ("leveldb.BuiltinBloomFilter2"). Filters are
// stored in tables, so the layout and probe sequence match LevelDB 1.23:
// a bit array followed by one byte holding the probe count.
#include <algorithm>
#include <cstdint>
#include <string>

#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "util/builtin_bloom.h"
#include "util/hash.h"

namespace leveldb {

namespace {

constexpr uint32_t kBloomSeed = 0xbc9f1d34u;
constexpr size_t kMinFilterBits = 64;
// Probe counts above this are reserved for future encodings.
constexpr int kMaxProbes = 30;

uint32_t KeyHash(const Slice& key) {
  return Hash(key.data(), key.size(), kBloomSeed);
}

// Double hashing: each probe moves by the hash rotated right by 17 bits.
uint32_t ProbeStep(uint32_t h) { return (h >> 17) | (h << 15); }

class BloomPolicy : public FilterPolicy {
 public:
  explicit BloomPolicy(int bits_per_key)
      : bits_per_key_(std::max(bits_per_key, 0)),
        // ln(2) ~= 0.69 minimizes the false-positive rate.
        probes_(std::clamp(static_cast<int>(bits_per_key_ * 0.69), 1,
                           kMaxProbes)) {}

  const char* Name() const override { return kBuiltinBloomPolicyName; }

  void CreateFilter(const Slice* keys, int n, std::string* dst) const override {
    size_t bits = static_cast<size_t>(std::max(n, 0)) * bits_per_key_;
    bits = std::max(bits, kMinFilterBits);
    const size_t bytes = (bits + 7) / 8;
    bits = bytes * 8;

    const size_t base = dst->size();
    dst->resize(base + bytes, '\0');
    dst->push_back(static_cast<char>(probes_));
    char* array = &(*dst)[base];

    for (int i = 0; i < n; ++i) {
      uint32_t h = KeyHash(keys[i]);
      const uint32_t step = ProbeStep(h);
      for (int j = 0; j < probes_; ++j) {
        const size_t bit = h % bits;
        array[bit / 8] |= static_cast<char>(1 << (bit % 8));
        h += step;
      }
    }
  }

  bool KeyMayMatch(const Slice& key, const Slice& filter) const override {
    const size_t len = filter.size();
    if (len < 2) return false;

    const char* array = filter.data();
    const size_t bits = (len - 1) * 8;
    const int probes = static_cast<uint8_t>(array[len - 1]);
    // An encoding this build does not know: never rule a key out.
    if (probes > kMaxProbes) return true;

    uint32_t h = KeyHash(key);
    const uint32_t step = ProbeStep(h);
    for (int j = 0; j < probes; ++j) {
      const size_t bit = h % bits;
      if ((array[bit / 8] & (1 << (bit % 8))) == 0) return false;
      h += step;
    }
    return true;
  }

 private:
  const size_t bits_per_key_;
  const int probes_;
};

}  // namespace

const FilterPolicy* NewBloomFilterPolicy(int bits_per_key) {
  return new BloomPolicy(bits_per_key);
}

}  // namespace leveldb
