// Wraps an Iterator and remembers Valid() and key() of its current entry,
// so that merging and two-level iteration compare keys without a virtual
// call each time.
#ifndef STORAGE_LEVELDB_TABLE_ITERATOR_WRAPPER_H_
#define STORAGE_LEVELDB_TABLE_ITERATOR_WRAPPER_H_

#include "leveldb/iterator.h"
#include "leveldb/slice.h"

namespace leveldb {

class IteratorWrapper {
 public:
  IteratorWrapper() = default;
  explicit IteratorWrapper(Iterator* iter) { Set(iter); }

  IteratorWrapper(const IteratorWrapper&) = delete;
  IteratorWrapper& operator=(const IteratorWrapper&) = delete;

  ~IteratorWrapper() { delete iter_; }

  Iterator* iter() const { return iter_; }

  // Takes ownership of iter (which may be null) and deletes the old one.
  void Set(Iterator* iter) {
    delete iter_;
    iter_ = iter;
    if (iter_ == nullptr) {
      valid_ = false;
    } else {
      Refresh();
    }
  }

  // The accessors below require iter() != nullptr.
  bool Valid() const { return valid_; }
  Slice key() const { return key_; }
  Slice value() const { return iter_->value(); }
  Status status() const { return iter_->status(); }

  void Next() {
    iter_->Next();
    Refresh();
  }
  void Prev() {
    iter_->Prev();
    Refresh();
  }
  void Seek(const Slice& target) {
    iter_->Seek(target);
    Refresh();
  }
  void SeekToFirst() {
    iter_->SeekToFirst();
    Refresh();
  }
  void SeekToLast() {
    iter_->SeekToLast();
    Refresh();
  }

 private:
  void Refresh() {
    valid_ = iter_->Valid();
    if (valid_) key_ = iter_->key();
  }

  Iterator* iter_ = nullptr;
  bool valid_ = false;
  Slice key_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_ITERATOR_WRAPPER_H_
