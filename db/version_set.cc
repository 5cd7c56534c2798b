#include "db/version_set.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "db/filename.h"
#include "db/log_reader.h"
#include "db/log_writer.h"
#include "db/table_cache.h"
#include "elastic/mq_schedule.h"
#include "leveldb/env.h"
#include "leveldb/table.h"
#include "table/elastic/elastic_filter_policy.h"
#include "table/key_lookup.h"
#include "table/merger.h"
#include "table/two_level_iterator.h"
#include "util/coding.h"
#include "util/io_stats.h"
#include "util/logging.h"

namespace leveldb {

namespace {

// Size limits, all derived from the target table size.
uint64_t TargetFileSize(const Options* options) {
  return options->max_file_size;
}

// A compaction output stops growing once it overlaps this many bytes of the
// level below its output, so that compacting it later stays cheap.
int64_t MaxGrandParentOverlapBytes(const Options* options) {
  return 10 * static_cast<int64_t>(TargetFileSize(options));
}

// Cap on the total input of a compaction whose level-L inputs were widened.
int64_t ExpandedCompactionByteSizeLimit(const Options* options) {
  return 25 * static_cast<int64_t>(TargetFileSize(options));
}

// Level 1 may hold 10 MiB, and each deeper level ten times more. (Level 0
// is limited by file count instead.)
double MaxBytesForLevel(int level) {
  double limit = 10.0 * 1048576.0;
  for (int l = 2; l <= level; ++l) {
    limit *= 10;
  }
  return limit;
}

uint64_t MaxFileSizeForLevel(const Options* options, int /*level*/) {
  return TargetFileSize(options);
}

int64_t TotalFileSize(const std::vector<FileMetaData*>& files) {
  int64_t total = 0;
  for (const FileMetaData* f : files) {
    total += static_cast<int64_t>(f->file_size);
  }
  return total;
}

// user_key lies strictly after every key of f (null = -infinity).
bool KeyAfterFile(const Comparator* ucmp, const Slice* user_key,
                  const FileMetaData* f) {
  return user_key != nullptr &&
         ucmp->Compare(*user_key, f->largest.user_key()) > 0;
}

// user_key lies strictly before every key of f (null = +infinity).
bool KeyBeforeFile(const Comparator* ucmp, const Slice* user_key,
                   const FileMetaData* f) {
  return user_key != nullptr &&
         ucmp->Compare(*user_key, f->smallest.user_key()) < 0;
}

// Smallest and largest internal key over all of `files` (non-empty).
void KeyRangeOf(const InternalKeyComparator& icmp,
                const std::vector<FileMetaData*>& files, InternalKey* smallest,
                InternalKey* largest) {
  *smallest = files.front()->smallest;
  *largest = files.front()->largest;
  for (const FileMetaData* f : files) {
    if (icmp.Compare(f->smallest, *smallest) < 0) *smallest = f->smallest;
    if (icmp.Compare(f->largest, *largest) > 0) *largest = f->largest;
  }
}

// A LevelFileNumIterator value: file number and size as two fixed64s.
Status DecodeFileEntry(const Slice& entry, uint64_t* number, uint64_t* size) {
  if (entry.size() != 16) {
    return Status::Corruption("level file entry has the wrong size");
  }
  *number = LoadFixed64(entry.data());
  *size = LoadFixed64(entry.data() + 8);
  return Status::OK();
}

// Opens the table named by a LevelFileNumIterator value.
Iterator* OpenTableForFileEntry(void* arg, const ReadOptions& options,
                                const Slice& entry) {
  uint64_t number = 0, size = 0;
  Status s = DecodeFileEntry(entry, &number, &size);
  if (!s.ok()) return NewErrorIterator(s);
  return static_cast<TableCache*>(arg)->NewIterator(options, number, size);
}

// Compaction reads each input table once, front to back: in windows of this
// many bytes rather than a read per block (see docs/evaluation.md, "Reads
// right after a load").
constexpr size_t kCompactionReadahead = 1 << 20;

// As OpenTableForFileEntry, for a compaction's pass over a level's files.
Iterator* ScanTableForFileEntry(void* arg, const ReadOptions& options,
                                const Slice& entry) {
  uint64_t number = 0, size = 0;
  Status s = DecodeFileEntry(entry, &number, &size);
  if (!s.ok()) return NewErrorIterator(s);
  return static_cast<TableCache*>(arg)->NewScanIterator(options, number, size,
                                                        kCompactionReadahead);
}

// Collects the first error the MANIFEST reader reports.
class ManifestErrorCollector : public log::Reader::Reporter {
 public:
  explicit ManifestErrorCollector(Status* status) : status_(status) {}
  void Corruption(size_t /*bytes*/, const Status& s) override {
    if (status_->ok()) *status_ = s;
  }

 private:
  Status* status_;
};

}  // namespace

// ---------------------------------------------------------------------------
// Free functions over sorted file lists

int FindFile(const InternalKeyComparator& icmp,
             const std::vector<FileMetaData*>& files, const Slice& key) {
  // Invariant: files[lo, hi) holds the answer, or hi == files.size().
  size_t lo = 0;
  size_t hi = files.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (icmp.Compare(files[mid]->largest.Encode(), key) < 0) {
      lo = mid + 1;  // every key of files[mid] is < key
    } else {
      hi = mid;
    }
  }
  return static_cast<int>(lo);
}

bool SomeFileOverlapsRange(const InternalKeyComparator& icmp,
                           bool disjoint_sorted_files,
                           const std::vector<FileMetaData*>& files,
                           const Slice* smallest_user_key,
                           const Slice* largest_user_key) {
  const Comparator* ucmp = icmp.user_comparator();
  if (!disjoint_sorted_files) {
    for (const FileMetaData* f : files) {
      if (!KeyAfterFile(ucmp, smallest_user_key, f) &&
          !KeyBeforeFile(ucmp, largest_user_key, f)) {
        return true;
      }
    }
    return false;
  }

  // Sorted and disjoint: only the first file ending at or after the range's
  // start can overlap it.
  size_t first = 0;
  if (smallest_user_key != nullptr) {
    const InternalKey probe(*smallest_user_key, kMaxSequenceNumber,
                            kValueTypeForSeek);
    first = static_cast<size_t>(FindFile(icmp, files, probe.Encode()));
  }
  return first < files.size() &&
         !KeyBeforeFile(ucmp, largest_user_key, files[first]);
}

