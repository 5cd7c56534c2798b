// Tests for NewLRUCache(): hits and misses, pinning, eviction order,
// charges, capacity 0, Prune, ids, deleter accounting and thread safety.
#include "leveldb/cache.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <thread>  // NOLINT
#include <vector>

#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/hash.h"
#include "util/random.h"

namespace leveldb {
namespace {

// The cache has 16 shards chosen by the top 4 bits of the key hash; tests
// of eviction order need keys that share a shard.
constexpr int kShards = 16;

std::string IntKey(int k) {
  std::string key;
  AppendFixed32(&key, static_cast<uint32_t>(k));
  return key;
}

int KeyToInt(const Slice& key) {
  EXPECT_EQ(4u, key.size());
  return static_cast<int>(LoadFixed32(key.data()));
}

void* IntValue(int v) {
  return reinterpret_cast<void*>(static_cast<intptr_t>(v));
}
int ValueToInt(void* v) {
  return static_cast<int>(reinterpret_cast<intptr_t>(v));
}

uint32_t ShardOf(int k) {
  std::string key = IntKey(k);
  return Hash(key.data(), key.size(), 0) >> 28;
}

// The first `count` integer keys that fall into shard 0.
std::vector<int> KeysInOneShard(size_t count) {
  std::vector<int> keys;
  for (int k = 0; keys.size() < count; ++k) {
    if (ShardOf(k) == 0) keys.push_back(k);
  }
  return keys;
}

class CacheTest : public testing::Test {
 public:
  // Deleter callbacks cannot carry state, so they report to the fixture
  // that is currently running.
  static CacheTest* current_;

  static void RecordDeletion(const Slice& key, void* value) {
    current_->deleted_keys_.push_back(KeyToInt(key));
    current_->deleted_values_.push_back(ValueToInt(value));
  }

  CacheTest() { current_ = this; }
  ~CacheTest() override {
    cache_.reset();  // Its deleters still report here.
    current_ = nullptr;
  }

  void Reset(size_t capacity) { cache_.reset(NewLRUCache(capacity)); }

  // Value for key, or -1 if absent. Does not keep the entry pinned.
  int Get(int key) {
    Cache::Handle* h = cache_->Lookup(IntKey(key));
    if (h == nullptr) return -1;
    int v = ValueToInt(cache_->Value(h));
    cache_->Release(h);
    return v;
  }

  void Put(int key, int value, size_t charge = 1) {
    cache_->Release(PutPinned(key, value, charge));
  }

  Cache::Handle* PutPinned(int key, int value, size_t charge = 1) {
    return cache_->Insert(IntKey(key), IntValue(value), charge,
                          &CacheTest::RecordDeletion);
  }

  void Erase(int key) { cache_->Erase(IntKey(key)); }

