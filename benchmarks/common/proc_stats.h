// Counters the kernel keeps per thread and per process, the same for every
// storage library whatever its Env (Linux only; elsewhere, or without
// CONFIG_TASK_IO_ACCOUNTING or schedstats, snapshots are invalid).
//
// proc_io: Linux's per-task I/O accounting (/proc/thread-self/io,
// /proc/self/io): syscr counts read system calls, read_bytes what was
// fetched from storage (direct reads included, page-cache hits not). A
// snapshot is itself one read(2), counted after the text is produced;
// SnapshotOverhead() measures what a before/after pair adds.
//
// proc_cpu: the calling thread's user and kernel time (getrusage) and its
// time runnable but waiting for a CPU (/proc/thread-self/schedstat), so
// that an operation's latency splits into computing, queueing for a CPU
// and (the rest) waiting for I/O. The kernel splits user from kernel time
// by sampling at ticks: the split means something over seconds only.
#ifndef LEVELDB_BENCHMARKS_COMMON_PROC_STATS_H_
#define LEVELDB_BENCHMARKS_COMMON_PROC_STATS_H_

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace proc_io {

struct Snapshot {
  bool valid = false;
  uint64_t syscr = 0;
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;  // 0 where the kernel does not say
};

namespace internal {

// Value of the "name: <n>" line of a proc io text, or false.
inline bool FindField(const char* text, const char* name, uint64_t* value) {
  const size_t len = std::strlen(name);
  for (const char* line = text; *line != '\0';) {
    if (std::strncmp(line, name, len) == 0 && line[len] == ':') {
      *value = std::strtoull(line + len + 1, nullptr, 10);
      return true;
    }
    const char* next = std::strchr(line, '\n');
    if (next == nullptr) break;
    line = next + 1;
  }
  return false;
}

// Reads a small proc file with one open and ONE read(2) into text (NUL
// terminated); false if it cannot be read or is empty.
inline bool ReadSmallFile(const char* path, char* text, size_t size) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t n = ::read(fd, text, size - 1);
  ::close(fd);
  if (n <= 0) return false;
  text[n] = '\0';
  return true;
}

// One read (the text is ~150 bytes), so a snapshot costs a known number of
// read syscalls.
inline Snapshot Read(const char* path) {
  Snapshot snap;
  char text[1024];
  if (!ReadSmallFile(path, text, sizeof(text))) return snap;
  snap.valid = FindField(text, "syscr", &snap.syscr) &&
               FindField(text, "read_bytes", &snap.read_bytes);
  FindField(text, "write_bytes", &snap.write_bytes);
  return snap;
}

}  // namespace internal

// The calling thread's counters.
inline Snapshot Thread() { return internal::Read("/proc/thread-self/io"); }

// The whole process's counters (all threads, living or exited).
inline Snapshot Process() { return internal::Read("/proc/self/io"); }

// Read syscalls a back-to-back Thread() pair shows although nothing
// happened between them (1 on Linux: the first snapshot's own read).
inline uint64_t SnapshotOverhead() {
  const Snapshot a = Thread();
  const Snapshot b = Thread();
  if (!a.valid || !b.valid || b.syscr < a.syscr) return 0;
  return b.syscr - a.syscr;
}

// b - a, never negative.
inline uint64_t Delta(uint64_t a, uint64_t b) { return b > a ? b - a : 0; }

// Read syscalls of the benchmark threads (foreground) and of the rest of
// the process meanwhile (background: the storage library's own threads).
struct SyscallCount {
  bool valid = false;
  uint64_t foreground = 0;
  uint64_t foreground_bytes = 0;
  uint64_t background = 0;
  uint64_t background_bytes = 0;
};

// One benchmark thread's Thread() snapshots around its share of the work.
struct ThreadSnapshots {
  Snapshot before;
  Snapshot after;
};

// Every snapshot a thread took is in the process's counters; what the
// threads did not do themselves is background work. `overhead` is
// SnapshotOverhead(), measured once by the caller.
inline SyscallCount CountSyscalls(const std::vector<ThreadSnapshots>& threads,
                                  const Snapshot& process_before,
                                  const Snapshot& process_after,
                                  uint64_t overhead) {
  SyscallCount count;
  if (!process_before.valid || !process_after.valid) return count;
  uint64_t thread_total = 0;
  for (const ThreadSnapshots& t : threads) {
    if (!t.before.valid || !t.after.valid) return SyscallCount();
    const uint64_t seen = Delta(t.before.syscr, t.after.syscr);
    count.foreground += Delta(overhead, seen);
    count.foreground_bytes += Delta(t.before.read_bytes, t.after.read_bytes);
    // The second snapshot is in the process's delta, not in the thread's.
    thread_total += seen + overhead;
  }
  count.valid = true;
  const uint64_t process_seen =
      Delta(process_before.syscr, process_after.syscr);
  // The process's first snapshot counts in its own delta too.
  count.background = Delta(thread_total + overhead, process_seen);
  count.background_bytes =
      Delta(count.foreground_bytes,
            Delta(process_before.read_bytes, process_after.read_bytes));
  return count;
}

// The "foreground read syscalls per op" line of db_bench and
// rocksdb_readpath, the same words for every system.
inline void PrintSyscalls(const SyscallCount& c, int64_t ops) {
  if (!c.valid) {
    std::printf(
        "foreground read syscalls per op: n/a (no /proc/thread-self/io)\n");
    return;
  }
  const double n = static_cast<double>(ops > 1 ? ops : 1);
  std::printf(
      "foreground read syscalls per op: %.4f (%.0f bytes from storage per "
      "op), background read syscalls: %" PRIu64
      " (%.1f MB from storage) [/proc/thread-self/io]\n",
      c.foreground / n, c.foreground_bytes / n, c.background,
      c.background_bytes / 1048576.0);
}

}  // namespace proc_io

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

#endif  // LEVELDB_BENCHMARKS_COMMON_PROC_STATS_H_
