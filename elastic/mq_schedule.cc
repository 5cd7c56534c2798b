#include "elastic/mq_schedule.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <utility>

#include "leveldb/env.h"
#include "leveldb/slice.h"
#include "table/elastic/elastic_filter_policy.h"
#include "table/elastic/filter_group.h"
#include "table/elastic/filter_unit.h"
#include "util/io_stats.h"
#include "util/mutexlock.h"

namespace leveldb {

namespace {

// Records handled per critical section, so attach/detach calls never wait
// long for the mutex.
constexpr size_t kMaxBatch = 4096;
// Poll intervals of the background thread: while Gets keep coming, and
// after kActivePolls empty polls in a row.
constexpr uint64_t kActivePollMicros = 1000;
constexpr uint64_t kIdlePollMicros = 20000;
constexpr int kActivePolls = 100;
// Files the background thread registers between two batches of records.
constexpr size_t kRegistrationsPerPass = 4;

// Segment counts are halved every 16 lifetimes of Gets. Measured on 50/50
// read/update mixes (docs/evaluation.md): without aging an old segment's
// lifetime total outweighs a young one's recent probes and the adjustment
// rule keeps units in the wrong place; 2 lifetimes made f too noisy, 8-32
// did about equally well; read-only runs do not change.
constexpr uint64_t kAgingLifetimes = 16;

int MaxUnits(const ElasticFilterOptions& options) {
  return std::clamp(options.units_per_segment, 1, kMaxElasticUnits);
}

// Per segment, the units a new table should reach: the source's target
// where it has one (at most max_units), else `initial`.
std::vector<int> UnitTargets(const InheritedHotness* source, uint32_t count,
                             int initial, int max_units) {
  std::vector<int> target(count, initial);
  if (source == nullptr || source->units.size() != count) return target;
  for (uint32_t s = 0; s < count; ++s) {
    if (source->units[s] >= 0)
      target[s] = std::min(source->units[s], max_units);
  }
  return target;
}

MultiQueue::Options QueueOptions(const MQScheduleOptions& options) {
  MultiQueue::Options q;
  q.units_per_segment = MaxUnits(options.elastic);
  // Class 0: the rate of the units this DB writes.
  q.unit_fpr = UnitFalsePositiveRate(
      options.elastic.unit_kind,
      std::clamp(options.elastic.bits_per_unit, 1, kMaxElasticBitsPerUnit));
  q.lifetime = options.elastic.lifetime;
  q.min_auto_lifetime = options.min_auto_lifetime;
  q.budget_bytes = options.elastic.memory_budget_bytes;
  q.aging_lifetimes = kAgingLifetimes;
  return q;
}

}  // namespace

namespace {

// The options with an automatic unit shape resolved, as the policy holds
// them, whoever built them.
MQScheduleOptions WithResolvedShape(MQScheduleOptions options) {
  options.elastic = ResolveElasticShape(options.elastic);
  return options;
}

}  // namespace

// ---------------------------------------------------------------------------

MQSchedule::MQSchedule(const MQScheduleOptions& options)
    : options_(WithResolvedShape(options)),
      stats_(options_.stats != nullptr ? options_.stats : &own_stats_),
      layer_(options_.ring_capacity, &wake_),
      loads_done_(&mu_),
      mq_(QueueOptions(options_)) {
  if (options_.background_thread) {
    thread_ = std::thread([this] { BackgroundLoop(); });
  }
}

MQSchedule::~MQSchedule() {
  wake_.Stop();
  if (thread_.joinable()) thread_.join();
  {
    MutexLock l(&mu_);
    while (loads_outstanding_ > 0) loads_done_.Wait();
    registry_.ForEachRegistered(
        [this](uint64_t number, const FileRecord& record)
            EXCLUSIVE_LOCKS_REQUIRED(mu_) {
              if (record.groups != nullptr) {
                DetachLocked(number, record.groups.get());
              }
            });
    registry_.Clear();
  }
  // layer_, destroyed last, frees what readers may still see.
}

void MQSchedule::AddStat(std::atomic<uint64_t> IoStats::*counter, uint64_t n) {
  IoStats::Add(&(stats_->*counter), n);
}

void MQSchedule::DetachRegisteredLocked(uint64_t file_number) {
  const FileRecord* record = registry_.FindRegistered(file_number);
  if (record != nullptr && record->groups != nullptr) {
    DetachLocked(file_number, record->groups.get());
  }
}

void MQSchedule::BackgroundLoop() {
  int empty_polls = 0;
  for (;;) {
    if (!wake_.Wait(empty_polls < kActivePolls ? kActivePollMicros
                                               : kIdlePollMicros)) {
      return;
    }
    MutexLock pass(&pass_mu_);
    if (paused_.load(std::memory_order_acquire)) continue;
    size_t total = 0;
    size_t batch;
    do {
      batch = ProcessRecords();
      total += batch;
    } while (batch == kMaxBatch);
    // Between batches of records: a few files no Get has opened yet.
    total += RegisterUnregisteredFiles(kRegistrationsPerPass);
    empty_polls = total > 0 ? 0 : std::min(empty_polls + 1, kActivePolls);
  }
}

size_t MQSchedule::RegisterUnregisteredFiles(size_t max) {
  if (!options_.register_live_files || options_.opener == nullptr) return 0;
  std::vector<std::pair<uint64_t, uint64_t>> files;
  {
    MutexLock l(&mu_);
    files = registry_.HandOut(max);
    registrations_in_flight_ += static_cast<int>(files.size());
  }
  if (files.empty()) return 0;
  for (const auto& [number, file_size] : files) {
    RegisterLiveFile(number, file_size);
  }
  MutexLock l(&mu_);
  registrations_in_flight_ -= static_cast<int>(files.size());
  loads_done_.SignalAll();
  return files.size();
}

void MQSchedule::RegisterLiveFile(uint64_t file_number, uint64_t file_size) {
  if (layer_.HasFilterGroups(file_number)) return;  // a Get opened it
  std::unique_ptr<RandomAccessFile> file;
  std::shared_ptr<TableFilterGroups> groups;
  Status s =
      options_.opener->OpenFilterGroups(file_number, file_size, &file, &groups);
  if (!s.ok()) {
    // Not fatal: the first Get that needs the table opens it again and
    // reports what is wrong.
    Log(options_.info_log, "ElasticBF: table %llu not registered at open: %s",
        static_cast<unsigned long long>(file_number), s.ToString().c_str());
    return;
  }
  s = AttachTable(file_number, std::move(groups), file.get(), nullptr,
                  options_.elastic.initial_units);
  if (!s.ok()) {
    Log(options_.info_log, "ElasticBF: table %llu has no filters: %s",
        static_cast<unsigned long long>(file_number), s.ToString().c_str());
  }
}

size_t MQSchedule::ProcessRecords() {
  std::vector<Load> loads;
  size_t processed = 0;
  {
    MutexLock l(&mu_);
    FilterLayer::Access access;
    while (processed < kMaxBatch && layer_.NextAccess(&access)) {
      ++processed;
      // Decisions use the time of the Get, not of the drain, so that
      // expiry stays exact however many Gets a batch spans.
      const uint64_t now = access.time;
      const SegmentId id = access.id;
      if (!mq_.RecordAccess(id, now, access.absent)) continue;
      const FileRecord* table =
          registry_.FindAttached(MultiQueue::FileNumberOf(id));
      if (table == nullptr) continue;
      const uint32_t seg = MultiQueue::SegmentIndexOf(id);
      if (seg >= table->unit_limit.size() ||
          mq_.UnitsLoaded(id) >= table->unit_limit[seg]) {
        continue;  // nothing more can be loaded for it
      }
      MultiQueue::Plan plan = mq_.PlanAccess(id, now);
      DropVictimsLocked(plan.victims);
      for (int i = 0; i < plan.units_to_load; ++i) {
        loads.push_back(Load{id, plan.first_unit + i});
      }
    }
    records_ += processed;
    PlanTopUpsLocked(&loads);
    loads_outstanding_ += static_cast<int>(loads.size());
  }
  ExecuteLoads(loads);
  return processed;
}

int MQSchedule::TargetUnitsLocked(SegmentId id) const {
  const int units = std::max(mq_.UnitsLoaded(id), 0);
  auto it = deficits_.find(id);
  return it == deficits_.end() ? units : std::max(units, it->second);
}

std::vector<MQSchedule::SegmentId> MQSchedule::TopUpOrderLocked() const {
  // Hottest first: free memory is best spent where probes miss most.
  std::vector<std::pair<SegmentId, MultiQueue::Hotness>> order;
  order.reserve(deficits_.size());
  for (const auto& [id, target] : deficits_) {
    MultiQueue::Hotness h;
    if (mq_.GetHotness(id, &h)) order.emplace_back(id, h);
  }
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    if (a.second.absent_probes != b.second.absent_probes) {
      return a.second.absent_probes > b.second.absent_probes;
    }
    if (a.second.accesses != b.second.accesses) {
      return a.second.accesses > b.second.accesses;
    }
    return a.first < b.first;
  });
  std::vector<SegmentId> ids;
  ids.reserve(order.size());
  for (const auto& entry : order) ids.push_back(entry.first);
  return ids;
}

