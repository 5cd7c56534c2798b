// I/O statistics of a database.
//
// DB::GetProperty("leveldb.io-stats") returns one "name: value" line per
// counter, counted since the DB was opened or since the last ResetIoStats():
//
//   gets                      DB::Get calls served
//   table_probes              tables consulted by those Gets
//   filter_checks             probes that consulted a filter (a standard
//                             Bloom filter or loaded ElasticBF filter units)
//   filter_rejections         probes a filter ruled out, without reading data
//   false_positives           probes that read a data block yet found no
//                             entry for the key, although a filter was
//                             consulted
//   unfiltered_misses         the same without any filter to consult (an
//                             ElasticBF segment with no unit loaded, or a
//                             table without a filter)
//   data_block_reads          data blocks fetched by Gets (cache or disk)
//   data_block_cache_hits     ... of which were served by the block cache
//   unit_loads                ElasticBF filter units read from disk
//   unit_load_bytes           bytes of those units
//   unit_load_failures        units that could not be read or were corrupt
//                             (treated as "may match": never a false
//                             negative)
//   unit_evictions            ElasticBF filter units dropped from memory
//   compaction_bytes_read     bytes of table files read by compactions
//   compaction_bytes_written  bytes of table files written by compactions
//                             and memtable flushes
//
// followed by three derived ratios: data_block_ios_per_get (data blocks
// read from disk, i.e. not from the cache, per Get), false_positives_per_get
// and wasted_reads_per_get ((false_positives + unfiltered_misses) per Get:
// the reads beyond the one each Get that finds its key in a table needs).
// Counters are statistics updated without locks: each one is exact, but a
// snapshot taken while Gets or compactions run may mix moments.
//
// Stock LevelDB has no such property: GetProperty returns false there.

#ifndef STORAGE_LEVELDB_INCLUDE_IO_STATS_H_
#define STORAGE_LEVELDB_INCLUDE_IO_STATS_H_

#include "leveldb/db.h"
#include "leveldb/export.h"

namespace leveldb {

// Zeroes every counter reported by "leveldb.io-stats" of `db` (e.g. between
// the phases of a benchmark). It changes nothing else: ElasticBF's hotness
// and logical clock are unaffected. Does nothing if `db` is not a database
// opened by this library's DB::Open (a wrapper or a test double).
LEVELDB_EXPORT void ResetIoStats(DB* db);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_IO_STATS_H_
