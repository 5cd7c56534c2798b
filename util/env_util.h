// Env helpers that are internal to the library.
#ifndef STORAGE_LEVELDB_UTIL_ENV_UTIL_H_
#define STORAGE_LEVELDB_UTIL_ENV_UTIL_H_

#include <string>

#include "leveldb/env.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

// Replaces the contents of `fname` with `data` and makes them durable
// (Sync) before closing. On any failure the partially written file is
// removed, so callers never see a half-written file under that name.
Status WriteStringToFileSync(Env* env, const Slice& data,
                             const std::string& fname);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_ENV_UTIL_H_
