// rocksdb_readpath: RocksDB's side of the read-path evaluation
// (scripts/eval_readpath.sh, docs/evaluation-readpath.md).
//
// It runs db_bench's protocol against RocksDB (Debian's librocksdb-dev,
// 7.8) with the very same workload code (zipf_keys.h) and the same kernel
// I/O counts (proc_io.h):
//   fillunique  every key of [0, --num) once, in the seeded shuffled order,
//               16-byte keys, values of --value_size bytes compressing to
//               --compression_ratio;
//   readzipf    --reads Gets of scrambled-Zipfian keys, a share
//               --zero_lookup_ratio of them for absent keys.
// RocksDB settings: leveled compaction, full Bloom filters of --bloom_bits
// bits per key held by the table readers (cache_index_and_filter_blocks =
// false), no block cache (like fill_cache = false), direct reads, all
// tables open (max_open_files = -1), snappy, 4 KiB blocks.
//
// Output lines use db_bench's wording, so the same parser reads both:
//   load: X ops/s
//   readzipf: N lookups (theta T), F found, M not found; A for absent keys
//     (B of them found); X Gets/s
//   foreground read syscalls per op: X (...), background read syscalls: Y
//     (Z MB from storage) [/proc/thread-self/io]
//   filter blocks in N live table files: B bytes = X bits per live key
//
// This program never links or includes LevelDB (neither this fork nor
// upstream).
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <chrono>  // NOLINT
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>  // NOLINT
#include <vector>

#include "proc_io.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/version.h"
#include "zipf_keys.h"

namespace {

// ---------------------------------------------------------------------------
// Flags
// ---------------------------------------------------------------------------

struct Flags {
  std::string benchmarks = "fillunique,readzipf";
  int64_t num = 1000000;
  int64_t reads = -1;  // negative: --num
  int64_t value_size = 100;
  double compression_ratio = 0.5;
  bool compression = true;  // snappy
  int64_t bloom_bits = 4;   // negative: no filter
  int64_t target_file_size_base = 64 << 20;
  int64_t write_buffer_size = 4 << 20;   // LevelDB's default
  int64_t max_bytes_for_level_base = 0;  // 0: RocksDB's default
  int64_t block_size = 4096;
  bool direct_io = true;
  bool fill_cache = false;
  bool statistics = false;
  bool use_existing_db = false;
  double zipf = 0.99;
  double zero_lookup_ratio = 0.0;
  int64_t seed = 0;
  std::string db;
};

Flags FLAGS;

enum class Kind { kBool, kInt, kDouble, kString };

struct FlagSpec {
  const char* name;
  Kind kind;
  void* target;
  const char* help;
};

const std::vector<FlagSpec>& FlagTable() {
  static const std::vector<FlagSpec> table = {
      {"benchmarks", Kind::kString, &FLAGS.benchmarks,
       "comma-separated: fillunique, readzipf, stats"},
      {"num", Kind::kInt, &FLAGS.num, "number of keys"},
      {"reads", Kind::kInt, &FLAGS.reads, "readzipf Gets (negative: --num)"},
      {"value_size", Kind::kInt, &FLAGS.value_size, "bytes per value"},
      {"compression_ratio", Kind::kDouble, &FLAGS.compression_ratio,
       "fraction of its size a value compresses to, in (0, 1]"},
      {"compression", Kind::kBool, &FLAGS.compression,
       "snappy-compress blocks"},
      {"bloom_bits", Kind::kInt, &FLAGS.bloom_bits,
       "full Bloom filter bits per key (negative: none)"},
      {"target_file_size_base", Kind::kInt, &FLAGS.target_file_size_base,
       "Options::target_file_size_base"},
      {"write_buffer_size", Kind::kInt, &FLAGS.write_buffer_size,
       "Options::write_buffer_size (default 4 MiB, LevelDB's)"},
      {"max_bytes_for_level_base", Kind::kInt, &FLAGS.max_bytes_for_level_base,
       "Options::max_bytes_for_level_base (0: RocksDB default)"},
      {"block_size", Kind::kInt, &FLAGS.block_size,
       "BlockBasedTableOptions::block_size"},
      {"direct_io", Kind::kBool, &FLAGS.direct_io, "Options::use_direct_reads"},
      {"fill_cache", Kind::kBool, &FLAGS.fill_cache,
       "keep a block cache (8 MiB, RocksDB's default) and fill it"},
      {"statistics", Kind::kBool, &FLAGS.statistics,
       "enable rocksdb::Statistics and print Bloom filter tickers"},
      {"use_existing_db", Kind::kBool, &FLAGS.use_existing_db,
       "reuse --db instead of starting empty"},
      {"zipf", Kind::kDouble, &FLAGS.zipf, "Zipfian theta, in (0, 1)"},
      {"zero_lookup_ratio", Kind::kDouble, &FLAGS.zero_lookup_ratio,
       "share of lookups for absent keys, in [0, 1]"},
      {"seed", Kind::kInt, &FLAGS.seed, "seed of the key generators"},
      {"db", Kind::kString, &FLAGS.db, "database directory (required)"},
  };
  return table;
}

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "rocksdb_readpath: %s\n", message.c_str());
  std::exit(1);
}