void MQSchedule::PlanTopUpsLocked(std::vector<Load>* loads) {
  if (!topup_pending_) return;
  topup_pending_ = false;
  if (deficits_.empty()) return;

  const std::vector<SegmentId> order = TopUpOrderLocked();
  const uint64_t now = layer_.Now();
  bool retry = false;
  bool progress = true;
  while (progress) {
    progress = false;
    for (const SegmentId id : order) {
      auto deficit = deficits_.find(id);
      if (deficit == deficits_.end()) continue;
      const FileRecord* table =
          registry_.FindAttached(MultiQueue::FileNumberOf(id));
      const uint32_t seg = MultiQueue::SegmentIndexOf(id);
      const int units = mq_.UnitsLoaded(id);
      if (table == nullptr || units < 0 || seg >= table->unit_limit.size() ||
          units >= std::min(deficit->second, table->unit_limit[seg])) {
        deficits_.erase(deficit);  // reached, or cannot be reached
        continue;
      }
      if (table->busy > 0) {
        // Loads into this table are in flight (its opening ones, say): a
        // unit above them would not install yet. Try again next time.
        retry = true;
        continue;
      }
      const uint64_t unit_bytes =
          FilterUnitMemoryBytes(table->groups->index().segment(seg).unit_size);
      if (mq_.budget_bytes() < mq_.used_bytes() ||
          mq_.budget_bytes() - mq_.used_bytes() < unit_bytes) {
        continue;  // only free memory: a top-up never evicts
      }
      MultiQueue::Plan plan = mq_.PlanInitialUnits(id, 1, now);
      DropVictimsLocked(plan.victims);  // none: the memory was free
      if (plan.units_to_load == 1) {
        loads->push_back(Load{id, plan.first_unit});
        progress = true;
      }
    }
  }
  if (retry) topup_pending_ = true;
}

