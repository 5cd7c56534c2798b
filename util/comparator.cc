// The built-in byte-wise comparator. Its key-shortening rules decide which
// separators end up in index blocks, so they follow LevelDB 1.23 exactly.
#include "leveldb/comparator.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "leveldb/slice.h"
#include "util/no_destructor.h"

namespace leveldb {

Comparator::~Comparator() = default;

namespace {

class BytewiseOrder : public Comparator {
 public:
  BytewiseOrder() = default;

  const char* Name() const override { return "leveldb.BytewiseComparator"; }

  int Compare(const Slice& a, const Slice& b) const override {
    return a.compare(b);
  }

  void FindShortestSeparator(std::string* start,
                             const Slice& limit) const override {
    const size_t shorter = std::min(start->size(), limit.size());
    size_t pos = 0;
    while (pos < shorter && (*start)[pos] == limit[pos]) ++pos;

    // One key is a prefix of the other: nothing shorter fits between them.
    if (pos >= shorter) return;

    const uint8_t ours = static_cast<uint8_t>((*start)[pos]);
    const uint8_t theirs = static_cast<uint8_t>(limit[pos]);
    if (ours < 0xff && ours + 1 < theirs) {
      (*start)[pos] = static_cast<char>(ours + 1);
      start->resize(pos + 1);
    }
  }

  void FindShortSuccessor(std::string* key) const override {
    for (size_t i = 0; i < key->size(); ++i) {
      const uint8_t b = static_cast<uint8_t>((*key)[i]);
      if (b != 0xff) {
        (*key)[i] = static_cast<char>(b + 1);
        key->resize(i + 1);
        return;
      }
    }
    // Only 0xff bytes (or empty): no shorter successor exists.
  }
};

}  // namespace

const Comparator* BytewiseComparator() {
  static NoDestructor<BytewiseOrder> instance;
  return instance.get();
}

}  // namespace leveldb
