#include "table/filter_block.h"

#include "leveldb/filter_policy.h"
#include "util/coding.h"

namespace leveldb {

FilterBlockBuilder::FilterBlockBuilder(const FilterPolicy* policy)
    : policy_(policy) {}

void FilterBlockBuilder::StartBlock(uint64_t block_offset) {
  // Emit filters (empty ones for ranges without blocks) until the range
  // holding block_offset is the one being filled.
  const uint64_t filter_index = block_offset / kFilterBase;
  while (filter_index > filter_starts_.size()) EmitFilter();
}

void FilterBlockBuilder::AddKey(const Slice& key) {
  key_starts_.push_back(key_bytes_.size());
  key_bytes_.append(key.data(), key.size());
}

Slice FilterBlockBuilder::Finish() {
  if (!key_starts_.empty()) EmitFilter();
  const uint32_t array_start = static_cast<uint32_t>(result_.size());
  for (uint32_t start : filter_starts_) AppendFixed32(&result_, start);
  AppendFixed32(&result_, array_start);
  result_.push_back(static_cast<char>(kFilterBaseLg));
  return Slice(result_);
}

void FilterBlockBuilder::EmitFilter() {
  filter_starts_.push_back(static_cast<uint32_t>(result_.size()));
  const size_t n = key_starts_.size();
  if (n == 0) return;

  key_slices_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t begin = key_starts_[i];
    const size_t end = (i + 1 < n) ? key_starts_[i + 1] : key_bytes_.size();
    key_slices_[i] = Slice(key_bytes_.data() + begin, end - begin);
  }
  policy_->CreateFilter(key_slices_.data(), static_cast<int>(n), &result_);

  key_slices_.clear();
  key_bytes_.clear();
  key_starts_.clear();
}

FilterBlockReader::FilterBlockReader(const FilterPolicy* policy,
                                     const Slice& contents)
    : policy_(policy) {
  const size_t n = contents.size();
  // Needs at least the array offset and the base byte.
  if (n < 5) return;
  const int base_lg = static_cast<unsigned char>(contents[n - 1]);
  const uint32_t array_start = LoadFixed32(contents.data() + n - 5);
  // A shift by 64 or more would be undefined; no writer uses such a base.
  if (base_lg >= 64 || array_start > n - 5) return;
  data_ = contents.data();
  offsets_ = data_ + array_start;
  offsets_start_ = array_start;
  num_filters_ = (n - 5 - array_start) / 4;
  base_lg_ = base_lg;
}

bool FilterBlockReader::KeyMayMatch(uint64_t block_offset,
                                    const Slice& key) const {
  const uint64_t index = block_offset >> base_lg_;
  // Unknown ranges and damaged offsets must not hide keys.
  if (index >= num_filters_) return true;
  // The entry after the last filter's start is the array offset itself,
  // which is where the last filter ends.
  const uint32_t start = LoadFixed32(offsets_ + index * 4);
  const uint32_t limit = LoadFixed32(offsets_ + index * 4 + 4);
  if (start > limit || limit > offsets_start_) return true;
  return policy_->KeyMayMatch(key, Slice(data_ + start, limit - start));
}

}  // namespace leveldb