void MQSchedule::DropVictimsLocked(
    const std::vector<MultiQueue::Victim>& victims) {
  for (const MultiQueue::Victim& v : victims) {
    AddStat(&IoStats::unit_evictions, 1);
    const FileRecord* table =
        registry_.FindAttached(MultiQueue::FileNumberOf(v.id));
    if (table == nullptr) continue;
    // The segment still wants the unit: free memory brings it back.
    int& target = deficits_[v.id];
    target = std::max(target, v.unit + 1);
    installed_bytes_ -= table->groups->DropUnits(
        MultiQueue::SegmentIndexOf(v.id), v.unit, layer_.epoch());
  }
}

uint64_t MQSchedule::BudgetKeysLocked() const {
  if (!registry_.live_set_reported()) return attached_keys_;
  uint64_t keys = 0;
  registry_.ForEachRegistered([&keys](uint64_t, const FileRecord& record) {
    if (record.groups != nullptr && record.live) {
      keys += record.groups->index().total_keys();
    }
  });
  return keys;
}

MQSchedule::Budget MQSchedule::ComputeBudgetLocked(uint64_t extra_keys) const {
  Budget budget;
  budget.total = options_.elastic.memory_budget_bytes;
  if (budget.total == 0) {
    const double keys = static_cast<double>(BudgetKeysLocked() + extra_keys);
    const double bytes = options_.elastic.memory_bits_per_key * keys / 8;
    // Converting a double at or past 2^64 is undefined: such a budget
    // saturates (in effect unlimited).
    constexpr double kTwoTo64 = 18446744073709551616.0;
    if (bytes >= kTwoTo64) {
      budget.total = ~uint64_t{0};
    } else {
      budget.total = bytes > 0 ? static_cast<uint64_t>(bytes) : 0;
    }
  }
  // Locators come first: without one a table's units cannot be used.
  budget.units =
      budget.total > locator_bytes_ ? budget.total - locator_bytes_ : 0;
  return budget;
}

