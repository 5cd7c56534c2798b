#include "leveldb/table_builder.h"

#include <algorithm>
#include <memory>
#include <string>

#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "port/port.h"
#include "table/block_alignment.h"
#include "table/block_builder.h"
#include "table/elastic/elastic_filter_policy.h"
#include "table/elastic/filter_group.h"
#include "table/elastic/limits.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "table/table_builder_access.h"
#include "table/table_filter_setup.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

namespace {

// Data blocks are page-aligned only in ElasticBF tables, which have no
// standard filter block: that block maps a data block to its filter by the
// block's offset, which padding before the block would shift.
uint64_t AlignmentOf(const TableFilterSetup& filter) {
  if (filter.elastic == nullptr) return 0;
  const uint64_t a = filter.elastic->options().block_alignment;
  return a >= kMinBlockAlignment && a <= kMaxBlockAlignment ? a : 0;
}

}  // namespace

struct TableBuilder::Rep {
  Rep(const Options& opt, const TableFilterSetup& filter, WritableFile* f)
      : options(opt),
        index_block_options(opt),
        file(f),
        data_block(&options),
        index_block(&index_block_options),
        filter_policy(filter.policy),
        // ElasticBF tables get filter groups instead of a filter block.
        filter_groups(
            filter.elastic == nullptr
                ? nullptr
                : new FilterGroupBuilder(filter.elastic, filter.internal_keys)),
        filter_block(filter.policy == nullptr || filter.elastic != nullptr
                         ? nullptr
                         : new FilterBlockBuilder(filter.policy)),
        alignment(AlignmentOf(filter)) {
    // Index lookups binary-search every entry, so no prefix compression.
    index_block_options.block_restart_interval = 1;
    if (filter_block != nullptr) filter_block->StartBlock(0);
  }

  ~Rep() {
    delete filter_block;
    delete filter_groups;
  }

  Options options;
  Options index_block_options;
  WritableFile* file;
  uint64_t offset = 0;
  Status status;
  BlockBuilder data_block;
  BlockBuilder index_block;
  std::string last_key;
  int64_t num_entries = 0;
  bool closed = false;  // after Finish() or Abandon()
  // The policy the filters are built with (null: no filter). Fixed at
  // construction, like the builders below.
  const FilterPolicy* const filter_policy;
  FilterGroupBuilder* const filter_groups;  // ElasticBF policy only
  FilterBlockBuilder* const filter_block;   // other policies

  // The index entry of a flushed data block is written only once the next
  // key is known, so that its separator can be as short as possible.
  // While pending_index_entry is set, pending_handle locates that block.
  bool pending_index_entry = false;
  BlockHandle pending_handle;

  std::string compressed_output;  // reused scratch

  // Page alignment of data blocks (disabled unless the ElasticBF policy
  // asks for it).
  const BlockAlignment alignment;
  // With alignment and compression: the current data block was last
  // compressed (to learn its on-disk size) at trial_raw bytes, taking
  // trial_disk bytes on disk; 0 and 0 before any trial. disk_ratio is the
  // on-disk share of the last block or trial.
  uint64_t trial_raw = 0;
  uint64_t trial_disk = 0;
  double disk_ratio = 1.0;

  // With alignment: true if adding the entry to the current data block
  // would make it reach into one more page than it may. May compress the
  // block to find out.
  bool EntryWouldCrossPage(const Slice& key, const Slice& value);
  // True if the current data block has reached its size: block_size bytes
  // of raw data, or on disk (as far as known) with alignment.
  bool DataBlockFull() const;
  // About the on-disk size of a full data block.
  uint64_t ExpectedBlockDiskBytes() const;
  // The on-disk size, without trailer, of the current data block with the
  // entry added.
  uint64_t DiskSizeAfterAdding(const Slice& key, const Slice& value);
  // With alignment: writes the padding a data block of `disk_bytes` bytes
  // (trailer included) needs before it.
  void PadBeforeBlock(uint64_t disk_bytes);
};

TableBuilder::TableBuilder(const Options& options, WritableFile* file)
    : rep_(new Rep(options, ResolveTableFilter(options.filter_policy), file)) {}

