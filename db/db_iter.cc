#include "db/db_iter.h"

#include <cassert>
#include <string>

#include "db/db_impl.h"
#include "db/dbformat.h"
#include "leveldb/comparator.h"
#include "leveldb/iterator.h"
#include "util/random.h"

namespace leveldb {

namespace {

// A cached value bigger than this is freed rather than kept for reuse.
constexpr size_t kMaxRetainedValueCapacity = 1 << 20;

// The user-key part of an internal key, or the whole key if it is too short
// to carry a trailer (a corrupt entry; it still needs some ordering).
Slice UserKeyOrWhole(const Slice& internal_key) {
  if (internal_key.size() < 8) return internal_key;
  return ExtractUserKey(internal_key);
}

// Two positioning modes:
//  - kForward: inner_ rests on the newest visible entry of the current user
//    key, and key()/value() read straight from it.
//  - kReverse: the current entry is copied into cached_key_/cached_value_
//    and inner_ rests just before every entry of that user key.
class DBIter final : public Iterator {
 public:
  DBIter(DBImpl* db, const Comparator* ucmp, Iterator* inner,
         SequenceNumber sequence, uint32_t seed)
      : db_(db),
        ucmp_(ucmp),
        inner_(inner),
        visible_seq_(sequence),
        dir_(kForward),
        valid_(false),
        rnd_(seed),
        bytes_to_next_sample_(NextSamplePeriod()) {}

  DBIter(const DBIter&) = delete;
  DBIter& operator=(const DBIter&) = delete;

  ~DBIter() override { delete inner_; }

  bool Valid() const override { return valid_; }

  Slice key() const override {
    assert(valid_);
    return dir_ == kForward ? ExtractUserKey(inner_->key())
                            : Slice(cached_key_);
  }

  Slice value() const override {
    assert(valid_);
    return dir_ == kForward ? inner_->value() : Slice(cached_value_);
  }

  Status status() const override {
    return status_.ok() ? inner_->status() : status_;
  }

  void Next() override;
  void Prev() override;
  void Seek(const Slice& target) override;
  void SeekToFirst() override;
  void SeekToLast() override;

 private:
  enum Direction { kForward, kReverse };

  // Parses the entry under inner_ and accounts its size for read sampling.
  // A malformed key sets status_ and returns false.
  bool DecodeCurrent(ParsedInternalKey* ikey);

  // Moves inner_ forward to the first entry that is a visible, undeleted
  // value. When `hiding` is set, user keys <= *hidden are skipped as
  // already consumed or deleted. *hidden serves as scratch space.
  void SkipForwardToVisible(bool hiding, std::string* hidden);

  // Moves inner_ backward collecting the newest visible value of the
  // preceding user key into the cache; inner_ ends before its entries.
  void SkipBackwardToVisible();

  void Invalidate() {
    valid_ = false;
    cached_key_.clear();
    ReleaseCachedValue();
  }

  void ReleaseCachedValue() {
    if (cached_value_.capacity() > kMaxRetainedValueCapacity) {
      std::string().swap(cached_value_);
    } else {
      cached_value_.clear();
    }
  }

  // Bytes to read before the next sample: uniform with mean
  // config::kReadBytesPeriod.
  size_t NextSamplePeriod() {
    return rnd_.Uniform(2 * config::kReadBytesPeriod);
  }

  DBImpl* const db_;
  const Comparator* const ucmp_;
  Iterator* const inner_;
  const SequenceNumber visible_seq_;

  Status status_;
  std::string cached_key_;    // kReverse: current key; kForward: scratch
  std::string cached_value_;  // kReverse: current value
  Direction dir_;
  bool valid_;

