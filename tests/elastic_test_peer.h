// MultiQueueTestPeer and MQScheduleTestPeer: what tests may see and do inside
// an MQSchedule and its UnitManager that the engine never needs (pausing the
// manager's thread, setting the clock, processing records on demand,
// cross-checking the bookkeeping).
#ifndef STORAGE_LEVELDB_TESTS_ELASTIC_TEST_PEER_H_
#define STORAGE_LEVELDB_TESTS_ELASTIC_TEST_PEER_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "elastic/file_registry.h"
#include "elastic/mq_schedule.h"
#include "elastic/multi_queue.h"
#include "elastic/unit_manager.h"
#include "table/elastic/filter_group.h"
#include "util/mutexlock.h"

namespace leveldb {

// What tests query and set inside a MultiQueue that decisions never need.
class MultiQueueTestPeer {
 public:
  static bool IsAttached(const MultiQueue* mq, SegmentId id) {
    return mq->IsAttached(id);
  }
  static bool IsExpired(const MultiQueue* mq, SegmentId id, uint64_t now) {
    return mq->IsExpired(id, now);
  }
  static uint64_t lifetime(const MultiQueue* mq) { return mq->lifetime(); }
  static double FalsePositiveRate(const MultiQueue* mq, int units,
                                  int rate_class = 0) {
    return mq->FalsePositiveRate(units, rate_class);
  }
  static double ExpectedExtraIo(const MultiQueue* mq) {
    return mq->ExpectedExtraIo();
  }
  static double RecomputeExpectedExtraIo(const MultiQueue* mq) {
    return mq->RecomputeExpectedExtraIo();
  }
  static bool CheckInvariants(const MultiQueue* mq, std::string* error) {
    return mq->CheckInvariants(error);
  }
  // Changes the aging period from now on (0 = no aging).
  static void SetAgingLifetimes(MultiQueue* mq, uint64_t lifetimes) {
    mq->aging_lifetimes_ = lifetimes;
  }
};

class MQScheduleTestPeer {
 public:
  // Processes every access record queued so far and registers the live
  // files still unregistered, in the calling thread, and waits until no
  // unit load is in flight.
  static void WaitIdle(MQSchedule* mqs) { mqs->manager_->WaitIdle(); }

  // The manager's figures, with the db_* ones of this database.
  static MQSchedule::Stats GetStats(const MQSchedule* mqs) {
    return mqs->manager_->GetStats(mqs->db_);
  }

  static const UnitManager* Manager(const MQSchedule* mqs) {
    return mqs->manager_.get();
  }

  // A paused background thread processes nothing; returns once no pass
  // is running.
  static void Pause(MQSchedule* mqs, bool paused) {
    UnitManager* m = mqs->manager_.get();
    m->paused_.store(paused, std::memory_order_release);
    MutexLock wait_for_pass(&m->pass_mu_);
  }

  // Sets the MultiQueue's count aging (0 = counts never fade), for tests of
  // how hotness is kept that would otherwise race with the halving.
  static void SetAgingLifetimes(MQSchedule* mqs, uint64_t lifetimes) {
    UnitManager* m = mqs->manager_.get();
    MutexLock l(&m->mu_);
    MultiQueueTestPeer::SetAgingLifetimes(&m->mq_, lifetimes);
  }

  static void SetClock(MQSchedule* mqs, uint64_t now) {
    mqs->layer_.clock_->store(now, std::memory_order_relaxed);
  }

  // Hotness of every segment of a file registered now or earlier, or
  // seeded and not registered yet. False if the file is unknown.
  static bool GetSegmentHotness(const MQSchedule* mqs, uint64_t file_number,
                                std::vector<MultiQueue::Hotness>* hotness) {
    InheritedHotness all;
    if (!mqs->GetFileHotness(file_number, &all)) return false;
    hotness->swap(all.segments);
    return true;
  }

  // Units reserved now by each segment of a registered file (installed
  // ones plus loads in flight; equal after WaitIdle). Empty if the file is
  // not registered with groups.
  static std::vector<int> UnitsReserved(const MQSchedule* mqs,
                                        uint64_t file_number) {
    const UnitManager* m = mqs->manager_.get();
    MutexLock l(&m->mu_);
    std::vector<int> units;
    auto it = m->tables_.find(m->QueueFileLocked(mqs->db_, file_number));
    if (it == m->tables_.end()) return units;
    const uint32_t count = it->second.groups->num_segments();
    units.resize(count);
    for (uint32_t s = 0; s < count; ++s) {
      units[s] = m->mq_.UnitsLoaded(m->QueueIdLocked(mqs->db_, file_number, s));
    }
    return units;
  }

  // Files registered with filter groups now.
  static std::vector<uint64_t> RegisteredFiles(const MQSchedule* mqs) {
    MutexLock l(&mqs->mu_);
    std::vector<uint64_t> files;
    mqs->registry_.ForEachRegistered(
        [&files](uint64_t number, const FileRecord& record) {
          if (record.groups != nullptr) files.push_back(number);
        });
    return files;
  }

  // Cross-checks the MultiQueue, the tables' installed units, the locators
  // and the byte counters.
  static bool CheckInvariants(const MQSchedule* mqs, std::string* error) {
    const UnitManager* m = mqs->manager_.get();
    MutexLock l(&m->mu_);
    if (!MultiQueueTestPeer::CheckInvariants(&m->mq_, error)) return false;
    uint64_t installed = 0;
    uint64_t locators = 0;
    std::string table_error;
    for (const auto& [key, table] : m->tables_) {
      if (!table_error.empty()) break;
      locators += table.groups->locator().ApproximateMemoryUsage();
      installed += CheckedTableBytes(m->mq_, key, *table.groups, &table_error);
    }
    if (!table_error.empty()) {
      *error = table_error;
      return false;
    }
    if (installed != m->installed_bytes_) {
      *error = "installed byte count is off";
      return false;
    }
    if (m->installed_bytes_ > m->mq_.budget_bytes()) {
      *error = "installed units exceed the budget";
      return false;
    }
    if (locators != m->locator_bytes_) {
      *error = "locator byte count is off";
      return false;
    }
    if (m->locator_bytes_ <= m->budget_bytes_ &&
        m->installed_bytes_ + m->locator_bytes_ > m->budget_bytes_) {
      *error = "units and locators exceed the budget";
      return false;
    }
    return true;
  }

 private:
  // Installed unit bytes of an attached table (`queue_file`: its key in the
  // MultiQueue); sets *error if they disagree with its reservations or byte
  // count.
  static uint64_t CheckedTableBytes(const MultiQueue& mq, uint64_t queue_file,
                                    const TableFilterGroups& groups,
                                    std::string* error) {
    uint64_t table_bytes = 0;
    for (uint32_t s = 0; s < groups.num_segments(); ++s) {
      const int have = groups.LoadedCount(s);
      const int reserved = mq.UnitsLoaded(MakeSegmentId(queue_file, s));
      if (have > std::max(reserved, 0)) {
        *error = "segment has more units installed than reserved";
        return 0;
      }
      table_bytes +=
          static_cast<uint64_t>(have) * groups.index().segment(s).unit_size;
    }
    if (groups.loaded_bytes() != table_bytes) {
      *error = "a table's loaded byte count is off";
    }
    return table_bytes;
  }
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_ELASTIC_TEST_PEER_H_
