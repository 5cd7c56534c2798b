// Filter groups: the on-disk layout of ElasticBF filters in a table, and the
// in-memory state of an open table's loaded filter units.
//
// A table written with an ElasticFilterPolicy is cut into segments
// (table/elastic/segment.h). Each segment has a filter group of
// units_per_segment filter units of one kind per table: Bloom units
// (table/elastic/filter_unit.h) or Ribbon units (ribbon_unit.h), stored as raw
// meta blocks with the normal 5-byte trailer (type 0, masked CRC32C),
// unit-major: unit 0 of every segment, then unit 1 of every segment, and so on.
// Loading unit 0 of all segments is therefore one sequential read (the "unit-0
// region").
//
// The elastic index block (metaindex key "elasticbf.index", also a raw block
// with trailer) describes them:
//   varint32 format version (1: Bloom units; 2: the kind follows)
//   [version 2 only] varint32 unit kind (0 Bloom, 1 Ribbon)
//   varint32 units_per_segment   in [1, kMaxElasticUnits]
//   varint32 bits_per_unit       in [1, 32] (Ribbon: planes per unit, with
//                                bits_per_unit * units_per_segment <=
//                                kMaxRibbonPlanes)
//   varint32 hash version (kKeyHashVersion)
//   varint32 segment count S     >= 1
//   S x { varint64 first data block offset, varint64 key count,
//         varint64 unit size (without trailer, same for all its units) }
// Bloom tables are written as version 1 (byte for byte what builds before
// Ribbon units wrote), Ribbon tables as version 2 with kind 1. A reader
// that does not know the version or kind ignores the index: the table is
// read without filters.
//   units_per_segment x { varint64 file offset of the unit-u region }
// The handle of unit u of segment s is
//   (region_u + sum over s' < s of (size(s') + 5), size(s)).
// A data block at offset x belongs to the last segment whose first block
// offset is <= x; segment 0 starts at offset 0.
//
// A table without keys has no segments and carries no elastic index at all.
#ifndef STORAGE_LEVELDB_TABLE_ELASTIC_FILTER_GROUP_H_
#define STORAGE_LEVELDB_TABLE_ELASTIC_FILTER_GROUP_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "leveldb/elastic_filter.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "table/elastic/filter_unit.h"
#include "table/elastic/limits.h"
#include "table/elastic/ribbon_unit.h"
#include "table/elastic/segment_key_range.h"
#include "table/elastic/segment_locator.h"
#include "table/format.h"
#include "util/hash64.h"
#include "util/thread_pool.h"

namespace leveldb {

class ElasticFilterPolicy;
class EpochDomain;
class RandomAccessFile;

// Metaindex key of the elastic index block.
extern const char kElasticIndexBlockName[];
// Version 1 implies Bloom units; version 2 records the unit kind.
constexpr uint32_t kElasticIndexFormatVersion = 1;
constexpr uint32_t kElasticIndexFormatVersionWithKind = 2;

// The kind of a table's filter units (the option's values are the kinds'
// codes in the index).
using ElasticUnitKind = ElasticFilterOptions::UnitKind;

// The false-positive rate of one unit of `kind` with bits_per_unit bits
// (Bloom) or planes (Ribbon) per key: 2^-planes for Ribbon (exact), the
// theoretical rate FilterGroupTheoreticalFpr gives for Bloom.
double UnitFalsePositiveRate(ElasticUnitKind kind, int bits_per_unit);

// The decoded elastic index of one table.
class ElasticIndex {
 public:
  struct Segment {
    uint64_t first_block_offset = 0;
    uint64_t num_keys = 0;
    uint64_t unit_size = 0;  // bytes of each unit, without the trailer
  };

  ElasticIndex() = default;

  // Builds an index from known parts (the writer's side). Call Validate()
  // to check it.
  ElasticIndex(int units_per_segment, int bits_per_unit,
               std::vector<Segment> segments,
               std::vector<uint64_t> region_offsets,
               ElasticUnitKind kind = ElasticUnitKind::kBloom);

  void EncodeTo(std::string* dst) const;

  // Parses and validates an encoded index of a table of file_size bytes.
  // On any inconsistency returns Corruption (NotSupported for an unknown
  // format or hash version) and leaves *index empty.
  static Status Decode(const Slice& contents, uint64_t file_size,
                       ElasticIndex* index);

