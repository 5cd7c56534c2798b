// An ordered set implemented as a skiplist whose nodes live in an Arena.
//
// Concurrency: Insert() needs external synchronization between writers (one
// writer at a time). Readers (Contains and Iterator) need no locking and may
// run concurrently with the writer; they require only that the SkipList is
// not destroyed while in use. Nodes are never removed, so a pointer a reader
// has obtained stays valid for the life of the list.
//
// Publication: a new node is fully built (key and its own forward links)
// before a release store links it into the list; readers follow links with
// acquire loads, so whatever they reach is fully initialized.
#ifndef STORAGE_LEVELDB_DB_SKIPLIST_H_
#define STORAGE_LEVELDB_DB_SKIPLIST_H_

#include <atomic>
#include <cassert>
#include <cstddef>
#include <new>

#include "util/arena.h"
#include "util/random.h"

namespace leveldb {

template <typename Key, class Comparator>
class SkipList {
 private:
  struct Node;

 public:
  // cmp orders the keys; arena provides the node memory and must outlive
  // the list.
  SkipList(Comparator cmp, Arena* arena);

  SkipList(const SkipList&) = delete;
  SkipList& operator=(const SkipList&) = delete;

  // Adds key. The list must not already hold a key comparing equal.
  void Insert(const Key& key);

  // True if a key comparing equal to key is in the list.
  bool Contains(const Key& key) const;

  // Walks the list. Usable concurrently with Insert(); sees at least the
  // keys inserted before each positioning call.
  class Iterator {
   public:
    explicit Iterator(const SkipList* list) : list_(list), node_(nullptr) {}

    bool Valid() const { return node_ != nullptr; }

    // Requires Valid().
    const Key& key() const {
      assert(Valid());
      return node_->key;
    }

    // Requires Valid().
    void Next() {
      assert(Valid());
      node_ = node_->Next(0);
    }

    // Requires Valid(). There are no back links, so this searches again.
    void Prev() {
      assert(Valid());
      node_ = list_->LastBefore(node_->key);
      if (node_ == list_->head_) node_ = nullptr;
    }

    // Positions at the first key >= target.
    void Seek(const Key& target) {
      node_ = list_->FirstAtOrAfter(target, nullptr);
    }

    void SeekToFirst() { node_ = list_->head_->Next(0); }

    void SeekToLast() {
      node_ = list_->LastNode();
      if (node_ == list_->head_) node_ = nullptr;
    }

   private:
    const SkipList* list_;
    Node* node_;
  };

 private:
  static constexpr int kMaxHeight = 12;
  // Each level holds about one in kBranching of the nodes below it.
  static constexpr unsigned int kBranching = 4;

  Node* NewNode(const Key& key, int height);
  int PickHeight();

  int CurrentHeight() const {
    return max_height_.load(std::memory_order_relaxed);
  }

  bool Equal(const Key& a, const Key& b) const { return compare_(a, b) == 0; }

  // First node whose key is >= key, or nullptr. If preds is not null, fills
  // preds[level] with the last node before that point on every level below
  // CurrentHeight().
  Node* FirstAtOrAfter(const Key& key, Node** preds) const;

  // Last node whose key is < key, or head_ if there is none.
  Node* LastBefore(const Key& key) const;

  // Last node of the list, or head_ if the list is empty.
  Node* LastNode() const;

  Comparator const compare_;
  Arena* const arena_;
  Node* const head_;

  // Height of the tallest node. Written only by the writer; readers may
  // see a stale value, which is harmless (see Insert).
  std::atomic<int> max_height_;

  // Only touched by the writer.
  Random rnd_;
};

// A node is allocated with exactly `height` links; links_ is declared with
// one element and the rest follow it in the same arena allocation.
template <typename Key, class Comparator>
struct SkipList<Key, Comparator>::Node {
  // Placement-constructed over memory sized for `height` links.
  Node(const Key& k, int height) : key(k) {
    for (int i = 0; i < height; ++i) {
      new (links_ + i) std::atomic<Node*>(nullptr);
    }
  }

  Key const key;

