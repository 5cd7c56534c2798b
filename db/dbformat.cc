#include "db/dbformat.h"

#include <cstring>
#include <vector>

#include "util/coding.h"
#include "util/logging.h"

namespace leveldb {

namespace {

constexpr size_t kTrailerSize = 8;

// Comparators and filters may be handed keys decoded from a corrupt file.
// A key too short to hold a trailer is treated as all user key with trailer
// 0, so such input yields a consistent order instead of an out-of-bounds
// read.
Slice UserPart(const Slice& internal_key) {
  if (internal_key.size() < kTrailerSize) return internal_key;
  return ExtractUserKey(internal_key);
}

uint64_t TrailerOf(const Slice& internal_key) {
  if (internal_key.size() < kTrailerSize) return 0;
  return LoadFixed64(internal_key.data() + internal_key.size() - kTrailerSize);
}

// Turns a shortened user key back into an internal key that sorts before
// every entry with that user key.
void AppendSeekTrailer(std::string* user_key) {
  AppendFixed64(user_key,
                PackSequenceAndType(kMaxSequenceNumber, kValueTypeForSeek));
}

}  // namespace

void AppendInternalKey(std::string* result, const ParsedInternalKey& key) {
  result->append(key.user_key.data(), key.user_key.size());
  AppendFixed64(result, PackSequenceAndType(key.sequence, key.type));
}

bool ParseInternalKey(const Slice& internal_key, ParsedInternalKey* result) {
  if (internal_key.size() < kTrailerSize) return false;
  const uint64_t trailer = TrailerOf(internal_key);
  const uint8_t type = static_cast<uint8_t>(trailer & 0xff);
  if (type > kTypeValue) return false;
  result->user_key = ExtractUserKey(internal_key);
  result->sequence = trailer >> 8;
  result->type = static_cast<ValueType>(type);
  return true;
}

std::string ParsedInternalKey::DebugString() const {
  std::string out = "'";
  AppendEscaped(&out, user_key);
  out += "' @ ";
  AppendDecimal(&out, sequence);
  out += " : ";
  AppendDecimal(&out, static_cast<uint64_t>(type));
  return out;
}

std::string InternalKey::DebugString() const {
  ParsedInternalKey parsed;
  if (ParseInternalKey(rep_, &parsed)) return parsed.DebugString();
  return "(bad)" + EscapedString(rep_);
}

const char* InternalKeyComparator::Name() const {
  return "leveldb.InternalKeyComparator";
}

int InternalKeyComparator::Compare(const Slice& a, const Slice& b) const {
  const int by_user = user_->Compare(UserPart(a), UserPart(b));
  if (by_user != 0) return by_user;
  // Newer entries (larger trailers) come first.
  const uint64_t ta = TrailerOf(a);
  const uint64_t tb = TrailerOf(b);
  if (ta > tb) return -1;
  if (ta < tb) return 1;
  return 0;
}

void InternalKeyComparator::FindShortestSeparator(std::string* start,
                                                  const Slice& limit) const {
  const Slice start_user = UserPart(*start);
  const Slice limit_user = UserPart(limit);
  std::string shortened(start_user.data(), start_user.size());
  user_->FindShortestSeparator(&shortened, limit_user);
  // Only a strictly shorter, strictly larger user key is worth using; the
  // seek trailer keeps it before any real entry with that user key.
  if (shortened.size() < start_user.size() &&
      user_->Compare(start_user, shortened) < 0) {
    AppendSeekTrailer(&shortened);
    start->swap(shortened);
  }
}

void InternalKeyComparator::FindShortSuccessor(std::string* key) const {
  const Slice user = UserPart(*key);
  std::string shortened(user.data(), user.size());
  user_->FindShortSuccessor(&shortened);
  if (shortened.size() < user.size() && user_->Compare(user, shortened) < 0) {
    AppendSeekTrailer(&shortened);
    key->swap(shortened);
  }
}

LookupKey::LookupKey(const Slice& user_key, SequenceNumber sequence) {
  const size_t user_size = user_key.size();
  const size_t internal_size = user_size + kTrailerSize;
  const size_t needed = kMaxVarint32Bytes + internal_size;
  char* buf = needed <= sizeof(inline_buf_) ? inline_buf_ : new char[needed];
  start_ = buf;
  char* p = WriteVarint32(buf, static_cast<uint32_t>(internal_size));
  key_begin_ = p;
  std::memcpy(p, user_key.data(), user_size);
  p += user_size;
  StoreFixed64(p, PackSequenceAndType(sequence, kValueTypeForSeek));
  end_ = p + kTrailerSize;
}

LookupKey::~LookupKey() {
  if (start_ != inline_buf_) delete[] start_;
}

}  // namespace leveldb
