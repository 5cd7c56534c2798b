#include "elastic/false_positive_memo.h"

#include <cstring>

#include "util/coding.h"
#include "util/hash64.h"

namespace leveldb {

namespace {

// Odd multipliers and a seed unrelated to KeyHash64's constants.
constexpr uint64_t kMemoSeed = 0x2545f4914f6cdd1dull;
constexpr uint64_t kLaneMul = 0xd6e8feb86659fd93ull;
constexpr uint64_t kFileMul = 0xa0761d6478bd642full;

// Murmur-style 64-bit mixer (different shifts and constants from the
// finalizer KeyHash64 uses).
uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

}  // namespace

uint64_t MemoKeyHash(const char* data, size_t n) {
  uint64_t h = kMemoSeed ^ (n * kLaneMul);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    h = Mix(h ^ LoadFixed64(data + i)) * kLaneMul;
  }
  if (i < n) {
    uint64_t tail = 0;
    std::memcpy(&tail, data + i, n - i);
    h = Mix(h ^ tail ^ (uint64_t{n - i} << 56)) * kLaneMul;
  }
  return Mix(h);
}

FalsePositiveMemo::FalsePositiveMemo(EpochDomain* epoch, int fingerprint_bits)
    : epoch_(epoch),
      fingerprint_mask_(fingerprint_bits >= 64
                            ? ~uint64_t{0}
                            : (uint64_t{1} << fingerprint_bits) - 1) {}

FalsePositiveMemo::~FalsePositiveMemo() {
  // No reader is left when the database closes its layer.
  delete table_.load(std::memory_order_relaxed);
}

uint64_t FalsePositiveMemo::Fingerprint(uint64_t file_number,
                                        const Slice& user_key) const {
  const uint64_t key = MemoKeyHash(user_key.data(), user_key.size());
  const uint64_t fp = Mix(key ^ (file_number * kFileMul)) & fingerprint_mask_;
  return fp == 0 ? 1 : fp;
}

FalsePositiveMemo::Key FalsePositiveMemo::KeyOf(uint64_t file_number,
                                                uint64_t key_hash,
                                                const Slice& user_key) const {
  // The filters' hash places the pair; the fingerprint alone decides a
  // match, so the set's choice need not be independent of the filters.
  const uint64_t set_hash =
      hash64_internal::Avalanche(key_hash ^ (file_number * kFileMul));
  constexpr uint64_t kFileMask = (uint64_t{1} << kFileBits) - 1;
  Key key;
  key.fingerprint = Fingerprint(file_number, user_key);
  key.tag = (set_hash & ~kFileMask) | (file_number & kFileMask);
  return key;
}

bool FalsePositiveMemo::SameFile(uint64_t tag, uint64_t file_number) {
  constexpr uint64_t kFileMask = (uint64_t{1} << kFileBits) - 1;
  return (tag & kFileMask) == (file_number & kFileMask);
}

bool FalsePositiveMemo::Contains(const Key& key) {
  if (!active()) return false;
  EpochGuard guard(epoch_);
  const Array* array = table_.load(std::memory_order_acquire);
  if (array == nullptr) return false;
  const Set& set = array->sets[array->SetOfTag(key.tag)];
  for (int rank = 0; rank < kWays; ++rank) {
    if (set.ways[rank].fingerprint.load(std::memory_order_relaxed) ==
        key.fingerprint) {
      Count(hits_[rank], key.fingerprint);
      return true;
    }
  }
  return false;
}

void FalsePositiveMemo::Insert(const Key& key) {
  if (!active()) return;
  const uint64_t fp = key.fingerprint;
  EpochGuard guard(epoch_);
  Array* array = table_.load(std::memory_order_acquire);
  if (array == nullptr) return;
  Slot* ways = array->sets[array->SetOfTag(key.tag)].ways;
  int victim = -1;  // the first empty way, if any
  for (int w = 0; w < kWays; ++w) {
    const uint64_t seen = ways[w].fingerprint.load(std::memory_order_relaxed);
    if (seen == fp) return;
    if (seen == 0 && victim < 0) victim = w;
  }
  // Newest first: the others move down one way up to the first empty way
  // or, in a full set, a victim picked by the fingerprint in the older
  // half, which drops out. A strict oldest-out
  // order would lose a whole overfull set to lookups that cycle through it;
  // the older half still holds the older entries, which is what the
  // per-rank hits are read for. A racing writer may overwrite or duplicate
  // an entry: a lost one costs a read again, and a stored fingerprint is
  // always one a read proved.
  if (victim < 0) {
    victim = kWays / 2 + static_cast<int>((fp >> 32) % (kWays / 2));
  }
  for (int w = victim; w > 0; --w) {
    ways[w].tag.store(ways[w - 1].tag.load(std::memory_order_relaxed),
                      std::memory_order_relaxed);
    ways[w].fingerprint.store(
        ways[w - 1].fingerprint.load(std::memory_order_relaxed),
        std::memory_order_relaxed);
  }
  ways[0].tag.store(key.tag, std::memory_order_relaxed);
  ways[0].fingerprint.store(fp, std::memory_order_release);
  Count(inserts_, fp);
}

