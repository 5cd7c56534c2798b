// NewLRUCache(): a cache split into independently locked shards, each
// evicting its least recently used unpinned entries when over capacity.
#include "leveldb/cache.h"

#include <atomic>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/hash.h"
#include "util/mutexlock.h"

namespace leveldb {

Cache::~Cache() = default;

namespace {

// One key/value pair. The key bytes are stored inline after the struct, so
// an entry is a single allocation.
//
// Reference counting: every client handle holds one reference, and the
// cache holds one more while the entry is in the table (`in_table`). An
// entry in the table sits on exactly one of its shard's lists:
//   - the LRU list when only the cache refers to it (refs == 1),
//   - the in-use list when at least one handle pins it (refs >= 2).
// Entries that left the table are on no list and die with their last handle.
struct CacheEntry {
  void* value;
  void (*deleter)(const Slice& key, void* value);
  CacheEntry* chain_next;  // Hash bucket chain, or the local free list.
  CacheEntry* prev;        // Neighbours on the LRU or in-use list.
  CacheEntry* next;
  size_t charge;
  size_t key_length;
  uint32_t refs;
  uint32_t hash;
  bool in_table;
  char key_data[1];  // Really key_length bytes.

  Slice key() const { return Slice(key_data, key_length); }
};

CacheEntry* NewEntry(const Slice& key, uint32_t hash, void* value,
                     size_t charge,
                     void (*deleter)(const Slice& key, void* value)) {
  void* memory = std::malloc(sizeof(CacheEntry) - 1 + key.size());
  auto* e = static_cast<CacheEntry*>(memory);
  e->value = value;
  e->deleter = deleter;
  e->chain_next = nullptr;
  e->prev = e->next = nullptr;
  e->charge = charge;
  e->key_length = key.size();
  e->refs = 0;
  e->hash = hash;
  e->in_table = false;
  std::memcpy(e->key_data, key.data(), key.size());
  return e;
}

// Runs the deleter and frees the entry.
void DestroyEntry(CacheEntry* e) {
  (*e->deleter)(e->key(), e->value);
  std::free(e);
}

// Chained hash table keyed by (key, hash). Faster than std::unordered_map
// here because the chain link lives inside the entry itself.
class EntryTable {
 public:
  EntryTable() : bucket_count_(0), entry_count_(0), buckets_(nullptr) {
    Rehash(kInitialBuckets);
  }
  ~EntryTable() { delete[] buckets_; }

  EntryTable(const EntryTable&) = delete;
  EntryTable& operator=(const EntryTable&) = delete;

  CacheEntry* Find(const Slice& key, uint32_t hash) {
    return *SlotOf(key, hash);
  }

  // Adds `e`. Returns the entry with the same key that `e` replaces (now
  // out of the table), or nullptr.
  CacheEntry* Put(CacheEntry* e) {
    CacheEntry** slot = SlotOf(e->key(), e->hash);
    CacheEntry* displaced = *slot;
    e->chain_next = (displaced == nullptr) ? nullptr : displaced->chain_next;
    *slot = e;
    if (displaced == nullptr) {
      ++entry_count_;
      // Keep chains about one entry long on average.
      if (entry_count_ > bucket_count_) Rehash(bucket_count_ * 2);
    }
    return displaced;
  }

  // Unlinks and returns the entry for key, or nullptr.
  CacheEntry* Take(const Slice& key, uint32_t hash) {
    CacheEntry** slot = SlotOf(key, hash);
    CacheEntry* found = *slot;
    if (found != nullptr) {
      *slot = found->chain_next;
      --entry_count_;
    }
    return found;
  }

 private:
  static constexpr uint32_t kInitialBuckets = 8;

  // The link that points at the entry for key, or the null link ending the
  // chain where it would go.
  CacheEntry** SlotOf(const Slice& key, uint32_t hash) {
    CacheEntry** link = &buckets_[hash & (bucket_count_ - 1)];
    while (*link != nullptr &&
           ((*link)->hash != hash || (*link)->key() != key)) {
      link = &(*link)->chain_next;
    }
    return link;
  }

  void Rehash(uint32_t new_count) {
    auto* fresh = new CacheEntry*[new_count]();
    for (uint32_t b = 0; b < bucket_count_; ++b) {
      CacheEntry* e = buckets_[b];
      while (e != nullptr) {
        CacheEntry* following = e->chain_next;
        CacheEntry** head = &fresh[e->hash & (new_count - 1)];
        e->chain_next = *head;
        *head = e;
        e = following;
      }
    }
    delete[] buckets_;
    buckets_ = fresh;
    bucket_count_ = new_count;
  }

