// TableBuilder: writes a table file (see Table) from entries given in
// increasing key order.
//
// Threading: sharing one builder between threads is safe for const methods
// only; as soon as a thread may modify it, guard every use of it with one
// mutex.

#ifndef STORAGE_LEVELDB_INCLUDE_TABLE_BUILDER_H_
#define STORAGE_LEVELDB_INCLUDE_TABLE_BUILDER_H_

#include <cstdint>

#include "leveldb/export.h"
#include "leveldb/options.h"
#include "leveldb/status.h"

namespace leveldb {

class BlockBuilder;
class BlockHandle;
class ElasticTableBuilderAccess;
class WritableFile;

class LEVELDB_EXPORT TableBuilder {
 public:
  // Prepares to write a table into *file.  The file stays the caller's: the
  // builder does not close it (do that after Finish()).
  TableBuilder(const Options& options, WritableFile* file);

  TableBuilder(const TableBuilder&) = delete;
  TableBuilder& operator=(const TableBuilder&) = delete;

  // REQUIRES: Finish() or Abandon() was called.
  ~TableBuilder();

  // Uses these options from now on.  Some fields, the comparator among
  // them, must equal the constructor's; when one of those differs, returns
  // an error and keeps the old options.
  Status ChangeOptions(const Options& options);

  // Adds key -> value.  REQUIRES: key is greater than every key added
  // before, and neither Finish() nor Abandon() was called yet.
  void Add(const Slice& key, const Slice& value);

  // Closes the data block being filled and writes it out, so the next entry
  // goes into a new block.  Seldom useful.  REQUIRES: neither Finish() nor
  // Abandon() was called yet.
  void Flush();

  // OK, or the first error the builder ran into.
  Status status() const;

  // Writes all buffered entries, then the index and footer, and returns the
  // outcome.  The builder does not use the file afterwards.  REQUIRES:
  // neither Finish() nor Abandon() was called yet.
  Status Finish();

  // Stops building; the builder does not use the file afterwards.  A
  // builder that is not finished needs this call before it is destroyed.
  // REQUIRES: neither Finish() nor Abandon() was called yet.
  void Abandon();

  // Count of the entries added so far.
  uint64_t NumEntries() const;

  // How many bytes the builder has written to the file; once Finish() has
  // succeeded, that is the table's final length.
  uint64_t FileSize() const;

 private:
  // Internal: lets the DB read what the ElasticBF builder recorded.
  friend class ElasticTableBuilderAccess;

  bool ok() const { return status().ok(); }
  void WriteBlock(BlockBuilder* block, BlockHandle* handle);
  void WriteRawBlock(const Slice& data, CompressionType, BlockHandle* handle);

  struct Rep;
  Rep* rep_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_TABLE_BUILDER_H_
