// FalsePositiveMemo: the (table, user key) pairs a data-block read proved
// absent, one memo per database (docs/elasticbf.md, "False-positive memo").
//
// Tables are immutable, so "key k is not in table t" stays true until t is
// deleted; a key the filter units let through by mistake costs a data-block
// read the first time only, once the memo remembers it.
//
// Layout: a set-associative array of slots, kWays slots (one cache line) per
// set. A pair picks its set from the filters' key hash mixed with the file
// number, and is stored as a 64-bit fingerprint of (file number, user key)
// from a hash independent of the filters' (so a key the units confuse with a
// present one is no likelier to match it here). A present key is screened
// out only if its fingerprint equals one of the kWays in its set: at most
// kWays * 2^-64 per table probe, see docs/elasticbf.md for the argument.
// Each slot also keeps the top bits of its set hash (beside the file
// number), so that a resize can move entries to the sets of the new size.
//
// Within a set the ways are in insertion order: a new entry takes way 0 and
// the others move down one, the oldest dropping out. Hits are counted per
// way (rank), so the hits of the oldest ways tell what the last bytes of
// the memo are worth: what a smaller memo would lose, and whether a larger
// one would gain (MemoSizer, elastic/memo_sizer.h, weighs this against the
// filter units).
//
//   Get thread:  KeyOf() once per table probe the units let through, then
//                Contains() (relaxed loads, inside the layer's epoch) and,
//                after a read proved the key absent, Insert() (a few
//                relaxed stores; an entry lost to a race only costs a read
//                again).
//   Background:  Resize() publishes an array of the new size holding the
//                entries that fit (the newest of each set) and retires the
//                old one to the epoch; Forget() clears a deleted file's
//                slots.
//
// Hits and inserts are counted in striped counters (one cache line each,
// picked by the fingerprint), so concurrent Gets rarely share a line.
#ifndef STORAGE_LEVELDB_ELASTIC_FALSE_POSITIVE_MEMO_H_
#define STORAGE_LEVELDB_ELASTIC_FALSE_POSITIVE_MEMO_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "leveldb/slice.h"
#include "util/epoch.h"

namespace leveldb {

class FalsePositiveMemo {
 public:
  static constexpr int kWays = 4;
  // Bytes of one set: kWays slots of a fingerprint and a file number.
  static constexpr size_t kSetBytes = kWays * 2 * sizeof(uint64_t);
  // Most sets an array has (a slot keeps this many bits of its set hash).
  static constexpr int kMaxSetBits = 24;

  // Readers enter `epoch` (it must outlive the memo); retired arrays are
  // freed through it. fingerprint_bits in [1, 64]: fewer than 64 only in
  // tests, to make fingerprint collisions happen.
  explicit FalsePositiveMemo(EpochDomain* epoch, int fingerprint_bits = 64);
  FalsePositiveMemo(const FalsePositiveMemo&) = delete;
  FalsePositiveMemo& operator=(const FalsePositiveMemo&) = delete;
  ~FalsePositiveMemo();

  // True if a memory array is published (else Contains/Insert do nothing).
  bool active() const {
    return table_.load(std::memory_order_relaxed) != nullptr;
  }

  // A (table, user key) pair as the memo holds it: computed once per table
  // probe, for Contains and, after a read, Insert.
  struct Key {
    uint64_t fingerprint = 0;  // never 0 for a computed key
    uint64_t tag = 0;          // set hash bits and file number (Slot::tag)
  };
  // key_hash is the filters' KeyHash64 of the user key.
  Key KeyOf(uint64_t file_number, uint64_t key_hash,
            const Slice& user_key) const;

  // Get path: true if the pair was recorded absent. Lock-free, no
  // allocation.
  bool Contains(const Key& key);
  // Get path: records that the pair's table holds no entry of its key.
  void Insert(const Key& key);

  // Background: replaces the array by one of about `bytes` bytes (rounded
  // down to a power of two of sets, at most 2^kMaxSetBits; 0: none) holding
  // the entries that fit, the newest of each set first. Returns the bytes
  // now used. Callers serialize it.
  size_t Resize(size_t bytes);
  // What Resize(bytes) would use.
  static size_t RoundBytes(size_t bytes);
  // Background: clears the slots of a deleted table file, freeing them.
  void Forget(uint64_t file_number);

  // Slots holding an entry (of `file_number` only, unless 0). O(bytes):
  // for tests and statistics.
  size_t CountEntries(uint64_t file_number = 0);

  // Bytes of the published array.
  size_t bytes() const { return bytes_.load(std::memory_order_relaxed); }
  // Counters since the memo was made: hits in all, hits of the entries at
  // `rank` (0: newest) of their set, inserts.
  uint64_t hits() const;
  uint64_t hits_at(int rank) const { return Sum(hits_[rank]); }
  uint64_t inserts() const { return Sum(inserts_); }

 private:
  static constexpr int kStripes = 8;
  struct alignas(64) Stripe {
    std::atomic<uint64_t> count{0};
  };
  struct Slot {
    std::atomic<uint64_t> fingerprint{0};  // 0: empty
    // Low kFileBits: the file number's (for Forget); above: the top bits of
    // the set hash (for Resize). Never decides a match.
    std::atomic<uint64_t> tag{0};
  };
  static constexpr int kFileBits = 64 - kMaxSetBits;
  struct alignas(64) Set {
    Slot ways[kWays];
  };
  struct Array {
    explicit Array(int set_bits)
        : sets(new Set[size_t{1} << set_bits]), bits(set_bits) {}
    size_t count() const { return size_t{1} << bits; }
    // The set of a pair whose tag is `tag`.
    size_t SetOfTag(uint64_t tag) const {
      return bits == 0 ? 0 : (tag >> kFileBits) >> (kMaxSetBits - bits);
    }
    std::unique_ptr<Set[]> sets;
    const int bits;  // log2 of the sets
  };

  // The fingerprint of (file_number, user_key), never 0.
  uint64_t Fingerprint(uint64_t file_number, const Slice& user_key) const;
  static bool SameFile(uint64_t tag, uint64_t file_number);
  // Copies the entries of `from` into the empty `to`, rank by rank.
  static void MoveEntries(const Array& from, Array* to);
  // `spread` (a fingerprint) picks the stripe.
  static void Count(Stripe* stripes, uint64_t spread) {
    stripes[spread % kStripes].count.fetch_add(1, std::memory_order_relaxed);
  }
  static uint64_t Sum(const Stripe* stripes);

  EpochDomain* const epoch_;
  const uint64_t fingerprint_mask_;
  std::atomic<Array*> table_{nullptr};
  std::atomic<size_t> bytes_{0};
  Stripe hits_[kWays][kStripes];
  Stripe inserts_[kStripes];
};

// 64-bit hash of data[0, n), independent of KeyHash64 (another mixing
// function and seed): the memo's fingerprints.
uint64_t MemoKeyHash(const char* data, size_t n);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_FALSE_POSITIVE_MEMO_H_
