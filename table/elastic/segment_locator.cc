#include "table/elastic/segment_locator.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "leveldb/comparator.h"
#include "table/block.h"
#include "table/elastic/filter_group.h"
#include "table/format.h"
#include "util/coding.h"

namespace leveldb {

Status SegmentLocator::Build(const Comparator* cmp, Block* index_block,
                             const ElasticIndex& index) {
  usable_ = false;
  cmp_ = cmp;
  num_segments_ = index.num_segments();
  keys_.clear();
  ends_.clear();
  segments_.clear();
  first_entries_.clear();
  uint32_t entry = 0;
  BlockIterator iter(cmp, index_block);
  for (iter.SeekToFirst(); iter.Valid(); iter.Next(), ++entry) {
    Slice input = iter.value();
    BlockHandle handle;
    if (!handle.DecodeFrom(&input).ok()) {
      return Status::Corruption("bad block handle in a table index");
    }
    if (index.num_segments() == 0) {
      return Status::Corruption("data blocks in a table without segments");
    }
    const uint32_t segment = index.SegmentOf(handle.offset());
    // Blocks come in file order, so a segment's blocks are consecutive:
    // each new block of the current segment replaces its last key.
    if (segments_.empty() || segments_.back() < segment) {
      segments_.push_back(segment);
      ends_.push_back(static_cast<uint32_t>(keys_.size()));
      first_entries_.push_back(entry);
    } else if (segments_.back() > segment) {
      return Status::Corruption("table index blocks out of file order");
    }
    keys_.resize(ends_.size() == 1 ? 0 : ends_[ends_.size() - 2]);
    const Slice key = iter.key();
    if (keys_.size() + key.size() > std::numeric_limits<uint32_t>::max()) {
      return Status::Corruption("table index keys too large");
    }
    keys_.append(key.data(), key.size());
    ends_.back() = static_cast<uint32_t>(keys_.size());
  }
  if (!iter.status().ok()) return iter.status();
  keys_.shrink_to_fit();
  ends_.shrink_to_fit();
  segments_.shrink_to_fit();
  first_entries_.shrink_to_fit();
  num_entries_ = entry;
  entries_are_runs_ = index_block->num_restarts() == entry;
  usable_ = true;
  return Status::OK();
}

uint64_t SegmentLocator::OrderPrefix(const Slice& user_key) {
  if (user_key.size() >= 8) {
    // Written so that compilers turn it into one load and a byte swap.
    const auto* p = reinterpret_cast<const uint8_t*>(user_key.data());
    return (uint64_t{p[0]} << 56) | (uint64_t{p[1]} << 48) |
           (uint64_t{p[2]} << 40) | (uint64_t{p[3]} << 32) |
           (uint64_t{p[4]} << 24) | (uint64_t{p[5]} << 16) |
           (uint64_t{p[6]} << 8) | uint64_t{p[7]};
  }
  uint64_t prefix = 0;
  const size_t n = user_key.size();
  for (size_t i = 0; i < n; ++i) {
    prefix |= static_cast<uint64_t>(static_cast<uint8_t>(user_key[i]))
              << (56 - 8 * i);
  }
  return prefix;
}

namespace {

constexpr size_t kTagSize = 8;

Slice UserPart(const Slice& key, bool internal_keys) {
  return internal_keys ? Slice(key.data(), key.size() - kTagSize) : key;
}

// OrderPrefix of the n bytes at p, where at least 8 bytes can be read (an
// internal key's user part is followed by its 8-byte tag): one load, a
// byte swap and a mask instead of a loop over short keys.
uint64_t OrderPrefixOfReadable(const char* p, size_t n) {
  if (n == 0) return 0;
  // The first byte is the most significant: the byte-swapped little-endian
  // value.
  const uint64_t prefix = __builtin_bswap64(LoadFixed64(p));
  return n >= 8 ? prefix : prefix & ~(~uint64_t{0} >> (8 * n));
}

}  // namespace

void SegmentLocator::UseOrderPrefixes(bool internal_keys) {
  prefixes_.clear();
  shared_.clear();
  const size_t count = ends_.size();
  if (!usable_ || count < 2) return;
  for (size_t i = 0; i < count; ++i) {
    if (internal_keys && KeyAt(i).size() < kTagSize) return;  // not internal
  }
  // The longest prefix the user keys share, the last one left out: it is
  // usually a short successor of the table's last key ("1" after keys
  // that start "0000...").
  const Slice first = UserPart(KeyAt(0), internal_keys);
  size_t shared = first.size();
  for (size_t i = 1; i + 1 < count; ++i) {
    const Slice user = UserPart(KeyAt(i), internal_keys);
    size_t n = 0;
    while (n < shared && n < user.size() && user[n] == first[n]) ++n;
    shared = n;
  }
  shared_.assign(first.data(), shared);
  const Slice last = UserPart(KeyAt(count - 1), internal_keys);
  last_shares_ = last.starts_with(Slice(shared_));
  prefixes_.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    Slice user = UserPart(KeyAt(i), internal_keys);
    if (user.starts_with(Slice(shared_))) user.remove_prefix(shared);
    prefixes_.push_back(OrderPrefix(user));
  }
  internal_keys_ = internal_keys;
}

