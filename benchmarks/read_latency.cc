// read_latency: the time of one uncached data-block read on this machine,
// the least a point lookup that finds its key must spend (one read of the
// block holding it). One thread reads blocks of --block_bytes at random
// offsets of the given files with O_DIRECT, each read covering the whole
// 4 KiB pages the block touches, exactly as the fork's direct-I/O table
// reads do. Its mean is what bounds the Gets/s of any engine doing one
// such read per Get: ops/s <= 1e6 / mean_us.
//
// usage: read_latency [--reads=N] [--block_bytes=B] [--seed=S] FILE...
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr uint64_t kPage = 4096;

struct Target {
  int fd;
  uint64_t size;
};

[[noreturn]] void Fail(const std::string& msg) {
  std::fprintf(stderr, "read_latency: %s\n", msg.c_str());
  std::fprintf(stderr,
               "usage: read_latency [--reads=N] [--block_bytes=B] "
               "[--seed=S] FILE...\n");
  std::exit(2);
}

uint64_t ParsePositive(const std::string& arg, const std::string& value) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v == 0 || value[0] == '-') {
    Fail("bad value in " + arg);
  }
  return v;
}

double Percentile(const std::vector<double>& sorted, double q) {
  const size_t i =
      std::min(sorted.size() - 1, static_cast<size_t>(q * sorted.size()));
  return sorted[i];
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t reads = 20000;
  uint64_t block_bytes = 4096 + 5;  // a 4 KiB block and its trailer
  uint64_t seed = 301;
  std::vector<Target> targets;
  uint64_t total = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      const std::string name = arg.substr(2, eq - 2);
      const std::string value = arg.substr(eq + 1);
      if (name == "reads") {
        reads = ParsePositive(arg, value);
      } else if (name == "block_bytes") {
        block_bytes = ParsePositive(arg, value);
      } else if (name == "seed") {
        seed = ParsePositive(arg, value);
      } else {
        Fail("unknown flag " + arg);
      }
      continue;
    }
    const int fd = open(arg.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0) Fail(arg + ": " + std::strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) Fail(arg + ": " + std::strerror(errno));
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    if (size < block_bytes) {
      close(fd);  // too small to hold a block: skipped
      continue;
    }
    targets.push_back({fd, size});
    total += size - block_bytes;
  }
  if (targets.empty()) Fail("no file of at least --block_bytes bytes given");

  const uint64_t span_max = (block_bytes + 2 * kPage - 1) / kPage * kPage;
  void* raw = nullptr;
  if (posix_memalign(&raw, kPage, span_max) != 0) Fail("out of memory");
  char* buffer = static_cast<char*>(raw);

  std::mt19937_64 rng(seed);
  std::vector<double> micros;
  micros.reserve(reads);
  uint64_t bytes_read = 0;
  for (uint64_t n = 0; n < reads; ++n) {
    // A uniformly random block start over all files together.
    uint64_t offset = rng() % (total + 1);
    size_t t = 0;
    while (offset > targets[t].size - block_bytes) {
      offset -= targets[t].size - block_bytes + 1;
      ++t;
    }
    const uint64_t first = offset / kPage * kPage;
    const uint64_t last = (offset + block_bytes + kPage - 1) / kPage * kPage;
    const auto start = std::chrono::steady_clock::now();
    const ssize_t got =
        pread(targets[t].fd, buffer, last - first, static_cast<off_t>(first));
    const auto end = std::chrono::steady_clock::now();
    if (got < static_cast<ssize_t>(offset + block_bytes - first)) {
      Fail("short or failed read: " +
           std::string(got < 0 ? std::strerror(errno) : "end of file"));
    }
    bytes_read += static_cast<uint64_t>(got);
    micros.push_back(
        std::chrono::duration<double, std::micro>(end - start).count());
  }
  double sum = 0;
  for (double m : micros) sum += m;
  std::sort(micros.begin(), micros.end());
  const double mean = sum / micros.size();
  std::printf(
      "%" PRIu64 " direct reads of %" PRIu64
      "-byte blocks over %zu files "
      "(%.1f KiB per read): mean %.1f us, p50 %.1f, p99 %.1f, p99.9 %.1f; "
      "at most %.0f reads/s in one thread\n",
      reads, block_bytes, targets.size(),
      bytes_read / 1024.0 / static_cast<double>(reads), mean,
      Percentile(micros, 0.5), Percentile(micros, 0.99),
      Percentile(micros, 0.999), 1e6 / mean);
  for (const Target& target : targets) close(target.fd);
  std::free(raw);
  return 0;
}
