#include "db/memtable.h"

#include <cstring>

#include "util/coding.h"

namespace leveldb {

namespace {

// Reads the length-prefixed slice that starts at p. Entries were encoded by
// MemTable::Add, so the prefix is well formed; the 5-byte bound only caps
// the varint scan.
Slice DecodeLengthPrefixed(const char* p) {
  uint32_t len = 0;
  const char* data = ParseVarint32(p, p + kMaxVarint32Bytes, &len);
  return Slice(data, len);
}

// Builds a memtable key (varint32 length + internal key) for a Seek target
// in *buf.
const char* EncodeSeekTarget(std::string* buf, const Slice& internal_key) {
  buf->clear();
  AppendVarint32(buf, static_cast<uint32_t>(internal_key.size()));
  buf->append(internal_key.data(), internal_key.size());
  return buf->data();
}

}  // namespace

int MemTable::EntryComparator::operator()(const char* a, const char* b) const {
  return internal.Compare(DecodeLengthPrefixed(a), DecodeLengthPrefixed(b));
}

MemTable::MemTable(const InternalKeyComparator& comparator)
    : comparator_(comparator), refs_(0), table_(comparator_, &arena_) {}

MemTable::~MemTable() = default;

size_t MemTable::ApproximateMemoryUsage() { return arena_.MemoryUsage(); }

// Exposes the skiplist entries as (internal key, value) pairs.
class MemTableIterator : public Iterator {
 public:
  explicit MemTableIterator(MemTable::Table* table) : it_(table) {}

  MemTableIterator(const MemTableIterator&) = delete;
  MemTableIterator& operator=(const MemTableIterator&) = delete;

  bool Valid() const override { return it_.Valid(); }
  void Seek(const Slice& target) override {
    it_.Seek(EncodeSeekTarget(&seek_buf_, target));
  }
  void SeekToFirst() override { it_.SeekToFirst(); }
  void SeekToLast() override { it_.SeekToLast(); }
  void Next() override { it_.Next(); }
  void Prev() override { it_.Prev(); }

  Slice key() const override { return DecodeLengthPrefixed(it_.key()); }
  Slice value() const override {
    const Slice k = DecodeLengthPrefixed(it_.key());
    return DecodeLengthPrefixed(k.data() + k.size());
  }

  Status status() const override { return Status::OK(); }

 private:
  MemTable::Table::Iterator it_;
  std::string seek_buf_;  // backs the encoded Seek target
};

Iterator* MemTable::NewIterator() { return new MemTableIterator(&table_); }

void MemTable::Add(SequenceNumber seq, ValueType type, const Slice& key,
                   const Slice& value) {
  // Entry layout: varint32 internal key size, user key, fixed64 trailer,
  // varint32 value size, value.
  const size_t internal_size = key.size() + 8;
  const size_t total = VarintSize(internal_size) + internal_size +
                       VarintSize(value.size()) + value.size();
  char* const entry = arena_.Allocate(total);
  char* p = WriteVarint32(entry, static_cast<uint32_t>(internal_size));
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  p += key.size();
  StoreFixed64(p, PackSequenceAndType(seq, type));
  p += 8;
  p = WriteVarint32(p, static_cast<uint32_t>(value.size()));
  if (!value.empty()) std::memcpy(p, value.data(), value.size());
  table_.Insert(entry);
}

bool MemTable::Get(const LookupKey& key, std::string* value, Status* s) {
  Table::Iterator it(&table_);
  it.Seek(key.memtable_key().data());
  if (!it.Valid()) return false;

  // The first entry at or after the lookup key is the newest one visible at
  // the lookup's sequence, provided it has the same user key.
  const Slice found = DecodeLengthPrefixed(it.key());
  const Comparator* user_cmp = comparator_.internal.user_comparator();
  if (user_cmp->Compare(ExtractUserKey(found), key.user_key()) != 0) {
    return false;
  }
  const uint64_t trailer = LoadFixed64(found.data() + found.size() - 8);
  switch (static_cast<ValueType>(trailer & 0xff)) {
    case kTypeValue: {
      const Slice v = DecodeLengthPrefixed(found.data() + found.size());
      value->assign(v.data(), v.size());
      return true;
    }
    case kTypeDeletion:
      *s = Status::NotFound(Slice());
      return true;
  }
  return false;
}

}  // namespace leveldb