  std::vector<int> deleted_keys_;
  std::vector<int> deleted_values_;
  std::unique_ptr<Cache> cache_{NewLRUCache(1000)};
};

CacheTest* CacheTest::current_ = nullptr;

TEST_F(CacheTest, HitAndMiss) {
  EXPECT_EQ(-1, Get(100));

  Put(100, 101);
  EXPECT_EQ(101, Get(100));
  EXPECT_EQ(-1, Get(200));
  EXPECT_EQ(-1, Get(300));

  Put(200, 201);
  EXPECT_EQ(101, Get(100));
  EXPECT_EQ(201, Get(200));
  EXPECT_EQ(-1, Get(300));

  // Replacing a key deletes the previous value (nobody holds it).
  Put(100, 102);
  EXPECT_EQ(102, Get(100));
  EXPECT_EQ(201, Get(200));
  ASSERT_EQ(1u, deleted_keys_.size());
  EXPECT_EQ(100, deleted_keys_[0]);
  EXPECT_EQ(101, deleted_values_[0]);
}

TEST_F(CacheTest, Erase) {
  Erase(200);
  EXPECT_TRUE(deleted_keys_.empty());

  Put(100, 101);
  Put(200, 201);
  Erase(100);
  EXPECT_EQ(-1, Get(100));
  EXPECT_EQ(201, Get(200));
  ASSERT_EQ(1u, deleted_keys_.size());
  EXPECT_EQ(100, deleted_keys_[0]);
  EXPECT_EQ(101, deleted_values_[0]);

  // Erasing again finds nothing and deletes nothing.
  Erase(100);
  EXPECT_EQ(-1, Get(100));
  EXPECT_EQ(201, Get(200));
  EXPECT_EQ(1u, deleted_keys_.size());
}

TEST_F(CacheTest, ReplacedValueLivesWhileHandleHeld) {
  Put(100, 101);
  Cache::Handle* old_handle = cache_->Lookup(IntKey(100));
  ASSERT_NE(nullptr, old_handle);

  Put(100, 102);
  EXPECT_EQ(102, Get(100));
  // The old value is out of the cache but still alive for its holder.
  EXPECT_TRUE(deleted_keys_.empty());
  EXPECT_EQ(101, ValueToInt(cache_->Value(old_handle)));

  cache_->Release(old_handle);
  ASSERT_EQ(1u, deleted_keys_.size());
  EXPECT_EQ(100, deleted_keys_[0]);
  EXPECT_EQ(101, deleted_values_[0]);
  EXPECT_EQ(102, Get(100));
}

TEST_F(CacheTest, ErasedEntryLivesWhileHandleHeld) {
  Put(100, 101);
  Cache::Handle* h1 = cache_->Lookup(IntKey(100));
  Cache::Handle* h2 = cache_->Lookup(IntKey(100));
  ASSERT_NE(nullptr, h1);
  ASSERT_EQ(h1, h2);

  Erase(100);
  EXPECT_EQ(-1, Get(100));
  EXPECT_TRUE(deleted_keys_.empty());
  cache_->Release(h1);
  EXPECT_TRUE(deleted_keys_.empty());
  EXPECT_EQ(101, ValueToInt(cache_->Value(h2)));
  cache_->Release(h2);
  ASSERT_EQ(1u, deleted_keys_.size());
  EXPECT_EQ(101, deleted_values_[0]);
}

TEST_F(CacheTest, EvictionFollowsLeastRecentUse) {
  constexpr size_t kPerShard = 10;
  Reset(kPerShard * kShards);
  std::vector<int> keys = KeysInOneShard(kPerShard + 2);

  // Fill the shard exactly.
  for (size_t i = 0; i < kPerShard; ++i) Put(keys[i], 1000 + keys[i]);
  // Touch the oldest entry so that keys[1] becomes the least recently used.
  EXPECT_EQ(1000 + keys[0], Get(keys[0]));

  Put(keys[kPerShard], 1000 + keys[kPerShard]);
  EXPECT_EQ(1000 + keys[0], Get(keys[0]));
  EXPECT_EQ(-1, Get(keys[1]));
  for (size_t i = 2; i <= kPerShard; ++i) {
    EXPECT_EQ(1000 + keys[i], Get(keys[i])) << i;
  }
  ASSERT_EQ(1u, deleted_keys_.size());
  EXPECT_EQ(keys[1], deleted_keys_[0]);

  // The lookups above touched keys[0] first and then keys[2..N] in order,
  // so keys[0] is now the least recently used and goes next.
  Put(keys[kPerShard + 1], 1);
  EXPECT_EQ(-1, Get(keys[0]));
  for (size_t i = 2; i <= kPerShard + 1; ++i) {
    EXPECT_NE(-1, Get(keys[i])) << i;
  }
}

TEST_F(CacheTest, PinnedEntriesAreNotEvicted) {
  constexpr size_t kPerShard = 5;
  Reset(kPerShard * kShards);
  std::vector<int> keys = KeysInOneShard(3 * kPerShard);

  // Pin twice the capacity of the shard.
  std::vector<Cache::Handle*> pinned;
  for (size_t i = 0; i < 2 * kPerShard; ++i) {
    pinned.push_back(PutPinned(keys[i], 2000 + keys[i]));
  }
  // More unpinned inserts must evict only unpinned entries.
  for (size_t i = 2 * kPerShard; i < 3 * kPerShard; ++i) {
    Put(keys[i], 2000 + keys[i]);
  }
  for (size_t i = 0; i < 2 * kPerShard; ++i) {
    EXPECT_EQ(2000 + keys[i], Get(keys[i])) << i;
    EXPECT_EQ(2000 + keys[i], ValueToInt(cache_->Value(pinned[i])));
  }
  for (size_t i = 2 * kPerShard; i < 3 * kPerShard; ++i) {
    EXPECT_EQ(-1, Get(keys[i])) << i;
  }
  EXPECT_EQ(kPerShard, deleted_keys_.size());

  // Once released, the cache shrinks back to its capacity.
  for (Cache::Handle* h : pinned) cache_->Release(h);
  EXPECT_LE(cache_->TotalCharge(), kPerShard * kShards);
  EXPECT_EQ(2 * kPerShard, deleted_keys_.size());
}

TEST_F(CacheTest, HeavyEntryEvictsManyLightOnes) {
  constexpr size_t kPerShard = 100;
  Reset(kPerShard * kShards);
  std::vector<int> keys = KeysInOneShard(51);

  for (int i = 0; i < 50; ++i) Put(keys[i], i);
  EXPECT_EQ(50u, cache_->TotalCharge());

  // 50 + 60 = 110 > 100: exactly the 10 oldest light entries must go.
  Put(keys[50], 50, 60);
  EXPECT_EQ(100u, cache_->TotalCharge());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(-1, Get(keys[i])) << i;
  for (int i = 10; i < 50; ++i) EXPECT_EQ(i, Get(keys[i])) << i;
  EXPECT_EQ(50, Get(keys[50]));
  EXPECT_EQ(10u, deleted_keys_.size());

  // An entry heavier than the shard pushes everything else out, itself
  // included once nothing pins it.
  Put(keys[0], 0, kPerShard + 1);
  EXPECT_EQ(0u, cache_->TotalCharge());
  EXPECT_EQ(-1, Get(keys[0]));
  EXPECT_EQ(52u, deleted_keys_.size());
}

TEST_F(CacheTest, ZeroCapacityCachesNothing) {
  Reset(0);
  Cache::Handle* h = PutPinned(1, 101);
  ASSERT_NE(nullptr, h);
  EXPECT_EQ(101, ValueToInt(cache_->Value(h)));
  EXPECT_EQ(-1, Get(1));
  EXPECT_EQ(0u, cache_->TotalCharge());
  EXPECT_TRUE(deleted_keys_.empty());
  cache_->Release(h);
  ASSERT_EQ(1u, deleted_keys_.size());
  EXPECT_EQ(101, deleted_values_[0]);

  Put(2, 102);
  EXPECT_EQ(-1, Get(2));
  EXPECT_EQ(2u, deleted_keys_.size());
}

TEST_F(CacheTest, NewIdIsDistinctAndStartsAtOne) {
  EXPECT_EQ(1u, cache_->NewId());
  std::set<uint64_t> ids{1};
  for (int i = 0; i < 1000; ++i) {
    EXPECT_TRUE(ids.insert(cache_->NewId()).second);
  }
  // Ids are per cache.
  std::unique_ptr<Cache> other(NewLRUCache(10));
  EXPECT_EQ(1u, other->NewId());
}

TEST_F(CacheTest, PruneKeepsPinnedEntries) {
  Put(1, 100);
  Put(2, 200);
  Put(3, 300);
  Cache::Handle* h = cache_->Lookup(IntKey(1));
  ASSERT_NE(nullptr, h);

  cache_->Prune();
  EXPECT_EQ(100, ValueToInt(cache_->Value(h)));
  EXPECT_EQ(100, Get(1));
  EXPECT_EQ(-1, Get(2));
  EXPECT_EQ(-1, Get(3));
  EXPECT_EQ(2u, deleted_keys_.size());
  EXPECT_EQ(1u, cache_->TotalCharge());

  cache_->Release(h);
  EXPECT_EQ(2u, deleted_keys_.size());  // Still cached after release.
  cache_->Prune();
  EXPECT_EQ(3u, deleted_keys_.size());
  EXPECT_EQ(0u, cache_->TotalCharge());
}

TEST_F(CacheTest, TotalChargeTracksInsertsAndRemovals) {
  EXPECT_EQ(0u, cache_->TotalCharge());
  Put(1, 1, 10);
  Put(2, 2, 20);
  Put(3, 3, 30);
  EXPECT_EQ(60u, cache_->TotalCharge());
  Put(2, 22, 5);  // Replacement swaps the charge.
  EXPECT_EQ(45u, cache_->TotalCharge());
  Erase(1);
  EXPECT_EQ(35u, cache_->TotalCharge());

  // Pinned entries are charged until erased, even if over capacity.
  Reset(kShards);  // One unit per shard.
  Cache::Handle* h = PutPinned(7, 7, 50);
  EXPECT_EQ(50u, cache_->TotalCharge());
  Erase(7);
  EXPECT_EQ(0u, cache_->TotalCharge());
  cache_->Release(h);
}

TEST_F(CacheTest, DestructionDeletesRemainingEntriesOnce) {
  // 100 unit entries spread over shards of 63 units each: none evicted.
  for (int i = 0; i < 100; ++i) Put(i, i + 1000);
  EXPECT_TRUE(deleted_keys_.empty());
  cache_.reset();
  ASSERT_EQ(100u, deleted_keys_.size());
  std::set<int> unique(deleted_keys_.begin(), deleted_keys_.end());
  EXPECT_EQ(100u, unique.size());
}

TEST_F(CacheTest, LongAndEmptyKeys) {
  std::string long_key(10000, 'k');
  auto noop = [](const Slice&, void*) {};
  Cache::Handle* h = cache_->Insert(long_key, IntValue(5), 1, noop);
  cache_->Release(h);
  h = cache_->Insert(Slice(), IntValue(6), 1, noop);
  cache_->Release(h);

  h = cache_->Lookup(long_key);
  ASSERT_NE(nullptr, h);
  EXPECT_EQ(5, ValueToInt(cache_->Value(h)));
  cache_->Release(h);
  h = cache_->Lookup(Slice());
  ASSERT_NE(nullptr, h);
  EXPECT_EQ(6, ValueToInt(cache_->Value(h)));
  cache_->Release(h);
  EXPECT_EQ(nullptr, cache_->Lookup(std::string(9999, 'k')));
}

// --- Concurrency -----------------------------------------------------------

// One inserted value; the deleter counts how often it ran.
struct TrackedValue {
  int key;
  std::atomic<int> deletions{0};
};

void CountDeletion(const Slice& key, void* value) {
  auto* tracked = static_cast<TrackedValue*>(value);
  // A mismatch would mean the cache paired a value with the wrong key.
  if (KeyToInt(key) == tracked->key)
    tracked->deletions.fetch_add(1);
  else
    tracked->deletions.fetch_add(1000);
}

TEST(CacheConcurrencyTest, RandomOperationsKeepInvariants) {
  constexpr size_t kCapacity = 256;  // A multiple of the shard count.
  constexpr int kThreads = 4;
  constexpr int kOpsPerThread = 50000;
  constexpr int kKeySpace = 600;
  std::unique_ptr<Cache> cache(NewLRUCache(kCapacity));

  std::vector<std::vector<std::unique_ptr<TrackedValue>>> created(kThreads);
  std::atomic<int> bad_lookups{0};

  auto worker = [&](int thread_index) {
    Random rnd(1000 + thread_index);
    std::vector<Cache::Handle*> held;
    for (int op = 0; op < kOpsPerThread; ++op) {
      int key = static_cast<int>(rnd.Uniform(kKeySpace));
      switch (rnd.Uniform(4)) {
        case 0: {  // Insert, sometimes keeping the handle.
          auto value = std::make_unique<TrackedValue>();
          value->key = key;
          Cache::Handle* h = cache->Insert(IntKey(key), value.get(),
                                           1 + rnd.Uniform(4), &CountDeletion);
          created[thread_index].push_back(std::move(value));
          held.push_back(h);
          break;
        }
        case 1: {  // Lookup, checking the pairing.
          Cache::Handle* h = cache->Lookup(IntKey(key));
          if (h != nullptr) {
            auto* value = static_cast<TrackedValue*>(cache->Value(h));
            if (value->key != key || value->deletions.load() != 0) {
              bad_lookups.fetch_add(1);
            }
            held.push_back(h);
          }
          break;
        }
        case 2:
          cache->Erase(IntKey(key));
          break;
        default:
          break;
      }
      // Keep a handful of handles pinned; release at random.
      while (held.size() > 8 || (!held.empty() && rnd.OneIn(2))) {
        size_t victim = rnd.Uniform(static_cast<int>(held.size()));
        cache->Release(held[victim]);
        held[victim] = held.back();
        held.pop_back();
      }
      if (op % 5000 == 0) cache->Prune();
    }
    for (Cache::Handle* h : held) cache->Release(h);
  };

  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (std::thread& t : threads) t.join();

  EXPECT_EQ(0, bad_lookups.load());
  // Nothing is pinned now, so the cache must be within its capacity.
  EXPECT_LE(cache->TotalCharge(), kCapacity);

  // Values no longer cached were deleted exactly once; cached ones not yet.
  size_t total = 0;
  for (auto& per_thread : created) {
    for (auto& value : per_thread) {
      int deletions = value->deletions.load();
      EXPECT_TRUE(deletions == 0 || deletions == 1) << deletions;
      ++total;
    }
  }
  EXPECT_GT(total, 0u);

  cache.reset();
  for (auto& per_thread : created) {
    for (auto& value : per_thread) {
      EXPECT_EQ(1, value->deletions.load()) << "key " << value->key;
    }
  }
}

}  // namespace
}  // namespace leveldb
