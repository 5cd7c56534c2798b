#include "leveldb/write_batch.h"

#include <memory>
#include <string>

#include "db/dbformat.h"
#include "db/memtable.h"
#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/iterator.h"
#include "util/coding.h"
#include "util/logging.h"

namespace leveldb {
namespace {

// Applies the batch to a fresh memtable and describes the result as
// "Put(k, v)@seq" / "Delete(k)@seq" entries in internal-key order, followed
// by the status if it is not OK and a count mismatch if any.
std::string ApplyAndDescribe(const WriteBatch& batch) {
  InternalKeyComparator icmp(BytewiseComparator());
  MemTable* mem = new MemTable(icmp);
  mem->Ref();
  const Status s = WriteBatchInternal::InsertInto(&batch, mem);
  std::string out;
  int entries = 0;
  std::unique_ptr<Iterator> it(mem->NewIterator());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ParsedInternalKey parsed;
    EXPECT_TRUE(ParseInternalKey(it->key(), &parsed));
    if (parsed.type == kTypeValue) {
      out += "Put(" + parsed.user_key.ToString() + ", " +
             it->value().ToString() + ")";
    } else {
      out += "Delete(" + parsed.user_key.ToString() + ")";
    }
    out += "@" + DecimalString(parsed.sequence);
    ++entries;
  }
  it.reset();
  mem->Unref();
  if (!s.ok()) {
    out += "ParseError()";
  } else if (entries != WriteBatchInternal::Count(&batch)) {
    out += "CountMismatch()";
  }
  return out;
}

// Handler that records calls as text.
class Recorder : public WriteBatch::Handler {
 public:
  void Put(const Slice& key, const Slice& value) override {
    log += "P(" + key.ToString() + "=" + value.ToString() + ")";
  }
  void Delete(const Slice& key) override { log += "D(" + key.ToString() + ")"; }
  std::string log;
};

std::string Replay(const WriteBatch& batch, Status* s) {
  Recorder r;
  *s = batch.Iterate(&r);
  return r.log;
}

TEST(WriteBatchTest, Empty) {
  WriteBatch batch;
  EXPECT_EQ("", ApplyAndDescribe(batch));
  EXPECT_EQ(0, WriteBatchInternal::Count(&batch));
  EXPECT_EQ(0u, WriteBatchInternal::Sequence(&batch));
  EXPECT_EQ(12u, WriteBatchInternal::ByteSize(&batch));
  EXPECT_EQ(std::string(12, '\0'),
            WriteBatchInternal::Contents(&batch).ToString());
  EXPECT_EQ(12u, batch.ApproximateSize());
  Status s;
  EXPECT_EQ("", Replay(batch, &s));
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(WriteBatchTest, PutsAndDeletesGetConsecutiveSequences) {
  WriteBatch batch;
  batch.Put("foo", "bar");
  batch.Delete("box");
  batch.Put("baz", "boo");
  WriteBatchInternal::SetSequence(&batch, 100);
  EXPECT_EQ(100u, WriteBatchInternal::Sequence(&batch));
  EXPECT_EQ(3, WriteBatchInternal::Count(&batch));
  EXPECT_EQ("Put(baz, boo)@102Delete(box)@101Put(foo, bar)@100",
            ApplyAndDescribe(batch));

  Status s;
  EXPECT_EQ("P(foo=bar)D(box)P(baz=boo)", Replay(batch, &s));
  EXPECT_TRUE(s.ok());
}

TEST(WriteBatchTest, ExactEncoding) {
  WriteBatch batch;
  WriteBatchInternal::SetSequence(&batch, 0x0102030405060708ull);
  batch.Put("k", "vv");
  batch.Delete("dd");

  std::string expected;
  AppendFixed64(&expected, 0x0102030405060708ull);
  AppendFixed32(&expected, 2);
  expected += '\x01';
  expected += '\x01';
  expected += "k";
  expected += '\x02';
  expected += "vv";
  expected += '\x00';
  expected += '\x02';
  expected += "dd";
  EXPECT_EQ(expected, WriteBatchInternal::Contents(&batch).ToString());
  EXPECT_EQ(expected.size(), WriteBatchInternal::ByteSize(&batch));
}

TEST(WriteBatchTest, SameKeyLaterWins) {
  WriteBatch batch;
  batch.Put("k", "a");
  batch.Delete("k");
  batch.Put("k", "b");
  WriteBatchInternal::SetSequence(&batch, 7);

  InternalKeyComparator icmp(BytewiseComparator());
  MemTable* mem = new MemTable(icmp);
  mem->Ref();
  ASSERT_TRUE(WriteBatchInternal::InsertInto(&batch, mem).ok());
  std::string value;
  Status s;
  LookupKey lk("k", 100);
  ASSERT_TRUE(mem->Get(lk, &value, &s));
  EXPECT_TRUE(s.ok());
  EXPECT_EQ("b", value);
  LookupKey mid("k", 8);
  ASSERT_TRUE(mem->Get(mid, &value, &s));
  EXPECT_TRUE(s.IsNotFound());
  mem->Unref();
}

TEST(WriteBatchTest, Clear) {
  WriteBatch batch;
  batch.Put("a", "b");
  WriteBatchInternal::SetSequence(&batch, 55);
  batch.Clear();
  EXPECT_EQ(0, WriteBatchInternal::Count(&batch));
  EXPECT_EQ(0u, WriteBatchInternal::Sequence(&batch));
  EXPECT_EQ(12u, batch.ApproximateSize());
  batch.Put("c", "d");
  EXPECT_EQ("Put(c, d)@0", ApplyAndDescribe(batch));
}

TEST(WriteBatchTest, Append) {
  WriteBatch b1, b2;
  WriteBatchInternal::SetSequence(&b1, 200);
  WriteBatchInternal::SetSequence(&b2, 300);
  b1.Append(b2);
  EXPECT_EQ("", ApplyAndDescribe(b1));
  EXPECT_EQ(0, WriteBatchInternal::Count(&b1));

  b2.Put("a", "va");
  b1.Append(b2);
  EXPECT_EQ("Put(a, va)@200", ApplyAndDescribe(b1));

  b2.Clear();
  b2.Put("b", "vb");
  b1.Append(b2);
  EXPECT_EQ("Put(a, va)@200Put(b, vb)@201", ApplyAndDescribe(b1));

  b2.Delete("foo");
  const std::string b2_before = WriteBatchInternal::Contents(&b2).ToString();
  b1.Append(b2);
  EXPECT_EQ("Put(a, va)@200Put(b, vb)@202Put(b, vb)@201Delete(foo)@203",
            ApplyAndDescribe(b1));
  EXPECT_EQ(4, WriteBatchInternal::Count(&b1));
  // The destination keeps its own sequence number; the source is untouched.
  EXPECT_EQ(200u, WriteBatchInternal::Sequence(&b1));
  EXPECT_EQ(b2_before, WriteBatchInternal::Contents(&b2).ToString());
}

TEST(WriteBatchTest, AppendToSelfCopy) {
  WriteBatch batch;
  batch.Put("x", "1");
  WriteBatch copy = batch;
  batch.Append(copy);
  EXPECT_EQ(2, WriteBatchInternal::Count(&batch));
  Status s;
  EXPECT_EQ("P(x=1)P(x=1)", Replay(batch, &s));
  EXPECT_TRUE(s.ok());
}

TEST(WriteBatchTest, ApproximateSize) {
  WriteBatch batch;
  const size_t empty_size = batch.ApproximateSize();

  batch.Put(Slice("foo"), Slice("bar"));
  const size_t one_key_size = batch.ApproximateSize();
  EXPECT_LT(empty_size, one_key_size);

  batch.Put(Slice("baz"), Slice("boo"));
  const size_t two_keys_size = batch.ApproximateSize();
  EXPECT_LT(one_key_size, two_keys_size);

  batch.Delete(Slice("box"));
  const size_t post_delete_size = batch.ApproximateSize();
  EXPECT_LT(two_keys_size, post_delete_size);
  EXPECT_EQ(WriteBatchInternal::ByteSize(&batch), post_delete_size);
}

TEST(WriteBatchTest, CopiesAreIndependent) {
  WriteBatch a;
  a.Put("k", "v");
  WriteBatch b(a);
  b.Delete("k");
  EXPECT_EQ(1, WriteBatchInternal::Count(&a));
  EXPECT_EQ(2, WriteBatchInternal::Count(&b));
  WriteBatch c;
  c = b;
  EXPECT_EQ(WriteBatchInternal::Contents(&b).ToString(),
            WriteBatchInternal::Contents(&c).ToString());
}

TEST(WriteBatchTest, SetContentsRoundTrip) {
  WriteBatch original;
  original.Put("one", "1");
  original.Delete("two");
  WriteBatchInternal::SetSequence(&original, 42);

  WriteBatch copy;
  WriteBatchInternal::SetContents(&copy,
                                  WriteBatchInternal::Contents(&original));
  EXPECT_EQ(42u, WriteBatchInternal::Sequence(&copy));
  EXPECT_EQ(2, WriteBatchInternal::Count(&copy));
  EXPECT_EQ("Put(one, 1)@42Delete(two)@43", ApplyAndDescribe(copy));
}

TEST(WriteBatchTest, LargeAndBinaryEntries) {
  WriteBatch batch;
  const std::string key(std::string("k\0\xff", 3) + std::string(300, 'x'));
  const std::string value(100000, '\0');
  batch.Put(key, value);
  batch.Put("", "");
  batch.Delete("");
  Recorder r;
  ASSERT_TRUE(batch.Iterate(&r).ok());
  EXPECT_EQ("P(" + key + "=" + value + ")P(=)D()", r.log);
}

// Builds a batch from raw contents.
WriteBatch FromContents(const std::string& contents) {
  WriteBatch batch;
  WriteBatchInternal::SetContents(&batch, contents);
  return batch;
}

void ExpectCorruption(const WriteBatch& batch, const std::string& message) {
  Status s;
  Replay(batch, &s);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(message)) << s.ToString();
}

TEST(WriteBatchTest, CorruptTooSmall) {
  for (size_t n = 0; n < 12; ++n) {
    const WriteBatch batch = FromContents(std::string(n, '\0'));
    ExpectCorruption(batch, "malformed WriteBatch (too small)");
    // The header accessors do not read past the end.
    EXPECT_EQ(0, WriteBatchInternal::Count(&batch));
    EXPECT_EQ(0u, WriteBatchInternal::Sequence(&batch));
  }
}

// Every truncation of `good` inside its first record (which starts right
// after the 12-byte header and its tag) is reported with `message`.
void ExpectTruncationsCorrupt(const WriteBatch& good,
                              const std::string& message) {
  const std::string contents = WriteBatchInternal::Contents(&good).ToString();
  for (size_t len = 13; len < contents.size(); ++len) {
    ExpectCorruption(FromContents(contents.substr(0, len)), message);
  }
}

TEST(WriteBatchTest, CorruptTruncatedPut) {
  WriteBatch good;
  good.Put("foo", "bar");
  ExpectTruncationsCorrupt(good, "bad WriteBatch Put");
}

TEST(WriteBatchTest, CorruptTruncatedDelete) {
  WriteBatch good;
  good.Delete("foo");
  ExpectTruncationsCorrupt(good, "bad WriteBatch Delete");
}

TEST(WriteBatchTest, CorruptUnknownTag) {
  WriteBatch good;
  good.Put("a", "b");
  std::string contents = WriteBatchInternal::Contents(&good).ToString();
  contents += '\x07';
  AppendLengthPrefixed(&contents, "x");
  ExpectCorruption(FromContents(contents), "unknown WriteBatch tag");
}

TEST(WriteBatchTest, CorruptWrongCount) {
  WriteBatch batch;
  batch.Put("a", "b");
  batch.Delete("c");
  WriteBatchInternal::SetCount(&batch, 3);
  ExpectCorruption(batch, "WriteBatch has wrong count");
  WriteBatchInternal::SetCount(&batch, 1);
  ExpectCorruption(batch, "WriteBatch has wrong count");
  WriteBatchInternal::SetCount(&batch, 2);
  Status s;
  Replay(batch, &s);
  EXPECT_TRUE(s.ok());
}

TEST(WriteBatchTest, CorruptLengthOverflow) {
  // A key length that runs past the end of the batch.
  std::string contents(12, '\0');
  StoreFixed32(&contents[8], 1);
  contents += '\x01';
  AppendVarint32(&contents, 1000);
  contents += "short";
  ExpectCorruption(FromContents(contents), "bad WriteBatch Put");

  // A varint that never terminates.
  std::string runaway(12, '\0');
  StoreFixed32(&runaway[8], 1);
  runaway += '\x00';
  runaway += std::string(6, '\x80');
  ExpectCorruption(FromContents(runaway), "bad WriteBatch Delete");
}

TEST(WriteBatchTest, InsertIntoReportsCorruption) {
  WriteBatch batch;
  batch.Put("a", "b");
  WriteBatchInternal::SetCount(&batch, 5);
  WriteBatchInternal::SetSequence(&batch, 10);
  const std::string described = ApplyAndDescribe(batch);
  EXPECT_NE(std::string::npos, described.find("ParseError()")) << described;

  InternalKeyComparator icmp(BytewiseComparator());
  MemTable* mem = new MemTable(icmp);
  mem->Ref();
  EXPECT_TRUE(WriteBatchInternal::InsertInto(&batch, mem).IsCorruption());
  mem->Unref();
}

TEST(WriteBatchTest, SetCountAndSequence) {
  WriteBatch batch;
  WriteBatchInternal::SetCount(&batch, 123456);
  EXPECT_EQ(123456, WriteBatchInternal::Count(&batch));
  WriteBatchInternal::SetSequence(&batch, kMaxSequenceNumber);
  EXPECT_EQ(kMaxSequenceNumber, WriteBatchInternal::Sequence(&batch));
  EXPECT_EQ(123456, WriteBatchInternal::Count(&batch));
}

}  // namespace
}  // namespace leveldb
