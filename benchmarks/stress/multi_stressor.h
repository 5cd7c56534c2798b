// db_stress --dbs=K: K databases in one process, each with its own oracle
// and fault Env, optionally sharing one ElasticBF budget. The worker
// threads pick a database per operation, most often the current hot one,
// which moves, so the shared budget's units move between databases; one
// database at a time is closed, reopened and checked while the others
// keep running (docs/stress.md#several-databases).

#ifndef STORAGE_LEVELDB_BENCHMARKS_STRESS_MULTI_STRESSOR_H_
#define STORAGE_LEVELDB_BENCHMARKS_STRESS_MULTI_STRESSOR_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "leveldb/elastic_filter.h"
#include "stress/expected_state.h"
#include "stress/stress_config.h"
#include "stress/stressor.h"

namespace stress {

class MultiStressor {
 public:
  explicit MultiStressor(const Flags& flags);
  ~MultiStressor();

  // Creates --db, destroys the databases if asked, opens the oracles and
  // prints the options; returns "" or the reason db_stress cannot start.
  std::string Setup();

  // Opens and checks every database (concurrently), runs the workers for
  // flags.duration seconds, closes every database (concurrently). Returns
  // 0, or 1 after a violation.
  int Run();

 private:
  void Worker(int id);
  size_t PickDb(Rng* rng) const;
  void MainLoop();
  void Cycler();
  // The shared budget holds, and at the end every database is a member.
  void CheckBudget(bool at_end);
  void Violation(const std::string& kind, const std::string& detail);
  bool AnyFailed() const;
  bool Stopping() const { return stop_ || AnyFailed(); }
  void ForEachDb(const std::function<void(Stressor*)>& fn);
  void PrintTotals(const char* tag) const;

  const Flags flags_;
  const int threads_;
  // Destroyed after the databases that use it (members go in reverse).
  std::unique_ptr<leveldb::ElasticFilterBudget> budget_;
  std::vector<std::unique_ptr<ExpectedState>> oracles_;
  std::vector<std::unique_ptr<Stressor>> dbs_;
  std::atomic<size_t> hot_{0};
  std::atomic<bool> stop_{false};
  std::atomic<bool> failed_{false};  // a violation of the budget's
  Rng main_rng_;
  Rng cycle_rng_;
};

}  // namespace stress

#endif  // STORAGE_LEVELDB_BENCHMARKS_STRESS_MULTI_STRESSOR_H_
