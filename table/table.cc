#include "leveldb/table.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "table/block.h"
#include "table/elastic/filter_group.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "table/key_lookup.h"
#include "table/readahead_file.h"
#include "table/table_filter_setup.h"
#include "table/table_state.h"
#include "table/two_level_iterator.h"
#include "util/builtin_bloom.h"
#include "util/coding.h"

namespace leveldb {

TableState::~TableState() {
  delete filter;
  delete[] filter_data;
  delete index_block;
}

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

}  // namespace

// The end of a table file, read at open with as few reads as possible: the
// footer and, before it, the index and metaindex (and often the filter or
// elastic index just before those).
struct TableTail {
  std::unique_ptr<char[]> bytes;
  uint64_t start = 0;  // file offset of bytes[0]; the span ends at the EOF
  uint64_t file_size = 0;

  bool Holds(const BlockHandle& handle) const {
    return HandleFits(handle, file_size) && handle.offset() >= start;
  }
  const char* At(uint64_t offset) const {
    return bytes.get() + (offset - start);
  }
};

namespace {

// First read at open: the footer and as much before it as the index and
// metaindex usually take (a share of the file size).
uint64_t TailGuess(uint64_t file_size) {
  return std::min(file_size,
                  std::clamp<uint64_t>(file_size / 64, 16 << 10, 1 << 20));
}

// Makes *tail cover [start, EOF): reads only the part it does not cover.
Status ExtendTail(RandomAccessFile* file, uint64_t start, TableTail* tail) {
  const uint64_t old_start =
      tail->bytes == nullptr ? tail->file_size : tail->start;
  if (start >= old_start) return Status::OK();
  const size_t total = static_cast<size_t>(tail->file_size - start);
  const size_t missing = static_cast<size_t>(old_start - start);
  std::unique_ptr<char[]> bytes(new char[total]);
  Slice read;
  Status s = file->Read(start, missing, &read, bytes.get());
  if (!s.ok()) return s;
  if (read.size() != missing) return Status::Corruption("truncated table read");
  if (read.data() != bytes.get())
    std::memcpy(bytes.get(), read.data(), missing);
  if (tail->bytes != nullptr) {
    std::memcpy(bytes.get() + missing, tail->bytes.get(), total - missing);
  }
  tail->bytes = std::move(bytes);
  tail->start = start;
  return Status::OK();
}

// Reads a metadata block (always checksummed), from the tail when it holds
// the block.
Status ReadMetadataBlock(RandomAccessFile* file, uint64_t file_size,
                         const TableTail* tail, const BlockHandle& handle,
                         BlockContents* contents) {
  if (tail != nullptr && tail->Holds(handle)) {
    return ParseBlock(tail->At(handle.offset()),
                      static_cast<size_t>(handle.size()), contents);
  }
  return ReadBlockChecked(file, file_size, MetadataReadOptions(), handle,
                          contents);
}

void DeleteBlock(void* arg, void*) { delete reinterpret_cast<Block*>(arg); }

void DeleteCachedBlock(const Slice&, void* value) {
  delete reinterpret_cast<Block*>(value);
}

void ReleaseCachedBlock(void* cache, void* handle) {
  reinterpret_cast<Cache*>(cache)->Release(
      reinterpret_cast<Cache::Handle*>(handle));
}

// A data block ready for reading. Either the caller owns `block` (when
// cache_handle is null) or it must release cache_handle.
struct LoadedBlock {
  Block* block = nullptr;
  Cache::Handle* cache_handle = nullptr;
};

}  // namespace

