#include "elastic/unit_manager.h"

#include <algorithm>
#include <cinttypes>
#include <utility>

#include "elastic/hotness_inheritance.h"
#include "leveldb/env.h"
#include "table/elastic/elastic_filter_policy.h"
#include "table/elastic/filter_group.h"
#include "table/elastic/filter_unit.h"
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
// Files each database registers in the background between two batches of
// records.
constexpr size_t kRegistrationsPerPass = 4;

// Segment counts are halved every 16 lifetimes of Gets: without aging an
// old segment's lifetime total outweighs a young one's recent probes and
// the adjustment rule keeps units in the wrong place; much shorter periods
// make f noisy (docs/evaluation.md).
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

MultiQueue::Options QueueOptions(const UnitManagerOptions& options) {
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

// The options with an automatic unit shape resolved, as the policy holds
// them, whoever built them.
UnitManagerOptions WithResolvedShape(UnitManagerOptions options) {
  options.elastic = ResolveElasticShape(options.elastic);
  // The members' tables keep the shapes they were written with.
  if (options.shared) options.elastic.units_per_segment = kMaxElasticUnits;
  return options;
}

}  // namespace

UnitManager::UnitManager(const UnitManagerOptions& options)
    : options_(WithResolvedShape(options)),
      stats_(options_.stats != nullptr ? options_.stats : &own_stats_),
      loads_done_(&mu_),
      mq_(QueueOptions(options_)) {
  if (options_.background_thread) {
    thread_ = std::thread([this] { BackgroundLoop(); });
  }
}

UnitManager::~UnitManager() {
  wake_.Stop();
  if (thread_.joinable()) thread_.join();
}

uint64_t UnitManager::QueueFileLocked(DbHandle db, uint64_t file_number) const {
  if (!options_.shared) return file_number;  // the one database's numbers
  auto it = queue_files_.find({db, file_number});
  return it == queue_files_.end() ? 0 : it->second;  // no segment has 0
}

uint64_t UnitManager::AssignQueueFileLocked(DbHandle db, uint64_t file_number) {
  const uint64_t known = QueueFileLocked(db, file_number);
  if (known != 0 || !options_.shared) return known;
  // Never reused: a load still naming a forgotten file finds nothing.
  const uint64_t number = next_queue_file_++;
  queue_files_.emplace(std::make_pair(db, file_number), number);
  return number;
}

UnitManager::SegmentId UnitManager::QueueIdLocked(DbHandle db,
                                                  uint64_t file_number,
                                                  uint32_t seg) const {
  return MakeSegmentId(QueueFileLocked(db, file_number), seg);
}

void UnitManager::ForgetFileLocked(DbHandle db, uint64_t file_number) {
  const uint64_t queue_file = QueueFileLocked(db, file_number);
  if (queue_file != 0) mq_.Forget(queue_file);
  if (options_.shared) queue_files_.erase({db, file_number});
}

Logger* UnitManager::LogOfLocked(DbHandle db) const {
  if (options_.info_log != nullptr) return options_.info_log;
  auto it = members_.find(db);
  return it == members_.end() ? nullptr : it->second.client->info_log();
}

Status UnitManager::Join(UnitClient* client, DbHandle* db) {
  MutexLock l(&mu_);
  if (!options_.shared && !members_.empty()) {
    return Status::NotSupported("a unit manager serves one database");
  }
  *db = next_db_++;
  Member& member = members_[*db];
  member.client = client;
  member.memo_request = client->memo_request();
  MemoSizer::Options sizing;  // bounds set from the budget later
  sizing.max_bytes = member.memo_request;
  sizing.window_gets = options_.memo_window_gets;
  member.sizer = std::make_unique<MemoSizer>(sizing);
  member.memo_target = member.sizer->InitialBytes();
  UpdateBudgetLocked();  // sizes the new member's memo
  return Status::OK();
}

void UnitManager::Leave(DbHandle db) {
  MutexLock pass(&pass_mu_);  // no pass is serving the database
  MutexLock l(&mu_);
  while (loads_outstanding_ > 0) loads_done_.Wait();
  std::vector<uint64_t> files;
  for (const auto& [key, table] : tables_) {
    if (table.db == db) files.push_back(table.file_number);
  }
  for (uint64_t number : files) DetachLocked(db, number);
  if (options_.shared) {
    // The other members go on: nothing of this database may stay.
    std::vector<uint64_t> known;
    for (const auto& [key, number] : queue_files_) {
      if (key.first == db) known.push_back(key.second);
    }
    for (uint64_t number : known) ForgetFileLocked(db, number);
  }
  // The memo goes with the database; its memory is the others' now.
  members_.at(db).client->layer()->memo()->Resize(0);
  members_.erase(db);
  UpdateBudgetLocked();
  if (!files.empty()) OthersFreedMemoryLocked(db);
}

