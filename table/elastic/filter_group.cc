#include "table/elastic/filter_group.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <utility>

#include "leveldb/env.h"
#include "leveldb/options.h"
#include "table/elastic/elastic_filter_policy.h"
#include "util/coding.h"
#include "util/epoch.h"
#include "util/mutexlock.h"

namespace leveldb {

const char kElasticIndexBlockName[] = "elasticbf.index";

// ---------------------------------------------------------------------------
// ElasticIndex

namespace {

// a + b, false on overflow.
bool AddChecked(uint64_t a, uint64_t b, uint64_t* sum) {
  *sum = a + b;
  return *sum >= a;
}

Status IndexCorruption(const char* why) {
  return Status::Corruption("bad elastic index", why);
}

// Reads the format version and, for version 2, the unit kind. NotSupported
// for a version or kind this build does not know.
Status DecodeVersionAndKind(Slice* in, ElasticUnitKind* kind) {
  uint32_t version;
  if (!ConsumeVarint32(in, &version)) {
    return IndexCorruption("truncated header");
  }
  *kind = ElasticUnitKind::kBloom;
  if (version == kElasticIndexFormatVersion) return Status::OK();
  if (version != kElasticIndexFormatVersionWithKind) {
    return Status::NotSupported("unknown elastic index format version");
  }
  uint32_t code;
  if (!ConsumeVarint32(in, &code)) return IndexCorruption("truncated header");
  if (code != static_cast<uint32_t>(ElasticUnitKind::kBloom) &&
      code != static_cast<uint32_t>(ElasticUnitKind::kRibbon)) {
    return Status::NotSupported("unknown elastic unit kind");
  }
  *kind = static_cast<ElasticUnitKind>(code);
  return Status::OK();
}

}  // namespace

double UnitFalsePositiveRate(ElasticUnitKind kind, int bits_per_unit) {
  if (kind == ElasticUnitKind::kRibbon) return std::ldexp(1.0, -bits_per_unit);
  return FilterGroupTheoreticalFpr(bits_per_unit, 1);
}

ElasticIndex::ElasticIndex(int units_per_segment, int bits_per_unit,
                           std::vector<Segment> segments,
                           std::vector<uint64_t> region_offsets,
                           ElasticUnitKind kind)
    : kind_(kind),
      units_per_segment_(units_per_segment),
      bits_per_unit_(bits_per_unit),
      segments_(std::move(segments)),
      region_offsets_(std::move(region_offsets)) {
  sizes_ok_ = ComputeDerived();
}

bool ElasticIndex::ComputeDerived() {
  first_offsets_.clear();
  first_offsets_.reserve(segments_.size());
  in_region_.assign(1, 0);
  in_region_.reserve(segments_.size() + 1);
  total_keys_ = 0;
  bool ok = true;
  for (const Segment& seg : segments_) {
    first_offsets_.push_back(seg.first_block_offset);
    uint64_t with_trailer, next;
    ok = ok && AddChecked(seg.unit_size, kBlockTrailerSize, &with_trailer) &&
         AddChecked(in_region_.back(), with_trailer, &next) &&
         AddChecked(total_keys_, seg.num_keys, &total_keys_);
    in_region_.push_back(ok ? next : 0);
  }
  return ok;
}

void ElasticIndex::EncodeTo(std::string* dst) const {
  // Bloom tables keep version 1, so they stay readable by older builds.
  if (kind_ == ElasticUnitKind::kBloom) {
    AppendVarint32(dst, kElasticIndexFormatVersion);
  } else {
    AppendVarint32(dst, kElasticIndexFormatVersionWithKind);
    AppendVarint32(dst, static_cast<uint32_t>(kind_));
  }
  AppendVarint32(dst, static_cast<uint32_t>(units_per_segment_));
  AppendVarint32(dst, static_cast<uint32_t>(bits_per_unit_));
  AppendVarint32(dst, static_cast<uint32_t>(kKeyHashVersion));
  AppendVarint32(dst, static_cast<uint32_t>(segments_.size()));
  for (const Segment& seg : segments_) {
    AppendVarint64(dst, seg.first_block_offset);
    AppendVarint64(dst, seg.num_keys);
    AppendVarint64(dst, seg.unit_size);
  }
  for (uint64_t region : region_offsets_) AppendVarint64(dst, region);
}

Status ElasticIndex::Decode(const Slice& contents, uint64_t file_size,
                            ElasticIndex* index) {
  *index = ElasticIndex();
  Slice in = contents;
  ElasticUnitKind kind;
  Status s = DecodeVersionAndKind(&in, &kind);
  if (!s.ok()) return s;
  uint32_t units, bits, hash_version, count;
  if (!ConsumeVarint32(&in, &units) || !ConsumeVarint32(&in, &bits) ||
      !ConsumeVarint32(&in, &hash_version) || !ConsumeVarint32(&in, &count)) {
    return IndexCorruption("truncated header");
  }
  if (hash_version != static_cast<uint32_t>(kKeyHashVersion)) {
    return Status::NotSupported("unknown elastic key hash version");
  }
  if (units < 1 || units > static_cast<uint32_t>(kMaxElasticUnits)) {
    return IndexCorruption("units_per_segment out of range");
  }
  if (bits < 1 || bits > static_cast<uint32_t>(kMaxElasticBitsPerUnit)) {
    return IndexCorruption("bits_per_unit out of range");
  }
  if (count < 1 || count > kMaxElasticSegments) {
    return IndexCorruption("segment count out of range");
  }
  // Every varint takes at least one byte: refuse counts the input cannot
  // hold before allocating for them.
  if (in.size() < 3 * static_cast<uint64_t>(count) + units) {
    return IndexCorruption("segment count exceeds the block");
  }

  std::vector<Segment> segments(count);
  for (Segment& seg : segments) {
    if (!ConsumeVarint64(&in, &seg.first_block_offset) ||
        !ConsumeVarint64(&in, &seg.num_keys) ||
        !ConsumeVarint64(&in, &seg.unit_size)) {
      return IndexCorruption("truncated segment entry");
    }
  }
  std::vector<uint64_t> regions(units);
  for (uint64_t& region : regions) {
    if (!ConsumeVarint64(&in, &region)) {
      return IndexCorruption("truncated region offsets");
    }
  }
  if (!in.empty()) return IndexCorruption("trailing bytes");

  ElasticIndex decoded(static_cast<int>(units), static_cast<int>(bits),
                       std::move(segments), std::move(regions), kind);
  s = decoded.Validate(file_size);
  if (s.ok()) *index = std::move(decoded);
  return s;
}

bool ElasticIndex::UnitSizeFits(const Segment& seg) const {
  if (kind_ == ElasticUnitKind::kRibbon) {
    // A segment over the key limit (one huge data block) has units of the
    // trailer alone, which keep every key.
    return seg.unit_size == kRibbonTrailerSize ||
           RibbonUnitSizeMatches(seg.unit_size, seg.num_keys, bits_per_unit_);
  }
  // Either Bloom encoding (table/elastic/filter_unit.h): tables written
  // before unit sizes rounded down keep their filters.
  return FilterUnitSizeMatches(seg.unit_size, seg.num_keys, bits_per_unit_);
}

Status ElasticIndex::Validate(uint64_t file_size) const {
  if (units_per_segment_ < 1 || units_per_segment_ > kMaxElasticUnits ||
      bits_per_unit_ < 1 || bits_per_unit_ > kMaxElasticBitsPerUnit) {
    return IndexCorruption("bad unit parameters");
  }
  if (segments_.empty() || segments_.size() > kMaxElasticSegments) {
    return IndexCorruption("segment count out of range");
  }
  if (region_offsets_.size() != static_cast<size_t>(units_per_segment_)) {
    return IndexCorruption("wrong number of regions");
  }
  if (segments_[0].first_block_offset != 0) {
    return IndexCorruption("first segment does not start the file");
  }
  for (size_t s = 0; s < segments_.size(); ++s) {
    const Segment& seg = segments_[s];
    if (s > 0 &&
        seg.first_block_offset <= segments_[s - 1].first_block_offset) {
      return IndexCorruption("segment offsets not increasing");
    }
    if (seg.first_block_offset >= file_size) {
      return IndexCorruption("segment starts past the end of the file");
    }
    if (seg.num_keys == 0) return IndexCorruption("empty segment");
    if (seg.unit_size > file_size || !UnitSizeFits(seg)) {
      return IndexCorruption("unit size does not match the key count");
    }
  }
  if (!sizes_ok_) return IndexCorruption("sizes overflow");
  const uint64_t region_bytes = in_region_.back();
  // Units follow every data block, and regions do not overlap.
  uint64_t min_start = segments_.back().first_block_offset + 1;
  for (uint64_t region : region_offsets_) {
    uint64_t end;
    if (region < min_start || !AddChecked(region, region_bytes, &end) ||
        end > file_size) {
      return IndexCorruption("unit region outside the file or overlapping");
    }
    min_start = end;
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// FilterGroupBuilder

struct FilterGroupBuilder::ClosedSegment {
  uint64_t first_block_offset = 0;
  uint64_t num_keys = 0;
  std::vector<uint64_t> hashes;    // freed by the last unit build
  std::vector<std::string> units;  // one per unit index
  std::atomic<int> unbuilt{0};
};

FilterGroupBuilder::FilterGroupBuilder(const ElasticFilterPolicy* policy,
                                       bool strip_internal_suffix,
                                       ThreadPool* pool)
    : policy_(policy),
      strip_internal_suffix_(strip_internal_suffix),
      kind_(policy->options().unit_kind),
      units_per_segment_(policy->options().units_per_segment),
      bits_per_unit_(policy->options().bits_per_unit),
      tasks_(pool) {}

FilterGroupBuilder::~FilterGroupBuilder() { tasks_.Wait(); }

Slice FilterGroupBuilder::UserKey(const Slice& key) const {
  size_t n = key.size();
  if (strip_internal_suffix_ && n >= 8) n -= 8;
  return Slice(key.data(), n);
}

void FilterGroupBuilder::AddKey(const Slice& key) {
  const Slice user_key = UserKey(key);
  const uint64_t h = KeyHash64(user_key.data(), user_key.size());
  if (open_hashes_.empty()) {
    open_range_.first.assign(user_key.data(), user_key.size());
  } else if (open_hashes_.back() == h) {
    // Versions of one user key are adjacent and hash alike; one entry
    // covers them all and keeps the unit (and its FPR) sized by distinct
    // keys.
    return;
  }
  open_hashes_.push_back(h);
}

void FilterGroupBuilder::BlockBoundary(uint64_t next_block_offset,
                                       const Slice& last_key) {
  if (!open_hashes_.empty()) {
    const Slice user_key = UserKey(last_key);
    open_range_.last.assign(user_key.data(), user_key.size());
  }
  const uint64_t data_bytes = next_block_offset > open_first_offset_
                                  ? next_block_offset - open_first_offset_
                                  : 0;
  const uint64_t keys = open_hashes_.size();
  max_block_keys_ = std::max(max_block_keys_, keys - keys_before_block_);
  keys_before_block_ = keys;
  if (keys == 0 ||
      !(policy_->SegmentComplete(keys, data_bytes) || AtRibbonKeyLimit(keys))) {
    return;
  }
  CloseSegment();
  open_first_offset_ = next_block_offset;
  keys_before_block_ = 0;
}

bool FilterGroupBuilder::AtRibbonKeyLimit(uint64_t keys) const {
  return kind_ == ElasticUnitKind::kRibbon &&
         keys + max_block_keys_ > kMaxRibbonSegmentKeys;
}

void FilterGroupBuilder::CloseSegment() {
  auto seg = std::make_unique<ClosedSegment>();
  seg->first_block_offset = open_first_offset_;
  seg->num_keys = open_hashes_.size();
  seg->hashes.swap(open_hashes_);
  seg->units.resize(units_per_segment_);
  seg->unbuilt.store(units_per_segment_, std::memory_order_relaxed);
  ClosedSegment* const target = seg.get();
  closed_.push_back(std::move(seg));
  ranges_.push_back(std::move(open_range_));
  open_range_ = SegmentKeyRange();

  if (kind_ == ElasticUnitKind::kRibbon) {
    SubmitRibbonBuild(target);
  } else {
    SubmitBloomBuilds(target);
  }
}

void FilterGroupBuilder::SubmitBloomBuilds(ClosedSegment* target) {
  const int bits = bits_per_unit_;
  for (int u = 0; u < units_per_segment_; ++u) {
    tasks_.Submit([target, u, bits] {
      BuildFilterUnit(target->hashes.data(), target->hashes.size(), u, bits,
                      &target->units[u]);
      // The last build of the segment no longer needs the hashes.
      if (target->unbuilt.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::vector<uint64_t>().swap(target->hashes);
      }
    });
  }
}

void FilterGroupBuilder::SubmitRibbonBuild(ClosedSegment* target) {
  RibbonShape shape;
  shape.planes_per_unit = bits_per_unit_;
  shape.units = units_per_segment_;
  // All planes are solved together: one task builds every unit.
  tasks_.Submit([target, shape] {
    Status s = BuildRibbonUnits(target->hashes.data(), target->hashes.size(),
                                shape, &target->units);
    if (!s.ok()) {
      // Only a segment over the key limit gets here (one data block held
      // too many keys): units of the trailer alone keep every key.
      for (int u = 0; u < shape.units; ++u) {
        target->units[u].clear();
        RibbonUnitTrailer{shape.planes_per_unit, u, 0, 0}.EncodeTo(
            &target->units[u]);
      }
    }
    std::vector<uint64_t>().swap(target->hashes);
  });
}

Status FilterGroupBuilder::Finish(const RawBlockWriter& write,
                                  BlockHandle* index_handle,
                                  bool* index_written) {
  *index_written = false;
  if (!open_hashes_.empty()) CloseSegment();
  tasks_.Wait();
  if (closed_.empty()) return Status::OK();

  std::vector<ElasticIndex::Segment> segments;
  segments.reserve(closed_.size());
  for (const auto& seg : closed_) {
    ElasticIndex::Segment entry;
    entry.first_block_offset = seg->first_block_offset;
    entry.num_keys = seg->num_keys;
    entry.unit_size = seg->units[0].size();
    segments.push_back(entry);
  }

  std::vector<uint64_t> regions;
  regions.reserve(units_per_segment_);
  for (int u = 0; u < units_per_segment_; ++u) {
    uint64_t expected = 0;
    for (size_t s = 0; s < closed_.size(); ++s) {
      std::string& unit = closed_[s]->units[u];
      BlockHandle handle;
      Status st = write(Slice(unit), &handle);
      if (!st.ok()) return st;
      if (s == 0) {
        regions.push_back(handle.offset());
        expected = handle.offset();
      }
      // The index derives handles from sizes alone, so the writer must
      // have placed the units back to back.
      if (handle.offset() != expected || handle.size() != unit.size()) {
        return Status::Corruption("filter units were not written contiguously");
      }
      expected += unit.size() + kBlockTrailerSize;
      std::string().swap(unit);  // written: free it now
    }
  }

  ElasticIndex index(units_per_segment_, bits_per_unit_, std::move(segments),
                     std::move(regions), kind_);
  std::string encoded;
  index.EncodeTo(&encoded);
  Status st = write(Slice(encoded), index_handle);
  if (st.ok()) *index_written = true;
  return st;
}

// ---------------------------------------------------------------------------
// TableFilterGroups

TableFilterGroups::Snapshot* TableFilterGroups::Snapshot::New(int count) {
  const size_t bytes =
      sizeof(Snapshot) +
      static_cast<size_t>(count) * (sizeof(LoadedUnitView) + sizeof(uint64_t*));
  void* raw = ::operator new(bytes);
  Snapshot* snap = new (raw) Snapshot;
  snap->count = count;
  return snap;
}

void TableFilterGroups::Snapshot::Delete(void* snapshot) {
  ::operator delete(snapshot);
}

namespace {

void DeleteUnitMemory(void* words) { delete[] static_cast<uint64_t*>(words); }

}  // namespace

TableFilterGroups::TableFilterGroups(ElasticIndex index, uint64_t file_size)
    : index_(std::move(index)),
      kind_(index_.unit_kind()),
      file_size_(file_size),
      loaded_(new std::atomic<Snapshot*>[index_.num_segments()]) {
  for (uint32_t s = 0; s < index_.num_segments(); ++s) {
    loaded_[s].store(nullptr, std::memory_order_relaxed);
  }
}

TableFilterGroups::~TableFilterGroups() {
  for (uint32_t s = 0; s < index_.num_segments(); ++s) {
    Snapshot* snap = loaded_[s].load(std::memory_order_relaxed);
    if (snap == nullptr) continue;
    for (int u = 0; u < snap->count; ++u) delete[] snap->memory()[u];
    Snapshot::Delete(snap);
  }
}

uint64_t TableFilterGroups::loaded_bytes() const {
  MutexLock l(&mu_);
  return loaded_bytes_;
}

bool TableFilterGroups::DecodeUnit(const Slice& unit_bytes, int unit,
                                   UnitBuffer* out) const {
  if (kind_ != ElasticUnitKind::kRibbon) {
    return DecodeFilterUnit(unit_bytes, &out->view);
  }
  RibbonUnitView view;
  // The unit must hold the planes its place in the group stands for.
  if (!DecodeRibbonUnit(unit_bytes, &view) ||
      view.planes != index_.bits_per_unit() ||
      view.first_plane != unit * index_.bits_per_unit()) {
    return false;
  }
  out->ribbon_view = view;
  return true;
}

Status TableFilterGroups::VerifyUnit(uint32_t segment, int unit,
                                     const char* raw, UnitBuffer* out) const {
  const size_t n = static_cast<size_t>(index_.segment(segment).unit_size);
  if (static_cast<unsigned char>(raw[n]) != kNoCompression) {
    return Status::Corruption("filter unit has a bad block type");
  }
  if (!BlockChecksumMatches(raw, n)) {
    return Status::Corruption("filter unit checksum mismatch");
  }
  if (out->words == nullptr || out->size != n) {
    out->words.reset(new uint64_t[(n + 7) / 8]);
    out->size = n;
  }
  char* dst = reinterpret_cast<char*>(out->words.get());
  if (dst != raw) std::memcpy(dst, raw, n);
  if (!DecodeUnit(Slice(dst, n), unit, out)) {
    out->words.reset();
    return Status::Corruption("malformed filter unit");
  }
  return Status::OK();
}

Status TableFilterGroups::ReadUnit(RandomAccessFile* file, uint32_t segment,
                                   int unit, UnitBuffer* out) const {
  if (segment >= index_.num_segments() || unit < 0 ||
      unit >= index_.units_per_segment()) {
    return Status::InvalidArgument("no such filter unit");
  }
  const BlockHandle handle = index_.UnitHandle(segment, unit);
  const size_t n = static_cast<size_t>(handle.size());
  const size_t wanted = n + kBlockTrailerSize;
  if (handle.offset() > file_size_ || wanted > file_size_ - handle.offset()) {
    return Status::Corruption("filter unit lies past the end of the table");
  }
  // Read unit and trailer into scratch; VerifyUnit copies the unit into
  // memory of exactly its whole words, the allocation the budget charges.
  std::unique_ptr<char[]> scratch(new char[wanted]);
  out->words.reset();
  out->size = 0;
  Slice result;
  Status s = file->Read(handle.offset(), wanted, &result, scratch.get());
  if (s.ok() && result.size() != wanted) {
    s = Status::Corruption("truncated filter unit read");
  }
  if (s.ok()) s = VerifyUnit(segment, unit, result.data(), out);
  if (!s.ok()) {
    out->words.reset();
    out->size = 0;
  }
  return s;
}

Status TableFilterGroups::ReadUnitRegion(RandomAccessFile* file, int unit,
                                         std::vector<UnitBuffer>* out,
                                         std::vector<Status>* statuses) const {
  const uint32_t count = index_.num_segments();
  out->clear();
  out->resize(count);
  statuses->assign(count, Status::OK());
  if (unit < 0 || unit >= index_.units_per_segment()) {
    Status bad = Status::InvalidArgument("no such filter unit");
    statuses->assign(count, bad);
    return bad;
  }
  const size_t bytes = static_cast<size_t>(index_.region_size());
  const uint64_t start = index_.region_offset(unit);
  if (start > file_size_ || bytes > file_size_ - start) {
    Status bad = Status::Corruption("filter unit region past the end");
    statuses->assign(count, bad);
    return bad;
  }
  std::unique_ptr<char[]> scratch(new char[bytes]);
  Slice region;
  Status s = file->Read(start, bytes, &region, scratch.get());
  if (s.ok() && region.size() != bytes) {
    s = Status::Corruption("truncated filter unit region read");
  }
  if (!s.ok()) {
    statuses->assign(count, s);
    return s;
  }
  for (uint32_t seg = 0; seg < count; ++seg) {
    const char* raw = region.data() + index_.offset_in_region(seg);
    (*statuses)[seg] = VerifyUnit(seg, unit, raw, &(*out)[seg]);
  }
  return Status::OK();
}

bool TableFilterGroups::InstallUnit(uint32_t segment, int unit,
                                    UnitBuffer* buffer, EpochDomain* epoch) {
  MutexLock l(&mu_);
  if (segment >= index_.num_segments() || buffer->words == nullptr) {
    return false;
  }
  Snapshot* old = loaded_[segment].load(std::memory_order_relaxed);
  const int count = old == nullptr ? 0 : old->count;
  if (count != unit || unit >= index_.units_per_segment()) return false;

  Snapshot* next = Snapshot::New(count + 1);
  for (int u = 0; u < count; ++u) {
    next->views()[u] = old->views()[u];
    next->memory()[u] = old->memory()[u];
  }
  if (kind_ == ElasticUnitKind::kRibbon) {
    next->views()[count].ribbon = buffer->ribbon_view;
  } else {
    next->views()[count].bloom = buffer->view;
  }
  next->memory()[count] = buffer->words.release();
  loaded_bytes_ += buffer->size;
  buffer->size = 0;
  loaded_[segment].store(next, std::memory_order_release);
  // The old snapshot's units now belong to `next`; only its header goes.
  if (old != nullptr) epoch->Retire(old, &Snapshot::Delete);
  return true;
}

uint64_t TableFilterGroups::DropUnits(uint32_t segment, int keep,
                                      EpochDomain* epoch) {
  MutexLock l(&mu_);
  if (segment >= index_.num_segments()) return 0;
  Snapshot* old = loaded_[segment].load(std::memory_order_relaxed);
  if (keep < 0) keep = 0;
  if (old == nullptr || old->count <= keep) return 0;

  Snapshot* next = nullptr;
  if (keep > 0) {
    next = Snapshot::New(keep);
    for (int u = 0; u < keep; ++u) {
      next->views()[u] = old->views()[u];
      next->memory()[u] = old->memory()[u];
    }
  }
  loaded_[segment].store(next, std::memory_order_release);
  const uint64_t unit_size = index_.segment(segment).unit_size;
  const uint64_t released =
      static_cast<uint64_t>(old->count - keep) * unit_size;
  for (int u = keep; u < old->count; ++u) {
    epoch->Retire(old->memory()[u], &DeleteUnitMemory);
  }
  epoch->Retire(old, &Snapshot::Delete);
  loaded_bytes_ -= released;
  return released;
}

uint64_t TableFilterGroups::DropAll(EpochDomain* epoch) {
  uint64_t released = 0;
  for (uint32_t s = 0; s < index_.num_segments(); ++s) {
    released += DropUnits(s, 0, epoch);
  }
  return released;
}

}  // namespace leveldb
