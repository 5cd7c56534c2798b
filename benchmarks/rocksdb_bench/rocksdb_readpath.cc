// rocksdb_readpath: RocksDB's side of the read-path evaluation
// (scripts/eval_readpath.sh, docs/evaluation-readpath.md): db_bench's
// fillunique, settle and readzipf against RocksDB (Debian's librocksdb-dev)
// with the very same workload code (zipf_keys.h), threads, seeds and kernel
// I/O counts (common/proc_stats.h), so equal flags give equal writes and
// lookups. RocksDB settings: leveled compaction, filters of --bloom_bits
// bits per key held by the table readers, full Bloom or Ribbon on every
// level (RocksDB reads Ribbon's bits as Bloom-equivalent), no block cache
// unless --fill_cache, direct reads, all tables open, snappy, 4 KiB blocks.
//
// Output lines use db_bench's wording, so the same parser reads both. This
// program never links or includes LevelDB (neither this fork nor upstream).

#include <algorithm>
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

#include "common/client_threads.h"
#include "common/flags.h"
#include "common/proc_stats.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/version.h"
#include "zipf_keys.h"

namespace {

// ---- Flags ----

struct Flags {
  std::string benchmarks = "fillunique,readzipf";
  int64_t num = 1000000;
  int64_t reads = -1;  // per thread; negative: --num
  int64_t threads = 1;
  int64_t max_open_files = -1;  // -1: every table stays open
  int64_t value_size = 100;
  double bloom_bits = 4;         // negative: no filter
  std::string filter = "bloom";  // or "ribbon"
  int64_t target_file_size_base = 64 << 20;
  int64_t write_buffer_size = 4 << 20;   // LevelDB's default
  int64_t max_bytes_for_level_base = 0;  // 0: RocksDB's default
  bool direct_io = true;
  bool fill_cache = false;
  bool use_existing_db = false;
  double zipf = 0.99;
  double zero_lookup_ratio = 0.0;
  int64_t seed = 0;
  std::string db;
};

Flags FLAGS;

// Fixed, as db_bench's defaults: values that compress to half their size
// (snappy), 4 KiB blocks.
constexpr double kCompressionRatio = 0.5;
constexpr size_t kBlockSize = 4096;

using bench::FlagType;

const std::vector<bench::Flag>& FlagTable() {
  static const std::vector<bench::Flag> table = {
      {"benchmarks", FlagType::kString, &FLAGS.benchmarks,
       "comma-separated: fillunique, settle, readzipf"},
      {"num", FlagType::kInt, &FLAGS.num, "number of keys"},
      {"reads", FlagType::kInt, &FLAGS.reads,
       "readzipf Gets per thread (negative: --num)"},
      {"threads", FlagType::kInt, &FLAGS.threads,
       "client threads of fillunique and readzipf, in [1, 1024]"},
      {"max_open_files", FlagType::kInt, &FLAGS.max_open_files,
       "Options::max_open_files (-1: all tables open)"},
      {"value_size", FlagType::kInt, &FLAGS.value_size, "bytes per value"},
      {"bloom_bits", FlagType::kDouble, &FLAGS.bloom_bits,
       "filter bits per key (negative: none); Bloom-equivalent for ribbon"},
      {"filter", FlagType::kString, &FLAGS.filter,
       "filter kind: bloom (full Bloom) or ribbon"},
      {"target_file_size_base", FlagType::kInt, &FLAGS.target_file_size_base,
       "Options::target_file_size_base"},
      {"write_buffer_size", FlagType::kInt, &FLAGS.write_buffer_size,
       "Options::write_buffer_size (default 4 MiB, LevelDB's)"},
      {"max_bytes_for_level_base", FlagType::kInt,
       &FLAGS.max_bytes_for_level_base,
       "Options::max_bytes_for_level_base (0: RocksDB default)"},
      {"direct_io", FlagType::kBool, &FLAGS.direct_io,
       "Options::use_direct_reads"},
      {"fill_cache", FlagType::kBool, &FLAGS.fill_cache,
       "keep a block cache (8 MiB, RocksDB's default) and fill it"},
      {"use_existing_db", FlagType::kBool, &FLAGS.use_existing_db,
       "open the existing --db (must exist) and skip fillunique"},
      {"zipf", FlagType::kDouble, &FLAGS.zipf, "Zipfian theta, in (0, 1)"},
      {"zero_lookup_ratio", FlagType::kDouble, &FLAGS.zero_lookup_ratio,
       "share of lookups for absent keys, in [0, 1]"},
      {"seed", FlagType::kInt, &FLAGS.seed, "seed of the key generators"},
      {"db", FlagType::kString, &FLAGS.db, "database directory (required)"},
  };
  return table;
}

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "rocksdb_readpath: %s\n", message.c_str());
  std::exit(1);
}

