// UnitManager's unit I/O: reading reserved units from table files and
// installing them, or giving their reservations back.
#include <algorithm>
#include <cinttypes>
#include <memory>
#include <vector>

#include "elastic/unit_manager.h"
#include "leveldb/env.h"
#include "table/elastic/filter_group.h"
#include "util/io_stats.h"
#include "util/mutexlock.h"

namespace leveldb {

UnitManager::LoadCheck UnitManager::CheckLoadLocked(
    const TableFilterGroups* groups, SegmentId id, int unit) {
  const Table* table = FindHoldingLocked(id, groups);
  if (table == nullptr) return kSkipLoad;
  const uint32_t seg = SegmentIndexOf(id);
  const int reserved = mq_.UnitsLoaded(id);
  const int installed = groups->LoadedCount(seg);
  if (unit >= reserved || installed > unit) {
    // The reservation was taken back (eviction), or another load already
    // installed this unit under it.
    return kSkipLoad;
  }
  if (installed < unit || unit >= table->unit_cap[seg]) {
    // A lower unit is missing (its load failed or runs elsewhere), or the
    // table cannot provide this unit: give the reservation back.
    mq_.AbortLoad(id, unit);
    return kSkipLoad;
  }
  return kDoLoad;
}

void UnitManager::ExecuteLoads(const std::vector<Load>& loads) {
  // Consecutive loads of one file share one open handle. The loads may be
  // of several databases (top-ups of a shared manager).
  uint64_t open_file = 0;  // queue file number
  std::unique_ptr<RandomAccessFile> file;
  Status open_status;
  for (const Load& load : loads) {
    std::shared_ptr<TableFilterGroups> groups;
    DbHandle db;
    uint64_t number;
    {
      MutexLock l(&mu_);
      const Table* table = FindTableLocked(load.id);
      if (table == nullptr) {
        EndLoadLocked(load.id, nullptr);
        continue;
      }
      groups = table->groups;
      db = table->db;
      number = table->file_number;
    }
    if (file == nullptr || open_file != FileNumberOf(load.id)) {
      open_file = FileNumberOf(load.id);
      open_status = OpenForLoads(db, number, &file);
    }
    LoadUnit(groups, file.get(), open_status, load, /*count_busy=*/true);
  }
}

Status UnitManager::OpenForLoads(DbHandle db, uint64_t file_number,
                                 std::unique_ptr<RandomAccessFile>* file) {
  file->reset();
  UnitClient* client;
  {
    MutexLock l(&mu_);
    auto member = members_.find(db);
    if (member == members_.end()) return Status::NotFound("database left");
    client = member->second.client;
  }
  Status s = client->OpenFile(file_number, file);
  if (s.ok() && *file == nullptr)
    s = Status::IOError("table file did not open");
  return s;
}

void UnitManager::LoadUnit(const std::shared_ptr<TableFilterGroups>& groups,
                           RandomAccessFile* file, const Status& open_status,
                           const Load& load, bool count_busy) {
  {
    MutexLock l(&mu_);
    if (CheckLoadLocked(groups.get(), load.id, load.unit) != kDoLoad) {
      EndLoadLocked(load.id, nullptr);
      return;
    }
    if (count_busy) SetBusyLocked(load.id, groups.get(), 1);
  }
  UnitBuffer buffer;
  const Status s =
      open_status.ok()
          ? groups->ReadUnit(file, SegmentIndexOf(load.id), load.unit, &buffer)
          : open_status;
  MutexLock l(&mu_);
  FinishLoadLocked(groups.get(), load.id, load.unit, s, &buffer);
  EndLoadLocked(load.id, count_busy ? groups.get() : nullptr);
}

void UnitManager::SetBusyLocked(SegmentId id, const TableFilterGroups* groups,
                                int delta) {
  Table* table = FindHoldingLocked(id, groups);
  if (groups == nullptr || table == nullptr) return;
  if (delta < 0 && table->busy == 0) return;
  table->busy += delta;
  busy_tables_ += delta;
}

void UnitManager::EndLoadLocked(SegmentId id, const TableFilterGroups* groups) {
  if (groups != nullptr) SetBusyLocked(id, groups, -1);
  --loads_outstanding_;
  loads_done_.SignalAll();
}

void UnitManager::FinishLoadLocked(const TableFilterGroups* read_into,
                                   SegmentId id, int unit,
                                   const Status& read_status,
                                   UnitBuffer* buffer, bool log_failure) {
  Table* table = FindHoldingLocked(id, read_into);
  // Detached while reading: the MultiQueue no longer holds this
  // reservation for `read_into`.
  if (table == nullptr) return;
  TableFilterGroups* groups = table->groups.get();
  EpochDomain* epoch = members_.at(table->db).client->layer()->epoch();
  const uint32_t seg = SegmentIndexOf(id);
  const int reserved = mq_.UnitsLoaded(id);
  const int installed = groups->LoadedCount(seg);

  if (read_status.ok()) {
    const uint64_t bytes = buffer->size;
    if (installed == unit && unit < reserved &&
        groups->InstallUnit(seg, unit, buffer, epoch)) {
      installed_bytes_ += bytes;
      AddStat(&IoStats::unit_loads, 1);
      AddStat(&IoStats::unit_load_bytes, bytes);
    } else if (installed < unit && unit < reserved) {
      mq_.AbortLoad(id, unit);
    }
    return;
  }

  AddStat(&IoStats::unit_load_failures, 1);
  if (log_failure) {
    Log(LogOfLocked(table->db),
        "ElasticBF: cannot load filter unit %d of segment %u of table "
        "%06" PRIu64 " (the segment keeps %d units): %s",
        unit, seg, table->file_number, std::max(installed, 0),
        read_status.ToString().c_str());
  }
  if (installed > unit) return;  // another read of this unit succeeded
  // Do not retry a unit that failed, nor any unit above it, while this
  // file stays registered.
  table->unit_cap[seg] = std::min(table->unit_cap[seg], unit);
  if (unit < reserved) mq_.AbortLoad(id, unit);
}

void UnitManager::LoadInitialUnits(
    DbHandle db, uint64_t file_number,
    const std::shared_ptr<TableFilterGroups>& groups, RandomAccessFile* file,
    const InitialLoads& rounds) {
  std::unique_ptr<RandomAccessFile> own_file;
  Status open_status;
  if (file == nullptr) {
    open_status = OpenForLoads(db, file_number, &own_file);
    file = own_file.get();
  }
  uint64_t queue_file;
  {
    MutexLock l(&mu_);
    queue_file = QueueFileLocked(db, file_number);
  }
  const uint32_t count = groups->num_segments();
  for (size_t u = 0; u < rounds.size(); ++u) {
    const int unit = static_cast<int>(u);
    if (rounds[u].size() == count) {
      // Every segment wants this unit: one sequential read of the region.
      LoadRegion(db, file_number, queue_file, groups, file, open_status, unit);
      continue;
    }
    for (uint32_t s : rounds[u]) {
      LoadUnit(groups, file, open_status,
               Load{MakeSegmentId(queue_file, s), unit},
               /*count_busy=*/false);  // busy for the whole attach
    }
  }
  MutexLock l(&mu_);
  SetBusyLocked(MakeSegmentId(queue_file, 0), groups.get(), -1);
  loads_done_.SignalAll();
}

void UnitManager::LoadRegion(DbHandle db, uint64_t file_number,
                             uint64_t queue_file,
                             const std::shared_ptr<TableFilterGroups>& groups,
                             RandomAccessFile* file, const Status& open_status,
                             int unit) {
  const uint32_t count = groups->num_segments();
  std::vector<UnitBuffer> buffers;
  std::vector<Status> statuses;
  const Status region =
      open_status.ok() ? groups->ReadUnitRegion(file, unit, &buffers, &statuses)
                       : open_status;
  if (!open_status.ok()) {
    buffers.resize(count);
    statuses.assign(count, open_status);
  }
  if (!region.ok()) {
    // One report for the whole region rather than one per segment (the
    // database cannot leave: this load is outstanding).
    Logger* log;
    {
      MutexLock l(&mu_);
      log = LogOfLocked(db);
    }
    Log(log,
        "ElasticBF: cannot read filter unit %d of table %06" PRIu64
        " (%u segments keep fewer units): %s",
        unit, file_number, count, region.ToString().c_str());
  }
  MutexLock l(&mu_);
  ++region_reads_;
  for (uint32_t s = 0; s < count; ++s) {
    FinishLoadLocked(groups.get(), MakeSegmentId(queue_file, s), unit,
                     statuses[s], &buffers[s], /*log_failure=*/region.ok());
    --loads_outstanding_;
  }
  loads_done_.SignalAll();
}

}  // namespace leveldb
