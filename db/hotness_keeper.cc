#include "db/hotness_keeper.h"

#include <cinttypes>
#include <utility>

#include "db/filename.h"
#include "db/table_cache.h"
#include "db/version_edit.h"
#include "db/version_set.h"
#include "elastic/hotness_inheritance.h"
#include "elastic/mq_schedule.h"
#include "leveldb/env.h"
#include "table/elastic/segment_key_range.h"

namespace leveldb {

HotnessKeeper::HotnessKeeper(Env* env, const std::string& dbname,
                             Logger* info_log,
                             const Comparator* user_comparator,
                             MQSchedule* elastic, VersionSet* versions,
                             TableCache* table_cache, port::Mutex* mu)
    : env_(env),
      dbname_(dbname),
      info_log_(info_log),
      user_comparator_(user_comparator),
      elastic_(elastic),
      versions_(versions),
      table_cache_(table_cache),
      mu_(mu),
      active_(elastic != nullptr && versions->keeps_hotness()) {}

HotnessKeeper::~HotnessKeeper() = default;

std::unique_ptr<HotnessKeeper::CompactionInputs> HotnessKeeper::BeginCompaction(
    Compaction* c) const {
  if (!active_) return nullptr;
  auto inputs = std::make_unique<CompactionInputs>();
  inputs->level0 = c->level() == 0;
  for (int which = 0; which < 2; ++which) {
    for (int i = 0; i < c->num_input_files(which); ++i) {
      const FileMetaData* f = c->input(which, i);
      CompactionInputs::Table table;
      table.number = f->number;
      table.which = which;
      // A table that cannot say is left out: it only costs its share of
      // the inherited hotness, and the merge reports real read errors.
      Status s = table_cache_->GetSegmentKeyRanges(
          f->number, f->file_size, f->smallest.user_key(),
          f->largest.user_key(), &table.segments);
      if (s.ok() && !table.segments.empty()) {
        inputs->tables.push_back(std::move(table));
      }
    }
  }
  return inputs;
}

HotnessKeeper::HotnessPtr HotnessKeeper::InheritForOutput(
    const CompactionInputs* inputs, uint64_t number,
    const std::vector<SegmentKeyRange>* segments) {
  if (inputs == nullptr || segments == nullptr || segments->empty()) {
    return nullptr;
  }
  // The inputs' hotness as of now: they stay live, and keep being probed,
  // until the compaction is installed.
  std::vector<InputLevel> levels(2);
  levels[0].tables_overlap = inputs->level0;
  InheritedHotness current;
  for (const CompactionInputs::Table& in : inputs->tables) {
    if (!elastic_->GetFileHotness(in.number, &current) ||
        current.segments.size() != in.segments.size()) {
      continue;
    }
    std::vector<InputSegment> table(in.segments.size());
    for (size_t s = 0; s < table.size(); ++s) {
      table[s].first = in.segments[s].first;
      table[s].last = in.segments[s].last;
      table[s].hotness = current.segments[s];
      table[s].units = current.UnitTarget(s);
    }
    levels[in.which].tables.push_back(std::move(table));
  }
  auto inherited = std::make_shared<const InheritedHotness>(
      InheritSegmentHotness(user_comparator_, levels, *segments));
  // Before the table is first opened, so that it opens with it.
  elastic_->SeedFileHotness(number, *inherited);
  return inherited;
}

void HotnessKeeper::RecordOutput(VersionEdit* edit, uint64_t number,
                                 HotnessPtr hotness) const {
  if (active_) edit->SetFileHotness(number, std::move(hotness));
}

void HotnessKeeper::RecordMove(VersionEdit* edit, const FileMetaData& f) const {
  if (active_) edit->SetFileHotness(f.number, CurrentHotness(f));
}

HotnessKeeper::HotnessPtr HotnessKeeper::CurrentHotness(
    const FileMetaData& f) const {
  auto current = std::make_shared<InheritedHotness>();
  if (elastic_->GetFileHotness(f.number, current.get())) return current;
  return f.hotness;
}

void HotnessKeeper::Start() {
  mu_->AssertHeld();
  if (!active_) return;
  next_clock_ = elastic_->layer()->Now() + interval_;
  manifest_number_ = versions_->ManifestFileNumber();
  manifest_base_ = ManifestSize();
}

bool HotnessKeeper::CheckpointDue() const {
  mu_->AssertHeld();
  return active_ && elastic_->layer()->Now() >= next_clock_;
}

void HotnessKeeper::CollectChanges(VersionEdit* edit) const {
  const Version* current = versions_->current();
  InheritedHotness hotness;
  for (int level = 0; level < config::kNumLevels; ++level) {
    for (const FileMetaData* f : current->LevelFiles(level)) {
      if (!elastic_->GetFileHotness(f->number, &hotness)) continue;
      if (f->hotness != nullptr && *f->hotness == hotness) continue;
      edit->SetFileHotness(f->number,
                           std::make_shared<const InheritedHotness>(hotness));
    }
  }
  const uint64_t now = elastic_->layer()->Now();
  if (now != versions_->elastic_clock()) edit->SetElasticClock(now);
}

Status HotnessKeeper::Checkpoint(bool* new_manifest) {
  mu_->AssertHeld();
  *new_manifest = false;
  if (!active_) return Status::OK();
  next_clock_ = elastic_->layer()->Now() + interval_;

  VersionEdit edit;
  CollectChanges(&edit);
  if (!edit.HasElastic()) return Status::OK();

  std::string encoded;
  edit.EncodeTo(&encoded);
  const bool roll = ManifestWouldOutgrow(encoded.size());
  if (roll) versions_->StartNewManifest();
  const uint64_t before = versions_->ManifestFileNumber();
  Status s = versions_->LogAndApply(&edit, mu_);
  *new_manifest = versions_->ManifestFileNumber() != before;
  if (!s.ok()) {
    Log(info_log_,
        "ElasticBF: hotness checkpoint failed, retried after %" PRIu64
        " more Gets: %s",
        interval_, s.ToString().c_str());
    return s;
  }
  ++checkpoints_;
  if (*new_manifest) {
    ++manifests_started_;
    manifest_number_ = versions_->ManifestFileNumber();
    manifest_base_ = ManifestSize();
  }
  return s;
}

bool HotnessKeeper::ManifestWouldOutgrow(uint64_t edit_bytes) {
  const uint64_t size = ManifestSize();
  if (versions_->ManifestFileNumber() != manifest_number_) {
    // Started since (after a failed write, or at open): its allowance
    // counts from now.
    manifest_number_ = versions_->ManifestFileNumber();
    manifest_base_ = size;
  }
  return size + edit_bytes > kManifestGrowth * manifest_base_;
}

uint64_t HotnessKeeper::ManifestSize() const {
  uint64_t size = 0;
  Status s = env_->GetFileSize(
      DescriptorFileName(dbname_, versions_->ManifestFileNumber()), &size);
  return s.ok() ? size : 0;
}

void HotnessKeeper::SetInterval(uint64_t gets) {
  mu_->AssertHeld();
  interval_ = gets;
  if (active_) next_clock_ = elastic_->layer()->Now() + gets;
}

uint64_t HotnessKeeper::checkpoints() const {
  mu_->AssertHeld();
  return checkpoints_;
}

uint64_t HotnessKeeper::manifests_started() const {
  mu_->AssertHeld();
  return manifests_started_;
}

}  // namespace leveldb
