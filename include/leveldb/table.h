#ifndef STORAGE_LEVELDB_INCLUDE_TABLE_H_
#define STORAGE_LEVELDB_INCLUDE_TABLE_H_

#include <cstdint>

#include "leveldb/export.h"
#include "leveldb/iterator.h"

namespace leveldb {

class Block;
class BlockHandle;
class Footer;
struct Options;
class RandomAccessFile;
struct ReadOptions;
class TableCache;

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
  friend class TableCache;
  struct Rep;

  explicit Table(Rep* rep) : rep_(rep) {}

  // Opens the block named by an encoded block handle and returns an
  // iterator over it; the void* is the Table.
  static Iterator* BlockReader(void*, const ReadOptions&, const Slice&);

  // Looks up `key`.  Unless the filter rules it out, passes the first entry
  // at or after it to handle_result(arg, entry_key, entry_value).
  Status InternalGet(const ReadOptions&, const Slice& key, void* arg,
                     void (*handle_result)(void* arg, const Slice& k,
                                           const Slice& v));

  void ReadMeta(const Footer& footer);
  void ReadFilter(const Slice& filter_handle_value);

  Rep* const rep_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_TABLE_H_