bool ParseInt(const std::string& text, int64_t* value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *value = parsed;
  return true;
}

bool ParseDouble(const std::string& text, double* value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double parsed = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(parsed)) return false;
  *value = parsed;
  return true;
}

void ApplyFlag(const std::string& arg) {
  if (arg.compare(0, 2, "--") != 0) Die("unexpected argument '" + arg + "'");
  const size_t eq = arg.find('=');
  const std::string name = arg.substr(2, eq == arg.npos ? arg.npos : eq - 2);
  const std::string value = eq == arg.npos ? "" : arg.substr(eq + 1);
  for (const FlagSpec& flag : FlagTable()) {
    if (name != flag.name) continue;
    const std::string bad = "invalid value '" + value + "' for --" + name;
    switch (flag.kind) {
      case Kind::kBool:
        if (eq == arg.npos || value == "1" || value == "true") {
          *static_cast<bool*>(flag.target) = true;
        } else if (value == "0" || value == "false") {
          *static_cast<bool*>(flag.target) = false;
        } else {
          Die(bad);
        }
        return;
      case Kind::kInt:
        if (!ParseInt(value, static_cast<int64_t*>(flag.target))) Die(bad);
        return;
      case Kind::kDouble:
        if (!ParseDouble(value, static_cast<double*>(flag.target))) Die(bad);
        return;
      case Kind::kString:
        if (eq == arg.npos) Die("--" + name + " needs a value");
        *static_cast<std::string*>(flag.target) = value;
        return;
    }
  }
  Die("unknown flag '" + arg + "' (see --help)");
}

void ParseFlags(int argc, char** argv) {
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("Usage: rocksdb_readpath --db=DIR [--flag=value]...\n\n");
      for (const FlagSpec& flag : FlagTable()) {
        std::printf("  --%-26s %s\n", flag.name, flag.help);
      }
      std::exit(0);
    }
    ApplyFlag(arg);
  }
  if (FLAGS.db.empty()) Die("--db is required");
  if (FLAGS.num < 0 || FLAGS.num > INT32_MAX) Die("--num must be in [0, 2^31)");
  if (FLAGS.reads > INT32_MAX) Die("--reads must fit in 31 bits");
  if (FLAGS.value_size < 0 || FLAGS.value_size > (64 << 20)) {
    Die("--value_size must be in [0, 64 MiB]");
  }
  if (!(FLAGS.compression_ratio > 0 && FLAGS.compression_ratio <= 1)) {
    Die("--compression_ratio must be in (0, 1]");
  }
  if (!(FLAGS.zipf > 0 && FLAGS.zipf < 1)) Die("--zipf must be in (0, 1)");
  if (!(FLAGS.zero_lookup_ratio >= 0 && FLAGS.zero_lookup_ratio <= 1)) {
    Die("--zero_lookup_ratio must be in [0, 1]");
  }
  if (FLAGS.target_file_size_base < 1 || FLAGS.write_buffer_size < 1 ||
      FLAGS.block_size < 1 || FLAGS.max_bytes_for_level_base < 0) {
    Die("sizes must be positive");
  }
}

// ---------------------------------------------------------------------------
// Measurement helpers
// ---------------------------------------------------------------------------

double NowSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

rocksdb::Slice ToSlice(std::string_view v) {
  return rocksdb::Slice(v.data(), v.size());
}

// Read syscalls of one benchmark thread and of the rest of the process,
// from /proc (see proc_io.h for the snapshot overhead).
struct SyscallCount {
  bool valid = false;
  uint64_t foreground = 0;
  uint64_t foreground_bytes = 0;
  uint64_t background = 0;
  uint64_t background_bytes = 0;
};