void MQSchedule::UpdateBudgetLocked() {
  const Budget budget = ComputeBudgetLocked(0);
  budget_bytes_ = budget.total;
  if (budget.units == mq_.budget_bytes()) return;
  if (budget.units > mq_.budget_bytes()) topup_pending_ = true;
  DropVictimsLocked(mq_.SetBudget(budget.units, layer_.Now()));
}

void MQSchedule::DetachLocked(uint64_t file_number, TableFilterGroups* groups) {
  const uint32_t count = groups->num_segments();
  for (uint32_t s = 0; s < count; ++s) {
    const SegmentId id = MultiQueue::MakeSegmentId(file_number, s);
    deficits_.erase(id);
    mq_.Detach(id);  // the MultiQueue keeps the hotness
  }
  installed_bytes_ -= groups->DropAll(layer_.epoch());
  attached_keys_ -= groups->index().total_keys();
  locator_bytes_ -= groups->locator().ApproximateMemoryUsage();
  topup_pending_ = true;  // memory was freed
}

void MQSchedule::SeedLocked(uint64_t file_number,
                            const InheritedHotness& hotness) {
  registry_.Seed(file_number, hotness);  // refused once it has a history
}

void MQSchedule::SeedFileHotness(uint64_t file_number,
                                 const InheritedHotness& hotness) {
  MutexLock l(&mu_);
  SeedLocked(file_number, hotness);
}

Status MQSchedule::AttachTable(uint64_t file_number,
                               std::shared_ptr<TableFilterGroups> groups,
                               RandomAccessFile* file,
                               const InheritedHotness* inherited,
                               int initial_units) {
  // Segment ids keep the file number in bits [20, 63); bit 63 tags absent
  // probes in the access ring.
  if (file_number >= (uint64_t{1} << (63 - MultiQueue::kSegmentIndexBits))) {
    return Status::InvalidArgument("file number too large for ElasticBF");
  }
  const uint32_t count = groups == nullptr ? 0 : groups->num_segments();
  if (groups != nullptr &&
      (count == 0 || count > MultiQueue::kMaxSegmentsPerFile)) {
    return Status::InvalidArgument("bad segment count for ElasticBF");
  }
  std::vector<std::vector<uint32_t>> rounds;
  {
    MutexLock l(&mu_);
    // A compacted-away table reopened for an old version serves its
    // readers without units ("maybe"): the budget is for live tables.
    if (!registry_.Register(file_number, groups)) return Status::OK();
    if (groups != nullptr) {
      rounds = RegisterSegmentsLocked(file_number, inherited, initial_units);
    }
    layer_.Publish(registry_, &unpublished_);
  }
  if (!rounds.empty()) LoadInitialUnits(file_number, groups, file, rounds);
  return Status::OK();
}

std::vector<std::vector<uint32_t>> MQSchedule::RegisterSegmentsLocked(
    uint64_t file_number, const InheritedHotness* inherited,
    int initial_units) {
  const FileRecord& record = *registry_.FindAttached(file_number);
  TableFilterGroups* groups = record.groups.get();
  const ElasticIndex& index = groups->index();
  const uint32_t count = index.num_segments();
  const int max_units =
      std::min(index.units_per_segment(), MaxUnits(options_.elastic));
  const int initial = std::clamp(initial_units, 0, max_units);

  // What the segments start from: the caller's inherited values, else a
  // seed (used up either way).
  const std::optional<InheritedHotness> seed = registry_.TakeSeed(file_number);
  const InheritedHotness* source = inherited;
  if (source == nullptr && seed) source = &*seed;
  const std::vector<int> target =
      UnitTargets(source, count, initial, max_units);
  JoinSegmentsLocked(file_number, index, source, record.level.value_or(0));
  registry_.SetSegments(file_number, count, max_units);
  attached_keys_ += index.total_keys();
  locator_bytes_ += groups->locator().ApproximateMemoryUsage();
  UpdateBudgetLocked();
  if (!LocatorFitsLocked(file_number, groups)) return {};

  std::vector<std::vector<uint32_t>> rounds =
      PlanInitialUnitsLocked(file_number, target, initial);
  if (!rounds.empty()) registry_.BeginLoad(file_number, groups);
  // The rest comes from the background thread as memory allows.
  for (uint32_t s = 0; s < count; ++s) {
    const SegmentId id = MultiQueue::MakeSegmentId(file_number, s);
    if (target[s] > mq_.UnitsLoaded(id)) {
      deficits_[id] = target[s];
      topup_pending_ = true;
    }
  }
  return rounds;
}