  // Checks everything Decode checks on an index built in memory.
  Status Validate(uint64_t file_size) const;

  ElasticUnitKind unit_kind() const { return kind_; }
  int units_per_segment() const { return units_per_segment_; }
  int bits_per_unit() const { return bits_per_unit_; }
  uint32_t num_segments() const {
    return static_cast<uint32_t>(segments_.size());
  }
  const Segment& segment(uint32_t s) const { return segments_[s]; }
  uint64_t region_offset(int unit) const { return region_offsets_[unit]; }
  // Bytes of one unit region (all segments' unit u, trailers included).
  uint64_t region_size() const { return in_region_.back(); }
  // Distance from the start of a region to segment s's unit.
  uint64_t offset_in_region(uint32_t s) const { return in_region_[s]; }
  uint64_t total_keys() const { return total_keys_; }

  // The segment that holds the data block starting at block_offset.
  // Requires num_segments() > 0.
  uint32_t SegmentOf(uint64_t block_offset) const {
    auto it = std::upper_bound(first_offsets_.begin(), first_offsets_.end(),
                               block_offset);
    return it == first_offsets_.begin()
               ? 0
               : static_cast<uint32_t>(it - first_offsets_.begin() - 1);
  }

  // Where unit `unit` of segment `segment` lives (size without trailer).
  BlockHandle UnitHandle(uint32_t segment, int unit) const {
    return BlockHandle(region_offsets_[unit] + in_region_[segment],
                       segments_[segment].unit_size);
  }

 private:
  // Fills first_offsets_, in_region_ and total_keys_; false on overflow.
  bool ComputeDerived();
  // Whether seg's unit size is one this table's unit kind can have.
  bool UnitSizeFits(const Segment& seg) const;

  ElasticUnitKind kind_ = ElasticUnitKind::kBloom;
  int units_per_segment_ = 0;
  int bits_per_unit_ = 0;
  std::vector<Segment> segments_;
  std::vector<uint64_t> region_offsets_;
  // Derived: first block offsets (dense, for the binary search), prefix sums
  // of (unit size + trailer) with S + 1 entries, and the key total.
  std::vector<uint64_t> first_offsets_;
  std::vector<uint64_t> in_region_{0};
  uint64_t total_keys_ = 0;
  bool sizes_ok_ = true;  // the derived sums did not overflow
};

// Collects the key hashes of a table being written and builds its filter
// groups on a thread pool while the table is still being written. It also
// records each segment's user-key range (for hotness inheritance).
//
// Call order: (AddKey+ BlockBoundary)* Finish: every data block written,
// the last one included, is followed by its BlockBoundary. Not thread-safe
// (it belongs to one TableBuilder); its build tasks run on `pool`.
class FilterGroupBuilder {
 public:
  // Appends one raw block (type 0 trailer) to the table and fills *handle.
  using RawBlockWriter =
      std::function<Status(const Slice& contents, BlockHandle* handle)>;

  // strip_internal_suffix: keys are internal keys whose last 8 bytes are
  // removed before hashing (filters hold user keys).
  FilterGroupBuilder(const ElasticFilterPolicy* policy,
                     bool strip_internal_suffix,
                     ThreadPool* pool = FilterBuildPool());

  FilterGroupBuilder(const FilterGroupBuilder&) = delete;
  FilterGroupBuilder& operator=(const FilterGroupBuilder&) = delete;

  // Waits for build tasks still running.
  ~FilterGroupBuilder();

  // The key goes into the data block being filled.
  void AddKey(const Slice& key);

  // The data block being filled has been written, ending with key
  // `last_key`; the next one will start at next_block_offset. Closes the
  // open segment when it is complete.
  void BlockBoundary(uint64_t next_block_offset, const Slice& last_key);

  // Call once, after the last data block was written: closes the open
  // segment, waits for the builds, then writes every unit (unit-major) and
  // the elastic index through `write`. *index_written is false (and nothing
  // is written) when the table has no keys.
  Status Finish(const RawBlockWriter& write, BlockHandle* index_handle,
                bool* index_written);

  // Segments closed so far.
  uint32_t num_segments() const {
    return static_cast<uint32_t>(closed_.size());
  }

