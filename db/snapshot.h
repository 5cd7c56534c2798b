// Snapshots handed out by DBImpl::GetSnapshot. Each one pins a sequence
// number; the DB keeps them in a list ordered by creation time so that
// compactions can ask for the oldest sequence number still visible.
#ifndef STORAGE_LEVELDB_DB_SNAPSHOT_H_
#define STORAGE_LEVELDB_DB_SNAPSHOT_H_

#include <cassert>

#include "db/dbformat.h"
#include "leveldb/db.h"

namespace leveldb {

class SnapshotList;

class SnapshotImpl : public Snapshot {
 public:
  explicit SnapshotImpl(SequenceNumber sequence) : sequence_(sequence) {}

  SequenceNumber sequence_number() const { return sequence_; }

 private:
  friend class SnapshotList;

  const SequenceNumber sequence_;

  // Neighbours in the owning list (circular, through the list's sentinel).
  SnapshotImpl* older_ = nullptr;
  SnapshotImpl* newer_ = nullptr;

#ifndef NDEBUG
  // Lets Delete() check that a snapshot goes back to the list it came from.
  SnapshotList* owner_ = nullptr;
#endif
};

// Not thread-safe: the DB guards it with its mutex.
class SnapshotList {
 public:
  SnapshotList() : sentinel_(0) {
    sentinel_.older_ = &sentinel_;
    sentinel_.newer_ = &sentinel_;
  }
  SnapshotList(const SnapshotList&) = delete;
  SnapshotList& operator=(const SnapshotList&) = delete;

  bool empty() const { return sentinel_.newer_ == &sentinel_; }

  // Both require !empty().
  SnapshotImpl* oldest() const {
    assert(!empty());
    return sentinel_.newer_;
  }
  SnapshotImpl* newest() const {
    assert(!empty());
    return sentinel_.older_;
  }

  // Appends a snapshot of `sequence`, which must not be older than the
  // newest snapshot already in the list.
  SnapshotImpl* New(SequenceNumber sequence) {
    assert(empty() || newest()->sequence_ <= sequence);
    SnapshotImpl* snap = new SnapshotImpl(sequence);
#ifndef NDEBUG
    snap->owner_ = this;
#endif
    // Insert between the current newest and the sentinel.
    snap->newer_ = &sentinel_;
    snap->older_ = sentinel_.older_;
    snap->older_->newer_ = snap;
    sentinel_.older_ = snap;
    return snap;
  }

  // Unlinks and frees a snapshot returned by New().
  void Delete(const SnapshotImpl* snapshot) {
#ifndef NDEBUG
    assert(snapshot->owner_ == this);
#endif
    snapshot->older_->newer_ = snapshot->newer_;
    snapshot->newer_->older_ = snapshot->older_;
    delete snapshot;
  }

 private:
  // Sentinel of the circular list: newer_ is the oldest snapshot, older_
  // the newest.
  SnapshotImpl sentinel_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_SNAPSHOT_H_