  Random rnd_;
  size_t bytes_to_next_sample_;
};

bool DBIter::DecodeCurrent(ParsedInternalKey* ikey) {
  const Slice k = inner_->key();
  const size_t entry_bytes = k.size() + inner_->value().size();
  while (bytes_to_next_sample_ < entry_bytes) {
    bytes_to_next_sample_ += NextSamplePeriod();
    if (db_ != nullptr) db_->RecordReadSample(k);
  }
  bytes_to_next_sample_ -= entry_bytes;

  if (!ParseInternalKey(k, ikey)) {
    status_ = Status::Corruption("corrupted internal key in DBIter");
    return false;
  }
  return true;
}

void DBIter::SkipForwardToVisible(bool hiding, std::string* hidden) {
  assert(dir_ == kForward);
  for (; inner_->Valid(); inner_->Next()) {
    ParsedInternalKey ikey;
    if (!DecodeCurrent(&ikey) || ikey.sequence > visible_seq_) continue;
    if (hiding && ucmp_->Compare(ikey.user_key, *hidden) <= 0) continue;
    if (ikey.type == kTypeDeletion) {
      // Older versions of this key, which follow, are deleted too.
      hidden->assign(ikey.user_key.data(), ikey.user_key.size());
      hiding = true;
      continue;
    }
    valid_ = true;
    cached_key_.clear();
    return;
  }
  Invalidate();
}

void DBIter::SkipBackwardToVisible() {
  assert(dir_ == kReverse);
  // Walking backwards meets the versions of a user key oldest first, so
  // the last visible one seen before reaching a smaller key is its newest.
  ValueType newest_type = kTypeDeletion;
  for (; inner_->Valid(); inner_->Prev()) {
    ParsedInternalKey ikey;
    if (!DecodeCurrent(&ikey) || ikey.sequence > visible_seq_) continue;
    if (newest_type != kTypeDeletion &&
        ucmp_->Compare(ikey.user_key, cached_key_) < 0) {
      break;  // cached_key_ holds a live value and we left its entries
    }
    newest_type = ikey.type;
    if (newest_type == kTypeDeletion) {
      cached_key_.clear();
      ReleaseCachedValue();
    } else {
      const Slice raw = inner_->value();
      if (cached_value_.capacity() > raw.size() + kMaxRetainedValueCapacity) {
        std::string().swap(cached_value_);
      }
      cached_key_.assign(ikey.user_key.data(), ikey.user_key.size());
      cached_value_.assign(raw.data(), raw.size());
    }
  }

  if (newest_type == kTypeDeletion) {
    // Ran off the front: nothing visible before the starting point.
    Invalidate();
    dir_ = kForward;
  } else {
    valid_ = true;
  }
}

void DBIter::Next() {
  assert(valid_);
  if (dir_ == kReverse) {
    dir_ = kForward;
    // inner_ is before the entries of cached_key_ (or exhausted when that
    // key came first); step into them, then skip past them below.
    if (inner_->Valid()) {
      inner_->Next();
    } else {
      inner_->SeekToFirst();
    }
    if (!inner_->Valid()) {
      Invalidate();
      return;
    }
  } else {
    const Slice current = ExtractUserKey(inner_->key());
    cached_key_.assign(current.data(), current.size());
    inner_->Next();
  }
  SkipForwardToVisible(true, &cached_key_);
}

void DBIter::Prev() {
  assert(valid_);
  if (dir_ == kForward) {
    // Back inner_ out of every entry of the current user key.
    const Slice current = ExtractUserKey(inner_->key());
    cached_key_.assign(current.data(), current.size());
    do {
      inner_->Prev();
      if (!inner_->Valid()) {
        Invalidate();
        return;
      }
    } while (ucmp_->Compare(UserKeyOrWhole(inner_->key()), cached_key_) >= 0);
    dir_ = kReverse;
  }
  SkipBackwardToVisible();
}

void DBIter::Seek(const Slice& target) {
  dir_ = kForward;
  ReleaseCachedValue();
  cached_key_.clear();
  AppendInternalKey(&cached_key_,
                    ParsedInternalKey(target, visible_seq_, kValueTypeForSeek));
  inner_->Seek(cached_key_);
  SkipForwardToVisible(false, &cached_key_);
}

void DBIter::SeekToFirst() {
  dir_ = kForward;
  ReleaseCachedValue();
  inner_->SeekToFirst();
  SkipForwardToVisible(false, &cached_key_);
}

void DBIter::SeekToLast() {
  dir_ = kReverse;
  ReleaseCachedValue();
  inner_->SeekToLast();
  SkipBackwardToVisible();
}

}  // namespace

Iterator* NewDBIterator(DBImpl* db, const Comparator* user_key_comparator,
                        Iterator* internal_iter, SequenceNumber sequence,
                        uint32_t seed) {
  return new DBIter(db, user_key_comparator, internal_iter, sequence, seed);
}

}  // namespace leveldb
