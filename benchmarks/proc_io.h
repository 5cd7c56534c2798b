// Read-syscall and storage-read counts from Linux's per-task I/O accounting
// (/proc/thread-self/io for the calling thread, /proc/self/io for the whole
// process), shared by db_bench and rocksdb_readpath: the same count for
// every system, whatever its Env or file layer.
//
//   syscr       read system calls (read, pread64, readv, ...) completed
//   read_bytes  bytes the task caused to be fetched from the storage layer
//               (direct reads included; page-cache hits are not)
//
// Taking a snapshot is itself one read(2) of the proc file, which the
// kernel counts after it has produced the text; SnapshotOverhead()
// measures what a before/after pair adds so that callers can remove it.
// Needs CONFIG_TASK_IO_ACCOUNTING; without it every snapshot is invalid.
#ifndef STORAGE_LEVELDB_BENCHMARKS_PROC_IO_H_
#define STORAGE_LEVELDB_BENCHMARKS_PROC_IO_H_

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace proc_io {

struct Snapshot {
  bool valid = false;
  uint64_t syscr = 0;
  uint64_t read_bytes = 0;
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

}  // namespace proc_io

#endif  // STORAGE_LEVELDB_BENCHMARKS_PROC_IO_H_
