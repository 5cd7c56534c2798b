#include "runner.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "../common/client_threads.h"
#include "../common/proc_stats.h"
#include "client.h"

namespace ycsb {

namespace {

using ClientList = std::vector<std::unique_ptr<Client>>;

// Prints progress of a running phase from its own thread until Stop().
class ProgressMonitor {
 public:
  ProgressMonitor(const std::string& phase, uint64_t total,
                  const ClientList* clients, double interval_seconds, FILE* out)
      : phase_(phase),
        total_(total),
        clients_(clients),
        interval_nanos_(static_cast<uint64_t>(interval_seconds * 1e9)),
        out_(out) {
    if (out_ != nullptr && interval_nanos_ > 0 && total_ > 0) {
      thread_ = std::thread([this] { Loop(); });
    }
  }

  ~ProgressMonitor() { Stop(); }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopped_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  // Short phases stay quiet; after this, progress is shown at every 10%
  // step and at least every interval.
  static constexpr uint64_t kQuietNanos = 2000000000;

  void Loop() {
    const uint64_t start = NowNanos();
    uint64_t last_print = start;
    uint64_t last_decile = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(250),
                           [this] { return stopped_; })) {
      const uint64_t now = NowNanos();
      uint64_t done = 0;
      for (const auto& client : *clients_) done += client->completed();
      const uint64_t decile = done * 10 / total_;
      const bool new_decile = decile > last_decile;
      if (now - start < kQuietNanos ||
          (!new_decile && now - last_print < interval_nanos_)) {
        continue;
      }
      const double seconds = static_cast<double>(now - start) / 1e9;
      std::fprintf(
          out_,
          "[%s] %.0f s: %llu of %llu operations (%.0f%%), "
          "%.0f ops/s\n",
          phase_.c_str(), seconds, static_cast<unsigned long long>(done),
          static_cast<unsigned long long>(total_),
          100.0 * static_cast<double>(done) / static_cast<double>(total_),
          static_cast<double>(done) / seconds);
      std::fflush(out_);
      last_print = now;
      last_decile = decile;
    }
  }

  const std::string phase_;
  const uint64_t total_;
  const ClientList* const clients_;
  const uint64_t interval_nanos_;
  FILE* const out_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopped_ = false;  // guarded by mutex_
  std::thread thread_;
};

// Copies what the client threads measured into `result`.
void CopyCounts(const bench::ClientThreads& threads, PhaseResult* result) {
  const proc_io::SyscallCount io = threads.Syscalls();
  result->io_valid = io.valid;
  result->client_read_syscalls = io.foreground;
  result->background_read_syscalls = io.background;
  result->background_read_bytes = io.background_bytes;
  const proc_cpu::Snapshot cpu = threads.Cpu();
  result->cpu_valid = cpu.valid;
  result->client_user_ns = cpu.user_ns;
  result->client_system_ns = cpu.system_ns;
  result->client_runqueue_wait_ns = cpu.runqueue_wait_ns;
}

// Share `index` of `total` split into `parts` nearly equal parts.
uint64_t PartBegin(uint64_t total, int parts, int index) {
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(total) * static_cast<unsigned>(index)) /
      static_cast<unsigned>(parts));
}

// Runs item(client, n) for n in [0, total_operations), split into one
// contiguous share per client thread, and fills `result`.
template <typename Item>
void RunPhase(const std::string& name, uint64_t total_operations, int phase,
              Workload* workload, Database* database,
              const PhaseOptions& options, const Item& item,
              PhaseResult* result) {
  const int threads = std::max(options.threads, 1);
  ClientList clients;
  for (int i = 0; i < threads; ++i) {
    clients.push_back(std::make_unique<Client>(workload, database, phase, i));
  }
  database->ResetIoStats();
  bench::ClientThreads client_threads(threads);
  const uint64_t start = NowNanos();
  client_threads.Run(
      [&](int i) {
        const uint64_t end = PartBegin(total_operations, threads, i + 1);
        for (uint64_t n = PartBegin(total_operations, threads, i); n < end;
             ++n) {
          item(clients[i].get(), n);
        }
      },
      [&](std::vector<std::thread>&) {
        return std::make_unique<ProgressMonitor>(
            name, total_operations, &clients, workload->spec().status_interval,
            options.progress);
      });
  *result = PhaseResult();
  CopyCounts(client_threads, result);
  result->name = name;
  result->threads = threads;
  result->seconds = static_cast<double>(NowNanos() - start) / 1e9;
  for (const auto& client : clients) result->stats.Merge(client->stats());
  result->engine_stats = database->StatsReport();
}

