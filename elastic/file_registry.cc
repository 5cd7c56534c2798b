#include "elastic/file_registry.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace leveldb {

const FileRecord* FileRegistry::Find(uint64_t number) const {
  auto it = records_.find(number);
  return it == records_.end() ? nullptr : &it->second;
}

FileRecord* FileRegistry::MutableRegistered(uint64_t number) {
  auto it = records_.find(number);
  if (it == records_.end() || !it->second.registered()) return nullptr;
  return &it->second;
}

bool FileRegistry::Register(uint64_t number,
                            std::shared_ptr<TableFilterGroups> groups) {
  FileRecord& record = records_[number];
  if (record.state != FileState::kKnown &&
      record.state != FileState::kHandedOut) {
    return false;
  }
  record.state = FileState::kRegistered;
  record.groups = std::move(groups);
  ++registered_count_;
  unregistered_.erase(number);
  return true;
}

void FileRegistry::SetSegments(uint64_t number, uint32_t segments) {
  FileRecord* record = MutableRegistered(number);
  assert(record != nullptr && record->groups != nullptr);
  record->segments = segments;
}

void FileRegistry::DropGroups(uint64_t number) {
  FileRecord* record = MutableRegistered(number);
  assert(record != nullptr && record->waiting == nullptr);
  record->waiting = std::move(record->groups);
  record->groups.reset();
  record->segments = 0;
  if (record->waiting != nullptr) ++waiting_count_;
}

std::vector<uint64_t> FileRegistry::Waiting() const {
  std::vector<uint64_t> numbers;
  if (waiting_count_ == 0) return numbers;
  for (const auto& [number, record] : records_) {
    if (record.registered() && record.waiting != nullptr) {
      numbers.push_back(number);
    }
  }
  return numbers;
}

std::shared_ptr<TableFilterGroups> FileRegistry::Readmit(uint64_t number) {
  FileRecord* record = MutableRegistered(number);
  if (record == nullptr || record->waiting == nullptr) return nullptr;
  --waiting_count_;
  record->groups = std::move(record->waiting);
  record->waiting.reset();
  return record->groups;
}

void FileRegistry::EndRegistration(FileRecord* record,
                                   std::shared_ptr<TableFilterGroups>* groups) {
  --registered_count_;
  *groups = std::move(record->groups);
  record->groups.reset();
  // Waiting groups were never published: nobody can be reading them.
  if (record->waiting != nullptr) {
    --waiting_count_;
    record->waiting.reset();
  }
}

bool FileRegistry::Seed(uint64_t number, const InheritedHotness& hotness) {
  auto it = records_.find(number);
  if (it != records_.end()) {
    const FileRecord& record = it->second;
    if (record.segments != 0 || record.registered() || record.seed) {
      return false;
    }
  }
  records_[number].seed = hotness;
  return true;
}

std::optional<InheritedHotness> FileRegistry::TakeSeed(uint64_t number) {
  auto it = records_.find(number);
  if (it == records_.end() || !it->second.seed) return std::nullopt;
  std::optional<InheritedHotness> seed = std::move(it->second.seed);
  it->second.seed.reset();
  return seed;
}

bool FileRegistry::SetLevel(uint64_t number, int level) {
  FileRecord& record = records_[number];
  if (record.level == level) return false;
  record.level = level;
  return true;
}

bool FileRegistry::Retire(uint64_t number,
                          std::shared_ptr<TableFilterGroups>* groups) {
  groups->reset();
  FileRecord& record = records_[number];
  const bool was_registered = record.registered();
  if (was_registered) EndRegistration(&record, groups);
  record.state = FileState::kRetired;
  unregistered_.erase(number);
  return was_registered;
}

bool FileRegistry::Forget(uint64_t number,
                          std::shared_ptr<TableFilterGroups>* groups) {
  groups->reset();
  auto it = records_.find(number);
  if (it == records_.end()) return false;
  const bool was_registered = it->second.registered();
  if (was_registered) EndRegistration(&it->second, groups);
  records_.erase(it);
  unregistered_.erase(number);
  return was_registered;
}

std::vector<uint64_t> FileRegistry::ReplaceLiveSet(
    const std::unordered_set<uint64_t>& live) {
  std::vector<uint64_t> left;
  for (auto& [number, record] : records_) {
    const bool now_live = live.count(number) != 0;
    if (record.live && !now_live) left.push_back(number);
    record.live = now_live;
  }
  // Files first heard of in this report.
  for (uint64_t number : live) {
    FileRecord& record = records_[number];
    record.live = true;
    if (record.state == FileState::kKnown && record.file_size > 0) {
      unregistered_.insert(number);
    }
  }
  live_set_reported_ = true;
  return left;
}

void FileRegistry::SetFileSize(uint64_t number, uint64_t file_size) {
  records_[number].file_size = file_size;
}

std::vector<std::pair<uint64_t, uint64_t>> FileRegistry::HandOut(size_t max) {
  std::vector<std::pair<uint64_t, uint64_t>> taken;
  auto it = unregistered_.begin();
  while (it != unregistered_.end() && taken.size() < max) {
    FileRecord& record = records_[*it];
    if (record.live && record.state == FileState::kKnown) {
      record.state = FileState::kHandedOut;
      taken.emplace_back(*it, record.file_size);
    }
    it = unregistered_.erase(it);
  }
  return taken;
}

void FileRegistry::ForEachRegistered(
    const std::function<void(uint64_t, const FileRecord&)>& fn) const {
  for (const auto& [number, record] : records_) {
    if (record.registered()) fn(number, record);
  }
}

}  // namespace leveldb
