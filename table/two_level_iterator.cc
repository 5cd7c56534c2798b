#include "table/two_level_iterator.h"

#include <string>

#include "leveldb/options.h"
#include "table/iterator_wrapper.h"

namespace leveldb {

namespace {

class TwoLevelIterator : public Iterator {
 public:
  TwoLevelIterator(Iterator* index_iter, InnerIteratorFunction open_inner,
                   void* arg, const ReadOptions& options)
      : open_inner_(open_inner),
        arg_(arg),
        options_(options),
        index_(index_iter) {}

  bool Valid() const override {
    return inner_.iter() != nullptr && inner_.Valid();
  }
  Slice key() const override { return inner_.key(); }
  Slice value() const override { return inner_.value(); }

  Status status() const override {
    if (!index_.status().ok()) return index_.status();
    if (inner_.iter() != nullptr && !inner_.status().ok()) {
      return inner_.status();
    }
    return saved_error_;
  }

  void Seek(const Slice& target) override {
    index_.Seek(target);
    OpenInnerAtIndex();
    if (inner_.iter() != nullptr) inner_.Seek(target);
    SkipExhaustedForward();
  }

  void SeekToFirst() override {
    index_.SeekToFirst();
    OpenInnerAtIndex();
    if (inner_.iter() != nullptr) inner_.SeekToFirst();
    SkipExhaustedForward();
  }

  void SeekToLast() override {
    index_.SeekToLast();
    OpenInnerAtIndex();
    if (inner_.iter() != nullptr) inner_.SeekToLast();
    SkipExhaustedBackward();
  }

  void Next() override {
    if (!Valid()) return;
    inner_.Next();
    SkipExhaustedForward();
  }

  void Prev() override {
    if (!Valid()) return;
    inner_.Prev();
    SkipExhaustedBackward();
  }

 private:
  // Keeps the first error of an inner iterator that is being replaced.
  void ReplaceInner(Iterator* iter) {
    if (inner_.iter() != nullptr && saved_error_.ok()) {
      saved_error_ = inner_.status();
    }
    inner_.Set(iter);
  }

  // Makes inner_ iterate the entry the index is on (reusing the current
  // inner iterator when it already does), or clears it.
  void OpenInnerAtIndex() {
    if (!index_.Valid()) {
      ReplaceInner(nullptr);
      return;
    }
    const Slice handle = index_.value();
    if (inner_.iter() != nullptr && handle == Slice(inner_handle_)) return;
    Iterator* iter = (*open_inner_)(arg_, options_, handle);
    inner_handle_.assign(handle.data(), handle.size());
    ReplaceInner(iter);
  }

  // Moves on to later inner iterators while the current one has no entry.
  void SkipExhaustedForward() {
    while (inner_.iter() == nullptr || !inner_.Valid()) {
      if (!index_.Valid()) {
        ReplaceInner(nullptr);
        return;
      }
      index_.Next();
      OpenInnerAtIndex();
      if (inner_.iter() != nullptr) inner_.SeekToFirst();
    }
  }

  void SkipExhaustedBackward() {
    while (inner_.iter() == nullptr || !inner_.Valid()) {
      if (!index_.Valid()) {
        ReplaceInner(nullptr);
        return;
      }
      index_.Prev();
      OpenInnerAtIndex();
      if (inner_.iter() != nullptr) inner_.SeekToLast();
    }
  }

  const InnerIteratorFunction open_inner_;
  void* const arg_;
  const ReadOptions options_;
  Status saved_error_;
  IteratorWrapper index_;
  IteratorWrapper inner_;
  // Index value the current inner iterator was opened from.
  std::string inner_handle_;
};

}  // namespace

Iterator* NewTwoLevelIterator(Iterator* index_iter,
                              InnerIteratorFunction open_inner, void* arg,
                              const ReadOptions& options) {
  return new TwoLevelIterator(index_iter, open_inner, arg, options);
}

}  // namespace leveldb
