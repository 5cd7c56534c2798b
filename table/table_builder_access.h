// Internal entry points to TableBuilder. TableBuilder is public API with a
// fixed layout; this friend builds tables with a filter setup the DB
// resolved once, and reads what the ElasticBF builder recorded, without
// widening the public interface.
#ifndef STORAGE_LEVELDB_TABLE_TABLE_BUILDER_ACCESS_H_
#define STORAGE_LEVELDB_TABLE_TABLE_BUILDER_ACCESS_H_

#include <memory>
#include <vector>

#include "leveldb/table_builder.h"
#include "table/elastic/segment_key_range.h"

namespace leveldb {

struct TableFilterSetup;

class ElasticTableBuilderAccess {
 public:
  // Like `new TableBuilder(options, file)`, but with the filters `filter`
  // asks for, resolved by the caller from options.filter_policy instead of
  // by the builder.
  static std::unique_ptr<TableBuilder> NewBuilder(
      const Options& options, const TableFilterSetup& filter,
      WritableFile* file);

  // The user-key range of each segment the builder closed (all of them
  // after a successful Finish), or null if it does not write ElasticBF
  // filter groups. Valid while the builder lives.
  static const std::vector<SegmentKeyRange>* SegmentRanges(
      const TableBuilder& builder);
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_TABLE_BUILDER_ACCESS_H_
