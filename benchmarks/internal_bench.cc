// Micro-benchmarks of the fork's internals (Google Benchmark):
//   BM_Crc32c*   CRC32C over 4 KiB and 64 KiB buffers, the dispatching entry
//                point (SSE4.2 when available) and the portable loop;
//   BM_Block*    building a block of N entries, Seek to random keys in it;
//   BM_*Get      one table's point lookups through TableCache as DBImpl::Get
//                probes it: an elastic table with 0, 1 or 6 units loaded
//                per segment against a Bloom table, in a MemEnv with a block
//                cache (CPU cost of the lookup path, not I/O);
//   BM_TableBuild writing each kind of table.
//
//   internal_bench --benchmark_filter=Get
#include <benchmark/benchmark.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/table_cache.h"
#include "elastic/mq_schedule.h"
#include "leveldb/cache.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/helpers/memenv.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/elastic/filter_group.h"
#include "table/format.h"
#include "table/key_lookup.h"
#include "util/crc32c.h"
#include "util/epoch.h"
#include "util/hash64.h"
#include "util/io_stats.h"
#include "util/random.h"

namespace leveldb {
namespace {

// ---- CRC32C ----

std::string RandomBuffer(size_t size) {
  Random rnd(1234);
  std::string buf(size, '\0');
  for (char& c : buf) c = static_cast<char>(rnd.Uniform(256));
  return buf;
}

template <uint32_t (*kExtend)(uint32_t, const char*, size_t)>
void RunCrc32c(benchmark::State& state) {
  const std::string buf = RandomBuffer(static_cast<size_t>(state.range(0)));
  uint32_t crc = 0;
  for (auto _ : state) {
    crc = kExtend(crc, buf.data(), buf.size());
    benchmark::DoNotOptimize(crc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(buf.size()));
}

void BM_Crc32cExtend(benchmark::State& state) {
  RunCrc32c<crc32c::Extend>(state);
}
BENCHMARK(BM_Crc32cExtend)->Arg(4 << 10)->Arg(64 << 10);

void BM_Crc32cPortable(benchmark::State& state) {
  RunCrc32c<crc32c::ExtendPortable>(state);
}
BENCHMARK(BM_Crc32cPortable)->Arg(4 << 10)->Arg(64 << 10);

// ---- Blocks ----

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
  Options options;
  BlockBuilder builder(&options);
  size_t bytes = 0;
  for (auto _ : state) {
    builder.Reset();
    for (const std::string& key : keys) builder.Add(key, Value());
    Slice block = builder.Finish();
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
  Options options;
  BlockBuilder builder(&options);
  for (const std::string& key : keys) builder.Add(key, Value());
  const std::string contents_bytes = builder.Finish().ToString();
  BlockContents contents;
  contents.data = contents_bytes;
  Block block(contents);
  std::unique_ptr<Iterator> it(block.NewIterator(BytewiseComparator()));

  Random rnd(301);
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

// ---- Tables through TableCache ----

constexpr int kKeys = 200000;
constexpr int kLookups = 1 << 16;
const char kDbName[] = "/elastic_table_bench";

// Even numbers are stored, odd ones are the absent keys between them.
std::string UserKey(uint64_t i) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016" PRIu64, i * 2);
  return std::string(buf, 16);
}

// A string in memory that is also a WritableFile.
class StringFile : public WritableFile {
 public:
  explicit StringFile(std::string* out) : out_(out) {}
  Status Append(const Slice& data) override {
    out_->append(data.data(), data.size());
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }

 private:
  std::string* out_;
};

std::string BuildTable(const Options& options) {
  std::string bytes;
  StringFile file(&bytes);
  TableBuilder builder(options, &file);
  const std::string value(100, 'v');
  for (int i = 0; i < kKeys; ++i) {
    builder.Add(InternalKey(UserKey(i), 1, kTypeValue).Encode(), value);
  }
  if (!builder.Finish().ok()) std::abort();
  return bytes;
}

// Bytes of one unit per segment, from the table's elastic index.
uint64_t OneUnitPerSegmentBytes(const std::string& file) {
  Slice footer_input(file.data() + file.size() - Footer::kEncodedLength,
                     Footer::kEncodedLength);
  Footer footer;
  if (!footer.DecodeFrom(&footer_input).ok()) std::abort();
  auto read = [&file](const BlockHandle& h) {
    return Slice(file.data() + h.offset(), h.size());  // stored uncompressed
  };
  BlockContents contents;
  contents.data = read(footer.metaindex_handle());
  Block metaindex(contents);
  BlockIterator it(BytewiseComparator(), &metaindex);
  it.Seek(kElasticIndexBlockName);
  if (!it.Valid()) std::abort();
  Slice handle_value = it.value();
  BlockHandle handle;
  if (!handle.DecodeFrom(&handle_value).ok()) std::abort();
  ElasticIndex index;
  if (!ElasticIndex::Decode(read(handle), file.size(), &index).ok()) {
    std::abort();
  }
  return index.region_size() - index.num_segments() * kBlockTrailerSize;
}

// One table and everything needed to probe it.
class Setup {
 public:
  // units < 0: a Bloom table of -units bits per key; otherwise an elastic
  // table with `units` units per segment in memory.
  explicit Setup(int units)
      : env_(NewMemEnv(Env::Default())),
        icmp_(BytewiseComparator()),
        block_cache_(NewLRUCache(size_t{256} << 20)) {
    options_.env = env_.get();
    options_.comparator = &icmp_;
    options_.block_cache = block_cache_.get();
    ElasticFilterOptions eo;
    eo.initial_units = units < 0 ? 0 : units;
    // Nothing expires: units stay put (2^40 Gets; the aging period is a
    // multiple of it, so a much larger value would overflow).
    eo.lifetime = uint64_t{1} << 40;
    if (units < 0) {
      user_policy_.reset(NewBloomFilterPolicy(-units));
    } else {
      user_policy_.reset(NewElasticFilterPolicy(eo));
    }
    policy_ = std::make_unique<InternalFilterPolicy>(user_policy_.get());
    options_.filter_policy = policy_.get();

    const std::string bytes = BuildTable(options_);
    size_ = bytes.size();
    if (!WriteStringToFile(env_.get(), bytes, TableFileName(kDbName, 1)).ok()) {
      std::abort();
    }
    if (units >= 0) {
      MQScheduleOptions mo;
      mo.elastic = eo;
      // Exactly `units` units per segment fit (0: a budget of 0 bytes).
      mo.elastic.memory_bits_per_key = 0;
      mo.elastic.memory_budget_bytes = units * OneUnitPerSegmentBytes(bytes);
      mo.stats = &stats_;
      mqs_ = std::make_unique<MQSchedule>(mo);
    }
    cache_ = std::make_unique<TableCache>(kDbName, options_, 10, mqs_.get());

    for (int i = 0; i < kLookups; ++i) {
      // Odd multipliers spread the lookups over the whole table.
      const uint64_t n = (static_cast<uint64_t>(i) * 40503u) % kKeys;
      present_.push_back(UserKey(n));
      char buf[17];
      std::snprintf(buf, sizeof(buf), "%016" PRIu64, n * 2 + 1);
      absent_.emplace_back(buf, 16);
    }
    for (auto* keys : {&present_, &absent_}) {
      std::vector<std::string>& lookup =
          keys == &present_ ? present_lookup_ : absent_lookup_;
      for (const std::string& k : *keys) {
        lookup.push_back(InternalKey(k, kMaxSequenceNumber, kValueTypeForSeek)
                             .Encode()
                             .ToString());
      }
    }
  }

  ~Setup() {
    cache_.reset();  // detaches the table before the schedule goes
    mqs_.reset();
  }

  // One Get as DBImpl does it for a single table.
  bool Get(int i, bool absent) {
    const std::string& user = absent ? absent_[i] : present_[i];
    const std::string& lookup = absent ? absent_lookup_[i] : present_lookup_[i];
    std::string value;
    KeyLookup probe(BytewiseComparator(), lookup,
                    KeyHash64(user.data(), user.size()), &value, &stats_);
    if (mqs_ != nullptr) mqs_->layer()->Tick();
    cache_->Get(read_options_, 1, size_, &probe);
    return probe.outcome() == KeyLookup::Outcome::kFound;
  }

  IoStats& stats() { return stats_; }

 private:
  std::unique_ptr<Env> env_;
  InternalKeyComparator icmp_;
  std::unique_ptr<Cache> block_cache_;
  std::unique_ptr<const FilterPolicy> user_policy_;
  std::unique_ptr<InternalFilterPolicy> policy_;
  Options options_;
  ReadOptions read_options_;
  IoStats stats_;
  std::unique_ptr<MQSchedule> mqs_;
  std::unique_ptr<TableCache> cache_;
  uint64_t size_ = 0;
  std::vector<std::string> present_, absent_;
  std::vector<std::string> present_lookup_, absent_lookup_;
};

Setup* GetSetup(int units) {
  static std::map<int, std::unique_ptr<Setup>>* setups =
      new std::map<int, std::unique_ptr<Setup>>;
  auto& slot = (*setups)[units];
  if (slot == nullptr) slot = std::make_unique<Setup>(units);
  return slot.get();
}

void RunGets(benchmark::State& state, int units) {
  const bool absent = state.range(1) != 0;
  Setup* setup = GetSetup(units);
  setup->stats().Reset();
  int i = 0;
  int64_t found = 0;
  for (auto _ : state) {
    found += setup->Get(i, absent) ? 1 : 0;
    i = (i + 1) & (kLookups - 1);
  }
  const double gets = static_cast<double>(state.iterations());
  IoStats& st = setup->stats();
  state.counters["found"] = static_cast<double>(found) / gets;
  state.counters["block_reads"] =
      static_cast<double>(st.data_block_reads.load()) / gets;
  state.counters["rejected"] =
      static_cast<double>(st.filter_rejections.load()) / gets;
}

// Arg 0: units loaded per segment; arg 1: 1 for absent keys.
void BM_ElasticGet(benchmark::State& state) {
  RunGets(state, static_cast<int>(state.range(0)));
}
BENCHMARK(BM_ElasticGet)
    ->ArgNames({"units", "absent"})
    ->ArgsProduct({{0, 1, 6}, {0, 1}});

// Arg 0: Bloom bits per key; arg 1: 1 for absent keys.
void BM_BloomGet(benchmark::State& state) {
  RunGets(state, -static_cast<int>(state.range(0)));
}
BENCHMARK(BM_BloomGet)
    ->ArgNames({"bits", "absent"})
    ->ArgsProduct({{4, 10}, {0, 1}});

// Writing a table: arg 0 is 0 (no filter), 1 (Bloom, 10 bits) or 2
// (ElasticBF defaults: 6 units of 4 bits, built on the filter pool).
void BM_TableBuild(benchmark::State& state) {
  InternalKeyComparator icmp(BytewiseComparator());
  std::unique_ptr<const FilterPolicy> user_policy;
  if (state.range(0) == 1) user_policy.reset(NewBloomFilterPolicy(10));
  if (state.range(0) == 2) {
    user_policy.reset(NewElasticFilterPolicy(ElasticFilterOptions()));
  }
  std::unique_ptr<InternalFilterPolicy> policy;
  Options options;
  options.comparator = &icmp;
  if (user_policy != nullptr) {
    policy = std::make_unique<InternalFilterPolicy>(user_policy.get());
    options.filter_policy = policy.get();
  }
  size_t bytes = 0;
  for (auto _ : state) bytes = BuildTable(options).size();
  state.SetItemsProcessed(state.iterations() * kKeys);
  state.counters["file_MB"] = static_cast<double>(bytes) / (1 << 20);
}
BENCHMARK(BM_TableBuild)
    ->ArgName("filter")
    ->DenseRange(0, 2)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace leveldb

BENCHMARK_MAIN();
