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

Slice BlockBuilder::Finish() {
  for (uint32_t offset : restarts_) AppendFixed32(&buffer_, offset);
  AppendFixed32(&buffer_, static_cast<uint32_t>(restarts_.size()));
  finished_ = true;
  return Slice(buffer_);
}

void BlockBuilder::Add(const Slice& key, const Slice& value) {
  assert(!finished_);
  size_t shared = 0;
  if (entries_since_restart_ < options_->block_restart_interval) {
    const size_t limit = std::min(last_key_.size(), key.size());
    while (shared < limit && last_key_[shared] == key[shared]) ++shared;
  } else {
    // Store this key in full so readers can start decoding here.
    restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
    entries_since_restart_ = 0;
  }
  const size_t unshared = key.size() - shared;

  AppendVarint32(&buffer_, static_cast<uint32_t>(shared));
  AppendVarint32(&buffer_, static_cast<uint32_t>(unshared));
  AppendVarint32(&buffer_, static_cast<uint32_t>(value.size()));
  buffer_.append(key.data() + shared, unshared);
  buffer_.append(value.data(), value.size());

  last_key_.resize(shared);
  last_key_.append(key.data() + shared, unshared);
  ++entries_since_restart_;
}

}  // namespace leveldb
