// The operations of db_stress's worker threads.

#include <algorithm>
#include <chrono>
#include <thread>

#include "leveldb/write_batch.h"
#include "stress/stressor.h"

namespace stress {

namespace {

using KeyLocks = std::vector<std::unique_lock<std::mutex>>;

// Locks the keys' mutexes in ascending order (keys must be sorted), so
// that two batches can never wait on each other.
KeyLocks LockKeys(std::mutex* locks, const std::vector<uint32_t>& keys) {
  KeyLocks held;
  held.reserve(keys.size());
  for (uint32_t k : keys) held.emplace_back(locks[k]);
  return held;
}

}  // namespace

void Stressor::Worker(int id) {
  Rng rng(Mix64(flags_.seed) + 1000 + id);
  while (true) {
    gate_.Enter();
    if (stop_ || failed_) {
      gate_.Exit();
      break;
    }
    DoOp(&rng);
    gate_.Exit();
    if (reopen_wanted_) {
      // The database refuses writes until the main thread reopens it.
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
}

bool Stressor::Step(Rng* rng) {
  // A database waiting for its reopen refuses writes: try another.
  if (reopen_wanted_ || !gate_.TryEnter()) return false;
  const bool run = !failed_;
  if (run) DoOp(rng);
  gate_.Exit();
  return run;
}

void Stressor::DoOp(Rng* rng) {
  const uint32_t r = rng->Uniform(100);
  if (r < 30) {
    DoWrite(rng, 1);
  } else if (r < 40) {
    DoWrite(rng, 2 + rng->Uniform(7));
  } else if (r < 70) {
    DoGet(rng);
  } else if (r < 85) {
    DoScan(rng);
  } else {
    DoSnapshotRead(rng);
  }
  counters_.ops++;
}

void Stressor::DoWrite(Rng* rng, int nkeys) {
  std::vector<uint32_t> keys;
  for (int i = 0; i < nkeys; i++) {
    keys.push_back(rng->Uniform(oracle_->num_keys()));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  KeyLocks held = LockKeys(locks_.get(), keys);
  WriteLocked(keys, rng);
}

bool Stressor::WriteLocked(const std::vector<uint32_t>& keys, Rng* rng) {
  BatchList entries;
  for (uint32_t k : keys) {
    KeyState s = oracle_->Load(k);
    const bool del = rng->OneIn(4);
    const uint32_t v = s.top + 1;
    if (v > kMaxVersion) return false;  // versions of this key used up
    // Recorded before the write is issued: a kill may come at any point.
    s.top = v;
    s.maybe = true;
    s.maybe_del = s.maybe_del || del;
    oracle_->Store(k, s);
    entries.push_back(BatchEntry{k, v, del});
  }
  leveldb::WriteOptions wo;
  wo.sync = rng->Fraction() < config_.sync_fraction;
  const uint64_t mark = tracker_.IssueMark();
  if (!ApplyBatch(entries, wo).ok()) {
    counters_.write_errors++;
    reopen_wanted_ = true;
    return false;
  }
  for (size_t i = 0; i < keys.size(); i++) {
    KeyState s = oracle_->Load(keys[i]);
    s.acked = s.top;
    s.acked_del = entries[i].del;
    s.maybe = s.maybe_del = false;
    oracle_->Store(keys[i], s);
    tracker_.Acked(keys[i], s.acked, entries[i].del, wo.sync, mark);
  }
  if (wo.sync) tracker_.SyncDone(mark);
  counters_.acked_writes += keys.size();
  return true;
}

leveldb::Status Stressor::ApplyBatch(const BatchList& entries,
                                     const leveldb::WriteOptions& wo) {
  // The planted bug --plant=split_batch writes each entry on its own, so
  // that a crash can keep part of a batch.
  const bool split = flags_.plant == "split_batch";
  leveldb::WriteBatch batch;
  for (const BatchEntry& e : entries) {
    if (e.del) {
      batch.Delete(KeyString(e.key));
    } else {
      BatchList others;
      for (const BatchEntry& o : entries) {
        if (o.key != e.key) others.push_back(o);
      }
      batch.Put(KeyString(e.key),
                ValueFor(e.key, e.version, flags_.max_value, others));
    }
    if (split) {
      leveldb::Status s = db_->Write(wo, &batch);
      if (!s.ok()) return s;
      batch.Clear();
    }
  }
  return split ? leveldb::Status::OK() : db_->Write(wo, &batch);
}

void Stressor::DoGet(Rng* rng) {
  const uint32_t k = rng->Uniform(oracle_->num_keys());
  std::lock_guard<std::mutex> lock(locks_[k]);
  const KeyState s = oracle_->Load(k);
  Found f;
  if (ReadKey(leveldb::ReadOptions(), k, &f) != Read::kOk) return;
  const std::string why = CheckExact(s, f);
  if (!why.empty()) {
    Violation(f.present ? "wrong_version" : "false_negative", k,
              "Get found " + Describe(f) + ", " + why);
  }
  counters_.checked++;
}

void Stressor::DoScan(Rng* rng) {
  const uint32_t nkeys = oracle_->num_keys();
  const uint32_t n = 1 + rng->Uniform(std::min<uint32_t>(64, nkeys));
  const uint32_t lo = rng->Uniform(nkeys - n + 1);
  std::vector<KeyState> before(n), after(n);
  for (uint32_t i = 0; i < n; i++) before[i] = oracle_->Load(lo + i);
  const leveldb::Snapshot* snap = db_->GetSnapshot();
  for (uint32_t i = 0; i < n; i++) after[i] = oracle_->Load(lo + i);
  std::vector<Found> first, second;
  std::vector<BatchList> batches, unused;
  if (ScanRange(snap, lo, n, &first, &batches)) {
    for (uint32_t i = 0; i < n && !failed_; i++) {
      const std::string why = CheckBetween(before[i], after[i], first[i]);
      if (!why.empty()) {
        Violation("snapshot_scan", lo + i,
                  "scan found " + Describe(first[i]) + ", " + why);
      }
    }
    counters_.checked += n;
    // The snapshot must not move, whatever was written since.
    CheckScanBatches(snap, batches, lo);
    if (!failed_ && ScanRange(snap, lo, n, &second, &unused)) {
      for (uint32_t i = 0; i < n && !failed_; i++) {
        if (first[i].present != second[i].present ||
            first[i].version != second[i].version) {
          Violation("snapshot_moved", lo + i,
                    "first scan " + Describe(first[i]) + ", second " +
                        Describe(second[i]));
        }
      }
    }
  }
  db_->ReleaseSnapshot(snap);
}

void Stressor::CheckScanBatches(const leveldb::Snapshot* snap,
                                const std::vector<BatchList>& batches,
                                uint32_t lo) {
  // The snapshot holds every batch whose value it shows, whole.
  leveldb::ReadOptions ro;
  ro.snapshot = snap;
  for (size_t i = 0; i < batches.size() && !failed_; i++) {
    for (const BatchEntry& e : batches[i]) {
      Found f;
      if (ReadKey(ro, e.key, &f) != Read::kOk) continue;
      const std::string why = CheckBatchEntry(e, f, oracle_->Load(e.key));
      if (!why.empty()) {
        Violation("torn_batch", lo + static_cast<uint32_t>(i),
                  "a snapshot scan found a batch's value, but " + why);
        return;
      }
      counters_.checked++;
    }
  }
}

void Stressor::DoSnapshotRead(Rng* rng) {
  const uint32_t k = rng->Uniform(oracle_->num_keys());
  std::unique_lock<std::mutex> lock(locks_[k]);
  // With the key locked its state at the snapshot is exactly `s`.
  const KeyState s = oracle_->Load(k);
  const leveldb::Snapshot* snap = db_->GetSnapshot();
  WriteLocked({k}, rng);
  leveldb::ReadOptions ro;
  ro.snapshot = snap;
  Found old_f, new_f;
  if (ReadKey(ro, k, &old_f) == Read::kOk) {
    const std::string why = CheckExact(s, old_f);
    if (!why.empty()) {
      Violation("snapshot_get", k,
                "Get at a snapshot found " + Describe(old_f) + ", " + why);
    }
    counters_.checked++;
  }
  const KeyState now = oracle_->Load(k);
  if (ReadKey(leveldb::ReadOptions(), k, &new_f) == Read::kOk) {
    const std::string why = CheckExact(now, new_f);
    if (!why.empty()) {
      Violation(new_f.present ? "wrong_version" : "false_negative", k,
                "Get after a write found " + Describe(new_f) + ", " + why);
    }
    counters_.checked++;
  }
  db_->ReleaseSnapshot(snap);
}

}  // namespace stress
