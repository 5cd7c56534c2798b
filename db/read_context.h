// Per-lookup state passed from DB::Get down to each table probe
// (TableCache::Get), so that work done once per Get (hashing the key) is
// shared by every table the Get consults, and so the DB learns what each
// probe cost and counts it.
#ifndef STORAGE_LEVELDB_DB_READ_CONTEXT_H_
#define STORAGE_LEVELDB_DB_READ_CONTEXT_H_

#include <cstdint>

namespace leveldb {

struct IoStats;

struct TableReadContext {
  // Set by the DB once per Get.
  // KeyHash64 of the user key. Set whenever the DB has a filter layer
  // (ElasticBF), whose screens rely on it.
  uint64_t key_hash = 0;
  IoStats* stats = nullptr;  // counters of this DB; may be null

  // Reset and set by TableCache::Get for each table probe.
  bool consulted_filter = false;  // a filter (unit or standard) was checked
  bool filter_rejected = false;   // ... and it ruled the key out
  bool read_data_block = false;   // a data block was fetched (cache or disk)

  // Set by the caller's result handler when the probed table holds an
  // entry (value or deletion) for the user key, which tells a false
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

#endif  // STORAGE_LEVELDB_DB_READ_CONTEXT_H_
