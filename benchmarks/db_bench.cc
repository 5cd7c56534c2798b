// db_bench: end-to-end throughput and latency of a database through its
// public API (db_bench --help lists the flags and benchmarks).
//
// The program uses nothing but the public headers, so the same source builds
// against this library and (with LEVELDB_UPSTREAM_BUILD defined) against the
// system's LevelDB; benchmarks/compare_upstream.sh runs the two side by side.
// ElasticBF and direct I/O exist only in this fork; the upstream build
// rejects --elastic_bf=1 and implements --direct_io=1 locally with the
// public Env API (common/direct_io_env.h).
//
// Besides LevelDB's "name : X micros/op" lines, read benchmarks report table
// reads counted by a wrapper Env (TableReadCounters) and read syscalls
// counted by the kernel (common/proc_stats.h), a count that works for any
// storage library alike; scripts/ parse both.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>  // NOLINT
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench_timeline.h"
#include "common/client_threads.h"
#include "common/crc32c.h"
#include "common/direct_io_env.h"
#include "common/flags.h"
#include "common/latency_histogram.h"
#include "common/proc_stats.h"
#include "common/store_options.h"
#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "leveldb/write_batch.h"
#include "zipf_keys.h"

#if !defined(LEVELDB_UPSTREAM_BUILD)
#include "common/elastic_settings.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/io_stats.h"
#endif

#if __has_include(<snappy.h>) && !defined(DB_BENCH_NO_SNAPPY)
#include <snappy.h>
#define DB_BENCH_HAVE_SNAPPY 1
#endif

namespace {

using leveldb::Slice;
using leveldb::Status;

// ---- Flags ----

// What runs when --benchmarks is not given: the classic sequence, with an
// extra readrandom so compactions triggered by the writes can settle.
constexpr const char* kDefaultBenchmarks =
    "fillseq,fillsync,fillrandom,overwrite,readrandom,readrandom,readseq,"
    "readreverse,compact,readrandom,readseq,readreverse,fill100K,crc32c,"
    "snappycomp,snappyuncomp";

// The defaults; ParseFlags takes the database sizes from leveldb::Options
// and the bf_ ones from ElasticFilterOptions, which these mirror.
struct Flags {
  std::string benchmarks = kDefaultBenchmarks;
  int64_t num = 1000000;
  int64_t reads = -1;  // negative: --num
  int64_t threads = 1;
  int64_t value_size = 100;
  double compression_ratio = 0.5;
  bool histogram = false;
  int64_t write_buffer_size = 0;
  int64_t max_file_size = 0;
  int64_t block_size = 0;
  int64_t max_open_files = 0;  // --open_files
  int64_t cache_size = -1;     // negative: library default
  int64_t bloom_bits = -1;     // negative: no filter
  bool compression = true;
  bool use_existing_db = false;
  bool reuse_logs = false;
  std::string db;  // empty: <test dir>/dbbench
  bool elastic_bf = false;
  int64_t bf_bits_per_unit = 0;
  int64_t bf_units = 0;
  int64_t bf_segment_bytes = 0;
  double bf_memory_bits_per_key = 4;
  int64_t bf_memory_budget_bytes = 0;
  int64_t bf_lifetime = 0;
  int64_t bf_initial_units = 1;
  bool bf_inherit_hotness = false;
  std::string bf_unit_kind = "ribbon";
  int64_t bf_block_alignment = 0;
  bool direct_io = false;
  bool io_stats = false;
  bool fill_cache = true;
  int64_t timeline_ms = 0;
  int64_t block_bytes = 4096 + 5;  // blockreads: a block and its trailer
  double zipf = 0.99;
  double zero_lookup_ratio = 0.0;
  int64_t seed = 0;
  std::string key_dist = "zipf";
  double hot_data_fraction = 0.2;
  double hot_op_fraction = 0.8;
  double hot_range_start = 0.0;
  double insert_ratio = 0.05;
};

Flags FLAGS;

using bench::FlagType;

const std::vector<bench::Flag>& FlagTable() {
  static const std::vector<bench::Flag> table = {
      {"benchmarks", FlagType::kString, &FLAGS.benchmarks,
       "comma-separated benchmarks to run, in order"},
      {"num", FlagType::kInt, &FLAGS.num, "number of entries", 0},
      {"reads", FlagType::kInt, &FLAGS.reads, "reads (negative: --num)"},
      {"threads", FlagType::kInt, &FLAGS.threads, "threads per benchmark", 1},
      {"value_size", FlagType::kInt, &FLAGS.value_size, "bytes per value", 0},
      {"compression_ratio", FlagType::kDouble, &FLAGS.compression_ratio,
       "share of its size a value compresses to, in (0, 1]"},
      {"histogram", FlagType::kBool, &FLAGS.histogram, "latency histograms"},
      {"write_buffer_size", FlagType::kInt, &FLAGS.write_buffer_size,
       "Options::write_buffer_size", 1},
      {"max_file_size", FlagType::kInt, &FLAGS.max_file_size,
       "Options::max_file_size", 1},
      {"block_size", FlagType::kInt, &FLAGS.block_size, "Options::block_size",
       1},
      {"open_files", FlagType::kInt, &FLAGS.max_open_files,
       "Options::max_open_files (0: default)", 0},
      {"cache_size", FlagType::kInt, &FLAGS.cache_size,
       "block cache bytes (negative: default)"},
      {"bloom_bits", FlagType::kInt, &FLAGS.bloom_bits,
       "Bloom bits per key (negative: no filter)"},
      {"compression", FlagType::kBool, &FLAGS.compression, "snappy blocks"},
      {"use_existing_db", FlagType::kBool, &FLAGS.use_existing_db,
       "keep the database in --db"},
      {"reuse_logs", FlagType::kBool, &FLAGS.reuse_logs, "Options::reuse_logs"},
      {"db", FlagType::kString, &FLAGS.db, "database directory"},
      {"elastic_bf", FlagType::kBool, &FLAGS.elastic_bf,
       "ElasticBF filters (fork only; not with --bloom_bits)"},
      {"bf_bits_per_unit", FlagType::kInt, &FLAGS.bf_bits_per_unit,
       "ElasticFilterOptions::bits_per_unit", 0},
      {"bf_units", FlagType::kInt, &FLAGS.bf_units,
       "ElasticFilterOptions::units_per_segment", 0},
      {"bf_segment_bytes", FlagType::kInt, &FLAGS.bf_segment_bytes,
       "ElasticFilterOptions::segment_bytes", 0},
      {"bf_memory_bits_per_key", FlagType::kDouble,
       &FLAGS.bf_memory_bits_per_key,
       "ElasticFilterOptions::memory_bits_per_key"},
      {"bf_memory_budget_bytes", FlagType::kInt, &FLAGS.bf_memory_budget_bytes,
       "ElasticFilterOptions::memory_budget_bytes", 0},
      {"bf_lifetime", FlagType::kInt, &FLAGS.bf_lifetime,
       "ElasticFilterOptions::lifetime", 0},
      {"bf_initial_units", FlagType::kInt, &FLAGS.bf_initial_units,
       "ElasticFilterOptions::initial_units", 0},
      {"bf_inherit_hotness", FlagType::kBool, &FLAGS.bf_inherit_hotness,
       "ElasticFilterOptions::inherit_hotness"},
      {"bf_unit_kind", FlagType::kString, &FLAGS.bf_unit_kind,
       "ElasticFilterOptions::unit_kind: bloom or ribbon"},
      {"bf_block_alignment", FlagType::kInt, &FLAGS.bf_block_alignment,
       "ElasticFilterOptions::block_alignment: 0 or a power of two", 0},
      {"direct_io", FlagType::kBool, &FLAGS.direct_io, "O_DIRECT table reads"},
      {"io_stats", FlagType::kBool, &FLAGS.io_stats,
       "I/O, filter and memory figures after each benchmark"},
      {"fill_cache", FlagType::kBool, &FLAGS.fill_cache,
       "ReadOptions::fill_cache of the reads"},
      {"block_bytes", FlagType::kInt, &FLAGS.block_bytes,
       "blockreads: bytes per read", 1},
      {"timeline_ms", FlagType::kInt, &FLAGS.timeline_ms,
       "period of the 'timeline' lines (0: none; bench_timeline.h)", 0},
      {"zipf", FlagType::kDouble, &FLAGS.zipf, "Zipfian theta, in (0, 1)"},
      {"zero_lookup_ratio", FlagType::kDouble, &FLAGS.zero_lookup_ratio,
       "share of readzipf lookups for absent keys"},
      {"seed", FlagType::kInt, &FLAGS.seed, "seed of the key generators", 0},
      {"key_dist", FlagType::kString, &FLAGS.key_dist,
       "readzipf keys: zipf, ordered_zipf, hotspot or latest"},
      {"hot_data_fraction", FlagType::kDouble, &FLAGS.hot_data_fraction,
       "hotspot: share of the keys that are hot, in (0, 1]"},
      {"hot_op_fraction", FlagType::kDouble, &FLAGS.hot_op_fraction,
       "hotspot: share of the lookups on them, in (0, 1]"},
      {"hot_range_start", FlagType::kDouble, &FLAGS.hot_range_start,
       "hotspot: where the hot keys start, in [0, 1)"},
      {"insert_ratio", FlagType::kDouble, &FLAGS.insert_ratio,
       "readlatest: share of inserts, in [0, 1)"},
  };
  return table;
}

// The names --benchmarks takes (Benchmark::Specs).
std::vector<const char*> BenchmarkNames();

// Exits with `message` unless `ok`.
void Require(bool ok, const std::string& message) {
  if (ok) return;
  std::fprintf(stderr, "db_bench: %s (see --help)\n", message.c_str());
  std::exit(1);
}

void PrintFlagHelp() {
  std::printf("Usage: db_bench [--flag=value]...\n\nFlags:\n");
  bench::PrintFlags(FlagTable(), 22);
  std::printf("\nBenchmarks:");
  for (const char* name : BenchmarkNames()) std::printf(" %s", name);
  std::printf(
      "\n\nThe evaluation protocol (docs/direct-io.md) runs e.g.\n"
      "  --benchmarks=fillunique,readzipf --direct_io=1 --fill_cache=0 "
      "--open_files=100000\n  --zero_lookup_ratio=0.5 --io_stats=1\n");
}

#if !defined(LEVELDB_UPSTREAM_BUILD)
leveldb::ElasticFilterOptions ElasticOptionsFromFlags() {
  leveldb::ElasticFilterOptions options = bench::ElasticOptionsFrom(FLAGS);
  options.unit_kind = FLAGS.bf_unit_kind == "ribbon"
                          ? leveldb::ElasticFilterOptions::UnitKind::kRibbon
                          : leveldb::ElasticFilterOptions::UnitKind::kBloom;
  options.block_alignment = static_cast<size_t>(FLAGS.bf_block_alignment);
  return options;
}
#endif

void CheckElasticFlags() {
  if (!FLAGS.elastic_bf) return;
#if defined(LEVELDB_UPSTREAM_BUILD)
  Require(false, "--elastic_bf=1 is not available in upstream LevelDB");
#else
  Require(FLAGS.bloom_bits < 0,
          "--elastic_bf=1 and --bloom_bits are mutually exclusive");
  Require(FLAGS.bf_unit_kind == "bloom" || FLAGS.bf_unit_kind == "ribbon",
          "--bf_unit_kind must be bloom or ribbon, not '" + FLAGS.bf_unit_kind +
              "'");
  Status s = leveldb::ValidateElasticFilterOptions(ElasticOptionsFromFlags());
  Require(s.ok(), "bad ElasticBF flags: " + s.ToString());
#endif
}

void CheckFlagRanges() {
  auto in_unit = [](double x) { return x > 0.0 && x <= 1.0; };
  auto in_unit_open = [](double x) { return x >= 0.0 && x < 1.0; };
  zipf_keys::KeyDist dist;
  Require(zipf_keys::ParseKeyDist(FLAGS.key_dist, &dist),
          "--key_dist must be zipf, ordered_zipf, hotspot or latest, not '" +
              FLAGS.key_dist + "'");
  Require(in_unit(FLAGS.hot_data_fraction),
          "--hot_data_fraction must be in (0, 1]");
  Require(in_unit(FLAGS.hot_op_fraction),
          "--hot_op_fraction must be in (0, 1]");
  Require(in_unit_open(FLAGS.hot_range_start),
          "--hot_range_start must be in [0, 1)");
  Require(in_unit_open(FLAGS.insert_ratio), "--insert_ratio must be in [0, 1)");
  Require(in_unit(FLAGS.compression_ratio),
          "--compression_ratio must be in (0, 1]");
  Require(FLAGS.num <= INT32_MAX && FLAGS.reads <= INT32_MAX,
          "--num and --reads must fit in 31 bits");
  Require(FLAGS.threads <= 1024, "--threads must be at most 1024");
  Require(FLAGS.value_size <= (64 << 20),
          "--value_size must be at most 64 MiB");
  Require(FLAGS.zipf > 0.0 && FLAGS.zipf < 1.0, "--zipf must be in (0, 1)");
  Require(FLAGS.zero_lookup_ratio >= 0.0 && FLAGS.zero_lookup_ratio <= 1.0,
          "--zero_lookup_ratio must be in [0, 1]");
}

void ParseFlags(int argc, char** argv) {
  const leveldb::Options defaults;
  FLAGS.write_buffer_size = static_cast<int64_t>(defaults.write_buffer_size);
  FLAGS.max_file_size = static_cast<int64_t>(defaults.max_file_size);
  FLAGS.block_size = static_cast<int64_t>(defaults.block_size);
  FLAGS.max_open_files = defaults.max_open_files;
#if !defined(LEVELDB_UPSTREAM_BUILD)
  bench::SetElasticDefaults(leveldb::ElasticFilterOptions(), &FLAGS);
  FLAGS.bf_unit_kind = leveldb::ElasticFilterOptions().unit_kind ==
                               leveldb::ElasticFilterOptions::UnitKind::kRibbon
                           ? "ribbon"
                           : "bloom";
  FLAGS.bf_block_alignment =
      static_cast<int64_t>(leveldb::ElasticFilterOptions().block_alignment);
#endif
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      PrintFlagHelp();
      std::exit(0);
    }
    bool unknown = false;
    const std::string error = bench::ApplyFlag(FlagTable(), arg, &unknown);
    Require(error.empty(), error);
  }
  CheckFlagRanges();
  CheckElasticFlags();
  if (FLAGS.db.empty()) {
    std::string dir;
    Status s = leveldb::Env::Default()->GetTestDirectory(&dir);
    Require(s.ok(), "no --db given and " + s.ToString());
    FLAGS.db = dir + "/dbbench";
  }
}

