// db_stress's command line and the options it draws from a seed.

#ifndef STORAGE_LEVELDB_BENCHMARKS_STRESS_STRESS_CONFIG_H_
#define STORAGE_LEVELDB_BENCHMARKS_STRESS_STRESS_CONFIG_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace stress {

struct Flags {
  std::string db;               // database directory
  std::string state;            // oracle file (default: DB + ".oracle")
  uint64_t seed = 1;            // every random choice of the run
  uint32_t keys = 20000;        // key space; fixed for a database's lifetime
  int threads = 0;              // 0: drawn from the seed (1 to 8)
  double duration = 10;         // seconds of operations
  std::string fault = "auto";   // none, power, errors, all, auto (seeded)
  std::string plant;            // "", drop_filter or split_batch
  size_t max_value = 2048;      // longest value body
  bool destroy = false;         // start from an empty database and oracle
  int reuse_logs = -1;          // -1: drawn from the seed; else 0 or 1
  bool prefix_check = true;     // after a power loss, also across keys
  int dbs = 1;                  // databases; with more than 1, DIR/db<i>
  double shared_budget_mb = 0;  // 0: no shared ElasticBF budget
};

// Returns "" or what is wrong with the command line.
std::string ParseFlags(int argc, char** argv, Flags* flags);

// Database `db` of a run with --dbs above 1: its directory, oracle file and
// seed (each database draws its own options and faults).
std::string DbPath(const Flags& flags, int db);
std::string StatePath(const Flags& flags, int db);
uint64_t DbSeed(const Flags& flags, int db);

// --shared_budget_mb in bytes (at least 1 when the flag is set).
size_t SharedBudgetBytes(const Flags& flags);

// Everything a seed decides for one process.
struct Config {
  int threads = 1;
  bool elastic = false;  // ElasticBF filter policy
  bool ribbon = true;    // its unit kind (else Bloom)
  double budget_bits = 4;
  size_t budget_bytes = 0;  // 0: budget_bits applies
  bool inherit_hotness = false;
  int initial_units = 1;
  size_t memo_bytes = 0;  // ElasticFilterOptions::false_positive_memo_bytes
  bool bloom = false;     // plain Bloom filter when not elastic
  int max_open_files = 1000;
  size_t write_buffer_size = 4 << 20;
  size_t max_file_size = 2 << 20;
  size_t block_size = 4096;
  size_t block_cache_bytes = 0;  // 0: LevelDB's default cache
  bool reuse_logs = false;
  bool paranoid_checks = false;
  bool direct_io = false;
  bool compression = true;
  double sync_fraction = 0;     // of writes with WriteOptions::sync
  bool power_loss = false;      // simulate power losses in-process
  double error_rate = 0;        // injected I/O errors per call
  double shared_budget_mb = 0;  // from --shared_budget_mb: forces elastic

  std::string ToString() const;
};

// Draws the Config of one process from flags.seed, or with `db` >= 0 that
// of its database `db` from DbSeed (flags.fault and flags.threads, when
// set, override the draw).
Config PickConfig(const Flags& flags, int db = -1);

}  // namespace stress

#endif  // STORAGE_LEVELDB_BENCHMARKS_STRESS_STRESS_CONFIG_H_
