// Keeps recently used tables open. Opening a table reads its footer, index
// and filter, so reusing an open Table saves I/O on every probe.
#ifndef STORAGE_LEVELDB_DB_TABLE_CACHE_H_
#define STORAGE_LEVELDB_DB_TABLE_CACHE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "elastic/mq_schedule.h"
#include "elastic/table_file_opener.h"
#include "leveldb/cache.h"
#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "leveldb/table.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "table/table_filter_setup.h"

namespace leveldb {

class Env;
class Iterator;
class KeyLookup;
class RandomAccessFile;
struct SegmentKeyRange;
struct TableState;

// Opens table file `file_number` of database `dbname` (.ldb, else the .sst
// of old releases). A missing file is Corruption: the version lists it.
Status OpenTableFile(Env* env, const std::string& dbname, uint64_t file_number,
                     RandomAccessFile** file);

// The filter layer's way to the table files of database `dbname`: opens
// them (for unit reads) and reads their filter groups (to register files
// no Get has opened yet). `options` must outlive it.
class DBTableOpener : public TableFileOpener {
 public:
  DBTableOpener(const std::string& dbname, const Options& options);

  Status OpenFile(uint64_t file_number,
                  std::unique_ptr<RandomAccessFile>* file) override;
  Status OpenFilterGroups(uint64_t file_number, uint64_t file_size,
                          std::unique_ptr<RandomAccessFile>* file,
                          std::shared_ptr<TableFilterGroups>* groups) override;

  // Readies a table's just-read filter groups (may be null) for screening.
  void PrepareGroups(TableFilterGroups* groups) const;

  // How the database's tables are filtered.
  const TableFilterSetup& filter_setup() const { return filter_setup_; }

 private:
  Env* const env_;
  const std::string dbname_;
  const Options& options_;
  const TableFilterSetup filter_setup_;  // of options_.filter_policy
  bool keys_are_internal_ = false;       // lookup keys carry an 8-byte suffix
  bool bytewise_keys_ = false;           // user keys ordered bytewise
};

class TableCache {
 public:
  // Holds at most `entries` open tables of database `dbname`. With an
  // MQSchedule (ElasticBF), the first table opened of each file registers
  // the file with it (its initial filter units load then), and every Get
  // screens a table there before the table is looked up or opened; the
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

  // As NewIterator, for one pass over the whole table from front to back
  // (a compaction's input): its blocks are read `readahead` bytes at a time.
  Iterator* NewScanIterator(const ReadOptions& options, uint64_t file_number,
                            uint64_t file_size, size_t readahead);

  // One table probe of `lookup` in table `file_number`: the entry the
  // table holds at or after the key goes to the lookup, which records the
  // outcome; the probe is counted in the lookup's stats. With ElasticBF
  // the table's resident units and the false-positive memo are asked
  // first: a key they rule out costs no table lookup, open or read. A
  // probe that proves the key absent from the table (KeyLookup::
  // ProvedAbsent) is remembered in the memo.
  Status Get(const ReadOptions& options, uint64_t file_number,
             uint64_t file_size, KeyLookup* lookup);

  // ElasticBF: the user-key range of each segment of table `file_number`,
  // whose keys span [smallest_user_key, largest_user_key]. Taken from the
  // file's segment locator without reading data blocks: a segment spans from
  // the index separator ending the previous segment to the one ending itself,
  // a superset of its keys that is exact at the table's two ends. Empty
  // for a table without filter groups.
  Status GetSegmentKeyRanges(uint64_t file_number, uint64_t file_size,
                             const Slice& smallest_user_key,
                             const Slice& largest_user_key,
                             std::vector<SegmentKeyRange>* ranges);

  // How the database's tables are filtered, for building them.
  const TableFilterSetup& filter_setup() const {
    return opener_.filter_setup();
  }

  // Drops the cached Table of file_number (used once the file is deleted);
  // ElasticBF forgets the file's segments and hotness too.
  void Evict(uint64_t file_number);

 private:
  // Finds or opens the table; on success *handle must later be released.
  Status FindTable(uint64_t file_number, uint64_t file_size,
                   Cache::Handle** handle);

  // Hands a just-opened table's filter groups to the filter layer.
  void Register(uint64_t file_number, TableState* state);

  // ElasticBF's screening of table `file_number` for `lookup`, the only
  // place it happens: a file the filter layer does not know yet is
  // registered by opening its table first; a key the units rule out, or
  // the false-positive memo knows absent, is recorded in the lookup and as
  // an access of its segment.
  FilterLayer::Screening Screen(uint64_t file_number, uint64_t file_size,
                                KeyLookup* lookup);

  Env* const env_;
  const std::string dbname_;
  const Options& options_;
  const DBTableOpener opener_;  // for its filter setup and PrepareGroups
  int initial_units_ = 0;       // ElasticBF units a newly registered file loads
  Cache* cache_;
  MQSchedule* const elastic_;
  // Makes "look up, else insert" atomic, so concurrent misses on one file
  // leave a single open Table (only that one is attached to ElasticBF).
  port::Mutex insert_mu_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_TABLE_CACHE_H_