// Runs `body` on a new thread between /proc snapshots of that thread and
// of the process; returns the counts. The calling thread only waits.
template <typename Body>
SyscallCount RunMeasured(Body body) {
  static const uint64_t overhead = proc_io::SnapshotOverhead();
  proc_io::Snapshot thread_before, thread_after;
  const proc_io::Snapshot process_before = proc_io::Process();
  std::thread worker([&] {
    thread_before = proc_io::Thread();
    body();
    thread_after = proc_io::Thread();
  });
  worker.join();
  const proc_io::Snapshot process_after = proc_io::Process();
  SyscallCount count;
  if (!thread_before.valid || !thread_after.valid || !process_before.valid ||
      !process_after.valid) {
    return count;
  }
  count.valid = true;
  const uint64_t seen = proc_io::Delta(thread_before.syscr, thread_after.syscr);
  count.foreground = proc_io::Delta(overhead, seen);
  count.foreground_bytes =
      proc_io::Delta(thread_before.read_bytes, thread_after.read_bytes);
  // The process also saw both of the worker's snapshots and its own first.
  const uint64_t process_seen =
      proc_io::Delta(process_before.syscr, process_after.syscr);
  count.background = proc_io::Delta(seen + 2 * overhead, process_seen);
  count.background_bytes = proc_io::Delta(
      count.foreground_bytes,
      proc_io::Delta(process_before.read_bytes, process_after.read_bytes));
  return count;
}

void ReportSyscalls(const SyscallCount& c, int64_t ops) {
  if (!c.valid) {
    std::printf(
        "foreground read syscalls per op: n/a (no /proc/thread-self/io)\n");
    return;
  }
  const double n = static_cast<double>(std::max<int64_t>(ops, 1));
  std::printf(
      "foreground read syscalls per op: %.4f (%.0f bytes from storage per "
      "op), background read syscalls: %" PRIu64
      " (%.1f MB from storage) [/proc/thread-self/io]\n",
      c.foreground / n, c.foreground_bytes / n, c.background,
      c.background_bytes / 1048576.0);
}

// ---------------------------------------------------------------------------
// The benchmark
// ---------------------------------------------------------------------------

class ReadPathBench {
 public:
  ReadPathBench() : live_keys_(static_cast<uint64_t>(FLAGS.num)) {}
  ~ReadPathBench() { CloseDb(); }