// ---- Data generation ----

using zipf_keys::kKeySize;
using zipf_keys::Rng;
using zipf_keys::ScrambledZipfian;
using zipf_keys::SplitMix64;

using zipf_keys::KeyFormatter;  // keys zero-padded to 16 bytes

Slice AsSlice(std::string_view v) { return Slice(v.data(), v.size()); }

// The shared value pool (zipf_keys.h) at --compression_ratio.
zipf_keys::ValueSource Values(int64_t longest_value) {
  return zipf_keys::ValueSource(static_cast<size_t>(longest_value),
                                FLAGS.compression_ratio);
}

// ---- Table I/O accounting ----

// Set by every benchmark thread: reads issued by such a thread are
// foreground reads (a Get waiting for them); all others (compactions, the
// library's background threads, the main thread) are background reads.
thread_local bool t_benchmark_thread = false;

// Read() calls on table files and the bytes they returned, split by the
// kind of thread that issued them.
struct TableReadCounters {
  std::atomic<uint64_t> foreground_reads{0};
  std::atomic<uint64_t> foreground_bytes{0};
  std::atomic<uint64_t> foreground_nanos{0};  // time the Gets waited
  std::atomic<uint64_t> background_reads{0};
  std::atomic<uint64_t> background_bytes{0};

  void Reset() {
    foreground_reads = 0;
    foreground_bytes = 0;
    foreground_nanos = 0;
    background_reads = 0;
    background_bytes = 0;
  }
};

class CountingRandomAccessFile final : public leveldb::RandomAccessFile {
 public:
  CountingRandomAccessFile(leveldb::RandomAccessFile* target,
                           TableReadCounters* counters)
      : target_(target), counters_(counters) {}

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    const bool foreground = t_benchmark_thread;
    const auto start = foreground ? std::chrono::steady_clock::now()
                                  : std::chrono::steady_clock::time_point();
    Status s = target_->Read(offset, n, result, scratch);
    const uint64_t bytes = s.ok() ? result->size() : 0;
    constexpr auto kRelaxed = std::memory_order_relaxed;
    if (!foreground) {
      counters_->background_reads.fetch_add(1, kRelaxed);
      counters_->background_bytes.fetch_add(bytes, kRelaxed);
      return s;
    }
    const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now() - start);
    counters_->foreground_nanos.fetch_add(nanos.count(), kRelaxed);
    counters_->foreground_reads.fetch_add(1, kRelaxed);
    counters_->foreground_bytes.fetch_add(bytes, kRelaxed);
    return s;
  }

 private:
  const std::unique_ptr<leveldb::RandomAccessFile> target_;
  TableReadCounters* const counters_;
};

// Wraps the table files opened through `base` in CountingRandomAccessFile.
class CountingEnv final : public leveldb::EnvWrapper {
 public:
  explicit CountingEnv(leveldb::Env* base) : EnvWrapper(base) {}

  Status NewRandomAccessFile(const std::string& fname,
                             leveldb::RandomAccessFile** result) override {
    Status s = target()->NewRandomAccessFile(fname, result);
    if (s.ok() && bench::IsTableFile(fname)) {
      *result = new CountingRandomAccessFile(*result, &counters_);
    }
    return s;
  }

  TableReadCounters* counters() { return &counters_; }

 private:
  TableReadCounters counters_;
};

// ---- Filter memory ----

// The set of keys of [0, num) the database holds, maintained by this run's
// writes (one bit per key), so that filter memory can be reported per live
// key: --num random puts leave only about 63% of the keys distinct.
class LiveKeys {
 public:
  // Starts from an empty database with keys in [0, n).
  void ResetEmpty(uint64_t n) {
    size_ = n;
    words_.reset(new std::atomic<uint64_t>[(n + 63) / 64]());  // zeroed
    beyond_ = 0;
    known_ = true;
  }

  // The database existed before this run: its contents are unknown.
  void MarkUnknown() { known_ = false; }

