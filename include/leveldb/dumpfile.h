#ifndef STORAGE_LEVELDB_INCLUDE_DUMPFILE_H_
#define STORAGE_LEVELDB_INCLUDE_DUMPFILE_H_

#include <string>

#include "leveldb/env.h"
#include "leveldb/export.h"
#include "leveldb/status.h"

namespace leveldb {

// Prints one database file as text: `fname` may be a log, a table or a
// MANIFEST.  Each item in it (a log record, a table entry, a version edit)
// is rendered as text ending in '\n' and passed to its own dst->Append()
// call.  Returns an error when the file name is not one a database uses, or
// when reading the file fails.
LEVELDB_EXPORT Status DumpFile(Env* env, const std::string& fname,
                               WritableFile* dst);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_DUMPFILE_H_