  uint32_t bucket_count_;  // Always a power of two.
  uint32_t entry_count_;
  CacheEntry** buckets_;
};

// Circular doubly linked list with a sentinel head. The oldest entry is
// right after the sentinel, the newest right before it.
class EntryList {
 public:
  EntryList() { head_.prev = head_.next = &head_; }

  EntryList(const EntryList&) = delete;
  EntryList& operator=(const EntryList&) = delete;

  bool empty() const { return head_.next == &head_; }
  CacheEntry* oldest() { return empty() ? nullptr : head_.next; }

  void PushNewest(CacheEntry* e) {
    e->next = &head_;
    e->prev = head_.prev;
    e->prev->next = e;
    head_.prev = e;
  }

  static void Unlink(CacheEntry* e) {
    e->next->prev = e->prev;
    e->prev->next = e->next;
    e->prev = e->next = nullptr;
  }

 private:
  CacheEntry head_;
};

// Entries whose last reference went away while a shard lock was held.
// Their deleters run after the lock is released, so slow deleters do not
// stall other threads and may even use the cache themselves.
class DeadEntries {
 public:
  DeadEntries() : head_(nullptr) {}
  ~DeadEntries() {
    while (head_ != nullptr) {
      CacheEntry* e = head_;
      head_ = e->chain_next;
      DestroyEntry(e);
    }
  }

  DeadEntries(const DeadEntries&) = delete;
  DeadEntries& operator=(const DeadEntries&) = delete;

  void Add(CacheEntry* e) {
    e->chain_next = head_;
    head_ = e;
  }

 private:
  CacheEntry* head_;
};

class LRUShard {
 public:
  LRUShard() : capacity_(0), usage_(0) {}

  ~LRUShard() {
    // Destroying a cache while handles are outstanding is a client bug;
    // such entries cannot be freed safely and are left alone.
    DeadEntries dead;
    MutexLock l(&mu_);
    assert(in_use_.empty());
    while (CacheEntry* e = lru_.oldest()) {
      table_.Take(e->key(), e->hash);
      RemoveFromCache(e, &dead);
    }
  }

  LRUShard(const LRUShard&) = delete;
  LRUShard& operator=(const LRUShard&) = delete;

  // Called once, before the shard is shared between threads.
  void SetCapacity(size_t capacity) LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    capacity_ = capacity;
  }

  Cache::Handle* Insert(const Slice& key, uint32_t hash, void* value,
                        size_t charge,
                        void (*deleter)(const Slice& key, void* value))
      LOCKS_EXCLUDED(mu_) {
    CacheEntry* e = NewEntry(key, hash, value, charge, deleter);
    e->refs = 1;  // The handle returned to the caller.
    DeadEntries dead;
    MutexLock l(&mu_);
    if (capacity_ > 0) {
      e->refs++;  // The cache's own reference.
      e->in_table = true;
      in_use_.PushNewest(e);
      usage_ += charge;
      CacheEntry* displaced = table_.Put(e);
      if (displaced != nullptr) RemoveFromCache(displaced, &dead);
      EvictWhileOverCapacity(&dead);
    }
    // With zero capacity the entry is never cached: it lives only as long
    // as the returned handle.
    return reinterpret_cast<Cache::Handle*>(e);
  }

  Cache::Handle* Lookup(const Slice& key, uint32_t hash) LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    CacheEntry* e = table_.Find(key, hash);
    if (e == nullptr) return nullptr;
    Pin(e);
    return reinterpret_cast<Cache::Handle*>(e);
  }

  void Release(Cache::Handle* handle) LOCKS_EXCLUDED(mu_) {
    DeadEntries dead;
    MutexLock l(&mu_);
    Unref(reinterpret_cast<CacheEntry*>(handle), &dead);
    // Pinned entries may have pushed usage over capacity; now that one may
    // be unpinned, bring usage back within bounds.
    EvictWhileOverCapacity(&dead);
  }

  void Erase(const Slice& key, uint32_t hash) LOCKS_EXCLUDED(mu_) {
    DeadEntries dead;
    MutexLock l(&mu_);
    CacheEntry* e = table_.Take(key, hash);
    if (e != nullptr) RemoveFromCache(e, &dead);
  }