void AddBoundaryInputs(const InternalKeyComparator& icmp,
                       const std::vector<FileMetaData*>& level_files,
                       std::vector<FileMetaData*>* compaction_files) {
  if (compaction_files->empty()) return;
  const Comparator* ucmp = icmp.user_comparator();

  InternalKey boundary;
  InternalKey ignored;
  KeyRangeOf(icmp, *compaction_files, &ignored, &boundary);

  // A file starting with an older entry of the boundary user key must come
  // along; otherwise that older entry would stay in this level while the
  // newer one moves down, and reads would find the stale one first.
  while (true) {
    FileMetaData* next = nullptr;
    for (FileMetaData* f : level_files) {
      if (icmp.Compare(f->smallest, boundary) > 0 &&
          ucmp->Compare(f->smallest.user_key(), boundary.user_key()) == 0 &&
          (next == nullptr || icmp.Compare(f->smallest, next->smallest) < 0)) {
        next = f;
      }
    }
    if (next == nullptr) return;
    compaction_files->push_back(next);
    boundary = next->largest;
  }
}

// ---------------------------------------------------------------------------
// Version

// Walks the files of one sorted level. key() is a file's largest key and
// value() is its number and size as two fixed64s (what
// OpenTableForFileEntry expects).
class Version::LevelFileNumIterator : public Iterator {
 public:
  LevelFileNumIterator(const InternalKeyComparator& icmp,
                       const std::vector<FileMetaData*>* files)
      : icmp_(icmp), files_(files), pos_(files->size()) {}

  bool Valid() const override { return pos_ < files_->size(); }
  void Seek(const Slice& target) override {
    pos_ = static_cast<size_t>(FindFile(icmp_, *files_, target));
  }
  void SeekToFirst() override { pos_ = 0; }
  void SeekToLast() override {
    pos_ = files_->empty() ? 0 : files_->size() - 1;
  }
  void Next() override { ++pos_; }
  void Prev() override {
    // Stepping before the first file leaves the iterator invalid.
    pos_ = pos_ == 0 ? files_->size() : pos_ - 1;
  }
  Slice key() const override { return (*files_)[pos_]->largest.Encode(); }
  Slice value() const override {
    const FileMetaData* f = (*files_)[pos_];
    StoreFixed64(entry_, f->number);
    StoreFixed64(entry_ + 8, f->file_size);
    return Slice(entry_, sizeof(entry_));
  }
  Status status() const override { return Status::OK(); }

 private:
  const InternalKeyComparator icmp_;
  const std::vector<FileMetaData*>* const files_;
  size_t pos_;  // == files_->size() when not valid
  mutable char entry_[16];
};

Version::~Version() {
  prev_->next_ = next_;
  next_->prev_ = prev_;
  for (std::vector<FileMetaData*>& level : files_) {
    for (FileMetaData* f : level) {
      if (--f->refs <= 0) delete f;
    }
  }
}

Iterator* Version::NewConcatenatingIterator(const ReadOptions& options,
                                            int level) const {
  return NewTwoLevelIterator(
      new LevelFileNumIterator(vset_->icmp_, &files_[level]),
      &OpenTableForFileEntry, vset_->table_cache_, options);
}

void Version::AddIterators(const ReadOptions& options,
                           std::vector<Iterator*>* iters) {
  for (const FileMetaData* f : files_[0]) {
    iters->push_back(
        vset_->table_cache_->NewIterator(options, f->number, f->file_size));
  }
  // Deeper levels are disjoint, so one lazily opening iterator each does.
  for (int level = 1; level < config::kNumLevels; ++level) {
    if (!files_[level].empty()) {
      iters->push_back(NewConcatenatingIterator(options, level));
    }
  }
}

// The files of a version that may hold a user key, newest first: the
// level-0 files covering it (they may overlap each other: highest number
// first), then at most one file per deeper level. A deeper level is
// searched only when the caller asks for a file past the ones before it,
// as most lookups stop early.
class Version::OverlappingFiles {
 public:
  OverlappingFiles(const Version& version, const Slice& user_key,
                   const Slice& internal_key)
      : version_(version),
        ucmp_(version.vset_->icmp_.user_comparator()),
        user_key_(user_key),
        internal_key_(internal_key) {
    const std::vector<FileMetaData*>& level0 = version.files_[0];
    // The candidates normally fit on the stack, so a Get allocates
    // nothing here.
    if (level0.size() > kInlineCandidates) {
      spilled_.resize(level0.size());
      candidates_ = spilled_.data();
    }
    for (FileMetaData* f : level0) {
      if (ucmp_->Compare(user_key, f->smallest.user_key()) >= 0 &&
          ucmp_->Compare(user_key, f->largest.user_key()) <= 0) {
        candidates_[num_candidates_++] = f;
      }
    }
    std::sort(candidates_, candidates_ + num_candidates_,
              [](const FileMetaData* a, const FileMetaData* b) {
                return a->number > b->number;
              });
  }

  OverlappingFiles(const OverlappingFiles&) = delete;
  OverlappingFiles& operator=(const OverlappingFiles&) = delete;

  // Sets *file and *level to the next file that may hold the key; false
  // when there is none left.
  bool Next(FileMetaData** file, int* level) {
    if (next_candidate_ < num_candidates_) {
      *file = candidates_[next_candidate_++];
      *level = 0;
      return true;
    }
    while (next_level_ < config::kNumLevels) {
      const int l = next_level_++;
      const std::vector<FileMetaData*>& files = version_.files_[l];
      const size_t index = static_cast<size_t>(
          FindFile(version_.vset_->icmp_, files, internal_key_));
      if (index < files.size() &&
          ucmp_->Compare(user_key_, files[index]->smallest.user_key()) >= 0) {
        *file = files[index];
        *level = l;
        return true;
      }
    }
    return false;
  }

 private:
  static constexpr size_t kInlineCandidates = 32;

  const Version& version_;
  const Comparator* const ucmp_;
  const Slice user_key_;
  const Slice internal_key_;
  FileMetaData* inline_candidates_[kInlineCandidates];
  std::vector<FileMetaData*> spilled_;
  FileMetaData** candidates_ = inline_candidates_;
  size_t num_candidates_ = 0;
  size_t next_candidate_ = 0;
  int next_level_ = 1;
};

