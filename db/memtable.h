// The in-memory write buffer: a reference-counted skiplist of entries,
// ordered by internal key, whose bytes live in an arena.
#ifndef STORAGE_LEVELDB_DB_MEMTABLE_H_
#define STORAGE_LEVELDB_DB_MEMTABLE_H_

#include <cstddef>
#include <string>

#include "db/dbformat.h"
#include "db/skiplist.h"
#include "leveldb/iterator.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "util/arena.h"

namespace leveldb {

class MemTable {
 public:
  // Starts with a reference count of zero; callers Ref() it first.
  explicit MemTable(const InternalKeyComparator& comparator);

  MemTable(const MemTable&) = delete;
  MemTable& operator=(const MemTable&) = delete;

  void Ref() { ++refs_; }

  // Deletes the memtable when the last reference goes.
  void Unref() {
    --refs_;
    if (refs_ <= 0) delete this;
  }

  // Bytes held by the memtable. Safe to call while another thread writes.
  size_t ApproximateMemoryUsage();

  // Iterates over the entries; key() is an internal key. The memtable must
  // stay referenced while the iterator lives.
  Iterator* NewIterator();

  // Adds an entry for key at sequence number seq. type kTypeDeletion marks
  // a deletion (value is then normally empty). Needs external
  // synchronization with other writers, but not with readers.
  void Add(SequenceNumber seq, ValueType type, const Slice& key,
           const Slice& value);

  // Looks up the newest entry for key.user_key() with sequence <= the key's
  // sequence. Returns true with *value set if it is a value, true with
  // *s = NotFound if it is a deletion, false if there is no entry.
  bool Get(const LookupKey& key, std::string* value, Status* s);

 private:
  friend class MemTableIterator;

  // Orders the arena entries, which start with a length-prefixed internal
  // key.
  struct EntryComparator {
    const InternalKeyComparator internal;
    explicit EntryComparator(const InternalKeyComparator& c) : internal(c) {}
    int operator()(const char* a, const char* b) const;
  };

  using Table = SkipList<const char*, EntryComparator>;

  ~MemTable();  // only Unref() deletes

  EntryComparator comparator_;
  int refs_;
  Arena arena_;
  Table table_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_MEMTABLE_H_
