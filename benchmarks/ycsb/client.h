// One YCSB client thread: its own random stream and generators, the
// operations of the core workload against the database, and its own
// statistics (merged by the runner when the threads are done).
#ifndef LEVELDB_BENCHMARKS_YCSB_CLIENT_H_
#define LEVELDB_BENCHMARKS_YCSB_CLIENT_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine.h"
#include "generators.h"
#include "op_stats.h"
#include "record.h"
#include "workload.h"

namespace ycsb {

class Client {
 public:
  // `phase` (0 load, 1 run) and `thread` select the random stream.
  Client(Workload* workload, Database* database, int phase, int thread);

  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Load phase: writes record `key_number` with all its fields.
  void LoadRecord(uint64_t key_number);
  // Run phase: one operation drawn from the operation mix.
  void DoTransaction();

  const PhaseStats& stats() const { return stats_; }
  // Operations completed so far; read by the progress monitor.
  uint64_t completed() const {
    return completed_.load(std::memory_order_relaxed);
  }

 private:
  enum Choice {
    kChooseRead,
    kChooseUpdate,
    kChooseInsert,
    kChooseScan,
    kChooseReadModifyWrite
  };

  // A key number of an existing record, per requestdistribution.
  uint64_t NextKeyNumber();
  std::string RandomValue();
  void BuildAllFields(std::vector<Field>* fields);
  // Replaces the fields an update writes (all, or one random field).
  void ApplyUpdate(std::vector<Field>* fields);

  void DoRead();
  void DoReadAbsent();
  void DoUpdate();
  void DoInsert();
  void DoScan();
  void DoReadModifyWrite();

  // Checks a record read back; false (and an error) if it is malformed.
  bool CheckRecord(OpType type, const std::string& value);
  // Decodes value_ into fields_; false (and an error) unless it is a
  // well-formed record of fieldcount fields.
  bool DecodeWhole(OpType type, const std::string& key);
  // Gets `key` into value_; false if absent (counted) or on error.
  bool ReadExisting(OpType type, const std::string& key);
  void Write(OpType type, const std::string& key,
             const std::vector<Field>& fields);
  // A timed blind write of a record whose fields are all built anew.
  void WriteAllFields(OpType type, const std::string& key);
  // One Get and one Put: the record read is the one updated and written.
  void RewriteExisting(OpType type, const std::string& key);
  void Finish(OpType type, uint64_t start_nanos);

  Workload* const workload_;
  const WorkloadSpec& spec_;
  Database* const database_;
  Random rng_;
  std::unique_ptr<NumberGenerator> key_chooser_;
  std::unique_ptr<NumberGenerator> scan_length_chooser_;
  UniformGenerator field_chooser_;
  DiscreteGenerator operation_chooser_;
  PhaseStats stats_;
  std::atomic<uint64_t> completed_{0};
  // Scratch buffers reused across operations.
  std::string value_;
  std::string encoded_;
  std::vector<Field> fields_;
};

// Monotonic clock in nanoseconds.
uint64_t NowNanos();

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_CLIENT_H_