void MQSchedule::JoinSegmentsLocked(uint64_t file_number,
                                    const ElasticIndex& index,
                                    const InheritedHotness* source, int level) {
  const uint32_t count = index.num_segments();
  const bool use_hotness =
      source != nullptr && source->segments.size() == count;
  // A segment with no history counts as accessed when it opens: it has
  // not had a lifetime to prove itself cold, and would otherwise be
  // every hot segment's first victim (its f is 0) right after a flush.
  MultiQueue::Hotness fresh;
  fresh.last_access = layer_.Now();
  const int rate_class = mq_.RateClass(
      UnitFalsePositiveRate(index.unit_kind(), index.bits_per_unit()));
  for (uint32_t s = 0; s < count; ++s) {
    // Charge a unit's real allocation, its whole 64-bit words (equal to
    // its encoded size except for legacy Bloom units; Ribbon units are
    // whole words).
    mq_.Attach(MultiQueue::MakeSegmentId(file_number, s),
               FilterUnitMemoryBytes(index.segment(s).unit_size), level,
               use_hotness ? source->segments[s] : fresh, rate_class);
  }
}

bool MQSchedule::LocatorFitsLocked(uint64_t file_number,
                                   TableFilterGroups* groups) {
  // A table not live yet (a compaction output) will bring its keys' share.
  const bool pending =
      registry_.live_set_reported() && !registry_.Find(file_number)->live;
  const uint64_t keys = groups->index().total_keys();
  if (locator_bytes_ <= ComputeBudgetLocked(pending ? keys : 0).total) {
    return true;
  }
  // No room even for the locator: the table is read without filters.
  Log(options_.info_log,
      "ElasticBF: no room in the budget (%" PRIu64
      " bytes) for the segment locator of table %06" PRIu64
      "; it is read without filters",
      budget_bytes_, file_number);
  DetachLocked(file_number, groups);
  mq_.Forget(file_number);
  registry_.DropGroups(file_number);
  UpdateBudgetLocked();
  return false;
}

std::vector<std::vector<uint32_t>> MQSchedule::PlanInitialUnitsLocked(
    uint64_t file_number, const std::vector<int>& target, int initial) {
  // Up to initial_units each (fewer if the target is lower), unit by unit
  // across segments, so a tight budget gives unit 0 to as many segments as
  // possible before any gets unit 1.
  const uint32_t count = static_cast<uint32_t>(target.size());
  std::vector<int> now_units(count);
  int most = 0;
  for (uint32_t s = 0; s < count; ++s) {
    now_units[s] = std::min(target[s], initial);
    most = std::max(most, now_units[s]);
  }
  const uint64_t now = layer_.Now();
  std::vector<bool> eligible(count, true);
  std::vector<std::vector<uint32_t>> rounds;
  for (int u = 0; u < most; ++u) {
    std::vector<uint32_t> round;
    for (uint32_t s = 0; s < count; ++s) {
      if (!eligible[s] || now_units[s] <= u) continue;
      const SegmentId id = MultiQueue::MakeSegmentId(file_number, s);
      MultiQueue::Plan plan = mq_.PlanInitialUnits(id, 1, now);
      DropVictimsLocked(plan.victims);
      if (plan.units_to_load == 1 && plan.first_unit == u) {
        round.push_back(s);
      } else {
        eligible[s] = false;
        if (plan.units_to_load > 0) mq_.AbortLoad(id, plan.first_unit);
      }
    }
    if (round.empty()) break;
    loads_outstanding_ += static_cast<int>(round.size());
    rounds.push_back(std::move(round));
  }
  return rounds;
}