TableBuilder::~TableBuilder() { delete rep_; }

Status TableBuilder::ChangeOptions(const Options& options) {
  if (options.comparator != rep_->options.comparator) {
    return Status::InvalidArgument(
        "the comparator of a table cannot change while it is being built");
  }
  // The block builders hold pointers to these members, so they see the
  // new settings from their next entry on.
  rep_->options = options;
  rep_->index_block_options = options;
  rep_->index_block_options.block_restart_interval = 1;
  return Status::OK();
}

void TableBuilder::Add(const Slice& key, const Slice& value) {
  Rep* r = rep_;
  if (r->closed || !ok()) return;
  if (r->num_entries > 0 &&
      r->options.comparator->Compare(key, Slice(r->last_key)) <= 0) {
    r->status = Status::InvalidArgument(
        "table keys must be added in strictly increasing order");
    return;
  }
  if (r->alignment.enabled() && r->EntryWouldCrossPage(key, value)) Flush();

  if (r->pending_index_entry) {
    // Any key in [last_key, key) separates the flushed block from the rest.
    r->options.comparator->FindShortestSeparator(&r->last_key, key);
    std::string encoded_handle;
    r->pending_handle.EncodeTo(&encoded_handle);
    r->index_block.Add(Slice(r->last_key), Slice(encoded_handle));
    r->pending_index_entry = false;
  }

  if (r->filter_block != nullptr) r->filter_block->AddKey(key);
  if (r->filter_groups != nullptr) r->filter_groups->AddKey(key);

  r->last_key.assign(key.data(), key.size());
  ++r->num_entries;
  r->data_block.Add(key, value);

  if (r->DataBlockFull()) Flush();
}

void TableBuilder::Flush() {
  Rep* r = rep_;
  if (r->closed || !ok() || r->data_block.empty()) return;
  WriteBlock(&r->data_block, &r->pending_handle);
  if (ok()) {
    r->pending_index_entry = true;
    r->status = r->file->Flush();
  }
  if (r->filter_block != nullptr) r->filter_block->StartBlock(r->offset);
  if (r->filter_groups != nullptr) {
    r->filter_groups->BlockBoundary(r->offset, Slice(r->last_key));
  }
}

namespace {

// The form a data block is stored in: compressed if that saves enough. With
// alignment any saving counts, as it lets a block hold more entries in its
// page; else compression must save at least 1/8 to be worth decoding.
bool UseCompressed(size_t raw, size_t compressed, bool aligned) {
  return aligned ? compressed < raw : compressed < raw - raw / 8;
}

// Bound on the bytes `added` raw bytes can add to a compressed block:
// snappy stores new bytes at worst as literals, with a tag byte per 60.
uint64_t GrowthBound(uint64_t added) {
  return added == 0 ? 0 : added + added / 32 + 8;
}

// The smallest power of two >= n (n >= 1).
uint64_t SizeClass(uint64_t n) {
  uint64_t c = 1;
  while (c < n) c <<= 1;
  return c;
}

}  // namespace

uint64_t TableBuilder::Rep::DiskSizeAfterAdding(const Slice& key,
                                                const Slice& value) {
  std::string raw;
  data_block.FinishedCopyAfterAdding(key, value, &raw);
  std::string* compressed = &compressed_output;
  uint64_t disk = raw.size();
  if (port::SnappyCompress(raw.data(), raw.size(), compressed) &&
      UseCompressed(raw.size(), compressed->size(), true)) {
    disk = compressed->size();
  }
  compressed->clear();
  return disk;
}

bool TableBuilder::Rep::DataBlockFull() const {
  const uint64_t raw = data_block.CurrentSizeEstimate();
  if (!alignment.enabled() || options.compression != kSnappyCompression) {
    return raw >= options.block_size;
  }
  // A block compressed into a page may hold more raw data than
  // block_size, but not more than twice that: every Get that reads it
  // decompresses and searches all of it.
  if (raw >= 2 * options.block_size) return true;
  const double disk = static_cast<double>(raw) * disk_ratio;
  return disk >= static_cast<double>(options.block_size);
}

