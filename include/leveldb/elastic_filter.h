// ElasticBF: elastic, hotness-aware filters for point lookups.
//
// Instead of one filter per table, every table is cut into segments (see
// segment_bytes below) and every segment gets a filter group: several small
// filter units stored on disk. By default (unit_kind kRibbon) a segment's
// units are the bit-planes of one Ribbon filter, dealt out to the units;
// with kBloom each unit is an independent Bloom filter. A key is ruled out
// as soon as one loaded unit of its segment rejects it. Only as many units
// per segment as that segment's hotness deserves are kept in memory, and
// the split is adjusted at run time under a fixed memory budget, so hot
// regions get a low false-positive rate and cold regions cost little.
//
// Switch it on by choosing the policy:
//
//   leveldb::ElasticFilterOptions eo;
//   options.filter_policy = leveldb::NewElasticFilterPolicy(eo);
//
// Tables written this way remain valid LevelDB tables: stock LevelDB opens
// them and simply uses no filter. Tables with standard Bloom filters keep
// them under ElasticBF until a compaction rewrites them.
//
// What a database shows (see docs/elasticbf.md for the details):
//   DB::GetProperty("leveldb.elasticbf")  "enabled: no", or "enabled: yes"
//       and "name: value" lines (memory_used_bytes, memory_budget_bytes,
//       unit_loads, unit_evictions, adjustments, expected_extra_io, ...)
//       followed by histograms of units loaded per segment and LSM level.
//   DB::GetProperty("leveldb.io-stats")   per-Get counters (leveldb/io_stats.h)
//   "leveldb.approximate-memory-usage" includes the loaded units.

#ifndef STORAGE_LEVELDB_INCLUDE_ELASTIC_FILTER_H_
#define STORAGE_LEVELDB_INCLUDE_ELASTIC_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "leveldb/export.h"
#include "leveldb/filter_policy.h"
#include "leveldb/status.h"

namespace leveldb {

struct Options;

// A filter-memory budget several databases share (see
// ElasticFilterOptions::shared_budget), as they share an Options::block_cache.
// Opaque: created only by NewElasticFilterBudget. The application owns it
// and must delete it only after every database using it has been closed.
class LEVELDB_EXPORT ElasticFilterBudget {
 public:
  ElasticFilterBudget(const ElasticFilterBudget&) = delete;
  ElasticFilterBudget& operator=(const ElasticFilterBudget&) = delete;
  virtual ~ElasticFilterBudget();

  // The bytes of loaded filter units and segment locators that the
  // databases sharing the budget may hold together.
  virtual size_t bytes() const = 0;

 private:
  friend class SharedElasticBudget;  // the only implementation
  ElasticFilterBudget() = default;
};

// A budget of `bytes` bytes for the filter memory of every database whose
// ElasticFilterOptions::shared_budget is the result. Delete it after those
// databases are closed.
LEVELDB_EXPORT ElasticFilterBudget* NewElasticFilterBudget(size_t bytes);

struct LEVELDB_EXPORT ElasticFilterOptions {
  // Bits per key of each filter unit (planes per unit for Ribbon units):
  // 0 (the default) or in [1, 32]. 0 chooses from the budget B
  // (memory_bits_per_key, or 4 when memory_budget_bytes is set): Ribbon
  // units get ceil((B + 1) / 16) planes, so 1 up to 15 bits per key, since
  // k loaded planes reject all but 2^-k of absent keys however they are
  // split and 1-plane steps let memory follow hotness most finely; Bloom
  // units, whose rate worsens when split, get floor(B / 2) bits. Both at
  // least 1 and at most 8. Measured in docs/evaluation.md ("Unit shape
  // against budget"). Fixed when a table is written.
  int bits_per_unit = 0;