  // Keys from n up are readlatest's, each inserted once: just counted.
  void Insert(uint64_t k) {
    if (known_ && k < size_) {
      words_[k / 64].fetch_or(uint64_t{1} << (k % 64),
                              std::memory_order_relaxed);
    } else if (known_) {
      beyond_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  void Erase(uint64_t k) {
    if (known_ && k < size_) {
      words_[k / 64].fetch_and(~(uint64_t{1} << (k % 64)),
                               std::memory_order_relaxed);
    }
  }

  bool known() const { return known_; }

  uint64_t Count() const {
    uint64_t count = beyond_.load();
    for (uint64_t i = 0; known_ && i < (size_ + 63) / 64; i++) {
      count += static_cast<uint64_t>(__builtin_popcountll(words_[i].load()));
    }
    return count;
  }

 private:
  bool known_ = false;
  uint64_t size_ = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> words_;
  std::atomic<uint64_t> beyond_{0};
};

bool ConsumeVarint64(Slice* in, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && !in->empty(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>((*in)[0]);
    in->remove_prefix(1);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

// The little-endian integer of `bytes` bytes at p.
uint64_t DecodeLittleEndian(const char* p, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; i--) {
    value = (value << 8) | static_cast<uint8_t>(p[i]);
  }
  return value;
}

// Exactly n bytes of `file` at `offset`.
bool ReadExact(const leveldb::RandomAccessFile& file, uint64_t offset, size_t n,
               std::string* out) {
  std::string scratch(n, '\0');
  Slice got;
  if (!file.Read(offset, n, &got, &scratch[0]).ok() || got.size() != n) {
    return false;
  }
  out->assign(got.data(), n);
  return true;
}

// Bytes of standard filter blocks ("filter.<policy>" entries of the
// metaindex) in one table file, read straight from the LevelDB table
// format: footer -> metaindex block -> handles. The block is what both
// libraries load into memory when the table is opened (all of it, for as
// long as the table stays open). Adds each block's size to
// (*bytes_by_name)[metaindex key]. Returns false if the file cannot be
// parsed (no footer yet, a compressed metaindex without snappy, ...).
bool FilterBlockBytes(leveldb::Env* env, const std::string& fname,
                      std::map<std::string, uint64_t>* bytes_by_name) {
  constexpr size_t kFooterSize = 48;
  constexpr uint64_t kMagic = 0xdb4775248b80fb57ull;
  uint64_t file_size = 0;
  leveldb::RandomAccessFile* raw = nullptr;
  if (!env->GetFileSize(fname, &file_size).ok() || file_size < kFooterSize ||
      !env->NewRandomAccessFile(fname, &raw).ok()) {
    return false;
  }
  std::unique_ptr<leveldb::RandomAccessFile> file(raw);
  std::string footer, raw_block, block;
  uint64_t meta_offset, meta_size;
  if (!ReadExact(*file, file_size - kFooterSize, kFooterSize, &footer) ||
      DecodeLittleEndian(&footer[40], 8) != kMagic) {
    return false;
  }
  Slice handles(footer.data(), 40);
  // The block and its 5-byte trailer (compression type, checksum).
  if (!ConsumeVarint64(&handles, &meta_offset) ||
      !ConsumeVarint64(&handles, &meta_size) || meta_size > file_size ||
      meta_offset > file_size - meta_size || meta_size + 5 > (64u << 20) ||
      !ReadExact(*file, meta_offset, meta_size + 5, &raw_block)) {
    return false;
  }
  const char type = raw_block[meta_size];
  if (type == 0) {
    block = raw_block.substr(0, meta_size);
  } else {
#if defined(DB_BENCH_HAVE_SNAPPY)
    if (type != 1 || !snappy::Uncompress(raw_block.data(), meta_size, &block)) {
      return false;
    }
#else
    return false;
#endif
  }

  // Entries: varint shared, varint non-shared, varint value length, key
  // delta, value; then the restart array and its length.
  if (block.size() < 4) return false;
  const uint64_t restarts = DecodeLittleEndian(&block[block.size() - 4], 4);
  if (restarts > (block.size() - 4) / 4) return false;
  Slice entries(block.data(), block.size() - 4 - 4 * size_t{restarts});
  std::string key;
  std::map<std::string, uint64_t> found;  // merged only if all parses
  while (!entries.empty()) {
    uint64_t shared, non_shared, value_length;
    if (!ConsumeVarint64(&entries, &shared) ||
        !ConsumeVarint64(&entries, &non_shared) ||
        !ConsumeVarint64(&entries, &value_length) || shared > key.size() ||
        non_shared > entries.size() ||
        value_length > entries.size() - non_shared) {
      return false;
    }
    key.resize(shared);
    key.append(entries.data(), non_shared);
    entries.remove_prefix(non_shared);
    Slice value(entries.data(), value_length);
    entries.remove_prefix(value_length);
    if (Slice(key).starts_with("filter.")) {
      uint64_t offset, size;
      if (!ConsumeVarint64(&value, &offset) ||
          !ConsumeVarint64(&value, &size)) {
        return false;
      }
      found[key] += size;
    }
  }
  for (const auto& entry : found) (*bytes_by_name)[entry.first] += entry.second;
  return true;
}

// ---- Measurements ----

// The samples over roughly logarithmic ranges of microseconds (1, 2, ...,
// 9, 10, 12, ..., 18, 20, 25, ...), one bar per range that holds any.
std::string HistogramBars(const bench::LatencyHistogram& h) {
  static const std::vector<double> limits = [] {
    const double steps[] = {1,   1.2, 1.4, 1.6, 1.8, 2, 2.5, 3,
                            3.5, 4,   4.5, 5,   6,   7, 8,   9};
    std::vector<double> v;
    for (double decade = 1; decade < 1e10; decade *= 10) {
      for (double step : steps) {
        const double limit = std::round(step * decade);
        if (v.empty() || limit > v.back()) v.push_back(limit);
      }
    }
    return v;
  }();
  std::vector<uint64_t> rows(limits.size() + 1, 0);
  for (int b = 0; b < bench::LatencyHistogram::BucketCount(); ++b) {
    // A bucket counts in the range of its top: samples are whole microseconds.
    const double top = bench::LatencyHistogram::BucketHigh(b) / 1e3;
    rows[std::upper_bound(limits.begin(), limits.end(), top) -
         limits.begin()] += h.bucket(b);
  }
  std::string out;
  uint64_t cumulative = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r] == 0) continue;
    cumulative += rows[r];
    const double share = 100.0 * rows[r] / h.count();
    char line[120];
    std::snprintf(
        line, sizeof(line), "[ %9.0f, %9.0f ) %9" PRIu64 " %7.3f%% %7.3f%% ",
        r == 0 ? 0.0 : limits[r - 1], r < limits.size() ? limits[r] : 1e10,
        rows[r], share, 100.0 * cumulative / h.count());
    out += line + std::string(static_cast<size_t>(share / 5 + 0.5), '#') + "\n";
  }
  return out;
}

// --histogram's report of one benchmark, in microseconds, laid out as
// LevelDB's db_bench prints it (scripts parse these lines).
std::string HistogramText(const bench::LatencyHistogram& h) {
  if (h.count() == 0) return "(no samples)\n";
  char line[200];
  std::snprintf(line, sizeof(line),
                "Count: %" PRIu64
                "  Average: %.4f  StdDev: %.2f\n"
                "Min: %.4f  Median: %.4f  Max: %.4f\n"
                "Percentiles: P50: %.2f P75: %.2f P99: %.2f P99.9: %.2f "
                "P99.99: %.2f\n",
                h.count(), h.Average() / 1e3, h.StdDev() / 1e3, h.min() / 1e3,
                h.Percentile(50) / 1e3, h.max() / 1e3, h.Percentile(50) / 1e3,
                h.Percentile(75) / 1e3, h.Percentile(99) / 1e3,
                h.Percentile(99.9) / 1e3, h.Percentile(99.99) / 1e3);
  return line + std::string(60, '-') + "\n" + HistogramBars(h);
}

double NowMicros() {
  return static_cast<double>(leveldb::Env::Default()->NowMicros());
}

// Progress lines get sparser as a run goes on: about twenty per decade.
int64_t ProgressStep(int64_t done) {
  int64_t decade = 1;
  while (decade * 10 <= done) decade *= 10;
  return std::max<int64_t>(100, decade / 2);
}

// What one thread measured during one benchmark.
class Stats {
 public:
  // Starts over from now (also unhooks ShareProgress).
  void Start() {
    *this = Stats();
    start_ = last_op_finish_ = finish_ = NowMicros();
  }

  void Stop() {
    finish_ = NowMicros();
    seconds_ = (finish_ - start_) * 1e-6;
  }

  void Merge(const Stats& other) {
    hist_.Merge(other.hist_);
    done_ += other.done_;
    bytes_ += other.bytes_;
    seconds_ += other.seconds_;
    start_ = std::min(start_, other.start_);
    finish_ = std::max(finish_, other.finish_);
    if (message_.empty()) message_ = other.message_;
  }

  // Counts n finished operations that together took the time since the
  // previous call.
  void FinishedOps(int64_t n) {
    if (FLAGS.histogram) {
      const double now = NowMicros();
      hist_.Add(static_cast<uint64_t>((now - last_op_finish_) * 1e3));
      last_op_finish_ = now;
    }
    done_ += n;
    if (progress_ != nullptr)
      progress_->fetch_add(n, std::memory_order_relaxed);
    if (done_ >= next_report_) {
      next_report_ = done_ + ProgressStep(done_);
      std::fprintf(stderr, "... finished %" PRId64 " ops%30s\r", done_, "");
      std::fflush(stderr);
    }
  }

  // Leaves the time since the previous call out of the latency histogram
  // (work that is not an operation of the benchmark, e.g. an insert of
  // readlatest, whose per-op figures are per Get).
  void SkipSinceLastOp() {
    if (FLAGS.histogram) last_op_finish_ = NowMicros();
  }

  void AddBytes(int64_t n) { bytes_ += n; }

  // Also counts finished operations in *progress, for the timeline.
  void ShareProgress(std::atomic<int64_t>* progress) { progress_ = progress; }

