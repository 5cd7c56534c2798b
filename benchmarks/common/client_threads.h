// The client threads of one benchmark run, as db_bench, rocksdb_readpath
// and the YCSB runner run them: all start together, each does its share
// between two /proc/thread-self/io snapshots of itself, bracketed by two CPU
// snapshots (proc_cpu), and the read syscalls of the run are split into the
// clients' own and the rest of the process's (proc_io::CountSyscalls), the
// snapshots' own reads in neither; and the line that reports a run.
// Standard library and /proc only.
#ifndef LEVELDB_BENCHMARKS_COMMON_CLIENT_THREADS_H_
#define LEVELDB_BENCHMARKS_COMMON_CLIENT_THREADS_H_

#include <sys/resource.h>

#include <condition_variable>  // NOLINT
#include <cstdio>
#include <mutex>  // NOLINT
#include <string>
#include <thread>  // NOLINT
#include <vector>

#include "proc_stats.h"

namespace bench {

class ClientThreads {
 public:
  explicit ClientThreads(int n) : n_(n), snapshots_(n), cpu_(n) {}

  int size() const { return n_; }

  // How many threads have finished body() so far.
  int Finished() {
    std::lock_guard<std::mutex> lock(mu_);
    return finished_;
  }

  // Runs body(i) on thread i for i in [0, n) and returns once all are
  // joined. watch(threads) is called while every thread waits at the
  // start; what it returns is destroyed when the last body() has returned
  // but before any thread exits (db_bench's timeline reads their CPU
  // clocks until then).
  template <typename Body, typename Watch>
  void Run(const Body& body, const Watch& watch) {
    Overhead();  // both measured once, before any run
    CpuSnapshotReads();
    process_before_ = proc_io::Process();
    std::vector<std::thread> threads;
    for (int i = 0; i < n_; i++) {
      threads.emplace_back([this, &body, i] {
        {
          std::unique_lock<std::mutex> lock(mu_);
          if (++waiting_ == n_) cv_.notify_all();
          cv_.wait(lock, [this] { return started_; });
        }
        // The CPU snapshots bracket the I/O ones: their reads stay out of
        // the thread's count (Syscalls() takes them out of the process's).
        const proc_cpu::Snapshot cpu_before = proc_cpu::Thread();
        snapshots_[i].before = proc_io::Thread();
        body(i);
        snapshots_[i].after = proc_io::Thread();
        cpu_[i] = proc_cpu::Between(cpu_before, proc_cpu::Thread());
        std::unique_lock<std::mutex> lock(mu_);
        if (++finished_ == n_) cv_.notify_all();
        cv_.wait(lock, [this] { return released_; });
      });
    }
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return waiting_ == n_; });
      auto watcher = watch(threads);
      started_ = true;
      cv_.notify_all();
      cv_.wait(lock, [this] { return finished_ == n_; });
      watcher.reset();
      released_ = true;
      cv_.notify_all();
    }
    for (std::thread& thread : threads) thread.join();
  }

  // The read syscalls of the last run, the process's counted up to now.
  // The reads of the CPU snapshots are the tool's, not background work:
  // they are taken out by counting them before the process's first snapshot.
  proc_io::SyscallCount Syscalls() const {
    proc_io::Snapshot before = process_before_;
    before.syscr += 2 * CpuSnapshotReads() * static_cast<uint64_t>(n_);
    return proc_io::CountSyscalls(snapshots_, before, proc_io::Process(),
                                  Overhead());
  }

  // The client threads' CPU time over their bodies of the last run, summed;
  // invalid if any thread's is.
  proc_cpu::Snapshot Cpu() const {
    proc_cpu::Snapshot sum;
    sum.valid = !cpu_.empty();
    for (const proc_cpu::Snapshot& cpu : cpu_) {
      sum.valid = sum.valid && cpu.valid;
      sum.user_ns += cpu.user_ns;
      sum.system_ns += cpu.system_ns;
      sum.runqueue_wait_ns += cpu.runqueue_wait_ns;
    }
    return sum;
  }

 private:
  // What a before/after pair of snapshots adds by itself.
  static uint64_t Overhead() {
    static const uint64_t overhead = proc_io::SnapshotOverhead();
    return overhead;
  }

  // Read syscalls of one proc_cpu::Thread() (its schedstat read).
  static uint64_t CpuSnapshotReads() {
    static const uint64_t reads = [] {
      const proc_io::Snapshot a = proc_io::Thread();
      proc_cpu::Thread();
      const proc_io::Snapshot b = proc_io::Thread();
      if (!a.valid || !b.valid) return uint64_t{0};
      return proc_io::Delta(Overhead(), proc_io::Delta(a.syscr, b.syscr));
    }();
    return reads;
  }

  const int n_;
  std::vector<proc_io::ThreadSnapshots> snapshots_;
  std::vector<proc_cpu::Snapshot> cpu_;  // per thread, over its body
  proc_io::Snapshot process_before_;
  std::mutex mu_;
  std::condition_variable cv_;
  int waiting_ = 0;        // guarded by mu_
  int finished_ = 0;       // guarded by mu_
  bool started_ = false;   // guarded by mu_
  bool released_ = false;  // guarded by mu_
};

// The summary line of one benchmark, "name : X micros/op; extra", in the
// words of LevelDB's db_bench, so one parser reads every tool's output.
inline void PrintRunLine(const char* name, double micros_per_op,
                         const std::string& extra) {
  std::printf("%-12s : %11.3f micros/op;%s%s\n", name, micros_per_op,
              extra.empty() ? "" : " ", extra.c_str());
}

// The last line of every tool's run: the process's peak resident memory.
inline void PrintPeakRss() {
  struct rusage usage;
  const long peak_kib =
      getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_maxrss : 0;
  std::printf("Peak RSS:   %ld KiB\n", peak_kib);
  std::fflush(stdout);
}

}  // namespace bench

#endif  // LEVELDB_BENCHMARKS_COMMON_CLIENT_THREADS_H_
