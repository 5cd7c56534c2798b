// db_bench: end-to-end throughput and latency of a database through its
// public API.
//
// The program uses nothing but the public headers, so the same source builds
// against this library and (with LEVELDB_UPSTREAM_BUILD defined) against the
// system's LevelDB; benchmarks/compare_upstream.sh runs the two side by side.
//
// Usage: db_bench [--flag=value]...   (db_bench --help lists the flags)
//
// Output: a header describing the workload, then one line per benchmark
//   name : X micros/op; Y MB/s (extra)
// optionally followed by a latency histogram, and finally a "Peak RSS" line.
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "leveldb/write_batch.h"

#if __has_include(<snappy.h>) && !defined(DB_BENCH_NO_SNAPPY)
#include <snappy.h>
#define DB_BENCH_HAVE_SNAPPY 1
#endif

namespace {

using leveldb::Slice;
using leveldb::Status;

// ---------------------------------------------------------------------------
// Flags
// ---------------------------------------------------------------------------

// What runs when --benchmarks is not given: the classic sequence, with an
// extra readrandom so compactions triggered by the writes can settle.
constexpr const char* kDefaultBenchmarks =
    "fillseq,fillsync,fillrandom,overwrite,readrandom,readrandom,readseq,"
    "readreverse,compact,readrandom,readseq,readreverse,fill100K,crc32c,"
    "snappycomp,snappyuncomp";

struct Flags {
  std::string benchmarks = kDefaultBenchmarks;
  int64_t num = 1000000;           // entries to write (and key space size)
  int64_t reads = -1;              // read operations; negative means num
  int64_t threads = 1;             // concurrent threads per benchmark
  int64_t value_size = 100;        // bytes per value
  double compression_ratio = 0.5;  // target compressed/raw size of values
  bool histogram = false;          // print latency histograms
  // Database knobs; the size defaults are filled from leveldb::Options.
  int64_t write_buffer_size = 0;
  int64_t max_file_size = 0;
  int64_t block_size = 0;
  int64_t open_files = 0;
  int64_t cache_size = -1;  // bytes of block cache; negative: library default
  int64_t bloom_bits = -1;  // bits per key of a Bloom filter; negative: none
  bool compression = true;  // snappy-compress table blocks
  bool use_existing_db = false;
  bool reuse_logs = false;
  std::string db;  // database directory; empty: <test dir>/dbbench
};

Flags FLAGS;

enum class FlagType { kBool, kInt, kDouble, kString };

// One command-line flag. New flags (e.g. for new filter policies or I/O
// statistics) only need a row in FlagTable().
struct FlagSpec {
  const char* name;
  FlagType type;
  void* target;
  int64_t min_value;  // lower bound for kInt flags
  const char* help;
};

const std::vector<FlagSpec>& FlagTable() {
  static const std::vector<FlagSpec> table = {
      {"benchmarks", FlagType::kString, &FLAGS.benchmarks, 0,
       "comma-separated list of benchmarks to run, in order"},
      {"num", FlagType::kInt, &FLAGS.num, 0, "number of entries"},
      {"reads", FlagType::kInt, &FLAGS.reads, INT64_MIN,
       "number of reads (negative: --num)"},
      {"threads", FlagType::kInt, &FLAGS.threads, 1,
       "threads running each benchmark"},
      {"value_size", FlagType::kInt, &FLAGS.value_size, 0, "bytes per value"},
      {"compression_ratio", FlagType::kDouble, &FLAGS.compression_ratio, 0,
       "fraction of its size a value compresses to, in (0, 1]"},
      {"histogram", FlagType::kBool, &FLAGS.histogram, 0,
       "print a latency histogram per benchmark"},
      {"write_buffer_size", FlagType::kInt, &FLAGS.write_buffer_size, 1,
       "Options::write_buffer_size"},
      {"max_file_size", FlagType::kInt, &FLAGS.max_file_size, 1,
       "Options::max_file_size"},
      {"block_size", FlagType::kInt, &FLAGS.block_size, 1,
       "Options::block_size"},
      {"open_files", FlagType::kInt, &FLAGS.open_files, 0,
       "Options::max_open_files (0: library default)"},
      {"cache_size", FlagType::kInt, &FLAGS.cache_size, INT64_MIN,
       "block cache bytes (negative: library default)"},
      {"bloom_bits", FlagType::kInt, &FLAGS.bloom_bits, INT64_MIN,
       "Bloom filter bits per key (negative: no filter)"},
      {"compression", FlagType::kBool, &FLAGS.compression, 0,
       "snappy-compress table blocks"},
      {"use_existing_db", FlagType::kBool, &FLAGS.use_existing_db, 0,
       "reuse the database in --db instead of starting empty"},
      {"reuse_logs", FlagType::kBool, &FLAGS.reuse_logs, 0,
       "Options::reuse_logs"},
      {"db", FlagType::kString, &FLAGS.db, 0, "database directory"},
  };
  return table;
}

[[noreturn]] void FlagError(const std::string& message) {
  std::fprintf(stderr, "db_bench: %s (see --help)\n", message.c_str());
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

bool ParseBool(const std::string& text, bool* value) {
  if (text == "1" || text == "true") {
    *value = true;
  } else if (text == "0" || text == "false") {
    *value = false;
  } else {
    return false;
  }
  return true;
}

void PrintFlagHelp() {
  std::printf("Usage: db_bench [--flag=value]...\n\nFlags:\n");
  for (const FlagSpec& flag : FlagTable()) {
    std::printf("  --%-20s %s\n", flag.name, flag.help);
  }
  std::printf(
      "\nBenchmarks: fillseq fillbatch fillrandom overwrite fillsync "
      "fill100K\n  readseq readreverse readrandom readmissing readhot "
      "seekrandom\n  readwhilewriting deleteseq deleterandom compact crc32c "
      "snappycomp\n  snappyuncomp stats sstables\n");
}

// Applies one "--name=value" (or "--name" for a boolean) argument.
void ApplyFlag(const std::string& arg) {
  if (arg.compare(0, 2, "--") != 0)
    FlagError("unexpected argument '" + arg + "'");
  const size_t eq = arg.find('=');
  const std::string name =
      arg.substr(2, eq == std::string::npos ? arg.npos : eq - 2);
  const bool has_value = eq != std::string::npos;
  const std::string value = has_value ? arg.substr(eq + 1) : std::string();
  for (const FlagSpec& flag : FlagTable()) {
    if (name != flag.name) continue;
    const std::string bad = "invalid value '" + value + "' for --" + name;
    switch (flag.type) {
      case FlagType::kBool:
        if (!has_value) {
          *static_cast<bool*>(flag.target) = true;
        } else if (!ParseBool(value, static_cast<bool*>(flag.target))) {
          FlagError(bad);
        }
        return;
      case FlagType::kInt: {
        int64_t parsed;
        if (!ParseInt(value, &parsed)) FlagError(bad);
        if (parsed < flag.min_value) {
          FlagError(bad + " (minimum " + std::to_string(flag.min_value) + ")");
        }
        *static_cast<int64_t*>(flag.target) = parsed;
        return;
      }
      case FlagType::kDouble:
        if (!ParseDouble(value, static_cast<double*>(flag.target))) {
          FlagError(bad);
        }
        return;
      case FlagType::kString:
        if (!has_value) FlagError("--" + name + " needs a value");
        *static_cast<std::string*>(flag.target) = value;
        return;
    }
  }
  FlagError("unknown flag '" + arg + "'");
}

void ParseFlags(int argc, char** argv) {
  const leveldb::Options defaults;
  FLAGS.write_buffer_size = static_cast<int64_t>(defaults.write_buffer_size);
  FLAGS.max_file_size = static_cast<int64_t>(defaults.max_file_size);
  FLAGS.block_size = static_cast<int64_t>(defaults.block_size);
  FLAGS.open_files = defaults.max_open_files;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      PrintFlagHelp();
      std::exit(0);
    }
    ApplyFlag(arg);
  }
  if (!(FLAGS.compression_ratio > 0.0 && FLAGS.compression_ratio <= 1.0)) {
    FlagError("--compression_ratio must be in (0, 1]");
  }
  if (FLAGS.num > INT32_MAX || FLAGS.reads > INT32_MAX) {
    FlagError("--num and --reads must fit in 31 bits");
  }
  if (FLAGS.threads > 1024) FlagError("--threads must be at most 1024");
  if (FLAGS.value_size > (64 << 20)) {
    FlagError("--value_size must be at most 64 MiB");
  }
  if (FLAGS.db.empty()) {
    std::string dir;
    Status s = leveldb::Env::Default()->GetTestDirectory(&dir);
    if (!s.ok()) FlagError("no --db given and " + s.ToString());
    FLAGS.db = dir + "/dbbench";
  }
}

