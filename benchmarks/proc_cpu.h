// CPU time of the calling thread, split into user and kernel time
// (getrusage(RUSAGE_THREAD)), and the time it spent runnable but waiting
// for a CPU (second field of /proc/thread-self/schedstat). A benchmark
// takes one snapshot before and one after its work: the differences say
// how much of an operation's latency was the thread's own computing, how
// much queueing for a CPU, and (the rest of the wall time) waiting for I/O.
// The total CPU time is exact; the kernel splits it into user and kernel
// time by sampling at scheduler ticks, so the split means something over
// seconds, not milliseconds. Linux only; elsewhere, or without schedstats,
// the snapshot is invalid.
#ifndef STORAGE_LEVELDB_BENCHMARKS_PROC_CPU_H_
#define STORAGE_LEVELDB_BENCHMARKS_PROC_CPU_H_

#include <sys/resource.h>
#include <sys/time.h>

#include <cstdint>
#include <cstdlib>

#include "proc_io.h"

namespace proc_cpu {

struct Snapshot {
  bool valid = false;
  uint64_t user_ns = 0;
  uint64_t system_ns = 0;
  uint64_t runqueue_wait_ns = 0;
};

namespace internal {

inline uint64_t Nanos(const timeval& tv) {
  return static_cast<uint64_t>(tv.tv_sec) * 1000000000u +
         static_cast<uint64_t>(tv.tv_usec) * 1000u;
}

}  // namespace internal

inline Snapshot Thread() {
  Snapshot snap;
#if defined(RUSAGE_THREAD)
  rusage usage;
  if (::getrusage(RUSAGE_THREAD, &usage) != 0) return snap;
  snap.user_ns = internal::Nanos(usage.ru_utime);
  snap.system_ns = internal::Nanos(usage.ru_stime);
  // "<ns on cpu> <ns waiting on a runqueue> <timeslices>"
  char text[128];
  if (!proc_io::internal::ReadSmallFile("/proc/thread-self/schedstat", text,
                                        sizeof(text))) {
    return snap;
  }
  char* end = nullptr;
  std::strtoull(text, &end, 10);
  if (end == text) return snap;
  char* wait_end = nullptr;
  snap.runqueue_wait_ns = std::strtoull(end, &wait_end, 10);
  snap.valid = wait_end != end;
#endif
  return snap;
}

// after - before, field by field (never negative).
inline Snapshot Between(const Snapshot& before, const Snapshot& after) {
  Snapshot d;
  d.valid = before.valid && after.valid;
  d.user_ns = proc_io::Delta(before.user_ns, after.user_ns);
  d.system_ns = proc_io::Delta(before.system_ns, after.system_ns);
  d.runqueue_wait_ns =
      proc_io::Delta(before.runqueue_wait_ns, after.runqueue_wait_ns);
  return d;
}

}  // namespace proc_cpu

#endif  // STORAGE_LEVELDB_BENCHMARKS_PROC_CPU_H_
