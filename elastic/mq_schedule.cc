#include "elastic/mq_schedule.h"

#include <cassert>
#include <unordered_set>
#include <utility>

#include "elastic/shared_budget.h"
#include "leveldb/env.h"
#include "table/elastic/filter_group.h"
#include "util/mutexlock.h"

namespace leveldb {

namespace {

// The manager of the DB: its shared budget's, or one it builds for itself.
std::shared_ptr<UnitManager> ManagerFor(const MQScheduleOptions& options) {
  const UnitManagerOptions& own = options;
  if (options.elastic.shared_budget != nullptr) {
    return AsSharedBudget(options.elastic.shared_budget)->Manager(own);
  }
  return std::make_shared<UnitManager>(own);
}

}  // namespace

MQSchedule::MQSchedule(const MQScheduleOptions& options)
    : options_(options),
      manager_(ManagerFor(options)),
      layer_(options_.ring_capacity, manager_->wake(),
             manager_->shared_clock()) {
  // A new manager, or a shared one, always takes the database.
  const Status s = manager_->Join(this, &db_);
  assert(s.ok());
  (void)s;
}

MQSchedule::~MQSchedule() {
  manager_->Leave(db_);
  // layer_, destroyed after the registry, frees what readers may still see.
}

Status MQSchedule::OpenFile(uint64_t file_number,
                            std::unique_ptr<RandomAccessFile>* file) {
  if (options_.opener == nullptr) {
    return Status::NotSupported("no way to open table files");
  }
  return options_.opener->OpenFile(file_number, file);
}

size_t MQSchedule::RegisterPending(size_t max) {
  if (!options_.register_live_files || options_.opener == nullptr) return 0;
  std::vector<std::pair<uint64_t, uint64_t>> files;
  {
    MutexLock l(&mu_);
    files = registry_.HandOut(max);
    // Counted before the lock is let go, so that no one waiting for quiet
    // misses them.
    if (!files.empty()) {
      manager_->CountRegistrations(static_cast<int>(files.size()));
    }
  }
  if (files.empty()) return 0;
  for (const auto& [number, file_size] : files) {
    RegisterLiveFile(number, file_size);
  }
  manager_->CountRegistrations(-static_cast<int>(files.size()));
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

uint64_t MQSchedule::BudgetKeysLocked() const {
  const bool live_only = registry_.live_set_reported();
  uint64_t keys = 0;
  registry_.ForEachRegistered(
      [&keys, live_only](uint64_t, const FileRecord& record) {
        if (record.groups != nullptr && (record.live || !live_only)) {
          keys += record.groups->index().total_keys();
        }
      });
  return keys;
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
  UnitManager::InitialLoads loads;
  {
    MutexLock l(&mu_);
    // A compacted-away table reopened for an old version serves its
    // readers without units ("maybe"): the budget is for live tables.
    if (!registry_.Register(file_number, groups)) return Status::OK();
    if (groups != nullptr) {
      AttachGroupsLocked(file_number, groups, inherited, initial_units, &loads);
    }
    layer_.Publish(registry_, &unpublished_);
  }
  if (!loads.empty()) {
    manager_->LoadInitialUnits(db_, file_number, groups, file, loads);
  }
  return Status::OK();
}

void MQSchedule::AttachGroupsLocked(
    uint64_t file_number, const std::shared_ptr<TableFilterGroups>& groups,
    const InheritedHotness* inherited, int initial_units,
    UnitManager::InitialLoads* loads, bool retry) {
  // What the segments start from: the caller's inherited values, else a
  // seed (used up either way).
  const std::optional<InheritedHotness> seed = registry_.TakeSeed(file_number);
  UnitManager::NewTable table;
  table.file_number = file_number;
  table.groups = groups;
  table.source = inherited;
  if (table.source == nullptr && seed) table.source = &*seed;
  const FileRecord& record = *registry_.Find(file_number);
  table.level = record.level.value_or(0);
  table.initial_units = initial_units;
  registry_.SetSegments(file_number, groups->num_segments());
  table.budget_keys = BudgetKeysLocked();
  // A table not live yet (a compaction output) is not counted.
  table.counted = !registry_.live_set_reported() || record.live;
  table.retry = retry;
  if (!manager_->AttachTable(db_, table, loads)) {
    registry_.DropGroups(file_number);  // read without filters for now
  }
}

bool MQSchedule::RetryWaitingLocked() {
  bool attached = false;
  for (uint64_t number : registry_.Waiting()) {
    const std::shared_ptr<TableFilterGroups> groups = registry_.Readmit(number);
    // No initial units (the file is not open here): units come as its
    // segments are probed.
    UnitManager::InitialLoads loads;
    AttachGroupsLocked(number, groups, nullptr, /*initial_units=*/0, &loads,
                       /*retry=*/true);
    if (registry_.Find(number)->attached()) attached = true;
  }
  return attached;
}

void MQSchedule::RetryRefused() {
  MutexLock l(&mu_);
  if (RetryWaitingLocked()) layer_.Publish(registry_, &unpublished_);
}

bool MQSchedule::SegmentBounds(uint64_t file_number,
                               std::vector<std::string>* bounds) const {
  bounds->clear();
  MutexLock l(&mu_);
  const FileRecord* table = registry_.Find(file_number);
  if (table == nullptr || !table->attached() ||
      !table->groups->locator().usable()) {
    return false;
  }
  table->groups->locator().LastKeys(bounds);
  return true;
}

void MQSchedule::ForgetFile(uint64_t file_number) {
  MutexLock l(&mu_);
  std::shared_ptr<TableFilterGroups> groups;
  const bool unregistered = registry_.Forget(file_number, &groups);
  UnitManager::FileChanges changes;
  changes.forgotten.push_back(file_number);
  changes.budget_keys = BudgetKeysLocked();
  manager_->Apply(db_, changes);
  const bool readmitted = groups != nullptr && RetryWaitingLocked();
  if (unregistered || readmitted) {
    if (groups != nullptr) unpublished_.push_back(std::move(groups));
    layer_.Publish(registry_, &unpublished_);
  }
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
  manager_->GetHotness(db_, file_number, record->segments, record->registered(),
                       hotness);
  return true;
}

void MQSchedule::SeedFileHotness(uint64_t file_number,
                                 const InheritedHotness& hotness) {
  MutexLock l(&mu_);
  registry_.Seed(file_number, hotness);  // refused once it has a history
}

void MQSchedule::ReportFiles(const std::vector<FileReport>& files) {
  std::unordered_set<uint64_t> live;
  live.reserve(files.size());
  for (const FileReport& f : files) live.insert(f.number);
  MutexLock l(&mu_);
  UnitManager::FileChanges changes;
  for (const FileReport& f : files) {
    if (registry_.SetLevel(f.number, f.level)) {
      // Its known segments carry the level too.
      const uint32_t segments = registry_.Find(f.number)->segments;
      if (segments > 0) {
        changes.retags.push_back({f.number, segments, f.level});
      }
    }
    if (f.hotness != nullptr) registry_.Seed(f.number, *f.hotness);
    if (f.file_size != 0) registry_.SetFileSize(f.number, f.file_size);
  }
  // Only files seen live before can retire: a table a compaction is still
  // writing is attached before its version reports it.
  bool unregistered = false;
  for (uint64_t number : registry_.ReplaceLiveSet(live)) {
    std::shared_ptr<TableFilterGroups> groups;
    if (!registry_.Retire(number, &groups)) continue;
    unregistered = true;
    if (groups != nullptr) {
      unpublished_.push_back(std::move(groups));
      changes.detached.push_back(number);
    }
  }
  changes.budget_keys = BudgetKeysLocked();
  manager_->Apply(db_, changes);
  // Detached tables freed room: tables refused for lack of it try again.
  const bool readmitted = !changes.detached.empty() && RetryWaitingLocked();
  if (unregistered || readmitted) layer_.Publish(registry_, &unpublished_);
}

void MQSchedule::GetMemory(uint64_t* installed_bytes,
                           uint64_t* budget_bytes) const {
  manager_->GetMemory(installed_bytes, budget_bytes);
}

}  // namespace leveldb