// ---------------------------------------------------------------------------
// Data generation
// ---------------------------------------------------------------------------

// Lehmer ("minimal standard") generator: tiny and deterministic, which is
// all a workload generator needs.
class Rng {
 public:
  explicit Rng(uint32_t seed) : state_(seed % kModulus) {
    if (state_ == 0) state_ = 1;
  }
  uint32_t Next() {
    state_ = static_cast<uint32_t>((uint64_t{state_} * 16807) % kModulus);
    return state_;
  }
  // Uniform in [0, n); n must be positive.
  uint32_t Uniform(uint32_t n) { return Next() % n; }

 private:
  static constexpr uint32_t kModulus = 2147483647u;  // 2^31 - 1
  uint32_t state_;
};

// Serves values cut from a pool of bytes that compress to about
// --compression_ratio of their size, so that compressed tables are as large
// as the flag asks.
class ValueSource {
 public:
  explicit ValueSource(size_t longest_value) {
    constexpr size_t kPiece = 100;
    const size_t target = std::max<size_t>(1 << 20, 2 * longest_value);
    const size_t distinct = std::max<size_t>(
        1, static_cast<size_t>(kPiece * FLAGS.compression_ratio));
    Rng rng(301);
    pool_.reserve(target + kPiece);
    std::string piece;
    while (pool_.size() < target) {
      // A short random run repeated to fill the piece: a compressor keeps
      // the run and encodes the repeats as cheap back-references.
      piece.clear();
      for (size_t i = 0; i < distinct; i++) {
        piece.push_back(static_cast<char>(' ' + rng.Uniform(95)));
      }
      for (size_t i = 0; i < kPiece; i++) pool_.push_back(piece[i % distinct]);
    }
  }

