// Sorted-table writer and point lookups through the public API only
// (TableBuilder, Table::Open, Table::NewIterator), so the same source
// measures the fork and upstream LevelDB. Files live in /tmp.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/status.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"

namespace {

constexpr size_t kKeySize = 16;
constexpr size_t kValueSize = 100;

std::string KeyAt(uint64_t i) {
  char buf[kKeySize + 1];
  // Spread the keys so that neighbours differ in more than the last byte.
  std::snprintf(buf, sizeof(buf), "%016" PRIu64, i * 2654435761u % 1000000007u);
  return std::string(buf, kKeySize);
}

// Values are half random, half repeated, so snappy halves them (roughly).
std::string ValueAt(uint64_t i) {
  std::string half(kValueSize / 2, '\0');
  uint64_t s = i * 6364136223846793005ull + 1442695040888963407ull;
  for (char& c : half) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    c = static_cast<char>(' ' + (s >> 33) % 95);
  }
  return half + half;
}

std::string TablePath(const char* tag, int64_t n) {
  return "/tmp/leveldb_table_bench_" + std::to_string(getpid()) + "_" + tag +
         "_" + std::to_string(n) + ".ldb";
}

// Keys i = 0..n-1 map to KeyAt(i), which is not monotone; a table needs them
// sorted, so write them in order of the key text: the permutation is the
// sort of KeyAt over the index range.
std::vector<std::string> SortedKeys(int64_t n) {
  std::vector<std::string> keys;
  keys.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    keys.push_back(KeyAt(static_cast<uint64_t>(i)));
  std::sort(keys.begin(), keys.end());
  return keys;
}

leveldb::Status WriteTable(const leveldb::Options& options,
                           const std::string& path,
                           const std::vector<std::string>& keys) {
  leveldb::WritableFile* raw = nullptr;
  leveldb::Status s = options.env->NewWritableFile(path, &raw);
  if (!s.ok()) return s;
  std::unique_ptr<leveldb::WritableFile> file(raw);
  leveldb::TableBuilder builder(options, file.get());
  for (size_t i = 0; i < keys.size(); ++i) builder.Add(keys[i], ValueAt(i));
  s = builder.Finish();
  if (s.ok()) s = file->Sync();
  if (s.ok()) s = file->Close();
  return s;
}

void BM_TableWrite(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::vector<std::string> keys = SortedKeys(n);
  leveldb::Options options;
  const std::string path = TablePath("write", n);
  for (auto _ : state) {
    leveldb::Status s = WriteTable(options, path, keys);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n *
                          static_cast<int64_t>(kKeySize + kValueSize));
  options.env->RemoveFile(path);
}
BENCHMARK(BM_TableWrite)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// Args: entry count, bits per key of the Bloom filter (0 = no filter).
// Table iterators do not consult the filter, so the filter only changes the
// table's layout and open cost; the lookup itself is index + data block.
void BM_TableSeek(benchmark::State& state) {
  const int64_t n = state.range(0);
  const int bloom_bits = static_cast<int>(state.range(1));
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      bloom_bits > 0 ? leveldb::NewBloomFilterPolicy(bloom_bits) : nullptr);
  leveldb::Options options;
  options.filter_policy = policy.get();
  const std::vector<std::string> keys = SortedKeys(n);
  const std::string path = TablePath("seek", n);
  leveldb::Status s = WriteTable(options, path, keys);
  uint64_t size = 0;
  if (s.ok()) s = options.env->GetFileSize(path, &size);
  leveldb::RandomAccessFile* raw = nullptr;
  if (s.ok()) s = options.env->NewRandomAccessFile(path, &raw);
  std::unique_ptr<leveldb::RandomAccessFile> file(raw);
  leveldb::Table* table_raw = nullptr;
  if (s.ok()) s = leveldb::Table::Open(options, file.get(), size, &table_raw);
  std::unique_ptr<leveldb::Table> table(table_raw);
  if (!s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    options.env->RemoveFile(path);
    return;
  }

  uint64_t r = 88172645463325252ull;
  int64_t wrong = 0;
  const leveldb::ReadOptions read_options;
  for (auto _ : state) {
    r ^= r << 13;
    r ^= r >> 7;
    r ^= r << 17;
    const std::string& target = keys[r % keys.size()];
    std::unique_ptr<leveldb::Iterator> it(table->NewIterator(read_options));
    it->Seek(target);
    if (!it->Valid() || it->key() != target) ++wrong;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  if (wrong != 0) state.SkipWithError("Seek missed an existing key");
  table.reset();
  file.reset();
  options.env->RemoveFile(path);
}
BENCHMARK(BM_TableSeek)
    ->Args({10000, 0})
    ->Args({10000, 10})
    ->Args({100000, 0})
    ->Args({100000, 10});

}  // namespace

BENCHMARK_MAIN();