  // Units in each segment's filter group: 0 (the default) or in [1, 16].
  // 0 chooses enough units for 24 bits per key on disk, or for the budget
  // plus one unit when that is more, at most 16: 16 Ribbon units of 1
  // plane at the default budget (false-positive rate 2^-16 with all
  // loaded), 12 Bloom units of 2 bits. More units raise the best reachable
  // rate and the disk space of filters (bits_per_unit * units_per_segment
  // bits per key). Fixed when a table is written. The "leveldb.elasticbf"
  // property shows the shape in use.
  int units_per_segment = 0;

  // Data bytes per segment: 0 (the default) or at least 1024. A segment is
  // a run of consecutive data blocks of one table whose keys share one
  // filter group. While a table is written, its segment is closed at the
  // first data-block boundary at which it holds segment_bytes bytes of data
  // blocks or, with 0, 4096 * 8 / bits_per_unit keys (one unit then fills
  // about one 4 KiB page). Smaller segments track hotness more precisely
  // but cost more bookkeeping memory and smaller, less efficient unit reads.
  size_t segment_bytes = 0;

  // Memory budget for loaded units, in bits per key of the open tables;
  // >= 0 and finite. Default 4: the same average memory as a
  // 4-bits-per-key filter on every table, distributed by hotness. Ignored
  // when memory_budget_bytes is set. The budget is never exceeded. A Bloom
  // unit takes at most bits_per_unit bits per key (its size rounds down to
  // whole 64-bit words); a Ribbon unit a few percent more, so a budget of
  // exactly bits_per_unit leaves some segments without a Ribbon unit.
  double memory_bits_per_key = 4;

  // Fixed memory budget for loaded units, in bytes. 0 (the default) derives
  // the budget from memory_bits_per_key and the number of live keys.
  size_t memory_budget_bytes = 0;

  // A budget shared with other databases (NewElasticFilterBudget), or null
  // (the default): this database has a budget of its own. Databases whose
  // policies carry the same budget share one scheduler: one background
  // thread, one MultiQueue over all their segments (a unit of a hot
  // database can take the place of a unit of a cold one) and one logical
  // clock; their loaded units and locators never exceed budget->bytes()
  // together. When set, memory_budget_bytes must be 0 and
  // memory_bits_per_key is ignored (the unit shape is chosen as for a
  // budget in bytes). Not owned; it must outlive the databases using it.
  ElasticFilterBudget* shared_budget = nullptr;

  // Number of Gets after which a segment that was not accessed counts as
  // expired (cold) and may give its units to hotter segments. 0 (the
  // default) picks it automatically, of the order of the number of
  // segments. Shorter lifetimes adapt faster but may evict units of
  // segments that are only briefly idle.
  uint64_t lifetime = 0;

  // Units loaded when a table is opened and its segments have no recorded
  // hotness, in [0, units_per_segment]. Default 1. 0 means new tables start
  // with no filter in memory until they are accessed. Segments with a unit
  // target (inherited or recorded hotness) load at most this many when the
  // table opens, and the rest in the background as memory allows.
  int initial_units = 1;

  // When true, segments written by a compaction start with the hotness
  // their key range had in the input segments overlapping them (each
  // input's counts shared among the outputs it overlaps) and about the units
  // those held, and hotness survives a reopen: it is recorded in the
  // MANIFEST (with every compaction, periodically, and at close). Such a
  // MANIFEST needs StripElasticMetadata() before stock LevelDB opens it.
  // When false (the default), new tables load initial_units and count as
  // just accessed, reopened databases start cold, and the MANIFEST keeps
  // LevelDB 1.23's records only (recorded hotness is dropped when the
  // MANIFEST is next rewritten, i.e. at the next open). False is the
  // default because inheritance measured slightly more I/Os per Get, not
  // fewer, on every workload of docs/evaluation.md ("Defaults").
  bool inherit_hotness = false;