  Slice Next(size_t len) {
    if (position_ + len > pool_.size()) position_ = 0;
    Slice result(pool_.data() + position_, len);
    position_ += len;
    return result;
  }

 private:
  std::string pool_;
  size_t position_ = 0;
};

constexpr int kKeySize = 16;

// Keys are decimal numbers zero-padded to 16 bytes, so numeric and byte
// order agree; `suffix` makes keys that are never written.
class KeyBuffer {
 public:
  Slice Set(uint64_t k, const char* suffix = "") {
    const int n =
        std::snprintf(buf_, sizeof(buf_), "%016" PRIu64 "%s", k, suffix);
    return Slice(buf_, static_cast<size_t>(n));
  }

 private:
  char buf_[64];
};

// Table-driven CRC32C (Castagnoli, reflected polynomial 0x82f63b78), kept
// local so that both builds measure the very same code.
class Crc32c {
 public:
  Crc32c() {
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;
      for (int bit = 0; bit < 8; bit++) c = (c >> 1) ^ (0x82f63b78u & -(c & 1));
      table_[i] = c;
    }
  }
  uint32_t Value(const char* data, size_t n) const {
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
      crc = table_[(crc ^ static_cast<uint8_t>(data[i])) & 0xff] ^ (crc >> 8);
    }
    return crc ^ 0xffffffffu;
  }

 private:
  uint32_t table_[256];
};

// ---------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------

// Latency histogram over fixed, roughly logarithmic buckets.
class LatencyHistogram {
 public:
  LatencyHistogram() : counts_(Limits().size(), 0) {}

  void Add(double micros) {
    const std::vector<double>& limits = Limits();
    size_t b = static_cast<size_t>(
        std::upper_bound(limits.begin(), limits.end(), micros) -
        limits.begin());
    if (b >= limits.size()) b = limits.size() - 1;
    counts_[b]++;
    count_++;
    sum_ += micros;
    sum_squares_ += micros * micros;
    min_ = std::min(min_, micros);
    max_ = std::max(max_, micros);
  }