uint64_t TableBuilder::Rep::ExpectedBlockDiskBytes() const {
  const uint64_t raw = std::max<uint64_t>(options.block_size, 1);
  if (options.compression != kSnappyCompression) return raw;
  const double disk = static_cast<double>(raw) * std::min(1.0, 2 * disk_ratio);
  return std::max<uint64_t>(1, static_cast<uint64_t>(disk));
}

bool TableBuilder::Rep::EntryWouldCrossPage(const Slice& key,
                                            const Slice& value) {
  if (data_block.empty()) return false;
  const BlockAlignment& a = alignment;
  const uint64_t block_size = std::max<uint64_t>(options.block_size, 1);
  // A rest of a page shorter than a quarter of a full block (on disk) is
  // left as padding rather than given a small block.
  const uint64_t min_useful = std::min(ExpectedBlockDiskBytes(), a.page()) / 4;
  const uint64_t max_pages = (block_size + a.page() - 1) / a.page();
  const uint64_t raw_now = data_block.CurrentSizeEstimate();
  const uint64_t raw_after = data_block.SizeEstimateAfterAdding(key, value);
  auto cut = [&](uint64_t now, uint64_t after) {
    now += kBlockTrailerSize;
    const uint64_t start = a.PlannedStart(offset, now, min_useful);
    return a.ShouldCut(start, now, after + kBlockTrailerSize, max_pages);
  };
  if (options.compression != kSnappyCompression) {
    return cut(raw_now, raw_after);
  }
  // Past the last trial (or from 0), bytes count in full. The bound holds
  // only while the block stays in one power-of-two size class: snappy
  // sizes its hash table by the input, and a block that crosses into the
  // next class may compress much worse.
  auto bound = [&](uint64_t raw) {
    return trial_disk + GrowthBound(raw - trial_raw);
  };
  const bool same_class =
      trial_raw == 0 || SizeClass(trial_raw) == SizeClass(raw_after);
  if (same_class && !cut(bound(raw_now), bound(raw_after))) return false;
  const uint64_t disk_after = DiskSizeAfterAdding(key, value);
  if (cut(std::min(bound(raw_now), disk_after), disk_after)) return true;
  trial_raw = raw_after;
  trial_disk = disk_after;
  disk_ratio = static_cast<double>(disk_after) / static_cast<double>(raw_after);
  return false;
}

void TableBuilder::WriteBlock(BlockBuilder* block, BlockHandle* handle) {
  Rep* r = rep_;
  const Slice raw = block->Finish();
  Slice contents = raw;
  CompressionType type = kNoCompression;
  const bool aligned = block == &r->data_block && r->alignment.enabled();
  if (r->options.compression == kSnappyCompression) {
    std::string* compressed = &r->compressed_output;
    if (port::SnappyCompress(raw.data(), raw.size(), compressed) &&
        UseCompressed(raw.size(), compressed->size(), aligned)) {
      contents = Slice(*compressed);
      type = kSnappyCompression;
    }
  }
  if (aligned) {
    r->disk_ratio = static_cast<double>(contents.size()) /
                    static_cast<double>(std::max<size_t>(raw.size(), 1));
    r->trial_raw = 0;
    r->trial_disk = 0;
    // Only an entry larger than a page, or a block whose trial the final
    // compression exceeded, can need this.
    r->PadBeforeBlock(contents.size() + kBlockTrailerSize);
  }
  if (ok()) WriteRawBlock(contents, type, handle);
  r->compressed_output.clear();
  block->Reset();
}

void TableBuilder::Rep::PadBeforeBlock(uint64_t disk_bytes) {
  Rep* r = this;
  const uint64_t padding = r->alignment.PaddingBefore(r->offset, disk_bytes);
  if (padding == 0) return;
  // Nothing points into the gap: readers reach blocks through handles.
  const std::string zeros(static_cast<size_t>(padding), '\0');
  r->status = r->file->Append(Slice(zeros));
  if (r->status.ok()) r->offset += padding;
}

