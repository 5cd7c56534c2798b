#ifndef STORAGE_LEVELDB_INCLUDE_TABLE_H_
#define STORAGE_LEVELDB_INCLUDE_TABLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "leveldb/export.h"
#include "leveldb/iterator.h"

namespace leveldb {

class Block;
class BlockHandle;
class Footer;
struct InheritedHotness;
class MQSchedule;
struct Options;
class RandomAccessFile;
struct ReadOptions;
class TableCache;
struct TableReadContext;

// Key/value entries sorted by key, read from one table file (an "sstable")
// that never changes.  Thread-safe without outside locking.
class LEVELDB_EXPORT Table {
 public:
  // Reads the index and metadata of the table held in the first file_size
  // bytes of *file.  On success *table is set to a new Table owned by the
  // caller and OK is returned; on error *table is nullptr and the error is
  // returned.  *file stays the caller's and must outlive the Table.
  static Status Open(const Options& options, RandomAccessFile* file,
                     uint64_t file_size, Table** table);

  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  ~Table();

  // Returns an iterator, owned by the caller, over all entries.  It is not
  // positioned yet: seek before using it.
  Iterator* NewIterator(const ReadOptions&) const;

  // Roughly where in the file the entry for `key` sits: the offset of the
  // data block that holds it, or would hold it.  Being measured in file
  // bytes, it reflects compression.  Keys after the last entry give a value
  // close to the file size.
  uint64_t ApproximateOffsetOf(const Slice& key) const;

 private:
  struct Rep;
  friend class TableCache;

  explicit Table(Rep* rep) : rep_(rep) {}

  // Opens the block named by an encoded block handle and returns an
  // iterator over it; the void* is the Table.
  static Iterator* BlockReader(void*, const ReadOptions&, const Slice&);

  // Looks up `key`.  Unless the filter rules it out, passes the first entry
  // at or after it to handle_result(arg, entry_key, entry_value).
  Status InternalGet(const ReadOptions&, const Slice& key, void* arg,
                     void (*handle_result)(void* arg, const Slice& k,
                                           const Slice& v));

  // The same with per-lookup state (may be null): uses ctx's key hash for
  // ElasticBF, reports what the probe did in ctx's flags and counters, and
  // records the access with the MQSchedule. When ctx is not null the caller
  // must be inside an EpochGuard of the attached MQSchedule's epoch() for
  // the whole call, and its handle_result must set ctx->key_matched when
  // the entry it is given has the user key looked up.
  Status InternalGet(const ReadOptions&, const Slice& key, void* arg,
                     void (*handle_result)(void* arg, const Slice& k,
                                           const Slice& v),
                     TableReadContext* ctx);

  // ElasticBF: registers this table (file `file_number`) with the DB's
  // MQSchedule, which loads its initial filter units. No-op (OK) for a
  // table without filter groups. Call once; the destructor detaches.
  Status AttachElastic(MQSchedule* mqs, uint64_t file_number,
                       const InheritedHotness* inherited);

  // ElasticBF: for each segment, in order, the index key (a separator, no
  // smaller than every key of the block) of its last data block: an upper
  // bound of the segment's keys and a lower bound of the next segment's.
  // Empty for a table without filter groups; an entry stays empty for a
  // segment that holds no block. Corruption if the index cannot be read.
  Status ElasticSegmentBounds(std::vector<std::string>* bounds) const;

  void ReadMeta(const Footer& footer);
  void ReadFilter(const Slice& filter_handle_value);
  void ReadElasticIndex(const Slice& index_handle_value);

  Rep* const rep_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_TABLE_H_
