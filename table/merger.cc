#include "table/merger.h"

#include "leveldb/comparator.h"
#include "leveldb/iterator.h"
#include "table/iterator_wrapper.h"

namespace leveldb {

namespace {

class MergingIterator : public Iterator {
 public:
  MergingIterator(const Comparator* comparator, Iterator** children, int n)
      : comparator_(comparator),
        children_(new IteratorWrapper[n]),
        num_children_(n) {
    for (int i = 0; i < n; ++i) children_[i].Set(children[i]);
  }

  ~MergingIterator() override { delete[] children_; }

  bool Valid() const override { return current_ != nullptr; }
  Slice key() const override { return current_->key(); }
  Slice value() const override { return current_->value(); }

  Status status() const override {
    for (int i = 0; i < num_children_; ++i) {
      Status s = children_[i].status();
      if (!s.ok()) return s;
    }
    return Status::OK();
  }

  void SeekToFirst() override {
    for (int i = 0; i < num_children_; ++i) children_[i].SeekToFirst();
    forward_ = true;
    PickSmallest();
  }

  void SeekToLast() override {
    for (int i = 0; i < num_children_; ++i) children_[i].SeekToLast();
    forward_ = false;
    PickLargest();
  }

  void Seek(const Slice& target) override {
    for (int i = 0; i < num_children_; ++i) children_[i].Seek(target);
    forward_ = true;
    PickSmallest();
  }

  void Next() override {
    if (current_ == nullptr) return;
    if (!forward_) {
      // The other children sit before key(); move each to its first entry
      // after key() so they are all ahead of the current position again.
      const Slice current_key = key();
      for (int i = 0; i < num_children_; ++i) {
        IteratorWrapper* child = &children_[i];
        if (child == current_) continue;
        child->Seek(current_key);
        if (child->Valid() &&
            comparator_->Compare(current_key, child->key()) == 0) {
          child->Next();
        }
      }
      forward_ = true;
    }
    current_->Next();
    PickSmallest();
  }

  void Prev() override {
    if (current_ == nullptr) return;
    if (forward_) {
      // The other children sit at or after key(); move each to its last
      // entry before key().
      const Slice current_key = key();
      for (int i = 0; i < num_children_; ++i) {
        IteratorWrapper* child = &children_[i];
        if (child == current_) continue;
        child->Seek(current_key);
        if (child->Valid()) {
          child->Prev();
        } else {
          child->SeekToLast();  // everything in it is before key()
        }
      }
      forward_ = false;
    }
    current_->Prev();
    PickLargest();
  }

 private:
  // Ties go to the lowest-numbered child, so that equal keys come out in
  // child order when moving forward.
  void PickSmallest() {
    IteratorWrapper* best = nullptr;
    for (int i = 0; i < num_children_; ++i) {
      IteratorWrapper* child = &children_[i];
      if (!child->Valid()) continue;
      if (best == nullptr ||
          comparator_->Compare(child->key(), best->key()) < 0) {
        best = child;
      }
    }
    current_ = best;
  }

  // Ties go to the highest-numbered child, the mirror image of forward.
  void PickLargest() {
    IteratorWrapper* best = nullptr;
    for (int i = num_children_ - 1; i >= 0; --i) {
      IteratorWrapper* child = &children_[i];
      if (!child->Valid()) continue;
      if (best == nullptr ||
          comparator_->Compare(child->key(), best->key()) > 0) {
        best = child;
      }
    }
    current_ = best;
  }

  const Comparator* const comparator_;
  IteratorWrapper* const children_;
  const int num_children_;
  IteratorWrapper* current_ = nullptr;
  bool forward_ = true;
};

}  // namespace

Iterator* NewMergingIterator(const Comparator* comparator, Iterator** children,
                             int n) {
  if (n <= 0) return NewEmptyIterator();
  if (n == 1) return children[0];
  return new MergingIterator(comparator, children, n);
}

}  // namespace leveldb