  int64_t ops() const { return done_; }

  // Wall-clock time from the first thread's start to the last one's end.
  double ElapsedSeconds() const { return (finish_ - start_) * 1e-6; }

  // Operations per second of wall-clock time, over all threads.
  double OpsPerSecond() const {
    return done_ / std::max(ElapsedSeconds(), 1e-9);
  }

  void AddMessage(const std::string& msg) {
    message_ += (message_.empty() ? "" : " ") + msg;
  }

  void Report(const std::string& name) const {
    std::string extra;
    if (bytes_ > 0) {
      char rate[100];
      std::snprintf(rate, sizeof(rate), "%6.1f MB/s",
                    (bytes_ / 1048576.0) / std::max(ElapsedSeconds(), 1e-9));
      extra = rate;
    }
    if (!message_.empty()) extra += (extra.empty() ? "" : " ") + message_;
    // Only a benchmark that did nothing has done_ == 0.
    bench::PrintRunLine(name.c_str(),
                        seconds_ * 1e6 / std::max<int64_t>(done_, 1), extra);
    if (FLAGS.histogram) {
      std::fprintf(stdout, "Microseconds per op:\n%s\n",
                   HistogramText(hist_).c_str());
    }
    std::fflush(stdout);
  }

 private:
  double start_ = 0;
  double finish_ = 0;
  double seconds_ = 0;
  double last_op_finish_ = 0;
  int64_t done_ = 0;
  int64_t bytes_ = 0;
  int64_t next_report_ = 100;
  std::atomic<int64_t>* progress_ = nullptr;
  bench::LatencyHistogram hist_;  // nanoseconds
  std::string message_;
};

struct ThreadState {
  ThreadState(int index, bench::ClientThreads* run)
      : tid(index),
        rng(static_cast<uint32_t>(1000 + index + FLAGS.seed)),
        rng64(zipf_keys::ThreadSeed64(FLAGS.seed, index)),
        clients(run) {}

  const int tid;
  Rng rng;
  SplitMix64 rng64;  // for samplers that need 53-bit doubles
  Stats stats;
  bench::ClientThreads* const clients;  // all threads of the benchmark
};

// ---- The benchmarks ----

class Benchmark {
 public:
  Benchmark()
      : filter_policy_(NewFilterPolicyFromFlags()),
        env_(bench::ChooseEnv(FLAGS.direct_io)) {
    bench::ApplyStoreSettings(FLAGS, &base_options_, &cache_);
    base_options_.env = &env_;
    base_options_.filter_policy = filter_policy_;
    base_options_.reuse_logs = FLAGS.reuse_logs;
  }

  ~Benchmark() {
    delete db_;
    delete cache_;
    delete filter_policy_;
  }

  // Returns the process exit code.
  int Run() {
    std::vector<const Spec*> plan;
    if (!Plan(&plan)) return 1;
    PrintHeader();
    if (std::all_of(plan.begin(), plan.end(), [](const Spec* spec) {
          return spec->method == &Benchmark::BlockReads;
        })) {
      // Only the files are read: the database stays closed and as it is.
      reads_ = FLAGS.reads < 0 ? FLAGS.num : FLAGS.reads;
      for (size_t i = 0; i < plan.size(); i++) BlockReads(nullptr);
      bench::PrintPeakRss();
      return 0;
    }
    if (FLAGS.use_existing_db) {
      live_keys_.MarkUnknown();
    } else {
      DestroyDatabase();
    }
    OpenDatabase();
    for (const Spec* spec : plan) RunOne(*spec);
    delete db_;
    db_ = nullptr;
    bench::PrintPeakRss();
    return 0;
  }

 private:
  using Method = void (Benchmark::*)(ThreadState*);

  // How a named benchmark runs. Add a row to Specs() for a new benchmark.
  struct Spec {
    const char* name;
    Method method;            // run on each thread, or once if run_inline
    bool fresh_db = false;    // start from an empty database
    bool run_inline = false;  // once, on the main thread (state: nullptr)
    int64_t num_divisor = 1;  // run --num / num_divisor operations
    int64_t value_size = 0;   // 0: --value_size
    int batch = 1;            // operations per write batch
    bool sync = false;        // WriteOptions::sync
    int extra_threads = 0;    // threads beyond --threads (e.g. a writer)
  };

  static const std::vector<Spec>& Specs() {
    using B = Benchmark;
    static const std::vector<Spec> specs = {
        {"fillseq", &B::WriteSeq, true},
        {"fillbatch", &B::WriteSeq, true, false, 1, 0, 1000},
        {"fillrandom", &B::WriteRandom, true},
        {"fillunique", &B::WriteUnique, true},
        {"overwrite", &B::WriteRandom},
        {"fillsync", &B::WriteRandom, true, false, 1000, 0, 1, true},
        {"fill100K", &B::WriteRandom, true, false, 1000, 100 * 1000},
        {"readseq", &B::ReadSequential},
        {"readreverse", &B::ReadReverse},
        {"readrandom", &B::ReadRandom},
        {"readmissing", &B::ReadMissing},
        {"readhot", &B::ReadHot},
        {"readzipf", &B::ReadZipf},
        {"readlatest", &B::ReadLatest},
        {"seekrandom", &B::SeekRandom},
        {"readwhilewriting", &B::ReadWhileWriting, false, false, 1, 0, 1, false,
         1},
        {"deleteseq", &B::DeleteSeq},
        {"deleterandom", &B::DeleteRandom},
        {"compact", &B::Compact, false, true},
        {"settle", &B::Settle, false, true},
        {"crc32c", &B::Crc32cBench},
        {"snappycomp", &B::SnappyCompress},
        {"snappyuncomp", &B::SnappyUncompress},
        {"stats", &B::PrintStats, false, true},
        {"sstables", &B::PrintSSTables, false, true},
        {"blockreads", &B::BlockReads, false, true},
    };
    return specs;
  }

  friend std::vector<const char*> BenchmarkNames();

  // Resolves --benchmarks before anything runs, so a typo costs nothing.
  static bool Plan(std::vector<const Spec*>* plan) {
    for (const std::string& name : bench::SplitCommas(FLAGS.benchmarks)) {
      if (name.empty()) continue;
      const Spec* found = nullptr;
      for (const Spec& spec : Specs()) {
        if (name == spec.name) found = &spec;
      }
      if (found == nullptr) {
        std::fprintf(stderr, "db_bench: unknown benchmark '%s' (see --help)\n",
                     name.c_str());
        return false;
      }
      plan->push_back(found);
    }
    return true;
  }

  void RunOne(const Spec& spec) {
    num_ = FLAGS.num / spec.num_divisor;
    reads_ = FLAGS.reads < 0 ? FLAGS.num : FLAGS.reads;
    value_size_ = spec.value_size > 0 ? spec.value_size : FLAGS.value_size;
    batch_ = spec.batch;
    write_options_ = leveldb::WriteOptions();
    write_options_.sync = spec.sync;

    if (spec.fresh_db) {
      if (FLAGS.use_existing_db) {
        std::fprintf(stdout, "%-12s : skipped (--use_existing_db is true)\n",
                     spec.name);
        std::fflush(stdout);
        return;
      }
      delete db_;
      db_ = nullptr;
      DestroyDatabase();
      OpenDatabase();
      latest_next_ = FLAGS.num;  // readlatest inserts after the fresh keys
    }

    const bool is_read = IsReadBenchmark(spec.name);
    if (spec.method == &Benchmark::WriteUnique) PrepareUniqueOrder();
    ResetCounters();
    if (spec.run_inline) {
      (this->*spec.method)(nullptr);
      // Only "compact" does I/O worth reporting among the inline runs.
      if (FLAGS.io_stats && spec.method == &Benchmark::Compact) {
        SnapshotTableReads();
        ReportIoStats(spec.name);
      }
      return;
    }

    const int threads = static_cast<int>(FLAGS.threads) + spec.extra_threads;
    Stats merged = RunThreads(spec.name, threads, spec.method);
    merged.Report(spec.name);
    if (std::strncmp(spec.name, "fill", 4) == 0) {
      std::fprintf(stdout, "load: %.0f ops/s\n", merged.OpsPerSecond());
    }
    if (std::strcmp(spec.name, "readzipf") == 0 ||
        std::strcmp(spec.name, "readlatest") == 0) {
      ReportZipf(spec.name, merged);
    }
    if (is_read) ReportTableReads(merged);
    if (is_read) proc_io::PrintSyscalls(syscalls_, merged.ops());
    if (FLAGS.io_stats) ReportIoStats(spec.name);
    std::fflush(stdout);
  }

  // Every figure printed after a benchmark covers that benchmark only.
  void ResetCounters() {
    env_.counters()->Reset();
#if !defined(LEVELDB_UPSTREAM_BUILD)
    leveldb::ResetIoStats(db_);
#endif
    zipf_found_ = 0;
    zipf_absent_lookups_ = 0;
    zipf_absent_found_ = 0;
    latest_inserts_ = 0;
    latest_first_insert_ = latest_next_.load();
  }

  void SnapshotTableReads() {
    const TableReadCounters& c = *env_.counters();
    table_reads_ = {c.foreground_reads.load(), c.foreground_bytes.load(),
                    c.background_reads.load(), c.background_bytes.load()};
  }

  static bool IsReadBenchmark(const char* name) {
    return std::strncmp(name, "read", 4) == 0 ||
           std::strcmp(name, "seekrandom") == 0;
  }