bool MQSchedule::SegmentBounds(uint64_t file_number,
                               std::vector<std::string>* bounds) const {
  bounds->clear();
  MutexLock l(&mu_);
  const FileRecord* table = registry_.FindAttached(file_number);
  if (table == nullptr || !table->groups->locator().usable()) return false;
  table->groups->locator().LastKeys(bounds);
  return true;
}

void MQSchedule::ForgetFile(uint64_t file_number) {
  MutexLock l(&mu_);
  DetachRegisteredLocked(file_number);
  std::shared_ptr<TableFilterGroups> groups;
  if (registry_.Forget(file_number, &groups)) {
    if (groups != nullptr) unpublished_.push_back(std::move(groups));
    layer_.Publish(registry_, &unpublished_);
  }
  mq_.Forget(file_number);  // nothing attached is left to release
  UpdateBudgetLocked();
}

bool MQSchedule::GetFileHotness(uint64_t file_number,
                                InheritedHotness* hotness) const {
  MutexLock l(&mu_);
  const FileRecord* record = registry_.Find(file_number);
  if (record == nullptr) return false;
  if (record->segments == 0) {
    if (!record->seed) return false;
    *hotness = *record->seed;
    return true;
  }
  const uint32_t count = record->segments;
  const bool attached = record->registered();
  hotness->segments.assign(count, MultiQueue::Hotness());
  hotness->units.assign(count, -1);
  for (uint32_t s = 0; s < count; ++s) {
    const SegmentId id = MultiQueue::MakeSegmentId(file_number, s);
    mq_.GetHotness(id, &hotness->segments[s]);
    if (attached) hotness->units[s] = TargetUnitsLocked(id);
  }
  return true;
}

void MQSchedule::SetFileLevelLocked(uint64_t file_number, int level) {
  if (!registry_.SetLevel(file_number, level)) return;  // segments carry it
  const uint32_t count = registry_.Find(file_number)->segments;
  for (uint32_t s = 0; s < count; ++s) {
    mq_.SetLsmLevel(MultiQueue::MakeSegmentId(file_number, s), level);
  }
}

void MQSchedule::ReportFiles(const std::vector<FileReport>& files) {
  std::unordered_set<uint64_t> live;
  live.reserve(files.size());
  for (const FileReport& f : files) live.insert(f.number);
  MutexLock l(&mu_);
  for (const FileReport& f : files) {
    SetFileLevelLocked(f.number, f.level);
    if (f.hotness != nullptr) SeedLocked(f.number, *f.hotness);
    if (f.file_size != 0) registry_.SetFileSize(f.number, f.file_size);
  }
  // Only files seen live before can retire: a table a compaction is still
  // writing is attached before its version reports it.
  bool unregistered = false;
  for (uint64_t number : registry_.ReplaceLiveSet(live)) {
    unregistered |= RetireLocked(number);
  }
  if (unregistered)
    layer_.Publish(registry_, &unpublished_);  // once for all of them
  UpdateBudgetLocked();
}

bool MQSchedule::RetireLocked(uint64_t file_number) {
  DetachRegisteredLocked(file_number);
  std::shared_ptr<TableFilterGroups> groups;
  if (!registry_.Retire(file_number, &groups)) return false;
  if (groups != nullptr) unpublished_.push_back(std::move(groups));
  return true;
}

void MQSchedule::GetMemory(uint64_t* installed_bytes,
                           uint64_t* budget_bytes) const {
  MutexLock l(&mu_);
  *installed_bytes = installed_bytes_ + locator_bytes_;
  *budget_bytes = budget_bytes_;
}

void MQSchedule::WaitIdle() {
  // Every pass also runs pending top-ups (their loads finish within it).
  // Top-ups wait for tables with loads in flight, hence the outer loop.
  for (;;) {
    while (ProcessRecords() > 0 ||
           RegisterUnregisteredFiles(kRegistrationsPerPass) > 0) {
    }
    MutexLock l(&mu_);
    // Registrations another thread took are waited for too.
    while (loads_outstanding_ > 0 || registrations_in_flight_ > 0) {
      loads_done_.Wait();
    }
    if (!topup_pending_) return;
    // A table's opening loads are ending (busy, nothing outstanding).
    if (registry_.AnyBusy()) loads_done_.Wait();
  }
}

}  // namespace leveldb
