// Fixed amounts of work through the public API, for exact instruction counts
// under `valgrind --tool=callgrind` (wall-clock micro-benchmarks are noisy on
// shared machines). Built twice: ops_count (fork) and ops_count_upstream.
//
//   valgrind --tool=callgrind ./ops_count cache   # 1M cache Lookup+Release
//   valgrind --tool=callgrind ./ops_count bloom   # 1M Bloom misses
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "leveldb/cache.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"

namespace {

constexpr int kOps = 1000000;

void NoDelete(const leveldb::Slice&, void*) {}

void EncodeKey(int k, char* key) {
  std::memcpy(key, &k, 4);
  std::memcpy(key + 4, &k, 4);
}

int CacheHits() {
  leveldb::Cache* cache = leveldb::NewLRUCache(1 << 20);
  char key[8];
  for (int i = 0; i < 1024; i++) {
    EncodeKey(i, key);
    cache->Release(cache->Insert(leveldb::Slice(key, 8), nullptr, 1, NoDelete));
  }
  unsigned long hits = 0;
  for (int i = 0; i < kOps; i++) {
    EncodeKey(i & 1023, key);
    leveldb::Cache::Handle* h = cache->Lookup(leveldb::Slice(key, 8));
    if (h != nullptr) {
      hits++;
      cache->Release(h);
    }
  }
  std::printf("cache hits: %lu\n", hits);
  delete cache;
  return hits == kOps ? 0 : 1;
}

int BloomMisses() {
  const leveldb::FilterPolicy* policy = leveldb::NewBloomFilterPolicy(10);
  std::vector<std::string> keys(10000);
  std::vector<leveldb::Slice> slices(keys.size());
  for (size_t i = 0; i < keys.size(); i++) {
    keys[i] = "key" + std::to_string(i);
    slices[i] = keys[i];
  }
  std::string filter;
  policy->CreateFilter(slices.data(), static_cast<int>(slices.size()), &filter);
  unsigned long maybe = 0;
  char buf[32];
  for (int i = 0; i < kOps; i++) {
    int len = std::snprintf(buf, sizeof(buf), "miss%d", i);
    maybe += policy->KeyMayMatch(leveldb::Slice(buf, len), filter) ? 1 : 0;
  }
  std::printf("bloom false positives: %lu of %d\n", maybe, kOps);
  delete policy;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "cache") == 0) return CacheHits();
  if (argc == 2 && std::strcmp(argv[1], "bloom") == 0) return BloomMisses();
  std::fprintf(stderr, "usage: %s cache|bloom\n", argv[0]);
  return 2;
}