  Stats RunThreads(const char* name, int n, Method method) {
    bench::ClientThreads clients(n);
    std::vector<std::unique_ptr<ThreadState>> states;
    for (int i = 0; i < n; i++) {
      states.push_back(std::make_unique<ThreadState>(i, &clients));
    }
    ops_done_ = 0;
    clients.Run(
        [this, &states, method](int i) {
          ThreadState* state = states[i].get();
          t_benchmark_thread = true;
          state->stats.Start();
          state->stats.ShareProgress(&ops_done_);
          (this->*method)(state);
          state->stats.Stop();
        },
        [this, name](std::vector<std::thread>& threads) {
          // Its last line covers the whole benchmark.
          return StartTimeline(name, threads);
        });
    // Reads counted until here belong to this benchmark.
    SnapshotTableReads();
    syscalls_ = clients.Syscalls();
    Stats merged = states[0]->stats;
    for (int i = 1; i < n; i++) merged.Merge(states[i]->stats);
    return merged;
  }

  // The sampler of --timeline_ms over the benchmark's threads, or null.
  std::unique_ptr<bench_timeline::Sampler> StartTimeline(
      const char* name, std::vector<std::thread>& threads) {
    if (FLAGS.timeline_ms <= 0) return nullptr;
    std::vector<pthread_t> handles;
    for (std::thread& t : threads) handles.push_back(t.native_handle());
    TableReadCounters* reads = env_.counters();
    return std::make_unique<bench_timeline::Sampler>(
        db_, name, static_cast<int>(FLAGS.timeline_ms), handles, [this, reads] {
          bench_timeline::Counters c;
          c.ops = ops_done_.load(std::memory_order_relaxed);
          c.fg_reads = reads->foreground_reads.load();
          c.fg_read_nanos = reads->foreground_nanos.load();
          c.bg_reads = reads->background_reads.load();
          c.bg_bytes = reads->background_bytes.load();
          return c;
        });
  }

  // ---- Database lifecycle ----

  static const leveldb::FilterPolicy* NewFilterPolicyFromFlags() {
#if !defined(LEVELDB_UPSTREAM_BUILD)
    if (FLAGS.elastic_bf) {
      return leveldb::NewElasticFilterPolicy(ElasticOptionsFromFlags());
    }
#endif
    if (FLAGS.bloom_bits >= 0) {
      return leveldb::NewBloomFilterPolicy(static_cast<int>(FLAGS.bloom_bits));
    }
    return nullptr;
  }

  void OpenDatabase() {
    leveldb::Options options = base_options_;
    options.create_if_missing = !FLAGS.use_existing_db;
    Status s = leveldb::DB::Open(options, FLAGS.db, &db_);
    if (!s.ok()) {
      std::fprintf(stderr, "db_bench: cannot open %s: %s\n", FLAGS.db.c_str(),
                   s.ToString().c_str());
      std::exit(1);
    }
  }

  void DestroyDatabase() {
    live_keys_.ResetEmpty(static_cast<uint64_t>(FLAGS.num));
    Status s = leveldb::DestroyDB(FLAGS.db, leveldb::Options());
    if (!s.ok()) {
      std::fprintf(stderr, "db_bench: cannot remove %s: %s\n", FLAGS.db.c_str(),
                   s.ToString().c_str());
      std::exit(1);
    }
  }

  [[noreturn]] static void Fail(const char* what, const Status& s) {
    std::fprintf(stderr, "db_bench: %s failed: %s\n", what,
                 s.ToString().c_str());
    std::exit(1);
  }

  // ---- Writes ----

  enum class KeyOrder { kSequential, kRandom, kUnique };

  void WriteSeq(ThreadState* thread) { DoWrite(thread, KeyOrder::kSequential); }
  void WriteRandom(ThreadState* thread) { DoWrite(thread, KeyOrder::kRandom); }
  // Every key of [0, num) exactly once, in the seeded shuffled order; the
  // threads split the order into contiguous shares.
  void WriteUnique(ThreadState* thread) { DoWrite(thread, KeyOrder::kUnique); }

  // The order fillunique writes in, computed before the clock starts.
  void PrepareUniqueOrder() {
    const uint32_t n = static_cast<uint32_t>(num_);
    if (unique_order_.size() != n) {
      unique_order_ = zipf_keys::UniqueKeyOrder(n, FLAGS.seed);
    }
  }

  void DoWrite(ThreadState* thread, KeyOrder order) {
    const bool sequential = order == KeyOrder::kSequential;
    int64_t share_begin = 0;
    int64_t share_end = num_;
    if (order == KeyOrder::kUnique) {
      const int64_t threads = thread->clients->size();
      share_begin = num_ * thread->tid / threads;
      share_end = num_ * (thread->tid + 1) / threads;
    }
    if (num_ != FLAGS.num) {
      thread->stats.AddMessage("(" + std::to_string(num_) + " ops)");
    }
    auto values = Values(value_size_);
    KeyFormatter key;
    leveldb::WriteBatch batch;
    int64_t bytes = 0;
    for (int64_t i = share_begin; i < share_end; i += batch_) {
      batch.Clear();
      const int64_t count = std::min<int64_t>(batch_, share_end - i);
      for (int64_t j = 0; j < count; j++) {
        uint64_t k;
        if (order == KeyOrder::kUnique) {
          k = unique_order_[static_cast<size_t>(i + j)];
        } else {
          k = sequential ? static_cast<uint64_t>(i + j) : RandomKey(thread);
        }
        batch.Put(AsSlice(key.Set(k)),
                  AsSlice(values.Next(static_cast<size_t>(value_size_))));
        live_keys_.Insert(k);
        bytes += value_size_ + kKeySize;
      }
      Status s = db_->Write(write_options_, &batch);
      if (!s.ok()) Fail("write", s);
      thread->stats.FinishedOps(count);
    }
    thread->stats.AddBytes(bytes);
  }

  void DeleteSeq(ThreadState* thread) { DoDelete(thread, true); }
  void DeleteRandom(ThreadState* thread) { DoDelete(thread, false); }

  void DoDelete(ThreadState* thread, bool sequential) {
    KeyFormatter key;
    leveldb::WriteBatch batch;
    for (int64_t i = 0; i < num_; i += batch_) {
      batch.Clear();
      const int64_t count = std::min<int64_t>(batch_, num_ - i);
      for (int64_t j = 0; j < count; j++) {
        const uint64_t k =
            sequential ? static_cast<uint64_t>(i + j) : RandomKey(thread);
        batch.Delete(AsSlice(key.Set(k)));
        live_keys_.Erase(k);
      }
      Status s = db_->Write(write_options_, &batch);
      if (!s.ok()) Fail("delete", s);
      thread->stats.FinishedOps(count);
    }
  }

  // ---- Reads ----

  uint64_t RandomKey(ThreadState* thread) const {
    return FLAGS.num > 0 ? thread->rng.Uniform(static_cast<uint32_t>(FLAGS.num))
                         : 0;
  }

  void ReadSequential(ThreadState* thread) { Scan(thread, /*forward=*/true); }
  void ReadReverse(ThreadState* thread) { Scan(thread, false); }

  void Scan(ThreadState* thread, bool forward) {
    std::unique_ptr<leveldb::Iterator> iter(
        db_->NewIterator(BenchReadOptions()));
    int64_t bytes = 0;
    int64_t i = 0;
    if (forward) {
      iter->SeekToFirst();
    } else {
      iter->SeekToLast();
    }
    while (i < reads_ && iter->Valid()) {
      bytes += static_cast<int64_t>(iter->key().size() + iter->value().size());
      thread->stats.FinishedOps(1);
      ++i;
      if (forward) {
        iter->Next();
      } else {
        iter->Prev();
      }
    }
    if (!iter->status().ok()) Fail("iteration", iter->status());
    thread->stats.AddBytes(bytes);
  }

  static leveldb::ReadOptions BenchReadOptions() {
    leveldb::ReadOptions options;
    options.fill_cache = FLAGS.fill_cache;
    return options;
  }

  // Point lookups of keys uniform in [0, range), `suffix` appended to each.
  void DoReads(ThreadState* thread, uint32_t range, const char* suffix) {
    const leveldb::ReadOptions options = BenchReadOptions();
    std::string value;
    KeyFormatter key;
    int64_t found = 0;
    for (int64_t i = 0; i < reads_; i++) {
      const uint64_t k = range > 0 ? thread->rng.Uniform(range) : 0;
      Status s = db_->Get(options, AsSlice(key.Set(k, suffix)), &value);
      if (s.ok()) {
        found++;
      } else if (!s.IsNotFound()) {
        Fail("get", s);
      }
      thread->stats.FinishedOps(1);
    }
    thread->stats.AddMessage("(" + std::to_string(found) + " of " +
                             std::to_string(reads_) + " found)");
  }

  static uint32_t KeySpace() { return static_cast<uint32_t>(FLAGS.num); }
  void ReadRandom(ThreadState* thread) { DoReads(thread, KeySpace(), ""); }
  void ReadMissing(ThreadState* thread) { DoReads(thread, KeySpace(), "."); }
  // Reads confined to the first 1% of the key space.
  void ReadHot(ThreadState* thread) {
    DoReads(thread, (KeySpace() + 99) / 100, "");
  }

  void SeekRandom(ThreadState* thread) {
    const leveldb::ReadOptions options = BenchReadOptions();
    KeyFormatter key;
    int64_t found = 0;
    for (int64_t i = 0; i < reads_; i++) {
      std::unique_ptr<leveldb::Iterator> iter(db_->NewIterator(options));
      const Slice target = AsSlice(key.Set(RandomKey(thread)));
      iter->Seek(target);
      if (iter->Valid() && iter->key() == target) found++;
      thread->stats.FinishedOps(1);
    }
    thread->stats.AddMessage("(" + std::to_string(found) + " of " +
                             std::to_string(reads_) + " found)");
  }