void TableBuilder::WriteRawBlock(const Slice& contents, CompressionType type,
                                 BlockHandle* handle) {
  Rep* r = rep_;
  handle->set_offset(r->offset);
  handle->set_size(contents.size());
  r->status = r->file->Append(contents);
  if (!r->status.ok()) return;

  char trailer[kBlockTrailerSize];
  trailer[0] = static_cast<char>(type);
  // The checksum covers the type byte too.
  uint32_t crc = crc32c::Value(contents.data(), contents.size());
  crc = crc32c::Extend(crc, trailer, 1);
  StoreFixed32(trailer + 1, crc32c::Mask(crc));
  r->status = r->file->Append(Slice(trailer, kBlockTrailerSize));
  if (r->status.ok()) r->offset += contents.size() + kBlockTrailerSize;
}

Status TableBuilder::status() const { return rep_->status; }

Status TableBuilder::Finish() {
  Rep* r = rep_;
  if (r->closed) {
    return Status::InvalidArgument("table builder was already closed");
  }
  Flush();
  r->closed = true;

  BlockHandle filter_handle;
  if (ok() && r->filter_block != nullptr) {
    WriteRawBlock(r->filter_block->Finish(), kNoCompression, &filter_handle);
  }

  BlockHandle elastic_index_handle;
  bool has_elastic_index = false;
  if (ok() && r->filter_groups != nullptr) {
    Status s = r->filter_groups->Finish(
        [this](const Slice& contents, BlockHandle* handle) {
          WriteRawBlock(contents, kNoCompression, handle);
          return status();
        },
        &elastic_index_handle, &has_elastic_index);
    if (r->status.ok()) r->status = s;
  }

  BlockHandle metaindex_handle;
  if (ok()) {
    BlockBuilder metaindex(&r->options);
    if (has_elastic_index) {
      std::string encoded_handle;
      elastic_index_handle.EncodeTo(&encoded_handle);
      metaindex.Add(Slice(kElasticIndexBlockName), Slice(encoded_handle));
    }
    if (r->filter_block != nullptr) {
      std::string name = "filter.";
      name.append(r->filter_policy->Name());
      std::string encoded_handle;
      filter_handle.EncodeTo(&encoded_handle);
      metaindex.Add(Slice(name), Slice(encoded_handle));
    }
    WriteBlock(&metaindex, &metaindex_handle);
  }

  BlockHandle index_handle;
  if (ok()) {
    if (r->pending_index_entry) {
      // Nothing follows the last block, so any key >= last_key will do.
      r->options.comparator->FindShortSuccessor(&r->last_key);
      std::string encoded_handle;
      r->pending_handle.EncodeTo(&encoded_handle);
      r->index_block.Add(Slice(r->last_key), Slice(encoded_handle));
      r->pending_index_entry = false;
    }
    WriteBlock(&r->index_block, &index_handle);
  }

  if (ok()) {
    Footer footer;
    footer.set_metaindex_handle(metaindex_handle);
    footer.set_index_handle(index_handle);
    std::string encoded_footer;
    footer.EncodeTo(&encoded_footer);
    r->status = r->file->Append(Slice(encoded_footer));
    if (r->status.ok()) r->offset += encoded_footer.size();
  }
  return r->status;
}

void TableBuilder::Abandon() { rep_->closed = true; }

uint64_t TableBuilder::NumEntries() const {
  return static_cast<uint64_t>(rep_->num_entries);
}

uint64_t TableBuilder::FileSize() const { return rep_->offset; }

std::unique_ptr<TableBuilder> ElasticTableBuilderAccess::NewBuilder(
    const Options& options, const TableFilterSetup& filter,
    WritableFile* file) {
  // The only constructor resolves the filter from the options' policy.
  // Without a policy there is nothing to resolve; the Rep it made is then
  // replaced by one with the caller's setup.
  Options unfiltered = options;
  unfiltered.filter_policy = nullptr;
  std::unique_ptr<TableBuilder> builder(new TableBuilder(unfiltered, file));
  delete builder->rep_;
  builder->rep_ = new TableBuilder::Rep(options, filter, file);
  return builder;
}

const std::vector<SegmentKeyRange>* ElasticTableBuilderAccess::SegmentRanges(
    const TableBuilder& builder) {
  const FilterGroupBuilder* groups = builder.rep_->filter_groups;
  return groups == nullptr ? nullptr : &groups->segment_ranges();
}

}  // namespace leveldb
