// The expected-state oracle of db_stress (docs/stress.md, "The oracle").
//
// Every write to a key gets the next version of that key (Puts and Deletes
// alike), and a Put's value is a function of (key, version), so a value
// read back names the version it belongs to and proves it is intact. The
// oracle stores, per key, the last acknowledged version and the highest
// version issued, in a memory-mapped file: a version is recorded as issued
// before the write starts, so after a SIGKILL the file still bounds what
// the database may hold.

#ifndef STORAGE_LEVELDB_BENCHMARKS_STRESS_EXPECTED_STATE_H_
#define STORAGE_LEVELDB_BENCHMARKS_STRESS_EXPECTED_STATE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "leveldb/slice.h"

namespace stress {

// Versions fill 30 bits of the oracle's packed word.
constexpr uint32_t kMaxVersion = (1u << 30) - 1;

// What the oracle knows about one key. Version 0 is "never written".
struct KeyState {
  uint32_t acked = 0;      // last acknowledged version
  bool acked_del = true;   // it is a Delete (or the key was never written)
  uint32_t top = 0;        // highest version issued
  bool maybe = false;      // versions in (acked, top] may be in the DB
  bool maybe_del = false;  // one of those is a Delete
};

// What a read returned for one key.
struct Found {
  bool present = false;
  uint32_t version = 0;
};

// The memory-mapped oracle: a header and one packed KeyState per key.
class ExpectedState {
 public:
  // Maps `path`, creating it (all keys never written) when missing; an
  // existing file must have been made for `num_keys` keys. Returns "" or
  // an error message.
  static std::string Open(const std::string& path, uint32_t num_keys,
                          std::unique_ptr<ExpectedState>* result);
  ~ExpectedState();

  ExpectedState(const ExpectedState&) = delete;
  ExpectedState& operator=(const ExpectedState&) = delete;

  uint32_t num_keys() const { return num_keys_; }
  KeyState Load(uint32_t key) const;
  void Store(uint32_t key, const KeyState& state);

 private:
  ExpectedState(void* map, size_t bytes, uint32_t num_keys);

  void* const map_;
  const size_t bytes_;
  const uint32_t num_keys_;
  std::atomic<uint64_t>* slots_;
};

// Lower bounds on what a power loss may keep, per key. A power loss is
// simulated inside one process, so this lives in memory. A sync write that
// completes makes durable every write acknowledged before it was issued
// (they precede it in the log) and itself; nothing else is known durable.
class DurabilityTracker {
 public:
  explicit DurabilityTracker(uint32_t num_keys);

  // Marks the moment a write is issued: pass it to Acked, and for a sync
  // write to SyncDone.
  uint64_t IssueMark() const { return acks_.load(); }
  void SyncDone(uint64_t mark);
  // An acknowledged write of `key` issued at `issue`; the caller holds the
  // key's lock.
  void Acked(uint32_t key, uint32_t version, bool del, bool sync,
             uint64_t issue);
  // Forgets the history of `key`: `version` is durable.
  void Reset(uint32_t key, uint32_t version, bool del);

  struct Floor {
    uint32_t version = 0;       // a power loss keeps at least this version
    bool del_possible = false;  // a Delete at or after it may be what is kept
  };
  // Call with no writer running.
  Floor FloorOf(uint32_t key);

  // After a power loss, with `found` and `states` the recovered state and
  // the oracle's for every key: "" unless a write survived that was issued
  // after an acknowledged write was lost (the log is a sequence, so what
  // survives must be a prefix of it). Call with no writer running.
  std::string CheckPrefix(const std::vector<Found>& found,
                          const std::vector<KeyState>& states);

 private:
  struct Ack {
    uint32_t version;
    bool del;
    uint64_t seq;    // position in the order of acknowledgements
    uint64_t issue;  // acknowledgements made before this write was issued
  };
  struct History {
    uint32_t base = 0;
    bool base_del = true;
    bool uncertain = false;  // acks newer than base were forgotten
    std::vector<Ack> recent;
  };
  void Advance(History* h);

  std::atomic<uint64_t> acks_{0};
  std::atomic<uint64_t> durable_{0};
  std::vector<History> keys_;
};

// "" when `found` is what the database may hold for a key in state `s`
// with nothing lost (live reads, and recovery after a process kill);
// otherwise what was allowed.
std::string CheckExact(const KeyState& s, const Found& found);
// The same after a power loss whose floor for the key is `floor`.
std::string CheckAfterPowerLoss(const KeyState& s,
                                const DurabilityTracker::Floor& floor,
                                const Found& found);
// The same for a read at a snapshot taken after the key was in state `lo`
// and before it was in state `hi`.
std::string CheckBetween(const KeyState& lo, const KeyState& hi,
                         const Found& found);

// Keys are "k" and 8 hex digits, so their order is the numeric one.
std::string KeyString(uint32_t key);
bool ParseKey(const leveldb::Slice& s, uint32_t* key);
// The other keys of the write batch a value was written by, with the
// versions the batch gave them. Batches are atomic: a state (recovered, or
// a snapshot) that holds the value holds at least those versions.
struct BatchEntry {
  uint32_t key;
  uint32_t version;
  bool del;
};
using BatchList = std::vector<BatchEntry>;

// The value of `version` of `key`: a header naming both and the rest of
// its batch, then up to max_len bytes, random or repetitive (compressible).
std::string ValueFor(uint32_t key, uint32_t version, size_t max_len,
                     const BatchList& batch);
// Sets *version and *batch if `value` is exactly ValueFor(key, version,
// max_len, batch) for some version and batch.
bool DecodeValue(uint32_t key, const leveldb::Slice& value, size_t max_len,
                 uint32_t* version, BatchList* batch);
// "" if a state holding a value whose batch had entry `e` may hold `found`
// for e.key, which is now in state `now`.
std::string CheckBatchEntry(const BatchEntry& e, const Found& found,
                            const KeyState& now);

std::string Describe(const Found& found);

}  // namespace stress

#endif  // STORAGE_LEVELDB_BENCHMARKS_STRESS_EXPECTED_STATE_H_
