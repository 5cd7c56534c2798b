#include "db/version_edit.h"

#include <algorithm>

#include "elastic/multi_queue.h"
#include "util/coding.h"
#include "util/logging.h"

namespace leveldb {

int AllowedSeeksForSize(uint64_t file_size) {
  const uint64_t by_size = file_size / 16384;
  return by_size < 100 ? 100
                       : static_cast<int>(std::min<uint64_t>(by_size, 1 << 30));
}

namespace {

void AppendTag(std::string* dst, EditTag tag) {
  AppendVarint32(dst, static_cast<uint32_t>(tag));
}

// Reads a level number and rejects levels the tree does not have.
bool ConsumeLevel(Slice* input, int* level) {
  uint32_t raw;
  if (!ConsumeVarint32(input, &raw) || raw >= config::kNumLevels) {
    return false;
  }
  *level = static_cast<int>(raw);
  return true;
}

// Reads a length-prefixed internal key; it must hold at least a trailer.
bool ConsumeInternalKey(Slice* input, InternalKey* key) {
  Slice encoded;
  if (!ConsumeLengthPrefixed(input, &encoded) || encoded.size() < 8) {
    return false;
  }
  return key->DecodeFrom(encoded);
}

// Reads a kSegmentHotness payload. Counts are checked against the input
// before anything is allocated for them.
bool ConsumeSegmentHotness(Slice* input, uint64_t* number, HotnessPtr* out) {
  uint32_t count;
  if (!ConsumeVarint64(input, number) || !ConsumeVarint32(input, &count) ||
      count == 0 || count > MultiQueue::kMaxSegmentsPerFile ||
      input->size() / 4 < count) {  // a segment takes at least 4 bytes
    return false;
  }
  auto hotness = std::make_shared<InheritedHotness>();
  hotness->segments.resize(count);
  hotness->units.assign(count, -1);
  bool any_units = false;
  for (uint32_t s = 0; s < count; ++s) {
    MultiQueue::Hotness& h = hotness->segments[s];
    uint32_t units_plus_one;
    if (!ConsumeVarint64(input, &h.absent_probes) ||
        !ConsumeVarint64(input, &h.accesses) ||
        !ConsumeVarint64(input, &h.last_access) ||
        !ConsumeVarint32(input, &units_plus_one) ||
        h.absent_probes > h.accesses ||
        units_plus_one > static_cast<uint32_t>(MultiQueue::kMaxUnits) + 1) {
      return false;
    }
    if (units_plus_one > 0) {
      hotness->units[s] = static_cast<int>(units_plus_one) - 1;
      any_units = true;
    }
  }
  if (!any_units) hotness->units.clear();  // the same as "no targets"
  *out = std::move(hotness);
  return true;
}

void AppendSegmentHotness(std::string* dst, uint64_t number,
                          const InheritedHotness& hotness) {
  AppendTag(dst, EditTag::kSegmentHotness);
  AppendVarint64(dst, number);
  AppendVarint32(dst, static_cast<uint32_t>(hotness.segments.size()));
  for (size_t s = 0; s < hotness.segments.size(); ++s) {
    const MultiQueue::Hotness& h = hotness.segments[s];
    AppendVarint64(dst, h.absent_probes);
    AppendVarint64(dst, h.accesses);
    AppendVarint64(dst, h.last_access);
    const int units = s < hotness.units.size() ? hotness.units[s] : -1;
    AppendVarint32(dst, units < 0 ? 0 : static_cast<uint32_t>(units) + 1);
  }
}

}  // namespace

void VersionEdit::Clear() {
  comparator_.clear();
  log_number_ = 0;
  prev_log_number_ = 0;
  next_file_number_ = 0;
  last_sequence_ = 0;
  has_comparator_ = false;
  has_log_number_ = false;
  has_prev_log_number_ = false;
  has_next_file_number_ = false;
  has_last_sequence_ = false;
  compact_pointers_.clear();
  deleted_files_.clear();
  new_files_.clear();
  ClearElastic();
}

void VersionEdit::ClearElastic() {
  file_hotness_.clear();
  elastic_clock_ = 0;
  has_elastic_clock_ = false;
}

void VersionEdit::SetFileHotness(uint64_t file, HotnessPtr hotness) {
  if (hotness == nullptr || hotness->segments.empty()) return;
  file_hotness_.emplace_back(file, std::move(hotness));
}

void VersionEdit::SetElasticClock(uint64_t clock) {
  has_elastic_clock_ = true;
  elastic_clock_ = clock;
}

void VersionEdit::SetComparatorName(const Slice& name) {
  has_comparator_ = true;
  comparator_ = name.ToString();
}

void VersionEdit::SetLogNumber(uint64_t num) {
  has_log_number_ = true;
  log_number_ = num;
}

void VersionEdit::SetPrevLogNumber(uint64_t num) {
  has_prev_log_number_ = true;
  prev_log_number_ = num;
}

void VersionEdit::SetNextFile(uint64_t num) {
  has_next_file_number_ = true;
  next_file_number_ = num;
}

void VersionEdit::SetLastSequence(SequenceNumber seq) {
  has_last_sequence_ = true;
  last_sequence_ = seq;
}

void VersionEdit::SetCompactPointer(int level, const InternalKey& key) {
  compact_pointers_.emplace_back(level, key);
}

void VersionEdit::AddFile(int level, uint64_t file, uint64_t file_size,
                          const InternalKey& smallest,
                          const InternalKey& largest) {
  FileMetaData meta;
  meta.number = file;
  meta.file_size = file_size;
  meta.smallest = smallest;
  meta.largest = largest;
  new_files_.emplace_back(level, meta);
}

void VersionEdit::RemoveFile(int level, uint64_t file) {
  deleted_files_.emplace(level, file);
}

void VersionEdit::EncodeTo(std::string* dst) const {
  if (has_comparator_) {
    AppendTag(dst, EditTag::kComparator);
    AppendLengthPrefixed(dst, comparator_);
  }
  if (has_log_number_) {
    AppendTag(dst, EditTag::kLogNumber);
    AppendVarint64(dst, log_number_);
  }
  if (has_prev_log_number_) {
    AppendTag(dst, EditTag::kPrevLogNumber);
    AppendVarint64(dst, prev_log_number_);
  }
  if (has_next_file_number_) {
    AppendTag(dst, EditTag::kNextFileNumber);
    AppendVarint64(dst, next_file_number_);
  }
  if (has_last_sequence_) {
    AppendTag(dst, EditTag::kLastSequence);
    AppendVarint64(dst, last_sequence_);
  }
  for (const auto& [level, key] : compact_pointers_) {
    AppendTag(dst, EditTag::kCompactPointer);
    AppendVarint32(dst, static_cast<uint32_t>(level));
    AppendLengthPrefixed(dst, key.Encode());
  }
  for (const auto& [level, number] : deleted_files_) {
    AppendTag(dst, EditTag::kDeletedFile);
    AppendVarint32(dst, static_cast<uint32_t>(level));
    AppendVarint64(dst, number);
  }
  for (const auto& [level, f] : new_files_) {
    AppendTag(dst, EditTag::kNewFile);
    AppendVarint32(dst, static_cast<uint32_t>(level));
    AppendVarint64(dst, f.number);
    AppendVarint64(dst, f.file_size);
    AppendLengthPrefixed(dst, f.smallest.Encode());
    AppendLengthPrefixed(dst, f.largest.Encode());
  }
  for (const auto& [number, hotness] : file_hotness_) {
    AppendSegmentHotness(dst, number, *hotness);
  }
  if (has_elastic_clock_) {
    AppendTag(dst, EditTag::kElasticClock);
    AppendVarint64(dst, elastic_clock_);
  }
}

const char* VersionEdit::DecodeRecord(uint32_t tag, Slice* input) {
  int level = 0;
  uint64_t number = 0;
  switch (static_cast<EditTag>(tag)) {
    case EditTag::kComparator: {
      Slice name;
      if (!ConsumeLengthPrefixed(input, &name)) return "comparator name";
      SetComparatorName(name);
      return nullptr;
    }
    case EditTag::kLogNumber:
      if (!ConsumeVarint64(input, &number)) return "log number";
      SetLogNumber(number);
      return nullptr;
    case EditTag::kPrevLogNumber:
      if (!ConsumeVarint64(input, &number)) return "previous log number";
      SetPrevLogNumber(number);
      return nullptr;
    case EditTag::kNextFileNumber:
      if (!ConsumeVarint64(input, &number)) return "next file number";
      SetNextFile(number);
      return nullptr;
    case EditTag::kLastSequence:
      if (!ConsumeVarint64(input, &number)) return "last sequence number";
      SetLastSequence(number);
      return nullptr;
    case EditTag::kCompactPointer: {
      InternalKey key;
      if (!ConsumeLevel(input, &level) || !ConsumeInternalKey(input, &key)) {
        return "compaction pointer";
      }
      SetCompactPointer(level, key);
      return nullptr;
    }
    case EditTag::kDeletedFile:
      if (!ConsumeLevel(input, &level) || !ConsumeVarint64(input, &number)) {
        return "deleted file";
      }
      RemoveFile(level, number);
      return nullptr;
    case EditTag::kNewFile: {
      FileMetaData f;
      if (!ConsumeLevel(input, &level) || !ConsumeVarint64(input, &f.number) ||
          !ConsumeVarint64(input, &f.file_size) ||
          !ConsumeInternalKey(input, &f.smallest) ||
          !ConsumeInternalKey(input, &f.largest)) {
        return "new-file entry";
      }
      new_files_.emplace_back(level, f);
      return nullptr;
    }
    case EditTag::kSegmentHotness: {
      HotnessPtr hotness;
      if (!ConsumeSegmentHotness(input, &number, &hotness)) {
        return "segment hotness";
      }
      file_hotness_.emplace_back(number, std::move(hotness));
      return nullptr;
    }
    case EditTag::kElasticClock:
      if (!ConsumeVarint64(input, &number)) return "elastic clock";
      SetElasticClock(number);
      return nullptr;
  }
  return "unknown tag";
}

Status VersionEdit::DecodeFrom(const Slice& src) {
  Clear();
  Slice input = src;
  while (!input.empty()) {
    uint32_t tag;
    const char* problem = ConsumeVarint32(&input, &tag)
                              ? DecodeRecord(tag, &input)
                              : "truncated tag";
    if (problem != nullptr) {
      return Status::Corruption("VersionEdit", problem);
    }
  }
  return Status::OK();
}

std::string VersionEdit::DebugString() const {
  std::string out = "VersionEdit {";
  auto add_number = [&out](const char* label, uint64_t v) {
    out.append("\n  ");
    out.append(label);
    out.append(": ");
    AppendDecimal(&out, v);
  };
  if (has_comparator_) {
    out.append("\n  Comparator: ");
    out.append(comparator_);
  }
  if (has_log_number_) add_number("LogNumber", log_number_);
  if (has_prev_log_number_) add_number("PrevLogNumber", prev_log_number_);
  if (has_next_file_number_) add_number("NextFile", next_file_number_);
  if (has_last_sequence_) add_number("LastSeq", last_sequence_);
  for (const auto& [level, key] : compact_pointers_) {
    add_number("CompactPointer", level);
    out.append(" ");
    out.append(key.DebugString());
  }
  for (const auto& [level, number] : deleted_files_) {
    add_number("RemoveFile", level);
    out.append(" ");
    AppendDecimal(&out, number);
  }
  for (const auto& [level, f] : new_files_) {
    add_number("AddFile", level);
    out.append(" ");
    AppendDecimal(&out, f.number);
    out.append(" ");
    AppendDecimal(&out, f.file_size);
    out.append(" ");
    out.append(f.smallest.DebugString());
    out.append(" .. ");
    out.append(f.largest.DebugString());
  }
  for (const auto& [number, hotness] : file_hotness_) {
    // One "absent/accesses@last_access" (and "xN" units) per segment.
    add_number("SegmentHotness", number);
    out.append(" [");
    for (size_t s = 0; s < hotness->segments.size(); ++s) {
      const MultiQueue::Hotness& h = hotness->segments[s];
      if (s > 0) out.append(" ");
      AppendDecimal(&out, h.absent_probes);
      out.append("/");
      AppendDecimal(&out, h.accesses);
      out.append("@");
      AppendDecimal(&out, h.last_access);
      if (s < hotness->units.size() && hotness->units[s] >= 0) {
        out.append("x");
        AppendDecimal(&out, static_cast<uint64_t>(hotness->units[s]));
      }
    }
    out.append("]");
  }
  if (has_elastic_clock_) add_number("ElasticClock", elastic_clock_);
  out.append("\n}\n");
  return out;
}

}  // namespace leveldb
