// The two phases of a YCSB run, executed by N client threads, and their
// report. Load inserts records [0, recordcount), split into one contiguous
// range per thread; run executes operationcount operations, split evenly.
#ifndef LEVELDB_BENCHMARKS_YCSB_RUNNER_H_
#define LEVELDB_BENCHMARKS_YCSB_RUNNER_H_

#include <cstdio>
#include <string>

#include "engine.h"
#include "op_stats.h"
#include "workload.h"

namespace ycsb {

struct PhaseResult {
  std::string name;  // "load" or "run"
  int threads = 0;
  double seconds = 0;
  PhaseStats stats;
  // The database's statistics properties after the phase (fork only).
  std::string engine_stats;
  // Read system calls (Linux task I/O accounting) of the client threads
  // during the phase, i.e. the storage reads the operations themselves
  // issued, and of the rest of the process (compactions, ElasticBF's
  // loads). io_valid is false where the kernel does not account them.
  bool io_valid = false;
  uint64_t client_read_syscalls = 0;
  uint64_t background_read_syscalls = 0;
  uint64_t background_read_bytes = 0;
  // CPU time of the client threads (common/proc_stats.h): user, kernel, and
  // time spent runnable but waiting for a CPU. cpu_valid as io_valid.
  bool cpu_valid = false;
  uint64_t client_user_ns = 0;
  uint64_t client_system_ns = 0;
  uint64_t client_runqueue_wait_ns = 0;
};

struct PhaseOptions {
  int threads = 1;
  // Where progress lines go on long phases (every status.interval seconds
  // and every 10% of the operations); nullptr for none.
  FILE* progress = stderr;
};

// Both reset the fork's I/O statistics first, so engine_stats covers the
// phase alone.
void RunLoadPhase(Workload* workload, Database* database,
                  const PhaseOptions& options, PhaseResult* result);
void RunTransactionPhase(Workload* workload, Database* database,
                         const PhaseOptions& options, PhaseResult* result);

// The phase's table: per operation type count, throughput, average, p50,
// p99 and p99.9 latency (microseconds), misses and errors; then overall
// throughput, the first error and the engine statistics.
std::string FormatReport(const PhaseResult& result);

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_RUNNER_H_
