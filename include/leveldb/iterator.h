// Iterator: walks over entries (a key and a value each) in key order.  DBs,
// tables and blocks each return their own subclass.
//
// Threading: sharing one Iterator between threads is safe for const
// methods only; as soon as a thread may modify it, guard every use of it
// with one mutex.

#ifndef STORAGE_LEVELDB_INCLUDE_ITERATOR_H_
#define STORAGE_LEVELDB_INCLUDE_ITERATOR_H_

#include "leveldb/export.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

class LEVELDB_EXPORT Iterator {
 public:
  Iterator();

  Iterator(const Iterator&) = delete;
  Iterator& operator=(const Iterator&) = delete;

  // Runs every registered cleanup callback.
  virtual ~Iterator();

  // True while the iterator sits on an entry.
  virtual bool Valid() const = 0;

  // Positions at the smallest key.  Afterwards Valid() is false only when
  // there are no entries at all.
  virtual void SeekToFirst() = 0;

  // Positions at the largest key.  Afterwards Valid() is false only when
  // there are no entries at all.
  virtual void SeekToLast() = 0;

  // Positions at the smallest key that is >= target.  Afterwards Valid() is
  // false when every key is smaller than target.
  virtual void Seek(const Slice& target) = 0;

  // Goes to the following key.  REQUIRES: Valid().  Moving on from the
  // largest key makes Valid() false.
  virtual void Next() = 0;

  // Goes to the preceding key.  REQUIRES: Valid().  Moving back from the
  // smallest key makes Valid() false.
  virtual void Prev() = 0;

  // The key at the current position.  REQUIRES: Valid().  The returned
  // bytes may change or disappear as soon as the iterator is moved or
  // changed; copy them to keep them longer.
  virtual Slice key() const = 0;

  // The value at the current position.  REQUIRES: Valid().  Stays usable
  // exactly as long as the result of key() does.
  virtual Slice value() const = 0;

  // OK, or the first error the iterator ran into.
  virtual Status status() const = 0;

  // Adds a callback: function(arg1, arg2) runs when the iterator is
  // deleted.  Any number can be added.  Not virtual; subclasses should not
  // redefine it.
  using CleanupFunction = void (*)(void* arg1, void* arg2);
  void RegisterCleanup(CleanupFunction function, void* arg1, void* arg2);

 private:
  // One registered callback.  The first one lives directly inside the
  // iterator (so the common single-callback case needs no allocation);
  // further ones are heap nodes chained through `next`.
  struct CleanupNode {
    // A null function marks the embedded head as holding no callback (other
    // nodes always hold one).
    bool IsEmpty() const { return function == nullptr; }

    // Invokes function(arg1, arg2).
    void Run() {
      assert(function != nullptr);
      function(arg1, arg2);
    }

    CleanupFunction function;
    void* arg1;
    void* arg2;
    CleanupNode* next;
  };
  CleanupNode cleanup_head_;
};

// Returns an iterator that has no entries and whose status is OK.
LEVELDB_EXPORT Iterator* NewEmptyIterator();

// Returns an iterator that has no entries and whose status() is `status`.
LEVELDB_EXPORT Iterator* NewErrorIterator(const Status& status);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_ITERATOR_H_
