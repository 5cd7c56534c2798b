// The core-workload settings of a YCSB run, parsed and validated from
// properties (YCSB's names and defaults, plus a few extensions).
#ifndef LEVELDB_BENCHMARKS_YCSB_WORKLOAD_SPEC_H_
#define LEVELDB_BENCHMARKS_YCSB_WORKLOAD_SPEC_H_

#include <cstdint>
#include <string>

#include "leveldb/status.h"
#include "properties.h"

namespace ycsb {

// kOrderedZipfian (requestdistribution=orderedzipfian) is an extension: a
// Zipfian over record numbers without scrambling, record 0 the hottest.
enum class Distribution {
  kUniform,
  kZipfian,
  kLatest,
  kHotspot,
  kOrderedZipfian
};

const char* DistributionName(Distribution distribution);

struct WorkloadSpec {
  int64_t record_count = 1000;     // recordcount
  int64_t operation_count = 1000;  // operationcount
  // Operation mix; weights, normalised by their sum as YCSB does.
  double read_proportion = 0.95;            // readproportion
  double update_proportion = 0.05;          // updateproportion
  double insert_proportion = 0;             // insertproportion
  double scan_proportion = 0;               // scanproportion
  double read_modify_write_proportion = 0;  // readmodifywriteproportion
  Distribution request_distribution = Distribution::kUniform;
  int64_t max_scan_length = 1000;  // maxscanlength
  Distribution scan_length_distribution = Distribution::kUniform;
  int64_t field_count = 10;       // fieldcount
  int64_t field_length = 100;     // fieldlength
  bool read_all_fields = true;    // readallfields
  bool write_all_fields = false;  // writeallfields
  bool ordered_inserts = false;   // insertorder=ordered
  // Extensions.
  double hotspot_data_fraction = 0.2;  // hotspotdatafraction, in (0, 1]
  double hotspot_opn_fraction = 0.8;   // hotspotopnfraction, in [0, 1]
  double zipfian_constant = 0.99;      // zipfianconstant, in (0, 1)
  double zero_lookup_proportion = 0;   // zerolookupproportion: absent reads
  int64_t zero_padding = 20;           // zeropadding: digits of a key number
  int64_t seed = 0;                    // seed: varies all random streams
  double status_interval = 10;         // status.interval: progress seconds
};

// Reads every workload property of `props`, applying YCSB's defaults for
// missing ones. Unsupported values (e.g. requestdistribution=exponential)
// and out-of-range numbers give InvalidArgument naming the property, and so
// does insertorder=ordered with a zeropadding too narrow for the largest
// record number (its keys would not sort in number order).
leveldb::Status ParseWorkloadSpec(const Properties& props, WorkloadSpec* spec);

// One-line summary for reports.
std::string DescribeWorkload(const WorkloadSpec& spec);

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_WORKLOAD_SPEC_H_