bool SegmentLocator::Find(const Slice& key, uint32_t* segment,
                          EntryRange* range) const {
  // First entry whose key is >= key. With prefixes, the shared prefix
  // alone places the key before every entry, after every entry but perhaps
  // the last, or among the entries that share it, where integers decide
  // the search and the comparator only breaks ties.
  size_t lo = 0;
  size_t hi = ends_.size();
  uint64_t prefix = 0;
  bool by_prefix = false;
  if (!prefixes_.empty() && (!internal_keys_ || key.size() >= kTagSize)) {
    Slice user = UserPart(key, internal_keys_);
    const size_t n = std::min(user.size(), shared_.size());
    const int order = std::memcmp(user.data(), shared_.data(), n);
    if (order > 0) {
      lo = hi - 1;  // after every entry but perhaps the last
    } else if (order < 0 || user.size() < shared_.size()) {
      hi = lo;  // before every entry
    } else {
      user.remove_prefix(shared_.size());
      prefix = internal_keys_ ? OrderPrefixOfReadable(user.data(), user.size())
                              : OrderPrefix(user);
      by_prefix = true;
      // A last key that does not share the prefix sorts after every key
      // that does, this one included: the search ends at it at the latest.
      if (!last_shares_) --hi;
    }
  }
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    bool below;
    if (by_prefix && prefixes_[mid] != prefix) {
      below = prefixes_[mid] < prefix;
    } else {
      below = cmp_->Compare(KeyAt(mid), key) < 0;
    }
    if (below) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == ends_.size()) return false;
  *segment = segments_[lo];
  if (range != nullptr) {
    range->known = entries_are_runs_;
    range->first = first_entries_[lo];
    range->last = lo + 1 < first_entries_.size() ? first_entries_[lo + 1] - 1
                                                 : num_entries_ - 1;
  }
  return true;
}

void SegmentLocator::LastKeys(std::vector<std::string>* keys) const {
  keys->assign(num_segments_, std::string());
  for (size_t i = 0; i < segments_.size(); ++i) {
    (*keys)[segments_[i]] = KeyAt(i).ToString();
  }
}

size_t SegmentLocator::ApproximateMemoryUsage() const {
  // An unbuilt locator holds no heap memory (an empty string still reports
  // its inline capacity).
  if (!usable_) return 0;
  return keys_.capacity() + ends_.capacity() * sizeof(uint32_t) +
         segments_.capacity() * sizeof(uint32_t) +
         first_entries_.capacity() * sizeof(uint32_t) +
         prefixes_.capacity() * sizeof(uint64_t) + shared_.capacity();
}

Status SegmentKeyRanges(const std::vector<std::string>& last_keys,
                        const Slice& smallest_user_key,
                        const Slice& largest_user_key,
                        std::vector<SegmentKeyRange>* ranges) {
  // Index keys carry an 8-byte tag after the user key.
  constexpr size_t kTagSize = 8;
  ranges->resize(last_keys.size());
  std::string lower = smallest_user_key.ToString();
  for (size_t i = 0; i < last_keys.size(); ++i) {
    SegmentKeyRange& range = (*ranges)[i];
    const std::string& last = last_keys[i];
    range.first = lower;
    if (i + 1 == last_keys.size()) {
      range.last = largest_user_key.ToString();
    } else if (last.empty()) {
      range.last = lower;  // a segment without data blocks
    } else if (last.size() < kTagSize) {
      ranges->clear();
      return Status::Corruption("index key too short for an internal key");
    } else {
      range.last = last.substr(0, last.size() - kTagSize);
      lower = range.last;
    }
  }
  return Status::OK();
}

}  // namespace leveldb
