// The body of db_stress: worker threads on one database, and the checks
// of every read against the oracle (docs/stress.md).

#ifndef STORAGE_LEVELDB_BENCHMARKS_STRESS_STRESSOR_H_
#define STORAGE_LEVELDB_BENCHMARKS_STRESS_STRESSOR_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "stress/expected_state.h"
#include "stress/fault_env.h"
#include "stress/stress_config.h"

namespace stress {

// Lets the main thread stop every worker between two operations.
class Gate {
 public:
  void Enter();
  void Exit();
  void Close();  // returns once no worker is inside
  void Open();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool closed_ = false;
  int inside_ = 0;
};

struct Counters {
  std::atomic<uint64_t> ops{0};
  std::atomic<uint64_t> checked{0};  // key reads compared with the oracle
  std::atomic<uint64_t> acked_writes{0};
  std::atomic<uint64_t> write_errors{0};
  std::atomic<uint64_t> read_errors{0};
  std::atomic<uint64_t> power_losses{0};
  std::atomic<uint64_t> reopens{0};
};

class Stressor {
 public:
  Stressor(const Flags& flags, const Config& config, ExpectedState* oracle);
  ~Stressor();

  // Opens the database, checks it against the oracle (kill semantics),
  // runs the workers for flags.duration seconds with the configured
  // faults, and closes it. Returns 0, or 1 after a violation.
  int Run();

 private:
  enum class Recovery { kNone, kReopen, kPowerLoss };
  enum class Read { kOk, kError, kBad };

  bool OpenDb();
  bool VerifyAll(Recovery how);
  // The checks that span keys: whole batches, and after a power loss a
  // prefix of the log.
  bool CheckAcrossKeys(const std::vector<Found>& found,
                       const std::vector<BatchList>& batches, Recovery how);
  void Adopt(uint32_t key, const Found& found, Recovery how);
  bool Recover(Recovery how);
  void MainLoop();
  void PrintProgress(const char* tag);

  void Worker(int id);
  void DoWrite(Rng* rng, int nkeys);
  bool WriteLocked(const std::vector<uint32_t>& keys, Rng* rng);
  leveldb::Status ApplyBatch(const BatchList& entries,
                             const leveldb::WriteOptions& wo);
  void DoGet(Rng* rng);
  void DoScan(Rng* rng);
  void DoSnapshotRead(Rng* rng);
  // `batch`, when not null, receives the rest of the value's write batch.
  Read ReadKey(const leveldb::ReadOptions& ro, uint32_t key, Found* found,
               BatchList* batch = nullptr);
  bool ScanRange(const leveldb::Snapshot* snap, uint32_t lo, uint32_t n,
                 std::vector<Found>* out, std::vector<BatchList>* batches);
  void CheckScanBatches(const leveldb::Snapshot* snap,
                        const std::vector<BatchList>& batches, uint32_t lo);
  void Violation(const std::string& kind, uint32_t key,
                 const std::string& detail);

  const Flags flags_;
  const Config config_;
  ExpectedState* const oracle_;
  std::unique_ptr<FaultEnv> env_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<const leveldb::FilterPolicy> planted_;
  std::unique_ptr<leveldb::Cache> cache_;
  leveldb::DB* db_ = nullptr;
  DurabilityTracker tracker_;
  std::unique_ptr<std::mutex[]> locks_;  // one per key
  Gate gate_;
  Counters counters_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> failed_{false};
  std::atomic<bool> reopen_wanted_{false};
  Rng main_rng_;
};

}  // namespace stress

#endif  // STORAGE_LEVELDB_BENCHMARKS_STRESS_STRESSOR_H_
