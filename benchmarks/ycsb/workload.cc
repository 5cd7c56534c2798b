#include "workload.h"

#include "record.h"

namespace ycsb {

Workload::Workload(const WorkloadSpec& spec)
    : spec_(spec), insert_sequence_(static_cast<uint64_t>(spec.record_count)) {
  for (int i = 0; i < spec_.field_count; ++i) {
    field_names_.push_back(FieldName(i));
  }
  // Computed once here rather than in every thread (exact for small counts;
  // recordcount can be tens of millions).
  if (spec_.request_distribution == Distribution::kZipfian) {
    item_space_zetan_ =
        ScrambledZipfianGenerator::ItemSpaceZeta(spec_.zipfian_constant);
  }
  if (spec_.request_distribution == Distribution::kLatest ||
      spec_.request_distribution == Distribution::kOrderedZipfian) {
    records_zetan_ = ZetaApproximate(static_cast<uint64_t>(spec_.record_count),
                                     spec_.zipfian_constant);
  }
  if (spec_.scan_length_distribution == Distribution::kZipfian) {
    scan_zetan_ = ZetaApproximate(static_cast<uint64_t>(spec_.max_scan_length),
                                  spec_.zipfian_constant);
  }
}

std::string Workload::Key(uint64_t key_number) const {
  return BuildKeyName(key_number, !spec_.ordered_inserts,
                      static_cast<int>(spec_.zero_padding));
}

std::unique_ptr<NumberGenerator> Workload::NewKeyChooser() const {
  const uint64_t records = static_cast<uint64_t>(spec_.record_count);
  switch (spec_.request_distribution) {
    case Distribution::kUniform:
      return std::make_unique<UniformGenerator>(0, records - 1);
    case Distribution::kZipfian: {
      // As YCSB: leave room for the keys this run will insert, so that they
      // get their share of the popularity once they exist.
      const uint64_t expected_new_keys =
          static_cast<uint64_t>(static_cast<double>(spec_.operation_count) *
                                spec_.insert_proportion * 2.0);
      return std::make_unique<ScrambledZipfianGenerator>(
          0, records + expected_new_keys, spec_.zipfian_constant,
          item_space_zetan_);
    }
    case Distribution::kLatest:
      return std::make_unique<SkewedLatestGenerator>(
          &insert_sequence_, spec_.zipfian_constant, records_zetan_);
    case Distribution::kHotspot:
      // As YCSB: over the loaded records; inserted ones are never read.
      return std::make_unique<HotspotGenerator>(0, records - 1,
                                                spec_.hotspot_data_fraction,
                                                spec_.hotspot_opn_fraction);
    case Distribution::kOrderedZipfian:
      // Record 0 the hottest; with insertorder=ordered a hot key range.
      return std::make_unique<ZipfianGenerator>(
          0, records - 1, spec_.zipfian_constant, records_zetan_);
  }
  return nullptr;
}

std::unique_ptr<NumberGenerator> Workload::NewScanLengthChooser() const {
  const uint64_t max_length = static_cast<uint64_t>(spec_.max_scan_length);
  if (spec_.scan_length_distribution == Distribution::kZipfian) {
    return std::make_unique<ZipfianGenerator>(
        1, max_length, spec_.zipfian_constant, scan_zetan_);
  }
  return std::make_unique<UniformGenerator>(1, max_length);
}

uint64_t Workload::ThreadSeed(int phase, int thread) const {
  const uint64_t mixed = static_cast<uint64_t>(spec_.seed) * 0x100000001B3ULL +
                         static_cast<uint64_t>(phase) * 65536 +
                         static_cast<uint64_t>(thread);
  return FnvHash64(mixed);
}

}  // namespace ycsb
