#include "table/block_alignment.h"

#include <algorithm>

namespace leveldb {

namespace {

bool IsPowerOfTwo(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

}  // namespace

BlockAlignment::BlockAlignment(uint64_t page)
    : page_(IsPowerOfTwo(page) ? page : 0) {}

uint64_t BlockAlignment::PagesTouched(uint64_t offset, uint64_t bytes) const {
  if (bytes == 0) return 0;
  const uint64_t first = offset / page_;
  const uint64_t last = (offset + bytes - 1) / page_;
  return last - first + 1;
}

uint64_t BlockAlignment::PaddingBefore(uint64_t offset, uint64_t bytes) const {
  if (!enabled()) return 0;
  const uint64_t in_page = offset % page_;
  if (in_page == 0) return 0;
  // From a boundary a block touches the fewest pages it can.
  if (PagesTouched(offset, bytes) <= PagesTouched(0, bytes)) return 0;
  return page_ - in_page;
}

uint64_t BlockAlignment::PlannedStart(uint64_t offset, uint64_t bytes,
                                      uint64_t min_useful) const {
  if (!enabled()) return offset;
  const uint64_t in_page = offset % page_;
  if (in_page == 0) return offset;
  const uint64_t rest = page_ - in_page;
  if (rest < min_useful || PaddingBefore(offset, bytes) != 0) {
    return offset + rest;
  }
  return offset;
}

bool BlockAlignment::ShouldCut(uint64_t start, uint64_t now, uint64_t after,
                               uint64_t max_pages) const {
  if (!enabled()) return false;
  const uint64_t allowed = std::max(max_pages, PagesTouched(start, now));
  return PagesTouched(start, after) > allowed;
}

}  // namespace leveldb