void ParseFlags(int argc, char** argv) {
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("Usage: rocksdb_readpath --db=DIR [--flag=value]...\n\n");
      bench::PrintFlags(FlagTable(), 26);
      std::exit(0);
    }
    bool unknown = false;
    const std::string error = bench::ApplyFlag(FlagTable(), arg, &unknown);
    if (!error.empty()) Die(unknown ? error + " (see --help)" : error);
  }
  auto require = [](bool ok, const char* what) {
    if (!ok) Die(what);
  };
  require(!FLAGS.db.empty(), "--db is required");
  require(FLAGS.num >= 0 && FLAGS.num <= INT32_MAX,
          "--num must be in [0, 2^31)");
  require(FLAGS.reads <= INT32_MAX, "--reads must fit in 31 bits");
  require(FLAGS.threads >= 1 && FLAGS.threads <= 1024,
          "--threads must be in [1, 1024]");
  // RocksDB silently raises smaller limits to 20: refuse them instead.
  require(FLAGS.max_open_files == -1 ||
              (FLAGS.max_open_files >= 20 && FLAGS.max_open_files <= INT32_MAX),
          "--max_open_files must be -1 (all tables open) or at least 20");
  require(FLAGS.value_size >= 0 && FLAGS.value_size <= (64 << 20),
          "--value_size must be in [0, 64 MiB]");
  require(FLAGS.zipf > 0 && FLAGS.zipf < 1, "--zipf must be in (0, 1)");
  require(FLAGS.zero_lookup_ratio >= 0 && FLAGS.zero_lookup_ratio <= 1,
          "--zero_lookup_ratio must be in [0, 1]");
  if (FLAGS.filter != "bloom" && FLAGS.filter != "ribbon") {
    Die("--filter must be bloom or ribbon, got '" + FLAGS.filter + "'");
  }
  require(FLAGS.target_file_size_base >= 1 && FLAGS.write_buffer_size >= 1 &&
              FLAGS.max_bytes_for_level_base >= 0,
          "sizes must be positive");
}

// ---- Measurement helpers ----

double NowSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

rocksdb::Slice ToSlice(std::string_view v) {
  return rocksdb::Slice(v.data(), v.size());
}

// What one client thread did during one benchmark.
struct ThreadResult {
  int tid = 0;
  double start = 0;
  double finish = 0;
  int64_t ops = 0;
  int64_t bytes = 0;
  zipf_keys::LookupCounts lookups;  // readzipf only
};

// The client threads of one benchmark together.
struct RunResult {
  int64_t ops = 0;
  int64_t bytes = 0;
  zipf_keys::LookupCounts lookups;
  double elapsed = 0;         // first thread's start to last one's finish
  double thread_seconds = 0;  // summed over the threads
  proc_io::SyscallCount io;

  double OpsPerSecond() const { return ops / std::max(elapsed, 1e-9); }
  double MicrosPerOp() const {
    return thread_seconds * 1e6 /
           static_cast<double>(std::max<int64_t>(ops, 1));
  }
};

// Runs body(ThreadResult*) on n new client threads (thread i gets tid i);
// the calling thread only waits. Merged as db_bench merges its threads.
template <typename Body>
RunResult RunThreads(int n, Body body) {
  std::vector<ThreadResult> results(static_cast<size_t>(n));
  bench::ClientThreads clients(n);
  clients.Run(
      [&results, &body](int i) {
        ThreadResult* t = &results[static_cast<size_t>(i)];
        t->tid = i;
        t->start = NowSeconds();
        body(t);
        t->finish = NowSeconds();
      },
      [](std::vector<std::thread>&) { return std::unique_ptr<int>(); });
  RunResult run;
  run.io = clients.Syscalls();
  double first_start = results.front().start;
  double last_finish = results.front().finish;
  for (const ThreadResult& t : results) {
    run.ops += t.ops;
    run.bytes += t.bytes;
    run.lookups.Merge(t.lookups);
    run.thread_seconds += t.finish - t.start;
    first_start = std::min(first_start, t.start);
    last_finish = std::max(last_finish, t.finish);
  }
  run.elapsed = last_finish - first_start;
  return run;
}

// ---- The benchmark ----