size_t FalsePositiveMemo::RoundBytes(size_t bytes) {
  if (bytes < kSetBytes) return 0;
  size_t sets = 1;
  while (sets <= bytes / kSetBytes / 2 && sets < (size_t{1} << kMaxSetBits)) {
    sets *= 2;
  }
  return sets * kSetBytes;
}

void FalsePositiveMemo::MoveEntries(const Array& from, Array* to) {
  // Rank by rank over all sets, so that sets merging into one keep their
  // newest entries first.
  for (int rank = 0; rank < kWays; ++rank) {
    for (size_t s = 0; s < from.count(); ++s) {
      const Slot& slot = from.sets[s].ways[rank];
      const uint64_t fp = slot.fingerprint.load(std::memory_order_relaxed);
      if (fp == 0) continue;
      const uint64_t tag = slot.tag.load(std::memory_order_relaxed);
      for (Slot& dest : to->sets[to->SetOfTag(tag)].ways) {
        if (dest.fingerprint.load(std::memory_order_relaxed) != 0) continue;
        dest.tag.store(tag, std::memory_order_relaxed);
        dest.fingerprint.store(fp, std::memory_order_relaxed);
        break;
      }
    }
  }
}

size_t FalsePositiveMemo::Resize(size_t bytes) {
  const size_t sets = RoundBytes(bytes) / kSetBytes;
  Array* fresh = nullptr;
  if (sets > 0) {
    int bits = 0;
    while ((size_t{1} << bits) < sets) ++bits;
    fresh = new Array(bits);
    EpochGuard guard(epoch_);
    const Array* old = table_.load(std::memory_order_acquire);
    // Inserts racing with the copy may be lost: they cost a read again.
    if (old != nullptr) MoveEntries(*old, fresh);
  }
  Array* old = table_.exchange(fresh, std::memory_order_acq_rel);
  bytes_.store(sets * kSetBytes, std::memory_order_relaxed);
  epoch_->RetireObject(old);
  return sets * kSetBytes;
}

void FalsePositiveMemo::Forget(uint64_t file_number) {
  EpochGuard guard(epoch_);
  Array* array = table_.load(std::memory_order_acquire);
  if (array == nullptr) return;
  for (size_t s = 0; s < array->count(); ++s) {
    for (Slot& slot : array->sets[s].ways) {
      if (!SameFile(slot.tag.load(std::memory_order_relaxed), file_number)) {
        continue;
      }
      // Only the entry seen is cleared: one written meanwhile for another
      // file stays (a lost one would only cost a read). An entry of the
      // file that moves past meanwhile stays too: file numbers are never
      // reused, so it can never match again.
      uint64_t fp = slot.fingerprint.load(std::memory_order_relaxed);
      slot.fingerprint.compare_exchange_strong(fp, 0,
                                               std::memory_order_relaxed);
    }
  }
}

size_t FalsePositiveMemo::CountEntries(uint64_t file_number) {
  EpochGuard guard(epoch_);
  const Array* array = table_.load(std::memory_order_acquire);
  if (array == nullptr) return 0;
  size_t count = 0;
  for (size_t s = 0; s < array->count(); ++s) {
    for (const Slot& slot : array->sets[s].ways) {
      if (slot.fingerprint.load(std::memory_order_relaxed) != 0 &&
          (file_number == 0 ||
           SameFile(slot.tag.load(std::memory_order_relaxed), file_number))) {
        ++count;
      }
    }
  }
  return count;
}

uint64_t FalsePositiveMemo::hits() const {
  uint64_t total = 0;
  for (int rank = 0; rank < kWays; ++rank) total += hits_at(rank);
  return total;
}

uint64_t FalsePositiveMemo::Sum(const Stripe* stripes) {
  uint64_t total = 0;
  for (int i = 0; i < kStripes; ++i) {
    total += stripes[i].count.load(std::memory_order_relaxed);
  }
  return total;
}

}  // namespace leveldb