  // The user-key range of every segment closed so far (all of them after
  // Finish), in segment order.
  const std::vector<SegmentKeyRange>& segment_ranges() const { return ranges_; }

 private:
  struct ClosedSegment;

  void CloseSegment();
  // Submits the builds of a closed segment's units.
  void SubmitBloomBuilds(ClosedSegment* target);
  void SubmitRibbonBuild(ClosedSegment* target);
  // True if a Ribbon segment holding `keys` keys must close now.
  bool AtRibbonKeyLimit(uint64_t keys) const;
  // The user key inside `key` (the key itself unless internal keys are
  // stripped).
  Slice UserKey(const Slice& key) const;

  const ElasticFilterPolicy* const policy_;
  const bool strip_internal_suffix_;
  const ElasticUnitKind kind_;
  const int units_per_segment_;
  const int bits_per_unit_;

  uint64_t open_first_offset_ = 0;  // first block of the open segment
  // Keys of the open segment before its last block, and the most keys one
  // block has had: Ribbon segments close before the next block could take
  // them past kMaxRibbonSegmentKeys.
  uint64_t keys_before_block_ = 0;
  uint64_t max_block_keys_ = 0;
  std::vector<uint64_t> open_hashes_;
  SegmentKeyRange open_range_;  // user keys: first, and last block's last

  std::vector<std::unique_ptr<ClosedSegment>> closed_;
  std::vector<SegmentKeyRange> ranges_;  // of closed_, same order
  TaskGroup tasks_;  // declared last: destroyed (waited for) first
};

// The decoded view of one loaded unit; the table's unit kind says which
// member is live.
union LoadedUnitView {
  FilterUnitView bloom{};
  RibbonUnitView ribbon;
};

// One filter unit read from disk and verified, not yet installed.
struct UnitBuffer {
  std::unique_ptr<uint64_t[]> words;  // 8-byte aligned unit bytes
  size_t size = 0;                    // unit bytes (without trailer)
  FilterUnitView view;                // Bloom units
  RibbonUnitView ribbon_view;         // Ribbon units
};

// The runtime filter state of one open elastic table: its index and, per
// segment, an immutable snapshot of the loaded units that readers use
// without locks.
//
// Readers: inside an EpochGuard on the EpochDomain that writers retire into
// (the MQSchedule's), call MayMatch(). Writers (InstallUnit, DropUnits,
// DropAll) are serialized by an internal mutex; they publish a new snapshot
// with a release store and retire the old one (and dropped unit memory) to
// the EpochDomain, so memory is freed only when no reader can see it.
class TableFilterGroups {
 public:
  // The groups of a table of file_size bytes. They hold no file: whoever
  // loads units passes the table's file, so the groups can outlive every
  // open handle of it.
  TableFilterGroups(ElasticIndex index, uint64_t file_size);

  TableFilterGroups(const TableFilterGroups&) = delete;
  TableFilterGroups& operator=(const TableFilterGroups&) = delete;

  // Frees the units still installed. No reader may still use them, i.e. the
  // table is no longer reachable (callers normally DropAll first).
  ~TableFilterGroups();

  const ElasticIndex& index() const { return index_; }

  // Builds the key -> segment map from the table's index block. Call once,
  // before the groups are shared (attached); on failure lookups locate
  // segments through the index instead.
  Status BuildLocator(const Comparator* cmp, Block* index_block) {
    return locator_.Build(cmp, index_block, index_);
  }
  const SegmentLocator& locator() const { return locator_; }
  // Before the groups are shared (see SegmentLocator::UseOrderPrefixes).
  SegmentLocator* mutable_locator() { return &locator_; }
  uint32_t num_segments() const { return index_.num_segments(); }
  int units_per_segment() const { return index_.units_per_segment(); }

