// Table block builder and reader (internal headers): building a block of N
// entries, and Seek to random existing keys in it.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "leveldb/comparator.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/format.h"
#include "util/random.h"

namespace {

// N sorted 16-byte keys with long shared prefixes, as in real tables.
std::vector<std::string> MakeKeys(int n) {
  std::vector<std::string> keys;
  keys.reserve(static_cast<size_t>(n));
  char buf[32];
  for (int i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof(buf), "user%012d", i * 3);
    keys.emplace_back(buf, 16);
  }
  return keys;
}

const std::string& Value() {
  static const std::string* value = new std::string(100, 'v');
  return *value;
}

void BM_BlockBuild(benchmark::State& state) {
  const std::vector<std::string> keys =
      MakeKeys(static_cast<int>(state.range(0)));
  leveldb::Options options;
  leveldb::BlockBuilder builder(&options);
  size_t bytes = 0;
  for (auto _ : state) {
    builder.Reset();
    for (const std::string& key : keys) builder.Add(key, Value());
    leveldb::Slice block = builder.Finish();
    bytes += block.size();
    benchmark::DoNotOptimize(block.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(keys.size()));
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_BlockBuild)->Arg(16)->Arg(128)->Arg(1024);

void BM_BlockSeek(benchmark::State& state) {
  const std::vector<std::string> keys =
      MakeKeys(static_cast<int>(state.range(0)));
  leveldb::Options options;
  leveldb::BlockBuilder builder(&options);
  for (const std::string& key : keys) builder.Add(key, Value());
  const std::string contents_bytes = builder.Finish().ToString();
  leveldb::BlockContents contents;
  contents.data = contents_bytes;
  leveldb::Block block(contents);
  std::unique_ptr<leveldb::Iterator> it(
      block.NewIterator(leveldb::BytewiseComparator()));

  leveldb::Random rnd(301);
  int64_t wrong = 0;
  for (auto _ : state) {
    const std::string& target =
        keys[rnd.Uniform(static_cast<int>(keys.size()))];
    it->Seek(target);
    if (!it->Valid() || it->key() != target) ++wrong;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  if (wrong != 0) state.SkipWithError("Seek missed an existing key");
}
BENCHMARK(BM_BlockSeek)->Arg(16)->Arg(128)->Arg(1024);

}  // namespace

BENCHMARK_MAIN();
