// ElasticBF's statistics: the UnitManager's Stats snapshot and the text of
// a DB's "leveldb.elasticbf" property.
#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "elastic/mq_schedule.h"
#include "elastic/unit_manager.h"
#include "table/elastic/elastic_filter_policy.h"
#include "table/elastic/filter_group.h"
#include "util/mutexlock.h"

namespace leveldb {

namespace {

// Appends printf-formatted pieces (at most 255 bytes each) to a string.
class TextOut {
 public:
  explicit TextOut(std::string* out) : out_(out) {}

  void Printf(const char* format, ...) __attribute__((format(printf, 2, 3)));
  // One "name: value" line.
  void Counter(const char* name, uint64_t value) {
    Printf("%s: %" PRIu64 "\n", name, value);
  }
  void Append(const char* text) { out_->append(text); }

 private:
  std::string* const out_;
};

void TextOut::Printf(const char* format, ...) {
  char buf[256];
  std::va_list ap;
  va_start(ap, format);
  const int n = std::vsnprintf(buf, sizeof(buf), format, ap);
  va_end(ap);
  if (n > 0) out_->append(buf, std::min<size_t>(n, sizeof(buf) - 1));
}

// Memory of units and locators per key the budget is computed over.
double BitsPerKey(const MQSchedule::Stats& st) {
  const uint64_t used = st.installed_bytes + st.locator_bytes + st.memo_bytes;
  return st.budget_keys == 0 ? 0.0
                             : 8.0 * static_cast<double>(used) / st.budget_keys;
}

// Scalars first, one "name: value" per line, so that tools can parse them.
void AppendScalars(const MQSchedule::Stats& st,
                   const ElasticFilterOptions& shape, uint64_t clock,
                   TextOut* text) {
  // memory_*: units, locators and memos together; unit_*: units alone.
  text->Counter("memory_used_bytes",
                st.installed_bytes + st.locator_bytes + st.memo_bytes);
  text->Counter("memory_budget_bytes", st.budget_bytes);
  text->Counter("unit_bytes", st.installed_bytes);
  text->Counter("unit_budget_bytes", st.mq.budget_bytes);
  text->Counter("memory_reserved_bytes", st.mq.used_bytes);
  text->Printf("memory_bits_per_key: %.2f\n", BitsPerKey(st));
  // The unit shape new tables are written with (resolved when automatic).
  text->Counter("bits_per_unit", static_cast<uint64_t>(shape.bits_per_unit));
  text->Counter("units_per_segment",
                static_cast<uint64_t>(shape.units_per_segment));
  text->Counter("tables_attached", st.attached_tables);
  text->Counter("keys_attached", st.attached_keys);
  text->Counter("segment_locator_bytes", st.locator_bytes);
  text->Counter("fp_memo_bytes", st.memo_bytes);
  text->Counter("fp_memo_hits", st.memo_hits);
  text->Counter("fp_memo_inserts", st.memo_inserts);
  text->Counter("fp_memo_grows", st.memo_grows);
  text->Counter("fp_memo_shrinks", st.memo_shrinks);
  text->Counter("keys_live", st.budget_keys);
  text->Counter("segments_attached", st.mq.attached_segments);
  text->Counter("segments_closed", st.mq.detached_segments);
  text->Counter("lifetime", st.mq.lifetime);
  text->Counter("clock", clock);
  text->Counter("unit_loads", st.unit_loads);
  text->Counter("unit_load_bytes", st.unit_load_bytes);
  text->Counter("unit_load_failures", st.unit_load_failures);
  text->Counter("region_reads", st.region_reads);
  text->Counter("aborted_loads", st.mq.aborted_loads);
  text->Counter("unit_evictions", st.unit_evictions);
  text->Counter("adjustments", st.mq.adjustments);
  text->Counter("swaps", st.mq.swaps);
  text->Counter("warm_swaps", st.mq.warm_swaps);
  text->Counter("rejected_no_victims", st.mq.rejected_no_victims);
  text->Counter("rejected_no_gain", st.mq.rejected_no_gain);
  text->Printf("expected_extra_io: %.1f\n", st.mq.expected_extra_io);
  text->Counter("access_records", st.records);
  text->Counter("ring_drops", st.ring_drops);
}

// How many segments hold k units, overall and per LSM level.
void AppendHistograms(const MultiQueue::Stats& mq, TextOut* text) {
  text->Append("segments by units loaded:");
  for (size_t k = 0; k < mq.segments_per_queue.size(); ++k) {
    text->Printf(" %zu:%" PRIu64, k, mq.segments_per_queue[k]);
  }
  text->Append("\n");
  text->Append("units loaded per LSM level (k:segments with k units):\n");
  for (size_t level = 0; level < mq.segments_by_level.size(); ++level) {
    const std::vector<uint64_t>& hist = mq.segments_by_level[level];
    uint64_t segments = 0;
    uint64_t units = 0;
    for (size_t k = 0; k < hist.size(); ++k) {
      segments += hist[k];
      units += k * hist[k];
    }
    if (segments == 0) continue;  // levels without open elastic tables
    text->Printf("  level %zu: %" PRIu64 " units;", level, units);
    for (size_t k = 0; k < hist.size(); ++k) {
      text->Printf(" %zu:%" PRIu64, k, hist[k]);
    }
    text->Append("\n");
  }
}

// A one-paragraph summary for people.
void AppendSummary(const MQSchedule::Stats& st, TextOut* text) {
  text->Printf("summary: %" PRIu64 " bytes in loaded units and %" PRIu64
               " in locators (%.2f bits per key), %" PRIu64
               " reserved, budget %" PRIu64 "\n",
               st.installed_bytes, st.locator_bytes, BitsPerKey(st),
               st.mq.used_bytes, st.budget_bytes);
  text->Printf("  E[extra I/O]: %.1f; access records: %" PRIu64
               " processed, %" PRIu64 " dropped\n",
               st.mq.expected_extra_io, st.records, st.ring_drops);
}

}  // namespace

UnitManager::Stats UnitManager::GetStats(DbHandle db) const {
  MutexLock l(&mu_);
  Stats st;
  st.shared = options_.shared;
  st.members = members_.size();
  for (const auto& [key, table] : tables_) {
    if (table.db != db) continue;
    ++st.db_tables_attached;
    st.db_unit_bytes += table.groups->loaded_bytes();
    st.db_locator_bytes += table.groups->locator().ApproximateMemoryUsage();
  }
  st.mq = mq_.GetStats();
  st.installed_bytes = installed_bytes_;
  st.attached_tables = tables_.size();
  st.attached_keys = attached_keys_;
  st.locator_bytes = locator_bytes_;
  st.budget_bytes = budget_bytes_;
  st.budget_keys = BudgetKeysLocked();
  st.records = records_;
  for (const auto& [db, member] : members_) {
    FilterLayer* layer = member.client->layer();
    st.ring_drops += layer->ring_drops();
    st.memo_bytes += layer->memo()->bytes();
    st.memo_hits += layer->memo()->hits();
    st.memo_inserts += layer->memo()->inserts();
    if (member.sizer != nullptr) {
      st.memo_grows += member.sizer->grows();
      st.memo_shrinks += member.sizer->shrinks();
    }
  }
  st.unit_loads = stats_->unit_loads.load(std::memory_order_relaxed);
  st.unit_load_bytes = stats_->unit_load_bytes.load(std::memory_order_relaxed);
  st.unit_load_failures =
      stats_->unit_load_failures.load(std::memory_order_relaxed);
  st.region_reads = region_reads_;
  st.unit_evictions = stats_->unit_evictions.load(std::memory_order_relaxed);
  return st;
}

// A database sharing a budget: its own part first; the other figures are
// the budget's.
void AppendSharedScalars(const MQSchedule::Stats& st, TextOut* text) {
  if (!st.shared) return;
  text->Counter("shared_budget_databases", st.members);
  text->Counter("db_memory_used_bytes", st.db_unit_bytes + st.db_locator_bytes);
  text->Counter("db_unit_bytes", st.db_unit_bytes);
  text->Counter("db_segment_locator_bytes", st.db_locator_bytes);
  text->Counter("db_tables_attached", st.db_tables_attached);
}

std::string MQSchedule::StatsString() const {
  const Stats st = manager_->GetStats(db_);
  std::string out;
  TextOut text(&out);
  AppendSharedScalars(st, &text);
  // The shape this database writes (a shared manager's is its members').
  AppendScalars(st,
                options_.elastic.shared_budget != nullptr
                    ? ResolveElasticShape(options_.elastic)
                    : manager_->options().elastic,
                layer_.Now(), &text);
  AppendHistograms(st.mq, &text);
  AppendSummary(st, &text);
  return out;
}

}  // namespace leveldb
