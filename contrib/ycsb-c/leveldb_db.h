// YCSB-C binding for LevelDB with ElasticBF (this fork): `./ycsbc -db
// leveldb ...`. Copy leveldb_db.h and leveldb_db.cc into YCSB-C's db/
// directory and add the factory branch (see docs/ycsb.md). Plain C++11,
// like the rest of YCSB-C.
//
// Settings come from the workload's properties (YCSB-C has no -p flag, so
// put them in a spec file). Blanks around names and values are ignored; an
// unknown leveldb.* name or a bad value stops the program (see Create):
//   leveldb.dbpath          database directory (default /tmp/ycsbc-leveldb)
//   leveldb.destroy         delete the database before opening (false)
//   leveldb.elastic_bf      ElasticBF filters (false), tuned by
//                           leveldb.bf_bits_per_unit, leveldb.bf_units,
//                           leveldb.bf_memory_bits_per_key,
//                           leveldb.bf_memory_budget_bytes,
//                           leveldb.bf_segment_bytes, leveldb.bf_lifetime,
//                           leveldb.bf_initial_units,
//                           leveldb.bf_inherit_hotness
//   leveldb.bloom_bits      standard Bloom filter bits per key (0: none)
//   leveldb.direct_io       read tables with O_DIRECT (false)
//   leveldb.fill_cache      ReadOptions::fill_cache (true)
//   leveldb.cache_size      block cache bytes (-1: LevelDB's 8 MiB)
//   leveldb.write_buffer_size, leveldb.max_file_size,
//   leveldb.max_open_files, leveldb.block_size (0: LevelDB's defaults)
//   leveldb.compression     snappy or none (snappy)
//   leveldb.sync            WriteOptions::sync (false)
//
// A record's fields are stored in one LevelDB value, encoded as the YCSB
// runner (benchmarks/ycsb) does: varint32 field count, then per field a
// varint32-length-prefixed name and a varint32-length-prefixed value. The
// table name is ignored (one key space), as in YCSB-C's other key-value
// bindings.
#ifndef YCSB_C_LEVELDB_DB_H_
#define YCSB_C_LEVELDB_DB_H_

#include <string>
#include <vector>

#include "core/db.h"
#include "core/properties.h"

namespace leveldb {
class Cache;
class DB;
class FilterPolicy;
}  // namespace leveldb

namespace ycsbc {

class LevelDB : public DB {
 public:
  // Exit statuses of Create(props).
  static const int kExitOpenFailed = 1;
  static const int kExitBadSetting = 2;

  // Checks the leveldb.* properties without opening anything. Returns true
  // with a one-line description of the effective settings in *summary, or
  // false with the problem (naming the setting) in *error.
  static bool CheckSettings(const utils::Properties& props,
                            std::string* summary, std::string* error);
  // Opens the database the properties describe. On failure returns NULL
  // and describes the problem in *error (a bad setting or the open error).
  static LevelDB* Create(const utils::Properties& props, std::string* error);
  // The factory's one-liner. Prints the effective settings to stderr and
  // opens the database. On a bad setting or a failed open it prints why
  // and exits (kExitBadSetting, kExitOpenFailed): returning NULL would make
  // YCSB-C report "Unknown database name" and exit with status 0.
  static LevelDB* Create(const utils::Properties& props);

  // Closes the database.
  ~LevelDB() override;

  // Per-thread hooks of YCSB-C; the database is shared, nothing to do.
  void Init() override {}
  void Close() override {}

  // kErrorNoData if the key is absent. With `fields`, only those fields (of
  // the ones the record has) are returned, in the order asked.
  int Read(const std::string& table, const std::string& key,
           const std::vector<std::string>* fields,
           std::vector<KVPair>& result) override;
  // Up to record_count records from the first key >= `key`.
  int Scan(const std::string& table, const std::string& key, int record_count,
           const std::vector<std::string>* fields,
           std::vector<std::vector<KVPair> >& result) override;
  // Read-modify-write: the given fields replace or extend the record's.
  // kErrorNoData if the record does not exist (nothing is written).
  int Update(const std::string& table, const std::string& key,
             std::vector<KVPair>& values) override;
  // Writes the record, replacing any previous one.
  int Insert(const std::string& table, const std::string& key,
             std::vector<KVPair>& values) override;
  // Removes the record (kOK whether or not it existed).
  int Delete(const std::string& table, const std::string& key) override;

  // Engine failures (I/O errors, corruption, malformed records) are printed
  // to stderr and return kErrorConflict, the only other code YCSB-C has.

  // The record encoding, exposed for tests and tools.
  static void EncodeFields(const std::vector<KVPair>& fields, std::string* out);
  static bool DecodeFields(const std::string& value,
                           std::vector<KVPair>* fields);

  // The underlying database, e.g. for GetProperty("leveldb.io-stats").
  leveldb::DB* db() const { return db_; }

 private:
  LevelDB();
  LevelDB(const LevelDB&);             // not copyable
  LevelDB& operator=(const LevelDB&);  // not assignable

  int Failure(const std::string& what) const;

  leveldb::DB* db_;
  const leveldb::FilterPolicy* filter_policy_;
  leveldb::Cache* block_cache_;
  bool fill_cache_;
  bool sync_;
};

}  // namespace ycsbc

#endif  // YCSB_C_LEVELDB_DB_H_