// settle polls every half second and stops after this many quiet polls in
// a row (two seconds, as db_bench) or this many polls in all (30 min).
constexpr int kSettleQuietPolls = 4;
constexpr int kSettleMaxPolls = 3600;

class ReadPathBench {
 public:
  ReadPathBench() = default;
  ~ReadPathBench() { CloseDb(); }

  int Run() {
    const std::vector<std::string> plan = Plan();
    if (FLAGS.use_existing_db) RequireExistingDb();
    PrintHeader();
    if (FLAGS.use_existing_db) {
      live_keys_known_ = false;
    } else {
      Destroy();
    }
    OpenDb();
    for (const std::string& name : plan) {
      if (name == "fillunique") {
        FillUnique();
      } else if (name == "settle") {
        Settle();
      } else {
        ReadZipf();
      }
      std::fflush(stdout);
    }
    CloseDb();
    bench::PrintPeakRss();
    return 0;
  }

 private:
  // Resolves --benchmarks before anything runs, so a typo costs nothing.
  static std::vector<std::string> Plan() {
    std::vector<std::string> plan;
    for (const std::string& name : bench::SplitCommas(FLAGS.benchmarks)) {
      if (name.empty()) continue;
      if (name != "fillunique" && name != "settle" && name != "readzipf") {
        Die("unknown benchmark '" + name + "' (fillunique, settle, readzipf)");
      }
      plan.push_back(name);
    }
    return plan;
  }

  static void RequireExistingDb() {
    rocksdb::Status s =
        rocksdb::Env::Default()->FileExists(FLAGS.db + "/CURRENT");
    if (s.IsNotFound()) {
      Die("--use_existing_db: no database in " + FLAGS.db +
          " (no CURRENT file)");
    }
    if (!s.ok()) Die("cannot check " + FLAGS.db + ": " + s.ToString());
  }

  rocksdb::Options DbOptions() {
    rocksdb::Options options;
    options.create_if_missing = !FLAGS.use_existing_db;
    options.compaction_style = rocksdb::kCompactionStyleLevel;
    options.target_file_size_base =
        static_cast<uint64_t>(FLAGS.target_file_size_base);
    options.write_buffer_size = static_cast<size_t>(FLAGS.write_buffer_size);
    if (FLAGS.max_bytes_for_level_base > 0) {
      options.max_bytes_for_level_base =
          static_cast<uint64_t>(FLAGS.max_bytes_for_level_base);
    }
    options.max_open_files = static_cast<int>(FLAGS.max_open_files);
    options.use_direct_reads = FLAGS.direct_io;
    options.compression = rocksdb::kSnappyCompression;

    rocksdb::BlockBasedTableOptions table;
    table.block_size = kBlockSize;
    table.filter_policy = NewFilterPolicy();
    table.cache_index_and_filter_blocks = false;  // held by table readers
    table.no_block_cache = !FLAGS.fill_cache;
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    return options;
  }

  // Null without a filter. Ribbon on every level: by default RocksDB would
  // give the flushed (level-0) tables Bloom filters.
  static std::shared_ptr<const rocksdb::FilterPolicy> NewFilterPolicy() {
    if (FLAGS.bloom_bits < 0) return nullptr;
    const double bits = FLAGS.bloom_bits;
    if (FLAGS.filter == "ribbon") {
      constexpr int kRibbonOnEveryLevel = -1;
      return std::shared_ptr<const rocksdb::FilterPolicy>(
          rocksdb::NewRibbonFilterPolicy(bits, kRibbonOnEveryLevel));
    }
    return std::shared_ptr<const rocksdb::FilterPolicy>(
        rocksdb::NewBloomFilterPolicy(bits, false));
  }

  void Destroy() {
    rocksdb::Status s = rocksdb::DestroyDB(FLAGS.db, rocksdb::Options());
    if (!s.ok()) Die("cannot remove " + FLAGS.db + ": " + s.ToString());
    live_keys_ = 0;
    live_keys_known_ = true;
  }