void UnitManager::OthersFreedMemoryLocked(DbHandle db) {
  if (!options_.shared) return;
  for (auto& [other, member] : members_) {
    if (other != db) member.retry_refused = true;
  }
}

void UnitManager::RetryRefusedIfAsked(DbHandle db, UnitClient* client) {
  {
    MutexLock l(&mu_);
    auto it = members_.find(db);
    if (it == members_.end() || !it->second.retry_refused) return;
    it->second.retry_refused = false;
  }
  client->RetryRefused();
}

void UnitManager::AddStat(std::atomic<uint64_t> IoStats::*counter, uint64_t n) {
  IoStats::Add(&(stats_->*counter), n);
}

UnitManager::Table* UnitManager::FindTableLocked(SegmentId id) {
  auto it = tables_.find(FileNumberOf(id));
  return it == tables_.end() ? nullptr : &it->second;
}

UnitManager::Table* UnitManager::FindHoldingLocked(
    SegmentId id, const TableFilterGroups* groups) {
  Table* table = FindTableLocked(id);
  return table != nullptr && table->groups.get() == groups ? table : nullptr;
}

std::vector<std::pair<UnitManager::DbHandle, UnitClient*>>
UnitManager::Clients() const {
  MutexLock l(&mu_);
  std::vector<std::pair<DbHandle, UnitClient*>> clients;
  for (const auto& [db, member] : members_) {
    clients.emplace_back(db, member.client);
  }
  return clients;
}

void UnitManager::BackgroundLoop() {
  int empty_polls = 0;
  for (;;) {
    if (!wake_.Wait(empty_polls < kActivePolls ? kActivePollMicros
                                               : kIdlePollMicros)) {
      return;
    }
    MutexLock pass(&pass_mu_);
    if (paused_.load(std::memory_order_acquire)) continue;
    size_t total = 0;
    for (const auto& [db, client] : Clients()) {
      size_t batch;
      do {
        batch = ProcessRecords(db);
        total += batch;
      } while (batch == kMaxBatch);
      RetryRefusedIfAsked(db, client);
      // Between batches of records: a few files no Get has opened yet.
      total += client->RegisterPending(kRegistrationsPerPass);
    }
    empty_polls = total > 0 ? 0 : std::min(empty_polls + 1, kActivePolls);
  }
}

void UnitManager::WaitIdle() {
  // Every pass also runs pending top-ups (their loads finish within it).
  // Top-ups wait for tables with loads in flight, hence the outer loop.
  for (;;) {
    for (const auto& [db, client] : Clients()) {
      RetryRefusedIfAsked(db, client);
      while (ProcessRecords(db) > 0 ||
             client->RegisterPending(kRegistrationsPerPass) > 0) {
      }
    }
    MutexLock l(&mu_);
    // Registrations another thread took are waited for too.
    while (loads_outstanding_ > 0 || registrations_in_flight_ > 0) {
      loads_done_.Wait();
    }
    if (!topup_pending_) return;
    // A table's opening loads are ending (busy, nothing outstanding).
    if (busy_tables_ > 0) loads_done_.Wait();
  }
}

void UnitManager::CountRegistrations(int delta) {
  MutexLock l(&mu_);
  registrations_in_flight_ += delta;
  if (delta < 0) loads_done_.SignalAll();
}

size_t UnitManager::ProcessRecords(DbHandle db) {
  std::vector<Load> loads;
  size_t processed = 0;
  {
    MutexLock l(&mu_);
    auto member = members_.find(db);
    if (member == members_.end()) return 0;
    FilterLayer* layer = member->second.client->layer();
    FilterLayer::Access access;
    while (processed < kMaxBatch && layer->NextAccess(&access)) {
      ++processed;
      // Decisions use the time of the Get, not of the drain, so that
      // expiry stays exact however many Gets a batch spans.
      const uint64_t now = access.time;
      const SegmentId id =
          QueueIdLocked(db, FileNumberOf(access.id), SegmentIndexOf(access.id));
      if (!mq_.RecordAccess(id, now, access.absent)) continue;
      const Table* table = FindTableLocked(id);
      if (table == nullptr) continue;
      const uint32_t seg = SegmentIndexOf(id);
      if (seg >= table->unit_cap.size() ||
          mq_.UnitsLoaded(id) >= table->unit_cap[seg]) {
        continue;  // nothing more can be loaded for it
      }
      MultiQueue::Plan plan = mq_.PlanAccess(id, now);
      DropVictimsLocked(plan.victims);
      for (int i = 0; i < plan.units_to_load; ++i) {
        loads.push_back(Load{id, plan.first_unit + i});
      }
    }
    records_ += processed;
    WeighMemoLocked(&member->second);
    PlanTopUpsLocked(&loads);
    loads_outstanding_ += static_cast<int>(loads.size());
  }
  ExecuteLoads(loads);
  return processed;
}

