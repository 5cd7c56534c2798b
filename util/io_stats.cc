#include "util/io_stats.h"

#include <cstdio>

namespace leveldb {

namespace {

uint64_t Get(const std::atomic<uint64_t>& c) {
  return c.load(std::memory_order_relaxed);
}

void AppendLine(std::string* out, const char* name, uint64_t value) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "%-26s %llu\n", name,
                static_cast<unsigned long long>(value));
  out->append(buf);
}

void AppendRatio(std::string* out, const char* name, uint64_t num,
                 uint64_t den) {
  char buf[96];
  double ratio = den == 0 ? 0.0 : static_cast<double>(num) / den;
  std::snprintf(buf, sizeof(buf), "%-26s %.4f\n", name, ratio);
  out->append(buf);
}

}  // namespace

void IoStats::Reset() {
  for (std::atomic<uint64_t>* c :
       {&gets, &table_probes, &filter_checks, &filter_rejections,
        &false_positives, &unfiltered_misses, &data_block_reads,
        &data_block_cache_hits, &unit_loads, &unit_load_bytes,
        &unit_load_failures, &unit_evictions, &compaction_bytes_read,
        &compaction_bytes_written}) {
    c->store(0, std::memory_order_relaxed);
  }
}

std::string IoStats::ToString() const {
  std::string out;
  AppendLine(&out, "gets:", Get(gets));
  AppendLine(&out, "table_probes:", Get(table_probes));
  AppendLine(&out, "filter_checks:", Get(filter_checks));
  AppendLine(&out, "filter_rejections:", Get(filter_rejections));
  AppendLine(&out, "false_positives:", Get(false_positives));
  AppendLine(&out, "unfiltered_misses:", Get(unfiltered_misses));
  AppendLine(&out, "data_block_reads:", Get(data_block_reads));
  AppendLine(&out, "data_block_cache_hits:", Get(data_block_cache_hits));
  AppendLine(&out, "unit_loads:", Get(unit_loads));
  AppendLine(&out, "unit_load_bytes:", Get(unit_load_bytes));
  AppendLine(&out, "unit_load_failures:", Get(unit_load_failures));
  AppendLine(&out, "unit_evictions:", Get(unit_evictions));
  AppendLine(&out, "compaction_bytes_read:", Get(compaction_bytes_read));
  AppendLine(&out, "compaction_bytes_written:", Get(compaction_bytes_written));
  uint64_t disk_reads = Get(data_block_reads) - Get(data_block_cache_hits);
  AppendRatio(&out, "data_block_ios_per_get:", disk_reads, Get(gets));
  AppendRatio(&out, "false_positives_per_get:", Get(false_positives),
              Get(gets));
  AppendRatio(&out, "wasted_reads_per_get:",
              Get(false_positives) + Get(unfiltered_misses), Get(gets));
  return out;
}

}  // namespace leveldb
