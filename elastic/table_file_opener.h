// TableFileOpener: how the filter layer reaches a database's table files.
//
// The filter layer (elastic/) sits below the database (db/) and must not
// call back up into it; the database hands it one of these instead. Both
// calls may run on the filter layer's background thread, concurrently with
// Gets, and must not take the database mutex.
#ifndef STORAGE_LEVELDB_ELASTIC_TABLE_FILE_OPENER_H_
#define STORAGE_LEVELDB_ELASTIC_TABLE_FILE_OPENER_H_

#include <cstdint>
#include <memory>

#include "leveldb/status.h"

namespace leveldb {

class RandomAccessFile;
class TableFilterGroups;

class TableFileOpener {
 public:
  TableFileOpener() = default;
  TableFileOpener(const TableFileOpener&) = delete;
  TableFileOpener& operator=(const TableFileOpener&) = delete;
  virtual ~TableFileOpener() = default;

  // Opens table file `file_number` for reading filter units.
  virtual Status OpenFile(uint64_t file_number,
                          std::unique_ptr<RandomAccessFile>* file) = 0;

  // Opens table file `file_number` of `file_size` bytes and reads its
  // filter groups, ready for screening; *groups stays null for a table
  // without ElasticBF filters. *file is the handle they were read with.
  virtual Status OpenFilterGroups(
      uint64_t file_number, uint64_t file_size,
      std::unique_ptr<RandomAccessFile>* file,
      std::shared_ptr<TableFilterGroups>* groups) = 0;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_TABLE_FILE_OPENER_H_
