// Internal keys: the user key followed by an 8-byte trailer packing the
// sequence number (56 bits) and the value type (8 bits). Memtables, tables
// and version metadata all order entries by internal key.
#ifndef STORAGE_LEVELDB_DB_DBFORMAT_H_
#define STORAGE_LEVELDB_DB_DBFORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "leveldb/comparator.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "table/internal_filter_policy.h"
#include "util/coding.h"

namespace leveldb {

// Shape of the tree. These numbers are part of the compatibility contract.
namespace config {
constexpr int kNumLevels = 7;
// Level-0 file count that triggers a compaction.
constexpr int kL0_CompactionTrigger = 4;
// Level-0 file count at which each write is delayed by 1 ms.
constexpr int kL0_SlowdownWritesTrigger = 8;
// Level-0 file count at which writes wait for compaction.
constexpr int kL0_StopWritesTrigger = 12;
// Deepest level a flushed memtable may be placed at when it overlaps nothing.
constexpr int kMaxMemCompactLevel = 2;
// Iterators sample one key per this many bytes read, for seek compaction.
constexpr int kReadBytesPeriod = 1048576;
}  // namespace config

enum ValueType : uint8_t { kTypeDeletion = 0x0, kTypeValue = 0x1 };

// Seeks use the largest type so that an entry with the seek's sequence number
// sorts at or after the seek target.
constexpr ValueType kValueTypeForSeek = kTypeValue;

using SequenceNumber = uint64_t;

// Eight bits are left for the type.
constexpr SequenceNumber kMaxSequenceNumber = (uint64_t{1} << 56) - 1;

struct ParsedInternalKey {
  Slice user_key;
  SequenceNumber sequence = 0;
  ValueType type = kTypeValue;

  ParsedInternalKey() = default;
  ParsedInternalKey(const Slice& u, SequenceNumber seq, ValueType t)
      : user_key(u), sequence(seq), type(t) {}
  std::string DebugString() const;
};

inline uint64_t PackSequenceAndType(SequenceNumber seq, ValueType t) {
  return (seq << 8) | t;
}

inline size_t InternalKeyEncodingLength(const ParsedInternalKey& key) {
  return key.user_key.size() + 8;
}

// Appends the encoding of key to *result.
void AppendInternalKey(std::string* result, const ParsedInternalKey& key);

// False if internal_key is too short or has an unknown type.
bool ParseInternalKey(const Slice& internal_key, ParsedInternalKey* result);

inline Slice ExtractUserKey(const Slice& internal_key) {
  return Slice(internal_key.data(), internal_key.size() - 8);
}

// Orders by user key ascending (using the user comparator), then by sequence
// number descending, then by type descending: newest entry first.
class InternalKeyComparator : public Comparator {
 public:
  explicit InternalKeyComparator(const Comparator* user) : user_(user) {}
  const char* Name() const override;
  int Compare(const Slice& a, const Slice& b) const override;
  void FindShortestSeparator(std::string* start,
                             const Slice& limit) const override;
  void FindShortSuccessor(std::string* key) const override;

  const Comparator* user_comparator() const { return user_; }

  int Compare(const class InternalKey& a, const class InternalKey& b) const;

 private:
  const Comparator* user_;
};

// InternalFilterPolicy (table/internal_filter_policy.h) adapts a user
// FilterPolicy to internal keys.

// An owned, encoded internal key.
class InternalKey {
 public:
  InternalKey() = default;  // empty: invalid
  InternalKey(const Slice& user_key, SequenceNumber s, ValueType t) {
    AppendInternalKey(&rep_, ParsedInternalKey(user_key, s, t));
  }

  bool DecodeFrom(const Slice& s) {
    rep_.assign(s.data(), s.size());
    return !rep_.empty();
  }
  Slice Encode() const { return rep_; }
  Slice user_key() const { return ExtractUserKey(rep_); }

  void SetFrom(const ParsedInternalKey& p) {
    rep_.clear();
    AppendInternalKey(&rep_, p);
  }
  void Clear() { rep_.clear(); }
  bool empty() const { return rep_.empty(); }

  std::string DebugString() const;

 private:
  std::string rep_;
};

inline int InternalKeyComparator::Compare(const InternalKey& a,
                                          const InternalKey& b) const {
  return Compare(a.Encode(), b.Encode());
}

// The key a Get looks up, laid out so that it can be used both as a memtable
// key (varint32 length prefix + internal key) and as an internal key.
class LookupKey {
 public:
  LookupKey(const Slice& user_key, SequenceNumber sequence);
  LookupKey(const LookupKey&) = delete;
  LookupKey& operator=(const LookupKey&) = delete;
  ~LookupKey();

  // Length-prefixed internal key, as stored in the memtable.
  Slice memtable_key() const { return Slice(start_, end_ - start_); }
  Slice internal_key() const { return Slice(key_begin_, end_ - key_begin_); }
  Slice user_key() const { return Slice(key_begin_, end_ - key_begin_ - 8); }

  // Looks up the same user key at another sequence number from now on.
  void SetSequence(SequenceNumber sequence) {
    StoreFixed64(const_cast<char*>(end_) - 8,
                 PackSequenceAndType(sequence, kValueTypeForSeek));
  }

 private:
  const char* start_;
  const char* key_begin_;
  const char* end_;
  char inline_buf_[200];  // avoids a heap allocation for short keys
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_DBFORMAT_H_
