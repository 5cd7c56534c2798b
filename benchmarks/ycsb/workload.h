// State of a YCSB workload shared by the client threads of a run: the
// validated spec, the insert key sequence and values every thread would
// otherwise recompute. Clients build their own generators from it.
#ifndef LEVELDB_BENCHMARKS_YCSB_WORKLOAD_H_
#define LEVELDB_BENCHMARKS_YCSB_WORKLOAD_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "generators.h"
#include "workload_spec.h"

namespace ycsb {

class Workload {
 public:
  explicit Workload(const WorkloadSpec& spec);

  const WorkloadSpec& spec() const { return spec_; }

  // Next key numbers for inserts of the run phase, from recordcount on.
  CounterGenerator* insert_sequence() { return &insert_sequence_; }

  std::string Key(uint64_t key_number) const;
  const std::string& field_name(int index) const { return field_names_[index]; }

  // A fresh generator of key numbers for requestdistribution (its draws may
  // exceed the inserted range; see Client::NextKeyNumber).
  std::unique_ptr<NumberGenerator> NewKeyChooser() const;
  // A fresh generator of scan lengths in [1, maxscanlength].
  std::unique_ptr<NumberGenerator> NewScanLengthChooser() const;

  // Seed of client `thread` in phase `phase` (0 load, 1 run).
  uint64_t ThreadSeed(int phase, int thread) const;

 private:
  const WorkloadSpec spec_;
  CounterGenerator insert_sequence_;
  std::vector<std::string> field_names_;
  double item_space_zetan_ = 0;  // for scrambled Zipfian request keys
  // Zeta(recordcount) for "latest" and "orderedzipfian".
  double records_zetan_ = 0;
  double scan_zetan_ = 0;  // Zeta(maxscanlength) for zipfian scans
};

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_WORKLOAD_H_