  // The kind of filter unit new tables get. kRibbon (the default): each
  // unit holds bits_per_unit bit-planes of one Ribbon filter per segment, a
  // few percent above bits_per_unit bits per key, for a false-positive rate
  // of exactly 2^-bits_per_unit per unit (a 4-plane unit's is 1/16, a 4-bit
  // Bloom unit's about 0.15), at a higher build cost, off the write path.
  // kBloom: each unit is a Bloom filter of bits_per_unit bits per key.
  // Tables keep the kind they were written with; both kinds read alike,
  // and stock LevelDB reads either (without a filter).
  enum class UnitKind : int { kBloom = 0, kRibbon = 1 };
  UnitKind unit_kind = UnitKind::kRibbon;

  // Bytes of the database's false-positive memo: the (table, key) pairs a
  // data-block read proved absent, so that a key the filter units let
  // through by mistake costs that read once per table, not at every Get
  // (docs/elasticbf.md, "False-positive memo"). This is the most it may
  // take: within it the memo is sized against the filter units (it grows
  // where its hits save more reads per byte than units would, shrinks
  // where they save fewer, and switches itself off where it does not pay),
  // and memos never take more than an eighth of what the segment locators
  // leave of the budget. 0 (the default): no memo.
  size_t false_positive_memo_bytes = 0;
  // Page alignment of the data blocks of new tables, in bytes: 0 (off) or
  // a power of two in [512, 65536]. When set, a data block is cut early
  // rather than let it and its 5-byte trailer cross into one more page of
  // this size than needed, and the file is padded so that the next block
  // starts on a page boundary when the rest of the page is too small to be
  // useful. A Get under direct I/O then reads one page per block instead of
  // two. Compressed blocks are cut on an estimate of their compressed size
  // (see docs/elasticbf.md). Index handles point at the blocks, so padded
  // tables remain valid LevelDB 1.23 tables that stock LevelDB reads.
  // Fixed when a table is written. Off by default: at one client thread it
  // did not pay enough for its extra work while tables are written, see
  // docs/evaluation.md ("Page-aligned data blocks").
  size_t block_alignment = 0;
};

// Returns InvalidArgument, naming the offending field and its value, unless:
// bits_per_unit is 0 or in [1, 32], units_per_segment is 0 or in [1, 16],
// initial_units is in [0, units_per_segment] (the automatic count when 0),
// memory_bits_per_key is finite and >= 0, segment_bytes is 0 or >= 1024,
// unit_kind is kBloom or kRibbon, block_alignment is 0 or a power of two in
// [512, 65536], and with a shared_budget,
// memory_budget_bytes is 0 and the budget has at least one byte. DB::Open
// applies these checks to the policy's options before it touches the file
// system: on failure the database directory is left exactly as it was.
LEVELDB_EXPORT Status
ValidateElasticFilterOptions(const ElasticFilterOptions& options);

// Returns a filter policy that enables ElasticBF with the given options. The
// options are copied; invalid ones are reported by DB::Open (see
// ValidateElasticFilterOptions), never by a crash. The caller owns the
// result and must delete it after every database using it has been closed.
LEVELDB_EXPORT const FilterPolicy* NewElasticFilterPolicy(
    const ElasticFilterOptions& options);

// Hands a database back to stock LevelDB 1.23, which reports ElasticBF's
// MANIFEST records (segment hotness, logical clock) as corruption: rewrites
// the MANIFEST of the closed database `dbname` as a snapshot holding only
// LevelDB 1.23's records, switches CURRENT to it and removes the old one.
// Tables, logs and data are untouched (elastic tables are valid 1.23
// tables). A database without such records is left as it is. Only
// options.env, options.comparator (the database's) and options.info_log
// are used. Fails (without changing anything) if the database is open, or
// missing, or its MANIFEST is corrupt. The hotness is lost: the next open
// with ElasticBF starts cold. Also `leveldbutil strip-elastic DBDIR`.
LEVELDB_EXPORT Status StripElasticMetadata(const std::string& dbname,
                                           const Options& options);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_ELASTIC_FILTER_H_