  Node* Next(int level) {
    return links_[level].load(std::memory_order_acquire);
  }
  void SetNext(int level, Node* n) {
    links_[level].store(n, std::memory_order_release);
  }

  // Used only while the node is still private to the writer, or by the
  // writer reading links that only it stores.
  Node* RelaxedNext(int level) {
    return links_[level].load(std::memory_order_relaxed);
  }
  void RelaxedSetNext(int level, Node* n) {
    links_[level].store(n, std::memory_order_relaxed);
  }

 private:
  std::atomic<Node*> links_[1];
};

template <typename Key, class Comparator>
typename SkipList<Key, Comparator>::Node* SkipList<Key, Comparator>::NewNode(
    const Key& key, int height) {
  const size_t bytes = sizeof(Node) + sizeof(std::atomic<Node*>) * (height - 1);
  return new (arena_->AllocateAligned(bytes)) Node(key, height);
}

template <typename Key, class Comparator>
int SkipList<Key, Comparator>::PickHeight() {
  int height = 1;
  while (height < kMaxHeight && rnd_.Next() % kBranching == 0) ++height;
  return height;
}

template <typename Key, class Comparator>
SkipList<Key, Comparator>::SkipList(Comparator cmp, Arena* arena)
    : compare_(cmp),
      arena_(arena),
      head_(NewNode(Key(), kMaxHeight)),
      max_height_(1),
      rnd_(0x5eed1e57) {}

template <typename Key, class Comparator>
typename SkipList<Key, Comparator>::Node*
SkipList<Key, Comparator>::FirstAtOrAfter(const Key& key, Node** preds) const {
  Node* at = head_;
  for (int level = CurrentHeight() - 1; level >= 0; --level) {
    Node* next = at->Next(level);
    // Advance along this level while the next key is still smaller.
    while (next != nullptr && compare_(next->key, key) < 0) {
      at = next;
      next = at->Next(level);
    }
    if (preds != nullptr) preds[level] = at;
    if (level == 0) return next;
  }
  return nullptr;  // not reached: the height is always >= 1
}

template <typename Key, class Comparator>
typename SkipList<Key, Comparator>::Node* SkipList<Key, Comparator>::LastBefore(
    const Key& key) const {
  // The descent that finds the first node >= key passes, on level 0, the
  // last node before it.
  Node* preds[kMaxHeight];
  FirstAtOrAfter(key, preds);
  return preds[0];
}

template <typename Key, class Comparator>
typename SkipList<Key, Comparator>::Node* SkipList<Key, Comparator>::LastNode()
    const {
  Node* at = head_;
  for (int level = CurrentHeight() - 1; level >= 0; --level) {
    for (Node* next = at->Next(level); next != nullptr;
         next = at->Next(level)) {
      at = next;
    }
  }
  return at;
}

template <typename Key, class Comparator>
void SkipList<Key, Comparator>::Insert(const Key& key) {
  Node* preds[kMaxHeight];
  Node* successor = FirstAtOrAfter(key, preds);
  assert(successor == nullptr || !Equal(key, successor->key));
  (void)successor;

  const int height = PickHeight();
  const int old_height = CurrentHeight();
  if (height > old_height) {
    for (int level = old_height; level < height; ++level) preds[level] = head_;
    // A reader that sees the new height before the node is linked finds
    // null links from head_ on the new levels and just drops a level; one
    // that sees the old height never looks at them. Either way it is safe,
    // so no ordering is needed here.
    max_height_.store(height, std::memory_order_relaxed);
  }

  Node* node = NewNode(key, height);
  for (int level = 0; level < height; ++level) {
    // The node is not yet reachable, so its own links need no ordering; the
    // release store into the predecessor publishes the node and its links.
    node->RelaxedSetNext(level, preds[level]->RelaxedNext(level));
    preds[level]->SetNext(level, node);
  }
}

template <typename Key, class Comparator>
bool SkipList<Key, Comparator>::Contains(const Key& key) const {
  Node* found = FirstAtOrAfter(key, nullptr);
  return found != nullptr && Equal(key, found->key);
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_SKIPLIST_H_
