// Where data blocks go on the pages of a table file when
// ElasticFilterOptions::block_alignment is set: a block with its trailer
// should touch as few pages as its size allows, so that a direct read of
// it fetches one page, not two. Pure arithmetic on file offsets; the table
// builder decides with it where to cut blocks and how much to pad.
#ifndef STORAGE_LEVELDB_TABLE_BLOCK_ALIGNMENT_H_
#define STORAGE_LEVELDB_TABLE_BLOCK_ALIGNMENT_H_

#include <cstdint>

namespace leveldb {

class BlockAlignment {
 public:
  // `page` is 0 (off) or a power of two; other values turn alignment off.
  explicit BlockAlignment(uint64_t page);

  bool enabled() const { return page_ != 0; }
  uint64_t page() const { return page_; }

  // Pages that `bytes` bytes starting at `offset` touch.
  uint64_t PagesTouched(uint64_t offset, uint64_t bytes) const;

  // Zero bytes to write at `offset` before a block of `bytes` bytes (its
  // trailer included) so that it touches no more pages than it must: up to
  // the next page boundary if it would straddle one needlessly, else 0.
  uint64_t PaddingBefore(uint64_t offset, uint64_t bytes) const;

  // Where a block being built, `bytes` bytes on disk so far, will start if
  // the file ends at `offset`: there, unless it no longer fits in the rest
  // of the page or that rest is shorter than `min_useful` bytes; then at
  // the next page boundary.
  uint64_t PlannedStart(uint64_t offset, uint64_t bytes,
                        uint64_t min_useful) const;

  // True if a block planned at `start` that grows from `now` to `after`
  // bytes on disk would reach into more pages than `max_pages` and than
  // it touches already: it should be cut before growing.
  bool ShouldCut(uint64_t start, uint64_t now, uint64_t after,
                 uint64_t max_pages) const;

 private:
  const uint64_t page_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_BLOCK_ALIGNMENT_H_
