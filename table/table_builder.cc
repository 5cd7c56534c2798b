#include "leveldb/table_builder.h"

#include <memory>
#include <string>

#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "port/port.h"
#include "table/block_builder.h"
#include "table/elastic/filter_group.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "table/table_builder_access.h"
#include "table/table_filter_setup.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

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
                         : new FilterBlockBuilder(filter.policy)) {
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

  if (r->data_block.CurrentSizeEstimate() >= r->options.block_size) Flush();
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

void TableBuilder::WriteBlock(BlockBuilder* block, BlockHandle* handle) {
  Rep* r = rep_;
  const Slice raw = block->Finish();
  Slice contents = raw;
  CompressionType type = kNoCompression;
  if (r->options.compression == kSnappyCompression) {
    std::string* compressed = &r->compressed_output;
    // Compression must save at least 1/8 of the block to be worth decoding.
    if (port::SnappyCompress(raw.data(), raw.size(), compressed) &&
        compressed->size() < raw.size() - raw.size() / 8) {
      contents = Slice(*compressed);
      type = kSnappyCompression;
    }
  }
  WriteRawBlock(contents, type, handle);
  r->compressed_output.clear();
  block->Reset();
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