namespace {

// Reads the table's filter block, named by an encoded handle, for probing
// with table->filter_reader_policy. Problems cost the filter only.
void ReadFilter(const Slice& filter_handle_value, TableState* table) {
  Slice input = filter_handle_value;
  BlockHandle handle;
  if (!handle.DecodeFrom(&input).ok()) return;

  BlockContents contents;
  if (!ReadMetadataBlock(table->file, table->file_size, table->open_tail,
                         handle, &contents)
           .ok()) {
    return;
  }
  if (contents.heap_allocated) table->filter_data = contents.data.data();
  table->filter =
      new FilterBlockReader(table->filter_reader_policy, contents.data);
}

// ElasticBF: reads the table's elastic index and builds its filter groups
// and segment locator into table->groups. Problems cost the filters only.
void ReadElasticIndex(TableState* table, const Slice& index_handle_value) {
  Slice input = index_handle_value;
  BlockHandle handle;
  Status s = handle.DecodeFrom(&input);
  BlockContents contents;
  if (s.ok()) {
    s = ReadMetadataBlock(table->file, table->file_size, table->open_tail,
                          handle, &contents);
  }
  ElasticIndex index;
  if (s.ok()) {
    s = ElasticIndex::Decode(contents.data, table->file_size, &index);
    if (contents.heap_allocated) delete[] contents.data.data();
  }
  if (!s.ok()) {
    // Filters only save reads: the table stays fully readable without.
    Log(table->options.info_log,
        "ElasticBF: ignoring the filter groups of a table: %s",
        s.ToString().c_str());
    return;
  }
  auto groups =
      std::make_unique<TableFilterGroups>(std::move(index), table->file_size);
  s = groups->BuildLocator(table->options.comparator, table->index_block);
  if (!s.ok()) {
    // Units are useless when no key can be mapped to its segment.
    Log(table->options.info_log,
        "ElasticBF: ignoring the filter groups of a table: %s",
        s.ToString().c_str());
    return;
  }
  table->groups = std::move(groups);
}

// Finds the table's filter through the metaindex: ElasticBF's filter
// groups, else a filter block of the configured policy, else one of stock
// LevelDB's Bloom filter. Problems with the metaindex only cost the
// filter, never the table.
void ReadMeta(const Footer& footer, const TableFilterSetup& filter,
              TableState* table) {
  if (filter.policy == nullptr) return;  // nothing to look for

  BlockContents contents;
  if (!ReadMetadataBlock(table->file, table->file_size, table->open_tail,
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

  if (filter.elastic != nullptr && find(kElasticIndexBlockName)) {
    ReadElasticIndex(table, iter.value());
    if (table->groups != nullptr) return;
  }

  if (find(std::string("filter.") + filter.policy->Name())) {
    table->filter_reader_policy = filter.policy;
    ReadFilter(iter.value(), table);
    return;
  }
  // Tables written by stock LevelDB keep their Bloom filters under any
  // other configured policy, until compaction rewrites them.
  if (find(std::string("filter.") + kBuiltinBloomPolicyName)) {
    table->filter_reader_policy = filter.builtin_bloom;
    ReadFilter(iter.value(), table);
  }
}

}  // namespace

Status OpenTableState(const Options& options, const TableFilterSetup& filter,
                      RandomAccessFile* file, uint64_t size,
                      TableState* table) {
  if (size < Footer::kEncodedLength) {
    return Status::Corruption("file is too short to be an sstable");
  }

  TableTail tail;
  tail.file_size = size;
  Status s = ExtendTail(file, size - TailGuess(size), &tail);
  if (!s.ok()) return s;
  Slice footer_input(tail.At(size - Footer::kEncodedLength),
                     Footer::kEncodedLength);
  Footer footer;
  s = footer.DecodeFrom(&footer_input);
  if (!s.ok()) return s;
  // What the guess missed of the index (and of the metaindex, when a
  // filter may be read) comes in one more read.
  uint64_t wanted = footer.index_handle().offset();
  if (filter.policy != nullptr) {
    wanted = std::min(wanted, footer.metaindex_handle().offset());
  }
  if (HandleFits(footer.index_handle(), size) &&
      HandleFits(footer.metaindex_handle(), size)) {
    s = ExtendTail(file, wanted, &tail);
    if (!s.ok()) return s;
  }

  BlockContents index_contents;
  s = ReadMetadataBlock(file, size, &tail, footer.index_handle(),
                        &index_contents);
  if (!s.ok()) return s;
  std::unique_ptr<Block> index_block(new Block(index_contents));
  if (!index_block->ok()) {
    return Status::Corruption("bad sstable index block");
  }

  table->options = options;
  table->file = file;
  table->file_size = size;
  table->metaindex_handle = footer.metaindex_handle();
  table->index_block = index_block.release();
  table->cache_id =
      (options.block_cache != nullptr) ? options.block_cache->NewId() : 0;
  table->open_tail = &tail;
  ReadMeta(footer, filter, table);
  table->open_tail = nullptr;
  return Status::OK();
}

Status Table::Open(const Options& options, RandomAccessFile* file,
                   uint64_t size, Table** table) {
  *table = nullptr;
  auto rep = std::make_unique<Rep>();
  Status s = OpenTableState(options, ResolveTableFilter(options.filter_policy),
                            file, size, rep.get());
  if (s.ok()) *table = new Table(rep.release());
  return s;
}

Table::~Table() { delete rep_; }

// LevelDB 1.23's header declares these private members; they are defined so
// that the library exports every symbol of its Table class.
void Table::ReadMeta(const Footer& footer) {
  leveldb::ReadMeta(footer, ResolveTableFilter(rep_->options.filter_policy),
                    rep_);
}

void Table::ReadFilter(const Slice& filter_handle_value) {
  leveldb::ReadFilter(filter_handle_value, rep_);
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

// An iterator over the data block that an index entry names, read from
// `file` (the table's own, or a readahead view of it).
Iterator* DataBlockIterator(const TableState& table, RandomAccessFile* file,
                            const ReadOptions& options,
                            const Slice& index_value) {
  LoadedBlock loaded;
  Status s = LoadDataBlock(table.options, file, table.file_size, table.cache_id,
                           options, index_value, &loaded);
  if (!s.ok()) return NewErrorIterator(s);
  Iterator* iter = loaded.block->NewIterator(table.options.comparator);
  if (loaded.cache_handle == nullptr) {
    iter->RegisterCleanup(&DeleteBlock, loaded.block, nullptr);
  } else {
    iter->RegisterCleanup(&ReleaseCachedBlock, table.options.block_cache,
                          loaded.cache_handle);
  }
  return iter;
}

}  // namespace

Iterator* Table::BlockReader(void* arg, const ReadOptions& options,
                             const Slice& index_value) {
  const Rep* rep = reinterpret_cast<const Table*>(arg)->rep_;
  return DataBlockIterator(*rep, rep->file, options, index_value);
}

Iterator* Table::NewIterator(const ReadOptions& options) const {
  return NewTwoLevelIterator(
      rep_->index_block->NewIterator(rep_->options.comparator),
      &Table::BlockReader, const_cast<Table*>(this), options);
}

namespace {

// What a scan iterator reads through: the table and its own window on the
// table's file.
struct TableScan {
  TableScan(const TableState& t, size_t window)
      : table(t), file(t.file, t.file_size, window) {}

  const TableState& table;
  ReadaheadFile file;
};

Iterator* ScanBlockReader(void* arg, const ReadOptions& options,
                          const Slice& index_value) {
  TableScan* scan = static_cast<TableScan*>(arg);
  return DataBlockIterator(scan->table, &scan->file, options, index_value);
}

void DeleteTableScan(void* arg, void*) { delete static_cast<TableScan*>(arg); }

}  // namespace

Iterator* NewTableScanIterator(const TableState& table,
                               const ReadOptions& options, size_t readahead) {
  TableScan* scan = new TableScan(table, readahead);
  Iterator* iter = NewTwoLevelIterator(
      table.index_block->NewIterator(table.options.comparator),
      &ScanBlockReader, scan, options);
  iter->RegisterCleanup(&DeleteTableScan, scan, nullptr);
  return iter;
}

namespace {

// Asks the table's own filter, if it has one, whether `key` may be in the
// data block that `index_value` names: false only when the filter rules
// it out. *checked tells whether a filter was asked.
inline bool BlockMayHoldKey(const TableState& table, const Slice& index_value,
                            const Slice& key, bool* checked) {
  if (table.filter == nullptr) return true;
  Slice handle_input = index_value;
  BlockHandle handle;
  if (!handle.DecodeFrom(&handle_input).ok()) return true;
  *checked = true;
  return table.filter->KeyMayMatch(handle.offset(), key);
}

}  // namespace

Status Table::InternalGet(const ReadOptions& options, const Slice& key,
                          void* arg,
                          void (*handle_result)(void*, const Slice&,
                                                const Slice&)) {
  // Kept for the public header's sake: the DB's Gets use ProbeTable.
  BlockIterator index_iter(rep_->options.comparator, rep_->index_block);
  index_iter.Seek(key);
  if (!index_iter.Valid()) return index_iter.status();
  bool checked = false;
  if (!BlockMayHoldKey(*rep_, index_iter.value(), key, &checked)) {
    return Status::OK();
  }
  std::unique_ptr<Iterator> block(
      DataBlockIterator(*rep_, rep_->file, options, index_iter.value()));
  block->Seek(key);
  if (block->Valid()) (*handle_result)(arg, block->key(), block->value());
  return block->status();
}

Status ProbeTable(const TableState& table, const ReadOptions& options,
                  const SegmentLocator::EntryRange& hint, KeyLookup* lookup) {
  const Slice& key = lookup->internal_key();
  // Both iterators live on the stack: a lookup allocates only what reading
  // the data block itself needs.
  BlockIterator index_iter(table.options.comparator, table.index_block);
  if (hint.known) {
    index_iter.SeekInRestarts(key, hint.first, hint.last);
  } else {
    index_iter.Seek(key);
  }
  if (!index_iter.Valid()) return index_iter.status();

  const Slice handle_value = index_iter.value();
  bool checked = false;
  const bool may_hold = BlockMayHoldKey(table, handle_value, key, &checked);
  if (checked) lookup->NoteFilter(/*rejected=*/!may_hold);
  if (!may_hold) return Status::OK();

  LoadedBlock loaded;
  bool from_cache = false;
  Status s =
      LoadDataBlock(table.options, table.file, table.file_size, table.cache_id,
                    options, handle_value, &loaded, &from_cache);
  if (!s.ok()) return s;
  lookup->NoteBlockRead(from_cache);
  BlockIterator block_iter(table.options.comparator, loaded.block);
  block_iter.Seek(key);
  if (block_iter.Valid()) {
    lookup->TakeEntry(block_iter.key(), block_iter.value());
  }
  s = block_iter.status();
  ReleaseLoadedBlock(table.options.block_cache, loaded);
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