  // --reads lookups of keys drawn from --key_dist over [0, num) (by
  // default a scrambled Zipfian); a share --zero_lookup_ratio of them asks
  // for an absent key next to the drawn one: its key plus one byte, which
  // sorts between it and the next key and is never written.
  void ReadZipf(ThreadState* thread) {
    const zipf_keys::KeyDist dist = KeyDist();
    if (dist == zipf_keys::KeyDist::kLatest) return ReadLatest(thread);
    if (dist == zipf_keys::KeyDist::kZipf) {
      const ScrambledZipfian& zipf = Zipf();
      return LookupLoop(thread, [&zipf](SplitMix64* r) {
        return zipf.Next(r->NextDouble());
      });
    }
    if (dist == zipf_keys::KeyDist::kOrderedZipf) {
      const zipf_keys::Zipfian& zipf = OrderedZipf();
      return LookupLoop(thread, [&zipf](SplitMix64* r) {
        return zipf.Rank(r->NextDouble());
      });
    }
    const zipf_keys::Hotspot& hotspot = HotspotDist();
    LookupLoop(thread, [&hotspot](SplitMix64* r) {
      const double part = r->NextDouble();
      return hotspot.Next(part, r->NextDouble());
    });
  }

  static zipf_keys::KeyDist KeyDist() {
    zipf_keys::KeyDist dist = zipf_keys::KeyDist::kZipf;
    zipf_keys::ParseKeyDist(FLAGS.key_dist, &dist);  // checked at startup
    return dist;
  }

  using LookupCounts = zipf_keys::LookupCounts;

  void AddLookupCounts(const LookupCounts& counts) {
    zipf_found_ += counts.found;
    zipf_absent_lookups_ += counts.absent_lookups;
    zipf_absent_found_ += counts.absent_found;
  }

  template <typename Draw>
  void LookupLoop(ThreadState* thread, const Draw& draw) {
    const leveldb::ReadOptions options = BenchReadOptions();
    std::string value;
    KeyFormatter key;
    LookupCounts counts;
    for (int64_t i = 0; i < reads_; i++) {
      LookupOnce(draw, options, thread, &key, &value, &counts);
    }
    AddLookupCounts(counts);
  }

  // One lookup of readzipf or readlatest: a key from `draw` (or the absent
  // key next to it), its Get, counted.
  template <typename Draw>
  void LookupOnce(const Draw& draw, const leveldb::ReadOptions& options,
                  ThreadState* thread, KeyFormatter* key, std::string* value,
                  LookupCounts* counts) {
    const zipf_keys::ZipfLookup lookup =
        zipf_keys::NextLookup(draw, FLAGS.zero_lookup_ratio, &thread->rng64);
    Status s = db_->Get(
        options,
        AsSlice(key->Set(lookup.key,
                         lookup.absent ? zipf_keys::kAbsentSuffix : "")),
        value);
    if (!s.ok() && !s.IsNotFound()) Fail("get", s);
    counts->Add(s.ok(), lookup.absent);
    thread->stats.FinishedOps(1);
  }

  // --reads operations on time-ordered keys: a share --insert_ratio of them
  // inserts the key after the largest one (keys [0, num) are taken to
  // exist), the others look up a key drawn from a Zipfian over recency,
  // the largest key being the hottest. Only the lookups count as ops, so
  // the per-op figures are per Get. With several threads a lookup may draw
  // a key whose insert is still in flight and miss it.
  void ReadLatest(ThreadState* thread) {
    zipf_keys::Zipfian recency = OrderedZipf();  // this thread's copy grows
    auto values = Values(value_size_);
    const leveldb::ReadOptions options = BenchReadOptions();
    std::string value;
    KeyFormatter key;
    LookupCounts counts;
    int64_t inserts = 0;
    SplitMix64* rng = &thread->rng64;
    for (int64_t i = 0; i < reads_; i++) {
      if (FLAGS.insert_ratio > 0 && rng->NextDouble() < FLAGS.insert_ratio) {
        const uint64_t k = latest_next_.fetch_add(1);
        Status s =
            db_->Put(write_options_, AsSlice(key.Set(k)),
                     AsSlice(values.Next(static_cast<size_t>(value_size_))));
        if (!s.ok()) Fail("put", s);
        live_keys_.Insert(k);
        inserts++;
        thread->stats.SkipSinceLastOp();
        continue;
      }
      const auto draw = [&recency, this](SplitMix64* r) {
        const uint64_t count = std::max<uint64_t>(latest_next_.load(), 1);
        recency.Extend(count);
        return count - 1 - recency.Rank(r->NextDouble());
      };
      LookupOnce(draw, options, thread, &key, &value, &counts);
    }
    AddLookupCounts(counts);
    latest_inserts_ += inserts;
  }

  // The sampler in *slot, built by the first thread that asks for it.
  template <typename T, typename... Args>
  static const T& Shared(std::once_flag* once, std::unique_ptr<T>* slot,
                         Args... args) {
    std::call_once(*once, [&] { *slot = std::make_unique<T>(args...); });
    return **slot;
  }

  const ScrambledZipfian& Zipf() {
    return Shared(&zipf_once_, &zipf_, Num(), FLAGS.zipf);
  }

  // The unscrambled Zipfian over [0, num): ordered_zipf, and the start of
  // readlatest's recency sampler.
  const zipf_keys::Zipfian& OrderedZipf() {
    return Shared(&ordered_zipf_once_, &ordered_zipf_, Num(), FLAGS.zipf);
  }

  const zipf_keys::Hotspot& HotspotDist() {
    return Shared(&hotspot_once_, &hotspot_, Num(), FLAGS.hot_data_fraction,
                  FLAGS.hot_op_fraction, FLAGS.hot_range_start);
  }

  static uint64_t Num() { return static_cast<uint64_t>(FLAGS.num); }

  // Thread 0 writes random keys until every reader has finished; only the
  // readers' figures are reported.
  void ReadWhileWriting(ThreadState* thread) {
    if (thread->tid > 0) {
      ReadRandom(thread);
      return;
    }
    auto values = Values(value_size_);
    KeyFormatter key;
    while (thread->clients->Finished() + 1 < thread->clients->size()) {
      const uint64_t k = RandomKey(thread);
      Status s =
          db_->Put(write_options_, AsSlice(key.Set(k)),
                   AsSlice(values.Next(static_cast<size_t>(value_size_))));
      if (!s.ok()) Fail("put", s);
      live_keys_.Insert(k);
    }
    thread->stats.Start();  // drop the writer's numbers
  }

  // ---- Whole-database operations (main thread) ----

  // Reports fn(), run on the main thread, as one operation of `name`.
  template <typename Fn>
  static void TimeOnce(const char* name, const Fn& fn) {
    Stats stats;
    stats.Start();
    fn();
    stats.FinishedOps(1);
    stats.Stop();
    stats.Report(name);
  }

  void Compact(ThreadState*) {
    TimeOnce("compact", [this] { db_->CompactRange(nullptr, nullptr); });
  }

  // Waits until background compactions are over: for two seconds the
  // "leveldb.stats" table (bytes compacted per level, which changes only
  // when a compaction ends) stays the same and no table file is read in
  // the background (a compaction longer than that still reads its inputs).
  // Public API only, so upstream's twin settles the same way.
  void Settle(ThreadState*) {
    TimeOnce("settle", [this] { WaitQuiet(); });
  }

