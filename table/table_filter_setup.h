// Which filters a table gets and how they are read, worked out from a
// FilterPolicy in one place. Recognising ElasticBF (or the DB's internal-key
// wrapper) takes run-time type checks, so a DB does it once when it opens
// and hands the result to every table it builds or opens; only the public
// Table::Open and TableBuilder, which get nothing but Options, do it per
// call.
#ifndef STORAGE_LEVELDB_TABLE_TABLE_FILTER_SETUP_H_
#define STORAGE_LEVELDB_TABLE_TABLE_FILTER_SETUP_H_

namespace leveldb {

class ElasticFilterPolicy;
class FilterPolicy;

struct TableFilterSetup {
  // The configured policy, whose name the filter block is stored under.
  // Null: tables are written without filters and opened without looking
  // for any.
  const FilterPolicy* policy = nullptr;

  // ElasticBF's policy when `policy` is it or wraps it: tables then carry
  // filter groups (table/elastic/filter_group.h) instead of a filter block.
  const ElasticFilterPolicy* elastic = nullptr;

  // `policy` is the DB's InternalFilterPolicy: table keys are internal
  // keys, and only their user-key part goes into (or probes) a filter.
  bool internal_keys = false;

  // Reads the Bloom filter blocks of tables written by stock LevelDB, which
  // keep them under any other configured policy (null without a policy).
  // Adapted to internal keys when internal_keys is set.
  const FilterPolicy* builtin_bloom = nullptr;
};

// The setup for tables under `policy` (which may be null).
TableFilterSetup ResolveTableFilter(const FilterPolicy* policy);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_TABLE_FILTER_SETUP_H_
