#include "leveldb/table.h"

#include <atomic>
#include <cassert>
#include <string>
#include <utility>

#include "db/dbformat.h"
#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "table/block.h"
#include "table/filter_block.h"
#include "table/filter_group.h"
#include "table/format.h"
#include "table/read_context.h"
#include "table/two_level_iterator.h"
#include "util/coding.h"
#include "util/elastic_filter_policy.h"
#include "util/epoch.h"
#include "util/hash64.h"
#include "util/io_stats.h"
#include "util/mq_schedule.h"
#include "util/no_destructor.h"

namespace leveldb {

struct Table::Rep {
  ~Rep() {
    delete filter;
    delete[] filter_data;
    delete groups;
    delete index_block;
  }

  Options options;
  RandomAccessFile* file = nullptr;
  uint64_t file_size = 0;
  uint64_t cache_id = 0;
  FilterBlockReader* filter = nullptr;
  // The policy `filter` probes with: the configured one, or the built-in
  // Bloom filter for tables written by stock LevelDB.
  const FilterPolicy* filter_reader_policy = nullptr;
  const char* filter_data = nullptr;  // owned copy of the filter, if any
  BlockHandle metaindex_handle;       // for ApproximateOffsetOf
  Block* index_block = nullptr;

  // ElasticBF: the table's filter groups (null for other tables), and
  // whether lookup keys carry an 8-byte internal suffix to strip before
  // hashing.
  TableFilterGroups* groups = nullptr;
  bool elastic_strips_suffix = false;
  // Set once by AttachElastic; file_number is written before mqs is
  // published, and read only after mqs was seen non-null.
  std::atomic<bool> attach_claimed{false};
  std::atomic<MQSchedule*> mqs{nullptr};
  uint64_t file_number = 0;
};

namespace {

// Blocks named by the footer or the metaindex are read once per open, so
// they are always checksummed: a damaged index or filter could otherwise
// hide keys that are present.
ReadOptions MetadataReadOptions() {
  ReadOptions read_options;
  read_options.verify_checksums = true;
  return read_options;
}

// True if the block and its trailer lie inside the first file_size bytes.
bool HandleFits(const BlockHandle& handle, uint64_t file_size) {
  return handle.offset() <= file_size &&
         handle.size() <= file_size - handle.offset() &&
         kBlockTrailerSize <= file_size - handle.offset() - handle.size();
}

Status ReadBlockChecked(RandomAccessFile* file, uint64_t file_size,
                        const ReadOptions& options, const BlockHandle& handle,
                        BlockContents* contents) {
  if (!HandleFits(handle, file_size)) {
    return Status::Corruption("block handle points past the end of the table");
  }
  return ReadBlock(file, options, handle, contents);
}

void DeleteBlock(void* arg, void*) { delete reinterpret_cast<Block*>(arg); }

void DeleteCachedBlock(const Slice&, void* value) {
  delete reinterpret_cast<Block*>(value);
}

void ReleaseCachedBlock(void* cache, void* handle) {
  reinterpret_cast<Cache*>(cache)->Release(
      reinterpret_cast<Cache::Handle*>(handle));
}

// Reads stock LevelDB's "filter.leveldb.BuiltinBloomFilter2" blocks. The
// probe count comes from each filter, so bits_per_key does not matter here.
const FilterPolicy* BuiltinBloom() {
  static const FilterPolicy* const policy = NewBloomFilterPolicy(10);
  return policy;
}

// The same for lookups with internal keys (the Bloom filter holds user
// keys).
const FilterPolicy* InternalBuiltinBloom() {
  static NoDestructor<InternalFilterPolicy> policy(BuiltinBloom());
  return policy.get();
}

constexpr char kBuiltinBloomName[] = "leveldb.BuiltinBloomFilter2";

// A data block ready for reading. Either the caller owns `block` (when
// cache_handle is null) or it must release cache_handle.
struct LoadedBlock {
  Block* block = nullptr;
  Cache::Handle* cache_handle = nullptr;
};

}  // namespace

Status Table::Open(const Options& options, RandomAccessFile* file,
                   uint64_t size, Table** table) {
  *table = nullptr;
  if (size < Footer::kEncodedLength) {
    return Status::Corruption("file is too short to be an sstable");
  }

  char footer_space[Footer::kEncodedLength];
  Slice footer_input;
  Status s = file->Read(size - Footer::kEncodedLength, Footer::kEncodedLength,
                        &footer_input, footer_space);
  if (!s.ok()) return s;
  if (footer_input.size() != Footer::kEncodedLength) {
    return Status::Corruption("truncated sstable footer read");
  }
  Footer footer;
  s = footer.DecodeFrom(&footer_input);
  if (!s.ok()) return s;

  BlockContents index_contents;
  s = ReadBlockChecked(file, size, MetadataReadOptions(), footer.index_handle(),
                       &index_contents);
  if (!s.ok()) return s;
  Block* index_block = new Block(index_contents);
  if (!index_block->ok()) {
    delete index_block;
    return Status::Corruption("bad sstable index block");
  }

  Rep* rep = new Table::Rep;
  rep->options = options;
  rep->file = file;
  rep->file_size = size;
  rep->metaindex_handle = footer.metaindex_handle();
  rep->index_block = index_block;
  rep->cache_id =
      (options.block_cache != nullptr) ? options.block_cache->NewId() : 0;
  *table = new Table(rep);
  (*table)->ReadMeta(footer);
  return Status::OK();
}

void Table::ReadMeta(const Footer& footer) {
  // Without a policy there is nothing to look for. Problems with the
  // metaindex only cost the filter, never the table.
  const FilterPolicy* policy = rep_->options.filter_policy;
  if (policy == nullptr) return;

  BlockContents contents;
  if (!ReadBlockChecked(rep_->file, rep_->file_size, MetadataReadOptions(),
                        footer.metaindex_handle(), &contents)
           .ok()) {
    return;
  }
  Block metaindex(contents);
  BlockIterator iter(BytewiseComparator(), &metaindex);
  auto find = [&iter](const std::string& name) {
    iter.Seek(Slice(name));
    return iter.Valid() && iter.key() == Slice(name);
  };

  bool strips_suffix = false;
  if (AsElasticPolicy(policy, &strips_suffix) != nullptr &&
      find(kElasticIndexBlockName)) {
    rep_->elastic_strips_suffix = strips_suffix;
    ReadElasticIndex(iter.value());
    if (rep_->groups != nullptr) return;
  }

  const std::string own_name = std::string("filter.") + policy->Name();
  if (find(own_name)) {
    rep_->filter_reader_policy = policy;
    ReadFilter(iter.value());
    return;
  }
  // Tables written by stock LevelDB keep their Bloom filters under any
  // other configured policy, until compaction rewrites them.
  if (find(std::string("filter.") + kBuiltinBloomName)) {
    const bool internal_keys =
        dynamic_cast<const InternalFilterPolicy*>(policy) != nullptr;
    rep_->filter_reader_policy =
        internal_keys ? InternalBuiltinBloom() : BuiltinBloom();
    ReadFilter(iter.value());
  }
}

void Table::ReadFilter(const Slice& filter_handle_value) {
  Slice input = filter_handle_value;
  BlockHandle handle;
  if (!handle.DecodeFrom(&input).ok()) return;

  BlockContents contents;
  if (!ReadBlockChecked(rep_->file, rep_->file_size, MetadataReadOptions(),
                        handle, &contents)
           .ok()) {
    return;
  }
  if (contents.heap_allocated) rep_->filter_data = contents.data.data();
  rep_->filter =
      new FilterBlockReader(rep_->filter_reader_policy, contents.data);
}

void Table::ReadElasticIndex(const Slice& index_handle_value) {
  Slice input = index_handle_value;
  BlockHandle handle;
  Status s = handle.DecodeFrom(&input);
  BlockContents contents;
  if (s.ok()) {
    s = ReadBlockChecked(rep_->file, rep_->file_size, MetadataReadOptions(),
                         handle, &contents);
  }
  ElasticIndex index;
  if (s.ok()) {
    s = ElasticIndex::Decode(contents.data, rep_->file_size, &index);
    if (contents.heap_allocated) delete[] contents.data.data();
  }
  if (!s.ok()) {
    // Filters only save reads: the table stays fully readable without.
    Log(rep_->options.info_log,
        "ElasticBF: ignoring the filter groups of a table: %s",
        s.ToString().c_str());
    return;
  }
  rep_->groups =
      new TableFilterGroups(std::move(index), rep_->file, rep_->file_size);
  s = rep_->groups->BuildLocator(rep_->options.comparator, rep_->index_block);
  if (!s.ok()) {
    // Lookups then find segments through the index, as reads would.
    Log(rep_->options.info_log,
        "ElasticBF: locating segments through the index: %s",
        s.ToString().c_str());
  }
}

Status Table::AttachElastic(MQSchedule* mqs, uint64_t file_number,
                            const InheritedHotness* inherited) {
  Rep* r = rep_;
  if (mqs == nullptr || r->groups == nullptr) return Status::OK();
  if (r->attach_claimed.exchange(true, std::memory_order_acq_rel)) {
    return Status::InvalidArgument("table is already attached to ElasticBF");
  }
  r->file_number = file_number;
  r->mqs.store(mqs, std::memory_order_release);
  const ElasticFilterPolicy* elastic =
      AsElasticPolicy(r->options.filter_policy, nullptr);
  const int initial = elastic == nullptr ? 0 : elastic->options().initial_units;
  return mqs->AttachTable(file_number, r->groups, inherited, initial);
}

Status Table::ElasticSegmentBounds(std::vector<std::string>* bounds) const {
  bounds->clear();
  const TableFilterGroups* groups = rep_->groups;
  if (groups == nullptr) return Status::OK();
  if (!groups->locator().usable()) {
    return Status::Corruption("unreadable table index");
  }
  groups->locator().LastKeys(bounds);
  return Status::OK();
}

Table::~Table() {
  // Units must be unpublished before the file and the groups go away.
  MQSchedule* mqs = rep_->mqs.load(std::memory_order_acquire);
  if (mqs != nullptr) mqs->DetachTable(rep_->file_number, rep_->groups);
  delete rep_;
}

namespace {

// Reads the data block named by an encoded handle, going through the block
// cache when there is one.
Status LoadDataBlock(const Options& table_options, RandomAccessFile* file,
                     uint64_t file_size, uint64_t cache_id,
                     const ReadOptions& options, const Slice& handle_value,
                     LoadedBlock* loaded, bool* from_cache = nullptr) {
  Slice input = handle_value;
  BlockHandle handle;
  Status s = handle.DecodeFrom(&input);
  if (!s.ok()) return s;

  Cache* cache = table_options.block_cache;
  BlockContents contents;
  if (cache == nullptr) {
    s = ReadBlockChecked(file, file_size, options, handle, &contents);
    if (s.ok()) loaded->block = new Block(contents);
    return s;
  }

  // Keys are unique per open table (cache_id) and block (offset).
  char key_bytes[16];
  StoreFixed64(key_bytes, cache_id);
  StoreFixed64(key_bytes + 8, handle.offset());
  const Slice key(key_bytes, sizeof(key_bytes));
  loaded->cache_handle = cache->Lookup(key);
  if (loaded->cache_handle != nullptr) {
    loaded->block =
        reinterpret_cast<Block*>(cache->Value(loaded->cache_handle));
    if (from_cache != nullptr) *from_cache = true;
    return s;
  }
  s = ReadBlockChecked(file, file_size, options, handle, &contents);
  if (!s.ok()) return s;
  loaded->block = new Block(contents);
  if (contents.cachable && options.fill_cache) {
    loaded->cache_handle = cache->Insert(
        key, loaded->block, loaded->block->size(), &DeleteCachedBlock);
  }
  return s;
}

void ReleaseLoadedBlock(Cache* cache, const LoadedBlock& loaded) {
  if (loaded.cache_handle != nullptr) {
    cache->Release(loaded.cache_handle);
  } else {
    delete loaded.block;
  }
}

}  // namespace

Iterator* Table::BlockReader(void* arg, const ReadOptions& options,
                             const Slice& index_value) {
  const Table* table = reinterpret_cast<const Table*>(arg);
  const Rep* rep = table->rep_;
  LoadedBlock loaded;
  Status s = LoadDataBlock(rep->options, rep->file, rep->file_size,
                           rep->cache_id, options, index_value, &loaded);
  if (!s.ok()) return NewErrorIterator(s);

  Iterator* iter = loaded.block->NewIterator(rep->options.comparator);
  if (loaded.cache_handle == nullptr) {
    iter->RegisterCleanup(&DeleteBlock, loaded.block, nullptr);
  } else {
    iter->RegisterCleanup(&ReleaseCachedBlock, rep->options.block_cache,
                          loaded.cache_handle);
  }
  return iter;
}

Iterator* Table::NewIterator(const ReadOptions& options) const {
  return NewTwoLevelIterator(
      rep_->index_block->NewIterator(rep_->options.comparator),
      &Table::BlockReader, const_cast<Table*>(this), options);
}

Status Table::InternalGet(const ReadOptions& options, const Slice& key,
                          void* arg,
                          void (*handle_result)(void*, const Slice&,
                                                const Slice&)) {
  return InternalGet(options, key, arg, handle_result, nullptr);
}

namespace {

void Count(IoStats* stats, std::atomic<uint64_t> IoStats::*counter) {
  if (stats != nullptr) IoStats::Add(&(stats->*counter));
}

}  // namespace

Status Table::InternalGet(const ReadOptions& options, const Slice& key,
                          void* arg,
                          void (*handle_result)(void*, const Slice&,
                                                const Slice&),
                          TableReadContext* ctx) {
  const Rep* rep = rep_;
  IoStats* const stats = ctx == nullptr ? nullptr : ctx->stats;
  if (ctx != nullptr) ctx->ResetProbe();

  bool consulted = false;
  bool may_match = true;
  MQSchedule* mqs = rep->groups == nullptr
                        ? nullptr
                        : rep->mqs.load(std::memory_order_acquire);
  MultiQueue::SegmentId segment_id = 0;
  // Probes the loaded units of one segment and names it for the MultiQueue.
  auto probe_units = [&](uint32_t segment) {
    segment_id = MultiQueue::MakeSegmentId(rep->file_number, segment);
    uint64_t key_hash;
    if (ctx != nullptr && ctx->has_key_hash) {
      key_hash = ctx->key_hash;
    } else {
      size_t n = key.size();
      if (rep->elastic_strips_suffix && n >= 8) n -= 8;
      key_hash = KeyHash64(key.data(), n);
    }
    if (ctx != nullptr) {
      // The caller holds an EpochGuard for the whole Get.
      may_match = rep->groups->MayMatch(segment, key_hash, &consulted);
    } else {
      EpochGuard guard(mqs->epoch());
      may_match = rep->groups->MayMatch(segment, key_hash, &consulted);
    }
  };
  // Counts the filter's verdict; true if it proves the key absent.
  auto ruled_out = [&]() {
    if (consulted) {
      if (ctx != nullptr) ctx->consulted_filter = true;
      Count(stats, &IoStats::filter_checks);
    }
    if (may_match) return false;
    if (ctx != nullptr) ctx->filter_rejected = true;
    Count(stats, &IoStats::filter_rejections);
    if (mqs != nullptr) mqs->RecordAccess(segment_id, /*absent=*/true);
    return true;
  };

  // The locator names the segment without the index, so a table whose
  // units rule the key out costs no index seek.
  const bool units_first = mqs != nullptr && rep->groups->locator().usable();
  uint32_t located = 0;
  if (units_first) {
    if (!rep->groups->locator().Find(key, &located))
      return Status::OK();  // past the end
    probe_units(located);
    if (ruled_out()) return Status::OK();
  }

  // Both iterators live on the stack: a lookup allocates only what reading
  // the data block itself needs.
  BlockIterator index_iter(rep->options.comparator, rep->index_block);
  index_iter.Seek(key);
  if (!index_iter.Valid()) return index_iter.status();

  const Slice handle_value = index_iter.value();
  Slice handle_input = handle_value;
  BlockHandle handle;
  const bool handle_ok = handle.DecodeFrom(&handle_input).ok();
  if (units_first) {
    assert(!handle_ok || rep->groups->SegmentOf(handle.offset()) == located);
  } else {
    if (mqs != nullptr && handle_ok) {
      probe_units(rep->groups->SegmentOf(handle.offset()));
    } else if (mqs != nullptr) {
      mqs = nullptr;  // nothing to record without a segment
    } else if (rep->filter != nullptr && handle_ok) {
      consulted = true;
      may_match = rep->filter->KeyMayMatch(handle.offset(), key);
    }
    if (ruled_out()) return Status::OK();
  }

  LoadedBlock loaded;
  bool from_cache = false;
  Status s =
      LoadDataBlock(rep->options, rep->file, rep->file_size, rep->cache_id,
                    options, handle_value, &loaded, &from_cache);
  if (!s.ok()) return s;
  if (ctx != nullptr) ctx->read_data_block = true;
  Count(stats, &IoStats::data_block_reads);
  if (from_cache) Count(stats, &IoStats::data_block_cache_hits);
  {
    BlockIterator block_iter(rep->options.comparator, loaded.block);
    block_iter.Seek(key);
    if (block_iter.Valid()) {
      (*handle_result)(arg, block_iter.key(), block_iter.value());
    }
    s = block_iter.status();
  }
  ReleaseLoadedBlock(rep->options.block_cache, loaded);

  // Only the caller's handler can tell whether the key was there.
  if (ctx != nullptr) {
    if (!ctx->key_matched) {
      Count(stats, consulted ? &IoStats::false_positives
                             : &IoStats::unfiltered_misses);
    }
    if (mqs != nullptr) mqs->RecordAccess(segment_id, !ctx->key_matched);
  }
  return s;
}

uint64_t Table::ApproximateOffsetOf(const Slice& key) const {
  BlockIterator index_iter(rep_->options.comparator, rep_->index_block);
  index_iter.Seek(key);
  if (index_iter.Valid()) {
    Slice input = index_iter.value();
    BlockHandle handle;
    if (handle.DecodeFrom(&input).ok()) return handle.offset();
  }
  // Past the last key (or an unreadable index entry): the data ends where
  // the metaindex begins.
  return rep_->metaindex_handle.offset();
}

}  // namespace leveldb