  void OpenDb() {
    rocksdb::DB* db = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(DbOptions(), FLAGS.db, &db);
    if (!s.ok()) Die("cannot open " + FLAGS.db + ": " + s.ToString());
    db_.reset(db);
    // RocksDB may lower the limit to what the process may open.
    const int effective = db_->GetDBOptions().max_open_files;
    if (effective != FLAGS.max_open_files) {
      std::printf("WARNING: RocksDB uses max_open_files %d, not %" PRId64 "\n",
                  effective, FLAGS.max_open_files);
    }
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
                FLAGS.value_size, kCompressionRatio);
    std::printf("Entries:    %" PRId64 "\n", FLAGS.num);
    std::printf("Threads:    %" PRId64 "\n", FLAGS.threads);
    if (FLAGS.bloom_bits >= 0 && FLAGS.filter == "ribbon") {
      std::printf(
          "Filter:     Ribbon on every level, %g"
          " Bloom-equivalent bits/key, held by table readers\n",
          FLAGS.bloom_bits);
    } else if (FLAGS.bloom_bits >= 0) {
      std::printf(
          "Filter:     full Bloom, %g bits/key, held by table readers\n",
          FLAGS.bloom_bits);
    } else {
      std::printf("Filter:     none\n");
    }
    std::printf("Options:    leveled, target_file_size_base %" PRId64
                ", write_buffer_size %" PRId64 ", max_open_files %" PRId64
                ", block %zu, snappy\n",
                FLAGS.target_file_size_base, FLAGS.write_buffer_size,
                FLAGS.max_open_files, kBlockSize);
    std::printf("DirectIO:   %s; fill_cache=%d (%s)\n",
                FLAGS.direct_io ? "on (use_direct_reads)" : "off",
                FLAGS.fill_cache ? 1 : 0,
                FLAGS.fill_cache ? "8 MiB block cache" : "no_block_cache");
    std::printf("Database:   %s%s\n", FLAGS.db.c_str(),
                FLAGS.use_existing_db ? " (existing)" : "");
    std::printf("%s\n", std::string(48, '-').c_str());
    std::fflush(stdout);
  }

  // Starts from an empty database, as db_bench's fill benchmarks do.
  void FillUnique() {
    if (FLAGS.use_existing_db) {
      std::printf("%-12s : skipped (--use_existing_db is true)\n",
                  "fillunique");
      return;
    }
    CloseDb();
    Destroy();
    OpenDb();
    const uint32_t n = static_cast<uint32_t>(FLAGS.num);
    const std::vector<uint32_t> order =
        zipf_keys::UniqueKeyOrder(n, FLAGS.seed);
    const int threads = static_cast<int>(FLAGS.threads);
    const RunResult run = RunThreads(threads, [&](ThreadResult* t) {
      const int64_t begin = int64_t{n} * t->tid / threads;
      const int64_t end = int64_t{n} * (t->tid + 1) / threads;
      WriteShare(order, begin, end, t);
    });
    live_keys_ = n;
    char rate[64];
    std::snprintf(rate, sizeof(rate), "%6.1f MB/s",
                  run.bytes / 1048576.0 / std::max(run.elapsed, 1e-9));
    bench::PrintRunLine("fillunique", run.MicrosPerOp(), rate);
    std::printf("load: %.0f ops/s\n", run.OpsPerSecond());
    ReportMemory("fillunique");
  }

  // Writes order[begin, end) on the calling client thread.
  void WriteShare(const std::vector<uint32_t>& order, int64_t begin,
                  int64_t end, ThreadResult* t) {
    const size_t value_size = static_cast<size_t>(FLAGS.value_size);
    zipf_keys::ValueSource values(value_size, kCompressionRatio);
    zipf_keys::KeyFormatter key;
    const rocksdb::WriteOptions write_options;
    for (int64_t i = begin; i < end; i++) {
      rocksdb::Status s = db_->Put(write_options, ToSlice(key.Set(order[i])),
                                   ToSlice(values.Next(value_size)));
      if (!s.ok()) Die("put: " + s.ToString());
      t->ops++;
      t->bytes += zipf_keys::kKeySize + FLAGS.value_size;
    }
  }

  // True while RocksDB has a flush or a compaction running or pending.
  bool BackgroundWorkPending() {
    static const char* const kProperties[] = {
        "rocksdb.num-running-compactions", "rocksdb.compaction-pending",
        "rocksdb.num-running-flushes", "rocksdb.mem-table-flush-pending"};
    for (const char* property : kProperties) {
      uint64_t value = 0;
      if (!db_->GetIntProperty(property, &value)) {
        Die(std::string("settle: property ") + property + " not available");
      }
      if (value != 0) return true;
    }
    return false;
  }

  // Waits until the background work the load left behind is over, polling
  // on db_bench's schedule.
  void Settle() {
    const double start = NowSeconds();
    int quiet_polls = 0;
    for (int poll = 0;
         poll < kSettleMaxPolls && quiet_polls < kSettleQuietPolls; ++poll) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      quiet_polls = BackgroundWorkPending() ? 0 : quiet_polls + 1;
    }
    const bool settled = quiet_polls >= kSettleQuietPolls;
    bench::PrintRunLine(
        "settle", (NowSeconds() - start) * 1e6,
        settled ? "(no flush or compaction running or pending)"
                : "(gave up: flushes or compactions still pending)");
  }

  void ReadZipf() {
    const int64_t reads = FLAGS.reads < 0 ? FLAGS.num : FLAGS.reads;
    const zipf_keys::ScrambledZipfian zipf(static_cast<uint64_t>(FLAGS.num),
                                           FLAGS.zipf);
    const RunResult run =
        RunThreads(static_cast<int>(FLAGS.threads),
                   [&](ThreadResult* t) { ReadZipfShare(zipf, reads, t); });
    bench::PrintRunLine("readzipf", run.MicrosPerOp(), "");
    std::printf("readzipf: %" PRId64 " lookups (theta %.2f), %" PRId64
                " found, %" PRId64 " not found; %" PRId64
                " for absent keys (%" PRId64 " of them found); %.0f Gets/s\n",
                run.ops, FLAGS.zipf, run.lookups.found,
                run.ops - run.lookups.found, run.lookups.absent_lookups,
                run.lookups.absent_found, run.OpsPerSecond());
    proc_io::PrintSyscalls(run.io, run.ops);
    ReportMemory("readzipf");
  }

  // `reads` lookups from client thread t's own stream (db_bench's seeds).
  void ReadZipfShare(const zipf_keys::ScrambledZipfian& zipf, int64_t reads,
                     ThreadResult* t) {
    rocksdb::ReadOptions read_options;
    read_options.fill_cache = FLAGS.fill_cache;
    read_options.verify_checksums = false;  // LevelDB's ReadOptions default
    zipf_keys::SplitMix64 rng(zipf_keys::ThreadSeed64(FLAGS.seed, t->tid));
    zipf_keys::KeyFormatter key;
    std::string value;
    for (int64_t i = 0; i < reads; i++) {
      const zipf_keys::ZipfLookup lookup =
          zipf_keys::NextZipfLookup(zipf, FLAGS.zero_lookup_ratio, &rng);
      rocksdb::Status s = db_->Get(
          read_options,
          ToSlice(key.Set(lookup.key,
                          lookup.absent ? zipf_keys::kAbsentSuffix : "")),
          &value);
      if (!s.ok() && !s.IsNotFound()) Die("get: " + s.ToString());
      t->lookups.Add(s.ok(), lookup.absent);
      t->ops++;
    }
  }

  // Filter bytes of the live tables (table properties) and what the table
  // readers hold in all (index and filter blocks, the property RocksDB
  // offers for it). Per live key when this run wrote the database, else
  // per --num key, as db_bench.
  void ReportMemory(const char* after) {
    std::printf("--- memory after %s ---\n", after);
    const double keys =
        live_keys_known_
            ? static_cast<double>(std::max<uint64_t>(live_keys_, 1))
            : static_cast<double>(std::max<int64_t>(FLAGS.num, 1));
    const char* per = live_keys_known_ ? "live key" : "--num key";
    rocksdb::TablePropertiesCollection tables;
    rocksdb::Status s = db_->GetPropertiesOfAllTables(&tables);
    if (s.ok()) {
      uint64_t filter = 0, index = 0, entries = 0;
      for (const auto& entry : tables) {
        filter += entry.second->filter_size;
        index += entry.second->index_size;
        entries += entry.second->num_entries;
      }
      if (live_keys_known_) std::printf("live keys: %" PRIu64 "\n", live_keys_);
      std::printf("filter blocks in %zu live table files: %" PRIu64
                  " bytes = %.2f bits per %s; index blocks: %" PRIu64
                  " bytes; entries in tables: %" PRIu64 "\n",
                  tables.size(), filter, filter * 8 / keys, per, index,
                  entries);
    } else {
      std::printf("filter blocks: n/a (%s)\n", s.ToString().c_str());
    }
    uint64_t readers = 0;
    if (db_->GetIntProperty(rocksdb::DB::Properties::kEstimateTableReadersMem,
                            &readers)) {
      std::printf("rocksdb.estimate-table-readers-mem: %" PRIu64
                  " bytes = %.2f bits per %s (index + filter)\n",
                  readers, readers * 8 / keys, per);
    }
  }

  std::unique_ptr<rocksdb::DB> db_;
  uint64_t live_keys_ = 0;
  bool live_keys_known_ = true;
};

}  // namespace

int main(int argc, char** argv) {
  ParseFlags(argc, argv);
  ReadPathBench bench;
  return bench.Run();
}
