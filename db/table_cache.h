// Keeps recently used tables open. Opening a table reads its footer, index
// and filter, so reusing an open Table saves I/O on every probe.
#ifndef STORAGE_LEVELDB_DB_TABLE_CACHE_H_
#define STORAGE_LEVELDB_DB_TABLE_CACHE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "leveldb/cache.h"
#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "leveldb/table.h"
#include "port/port.h"
#include "port/thread_annotations.h"

namespace leveldb {

class Env;
class Iterator;
class MQSchedule;
struct SegmentKeyRange;
struct TableReadContext;

class TableCache {
 public:
  // Holds at most `entries` open tables of database `dbname`. With an
  // MQSchedule (ElasticBF), every table opened is attached to it (its
  // initial filter units load then) and detached when it closes; the
  // MQSchedule must outlive the TableCache.
  TableCache(const std::string& dbname, const Options& options, int entries,
             MQSchedule* elastic = nullptr);
  TableCache(const TableCache&) = delete;
  TableCache& operator=(const TableCache&) = delete;
  ~TableCache();

  // An iterator over table `file_number` (of exactly file_size bytes). If
  // tableptr is non-null, *tableptr is set to the Table behind the iterator
  // (nullptr on error); it stays valid while the iterator lives and must
  // not be deleted by the caller. Open errors come back as an error
  // iterator.
  Iterator* NewIterator(const ReadOptions& options, uint64_t file_number,
                        uint64_t file_size, Table** tableptr = nullptr);

  // Looks up internal key k in the table and calls
  // handle_result(arg, found_key, found_value) for the entry found, if any.
  // ctx (optional) is passed to Table::InternalGet: see its requirements
  // (an EpochGuard held by the caller, key_matched set by the handler).
  Status Get(const ReadOptions& options, uint64_t file_number,
             uint64_t file_size, const Slice& k, void* arg,
             void (*handle_result)(void*, const Slice&, const Slice&),
             TableReadContext* ctx = nullptr);

  // ElasticBF: the user-key range of each segment of table `file_number`,
  // whose keys span [smallest_user_key, largest_user_key]. Taken from the
  // table's index without reading data blocks: a segment spans from the
  // index separator ending the previous segment to the one ending itself,
  // a superset of its keys that is exact at the table's two ends. Empty
  // for a table without filter groups.
  Status GetSegmentKeyRanges(uint64_t file_number, uint64_t file_size,
                             const Slice& smallest_user_key,
                             const Slice& largest_user_key,
                             std::vector<SegmentKeyRange>* ranges);

  // Drops the cached Table of file_number (used once the file is deleted);
  // ElasticBF forgets the file's segments and hotness too.
  void Evict(uint64_t file_number);

 private:
  // Finds or opens the table; on success *handle must later be released.
  Status FindTable(uint64_t file_number, uint64_t file_size,
                   Cache::Handle** handle);

  Env* const env_;
  const std::string dbname_;
  const Options& options_;
  Cache* cache_;
  MQSchedule* const elastic_;
  // Makes "look up, else insert" atomic, so concurrent misses on one file
  // leave a single open Table (only that one is attached to ElasticBF).
  port::Mutex insert_mu_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_TABLE_CACHE_H_