  void WaitQuiet() {
    std::string last;
    uint64_t last_reads = env_.counters()->background_reads.load();
    int quiet_polls = 0;
    for (int poll = 0; poll < 3600 && quiet_polls < 4; ++poll) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      std::string now;
      if (!db_->GetProperty("leveldb.stats", &now)) break;
      const uint64_t reads = env_.counters()->background_reads.load();
      quiet_polls = now == last && reads == last_reads ? quiet_polls + 1 : 0;
      last.swap(now);
      last_reads = reads;
    }
  }

  void PrintProperty(const char* property) {
    std::string value;
    if (!db_->GetProperty(property, &value)) value = "(failed)";
    std::fprintf(stdout, "\n%s\n", value.c_str());
    std::fflush(stdout);
  }

  void PrintStats(ThreadState*) { PrintProperty("leveldb.stats"); }

  // ---- Per-benchmark reports ----

  // The summary line of readzipf and readlatest; the default workload's
  // line is unchanged, the others name their distribution.
  void ReportZipf(const char* name, const Stats& merged) {
    const int64_t lookups = merged.ops();
    const std::string dist = DescribeKeyDist(name);
    std::string inserts;
    if (dist.rfind("latest", 0) == 0) {
      const int64_t n = latest_inserts_.load();
      inserts = "; " + std::to_string(n) + " inserts (keys from " +
                std::to_string(latest_first_insert_) + " up)";
    }
    std::fprintf(stdout,
                 "%s: %" PRId64 " lookups (%s), %" PRId64 " found, %" PRId64
                 " not found; %" PRId64 " for absent keys (%" PRId64
                 " of them found)%s; %.0f Gets/s\n",
                 name, lookups, dist.c_str(), zipf_found_.load(),
                 lookups - zipf_found_.load(), zipf_absent_lookups_.load(),
                 zipf_absent_found_.load(), inserts.c_str(),
                 merged.OpsPerSecond());
  }

  std::string DescribeKeyDist(const char* name) {
    const zipf_keys::KeyDist dist = std::strcmp(name, "readlatest") == 0
                                        ? zipf_keys::KeyDist::kLatest
                                        : KeyDist();
    char text[160];
    if (dist == zipf_keys::KeyDist::kHotspot) {
      const zipf_keys::Hotspot& hot = HotspotDist();
      std::snprintf(text, sizeof(text),
                    "hotspot, %.2f of the lookups on keys [%" PRIu64
                    ", %" PRIu64 ")",
                    FLAGS.hot_op_fraction, hot.hot_begin(), hot.hot_end());
    } else {
      // "theta T", or the distribution's name before it.
      std::snprintf(
          text, sizeof(text), "%s%stheta %.2f",
          dist == zipf_keys::KeyDist::kZipf ? "" : zipf_keys::KeyDistName(dist),
          dist == zipf_keys::KeyDist::kZipf ? "" : ", ", FLAGS.zipf);
    }
    return text;
  }

  void ReportTableReads(const Stats& merged) {
    const double ops = static_cast<double>(std::max<int64_t>(merged.ops(), 1));
    std::fprintf(stdout,
                 "foreground table reads per op: %.4f, background table "
                 "reads: %" PRIu64 " (%.1f MB)\n",
                 table_reads_.foreground_reads / ops,
                 table_reads_.background_reads,
                 table_reads_.background_bytes / 1048576.0);
  }

  // Library properties (only those this library has) and filter memory.
  void ReportIoStats(const char* benchmark) {
    std::fprintf(stdout, "--- I/O and memory after %s ---\n", benchmark);
    std::fprintf(stdout,
                 "table reads: foreground %" PRIu64
                 " (%.1f MB), background "
                 "%" PRIu64 " (%.1f MB)\n",
                 table_reads_.foreground_reads,
                 table_reads_.foreground_bytes / 1048576.0,
                 table_reads_.background_reads,
                 table_reads_.background_bytes / 1048576.0);
    std::string value;
    if (db_->GetProperty("leveldb.io-stats", &value)) {
      std::fprintf(stdout, "leveldb.io-stats:\n%s", value.c_str());
    }
    std::string elastic;
    // ElasticBF chosen by flags or from the environment (LEVELDB_ELASTICBF).
    const bool has_elastic = db_->GetProperty("leveldb.elasticbf", &elastic) &&
                             elastic.rfind("enabled: yes", 0) == 0;
    if (has_elastic) {
      std::fprintf(stdout, "leveldb.elasticbf:\n%s", elastic.c_str());
      if (!elastic.empty() && elastic.back() != '\n') std::fputc('\n', stdout);
    }
    if (db_->GetProperty("leveldb.approximate-memory-usage", &value)) {
      std::fprintf(stdout, "approximate-memory-usage: %s bytes\n",
                   value.c_str());
    }
    // Per-key figures are per live key when this run wrote the database.
    const uint64_t live = live_keys_.known() ? live_keys_.Count() : 0;
    const double keys =
        live_keys_.known()
            ? static_cast<double>(std::max<uint64_t>(live, 1))
            : static_cast<double>(std::max<int64_t>(FLAGS.num, 1));
    const char* per = live_keys_.known() ? "live key" : "--num key";
    if (live_keys_.known()) {
      std::fprintf(stdout, "live keys: %" PRIu64 "\n", live);
    }
    if (FLAGS.elastic_bf) {
      uint64_t used = 0;
      if (has_elastic && proc_io::internal::FindField(
                             elastic.c_str(), "memory_used_bytes", &used)) {
        std::fprintf(stdout,
                     "filter memory (elastic, loaded units): %" PRIu64
                     " bytes = %.2f bits per %s\n",
                     used, used * 8 / keys, per);
      } else {
        std::fprintf(stdout, "filter memory (elastic): not reported\n");
      }
    }
    uint64_t tables = 0;
    uint64_t skipped = 0;
    std::map<std::string, uint64_t> by_name;
    MeasureFilterBlocks(&by_name, &tables, &skipped);
    uint64_t filter_bytes = 0;
    for (const auto& entry : by_name) filter_bytes += entry.second;
    std::fprintf(stdout,
                 "filter blocks in %" PRIu64 " live table files: %" PRIu64
                 " bytes = %.2f bits per %s",
                 tables, filter_bytes, filter_bytes * 8 / keys, per);
    for (const auto& entry : by_name) {
      std::fprintf(stdout, "; %s: %" PRIu64, entry.first.c_str(), entry.second);
    }
    if (skipped > 0) {
      std::fprintf(stdout, " (%" PRIu64 " files skipped: unreadable)", skipped);
    }
    std::fputc('\n', stdout);
  }

  // Sum of the standard filter blocks of the live tables (those of the
  // current version, from "leveldb.sstables", which both libraries have):
  // the filter memory of a DB whose tables are all open. Files a running
  // compaction is writing or has just made obsolete are not counted.
  void MeasureFilterBlocks(std::map<std::string, uint64_t>* bytes_by_name,
                           uint64_t* tables, uint64_t* skipped) {
    leveldb::Env* env = leveldb::Env::Default();  // not counted
    *tables = 0;
    *skipped = 0;
    std::string listing;
    db_->GetProperty("leveldb.sstables", &listing);
    for (uint64_t number : LiveTableNumbers(listing)) {
      char name[64];
      std::snprintf(name, sizeof(name), "/%06" PRIu64 ".ldb", number);
      std::string path = FLAGS.db + name;
      if (!env->FileExists(path)) {
        std::snprintf(name, sizeof(name), "/%06" PRIu64 ".sst", number);
        path = FLAGS.db + name;
      }
      if (FilterBlockBytes(env, path, bytes_by_name)) {
        ++*tables;
      } else {
        ++*skipped;
      }
    }
  }

  // File numbers in a "leveldb.sstables" text: lines " <number>:<size>[".
  static std::vector<uint64_t> LiveTableNumbers(const std::string& listing) {
    std::vector<uint64_t> numbers;
    std::istringstream lines(listing);
    std::string line;
    uint64_t number;
    while (std::getline(lines, line)) {
      if (std::sscanf(line.c_str(), " %" SCNu64 ":", &number) == 1 &&
          line[0] == ' ') {
        numbers.push_back(number);
      }
    }
    return numbers;
  }

  void PrintSSTables(ThreadState*) { PrintProperty("leveldb.sstables"); }

  // ---- Uncached block reads (no database calls) ----

  // The time of one uncached data-block read on this machine, the least a
  // Get that finds its key must spend: --reads reads of --block_bytes at
  // random offsets of the table files in --db, each with O_DIRECT over the
  // whole 4 KiB pages the block touches, as the fork's direct-I/O table
  // reads do. One thread can do at most 1e6 / mean such Gets per second.
  void BlockReads(ThreadState*) {
    constexpr uint64_t kPage = 4096;
    const uint64_t block = static_cast<uint64_t>(FLAGS.block_bytes);
    std::vector<std::pair<int, uint64_t>> files;  // fd, block starts
    uint64_t starts = 0;
    std::vector<std::string> children;
    env_.GetChildren(FLAGS.db, &children);
    for (const std::string& child : children) {
      const std::string path = FLAGS.db + "/" + child;
      uint64_t size = 0;
      if (!bench::IsTableFile(child) || !env_.GetFileSize(path, &size).ok() ||
          size < block) {
        continue;  // too small to hold a block
      }
      const int fd = open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
      if (fd < 0) Fail("open", Status::IOError(path, std::strerror(errno)));
      files.emplace_back(fd, size - block + 1);
      starts += size - block + 1;
    }
    Require(!files.empty() && reads_ > 0,
            "blockreads: no --reads, or no table file of --block_bytes");
    const uint64_t span_max = (block + 2 * kPage - 1) / kPage * kPage;
    std::unique_ptr<char, decltype(&std::free)> buffer(
        static_cast<char*>(std::aligned_alloc(kPage, span_max)), &std::free);
    SplitMix64 rng(zipf_keys::ThreadSeed64(FLAGS.seed, 0));
    std::vector<double> micros;
    uint64_t bytes = 0;
    for (int64_t n = 0; n < reads_; ++n) {
      uint64_t offset = rng.Uniform(starts);  // over all files together
      size_t f = 0;
      for (; offset >= files[f].second; ++f) offset -= files[f].second;
      const uint64_t first = offset / kPage * kPage;
      const uint64_t last = (offset + block + kPage - 1) / kPage * kPage;
      const auto start = std::chrono::steady_clock::now();
      const ssize_t got = pread(files[f].first, buffer.get(), last - first,
                                static_cast<off_t>(first));
      micros.push_back(std::chrono::duration<double, std::micro>(
                           std::chrono::steady_clock::now() - start)
                           .count());
      if (got < static_cast<ssize_t>(offset + block - first)) {
        Fail("pread", Status::IOError(got < 0 ? std::strerror(errno) : "EOF"));
      }
      bytes += static_cast<uint64_t>(got);
    }
    for (const auto& file : files) close(file.first);
    PrintBlockReads(micros, bytes, files.size());
  }

  void PrintBlockReads(std::vector<double> micros, uint64_t bytes,
                       size_t files) {
    std::sort(micros.begin(), micros.end());
    auto at = [&micros](double q) {
      return micros[std::min(micros.size() - 1,
                             static_cast<size_t>(q * micros.size()))];
    };
    const double mean = std::accumulate(micros.begin(), micros.end(), 0.0) /
                        std::max<size_t>(micros.size(), 1);
    std::fprintf(stdout,
                 "%zu direct reads of %" PRId64
                 "-byte blocks over %zu files (%.1f KiB per read): mean "
                 "%.1f us, p50 %.1f, p99 %.1f, p99.9 %.1f; at most %.0f "
                 "reads/s in one thread\n",
                 micros.size(), FLAGS.block_bytes, files,
                 bytes / 1024.0 / std::max<size_t>(micros.size(), 1), mean,
                 at(0.5), at(0.99), at(0.999), 1e6 / mean);
  }

  // ---- Library-independent CPU benchmarks ----

  void Crc32cBench(ThreadState* thread) {
    constexpr size_t kBlock = 4096;
    constexpr int64_t kTotal = int64_t{500} << 20;
    const std::string data(kBlock, 'x');
    const bench::Crc32c crc;
    uint32_t checksum = 0;
    int64_t bytes = 0;
    while (bytes < kTotal) {
      checksum = crc.Value(data.data(), data.size());
      thread->stats.FinishedOps(1);
      bytes += kBlock;
    }
    char label[64];
    std::snprintf(label, sizeof(label), "(4K per op; crc %08x)", checksum);
    thread->stats.AddBytes(bytes);
    thread->stats.AddMessage(label);
  }

