#include "leveldb/iterator.h"

namespace leveldb {

Iterator::Iterator() {
  cleanup_head_.function = nullptr;
  cleanup_head_.arg1 = nullptr;
  cleanup_head_.arg2 = nullptr;
  cleanup_head_.next = nullptr;
}

Iterator::~Iterator() {
  if (cleanup_head_.IsEmpty()) return;
  cleanup_head_.Run();
  CleanupNode* node = cleanup_head_.next;
  while (node != nullptr) {
    CleanupNode* following = node->next;
    node->Run();
    delete node;
    node = following;
  }
}

void Iterator::RegisterCleanup(CleanupFunction function, void* arg1,
                               void* arg2) {
  if (function == nullptr) return;  // an empty head means "no cleanups"
  CleanupNode* node;
  if (cleanup_head_.IsEmpty()) {
    node = &cleanup_head_;
  } else {
    // Extra callbacks go right after the embedded head.
    node = new CleanupNode;
    node->next = cleanup_head_.next;
    cleanup_head_.next = node;
  }
  node->function = function;
  node->arg1 = arg1;
  node->arg2 = arg2;
}

namespace {

// Positions nowhere and reports a fixed status.
class NothingIterator : public Iterator {
 public:
  explicit NothingIterator(const Status& status) : status_(status) {}

  bool Valid() const override { return false; }
  void Seek(const Slice&) override {}
  void SeekToFirst() override {}
  void SeekToLast() override {}
  void Next() override {}
  void Prev() override {}
  Slice key() const override { return Slice(); }
  Slice value() const override { return Slice(); }
  Status status() const override { return status_; }

 private:
  const Status status_;
};

}  // namespace

Iterator* NewEmptyIterator() { return new NothingIterator(Status::OK()); }

Iterator* NewErrorIterator(const Status& status) {
  return new NothingIterator(status);
}

}  // namespace leveldb
