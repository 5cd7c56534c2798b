#include "table/block_builder.h"

#include <algorithm>
#include <cassert>

#include "leveldb/options.h"
#include "util/coding.h"

namespace leveldb {

BlockBuilder::BlockBuilder(const Options* options)
    : options_(options), entries_since_restart_(0), finished_(false) {
  restarts_.push_back(0);
}

void BlockBuilder::Reset() {
  buffer_.clear();
  restarts_.clear();
  restarts_.push_back(0);
  entries_since_restart_ = 0;
  finished_ = false;
  last_key_.clear();
}

size_t BlockBuilder::CurrentSizeEstimate() const {
  return buffer_.size() + (restarts_.size() + 1) * sizeof(uint32_t);
}

bool BlockBuilder::AtRestart() const {
  return entries_since_restart_ >= options_->block_restart_interval;
}

size_t BlockBuilder::SharedPrefix(const Slice& key) const {
  if (AtRestart()) return 0;
  const size_t limit = std::min(last_key_.size(), key.size());
  size_t shared = 0;
  while (shared < limit && last_key_[shared] == key[shared]) ++shared;
  return shared;
}

size_t BlockBuilder::SizeEstimateAfterAdding(const Slice& key,
                                             const Slice& value) const {
  const size_t shared = SharedPrefix(key);
  const size_t unshared = key.size() - shared;
  size_t added = VarintSize(shared) + VarintSize(unshared) +
                 VarintSize(value.size()) + unshared + value.size();
  if (AtRestart()) added += sizeof(uint32_t);
  return CurrentSizeEstimate() + added;
}

void BlockBuilder::FinishedCopyAfterAdding(const Slice& key, const Slice& value,
                                           std::string* out) const {
  out->assign(buffer_);
  const size_t shared = SharedPrefix(key);
  const bool restart = AtRestart();
  AppendEntry(shared, key, value, out);
  for (uint32_t offset : restarts_) AppendFixed32(out, offset);
  if (restart) AppendFixed32(out, static_cast<uint32_t>(buffer_.size()));
  AppendFixed32(out, static_cast<uint32_t>(restarts_.size() + restart));
}

void BlockBuilder::AppendEntry(size_t shared, const Slice& key,
                               const Slice& value, std::string* dst) {
  const size_t unshared = key.size() - shared;
  AppendVarint32(dst, static_cast<uint32_t>(shared));
  AppendVarint32(dst, static_cast<uint32_t>(unshared));
  AppendVarint32(dst, static_cast<uint32_t>(value.size()));
  dst->append(key.data() + shared, unshared);
  dst->append(value.data(), value.size());
}

Slice BlockBuilder::Finish() {
  for (uint32_t offset : restarts_) AppendFixed32(&buffer_, offset);
  AppendFixed32(&buffer_, static_cast<uint32_t>(restarts_.size()));
  finished_ = true;
  return Slice(buffer_);
}

void BlockBuilder::Add(const Slice& key, const Slice& value) {
  assert(!finished_);
  const size_t shared = SharedPrefix(key);
  if (AtRestart()) {
    // Store this key in full so readers can start decoding here.
    restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
    entries_since_restart_ = 0;
  }
  const size_t unshared = key.size() - shared;
  AppendEntry(shared, key, value, &buffer_);

  last_key_.resize(shared);
  last_key_.append(key.data() + shared, unshared);
  ++entries_since_restart_;
}

}  // namespace leveldb
