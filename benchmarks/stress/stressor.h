// The body of db_stress: worker threads on one database, and the checks
// of every read against the oracle (docs/stress.md). With --dbs, one
// Stressor per database serves the threads of a MultiStressor.

#ifndef STORAGE_LEVELDB_BENCHMARKS_STRESS_STRESSOR_H_
#define STORAGE_LEVELDB_BENCHMARKS_STRESS_STRESSOR_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/filter_policy.h"
#include "stress/expected_state.h"
#include "stress/fault_env.h"
#include "stress/stress_config.h"

namespace stress {

// Lets the main thread stop every worker between two operations.
class Gate {
 public:
  void Enter();
  bool TryEnter();  // false, at once, while the gate is closed
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

// A copy of the counters and of the fault Env's figures, which add up
// over databases.
struct Totals {
  uint64_t ops = 0, checked = 0, acked_writes = 0, write_errors = 0,
           read_errors = 0, power_losses = 0, reopens = 0;
  FaultStats faults;

  Totals& operator+=(const Totals& other);
};

// Prints "TAG: ops=... checked=..." (scripts/crash_test.sh reads it).
void PrintTotals(const std::string& tag, const Totals& t);

// One database of a run with --dbs above 1.
struct Member {
  int index = -1;  // -1: the run's only database, at --db
  leveldb::ElasticFilterBudget* budget = nullptr;  // shared, or null
};

class Stressor {
 public:
  using Clock = std::chrono::steady_clock;

  Stressor(const Flags& flags, const Config& config, ExpectedState* oracle,
           const Member& member = Member());
  ~Stressor();

  // Opens the database, checks it against the oracle (kill semantics),
  // runs the workers for flags.duration seconds with the configured
  // faults, and closes it. Returns 0, or 1 after a violation.
  int Run();

  // The parts of Run for a MultiStressor, whose threads share databases.
  // Start opens and checks the database; false after a violation.
  bool Start();
  // One operation unless the database is closed or waits for a reopen
  // (then false, at once). Safe from any thread.
  bool Step(Rng* rng);
  // Reopens after a failed write, or simulates a power loss when due.
  void Maintain(Clock::time_point now);
  // Closes and reopens the database and checks all of it.
  bool Reopen();
  // DB::GetProperty, or false while the database is closed.
  bool Property(const std::string& name, std::string* value);
  void Close();  // a clean close, after the last Step
  bool failed() const { return failed_; }
  Totals totals() const;

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
  void SchedulePowerLoss();
  void MainLoop();
  void PrintProgress(const char* tag);

  void Worker(int id);
  void DoOp(Rng* rng);
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
  const int index_;            // Member::index
  const std::string db_path_;  // --db, or DIR/db<i>
  const uint64_t seed_;        // flags.seed, or DbSeed
  std::mutex recover_mu_;      // one Recover at a time
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
  Clock::time_point next_power_ = Clock::time_point::max();
};

}  // namespace stress

#endif  // STORAGE_LEVELDB_BENCHMARKS_STRESS_STRESSOR_H_
