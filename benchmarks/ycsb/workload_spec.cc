#include "workload_spec.h"

#include <sstream>

namespace ycsb {

namespace {

constexpr int64_t kMaxCount = int64_t{1} << 40;

// Request keys may use every distribution; scan lengths only the first two.
leveldb::Status ParseDistribution(const Properties& props,
                                  const std::string& key, bool for_requests,
                                  Distribution* result) {
  const std::string name = props.GetString(key, DistributionName(*result));
  const Distribution all[] = {Distribution::kUniform, Distribution::kZipfian,
                              Distribution::kLatest, Distribution::kHotspot,
                              Distribution::kOrderedZipfian};
  const size_t allowed = for_requests ? 5 : 2;
  std::string names;
  for (size_t i = 0; i < allowed; ++i) {
    if (name == DistributionName(all[i])) {
      *result = all[i];
      return leveldb::Status::OK();
    }
    names += (i == 0 ? "" : ", ") + std::string(DistributionName(all[i]));
  }
  return leveldb::Status::InvalidArgument(
      "property " + key,
      "unsupported distribution '" + name + "' (supported: " + names + ")");
}

leveldb::Status ParseHotspot(const Properties& props, WorkloadSpec* spec) {
  leveldb::Status s =
      props.GetDouble("hotspotdatafraction", spec->hotspot_data_fraction, 0.0,
                      1.0, &spec->hotspot_data_fraction);
  if (s.ok() && spec->hotspot_data_fraction <= 0.0) {
    s = leveldb::Status::InvalidArgument(
        "property hotspotdatafraction",
        "expected a number in (0, 1], got '" +
            props.GetString("hotspotdatafraction", "") + "'");
  }
  if (s.ok()) {
    s = props.GetDouble("hotspotopnfraction", spec->hotspot_opn_fraction, 0.0,
                        1.0, &spec->hotspot_opn_fraction);
  }
  return s;
}

int DecimalDigits(uint64_t value) {
  int digits = 1;
  for (; value >= 10; value /= 10) ++digits;
  return digits;
}

// Ordered keys are the record number padded to zeropadding digits: they
// sort in number order only if every number the run can reach fits.
leveldb::Status CheckOrderedPadding(const WorkloadSpec& spec) {
  if (!spec.ordered_inserts) return leveldb::Status::OK();
  const uint64_t largest =
      static_cast<uint64_t>(spec.record_count + spec.operation_count);
  const int needed = DecimalDigits(largest);
  if (spec.zero_padding >= needed) return leveldb::Status::OK();
  return leveldb::Status::InvalidArgument(
      "property zeropadding",
      "insertorder=ordered needs at least " + std::to_string(needed) +
          " digits so that keys sort in record-number order, got " +
          std::to_string(spec.zero_padding));
}

leveldb::Status ParseProportions(const Properties& props, WorkloadSpec* spec) {
  struct Entry {
    const char* key;
    double* target;
  };
  const Entry entries[] = {
      {"readproportion", &spec->read_proportion},
      {"updateproportion", &spec->update_proportion},
      {"insertproportion", &spec->insert_proportion},
      {"scanproportion", &spec->scan_proportion},
      {"readmodifywriteproportion", &spec->read_modify_write_proportion},
      {"zerolookupproportion", &spec->zero_lookup_proportion},
  };
  for (const Entry& entry : entries) {
    leveldb::Status s =
        props.GetDouble(entry.key, *entry.target, 0.0, 1.0, entry.target);
    if (!s.ok()) return s;
  }
  const double total = spec->read_proportion + spec->update_proportion +
                       spec->insert_proportion + spec->scan_proportion +
                       spec->read_modify_write_proportion;
  if (total <= 0 && spec->operation_count > 0) {
    return leveldb::Status::InvalidArgument(
        "workload", "all operation proportions are zero");
  }
  return leveldb::Status::OK();
}

leveldb::Status ParseCounts(const Properties& props, WorkloadSpec* spec) {
  return props.GetInts({
      {"recordcount", &spec->record_count, 1, kMaxCount},
      {"operationcount", &spec->operation_count, 0, kMaxCount},
      {"fieldcount", &spec->field_count, 1, 1024},
      {"fieldlength", &spec->field_length, 1, 16 << 20},
      {"maxscanlength", &spec->max_scan_length, 1, kMaxCount},
      {"zeropadding", &spec->zero_padding, 1, 64},
      {"seed", &spec->seed, 0, INT64_MAX},
  });
}

leveldb::Status ParseChoices(const Properties& props, WorkloadSpec* spec) {
  leveldb::Status s = ParseDistribution(props, "requestdistribution", true,
                                        &spec->request_distribution);
  if (s.ok()) {
    s = ParseDistribution(props, "scanlengthdistribution", false,
                          &spec->scan_length_distribution);
  }
  if (s.ok()) {
    const std::string length_distribution =
        props.GetString("fieldlengthdistribution", "constant");
    if (length_distribution != "constant") {
      s = leveldb::Status::InvalidArgument("property fieldlengthdistribution",
                                           "unsupported value '" +
                                               length_distribution +
                                               "' (supported: constant)");
    }
  }
  if (s.ok()) {
    const std::string order = props.GetString("insertorder", "hashed");
    if (order == "hashed" || order == "ordered") {
      spec->ordered_inserts = order == "ordered";
    } else {
      s = leveldb::Status::InvalidArgument(
          "property insertorder",
          "expected hashed or ordered, got '" + order + "'");
    }
  }
  if (s.ok()) {
    s = props.GetBool("readallfields", spec->read_all_fields,
                      &spec->read_all_fields);
  }
  if (s.ok()) {
    s = props.GetBool("writeallfields", spec->write_all_fields,
                      &spec->write_all_fields);
  }
  return s;
}

}  // namespace

const char* DistributionName(Distribution distribution) {
  static const char* const kNames[] = {"uniform", "zipfian", "latest",
                                       "hotspot", "orderedzipfian"};
  return kNames[static_cast<int>(distribution)];
}

leveldb::Status ParseWorkloadSpec(const Properties& props, WorkloadSpec* spec) {
  *spec = WorkloadSpec();
  leveldb::Status s = ParseCounts(props, spec);
  if (s.ok()) s = ParseProportions(props, spec);
  if (s.ok()) s = ParseChoices(props, spec);
  if (s.ok()) {
    s = props.GetDouble("zipfianconstant", spec->zipfian_constant, 0.0, 1.0,
                        &spec->zipfian_constant);
    if (s.ok() &&
        (spec->zipfian_constant <= 0.0 || spec->zipfian_constant >= 1.0)) {
      s = leveldb::Status::InvalidArgument(
          "property zipfianconstant",
          "expected a number strictly between 0 and 1, got '" +
              props.GetString("zipfianconstant", "") + "'");
    }
  }
  if (s.ok()) {
    s = props.GetDouble("status.interval", spec->status_interval, 0.0, 1e6,
                        &spec->status_interval);
  }
  if (s.ok()) s = ParseHotspot(props, spec);
  if (s.ok()) s = CheckOrderedPadding(*spec);
  return s;
}

std::string DescribeWorkload(const WorkloadSpec& spec) {
  std::ostringstream out;
  out << "records=" << spec.record_count
      << " operations=" << spec.operation_count
      << " read=" << spec.read_proportion
      << " update=" << spec.update_proportion
      << " insert=" << spec.insert_proportion
      << " scan=" << spec.scan_proportion
      << " rmw=" << spec.read_modify_write_proportion
      << " distribution=" << DistributionName(spec.request_distribution);
  if (spec.request_distribution == Distribution::kHotspot) {
    out << "(" << spec.hotspot_data_fraction << "," << spec.hotspot_opn_fraction
        << ")";
  } else if (spec.request_distribution != Distribution::kUniform) {
    out << "(" << spec.zipfian_constant << ")";
  }
  out << " fields=" << spec.field_count << "x" << spec.field_length
      << " insertorder=" << (spec.ordered_inserts ? "ordered" : "hashed");
  if (spec.scan_proportion > 0) {
    out << " maxscanlength=" << spec.max_scan_length << "("
        << DistributionName(spec.scan_length_distribution) << ")";
  }
  if (spec.zero_lookup_proportion > 0) {
    out << " zerolookup=" << spec.zero_lookup_proportion;
  }
  return out.str();
}

}  // namespace ycsb
