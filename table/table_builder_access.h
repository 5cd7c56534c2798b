// Internal access to a TableBuilder's ElasticBF state. TableBuilder is
// public API with a fixed layout; this friend reads what its filter group
// builder recorded without widening the public interface.
#ifndef STORAGE_LEVELDB_TABLE_TABLE_BUILDER_ACCESS_H_
#define STORAGE_LEVELDB_TABLE_TABLE_BUILDER_ACCESS_H_

#include <vector>

#include "leveldb/table_builder.h"
#include "table/elastic/segment_key_range.h"

namespace leveldb {

class ElasticTableBuilderAccess {
 public:
  // The user-key range of each segment the builder closed (all of them
  // after a successful Finish), or null if it does not write ElasticBF
  // filter groups. Valid while the builder lives.
  static const std::vector<SegmentKeyRange>* SegmentRanges(
      const TableBuilder& builder);
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_TABLE_BUILDER_ACCESS_H_