int UnitManager::TargetUnitsLocked(SegmentId id) const {
  const int units = std::max(mq_.UnitsLoaded(id), 0);
  auto it = targets_.find(id);
  return it == targets_.end() ? units : std::max(units, it->second);
}

std::vector<UnitManager::SegmentId> UnitManager::TopUpOrderLocked() const {
  // Hottest first: free memory is best spent where probes miss most.
  std::vector<std::pair<SegmentId, MultiQueue::Hotness>> order;
  order.reserve(targets_.size());
  for (const auto& [id, target] : targets_) {
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

void UnitManager::PlanTopUpsLocked(std::vector<Load>* loads) {
  if (!topup_pending_) return;
  topup_pending_ = false;
  if (targets_.empty()) return;

  const std::vector<SegmentId> order = TopUpOrderLocked();
  bool retry = false;
  bool progress = true;
  while (progress) {
    progress = false;
    for (const SegmentId id : order) {
      auto target = targets_.find(id);
      if (target == targets_.end()) continue;
      const Table* table = FindTableLocked(id);
      const uint32_t seg = SegmentIndexOf(id);
      const int units = mq_.UnitsLoaded(id);
      if (table == nullptr || units < 0 || seg >= table->unit_cap.size() ||
          units >= std::min(target->second, table->unit_cap[seg])) {
        targets_.erase(target);  // reached, or cannot be reached
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
      const uint64_t now = members_.at(table->db).client->layer()->Now();
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

void UnitManager::DropVictimsLocked(
    const std::vector<MultiQueue::Victim>& victims) {
  for (const MultiQueue::Victim& v : victims) {
    AddStat(&IoStats::unit_evictions, 1);
    const Table* table = FindTableLocked(v.id);
    if (table == nullptr) continue;
    // The segment still wants the unit: free memory brings it back.
    int& target = targets_[v.id];
    target = std::max(target, v.unit + 1);
    EpochDomain* epoch = members_.at(table->db).client->layer()->epoch();
    installed_bytes_ -=
        table->groups->DropUnits(SegmentIndexOf(v.id), v.unit, epoch);
  }
}

void UnitManager::DetachLocked(DbHandle db, uint64_t file_number) {
  auto it = tables_.find(QueueFileLocked(db, file_number));
  if (it == tables_.end()) return;
  Table& table = it->second;
  TableFilterGroups* groups = table.groups.get();
  const uint32_t count = groups->num_segments();
  for (uint32_t s = 0; s < count; ++s) {
    const SegmentId id = QueueIdLocked(db, file_number, s);
    targets_.erase(id);
    mq_.Detach(id);  // the MultiQueue keeps the hotness
  }
  installed_bytes_ -= groups->DropAll(members_.at(db).client->layer()->epoch());
  attached_keys_ -= groups->index().total_keys();
  locator_bytes_ -= groups->locator().ApproximateMemoryUsage();
  // Loads still holding the instance end without finding it.
  busy_tables_ -= table.busy;
  tables_.erase(it);
  topup_pending_ = true;  // memory was freed
}

void UnitManager::Apply(DbHandle db, const FileChanges& changes) {
  MutexLock l(&mu_);
  for (const FileChanges::Retag& r : changes.retags) {
    for (uint32_t s = 0; s < r.segments; ++s) {
      mq_.SetLsmLevel(QueueIdLocked(db, r.file_number, s), r.level);
    }
  }
  for (uint64_t number : changes.detached) DetachLocked(db, number);
  for (uint64_t number : changes.forgotten) {
    DetachLocked(db, number);
    ForgetFileLocked(db, number);  // nothing attached is left
  }
  if (!changes.detached.empty() || !changes.forgotten.empty()) {
    OthersFreedMemoryLocked(db);
  }
  members_.at(db).budget_keys = changes.budget_keys;
  UpdateBudgetLocked();
}

bool UnitManager::AttachTable(DbHandle db, const NewTable& t,
                              InitialLoads* loads) {
  loads->clear();
  MutexLock l(&mu_);
  TableFilterGroups* groups = t.groups.get();
  const ElasticIndex& index = groups->index();
  const uint32_t count = index.num_segments();
  const int max_units =
      std::min(index.units_per_segment(), MaxUnits(options_.elastic));
  const int initial = std::clamp(t.initial_units, 0, max_units);
  const std::vector<int> target =
      UnitTargets(t.source, count, initial, max_units);
  JoinSegmentsLocked(db, t.file_number, index, t.source, t.level);
  Table& table = tables_[QueueFileLocked(db, t.file_number)];
  table.db = db;
  table.file_number = t.file_number;
  table.groups = t.groups;
  table.unit_cap.assign(count, max_units);
  attached_keys_ += index.total_keys();
  locator_bytes_ += groups->locator().ApproximateMemoryUsage();
  members_.at(db).budget_keys = t.budget_keys;
  UpdateBudgetLocked();

  // A table not counted yet (a compaction output) brings its keys' share.
  const uint64_t keys = index.total_keys();
  if (locator_bytes_ > ComputeBudgetLocked(t.counted ? 0 : keys).total) {
    // No room even for the locator: the table is read without filters
    // until room appears.
    if (!t.retry) {
      Log(LogOfLocked(db),
          "ElasticBF: no room in the budget (%" PRIu64
          " bytes) for the segment locator of table %06" PRIu64
          "; it is read without filters until room appears",
          budget_bytes_, t.file_number);
    }
    DetachLocked(db, t.file_number);
    ForgetFileLocked(db, t.file_number);
    if (t.counted) members_.at(db).budget_keys -= keys;
    UpdateBudgetLocked();
    return false;
  }

  *loads = PlanInitialUnitsLocked(db, t.file_number, target, initial);
  if (!loads->empty()) {
    SetBusyLocked(QueueIdLocked(db, t.file_number, 0), groups, 1);
  }
  // The rest comes from the background thread as memory allows.
  for (uint32_t s = 0; s < count; ++s) {
    const SegmentId id = QueueIdLocked(db, t.file_number, s);
    if (target[s] > mq_.UnitsLoaded(id)) {
      targets_[id] = target[s];
      topup_pending_ = true;
    }
  }
  return true;
}

void UnitManager::JoinSegmentsLocked(DbHandle db, uint64_t file_number,
                                     const ElasticIndex& index,
                                     const InheritedHotness* source,
                                     int level) {
  const uint32_t count = index.num_segments();
  const bool use_hotness =
      source != nullptr && source->segments.size() == count;
  // A segment with no history counts as accessed when it opens: it has
  // not had a lifetime to prove itself cold, and would otherwise be
  // every hot segment's first victim (its f is 0) right after a flush.
  MultiQueue::Hotness fresh;
  fresh.last_access = members_.at(db).client->layer()->Now();
  const int rate_class = mq_.RateClass(
      UnitFalsePositiveRate(index.unit_kind(), index.bits_per_unit()));
  const uint64_t queue_file = AssignQueueFileLocked(db, file_number);
  for (uint32_t s = 0; s < count; ++s) {
    // Charge a unit's real allocation, its whole 64-bit words (equal to
    // its encoded size except for legacy Bloom units; Ribbon units are
    // whole words).
    mq_.Attach(MakeSegmentId(queue_file, s),
               FilterUnitMemoryBytes(index.segment(s).unit_size), level,
               use_hotness ? source->segments[s] : fresh, rate_class);
  }
}

UnitManager::InitialLoads UnitManager::PlanInitialUnitsLocked(
    DbHandle db, uint64_t file_number, const std::vector<int>& target,
    int initial) {
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
  const uint64_t now = members_.at(db).client->layer()->Now();
  std::vector<bool> eligible(count, true);
  InitialLoads rounds;
  for (int u = 0; u < most; ++u) {
    std::vector<uint32_t> round;
    for (uint32_t s = 0; s < count; ++s) {
      if (!eligible[s] || now_units[s] <= u) continue;
      const SegmentId id = QueueIdLocked(db, file_number, s);
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

void UnitManager::GetHotness(DbHandle db, uint64_t file_number,
                             uint32_t segments, bool attached,
                             InheritedHotness* hotness) const {
  MutexLock l(&mu_);
  hotness->segments.assign(segments, MultiQueue::Hotness());
  hotness->units.assign(segments, -1);
  for (uint32_t s = 0; s < segments; ++s) {
    const SegmentId id = QueueIdLocked(db, file_number, s);
    mq_.GetHotness(id, &hotness->segments[s]);
    if (attached) hotness->units[s] = TargetUnitsLocked(id);
  }
}

void UnitManager::GetMemory(uint64_t* installed_bytes,
                            uint64_t* budget_bytes) const {
  MutexLock l(&mu_);
  *installed_bytes = installed_bytes_ + locator_bytes_ + MemoBytesLocked();
  *budget_bytes = budget_bytes_;
}

}  // namespace leveldb
