// What a database and its process do over time while a benchmark runs,
// sampled every few milliseconds by a thread of its own (db_bench's
// --timeline_ms): operations done, table reads of the benchmark threads and
// the time they waited for them, background table reads, CPU of the
// benchmark threads and of the rest of the process, files per level and the
// bytes compacted so far. It shows how a read phase that starts right after
// a load shares the disk and the CPUs with the compactions the load left.
//
// Public API only, so upstream LevelDB's twin of db_bench prints the same
// lines. One line per sample:
//
//   timeline <benchmark> t=<s> ops=<n> fg_reads=<n> fg_read_ms=<ms>
//     bg_reads=<n> bg_mb=<MB> write_mb=<MB> cpu_fg_ms=<ms> cpu_all_ms=<ms>
//     files=<L0>,<L1>,...,<L6> compact_read_mb=<MB> compact_write_mb=<MB>
//
// Every figure but t and files is cumulative from the benchmark's start, so
// that any two lines give the rates between them (scripts/timeline.awk).
#ifndef STORAGE_LEVELDB_BENCHMARKS_BENCH_TIMELINE_H_
#define STORAGE_LEVELDB_BENCHMARKS_BENCH_TIMELINE_H_

#include <pthread.h>
#include <sys/resource.h>
#include <time.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/proc_stats.h"
#include "leveldb/db.h"

namespace bench_timeline {

// Cumulative counters the benchmark keeps for the sampler.
struct Counters {
  int64_t ops = 0;
  uint64_t fg_reads = 0;
  uint64_t fg_read_nanos = 0;
  uint64_t bg_reads = 0;
  uint64_t bg_bytes = 0;
};

namespace internal {

inline double Millis(uint64_t nanos) { return nanos / 1e6; }

inline uint64_t ClockNanos(clockid_t clock) {
  timespec ts;
  if (::clock_gettime(clock, &ts) != 0) return 0;
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u +
         static_cast<uint64_t>(ts.tv_nsec);
}

// Sums the Read(MB) and Write(MB) columns of "leveldb.stats" (the table
// LevelDB 1.23 prints: Level Files Size(MB) Time(sec) Read(MB) Write(MB)).
inline void CompactedMegabytes(leveldb::DB* db, double* read_mb,
                               double* write_mb) {
  *read_mb = 0;
  *write_mb = 0;
  std::string stats;
  if (!db->GetProperty("leveldb.stats", &stats)) return;
  std::istringstream lines(stats);
  std::string line;
  while (std::getline(lines, line)) {
    int level, files;
    double size_mb, seconds, read, write;
    if (std::sscanf(line.c_str(), "%d %d %lf %lf %lf %lf", &level, &files,
                    &size_mb, &seconds, &read, &write) == 6) {
      *read_mb += read;
      *write_mb += write;
    }
  }
}

// "n0,n1,...,n6": files per level.
inline std::string FilesPerLevel(leveldb::DB* db) {
  std::string out;
  for (int level = 0; level < 7; level++) {
    std::string value;
    const std::string name =
        "leveldb.num-files-at-level" + std::to_string(level);
    if (!db->GetProperty(name, &value)) value = "?";
    if (level > 0) out += ",";
    out += value;
  }
  return out;
}

}  // namespace internal

// Samples until destroyed; prints one line per sample on stdout, and one
// last line when it stops.
class Sampler {
 public:
  // `fg_threads` are the benchmark's threads, whose CPU time is the
  // foreground CPU; `counters` reads the benchmark's counters.
  Sampler(leveldb::DB* db, std::string benchmark, int interval_ms,
          const std::vector<pthread_t>& fg_threads,
          std::function<Counters()> counters)
      : db_(db),
        benchmark_(std::move(benchmark)),
        interval_(interval_ms),
        counters_(std::move(counters)),
        start_(std::chrono::steady_clock::now()),
        write_bytes_start_(proc_io::Process().write_bytes),
        cpu_all_start_(internal::ClockNanos(CLOCK_PROCESS_CPUTIME_ID)) {
    for (pthread_t t : fg_threads) {
      clockid_t clock;
      if (::pthread_getcpuclockid(t, &clock) == 0) {
        fg_clocks_.push_back(clock);
        fg_cpu_.push_back(internal::ClockNanos(clock));
      }
    }
    fg_cpu_start_ = fg_cpu_;
    internal::CompactedMegabytes(db_, &compact_read_start_,
                                 &compact_write_start_);
    thread_ = std::thread([this] { Run(); });
  }

  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  ~Sampler() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
    Sample();
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_for(lock, interval_, [this] { return stop_; })) {
      lock.unlock();
      Sample();
      lock.lock();
    }
  }

  // Foreground CPU so far; a thread that has ended keeps its last figure.
  uint64_t ForegroundCpuNanos() {
    uint64_t total = 0;
    for (size_t i = 0; i < fg_clocks_.size(); i++) {
      const uint64_t now = internal::ClockNanos(fg_clocks_[i]);
      if (now > fg_cpu_[i]) fg_cpu_[i] = now;
      total += fg_cpu_[i] - fg_cpu_start_[i];
    }
    return total;
  }

  void Sample() {
    const Counters c = counters_();
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    double compact_read, compact_write;
    internal::CompactedMegabytes(db_, &compact_read, &compact_write);
    const uint64_t written =
        proc_io::Process().write_bytes - write_bytes_start_;
    const uint64_t cpu_all =
        internal::ClockNanos(CLOCK_PROCESS_CPUTIME_ID) - cpu_all_start_;
    std::printf(
        "timeline %s t=%.3f ops=%lld fg_reads=%llu fg_read_ms=%.1f "
        "bg_reads=%llu bg_mb=%.1f write_mb=%.1f cpu_fg_ms=%.1f "
        "cpu_all_ms=%.1f files=%s compact_read_mb=%.0f compact_write_mb=%.0f\n",
        benchmark_.c_str(), t, static_cast<long long>(c.ops),
        static_cast<unsigned long long>(c.fg_reads),
        internal::Millis(c.fg_read_nanos),
        static_cast<unsigned long long>(c.bg_reads), c.bg_bytes / 1048576.0,
        written / 1048576.0, internal::Millis(ForegroundCpuNanos()),
        internal::Millis(cpu_all), internal::FilesPerLevel(db_).c_str(),
        compact_read - compact_read_start_,
        compact_write - compact_write_start_);
  }

  leveldb::DB* const db_;
  const std::string benchmark_;
  const std::chrono::milliseconds interval_;
  const std::function<Counters()> counters_;
  const std::chrono::steady_clock::time_point start_;
  const uint64_t write_bytes_start_;
  const uint64_t cpu_all_start_;
  std::vector<clockid_t> fg_clocks_;
  std::vector<uint64_t> fg_cpu_;  // last CPU time seen per thread
  std::vector<uint64_t> fg_cpu_start_;
  double compact_read_start_ = 0;
  double compact_write_start_ = 0;

  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace bench_timeline

#endif  // STORAGE_LEVELDB_BENCHMARKS_BENCH_TIMELINE_H_