namespace {

// The table layer reads entry types with the DB's encoding.
static_assert(KeyLookup::kValueType == kTypeValue &&
                  KeyLookup::kDeletionType == kTypeDeletion &&
                  KeyLookup::kTagSize == 8,
              "KeyLookup must decode internal keys as dbformat.h encodes them");

// One table probed by a Get.
struct ProbedFile {
  FileMetaData* file = nullptr;
  int level = -1;
  bool wasted_read = false;  // read a data block but found no entry
};

// Seek accounting. A seek is charged, once per Get, to the first probed
// file that cost a data-block read for nothing, when the Get then has to
// go on to another file: compacting that file into the next level would
// have saved the read. Probes a filter answered without I/O cost nothing
// and are never charged. (LevelDB 1.23 charged the first probed file
// whenever a second one was probed, even after a filter rejection, so
// lookups of absent keys made good filters trigger needless compactions.)
// Called before each probe with the probe just before it.
void ChargeSeekBeforeNextProbe(const ProbedFile& previous,
                               Version::GetStats* stats) {
  if (stats->seek_file == nullptr && previous.wasted_read) {
    stats->seek_file = previous.file;
    stats->seek_file_level = previous.level;
  }
}

}  // namespace

Status Version::Get(const ReadOptions& options, const LookupKey& k,
                    std::string* value, GetStats* stats, uint64_t key_hash,
                    IoStats* io_stats) {
  stats->seek_file = nullptr;
  stats->seek_file_level = -1;

  KeyLookup lookup(vset_->icmp_.user_comparator(), k.internal_key(), key_hash,
                   value, io_stats);
  OverlappingFiles files(*this, k.user_key(), k.internal_key());
  ProbedFile previous;
  FileMetaData* f;
  int level;
  while (files.Next(&f, &level)) {
    ChargeSeekBeforeNextProbe(previous, stats);
    if (io_stats != nullptr) IoStats::Add(&io_stats->table_probes);
    Status s =
        vset_->table_cache_->Get(options, f->number, f->file_size, &lookup);
    if (!s.ok()) return s;
    switch (lookup.outcome()) {
      case KeyLookup::Outcome::kNotFound:
        break;  // keep looking in older files
      case KeyLookup::Outcome::kFound:
        return s;
      case KeyLookup::Outcome::kDeleted:
        return Status::NotFound(Slice());
      case KeyLookup::Outcome::kCorrupt:
        return Status::Corruption("corrupted key for ", k.user_key());
    }
    previous = ProbedFile{f, level, lookup.WastedRead()};
  }
  return Status::NotFound(Slice());
}

bool Version::UpdateStats(const GetStats& stats) {
  FileMetaData* f = stats.seek_file;
  if (f == nullptr) return false;
  --f->allowed_seeks;
  if (f->allowed_seeks <= 0 && file_to_compact_ == nullptr) {
    file_to_compact_ = f;
    file_to_compact_level_ = stats.seek_file_level;
    return true;
  }
  return false;
}

bool Version::RecordReadSample(Slice internal_key) {
  ParsedInternalKey parsed;
  if (!ParseInternalKey(internal_key, &parsed)) return false;

  // A key found in several files is what a Get would pay extra seeks for;
  // the first of them is charged. Two are enough to decide.
  OverlappingFiles files(*this, parsed.user_key, internal_key);
  GetStats first;
  if (!files.Next(&first.seek_file, &first.seek_file_level)) return false;
  FileMetaData* second_file;
  int second_level;
  if (!files.Next(&second_file, &second_level)) return false;
  return UpdateStats(first);
}

void Version::Ref() { ++refs_; }

void Version::Unref() {
  assert(this != &vset_->dummy_versions_);
  assert(refs_ >= 1);
  if (--refs_ == 0) delete this;
}

bool Version::OverlapInLevel(int level, const Slice* smallest_user_key,
                             const Slice* largest_user_key) {
  return SomeFileOverlapsRange(vset_->icmp_, level > 0, files_[level],
                               smallest_user_key, largest_user_key);
}

int Version::PickLevelForMemTableOutput(const Slice& smallest_user_key,
                                        const Slice& largest_user_key) {
  if (OverlapInLevel(0, &smallest_user_key, &largest_user_key)) return 0;

  // Push the new file down while the next level has nothing in its range
  // and it would not overlap too much of the level after that.
  const InternalKey range_begin(smallest_user_key, kMaxSequenceNumber,
                                kValueTypeForSeek);
  const InternalKey range_end(largest_user_key, 0, kTypeDeletion);
  const int64_t overlap_limit = MaxGrandParentOverlapBytes(vset_->options_);
  int level = 0;
  while (level < config::kMaxMemCompactLevel) {
    if (OverlapInLevel(level + 1, &smallest_user_key, &largest_user_key)) {
      break;
    }
    if (level + 2 < config::kNumLevels) {
      std::vector<FileMetaData*> below;
      GetOverlappingInputs(level + 2, &range_begin, &range_end, &below);
      if (TotalFileSize(below) > overlap_limit) break;
    }
    ++level;
  }
  return level;
}

void Version::GetOverlappingInputs(int level, const InternalKey* begin,
                                   const InternalKey* end,
                                   std::vector<FileMetaData*>* inputs) {
  assert(level >= 0 && level < config::kNumLevels);
  inputs->clear();
  const Comparator* ucmp = vset_->icmp_.user_comparator();
  Slice lo;
  Slice hi;
  if (begin != nullptr) lo = begin->user_key();
  if (end != nullptr) hi = end->user_key();

  const std::vector<FileMetaData*>& files = files_[level];
  size_t i = 0;
  while (i < files.size()) {
    FileMetaData* f = files[i++];
    const Slice f_lo = f->smallest.user_key();
    const Slice f_hi = f->largest.user_key();
    if ((begin != nullptr && ucmp->Compare(f_hi, lo) < 0) ||
        (end != nullptr && ucmp->Compare(f_lo, hi) > 0)) {
      continue;  // entirely outside the range
    }
    inputs->push_back(f);
    if (level != 0) continue;

    // Level-0 files overlap each other: if this one widens the range,
    // start over with the wider range so overlapping files are all found.
    bool widened = false;
    if (begin != nullptr && ucmp->Compare(f_lo, lo) < 0) {
      lo = f_lo;
      widened = true;
    }
    if (end != nullptr && ucmp->Compare(f_hi, hi) > 0) {
      hi = f_hi;
      widened = true;
    }
    if (widened) {
      inputs->clear();
      i = 0;
    }
  }
}