std::string Microseconds(double nanos) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f", nanos / 1000.0);
  return buffer;
}

}  // namespace

void RunLoadPhase(Workload* workload, Database* database,
                  const PhaseOptions& options, PhaseResult* result) {
  RunPhase(
      "load", static_cast<uint64_t>(workload->spec().record_count), 0, workload,
      database, options,
      [](Client* client, uint64_t n) { client->LoadRecord(n); }, result);
}

void RunTransactionPhase(Workload* workload, Database* database,
                         const PhaseOptions& options, PhaseResult* result) {
  RunPhase(
      "run", static_cast<uint64_t>(workload->spec().operation_count), 1,
      workload, database, options,
      [](Client* client, uint64_t) { client->DoTransaction(); }, result);
}

std::string FormatReport(const PhaseResult& result) {
  const uint64_t total = result.stats.TotalOperations();
  const double seconds = result.seconds > 0 ? result.seconds : 1e-9;
  char line[256];
  std::string report;
  std::snprintf(line, sizeof(line),
                "[%s] %llu operations in %.3f s: %.1f ops/s (%d threads)\n",
                result.name.c_str(), static_cast<unsigned long long>(total),
                result.seconds, static_cast<double>(total) / seconds,
                result.threads);
  report += line;
  std::snprintf(line, sizeof(line),
                "%-18s %10s %11s %9s %9s %9s %10s %10s %7s\n", "operation",
                "count", "ops/s", "avg(us)", "p50(us)", "p99(us)", "p99.9(us)",
                "not_found", "errors");
  report += line;
  for (int i = 0; i < kOpTypeCount; ++i) {
    const OpStats& op = result.stats.op(static_cast<OpType>(i));
    const LatencyHistogram& latency = op.latency;
    if (latency.count() == 0) continue;
    std::snprintf(line, sizeof(line),
                  "%-18s %10llu %11.1f %9s %9s %9s %10s %10llu %7llu\n",
                  OpTypeName(static_cast<OpType>(i)),
                  static_cast<unsigned long long>(latency.count()),
                  static_cast<double>(latency.count()) / seconds,
                  Microseconds(latency.Average()).c_str(),
                  Microseconds(latency.Percentile(50)).c_str(),
                  Microseconds(latency.Percentile(99)).c_str(),
                  Microseconds(latency.Percentile(99.9)).c_str(),
                  static_cast<unsigned long long>(op.not_found),
                  static_cast<unsigned long long>(op.errors));
    report += line;
  }
  const OpStats& scan = result.stats.op(kScan);
  if (scan.latency.count() > 0) {
    std::snprintf(line, sizeof(line), "SCAN records per scan: %.1f\n",
                  static_cast<double>(scan.scanned_records) /
                      static_cast<double>(scan.latency.count()));
    report += line;
  }
  if (!result.stats.first_error().empty()) {
    report += "first error: " + result.stats.first_error() + "\n";
  }
  if (result.io_valid) {
    const uint64_t gets = result.stats.op(kRead).latency.count() +
                          result.stats.op(kReadAbsent).latency.count() +
                          result.stats.op(kReadModifyWrite).latency.count();
    std::snprintf(
        line, sizeof(line),
        "client read syscalls: %llu (%.4f per Get over %llu Gets); "
        "background: %llu read syscalls, %.1f MB from storage\n",
        static_cast<unsigned long long>(result.client_read_syscalls),
        gets == 0 ? 0.0
                  : static_cast<double>(result.client_read_syscalls) /
                        static_cast<double>(gets),
        static_cast<unsigned long long>(gets),
        static_cast<unsigned long long>(result.background_read_syscalls),
        static_cast<double>(result.background_read_bytes) / 1e6);
    report += line;
  }
  if (result.cpu_valid && total > 0) {
    const double per_op = 1e3 * static_cast<double>(total);  // ns -> us/op
    std::snprintf(line, sizeof(line),
                  "client CPU per operation: %.1f us user, %.1f us system, "
                  "%.1f us waiting for a CPU\n",
                  static_cast<double>(result.client_user_ns) / per_op,
                  static_cast<double>(result.client_system_ns) / per_op,
                  static_cast<double>(result.client_runqueue_wait_ns) / per_op);
    report += line;
  }
  report += result.engine_stats;
  return report;
}

}  // namespace ycsb
