// db_stress: random concurrent operations on one database (or --dbs of
// them, optionally sharing one ElasticBF budget), every read checked
// against an expected-state oracle that survives SIGKILL, with simulated
// power losses (torn tails) and injected I/O errors. Driven by
// scripts/crash_test.sh; see docs/stress.md.
//
//   db_stress --db=DIR [--state=FILE] [--seed=S] [--keys=N] [--threads=T]
//             [--duration=SECONDS] [--fault=none|power|errors|all|auto]
//             [--plant=drop_filter|split_batch] [--max_value=BYTES]
//             [--destroy=1]
//             [--reuse_logs=0|1]  (default: drawn from the seed)
//             [--prefix_check=0|1]  (default 1)
//             [--dbs=K]  (default 1; K > 1: DIR/db0 .. DIR/db<K-1>)
//             [--shared_budget_mb=N]  (one ElasticBF budget for all)
//
// Exit status: 0 when every check passed, 1 after a violation (printed
// with the seed and options that repeat it), 2 for a bad command line or
// setup.

#include <cstdio>
#include <memory>

#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "stress/expected_state.h"
#include "stress/multi_stressor.h"
#include "stress/stress_config.h"
#include "stress/stressor.h"

int main(int argc, char** argv) {
  stress::Flags flags;
  const std::string err = stress::ParseFlags(argc, argv, &flags);
  if (!err.empty()) {
    std::fprintf(stderr, "db_stress: %s\n", err.c_str());
    return 2;
  }
  if (flags.dbs > 1) {
    stress::MultiStressor multi(flags);
    const std::string serr = multi.Setup();
    if (!serr.empty()) {
      std::fprintf(stderr, "db_stress: %s\n", serr.c_str());
      return 2;
    }
    return multi.Run();
  }
  const stress::Config config = stress::PickConfig(flags);
  if (flags.destroy) {
    leveldb::Status s = leveldb::DestroyDB(flags.db, leveldb::Options());
    if (!s.ok()) {
      std::fprintf(stderr, "db_stress: %s\n", s.ToString().c_str());
      return 2;
    }
    std::remove(flags.state.c_str());
  }
  std::unique_ptr<stress::ExpectedState> oracle;
  const std::string oerr =
      stress::ExpectedState::Open(flags.state, flags.keys, &oracle);
  if (!oerr.empty()) {
    std::fprintf(stderr, "db_stress: %s\n", oerr.c_str());
    return 2;
  }
  std::printf("db_stress: seed=%llu keys=%u fault=%s plant=%s options: %s\n",
              static_cast<unsigned long long>(flags.seed), flags.keys,
              flags.fault.c_str(),
              flags.plant.empty() ? "none" : flags.plant.c_str(),
              config.ToString().c_str());
  std::fflush(stdout);
  std::unique_ptr<leveldb::ElasticFilterBudget> budget;
  if (flags.shared_budget_mb > 0) {
    budget.reset(
        leveldb::NewElasticFilterBudget(stress::SharedBudgetBytes(flags)));
  }
  stress::Member member;
  member.budget = budget.get();
  stress::Stressor stressor(flags, config, oracle.get(), member);
  return stressor.Run();
}
