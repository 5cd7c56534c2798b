#include "db/table_cache.h"

#include <memory>

#include "db/dbformat.h"
#include "db/filename.h"
#include "elastic/hotness_inheritance.h"
#include "elastic/mq_schedule.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "table/elastic/elastic_filter_policy.h"
#include "table/elastic/segment_locator.h"
#include "table/key_lookup.h"
#include "table/table_filter_setup.h"
#include "table/table_state.h"
#include "util/coding.h"
#include "util/mutexlock.h"

namespace leveldb {

static_assert(KeyLookup::kMaxSequence == kMaxSequenceNumber,
              "KeyLookup::SeesAllEntries must know the DB's largest sequence");

namespace {

// What one cache entry owns: the open file and the Table reading it.
struct OpenTable {
  RandomAccessFile* file;
  Table* table;
};

void DeleteOpenTable(const Slice& /*key*/, void* value) {
  OpenTable* entry = static_cast<OpenTable*>(value);
  delete entry->table;
  delete entry->file;
  delete entry;
}

// Iterator cleanup: gives the pinned cache entry back.
void ReleaseCacheHandle(void* cache, void* handle) {
  static_cast<Cache*>(cache)->Release(static_cast<Cache::Handle*>(handle));
}

// Cache keys are the file number as 8 little-endian bytes.
struct FileNumberKey {
  explicit FileNumberKey(uint64_t number) { StoreFixed64(bytes, number); }
  Slice slice() const { return Slice(bytes, sizeof(bytes)); }
  char bytes[8];
};

}  // namespace

DBTableOpener::DBTableOpener(const std::string& dbname, const Options& options)
    : env_(options.env),
      dbname_(dbname),
      options_(options),
      filter_setup_(ResolveTableFilter(options.filter_policy)) {
  keys_are_internal_ =
      filter_setup_.elastic != nullptr && filter_setup_.internal_keys;
  // Segment locators may compare key prefixes as integers when user keys
  // are ordered bytewise.
  const Comparator* user_order = options.comparator;
  if (keys_are_internal_) {
    const auto* internal =
        dynamic_cast<const InternalKeyComparator*>(options.comparator);
    user_order = internal == nullptr ? nullptr : internal->user_comparator();
  }
  bytewise_keys_ = user_order == BytewiseComparator();
}

Status DBTableOpener::OpenFile(uint64_t file_number,
                               std::unique_ptr<RandomAccessFile>* file) {
  RandomAccessFile* opened = nullptr;
  Status s = OpenTableFile(env_, dbname_, file_number, &opened);
  file->reset(opened);
  return s;
}

Status DBTableOpener::OpenFilterGroups(
    uint64_t file_number, uint64_t file_size,
    std::unique_ptr<RandomAccessFile>* file,
    std::shared_ptr<TableFilterGroups>* groups) {
  groups->reset();
  Status s = OpenFile(file_number, file);
  TableState state;
  if (s.ok()) {
    s = OpenTableState(options_, filter_setup_, file->get(), file_size, &state);
  }
  if (!s.ok()) return s;
  PrepareGroups(state.groups.get());
  *groups = std::shared_ptr<TableFilterGroups>(std::move(state.groups));
  return s;
}

void DBTableOpener::PrepareGroups(TableFilterGroups* groups) const {
  if (groups != nullptr && bytewise_keys_) {
    groups->mutable_locator()->UseOrderPrefixes(keys_are_internal_);
  }
}

TableCache::TableCache(const std::string& dbname, const Options& options,
                       int entries, MQSchedule* elastic)
    : env_(options.env),
      dbname_(dbname),
      options_(options),
      opener_(dbname, options),
      cache_(NewLRUCache(entries)),
      elastic_(elastic) {
  const ElasticFilterPolicy* policy = opener_.filter_setup().elastic;
  if (policy != nullptr) initial_units_ = policy->options().initial_units;
}

TableCache::~TableCache() { delete cache_; }

Status OpenTableFile(Env* env, const std::string& dbname, uint64_t file_number,
                     RandomAccessFile** file) {
  *file = nullptr;
  const std::string ldb_name = TableFileName(dbname, file_number);
  Status s = env->NewRandomAccessFile(ldb_name, file);
  if (!s.ok()) {
    // Tables written by old releases carry the .sst suffix.
    Status sst =
        env->NewRandomAccessFile(SSTTableFileName(dbname, file_number), file);
    if (sst.ok()) {
      s = Status::OK();
    } else if (s.IsNotFound()) {
      // A table listed in the version but absent from disk is lost data; a
      // NotFound here would read as "key absent" to a Get.
      s = Status::Corruption("missing table file", ldb_name);
    }
  }
  return s;
}

Status TableCache::FindTable(uint64_t file_number, uint64_t file_size,
                             Cache::Handle** handle) {
  FileNumberKey key(file_number);
  *handle = cache_->Lookup(key.slice());
  if (*handle != nullptr) {
    return Status::OK();
  }

  RandomAccessFile* file = nullptr;
  Status s = OpenTableFile(env_, dbname_, file_number, &file);
  Table* table = nullptr;
  if (s.ok()) {
    // The filter layer keeps the groups of a registered file: reopening
    // its table reads no filter metadata.
    const bool screened =
        elastic_ != nullptr && elastic_->layer()->HasFilterGroups(file_number);
    std::unique_ptr<Table::Rep> rep(new Table::Rep);
    s = OpenTableState(options_,
                       screened ? TableFilterSetup() : opener_.filter_setup(),
                       file, file_size, rep.get());
    if (s.ok()) table = new Table(rep.release());
  }
  if (!s.ok()) {
    // Not cached: a later attempt may succeed once the cause is gone.
    delete file;
    return s;
  }
  {
    MutexLock l(&insert_mu_);
    *handle = cache_->Lookup(key.slice());
    if (*handle == nullptr) {
      *handle = cache_->Insert(key.slice(), new OpenTable{file, table}, 1,
                               &DeleteOpenTable);
      file = nullptr;  // now owned by the cache
    }
  }
  if (file != nullptr) {
    // Another thread opened the same table meanwhile; use its copy.
    delete table;
    delete file;
    return Status::OK();
  }
  if (elastic_ != nullptr) Register(file_number, table->rep_);
  return Status::OK();
}

void TableCache::Register(uint64_t file_number, TableState* state) {
  // The filter layer takes the table's filter groups (if it has any) and
  // keeps them while the file is live. Without them the table is still
  // fully usable.
  opener_.PrepareGroups(state->groups.get());
  Status attach = elastic_->AttachTable(
      file_number, std::shared_ptr<TableFilterGroups>(std::move(state->groups)),
      state->file, nullptr, initial_units_);
  if (!attach.ok()) {
    Log(options_.info_log, "ElasticBF: table %llu has no filters: %s",
        static_cast<unsigned long long>(file_number),
        attach.ToString().c_str());
  }
}

Iterator* TableCache::NewScanIterator(const ReadOptions& options,
                                      uint64_t file_number, uint64_t file_size,
                                      size_t readahead) {
  Cache::Handle* handle = nullptr;
  Status s = FindTable(file_number, file_size, &handle);
  if (!s.ok()) return NewErrorIterator(s);
  const Table* table = static_cast<OpenTable*>(cache_->Value(handle))->table;
  Iterator* iter = NewTableScanIterator(*table->rep_, options, readahead);
  iter->RegisterCleanup(&ReleaseCacheHandle, cache_, handle);
  return iter;
}

Iterator* TableCache::NewIterator(const ReadOptions& options,
                                  uint64_t file_number, uint64_t file_size,
                                  Table** tableptr) {
  if (tableptr != nullptr) {
    *tableptr = nullptr;
  }
  Cache::Handle* handle = nullptr;
  Status s = FindTable(file_number, file_size, &handle);
  if (!s.ok()) {
    return NewErrorIterator(s);
  }
  Table* table = static_cast<OpenTable*>(cache_->Value(handle))->table;
  Iterator* iter = table->NewIterator(options);
  iter->RegisterCleanup(&ReleaseCacheHandle, cache_, handle);
  if (tableptr != nullptr) {
    *tableptr = table;
  }
  return iter;
}

FilterLayer::Screening TableCache::Screen(uint64_t file_number,
                                          uint64_t file_size,
                                          KeyLookup* lookup) {
  using Screening = FilterLayer::Screening;
  FilterLayer* const layer = elastic_->layer();
  Screening screening =
      layer->Screen(file_number, lookup->internal_key(), lookup->key_hash());
  if (screening.verdict == Screening::kUnknown) {
    // Never opened: opening the table registers it with the filter layer.
    // An open that fails is left for the probe to report.
    Cache::Handle* handle = nullptr;
    if (FindTable(file_number, file_size, &handle).ok()) {
      cache_->Release(handle);
      screening = layer->Screen(file_number, lookup->internal_key(),
                                lookup->key_hash());
    }
  }
  FalsePositiveMemo* memo = layer->memo();
  if (screening.verdict == Screening::kMayMatch && memo->active()) {
    screening.memo_key =
        memo->KeyOf(file_number, lookup->key_hash(), lookup->user_key());
    if (memo->Contains(screening.memo_key)) {
      // A read proved the key absent before: the units' mistake is not
      // paid again. Recorded as the absent probe it stands for.
      screening.verdict = Screening::kRuledOut;
    }
  }
  if (screening.verdict == Screening::kRuledOut) {
    lookup->NoteFilter(/*rejected=*/true);
    layer->RecordAccess(screening.segment, /*absent=*/true);
  }
  return screening;
}

Status TableCache::Get(const ReadOptions& options, uint64_t file_number,
                       uint64_t file_size, KeyLookup* lookup) {
  KeyLookup::ProbeScope probe(lookup);
  FilterLayer::Screening screening;
  if (elastic_ != nullptr) {
    screening = Screen(file_number, file_size, lookup);
    if (!screening.TableMayHoldKey()) return Status::OK();
  }
  Cache::Handle* handle = nullptr;
  Status s = FindTable(file_number, file_size, &handle);
  if (!s.ok()) return s;
  if (screening.consulted) lookup->NoteFilter(/*rejected=*/false);
  const Table* table = static_cast<OpenTable*>(cache_->Value(handle))->table;
  s = ProbeTable(*table->rep_, options, screening.entries, lookup);
  cache_->Release(handle);
  if (screening.verdict == FilterLayer::Screening::kMayMatch && s.ok()) {
    FilterLayer* layer = elastic_->layer();
    layer->RecordAccess(screening.segment, !lookup->probe().key_matched);
    if (lookup->ProvedAbsent() && screening.memo_key.fingerprint != 0) {
      layer->memo()->Insert(screening.memo_key);
    }
  }
  return s;
}

Status TableCache::GetSegmentKeyRanges(uint64_t file_number, uint64_t file_size,
                                       const Slice& smallest_user_key,
                                       const Slice& largest_user_key,
                                       std::vector<SegmentKeyRange>* ranges) {
  ranges->clear();
  if (elastic_ == nullptr) return Status::OK();
  Cache::Handle* handle = nullptr;
  Status s = FindTable(file_number, file_size, &handle);  // registers it
  if (!s.ok()) return s;
  cache_->Release(handle);
  std::vector<std::string> bounds;
  if (!elastic_->SegmentBounds(file_number, &bounds)) return Status::OK();
  return SegmentKeyRanges(bounds, smallest_user_key, largest_user_key, ranges);
}

void TableCache::Evict(uint64_t file_number) {
  if (elastic_ != nullptr) {
    elastic_->ForgetFile(file_number);
    // File numbers are never reused in a database, so the entries could
    // stay harmlessly; clearing them frees their slots.
    elastic_->layer()->memo()->Forget(file_number);
  }
  cache_->Erase(FileNumberKey(file_number).slice());
}

}  // namespace leveldb