  void Prune() LOCKS_EXCLUDED(mu_) {
    DeadEntries dead;
    MutexLock l(&mu_);
    while (CacheEntry* e = lru_.oldest()) {
      table_.Take(e->key(), e->hash);
      RemoveFromCache(e, &dead);
    }
  }

  size_t TotalCharge() const LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    return usage_;
  }

 private:
  // Adds a client reference, moving the entry to the in-use list if it was
  // only referenced by the cache.
  void Pin(CacheEntry* e) EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (e->in_table && e->refs == 1) {
      EntryList::Unlink(e);
      in_use_.PushNewest(e);
    }
    e->refs++;
  }

  // Drops one reference. At zero the entry goes to `dead`; when only the
  // cache's reference remains it becomes evictable (newest on the LRU).
  void Unref(CacheEntry* e, DeadEntries* dead) EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    assert(e->refs > 0);
    e->refs--;
    if (e->refs == 0) {
      assert(!e->in_table);
      dead->Add(e);
    } else if (e->in_table && e->refs == 1) {
      EntryList::Unlink(e);
      lru_.PushNewest(e);
    }
  }

  // Finishes removing `e`, already taken out of the table: drops it from
  // its list and from the usage, and gives up the cache's reference.
  void RemoveFromCache(CacheEntry* e, DeadEntries* dead)
      EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    assert(e->in_table);
    EntryList::Unlink(e);
    e->in_table = false;
    usage_ -= e->charge;
    Unref(e, dead);
  }

  void EvictWhileOverCapacity(DeadEntries* dead) EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    while (usage_ > capacity_) {
      CacheEntry* victim = lru_.oldest();
      if (victim == nullptr) break;  // Everything left is pinned.
      table_.Take(victim->key(), victim->hash);
      RemoveFromCache(victim, dead);
    }
  }

  mutable port::Mutex mu_;
  size_t capacity_ GUARDED_BY(mu_);
  size_t usage_ GUARDED_BY(mu_);  // Sum of charges of entries in the table.
  EntryList lru_ GUARDED_BY(mu_);
  EntryList in_use_ GUARDED_BY(mu_);
  EntryTable table_ GUARDED_BY(mu_);
};

constexpr int kShardBits = 4;
constexpr int kShardCount = 1 << kShardBits;

class ShardedLRUCache final : public Cache {
 public:
  explicit ShardedLRUCache(size_t capacity) : last_id_(0) {
    // Round up so that the shards together hold at least `capacity`.
    size_t per_shard =
        capacity / kShardCount + (capacity % kShardCount == 0 ? 0 : 1);
    for (LRUShard& shard : shards_) shard.SetCapacity(per_shard);
  }

  ~ShardedLRUCache() override = default;

  Handle* Insert(const Slice& key, void* value, size_t charge,
                 void (*deleter)(const Slice& key, void* value)) override {
    uint32_t hash = HashOf(key);
    return ShardFor(hash).Insert(key, hash, value, charge, deleter);
  }

  Handle* Lookup(const Slice& key) override {
    uint32_t hash = HashOf(key);
    return ShardFor(hash).Lookup(key, hash);
  }

  void Release(Handle* handle) override {
    ShardFor(AsEntry(handle)->hash).Release(handle);
  }

  void* Value(Handle* handle) override { return AsEntry(handle)->value; }

  void Erase(const Slice& key) override {
    uint32_t hash = HashOf(key);
    ShardFor(hash).Erase(key, hash);
  }

  uint64_t NewId() override {
    return last_id_.fetch_add(1, std::memory_order_relaxed) + 1;
  }

  void Prune() override {
    for (LRUShard& shard : shards_) shard.Prune();
  }

  size_t TotalCharge() const override {
    size_t total = 0;
    for (const LRUShard& shard : shards_) total += shard.TotalCharge();
    return total;
  }

 private:
  static uint32_t HashOf(const Slice& key) {
    return Hash(key.data(), key.size(), 0);
  }

  static CacheEntry* AsEntry(Handle* handle) {
    return reinterpret_cast<CacheEntry*>(handle);
  }

  // The top bits pick the shard; the low bits pick the bucket inside it.
  LRUShard& ShardFor(uint32_t hash) {
    return shards_[hash >> (32 - kShardBits)];
  }

  LRUShard shards_[kShardCount];
  std::atomic<uint64_t> last_id_;
};

}  // namespace

Cache* NewLRUCache(size_t capacity) { return new ShardedLRUCache(capacity); }

}  // namespace leveldb