  int Run() {
    std::vector<std::string> plan;
    size_t begin = 0;
    while (begin <= FLAGS.benchmarks.size()) {
      size_t end = FLAGS.benchmarks.find(',', begin);
      if (end == std::string::npos) end = FLAGS.benchmarks.size();
      const std::string name = FLAGS.benchmarks.substr(begin, end - begin);
      begin = end + 1;
      if (name.empty()) continue;
      if (name != "fillunique" && name != "readzipf" && name != "stats") {
        Die("unknown benchmark '" + name + "'");
      }
      plan.push_back(name);
    }
    PrintHeader();
    if (!FLAGS.use_existing_db) Destroy();
    OpenDb();
    for (const std::string& name : plan) {
      if (name == "fillunique") {
        FillUnique();
      } else if (name == "readzipf") {
        ReadZipf();
      } else {
        PrintDbStats();
      }
      std::fflush(stdout);
    }
    CloseDb();
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0) {
      std::printf("Peak RSS:   %ld KiB\n", usage.ru_maxrss);
    }
    return 0;
  }

 private:
  rocksdb::Options DbOptions() {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.compaction_style = rocksdb::kCompactionStyleLevel;
    options.target_file_size_base =
        static_cast<uint64_t>(FLAGS.target_file_size_base);
    options.write_buffer_size = static_cast<size_t>(FLAGS.write_buffer_size);
    if (FLAGS.max_bytes_for_level_base > 0) {
      options.max_bytes_for_level_base =
          static_cast<uint64_t>(FLAGS.max_bytes_for_level_base);
    }
    options.max_open_files = -1;
    options.use_direct_reads = FLAGS.direct_io;
    options.compression = FLAGS.compression ? rocksdb::kSnappyCompression
                                            : rocksdb::kNoCompression;
    if (FLAGS.statistics) statistics_ = rocksdb::CreateDBStatistics();
    options.statistics = statistics_;

    rocksdb::BlockBasedTableOptions table;
    table.block_size = static_cast<size_t>(FLAGS.block_size);
    if (FLAGS.bloom_bits >= 0) {
      table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(
          static_cast<double>(FLAGS.bloom_bits), false));
    }
    table.cache_index_and_filter_blocks = false;  // held by table readers
    table.no_block_cache = !FLAGS.fill_cache;
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    return options;
  }

  void Destroy() {
    rocksdb::Status s = rocksdb::DestroyDB(FLAGS.db, rocksdb::Options());
    if (!s.ok()) Die("cannot remove " + FLAGS.db + ": " + s.ToString());
  }

  void OpenDb() {
    rocksdb::DB* db = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(DbOptions(), FLAGS.db, &db);
    if (!s.ok()) Die("cannot open " + FLAGS.db + ": " + s.ToString());
    db_.reset(db);
  }

  void CloseDb() {
    if (db_ == nullptr) return;
    rocksdb::Status s = db_->Close();
    if (!s.ok()) {
      std::fprintf(stderr, "rocksdb_readpath: close: %s\n",
                   s.ToString().c_str());
    }
    db_.reset();
  }

  static void PrintHeader() {
    std::printf("RocksDB:    version %d.%d.%d\n", ROCKSDB_MAJOR, ROCKSDB_MINOR,
                ROCKSDB_PATCH);
    std::printf("Keys:       %d bytes each\n", zipf_keys::kKeySize);
    std::printf("Values:     %" PRId64 " bytes each (ratio %.2f)\n",
                FLAGS.value_size, FLAGS.compression_ratio);
    std::printf("Entries:    %" PRId64 "\n", FLAGS.num);
    if (FLAGS.bloom_bits >= 0) {
      std::printf("Filter:     full Bloom, %" PRId64
                  " bits/key, held by table readers\n",
                  FLAGS.bloom_bits);
    } else {
      std::printf("Filter:     none\n");
    }
    std::printf("Options:    leveled, target_file_size_base %" PRId64
                ", write_buffer_size %" PRId64
                ", max_open_files -1, block %" PRId64 ", %s\n",
                FLAGS.target_file_size_base, FLAGS.write_buffer_size,
                FLAGS.block_size,
                FLAGS.compression ? "snappy" : "no compression");
    std::printf("DirectIO:   %s; fill_cache=%d (%s)\n",
                FLAGS.direct_io ? "on (use_direct_reads)" : "off",
                FLAGS.fill_cache ? 1 : 0,
                FLAGS.fill_cache ? "8 MiB block cache" : "no_block_cache");
    std::printf("Database:   %s\n", FLAGS.db.c_str());
    std::printf("%s\n", std::string(48, '-').c_str());
    std::fflush(stdout);
  }

  void FillUnique() {
    const uint32_t n = static_cast<uint32_t>(FLAGS.num);
    const std::vector<uint32_t> order =
        zipf_keys::UniqueKeyOrder(n, FLAGS.seed);
    zipf_keys::ValueSource values(static_cast<size_t>(FLAGS.value_size),
                                  FLAGS.compression_ratio);
    rocksdb::WriteOptions write_options;
    double seconds = 0;
    const SyscallCount io = RunMeasured([&] {
      zipf_keys::KeyFormatter key;
      const double start = NowSeconds();
      for (uint32_t i = 0; i < n; i++) {
        rocksdb::Status s = db_->Put(
            write_options, ToSlice(key.Set(order[i])),
            ToSlice(values.Next(static_cast<size_t>(FLAGS.value_size))));
        if (!s.ok()) Die("put: " + s.ToString());
      }
      seconds = NowSeconds() - start;
    });
    (void)io;
    live_keys_ = n;
    const double rate = n / std::max(seconds, 1e-9);
    std::printf("%-12s : %11.3f micros/op; %6.1f MB/s\n", "fillunique",
                seconds * 1e6 / std::max<uint32_t>(n, 1),
                n * (zipf_keys::kKeySize + FLAGS.value_size) / 1048576.0 /
                    std::max(seconds, 1e-9));
    std::printf("load: %.0f ops/s\n", rate);
    ReportMemory("fillunique");
  }

  void ReadZipf() {
    const int64_t reads = FLAGS.reads < 0 ? FLAGS.num : FLAGS.reads;
    const zipf_keys::ScrambledZipfian zipf(static_cast<uint64_t>(FLAGS.num),
                                           FLAGS.zipf);
    rocksdb::ReadOptions read_options;
    read_options.fill_cache = FLAGS.fill_cache;
    read_options.verify_checksums = false;  // LevelDB's ReadOptions default
    int64_t found = 0, absent_lookups = 0, absent_found = 0;
    double seconds = 0;
    if (statistics_ != nullptr) statistics_->Reset();
    const SyscallCount io = RunMeasured([&] {
      zipf_keys::SplitMix64 rng(zipf_keys::ThreadSeed64(FLAGS.seed, 0));
      zipf_keys::KeyFormatter key;
      std::string value;
      const double start = NowSeconds();
      for (int64_t i = 0; i < reads; i++) {
        const zipf_keys::ZipfLookup lookup =
            zipf_keys::NextZipfLookup(zipf, FLAGS.zero_lookup_ratio, &rng);
        rocksdb::Status s = db_->Get(
            read_options,
            ToSlice(key.Set(lookup.key,
                            lookup.absent ? zipf_keys::kAbsentSuffix : "")),
            &value);
        if (s.ok()) {
          found++;
          if (lookup.absent) absent_found++;
        } else if (!s.IsNotFound()) {
          Die("get: " + s.ToString());
        }
        if (lookup.absent) absent_lookups++;
      }
      seconds = NowSeconds() - start;
    });
    const double rate = reads / std::max(seconds, 1e-9);
    std::printf("%-12s : %11.3f micros/op;\n", "readzipf",
                seconds * 1e6 / std::max<int64_t>(reads, 1));
    std::printf("readzipf: %" PRId64 " lookups (theta %.2f), %" PRId64
                " found, %" PRId64 " not found; %" PRId64
                " for absent keys (%" PRId64 " of them found); %.0f Gets/s\n",
                reads, FLAGS.zipf, found, reads - found, absent_lookups,
                absent_found, rate);
    ReportSyscalls(io, reads);
    if (statistics_ != nullptr) {
      using rocksdb::Tickers;
      std::printf(
          "bloom: useful %" PRIu64 ", full positive %" PRIu64
          ", full true positive %" PRIu64 "; block reads (cache miss) %" PRIu64
          "\n",
          statistics_->getTickerCount(Tickers::BLOOM_FILTER_USEFUL),
          statistics_->getTickerCount(Tickers::BLOOM_FILTER_FULL_POSITIVE),
          statistics_->getTickerCount(Tickers::BLOOM_FILTER_FULL_TRUE_POSITIVE),
          statistics_->getTickerCount(Tickers::BLOCK_CACHE_DATA_MISS));
    }
    ReportMemory("readzipf");
  }

  // Filter bytes of the live tables (table properties) and what the table
  // readers hold in all (index and filter blocks, the property RocksDB
  // offers for it).
  void ReportMemory(const char* after) {
    std::printf("--- memory after %s ---\n", after);
    const double keys = static_cast<double>(std::max<uint64_t>(live_keys_, 1));
    rocksdb::TablePropertiesCollection tables;
    rocksdb::Status s = db_->GetPropertiesOfAllTables(&tables);
    if (s.ok()) {
      uint64_t filter = 0, index = 0, entries = 0;
      for (const auto& entry : tables) {
        filter += entry.second->filter_size;
        index += entry.second->index_size;
        entries += entry.second->num_entries;
      }
      std::printf("live keys: %" PRIu64 "\n", live_keys_);
      std::printf("filter blocks in %zu live table files: %" PRIu64
                  " bytes = %.2f bits per live key; index blocks: %" PRIu64
                  " bytes; entries in tables: %" PRIu64 "\n",
                  tables.size(), filter, filter * 8 / keys, index, entries);
    } else {
      std::printf("filter blocks: n/a (%s)\n", s.ToString().c_str());
    }
    uint64_t readers = 0;
    if (db_->GetIntProperty(rocksdb::DB::Properties::kEstimateTableReadersMem,
                            &readers)) {
      std::printf("rocksdb.estimate-table-readers-mem: %" PRIu64
                  " bytes = %.2f bits per live key (index + filter)\n",
                  readers, readers * 8 / keys);
    }
  }

  void PrintDbStats() {
    std::string stats;
    if (db_->GetProperty(rocksdb::DB::Properties::kStats, &stats)) {
      std::printf("\n%s\n", stats.c_str());
    }
  }

  std::unique_ptr<rocksdb::DB> db_;
  std::shared_ptr<rocksdb::Statistics> statistics_;
  uint64_t live_keys_;
};

}  // namespace

int main(int argc, char** argv) {
  ParseFlags(argc, argv);
  ReadPathBench bench;
  return bench.Run();
}