  void Merge(const LatencyHistogram& other) {
    for (size_t i = 0; i < counts_.size(); i++) counts_[i] += other.counts_[i];
    count_ += other.count_;
    sum_ += other.sum_;
    sum_squares_ += other.sum_squares_;
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
  }

  std::string ToString() const {
    if (count_ == 0) return "(no samples)\n";
    std::string out;
    char line[200];
    const double mean = sum_ / count_;
    const double variance = std::max(0.0, sum_squares_ / count_ - mean * mean);
    std::snprintf(line, sizeof(line),
                  "Count: %.0f  Average: %.4f  StdDev: %.2f\n", count_, mean,
                  std::sqrt(variance));
    out += line;
    std::snprintf(line, sizeof(line), "Min: %.4f  Median: %.4f  Max: %.4f\n",
                  min_, Percentile(50), max_);
    out += line;
    std::snprintf(line, sizeof(line),
                  "Percentiles: P50: %.2f P75: %.2f P99: %.2f P99.9: %.2f "
                  "P99.99: %.2f\n",
                  Percentile(50), Percentile(75), Percentile(99),
                  Percentile(99.9), Percentile(99.99));
    out += line;
    out += std::string(60, '-') + "\n";
    const std::vector<double>& limits = Limits();
    double cumulative = 0;
    for (size_t b = 0; b < counts_.size(); b++) {
      if (counts_[b] == 0) continue;
      cumulative += counts_[b];
      const double share = 100.0 * counts_[b] / count_;
      const double lower = b == 0 ? 0.0 : limits[b - 1];
      std::snprintf(line, sizeof(line),
                    "[ %9.0f, %9.0f ) %9" PRIu64 " %7.3f%% %7.3f%% ", lower,
                    limits[b], counts_[b], share, 100.0 * cumulative / count_);
      out += line;
      out += std::string(static_cast<size_t>(share / 5 + 0.5), '#');
      out += "\n";
    }
    return out;
  }

 private:
  // Upper bounds (exclusive) of the buckets: 1, 2, ..., 9, 10, 12, ... in
  // steps that are about a fifth of each decade, up to 10^10 microseconds.
  static const std::vector<double>& Limits() {
    static const std::vector<double> limits = [] {
      static const double kSteps[] = {1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.5, 3.0,
                                      3.5, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0, 9.0};
      std::vector<double> v;
      for (double decade = 1; decade < 1e10; decade *= 10) {
        for (double step : kSteps) {
          const double limit = std::round(step * decade);
          if (v.empty() || limit > v.back()) v.push_back(limit);
        }
      }
      v.push_back(1e300);
      return v;
    }();
    return limits;
  }

  // Value below which p percent of the samples fall, interpolating
  // linearly inside the bucket that holds it.
  double Percentile(double p) const {
    const std::vector<double>& limits = Limits();
    const double threshold = count_ * (p / 100.0);
    double seen = 0;
    for (size_t b = 0; b < counts_.size(); b++) {
      if (counts_[b] == 0) continue;
      if (seen + counts_[b] >= threshold) {
        const double lower = b == 0 ? 0.0 : limits[b - 1];
        const double upper = std::min(limits[b], max_);
        const double fraction = (threshold - seen) / counts_[b];
        return std::max(min_, lower + (upper - lower) * fraction);
      }
      seen += counts_[b];
    }
    return max_;
  }

