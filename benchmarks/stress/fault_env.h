// A fault-injecting Env for db_stress: simulated power loss with torn
// tails, and I/O errors injected at random (docs/stress.md).
//
// It wraps a base Env (the POSIX one, or the direct-I/O one) and remembers,
// for every file written through it, how many bytes were handed to the
// operating system and how many of them a Sync made durable, and whether
// the file's directory entry is durable yet. PowerLoss() then makes the
// files look as after a power cut: each file keeps its synced bytes plus a
// random part of the rest (a torn tail), and a file whose creation was not
// made durable may disappear.
//
// When directory entries become durable follows the base Env's own rules
// (util/env_posix.cc): a MANIFEST's Sync and the first Sync of any other
// non-table file fsync the directory, and so does every RenameFile. A
// table file's entry becomes durable only with such a directory sync.

#ifndef STORAGE_LEVELDB_BENCHMARKS_STRESS_FAULT_ENV_H_
#define STORAGE_LEVELDB_BENCHMARKS_STRESS_FAULT_ENV_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "leveldb/env.h"

namespace stress {

// Counters of what the Env did; read them while no DB is open.
struct FaultStats {
  uint64_t injected_errors = 0;
  uint64_t torn_files = 0;         // files cut between synced and written size
  uint64_t dropped_creations = 0;  // files removed: entry not durable
};

class FaultEnv : public leveldb::EnvWrapper {
 public:
  FaultEnv(leveldb::Env* base, uint64_t seed);

  // Probability, per read, write, sync, rename or file creation, of an
  // injected IOError. 0 turns injection off.
  void SetErrorRate(double rate);

  // While the power is out every call that would change a file fails, so
  // that a DB being abandoned cannot write past the moment of the cut.
  void SetPowerOut(bool out);

  // Applies a power loss to every file written since the last one (or
  // since this Env was made): call it with no DB open and the power out.
  // Choices come from `seed`, so one seed gives one outcome.
  leveldb::Status PowerLoss(uint64_t seed);

  FaultStats stats() const;

  // Env overrides.
  leveldb::Status NewSequentialFile(const std::string& f,
                                    leveldb::SequentialFile** r) override;
  leveldb::Status NewRandomAccessFile(const std::string& f,
                                      leveldb::RandomAccessFile** r) override;
  leveldb::Status NewWritableFile(const std::string& f,
                                  leveldb::WritableFile** r) override;
  leveldb::Status NewAppendableFile(const std::string& f,
                                    leveldb::WritableFile** r) override;
  leveldb::Status RemoveFile(const std::string& f) override;
  leveldb::Status RenameFile(const std::string& src,
                             const std::string& target) override;

  // Used by the file wrappers.
  bool Inject();  // true: fail this call
  bool power_out() const { return power_out_.load(); }
  void NoteAppended(const std::string& fname, uint64_t bytes);
  void NoteSynced(const std::string& fname);

 private:
  struct FileState {
    uint64_t written = 0;  // bytes handed to the base Env
    uint64_t synced = 0;   // of which a Sync made durable
    bool entry_durable = false;
    bool synced_once = false;
  };

  leveldb::Status TrackNew(const std::string& f, bool append);
  leveldb::Status OpenWritable(const std::string& f, bool append,
                               leveldb::WritableFile** r);
  void SyncDirectoryLocked();

  std::atomic<uint64_t> rng_counter_;
  const uint64_t seed_;
  std::atomic<uint64_t> error_threshold_{0};  // rate scaled to 2^32
  std::atomic<bool> power_out_{false};

  mutable std::mutex mu_;
  std::map<std::string, FileState> files_;
  FaultStats stats_;
};

// Mixes 64 bits (SplitMix64's finaliser): cheap, well spread, stateless.
uint64_t Mix64(uint64_t x);

// A small deterministic generator: one seed, one sequence.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(Mix64(seed)) {}
  uint64_t Next() { return Mix64(state_++); }
  uint32_t Uniform(uint32_t n) { return static_cast<uint32_t>(Next() % n); }
  bool OneIn(uint32_t n) { return Uniform(n) == 0; }
  double Fraction() { return (Next() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  uint64_t state_;
};

}  // namespace stress

#endif  // STORAGE_LEVELDB_BENCHMARKS_STRESS_FAULT_ENV_H_
