// The guard name is LevelDB 1.23's own, because some clients test for it.
#ifndef STORAGE_LEVELDB_HELPERS_MEMENV_MEMENV_H_
#define STORAGE_LEVELDB_HELPERS_MEMENV_MEMENV_H_

#include "leveldb/export.h"

namespace leveldb {

class Env;

// Returns an Env, owned by the caller, whose files exist only in memory.
// Calls that are not about file storage (threads, clock, ...) go to
// *base_env; keep *base_env alive for as long as the result exists.
// As in LevelDB 1.23, each name holds one file object: rewriting it empties
// that object in place, so readers already open see the new contents, and
// reading at an offset beyond the end is an error. docs/building.md lists
// each operation and the few deliberate differences from 1.23.
LEVELDB_EXPORT Env* NewMemEnv(Env* base_env);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_HELPERS_MEMENV_MEMENV_H_