  std::vector<uint64_t> counts_;
  double count_ = 0;
  double sum_ = 0;
  double sum_squares_ = 0;
  double min_ = 1e300;
  double max_ = 0;
};

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
  void Start() {
    start_ = NowMicros();
    last_op_finish_ = start_;
    finish_ = start_;
    done_ = 0;
    bytes_ = 0;
    next_report_ = 100;
    hist_ = LatencyHistogram();
    message_.clear();
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
      hist_.Add(now - last_op_finish_);
      last_op_finish_ = now;
    }
    done_ += n;
    if (done_ >= next_report_) {
      next_report_ = done_ + ProgressStep(done_);
      std::fprintf(stderr, "... finished %" PRId64 " ops%30s\r", done_, "");
      std::fflush(stderr);
    }
  }

  void AddBytes(int64_t n) { bytes_ += n; }

  void AddMessage(const std::string& msg) {
    if (!message_.empty()) message_ += " ";
    message_ += msg;
  }

  void Report(const std::string& name) const {
    // Only a benchmark that did nothing has done_ == 0; avoid dividing by 0.
    const int64_t ops = std::max<int64_t>(done_, 1);
    std::string extra;
    if (bytes_ > 0) {
      const double elapsed = (finish_ - start_) * 1e-6;
      char rate[100];
      std::snprintf(rate, sizeof(rate), "%6.1f MB/s",
                    (bytes_ / 1048576.0) / std::max(elapsed, 1e-9));
      extra = rate;
    }
    if (!message_.empty()) {
      if (!extra.empty()) extra += " ";
      extra += message_;
    }
    std::fprintf(stdout, "%-12s : %11.3f micros/op;%s%s\n", name.c_str(),
                 seconds_ * 1e6 / ops, extra.empty() ? "" : " ", extra.c_str());
    if (FLAGS.histogram) {
      std::fprintf(stdout, "Microseconds per op:\n%s\n",
                   hist_.ToString().c_str());
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
  LatencyHistogram hist_;
  std::string message_;
};

// Rendezvous of the threads of one benchmark: all start together, and the
// driver waits until all are done. (std::mutex because this program may only
// use the public API, which has no mutex type.)
struct SharedState {
  explicit SharedState(int n) : total(n) {}

  std::mutex mu;
  std::condition_variable cv;
  const int total;
  int initialized = 0;  // guarded by mu
  int done = 0;         // guarded by mu
  bool start = false;   // guarded by mu
};

struct ThreadState {
  ThreadState(int index, SharedState* s)
      : tid(index), rng(1000 + index), shared(s) {}

  const int tid;
  Rng rng;
  Stats stats;
  SharedState* const shared;
};

// ---------------------------------------------------------------------------
// The benchmarks
// ---------------------------------------------------------------------------

class Benchmark {
 public:
  Benchmark()
      : cache_(FLAGS.cache_size >= 0
                   ? leveldb::NewLRUCache(static_cast<size_t>(FLAGS.cache_size))
                   : nullptr),
        filter_policy_(FLAGS.bloom_bits >= 0
                           ? leveldb::NewBloomFilterPolicy(
                                 static_cast<int>(FLAGS.bloom_bits))
                           : nullptr) {}

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
    if (!FLAGS.use_existing_db) DestroyDatabase();
    OpenDatabase();
    for (const Spec* spec : plan) RunOne(*spec);
    delete db_;
    db_ = nullptr;
    PrintPeakRss();
    return 0;
  }

 private:
  using Method = void (Benchmark::*)(ThreadState*);

  // How a named benchmark runs. Add a row to Specs() for a new benchmark.
  struct Spec {
    const char* name;
    Method method;  // run on each thread; nullptr for `inline_run`
    void (Benchmark::*inline_run)();  // runs once on the main thread
    bool fresh_db;                    // start from an empty database
    int64_t num_divisor;              // run --num / num_divisor operations
    int64_t value_size;               // 0: --value_size
    int batch;                        // operations per write batch
    bool sync;                        // WriteOptions::sync
    int extra_threads;  // threads beyond --threads (e.g. a writer)
  };

  static const std::vector<Spec>& Specs() {
    static const std::vector<Spec> specs = {
        {"fillseq", &Benchmark::WriteSeq, nullptr, true, 1, 0, 1, false, 0},
        {"fillbatch", &Benchmark::WriteSeq, nullptr, true, 1, 0, 1000, false,
         0},
        {"fillrandom", &Benchmark::WriteRandom, nullptr, true, 1, 0, 1, false,
         0},
        {"overwrite", &Benchmark::WriteRandom, nullptr, false, 1, 0, 1, false,
         0},
        {"fillsync", &Benchmark::WriteRandom, nullptr, true, 1000, 0, 1, true,
         0},
        {"fill100K", &Benchmark::WriteRandom, nullptr, true, 1000, 100 * 1000,
         1, false, 0},
        {"readseq", &Benchmark::ReadSequential, nullptr, false, 1, 0, 1, false,
         0},
        {"readreverse", &Benchmark::ReadReverse, nullptr, false, 1, 0, 1, false,
         0},
        {"readrandom", &Benchmark::ReadRandom, nullptr, false, 1, 0, 1, false,
         0},
        {"readmissing", &Benchmark::ReadMissing, nullptr, false, 1, 0, 1, false,
         0},
        {"readhot", &Benchmark::ReadHot, nullptr, false, 1, 0, 1, false, 0},
        {"seekrandom", &Benchmark::SeekRandom, nullptr, false, 1, 0, 1, false,
         0},
        {"readwhilewriting", &Benchmark::ReadWhileWriting, nullptr, false, 1, 0,
         1, false, 1},
        {"deleteseq", &Benchmark::DeleteSeq, nullptr, false, 1, 0, 1, false, 0},
        {"deleterandom", &Benchmark::DeleteRandom, nullptr, false, 1, 0, 1,
         false, 0},
        {"compact", nullptr, &Benchmark::Compact, false, 1, 0, 1, false, 0},
        {"crc32c", &Benchmark::Crc32cBench, nullptr, false, 1, 0, 1, false, 0},
        {"snappycomp", &Benchmark::SnappyCompress, nullptr, false, 1, 0, 1,
         false, 0},
        {"snappyuncomp", &Benchmark::SnappyUncompress, nullptr, false, 1, 0, 1,
         false, 0},
        {"stats", nullptr, &Benchmark::PrintStats, false, 1, 0, 1, false, 0},
        {"sstables", nullptr, &Benchmark::PrintSSTables, false, 1, 0, 1, false,
         0},
    };
    return specs;
  }

  // Resolves --benchmarks before anything runs, so a typo costs nothing.
  static bool Plan(std::vector<const Spec*>* plan) {
    const std::string& list = FLAGS.benchmarks;
    size_t begin = 0;
    while (begin <= list.size()) {
      size_t end = list.find(',', begin);
      if (end == std::string::npos) end = list.size();
      const std::string name = list.substr(begin, end - begin);
      begin = end + 1;
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
    }

    if (spec.inline_run != nullptr) {
      (this->*spec.inline_run)();
      return;
    }
    const int threads = static_cast<int>(FLAGS.threads) + spec.extra_threads;
    Stats merged = RunThreads(threads, spec.method);
    merged.Report(spec.name);
  }

  Stats RunThreads(int n, Method method) {
    SharedState shared(n);
    std::vector<std::unique_ptr<ThreadState>> states;
    for (int i = 0; i < n; i++) {
      states.push_back(std::make_unique<ThreadState>(i, &shared));
    }
    std::vector<std::thread> threads;
    for (int i = 0; i < n; i++) {
      ThreadState* state = states[i].get();
      threads.emplace_back(
          [this, state, method] { ThreadBody(state, method); });
    }
    {
      std::unique_lock<std::mutex> lock(shared.mu);
      shared.cv.wait(lock,
                     [&shared] { return shared.initialized == shared.total; });
      shared.start = true;
      shared.cv.notify_all();
      shared.cv.wait(lock, [&shared] { return shared.done == shared.total; });
    }
    for (std::thread& t : threads) t.join();
    Stats merged = states[0]->stats;
    for (int i = 1; i < n; i++) merged.Merge(states[i]->stats);
    return merged;
  }

  void ThreadBody(ThreadState* state, Method method) {
    SharedState* shared = state->shared;
    {
      std::unique_lock<std::mutex> lock(shared->mu);
      shared->initialized++;
      if (shared->initialized == shared->total) shared->cv.notify_all();
      shared->cv.wait(lock, [shared] { return shared->start; });
    }
    state->stats.Start();
    (this->*method)(state);
    state->stats.Stop();
    {
      std::lock_guard<std::mutex> lock(shared->mu);
      shared->done++;
      shared->cv.notify_all();
    }
  }

  // ---- Database lifecycle ----

  leveldb::Options DatabaseOptions() const {
    leveldb::Options options;
    options.create_if_missing = !FLAGS.use_existing_db;
    options.block_cache = cache_;
    options.write_buffer_size = static_cast<size_t>(FLAGS.write_buffer_size);
    options.max_file_size = static_cast<size_t>(FLAGS.max_file_size);
    options.block_size = static_cast<size_t>(FLAGS.block_size);
    if (FLAGS.open_files > 0) {
      options.max_open_files = static_cast<int>(FLAGS.open_files);
    }
    options.filter_policy = filter_policy_;
    options.compression = FLAGS.compression ? leveldb::kSnappyCompression
                                            : leveldb::kNoCompression;
    options.reuse_logs = FLAGS.reuse_logs;
    return options;
  }

  void OpenDatabase() {
    Status s = leveldb::DB::Open(DatabaseOptions(), FLAGS.db, &db_);
    if (!s.ok()) {
      std::fprintf(stderr, "db_bench: cannot open %s: %s\n", FLAGS.db.c_str(),
                   s.ToString().c_str());
      std::exit(1);
    }
  }

  void DestroyDatabase() {
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

  void WriteSeq(ThreadState* thread) { DoWrite(thread, /*sequential=*/true); }
  void WriteRandom(ThreadState* thread) { DoWrite(thread, false); }

  void DoWrite(ThreadState* thread, bool sequential) {
    if (num_ != FLAGS.num) {
      thread->stats.AddMessage("(" + std::to_string(num_) + " ops)");
    }
    ValueSource values(static_cast<size_t>(value_size_));
    KeyBuffer key;
    leveldb::WriteBatch batch;
    int64_t bytes = 0;
    for (int64_t i = 0; i < num_; i += batch_) {
      batch.Clear();
      const int64_t count = std::min<int64_t>(batch_, num_ - i);
      for (int64_t j = 0; j < count; j++) {
        const uint64_t k =
            sequential ? static_cast<uint64_t>(i + j) : RandomKey(thread);
        batch.Put(key.Set(k), values.Next(static_cast<size_t>(value_size_)));
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
    KeyBuffer key;
    leveldb::WriteBatch batch;
    for (int64_t i = 0; i < num_; i += batch_) {
      batch.Clear();
      const int64_t count = std::min<int64_t>(batch_, num_ - i);
      for (int64_t j = 0; j < count; j++) {
        const uint64_t k =
            sequential ? static_cast<uint64_t>(i + j) : RandomKey(thread);
        batch.Delete(key.Set(k));
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
        db_->NewIterator(leveldb::ReadOptions()));
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

  // Point lookups of keys drawn by `pick`, appending `suffix` to each key.
  void DoReads(ThreadState* thread, const std::function<uint64_t()>& pick,
               const char* suffix) {
    leveldb::ReadOptions options;
    std::string value;
    KeyBuffer key;
    int64_t found = 0;
    for (int64_t i = 0; i < reads_; i++) {
      Status s = db_->Get(options, key.Set(pick(), suffix), &value);
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

  void ReadRandom(ThreadState* thread) {
    DoReads(
        thread, [this, thread] { return RandomKey(thread); }, "");
  }

  void ReadMissing(ThreadState* thread) {
    DoReads(
        thread, [this, thread] { return RandomKey(thread); }, ".");
  }

  // Reads confined to the first 1% of the key space.
  void ReadHot(ThreadState* thread) {
    const uint32_t range = static_cast<uint32_t>((FLAGS.num + 99) / 100);
    DoReads(
        thread, [thread, range] { return thread->rng.Uniform(range); }, "");
  }

  void SeekRandom(ThreadState* thread) {
    leveldb::ReadOptions options;
    KeyBuffer key;
    int64_t found = 0;
    for (int64_t i = 0; i < reads_; i++) {
      std::unique_ptr<leveldb::Iterator> iter(db_->NewIterator(options));
      const Slice target = key.Set(RandomKey(thread));
      iter->Seek(target);
      if (iter->Valid() && iter->key() == target) found++;
      thread->stats.FinishedOps(1);
    }
    thread->stats.AddMessage("(" + std::to_string(found) + " of " +
                             std::to_string(reads_) + " found)");
  }

  // Thread 0 writes random keys until every reader has finished; only the
  // readers' figures are reported.
  void ReadWhileWriting(ThreadState* thread) {
    if (thread->tid > 0) {
      ReadRandom(thread);
      return;
    }
    ValueSource values(static_cast<size_t>(value_size_));
    KeyBuffer key;
    SharedState* shared = thread->shared;
    while (true) {
      {
        std::lock_guard<std::mutex> lock(shared->mu);
        if (shared->done + 1 >= shared->total) break;
      }
      Status s = db_->Put(write_options_, key.Set(RandomKey(thread)),
                          values.Next(static_cast<size_t>(value_size_)));
      if (!s.ok()) Fail("put", s);
    }
    thread->stats.Start();  // drop the writer's numbers
  }

  // ---- Whole-database operations (main thread) ----

  void Compact() {
    Stats stats;
    stats.Start();
    db_->CompactRange(nullptr, nullptr);
    stats.FinishedOps(1);
    stats.Stop();
    stats.Report("compact");
  }

  void PrintProperty(const char* property) {
    std::string value;
    if (!db_->GetProperty(property, &value)) value = "(failed)";
    std::fprintf(stdout, "\n%s\n", value.c_str());
    std::fflush(stdout);
  }

  void PrintStats() { PrintProperty("leveldb.stats"); }
  void PrintSSTables() { PrintProperty("leveldb.sstables"); }

  // ---- Library-independent CPU benchmarks ----

  void Crc32cBench(ThreadState* thread) {
    constexpr size_t kBlock = 4096;
    constexpr int64_t kTotal = int64_t{500} << 20;
    const std::string data(kBlock, 'x');
    const Crc32c crc;
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
    ValueSource values(1 << 20);
    const Slice input = values.Next(4096);
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
    ValueSource values(1 << 20);
    const Slice input = values.Next(4096);
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

  static void PrintEnvironment() {
    const std::time_t now = std::time(nullptr);
    char date[64];
    std::strftime(date, sizeof(date), "%a %b %d %H:%M:%S %Y",
                  std::localtime(&now));
    std::fprintf(stdout, "Date:       %s\n", date);

    std::FILE* cpuinfo = std::fopen("/proc/cpuinfo", "r");
    if (cpuinfo == nullptr) return;
    int cpus = 0;
    std::string model;
    std::string cache;
    char line[1024];
    while (std::fgets(line, sizeof(line), cpuinfo) != nullptr) {
      const char* colon = std::strchr(line, ':');
      if (colon == nullptr) continue;
      std::string key(line, colon - line);
      while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) {
        key.pop_back();
      }
      std::string value(colon + 1);
      while (!value.empty() && (value.back() == '\n' || value.back() == ' ')) {
        value.pop_back();
      }
      if (!value.empty() && value.front() == ' ') value.erase(0, 1);
      if (key == "model name") {
        cpus++;
        model = value;
      } else if (key == "cache size") {
        cache = value;
      }
    }
    std::fclose(cpuinfo);
    std::fprintf(stdout, "CPU:        %d * %s\n", cpus, model.c_str());
    std::fprintf(stdout, "CPUCache:   %s\n", cache.c_str());
  }

  static void PrintPeakRss() {
    struct rusage usage;
    long peak_kib = 0;
    if (getrusage(RUSAGE_SELF, &usage) == 0) peak_kib = usage.ru_maxrss;
    std::fprintf(stdout, "Peak RSS:   %ld KiB\n", peak_kib);
    std::fflush(stdout);
  }

  leveldb::Cache* const cache_;
  const leveldb::FilterPolicy* const filter_policy_;
  leveldb::DB* db_ = nullptr;

  // Parameters of the benchmark being run.
  int64_t num_ = 0;
  int64_t reads_ = 0;
  int64_t value_size_ = 0;
  int batch_ = 1;
  leveldb::WriteOptions write_options_;
};

}  // namespace

int main(int argc, char** argv) {
  ParseFlags(argc, argv);
  Benchmark benchmark;
  return benchmark.Run();
}
