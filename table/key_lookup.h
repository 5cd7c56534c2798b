// KeyLookup: one point lookup of a user key in a DB's tables.
//
// The DB's version builds one per Get and hands it, unchanged, through the
// table cache (which screens each table with ElasticBF's units) to the
// table probe (ProbeTable, table/table_state.h). The probe hands it the one
// entry it lands on, and the lookup itself decides what that entry means
// (the value, a deletion, a damaged key, or another key), so no caller can
// forget to record whether the table held the key. What each table probe
// did is kept beside the outcome and counted in the DB's IoStats when the
// probe ends.
#ifndef STORAGE_LEVELDB_TABLE_KEY_LOOKUP_H_
#define STORAGE_LEVELDB_TABLE_KEY_LOOKUP_H_

#include <cstdint>
#include <string>

#include "leveldb/comparator.h"
#include "leveldb/slice.h"
#include "util/coding.h"
#include "util/io_stats.h"

namespace leveldb {

class KeyLookup {
 public:
  enum class Outcome : uint8_t {
    kNotFound,  // no table probed so far holds an entry of the key
    kFound,     // the newest entry is a value, now in *value
    kDeleted,   // the newest entry is a deletion
    kCorrupt,   // the entry landed on is not a well-formed internal key
  };

  // What the current table probe did.
  struct Probe {
    bool consulted_filter = false;  // a filter (unit or table's) was asked
    bool filter_rejected = false;   // ... and it ruled the key out
    bool read_data_block = false;   // a data block was fetched
    bool block_from_cache = false;  // ... from the block cache
    bool key_matched = false;       // the table holds an entry of the key
  };

  // Table keys are internal keys: the user key, then 8 bytes holding the
  // sequence number and, in the low byte, the entry's type.
  static constexpr size_t kTagSize = 8;
  static constexpr uint8_t kDeletionType = 0;
  static constexpr uint8_t kValueType = 1;
  // The largest sequence number a tag holds (56 bits).
  static constexpr uint64_t kMaxSequence = (uint64_t{1} << 56) - 1;

  // Looks up `internal_key` (the user key tagged with the read's sequence
  // number) among tables ordered by `user_comparator`. key_hash is
  // KeyHash64 of the user key when the DB screens tables with ElasticBF
  // (else unused). A value found is stored in *value. stats (may be null)
  // receives the counts of every probe. All must outlive the lookup.
  KeyLookup(const Comparator* user_comparator, const Slice& internal_key,
            uint64_t key_hash, std::string* value, IoStats* stats)
      : ucmp_(user_comparator),
        internal_key_(internal_key),
        key_hash_(key_hash),
        value_(value),
        stats_(stats) {}

  KeyLookup(const KeyLookup&) = delete;
  KeyLookup& operator=(const KeyLookup&) = delete;

  const Slice& internal_key() const { return internal_key_; }
  Slice user_key() const {
    return Slice(internal_key_.data(), internal_key_.size() - kTagSize);
  }
  uint64_t key_hash() const { return key_hash_; }
  Outcome outcome() const { return outcome_; }
  const Probe& probe() const { return probe_; }

  // True when the lookup's sequence number is the largest possible: it
  // sees every entry of its user key in any table (the DB asks so when no
  // snapshot hides entries of the tables it reads).
  bool SeesAllEntries() const {
    const uint64_t tag = LoadFixed64(internal_key_.data() + user_key().size());
    return (tag >> 8) == kMaxSequence;
  }

  // True when the probe just ended proved that the table holds no entry of
  // the user key at all (not just none visible at the lookup's sequence):
  // a block was read, the entry landed on is well formed and of another
  // key, and the lookup sees all entries.
  bool ProvedAbsent() const {
    return probe_.read_data_block && !probe_.key_matched &&
           outcome_ != Outcome::kCorrupt && SeesAllEntries();
  }

  // True when the probe just ended read a data block for nothing: a seek
  // a compaction could have saved.
  bool WastedRead() const {
    return probe_.read_data_block && !probe_.key_matched;
  }

  // Table layer: a filter was asked about the key, and ruled it out or not.
  void NoteFilter(bool rejected) {
    probe_.consulted_filter = true;
    probe_.filter_rejected = rejected;
  }
  // Table layer: a data block was fetched.
  void NoteBlockRead(bool from_cache) {
    probe_.read_data_block = true;
    probe_.block_from_cache = from_cache;
  }
  // Table layer: the first entry at or after the key in the probed table.
  // An entry of another user key leaves the outcome as it is.
  void TakeEntry(const Slice& entry_key, const Slice& entry_value);

  // Marks one table probe: the probe's record starts empty and is counted
  // in the stats when the scope ends, whichever way the probe returns.
  class ProbeScope {
   public:
    explicit ProbeScope(KeyLookup* lookup) : lookup_(lookup) {
      lookup_->probe_ = Probe();
    }
    ProbeScope(const ProbeScope&) = delete;
    ProbeScope& operator=(const ProbeScope&) = delete;
    ~ProbeScope() { lookup_->CountProbe(); }

   private:
    KeyLookup* const lookup_;
  };

 private:
  void CountProbe() const;

  const Comparator* const ucmp_;
  const Slice internal_key_;
  const uint64_t key_hash_;
  std::string* const value_;
  IoStats* const stats_;
  Outcome outcome_ = Outcome::kNotFound;
  Probe probe_;
};

inline void KeyLookup::TakeEntry(const Slice& entry_key,
                                 const Slice& entry_value) {
  if (entry_key.size() < kTagSize) {
    outcome_ = Outcome::kCorrupt;
    return;
  }
  const size_t user_size = entry_key.size() - kTagSize;
  // The tag is little-endian: its low byte, the type, comes first.
  const uint8_t type = static_cast<uint8_t>(entry_key.data()[user_size]);
  if (type > kValueType) {
    outcome_ = Outcome::kCorrupt;
    return;
  }
  if (ucmp_->Compare(Slice(entry_key.data(), user_size), user_key()) != 0) {
    return;
  }
  probe_.key_matched = true;
  if (type == kValueType) {
    outcome_ = Outcome::kFound;
    value_->assign(entry_value.data(), entry_value.size());
  } else {
    outcome_ = Outcome::kDeleted;
  }
}

inline void KeyLookup::CountProbe() const {
  if (stats_ == nullptr) return;
  if (probe_.consulted_filter) IoStats::Add(&stats_->filter_checks);
  if (probe_.filter_rejected) IoStats::Add(&stats_->filter_rejections);
  if (probe_.read_data_block) {
    IoStats::Add(&stats_->data_block_reads);
    if (probe_.block_from_cache) {
      IoStats::Add(&stats_->data_block_cache_hits);
    }
    if (!probe_.key_matched) {
      IoStats::Add(probe_.consulted_filter ? &stats_->false_positives
                                           : &stats_->unfiltered_misses);
    }
  }
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TABLE_KEY_LOOKUP_H_