std::string Version::DebugString() const {
  std::string out;
  for (int level = 0; level < config::kNumLevels; ++level) {
    out.append("--- level ");
    AppendDecimal(&out, level);
    out.append(" ---\n");
    for (const FileMetaData* f : files_[level]) {
      out.push_back(' ');
      AppendDecimal(&out, f->number);
      out.push_back(':');
      AppendDecimal(&out, f->file_size);
      out.push_back('[');
      out.append(f->smallest.DebugString());
      out.append(" .. ");
      out.append(f->largest.DebugString());
      out.append("]\n");
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// VersionSet::Builder: applies a sequence of edits to a base Version
// without materialising the intermediate Versions.

class VersionSet::Builder {
 public:
  Builder(VersionSet* vset, Version* base) : vset_(vset), base_(base) {
    base_->Ref();
    for (LevelDelta& d : levels_) {
      d.added = AddedFiles(OrderBySmallest{&vset_->icmp_});
    }
  }

  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  ~Builder() {
    for (LevelDelta& d : levels_) {
      // Copy first: deleting a file would break the set's ordering.
      std::vector<FileMetaData*> owned(d.added.begin(), d.added.end());
      d.added.clear();
      for (FileMetaData* f : owned) {
        if (--f->refs <= 0) delete f;
      }
    }
    base_->Unref();
  }

  void Apply(const VersionEdit& edit) {
    for (const auto& [level, key] : edit.compact_pointers_) {
      vset_->compact_pointer_[level] = key.Encode().ToString();
    }
    for (const auto& [level, number] : edit.deleted_files_) {
      levels_[level].removed.insert(number);
    }
    for (const auto& [level, meta] : edit.new_files_) {
      FileMetaData* f = new FileMetaData(meta);
      f->refs = 1;
      f->allowed_seeks = AllowedSeeksForSize(f->file_size);
      // A file removed and re-added (e.g. a trivial move) stays live.
      levels_[level].removed.erase(f->number);
      levels_[level].added.insert(f);
      // The same file moved to another level keeps its hotness.
      if (f->hotness == nullptr) f->hotness = PreviousHotness(edit, f->number);
      added_by_number_[f->number] = f;
    }
    for (const auto& [number, hotness] : edit.file_hotness_) {
      latest_hotness_[number] = hotness;
      auto added = added_by_number_.find(number);
      if (added != added_by_number_.end()) {
        added->second->hotness = hotness;  // not shared with any Version yet
      } else {
        hotness_updates_[number] = hotness;
      }
    }
  }

  // Fills the empty Version v with base + edits. Fails if a sorted level
  // would end up with overlapping files (only possible with a corrupt
  // MANIFEST).
  Status SaveTo(Version* v) {
    const InternalKeyComparator& icmp = vset_->icmp_;
    for (int level = 0; level < config::kNumLevels; ++level) {
      const std::vector<FileMetaData*>& old_files = base_->files_[level];
      const AddedFiles& added = levels_[level].added;
      std::vector<FileMetaData*>* out = &v->files_[level];
      out->reserve(old_files.size() + added.size());

      // Merge the two sorted sequences.
      auto old_it = old_files.begin();
      for (FileMetaData* f : added) {
        while (old_it != old_files.end() &&
               OrderBySmallest{&icmp}(*old_it, f)) {
          KeepIfLive(level, *old_it++, out);
        }
        KeepIfLive(level, f, out);
      }
      while (old_it != old_files.end()) KeepIfLive(level, *old_it++, out);

      if (level > 0) {
        for (size_t i = 1; i < out->size(); ++i) {
          if (icmp.Compare((*out)[i - 1]->largest, (*out)[i]->smallest) >= 0) {
            std::string msg = "level ";
            AppendDecimal(&msg, level);
            msg.append(" files ");
            AppendDecimal(&msg, (*out)[i - 1]->number);
            msg.append(" and ");
            AppendDecimal(&msg, (*out)[i]->number);
            return Status::Corruption("overlapping tables in a sorted level",
                                      msg);
          }
        }
      }
    }
    return Status::OK();
  }

 private:
  struct OrderBySmallest {
    const InternalKeyComparator* icmp;
    bool operator()(const FileMetaData* a, const FileMetaData* b) const {
      const int c = icmp->Compare(a->smallest, b->smallest);
      return c != 0 ? c < 0 : a->number < b->number;
    }
  };
  using AddedFiles = std::set<FileMetaData*, OrderBySmallest>;

  struct LevelDelta {
    std::set<uint64_t> removed;
    AddedFiles added;
  };

  // The hotness file `number` had before `edit` re-adds it: recorded by an
  // earlier edit of this builder, or held in the base version at a level
  // the edit removes it from.
  HotnessPtr PreviousHotness(const VersionEdit& edit, uint64_t number) const {
    auto latest = latest_hotness_.find(number);
    if (latest != latest_hotness_.end()) return latest->second;
    for (const auto& [level, removed] : edit.deleted_files_) {
      if (removed != number) continue;
      for (const FileMetaData* f : base_->files_[level]) {
        if (f->number == number) return f->hotness;
      }
    }
    return nullptr;
  }

  void KeepIfLive(int level, FileMetaData* f, std::vector<FileMetaData*>* out) {
    if (levels_[level].removed.count(f->number) != 0) return;
    auto update = hotness_updates_.find(f->number);
    if (update != hotness_updates_.end() && update->second != f->hotness) {
      // f is shared with older Versions and read by them: the new Version
      // gets its own copy with the newer hotness.
      FileMetaData* copy = new FileMetaData(*f);
      copy->refs = 1;
      copy->hotness = update->second;
      out->push_back(copy);
      return;
    }
    ++f->refs;
    out->push_back(f);
  }

  VersionSet* const vset_;
  Version* const base_;
  LevelDelta levels_[config::kNumLevels];
  // ElasticBF hotness records: the newest per file; files this builder
  // added (owned by it until SaveTo); and records for files of base_.
  std::map<uint64_t, HotnessPtr> latest_hotness_;
  std::map<uint64_t, FileMetaData*> added_by_number_;
  std::map<uint64_t, HotnessPtr> hotness_updates_;
};

// ---------------------------------------------------------------------------
// VersionSet

namespace {

// Hotness is kept (recorded, restored, inherited) when the DB runs
// ElasticBF with inherit_hotness on.
bool KeepsHotness(const TableCache* table_cache, const MQSchedule* elastic) {
  if (elastic == nullptr) return false;
  const ElasticFilterPolicy* policy = table_cache->filter_setup().elastic;
  return policy != nullptr && policy->options().inherit_hotness;
}

}  // namespace

VersionSet::VersionSet(const std::string& dbname, const Options* options,
                       TableCache* table_cache,
                       const InternalKeyComparator* cmp, MQSchedule* elastic)
    : env_(options->env),
      dbname_(dbname),
      options_(options),
      table_cache_(table_cache),
      elastic_(elastic),
      keeps_hotness_(KeepsHotness(table_cache, elastic)),
      icmp_(*cmp),
      next_file_number_(2),
      manifest_file_number_(0),  // chosen by Recover
      last_sequence_(0),
      log_number_(0),
      prev_log_number_(0),
      descriptor_file_(nullptr),
      descriptor_log_(nullptr),
      dummy_versions_(this),
      current_(nullptr) {
  AppendVersion(new Version(this));
  ReportLiveFiles(*current_);
}

VersionSet::~VersionSet() {
  current_->Unref();
  assert(dummy_versions_.next_ == &dummy_versions_);  // all versions gone
  delete descriptor_log_;
  delete descriptor_file_;
}

void VersionSet::AppendVersion(Version* v) {
  assert(v->refs_ == 0 && v != current_);
  if (current_ != nullptr) current_->Unref();
  current_ = v;
  v->Ref();

  // Newest versions go at the tail of the circular list.
  v->next_ = &dummy_versions_;
  v->prev_ = dummy_versions_.prev_;
  v->prev_->next_ = v;
  dummy_versions_.prev_ = v;
}

void VersionSet::ReportLiveFiles(const Version& v) const {
  if (elastic_ == nullptr) return;
  // Every live file, not only the edit's: O(files) per installed version,
  // and cheap for files whose level did not change or that are already
  // known. Recorded hotness seeds files not opened yet.
  std::vector<MQSchedule::FileReport> files;
  for (int level = 0; level < config::kNumLevels; ++level) {
    for (const FileMetaData* f : v.files_[level]) {
      files.push_back(MQSchedule::FileReport{
          f->number, level, keeps_hotness_ ? f->hotness.get() : nullptr,
          f->file_size});
    }
  }
  elastic_->ReportFiles(files);
}

Status VersionSet::LogAndApply(VersionEdit* edit, port::Mutex* mu) {
  // A new MANIFEST is numbered before next_file_number_ is recorded.
  uint64_t new_manifest_number = 0;
  if (descriptor_log_ == nullptr) {
    new_manifest_number =
        new_manifest_number_ ? NewFileNumber() : manifest_file_number_;
  }
  if (edit->has_log_number_) {
    assert(edit->log_number_ >= log_number_);
    assert(edit->log_number_ < next_file_number_);
  } else {
    edit->SetLogNumber(log_number_);
  }
  if (!edit->has_prev_log_number_) edit->SetPrevLogNumber(prev_log_number_);
  edit->SetNextFile(next_file_number_);
  edit->SetLastSequence(last_sequence_);

  Version* v = new Version(this);
  Status s;
  {
    Builder builder(this, current_);
    builder.Apply(*edit);
    s = builder.SaveTo(v);
  }
  if (!s.ok()) {
    delete v;
    return s;
  }
  Finalize(v);

  // The first edit after opening, or after a failed append, starts a new
  // MANIFEST holding the full state. Rare, so holding the mutex costs
  // little. One started on request (StartNewManifest) holds the state
  // after the edit in a single record, so it is no larger than it must be.
  std::string new_manifest;
  std::string record;
  const bool fold = descriptor_log_ == nullptr && fold_next_edit_;
  if (descriptor_log_ == nullptr) {
    new_manifest = DescriptorFileName(dbname_, new_manifest_number);
    s = env_->NewWritableFile(new_manifest, &descriptor_file_);
    if (s.ok()) {
      descriptor_log_ = new log::Writer(descriptor_file_);
      if (fold) {
        EncodeSnapshot(*v, edit, &record);
      } else {
        s = WriteSnapshot(descriptor_log_);
      }
    }
  }

  // The append and sync are slow: let other threads in meanwhile. Only the
  // compaction thread and the writer holding the DB's write queue call
  // LogAndApply, never at the same time, so the MANIFEST is not shared.
  mu->Unlock();
  if (s.ok()) {
    if (!fold) edit->EncodeTo(&record);
    s = descriptor_log_->AddRecord(record);
    if (s.ok()) s = descriptor_file_->Sync();
    if (!s.ok()) {
      Log(options_->info_log, "MANIFEST write: %s\n", s.ToString().c_str());
    }
  }
  if (s.ok() && !new_manifest.empty()) {
    s = SetCurrentFile(env_, dbname_, new_manifest_number);
  }
  mu->Lock();

  if (!s.ok()) {
    delete v;
    CloseDescriptor();
    if (new_manifest.empty()) {
      // The append may have left a torn record, after which a reader would
      // take any later record for corruption: never append here again.
      new_manifest_number_ = true;
      Log(options_->info_log,
          "MANIFEST-%06" PRIu64 " is not appended to again\n",
          manifest_file_number_);
    } else {
      env_->RemoveFile(new_manifest);  // CURRENT still names the old one
    }
    return s;
  }
  if (!new_manifest.empty()) {
    manifest_file_number_ = new_manifest_number;
    new_manifest_number_ = false;
    fold_next_edit_ = false;
  }
  AppendVersion(v);
  ReportLiveFiles(*v);
  log_number_ = edit->log_number_;
  prev_log_number_ = edit->prev_log_number_;
  if (edit->has_elastic_clock_) {
    elastic_clock_ = std::max(elastic_clock_, edit->elastic_clock_);
  }
  return s;
}

Status VersionSet::Recover(bool* save_manifest) {
  std::string current;
  Status s = ReadFileToString(env_, CurrentFileName(dbname_), &current);
  if (!s.ok()) return s;
  if (current.empty() || current.back() != '\n') {
    return Status::Corruption("CURRENT file does not end with newline");
  }
  current.pop_back();

  const std::string dscname = dbname_ + "/" + current;
  SequentialFile* raw_file = nullptr;
  s = env_->NewSequentialFile(dscname, &raw_file);
  if (!s.ok()) {
    if (s.IsNotFound()) {
      return Status::Corruption("CURRENT points to a non-existent file",
                                s.ToString());
    }
    return s;
  }
  std::unique_ptr<SequentialFile> file(raw_file);

  // Totals over the whole MANIFEST; later records override earlier ones.
  VersionEdit totals;
  uint64_t clock = 0;
  Builder builder(this, current_);
  int records = 0;
  uint64_t end_of_records = 0;
  {
    ManifestErrorCollector reporter(&s);
    log::Reader reader(file.get(), &reporter, /*checksum=*/true,
                       /*initial_offset=*/0);
    Slice record;
    std::string scratch;
    while (s.ok() && reader.ReadRecord(&record, &scratch) && s.ok()) {
      ++records;
      VersionEdit edit;
      s = edit.DecodeFrom(record);
      if (s.ok() && edit.has_comparator_ &&
          edit.comparator_ != icmp_.user_comparator()->Name()) {
        s = Status::InvalidArgument(
            edit.comparator_ + " does not match existing comparator ",
            icmp_.user_comparator()->Name());
      }
      if (!s.ok()) break;
      builder.Apply(edit);
      if (edit.has_log_number_) totals.SetLogNumber(edit.log_number_);
      if (edit.has_prev_log_number_) {
        totals.SetPrevLogNumber(edit.prev_log_number_);
      }
      if (edit.has_next_file_number_)
        totals.SetNextFile(edit.next_file_number_);
      if (edit.has_last_sequence_) totals.SetLastSequence(edit.last_sequence_);
      // The logical clock goes on from the latest time recorded anywhere.
      if (edit.has_elastic_clock_) {
        clock = std::max(clock, edit.elastic_clock_);
      }
      for (const auto& [number, hotness] : edit.file_hotness_) {
        for (const MultiQueue::Hotness& h : hotness->segments) {
          clock = std::max(clock, h.last_access);
        }
      }
    }
    end_of_records = reader.EndOfLastRecord();
  }
  file.reset();

  if (s.ok()) {
    if (!totals.has_next_file_number_) {
      s = Status::Corruption("no meta-nextfile entry in descriptor");
    } else if (!totals.has_log_number_) {
      s = Status::Corruption("no meta-lognumber entry in descriptor");
    } else if (!totals.has_last_sequence_) {
      s = Status::Corruption("no last-sequence-number entry in descriptor");
    }
  }

  Version* v = nullptr;
  if (s.ok()) {
    v = new Version(this);
    s = builder.SaveTo(v);
    if (!s.ok()) {
      delete v;
      v = nullptr;
    }
  }
  if (!s.ok()) {
    Log(options_->info_log, "Error recovering version set with %d records: %s",
        records, s.ToString().c_str());
    return s;
  }

  const uint64_t prev_log =
      totals.has_prev_log_number_ ? totals.prev_log_number_ : 0;
  Finalize(v);
  AppendVersion(v);
  ReportLiveFiles(*v);
  manifest_file_number_ = totals.next_file_number_;
  next_file_number_ = totals.next_file_number_ + 1;
  last_sequence_ = totals.last_sequence_;
  log_number_ = totals.log_number_;
  prev_log_number_ = prev_log;
  MarkFileNumberUsed(prev_log);
  MarkFileNumberUsed(totals.log_number_);
  elastic_clock_ = clock;
  if (keeps_hotness_) elastic_->layer()->RestoreClock(clock);

  *save_manifest = !ReuseManifest(dscname, current, end_of_records);
  return Status::OK();
}

void VersionSet::StartNewManifest() {
  CloseDescriptor();
  new_manifest_number_ = true;
  fold_next_edit_ = true;
}

void VersionSet::CloseDescriptor() {
  delete descriptor_log_;
  delete descriptor_file_;
  descriptor_log_ = nullptr;
  descriptor_file_ = nullptr;
}

bool VersionSet::ReuseManifest(const std::string& dscname,
                               const std::string& dscbase,
                               uint64_t end_of_records) {
  if (!options_->reuse_logs) return false;
  uint64_t number = 0;
  FileType type;
  uint64_t size = 0;
  if (!ParseFileName(dscbase, &number, &type) || type != kDescriptorFile ||
      !env_->GetFileSize(dscname, &size).ok() ||
      size >= TargetFileSize(options_)) {
    // A large MANIFEST is rewritten so that it does not grow forever.
    return false;
  }
  if (!log::Reader::AppendableAt(end_of_records, size)) {
    // A torn last record: edits appended after it would be lost with it.
    Log(options_->info_log, "Not reusing MANIFEST %s: torn tail\n",
        dscname.c_str());
    return false;
  }

  assert(descriptor_file_ == nullptr && descriptor_log_ == nullptr);
  Status s = env_->NewAppendableFile(dscname, &descriptor_file_);
  if (!s.ok()) {
    Log(options_->info_log, "Reuse MANIFEST: %s\n", s.ToString().c_str());
    delete descriptor_file_;
    descriptor_file_ = nullptr;
    return false;
  }
  Log(options_->info_log, "Reusing MANIFEST %s\n", dscname.c_str());
  descriptor_log_ = new log::Writer(descriptor_file_, size);
  manifest_file_number_ = number;
  return true;
}

void VersionSet::MarkFileNumberUsed(uint64_t number) {
  if (next_file_number_ <= number) next_file_number_ = number + 1;
}

void VersionSet::SetLastSequence(uint64_t s) {
  assert(s >= last_sequence_);
  last_sequence_ = s;
}

void VersionSet::Finalize(Version* v) {
  int best_level = -1;
  double best_score = -1;
  // The last level has nowhere to compact to.
  for (int level = 0; level < config::kNumLevels - 1; ++level) {
    double score;
    if (level == 0) {
      // Counted in files: every L0 file costs a probe on each read, and
      // with small write buffers byte totals would trigger far too often.
      score = static_cast<double>(v->files_[0].size()) /
              config::kL0_CompactionTrigger;
    } else {
      score = static_cast<double>(TotalFileSize(v->files_[level])) /
              MaxBytesForLevel(level);
    }
    if (score > best_score) {
      best_score = score;
      best_level = level;
    }
  }
  v->compaction_level_ = best_level;
  v->compaction_score_ = best_score;
}

Status VersionSet::WriteSnapshot(log::Writer* log) {
  std::string record;
  EncodeSnapshot(*current_, nullptr, &record);
  return log->AddRecord(record);
}

void VersionSet::EncodeSnapshot(const Version& v, const VersionEdit* edit,
                                std::string* record) const {
  VersionEdit snapshot;
  snapshot.SetComparatorName(icmp_.user_comparator()->Name());
  for (int level = 0; level < config::kNumLevels; ++level) {
    if (!compact_pointer_[level].empty()) {
      InternalKey key;
      key.DecodeFrom(compact_pointer_[level]);
      snapshot.SetCompactPointer(level, key);
    }
  }
  for (int level = 0; level < config::kNumLevels; ++level) {
    for (const FileMetaData* f : v.files_[level]) {
      snapshot.AddFile(level, f->number, f->file_size, f->smallest, f->largest);
      if (keeps_hotness_) snapshot.SetFileHotness(f->number, f->hotness);
    }
  }
  uint64_t clock = elastic_clock_;
  if (edit != nullptr) {
    // LogAndApply has filled in every counter of the edit.
    snapshot.SetLogNumber(edit->log_number_);
    snapshot.SetPrevLogNumber(edit->prev_log_number_);
    snapshot.SetNextFile(edit->next_file_number_);
    snapshot.SetLastSequence(edit->last_sequence_);
    if (edit->has_elastic_clock_) clock = std::max(clock, edit->elastic_clock_);
  }
  if (keeps_hotness_ && clock > 0) snapshot.SetElasticClock(clock);
  snapshot.EncodeTo(record);
}

int VersionSet::NumLevelFiles(int level) const {
  assert(level >= 0 && level < config::kNumLevels);
  return current_->NumFiles(level);
}

int64_t VersionSet::NumLevelBytes(int level) const {
  assert(level >= 0 && level < config::kNumLevels);
  return TotalFileSize(current_->files_[level]);
}

const char* VersionSet::LevelSummary(LevelSummaryStorage* scratch) const {
  static_assert(config::kNumLevels == 7, "LevelSummary prints 7 levels");
  std::snprintf(scratch->buffer, sizeof(scratch->buffer),
                "files[ %d %d %d %d %d %d %d ]", NumLevelFiles(0),
                NumLevelFiles(1), NumLevelFiles(2), NumLevelFiles(3),
                NumLevelFiles(4), NumLevelFiles(5), NumLevelFiles(6));
  return scratch->buffer;
}

uint64_t VersionSet::ApproximateOffsetOf(Version* v, const InternalKey& key) {
  uint64_t offset = 0;
  for (int level = 0; level < config::kNumLevels; ++level) {
    for (const FileMetaData* f : v->files_[level]) {
      if (icmp_.Compare(f->largest, key) <= 0) {
        offset += f->file_size;  // the whole file precedes key
      } else if (icmp_.Compare(f->smallest, key) > 0) {
        // The whole file follows key; in a sorted level so do the rest.
        if (level > 0) break;
      } else {
        Table* table = nullptr;
        std::unique_ptr<Iterator> pin(table_cache_->NewIterator(
            ReadOptions(), f->number, f->file_size, &table));
        if (table != nullptr)
          offset += table->ApproximateOffsetOf(key.Encode());
      }
    }
  }
  return offset;
}

void VersionSet::AddLiveFiles(std::set<uint64_t>* live) {
  for (Version* v = dummy_versions_.next_; v != &dummy_versions_;
       v = v->next_) {
    for (const std::vector<FileMetaData*>& files : v->files_) {
      for (const FileMetaData* f : files) live->insert(f->number);
    }
  }
}

int64_t VersionSet::MaxNextLevelOverlappingBytes() {
  int64_t worst = 0;
  std::vector<FileMetaData*> overlaps;
  for (int level = 1; level < config::kNumLevels - 1; ++level) {
    for (FileMetaData* f : current_->files_[level]) {
      current_->GetOverlappingInputs(level + 1, &f->smallest, &f->largest,
                                     &overlaps);
      worst = std::max(worst, TotalFileSize(overlaps));
    }
  }
  return worst;
}

void VersionSet::GetRange(const std::vector<FileMetaData*>& inputs,
                          InternalKey* smallest, InternalKey* largest) {
  assert(!inputs.empty());
  KeyRangeOf(icmp_, inputs, smallest, largest);
}

void VersionSet::GetRange2(const std::vector<FileMetaData*>& inputs1,
                           const std::vector<FileMetaData*>& inputs2,
                           InternalKey* smallest, InternalKey* largest) {
  std::vector<FileMetaData*> all(inputs1);
  all.insert(all.end(), inputs2.begin(), inputs2.end());
  GetRange(all, smallest, largest);
}

Iterator* VersionSet::MakeInputIterator(Compaction* c) {
  ReadOptions options;
  // Always verified: a damaged block must stop the compaction rather than be
  // rewritten into a new table under a fresh, valid checksum.
  options.verify_checksums = true;
  options.fill_cache = false;  // compaction input is read once

  std::vector<Iterator*> children;
  for (int which = 0; which < 2; ++which) {
    const std::vector<FileMetaData*>& files = c->inputs_[which];
    if (files.empty()) continue;
    if (c->level() + which == 0) {
      for (const FileMetaData* f : files) {
        children.push_back(table_cache_->NewScanIterator(
            options, f->number, f->file_size, kCompactionReadahead));
      }
    } else {
      children.push_back(
          NewTwoLevelIterator(new Version::LevelFileNumIterator(icmp_, &files),
                              &ScanTableForFileEntry, table_cache_, options));
    }
  }
  return NewMergingIterator(&icmp_, children.data(),
                            static_cast<int>(children.size()));
}

Compaction* VersionSet::PickCompaction() {
  Version* base = current_;
  Compaction* c;
  if (base->compaction_score_ >= 1) {
    // Too much data in a level: take the file after the level's compaction
    // pointer, wrapping around, so successive compactions sweep the range.
    const int level = base->compaction_level_;
    assert(level >= 0 && level + 1 < config::kNumLevels);
    c = new Compaction(options_, level);
    const std::string& resume_after = compact_pointer_[level];
    for (FileMetaData* f : base->files_[level]) {
      if (resume_after.empty() ||
          icmp_.Compare(f->largest.Encode(), resume_after) > 0) {
        c->inputs_[0].push_back(f);
        break;
      }
    }
    if (c->inputs_[0].empty()) c->inputs_[0].push_back(base->files_[level][0]);
  } else if (base->file_to_compact_ != nullptr) {
    c = new Compaction(options_, base->file_to_compact_level_);
    c->inputs_[0].push_back(base->file_to_compact_);
  } else {
    return nullptr;
  }

  c->input_version_ = base;
  base->Ref();

  if (c->level() == 0) {
    // Newer L0 files may overlap the chosen one; they must move together.
    InternalKey smallest;
    InternalKey largest;
    GetRange(c->inputs_[0], &smallest, &largest);
    base->GetOverlappingInputs(0, &smallest, &largest, &c->inputs_[0]);
  }
  SetupOtherInputs(c);
  return c;
}

void VersionSet::SetupOtherInputs(Compaction* c) {
  const int level = c->level();
  Version* base = current_;
  std::vector<FileMetaData*>& lower = c->inputs_[0];
  std::vector<FileMetaData*>& upper = c->inputs_[1];

  AddBoundaryInputs(icmp_, base->files_[level], &lower);
  InternalKey lower_begin;
  InternalKey lower_end;
  GetRange(lower, &lower_begin, &lower_end);

  base->GetOverlappingInputs(level + 1, &lower_begin, &lower_end, &upper);
  AddBoundaryInputs(icmp_, base->files_[level + 1], &upper);

  InternalKey all_begin;
  InternalKey all_end;
  GetRange2(lower, upper, &all_begin, &all_end);

  // Widen the level-L inputs to everything inside the combined range if
  // that pulls in no extra level-(L+1) file and the total stays bounded.
  if (!upper.empty()) {
    std::vector<FileMetaData*> wider;
    base->GetOverlappingInputs(level, &all_begin, &all_end, &wider);
    AddBoundaryInputs(icmp_, base->files_[level], &wider);
    if (wider.size() > lower.size() &&
        TotalFileSize(upper) + TotalFileSize(wider) <
            ExpandedCompactionByteSizeLimit(options_)) {
      InternalKey wider_begin;
      InternalKey wider_end;
      GetRange(wider, &wider_begin, &wider_end);
      std::vector<FileMetaData*> wider_upper;
      base->GetOverlappingInputs(level + 1, &wider_begin, &wider_end,
                                 &wider_upper);
      AddBoundaryInputs(icmp_, base->files_[level + 1], &wider_upper);
      if (wider_upper.size() == upper.size()) {
        Log(options_->info_log,
            "Expanding@%d %d+%d (%ld+%ld bytes) to %d+%d (%ld+%ld bytes)\n",
            level, static_cast<int>(lower.size()),
            static_cast<int>(upper.size()),
            static_cast<long>(TotalFileSize(lower)),
            static_cast<long>(TotalFileSize(upper)),
            static_cast<int>(wider.size()),
            static_cast<int>(wider_upper.size()),
            static_cast<long>(TotalFileSize(wider)),
            static_cast<long>(TotalFileSize(wider_upper)));
        lower_end = wider_end;
        lower.swap(wider);
        upper.swap(wider_upper);
        GetRange2(lower, upper, &all_begin, &all_end);
      }
    }
  }

  if (level + 2 < config::kNumLevels) {
    base->GetOverlappingInputs(level + 2, &all_begin, &all_end,
                               &c->grandparents_);
  }

  // The next compaction of this level starts after this one's range. It is
  // updated now rather than when the edit is applied so that a failed
  // compaction is not retried on the same range immediately.
  compact_pointer_[level] = lower_end.Encode().ToString();
  c->edit_.SetCompactPointer(level, lower_end);
}

Compaction* VersionSet::CompactRange(int level, const InternalKey* begin,
                                     const InternalKey* end) {
  std::vector<FileMetaData*> inputs;
  current_->GetOverlappingInputs(level, begin, end, &inputs);
  if (inputs.empty()) return nullptr;

  // Above level 0 files are disjoint, so a big range can be done in pieces
  // of about one output file's worth; the caller loops. Level 0 files may
  // overlap and must all go at once.
  if (level > 0) {
    const uint64_t budget = MaxFileSizeForLevel(options_, level);
    uint64_t taken = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      taken += inputs[i]->file_size;
      if (taken >= budget) {
        inputs.resize(i + 1);
        break;
      }
    }
  }

  Compaction* c = new Compaction(options_, level);
  c->input_version_ = current_;
  current_->Ref();
  c->inputs_[0] = std::move(inputs);
  SetupOtherInputs(c);
  return c;
}

// ---------------------------------------------------------------------------
// Compaction

Compaction::Compaction(const Options* options, int level)
    : level_(level),
      max_output_file_size_(MaxFileSizeForLevel(options, level)),
      max_grandparent_overlap_bytes_(MaxGrandParentOverlapBytes(options)),
      input_version_(nullptr),
      grandparent_index_(0),
      seen_key_(false),
      overlapped_bytes_(0) {
  std::fill(std::begin(level_ptrs_), std::end(level_ptrs_), 0);
}

uint64_t Compaction::InputBytes() const {
  return TotalFileSize(inputs_[0]) + TotalFileSize(inputs_[1]);
}

Compaction::~Compaction() {
  if (input_version_ != nullptr) input_version_->Unref();
}

bool Compaction::IsTrivialMove() const {
  // Moving a file that overlaps lots of the grandparent level would make
  // the next compaction of it very expensive; merge it instead.
  return num_input_files(0) == 1 && num_input_files(1) == 0 &&
         TotalFileSize(grandparents_) <= max_grandparent_overlap_bytes_;
}

void Compaction::AddInputDeletions(VersionEdit* edit) {
  for (int which = 0; which < 2; ++which) {
    for (const FileMetaData* f : inputs_[which]) {
      edit->RemoveFile(level_ + which, f->number);
    }
  }
}

bool Compaction::IsBaseLevelForKey(const Slice& user_key) {
  const Comparator* ucmp = input_version_->vset_->icmp_.user_comparator();
  for (int lvl = level_ + 2; lvl < config::kNumLevels; ++lvl) {
    const std::vector<FileMetaData*>& files = input_version_->files_[lvl];
    size_t& cursor = level_ptrs_[lvl];
    // Keys arrive in increasing order, so cursors only move forward.
    while (cursor < files.size() &&
           ucmp->Compare(user_key, files[cursor]->largest.user_key()) > 0) {
      ++cursor;
    }
    if (cursor < files.size() &&
        ucmp->Compare(user_key, files[cursor]->smallest.user_key()) >= 0) {
      return false;  // a deeper file may hold this key
    }
  }
  return true;
}

bool Compaction::ShouldStopBefore(const Slice& internal_key) {
  const InternalKeyComparator& icmp = input_version_->vset_->icmp_;
  // Count the grandparent files the output has moved completely past.
  while (grandparent_index_ < grandparents_.size() &&
         icmp.Compare(internal_key,
                      grandparents_[grandparent_index_]->largest.Encode()) >
             0) {
    if (seen_key_) {
      overlapped_bytes_ +=
          static_cast<int64_t>(grandparents_[grandparent_index_]->file_size);
    }
    ++grandparent_index_;
  }
  seen_key_ = true;
  if (overlapped_bytes_ > max_grandparent_overlap_bytes_) {
    overlapped_bytes_ = 0;  // the next output starts afresh
    return true;
  }
  return false;
}

void Compaction::ReleaseInputs() {
  if (input_version_ != nullptr) {
    input_version_->Unref();
    input_version_ = nullptr;
  }
}

}  // namespace leveldb
