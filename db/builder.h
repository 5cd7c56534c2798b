// Turns a sorted stream of internal-key entries (a memtable, typically) into
// one table file.
#ifndef STORAGE_LEVELDB_DB_BUILDER_H_
#define STORAGE_LEVELDB_DB_BUILDER_H_

#include <string>

#include "leveldb/status.h"

namespace leveldb {

struct FileMetaData;
class Env;
class Iterator;
struct Options;
class TableCache;

// Writes every entry of *iter to the table file TableFileName(dbname,
// meta->number) and fills meta->file_size, meta->smallest and
// meta->largest. Its filters follow table_cache->filter_setup() (resolved
// from options.filter_policy when the DB opened). The file is synced,
// closed and then reopened through table_cache to check it is readable. An
// empty iterator produces no file (meta->file_size == 0, OK). On any error the
// file is removed.
Status BuildTable(const std::string& dbname, Env* env, const Options& options,
                  TableCache* table_cache, Iterator* iter, FileMetaData* meta);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_BUILDER_H_