#if defined(DB_BENCH_HAVE_SNAPPY)
  void SnappyCompress(ThreadState* thread) {
    auto values = Values(1 << 20);
    const Slice input = AsSlice(values.Next(4096));
    constexpr int64_t kTotal = int64_t{1} << 30;
    std::string compressed;
    int64_t bytes = 0;
    int64_t produced = 0;
    while (bytes < kTotal) {
      snappy::Compress(input.data(), input.size(), &compressed);
      produced += static_cast<int64_t>(compressed.size());
      bytes += static_cast<int64_t>(input.size());
      thread->stats.FinishedOps(1);
    }
    char label[64];
    std::snprintf(label, sizeof(label), "(output: %.1f%%)",
                  100.0 * produced / std::max<int64_t>(bytes, 1));
    thread->stats.AddBytes(bytes);
    thread->stats.AddMessage(label);
  }

  void SnappyUncompress(ThreadState* thread) {
    auto values = Values(1 << 20);
    const Slice input = AsSlice(values.Next(4096));
    std::string compressed;
    snappy::Compress(input.data(), input.size(), &compressed);
    std::vector<char> output(input.size());
    constexpr int64_t kTotal = int64_t{1} << 30;
    int64_t bytes = 0;
    while (bytes < kTotal) {
      if (!snappy::RawUncompress(compressed.data(), compressed.size(),
                                 output.data())) {
        thread->stats.AddMessage("(snappy failure)");
        return;
      }
      bytes += static_cast<int64_t>(input.size());
      thread->stats.FinishedOps(1);
    }
    thread->stats.AddBytes(bytes);
  }
#else
  void SnappyCompress(ThreadState* thread) {
    thread->stats.AddMessage("(snappy not available)");
  }
  void SnappyUncompress(ThreadState* thread) {
    thread->stats.AddMessage("(snappy not available)");
  }
#endif

  // ---- Reporting ----

  static void PrintHeader() {
#if defined(LEVELDB_UPSTREAM_BUILD)
    const char* build = "upstream";
#else
    const char* build = "fork";
#endif
    std::fprintf(stdout, "LevelDB:    version %d.%d (%s)\n",
                 leveldb::kMajorVersion, leveldb::kMinorVersion, build);
    PrintEnvironment();
    const double compressed_value = FLAGS.value_size * FLAGS.compression_ratio;
    std::fprintf(stdout, "Keys:       %d bytes each\n", kKeySize);
    std::fprintf(stdout,
                 "Values:     %" PRId64 " bytes each (%" PRId64
                 " bytes after compression)\n",
                 FLAGS.value_size,
                 static_cast<int64_t>(compressed_value + 0.5));
    std::fprintf(stdout, "Entries:    %" PRId64 "\n", FLAGS.num);
    std::fprintf(stdout, "RawSize:    %.1f MB (estimated)\n",
                 (kKeySize + FLAGS.value_size) * FLAGS.num / 1048576.0);
    std::fprintf(stdout, "FileSize:   %.1f MB (estimated)\n",
                 (kKeySize + compressed_value) * FLAGS.num / 1048576.0);
    std::fprintf(stdout, "Threads:    %" PRId64 "\n", FLAGS.threads);
    std::fprintf(stdout, "Filter:     %s\n", FilterDescription().c_str());
#if defined(LEVELDB_UPSTREAM_BUILD)
    const char* direct = "on (local O_DIRECT wrapper)";
#else
    const char* direct = "on (DirectIOEnv)";
#endif
    std::fprintf(stdout, "DirectIO:   %s; fill_cache=%d\n",
                 FLAGS.direct_io ? direct : "off", FLAGS.fill_cache ? 1 : 0);
    std::fprintf(stdout, "Database:   %s\n", FLAGS.db.c_str());
#if !defined(__OPTIMIZE__)
    std::fprintf(stdout,
                 "WARNING: built without optimization; numbers are slow\n");
#endif
#if !defined(DB_BENCH_HAVE_SNAPPY)
    std::fprintf(stdout, "WARNING: snappy not available to the benchmark\n");
#endif
    std::fprintf(stdout, "%s\n", std::string(48, '-').c_str());
    std::fflush(stdout);
  }

  static std::string FilterDescription() {
    char text[256];
    if (FLAGS.elastic_bf) {
      // 0: chosen from the budget ("leveldb.elasticbf" shows the choice).
      auto shape = [](int64_t v) {
        return v == 0 ? std::string("auto") : std::to_string(v);
      };
      std::snprintf(
          text, sizeof(text),
          "ElasticBF: %s %s units x %s bits/key, segment_bytes "
          "%" PRId64 ", memory %.2f bits/key, budget %" PRId64
          " bytes, lifetime %" PRId64 ", initial units %" PRId64
          ", inherit hotness %d, block alignment %" PRId64,
          shape(FLAGS.bf_units).c_str(), FLAGS.bf_unit_kind.c_str(),
          shape(FLAGS.bf_bits_per_unit).c_str(), FLAGS.bf_segment_bytes,
          FLAGS.bf_memory_bits_per_key, FLAGS.bf_memory_budget_bytes,
          FLAGS.bf_lifetime, FLAGS.bf_initial_units,
          static_cast<int>(FLAGS.bf_inherit_hotness), FLAGS.bf_block_alignment);
    } else if (FLAGS.bloom_bits >= 0) {
      std::snprintf(text, sizeof(text), "Bloom, %" PRId64 " bits/key",
                    FLAGS.bloom_bits);
    } else {
      std::snprintf(text, sizeof(text), "none");
    }
    return text;
  }

  static void PrintEnvironment() {
    const std::time_t now = std::time(nullptr);
    char date[64];
    std::strftime(date, sizeof(date), "%a %b %d %H:%M:%S %Y",
                  std::localtime(&now));
    std::fprintf(stdout, "Date:       %s\n", date);
    std::ifstream cpuinfo("/proc/cpuinfo");
    if (!cpuinfo) return;
    int cpus = 0;
    std::string line, model, cache;
    while (std::getline(cpuinfo, line)) {
      const size_t colon = line.find(": ");
      const std::string value =
          colon == std::string::npos ? "" : line.substr(colon + 2);
      if (line.rfind("model name", 0) == 0) {
        cpus++;
        model = value;
      } else if (line.rfind("cache size", 0) == 0) {
        cache = value;
      }
    }
    std::fprintf(stdout, "CPU:        %d * %s\n", cpus, model.c_str());
    std::fprintf(stdout, "CPUCache:   %s\n", cache.c_str());
  }

  leveldb::Cache* cache_ = nullptr;
  leveldb::Options base_options_;  // from the flags; cache, env, filter
  const leveldb::FilterPolicy* const filter_policy_;
  CountingEnv env_;  // must outlive db_
  leveldb::DB* db_ = nullptr;
  LiveKeys live_keys_;

  // Table reads of the last benchmark run on threads.
  struct TableReads {
    uint64_t foreground_reads = 0;
    uint64_t foreground_bytes = 0;
    uint64_t background_reads = 0;
    uint64_t background_bytes = 0;
  } table_reads_;

  // Read syscalls of the last benchmark run on threads (/proc).
  proc_io::SyscallCount syscalls_;
  std::atomic<int64_t> ops_done_{0};  // over all threads, for the timeline

  // fillunique's key order.
  std::vector<uint32_t> unique_order_;

  // readzipf.
  std::once_flag zipf_once_;
  std::unique_ptr<ScrambledZipfian> zipf_;
  std::atomic<int64_t> zipf_found_{0};
  std::atomic<int64_t> zipf_absent_lookups_{0};
  std::atomic<int64_t> zipf_absent_found_{0};
  std::once_flag ordered_zipf_once_;
  std::unique_ptr<zipf_keys::Zipfian> ordered_zipf_;
  std::once_flag hotspot_once_;
  std::unique_ptr<zipf_keys::Hotspot> hotspot_;
  // readlatest: the next key to insert, and what the last run inserted.
  std::atomic<uint64_t> latest_next_{static_cast<uint64_t>(FLAGS.num)};
  std::atomic<int64_t> latest_inserts_{0};
  uint64_t latest_first_insert_ = 0;

  // Parameters of the benchmark being run.
  int64_t num_ = 0;
  int64_t reads_ = 0;
  int64_t value_size_ = 0;
  int batch_ = 1;
  leveldb::WriteOptions write_options_;
};

std::vector<const char*> BenchmarkNames() {
  std::vector<const char*> names;
  for (const auto& spec : Benchmark::Specs()) names.push_back(spec.name);
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  ParseFlags(argc, argv);
  Benchmark benchmark;
  return benchmark.Run();
}
