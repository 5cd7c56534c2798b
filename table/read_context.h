// Per-lookup state passed from DB::Get down to each table probe, so that
// work done once per Get (hashing the key, counting) is shared by every table
// the Get consults, and so the DB learns what each probe cost.
#ifndef STORAGE_LEVELDB_TABLE_READ_CONTEXT_H_
#define STORAGE_LEVELDB_TABLE_READ_CONTEXT_H_

#include <cstdint>

namespace leveldb {

struct IoStats;

struct TableReadContext {
  // Set by the DB once per Get.
  uint64_t key_hash = 0;  // KeyHash64(user key); valid when has_key_hash
  bool has_key_hash = false;
  IoStats* stats = nullptr;  // counters of this DB; may be null

  // Reset by the caller before each table probe, set by the table layer.
  bool consulted_filter = false;  // a filter (unit or standard) was checked
  bool filter_rejected = false;   // ... and it ruled the key out
  bool read_data_block = false;   // a data block was fetched (cache or disk)

  // Set by the DB's result handler when the probed table holds an entry
  // (value or deletion) for the user key, so the table can tell a false
  // positive from a hit.
  bool key_matched = false;

  void ResetProbe() {
    consulted_filter = false;
    filter_rejected = false;
    read_data_block = false;
    key_matched = false;
  }
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_READ_CONTEXT_H_
