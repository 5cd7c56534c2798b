// The user-visible iterator of a DB: turns the merged stream of internal
// entries (several versions of a key, deletion markers) into the view of
// one snapshot.
#ifndef STORAGE_LEVELDB_DB_DB_ITER_H_
#define STORAGE_LEVELDB_DB_DB_ITER_H_

#include <cstdint>

#include "db/dbformat.h"
#include "leveldb/db.h"

namespace leveldb {

class DBImpl;

// Returns an iterator over the user keys of internal_iter (which it takes
// ownership of) as seen at `sequence`: entries newer than the sequence,
// older versions and deleted keys are hidden. Sampled keys are reported to
// db->RecordReadSample to drive seek compactions; `seed` randomizes the
// sampling period.
Iterator* NewDBIterator(DBImpl* db, const Comparator* user_key_comparator,
                        Iterator* internal_iter, SequenceNumber sequence,
                        uint32_t seed);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_DB_ITER_H_
