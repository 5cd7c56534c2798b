#include "elastic/filter_layer.h"

#include <algorithm>
#include <utility>

#include "elastic/file_registry.h"
#include "leveldb/slice.h"
#include "table/elastic/filter_group.h"
#include "util/mutexlock.h"

namespace leveldb {

// ---------------------------------------------------------------------------
// WakeSignal

void WakeSignal::Notify() {
  if (!requested_.load(std::memory_order_relaxed) &&
      !requested_.exchange(true, std::memory_order_acq_rel)) {
    MutexLock l(&mu_);
    cv_.Signal();
  }
}

bool WakeSignal::Wait(uint64_t micros) {
  {
    MutexLock l(&mu_);
    if (!stopped_ && !requested_.load(std::memory_order_acquire)) {
      cv_.TimedWait(micros);
    }
    if (stopped_) return false;
  }
  requested_.store(false, std::memory_order_release);
  return true;
}

void WakeSignal::Stop() {
  MutexLock l(&mu_);
  stopped_ = true;
  cv_.SignalAll();
}

// ---------------------------------------------------------------------------
// FileMap: open addressing over file numbers, built whole from the
// registered files and never changed, so Gets can read it without a lock.

class FilterLayer::FileMap {
 public:
  struct Entry {
    uint64_t number = 0;
    const TableFilterGroups* groups = nullptr;  // null: no ElasticBF filter
    bool used = false;
  };

  explicit FileMap(const FileRegistry& registry) {
    size_t capacity = 16;
    while (capacity < 2 * registry.registered_count()) capacity <<= 1;
    mask_ = capacity - 1;
    entries_.reset(new Entry[capacity]);
    registry.ForEachRegistered(
        [this](uint64_t number, const FileRecord& record) {
          size_t i = Home(number);
          while (entries_[i].used) i = (i + 1) & mask_;
          entries_[i].number = number;
          entries_[i].groups = record.groups.get();
          entries_[i].used = true;
        });
  }

  // The entry of a registered file, else null.
  const Entry* Find(uint64_t number) const {
    for (size_t i = Home(number);; i = (i + 1) & mask_) {
      const Entry& e = entries_[i];
      if (!e.used) return nullptr;
      if (e.number == number) return &e;
    }
  }

  static void Delete(void* map) { delete static_cast<FileMap*>(map); }

 private:
  // File numbers are dense: multiplicative hashing spreads them.
  size_t Home(uint64_t number) const {
    return static_cast<size_t>((number * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
  }

  size_t mask_;
  std::unique_ptr<Entry[]> entries_;
};

namespace {

// Keeps a retired table's groups alive until no reader can still see them.
struct GroupsHolder {
  std::shared_ptr<TableFilterGroups> groups;
  static void Delete(void* holder) {
    delete static_cast<GroupsHolder*>(holder);
  }
};

}  // namespace

// ---------------------------------------------------------------------------

FilterLayer::FilterLayer(size_t ring_capacity, WakeSignal* wake,
                         std::atomic<uint64_t>* shared_clock)
    : clock_(shared_clock != nullptr ? shared_clock : &own_clock_),
      ring_(ring_capacity),
      wake_threshold_(std::max<size_t>(ring_.capacity() / 8, 1)),
      wake_(wake),
      file_map_(new FileMap(FileRegistry())) {}

FilterLayer::~FilterLayer() {
  epoch_.Drain();
  delete file_map_.load(std::memory_order_relaxed);
}

void FilterLayer::RestoreClock(uint64_t now) {
  uint64_t current = clock_->load(std::memory_order_relaxed);
  while (current < now && !clock_->compare_exchange_weak(
                              current, now, std::memory_order_relaxed)) {
  }
}

void FilterLayer::RecordAccess(SegmentId id, bool absent) {
  if ((id & kAbsentBit) != 0 ||
      !ring_.Push(AccessRecord{id | (absent ? kAbsentBit : 0), Now()})) {
    ring_drops_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  // Wake the thread early only when records pile up.
  if (ring_.ApproximateSize() >= wake_threshold_) wake_->Notify();
}

bool FilterLayer::NextAccess(Access* access) {
  AccessRecord record;
  if (!ring_.Pop(&record)) return false;
  access->id = record.tagged_id & ~kAbsentBit;
  access->absent = (record.tagged_id & kAbsentBit) != 0;
  access->time = record.time;
  return true;
}

FilterLayer::Screening FilterLayer::Screen(uint64_t file_number,
                                           const Slice& key,
                                           uint64_t key_hash) const {
  Screening result;
  // The guard covers the map and unit probes only, never a read from disk.
  EpochGuard guard(&epoch_);
  const FileMap::Entry* entry =
      file_map_.load(std::memory_order_acquire)->Find(file_number);
  if (entry == nullptr) return result;
  const TableFilterGroups* groups = entry->groups;
  if (groups == nullptr || !groups->locator().usable()) {
    result.verdict = Screening::kNoFilter;
    return result;
  }
  uint32_t segment;
  if (!groups->locator().Find(key, &segment, &result.entries)) {
    result.verdict = Screening::kPastEnd;
    return result;
  }
  result.segment = MakeSegmentId(file_number, segment);
  result.verdict = groups->MayMatch(segment, key_hash, &result.consulted)
                       ? Screening::kMayMatch
                       : Screening::kRuledOut;
  return result;
}

bool FilterLayer::HasFilterGroups(uint64_t file_number) const {
  EpochGuard guard(&epoch_);
  const FileMap::Entry* entry =
      file_map_.load(std::memory_order_acquire)->Find(file_number);
  return entry != nullptr && entry->groups != nullptr;
}

void FilterLayer::Publish(
    const FileRegistry& registry,
    std::vector<std::shared_ptr<TableFilterGroups>>* unpublished) {
  const FileMap* old =
      file_map_.exchange(new FileMap(registry), std::memory_order_acq_rel);
  if (old != nullptr)
    epoch_.Retire(const_cast<FileMap*>(old), &FileMap::Delete);
  // Screens that found the old map may still probe these groups.
  for (std::shared_ptr<TableFilterGroups>& groups : *unpublished) {
    epoch_.Retire(new GroupsHolder{std::move(groups)}, &GroupsHolder::Delete);
  }
  unpublished->clear();
}

}  // namespace leveldb