  // Probes the loaded units of `segment` (< num_segments()) in order with a
  // key's KeyHash64. Returns false only if a unit rules the key out.
  // *consulted is false when no unit is loaded (the answer is then true).
  // The caller must be inside an EpochGuard of the writers' domain.
  bool MayMatch(uint32_t segment, uint64_t key_hash, bool* consulted) const {
    const Snapshot* snap = loaded_[segment].load(std::memory_order_acquire);
    if (snap == nullptr) {
      *consulted = false;
      return true;
    }
    *consulted = true;
    const LoadedUnitView* views = snap->views();
    // One kind per table: a tight loop per kind, no dispatch per unit.
    if (kind_ == ElasticUnitKind::kRibbon) {
      RibbonKeyProbe probe;  // derived once for all units of the segment
      for (int u = 0; u < snap->count; ++u) {
        if (!RibbonUnitMayMatchWith(views[u].ribbon, key_hash, &probe)) {
          return false;
        }
      }
      return true;
    }
    for (int u = 0; u < snap->count; ++u) {
      if (!FilterUnitViewMayMatchHash(views[u].bloom, UnitHash(key_hash, u))) {
        return false;
      }
    }
    return true;
  }

  // Units currently installed for `segment`.
  int LoadedCount(uint32_t segment) const {
    const Snapshot* snap = loaded_[segment].load(std::memory_order_acquire);
    return snap == nullptr ? 0 : snap->count;
  }

  // Bytes of installed units (index unit sizes), over all segments.
  uint64_t loaded_bytes() const LOCKS_EXCLUDED(mu_);

  // Reads unit `unit` of `segment` from the table's `file` with one read,
  // verifies its CRC (always) and decodes it into aligned memory.
  Status ReadUnit(RandomAccessFile* file, uint32_t segment, int unit,
                  UnitBuffer* out) const;

  // Reads the whole unit-u region with one sequential read and splits it:
  // (*out)[s] and (*statuses)[s] for every segment s. A failed region read
  // fails every segment and is also returned.
  Status ReadUnitRegion(RandomAccessFile* file, int unit,
                        std::vector<UnitBuffer>* out,
                        std::vector<Status>* statuses) const;

  // Installs a verified unit as unit `unit` of `segment`, provided exactly
  // `unit` units are installed now; otherwise returns false and leaves
  // *buffer alone.
  bool InstallUnit(uint32_t segment, int unit, UnitBuffer* buffer,
                   EpochDomain* epoch) LOCKS_EXCLUDED(mu_);

  // Keeps units [0, keep) of `segment`; the others are unpublished and
  // retired. Returns the bytes released.
  uint64_t DropUnits(uint32_t segment, int keep, EpochDomain* epoch)
      LOCKS_EXCLUDED(mu_);

  // Drops every unit of every segment. Returns the bytes released.
  uint64_t DropAll(EpochDomain* epoch) LOCKS_EXCLUDED(mu_);

 private:
  // An immutable set of loaded units: `count` views followed, in the same
  // allocation, by the `count` pointers to the units' memory. The current
  // snapshot of a segment owns that memory; retiring a snapshot frees only
  // the snapshot itself.
  struct Snapshot {
    alignas(8) int count;

    LoadedUnitView* views() {
      return reinterpret_cast<LoadedUnitView*>(this + 1);
    }
    const LoadedUnitView* views() const {
      return reinterpret_cast<const LoadedUnitView*>(this + 1);
    }
    uint64_t** memory() {
      return reinterpret_cast<uint64_t**>(views() + count);
    }

    static Snapshot* New(int count);
    static void Delete(void* snapshot);
  };
  static_assert(sizeof(Snapshot) % alignof(LoadedUnitView) == 0,
                "views follow the header");

  // Checks the trailer of unit `unit` of `segment` at raw[0, size + 5) and
  // decodes it into out's aligned memory (copying unless raw already is
  // that memory).
  Status VerifyUnit(uint32_t segment, int unit, const char* raw,
                    UnitBuffer* out) const;
  // Decodes the unit bytes in `unit_bytes` by the table's unit kind.
  bool DecodeUnit(const Slice& unit_bytes, int unit, UnitBuffer* out) const;

  const ElasticIndex index_;
  const ElasticUnitKind kind_;  // index_.unit_kind(), kept next to loaded_
  SegmentLocator locator_;      // set up before sharing, read-only after
  const uint64_t file_size_;
  const std::unique_ptr<std::atomic<Snapshot*>[]> loaded_;

  mutable port::Mutex mu_;  // serializes writers
  uint64_t loaded_bytes_ GUARDED_BY(mu_) = 0;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_ELASTIC_FILTER_GROUP_H_
