// An iterator over an index whose values name inner iterators (an index
// block over data blocks, or a file list over tables).
#ifndef STORAGE_LEVELDB_TABLE_TWO_LEVEL_ITERATOR_H_
#define STORAGE_LEVELDB_TABLE_TWO_LEVEL_ITERATOR_H_

#include "leveldb/iterator.h"

namespace leveldb {

struct ReadOptions;

// Opens the inner iterator for one index value.
using InnerIteratorFunction = Iterator* (*)(void* arg,
                                            const ReadOptions& options,
                                            const Slice& index_value);

// Takes ownership of index_iter. Inner iterators are created lazily with
// open_inner(arg, options, index_iter->value()).
Iterator* NewTwoLevelIterator(Iterator* index_iter,
                              InnerIteratorFunction open_inner, void* arg,
                              const ReadOptions& options);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_TWO_LEVEL_ITERATOR_H_
