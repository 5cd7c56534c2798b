// The parts of an open table, and one point lookup in it.
//
// Table::Rep extends TableState, so the DB's table cache (a friend of
// Table) can open a table with a filter setup it resolved once, and hand an
// open table's state to the table layer's functions, without
// include/leveldb/table.h declaring anything beyond LevelDB 1.23's members.
#ifndef STORAGE_LEVELDB_TABLE_TABLE_STATE_H_
#define STORAGE_LEVELDB_TABLE_TABLE_STATE_H_

#include <cstdint>
#include <memory>

#include "leveldb/options.h"
#include "leveldb/status.h"
#include "leveldb/table.h"
#include "table/elastic/filter_group.h"
#include "table/elastic/segment_locator.h"
#include "table/format.h"

namespace leveldb {

class Block;
class FilterBlockReader;
class FilterPolicy;
class Iterator;
class KeyLookup;
class RandomAccessFile;
struct TableFilterSetup;
struct TableTail;

struct TableState {
  TableState() = default;
  TableState(const TableState&) = delete;
  TableState& operator=(const TableState&) = delete;
  ~TableState();

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

  // ElasticBF: the table's filter groups, read at open, for the DB's
  // filter layer to take (null for other tables, and once taken).
  std::unique_ptr<TableFilterGroups> groups;

  // During Open only: the end of the file, read in one go.
  const TableTail* open_tail = nullptr;
};

struct Table::Rep : public TableState {};

// Reads the index and metadata of the table in the first `file_size` bytes
// of *file into *table (a new Table::Rep), with the filters `filter` asks
// for: what Table::Open does after resolving the filter setup from
// options.filter_policy. On error, *table is only fit for deleting.
Status OpenTableState(const Options& options, const TableFilterSetup& filter,
                      RandomAccessFile* file, uint64_t file_size,
                      TableState* table);

// An iterator over the whole table for one reader going from front to back
// (a compaction's input): data blocks are fetched `readahead` bytes at a
// time (ReadaheadFile) rather than one read each. The table must outlive it.
Iterator* NewTableScanIterator(const TableState& table,
                               const ReadOptions& options, size_t readahead);

// Looks up lookup->internal_key() in the table: its own filter, if it has
// one, then the index (only the entries `hint` names, when it knows them),
// then the data block, whose first entry at or after the key goes to
// lookup->TakeEntry. The lookup's probe record says what it took.
Status ProbeTable(const TableState& table, const ReadOptions& options,
                  const SegmentLocator::EntryRange& hint, KeyLookup* lookup);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_TABLE_STATE_H_
