#include "db/dbformat.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/filter_policy.h"
#include "util/coding.h"

namespace leveldb {
namespace {

std::string IKey(const std::string& user_key, uint64_t seq, ValueType type) {
  std::string encoded;
  AppendInternalKey(&encoded, ParsedInternalKey(user_key, seq, type));
  return encoded;
}

std::string Separator(const std::string& start, const std::string& limit) {
  InternalKeyComparator cmp(BytewiseComparator());
  std::string result = start;
  cmp.FindShortestSeparator(&result, limit);
  return result;
}

std::string Successor(const std::string& key) {
  InternalKeyComparator cmp(BytewiseComparator());
  std::string result = key;
  cmp.FindShortSuccessor(&result);
  return result;
}

void CheckRoundTrip(const std::string& user_key, uint64_t seq, ValueType type) {
  const std::string encoded = IKey(user_key, seq, type);
  ASSERT_EQ(user_key.size() + 8, encoded.size());
  ParsedInternalKey decoded;
  ASSERT_TRUE(ParseInternalKey(encoded, &decoded));
  EXPECT_EQ(user_key, decoded.user_key.ToString());
  EXPECT_EQ(seq, decoded.sequence);
  EXPECT_EQ(type, decoded.type);
  EXPECT_EQ(user_key, ExtractUserKey(encoded).ToString());
}

TEST(DBFormatTest, EncodeDecodeRoundTrip) {
  const std::vector<std::string> keys = {"", "k", "hello", "longggggggggggggg",
                                         std::string("\0\xff", 2)};
  const std::vector<uint64_t> seqs = {0,
                                      1,
                                      2,
                                      255,
                                      256,
                                      (1ull << 16) - 1,
                                      1ull << 32,
                                      (1ull << 48) + 3,
                                      kMaxSequenceNumber - 1,
                                      kMaxSequenceNumber};
  for (const std::string& k : keys) {
    for (uint64_t s : seqs) {
      CheckRoundTrip(k, s, kTypeValue);
      CheckRoundTrip(k, s, kTypeDeletion);
    }
  }
}

TEST(DBFormatTest, TrailerLayout) {
  // The trailer is fixed64(seq << 8 | type), little-endian.
  const std::string encoded = IKey("ab", 0x010203, kTypeValue);
  ASSERT_EQ(10u, encoded.size());
  EXPECT_EQ("ab", encoded.substr(0, 2));
  EXPECT_EQ((uint64_t{0x010203} << 8) | 1, LoadFixed64(encoded.data() + 2));
  EXPECT_EQ(std::string("\x01\x03\x02\x01\0\0\0\0", 8), encoded.substr(2));
}

TEST(DBFormatTest, ParseRejectsBadInput) {
  ParsedInternalKey parsed;
  EXPECT_FALSE(ParseInternalKey(Slice(""), &parsed));
  EXPECT_FALSE(ParseInternalKey(Slice("1234567"), &parsed));

  std::string bad_type = "user";
  AppendFixed64(&bad_type, (uint64_t{5} << 8) | 2);
  EXPECT_FALSE(ParseInternalKey(bad_type, &parsed));

  std::string ok = "user";
  AppendFixed64(&ok, (uint64_t{5} << 8) | 1);
  EXPECT_TRUE(ParseInternalKey(ok, &parsed));

  // Exactly eight bytes: an empty user key.
  std::string empty_user;
  AppendFixed64(&empty_user, (uint64_t{7} << 8) | 0);
  ASSERT_TRUE(ParseInternalKey(empty_user, &parsed));
  EXPECT_TRUE(parsed.user_key.empty());
  EXPECT_EQ(7u, parsed.sequence);
  EXPECT_EQ(kTypeDeletion, parsed.type);
}

TEST(DBFormatTest, Ordering) {
  InternalKeyComparator cmp(BytewiseComparator());
  EXPECT_STREQ("leveldb.InternalKeyComparator", cmp.Name());
  EXPECT_EQ(BytewiseComparator(), cmp.user_comparator());

  // User key first.
  EXPECT_LT(cmp.Compare(IKey("a", 1, kTypeValue), IKey("b", 100, kTypeValue)),
            0);
  EXPECT_GT(cmp.Compare(IKey("b", 100, kTypeValue), IKey("a", 1, kTypeValue)),
            0);
  EXPECT_LT(cmp.Compare(IKey("a", 1, kTypeValue), IKey("aa", 1, kTypeValue)),
            0);
  // Then higher sequence first.
  EXPECT_LT(cmp.Compare(IKey("a", 9, kTypeValue), IKey("a", 8, kTypeValue)), 0);
  EXPECT_GT(cmp.Compare(IKey("a", 8, kTypeValue), IKey("a", 9, kTypeValue)), 0);
  // Then value before deletion at the same sequence.
  EXPECT_LT(cmp.Compare(IKey("a", 5, kTypeValue), IKey("a", 5, kTypeDeletion)),
            0);
  EXPECT_EQ(0, cmp.Compare(IKey("a", 5, kTypeValue), IKey("a", 5, kTypeValue)));

  // Keys sharing a trailer prefix but not a user key: user key wins even
  // where the raw bytes would order differently.
  EXPECT_LT(cmp.Compare(IKey("a", kMaxSequenceNumber, kTypeValue),
                        IKey("a\x01", 0, kTypeDeletion)),
            0);

  // InternalKey overload.
  InternalKey x("x", 3, kTypeValue);
  InternalKey y("x", 2, kTypeValue);
  EXPECT_LT(cmp.Compare(x, y), 0);
  EXPECT_GT(cmp.Compare(y, x), 0);
}

TEST(DBFormatTest, SeekKeySortsFirstForItsUserKey) {
  InternalKeyComparator cmp(BytewiseComparator());
  const std::string seek = IKey("k", 10, kValueTypeForSeek);
  EXPECT_LE(cmp.Compare(seek, IKey("k", 10, kTypeValue)), 0);
  EXPECT_LT(cmp.Compare(seek, IKey("k", 10, kTypeDeletion)), 0);
  EXPECT_LT(cmp.Compare(seek, IKey("k", 9, kTypeValue)), 0);
  EXPECT_GT(cmp.Compare(seek, IKey("k", 11, kTypeDeletion)), 0);
}

TEST(DBFormatTest, ShortSeparator) {
  // Same user key: nothing to shorten.
  const std::string foo100 = IKey("foo", 100, kTypeValue);
  for (const std::string& limit :
       {IKey("foo", 99, kTypeValue), IKey("foo", 101, kTypeValue),
        IKey("foo", 100, kTypeValue), IKey("foo", 100, kTypeDeletion)}) {
    EXPECT_EQ(foo100, Separator(foo100, limit));
  }

  // Limit below start: unchanged.
  EXPECT_EQ(
      IKey("foo", 100, kTypeValue),
      Separator(IKey("foo", 100, kTypeValue), IKey("bar", 99, kTypeValue)));

  // A shorter user key exists between them.
  EXPECT_EQ(
      IKey("g", kMaxSequenceNumber, kValueTypeForSeek),
      Separator(IKey("foo", 100, kTypeValue), IKey("hello", 200, kTypeValue)));
  EXPECT_EQ(
      IKey("abd", kMaxSequenceNumber, kValueTypeForSeek),
      Separator(IKey("abcdef", 1, kTypeValue), IKey("abzzzz", 1, kTypeValue)));

  // Start is a prefix of limit: no shorter separator.
  EXPECT_EQ(
      IKey("foo", 100, kTypeValue),
      Separator(IKey("foo", 100, kTypeValue), IKey("foobar", 200, kTypeValue)));

  // Limit is a prefix of start: unchanged.
  EXPECT_EQ(
      IKey("foobar", 100, kTypeValue),
      Separator(IKey("foobar", 100, kTypeValue), IKey("foo", 200, kTypeValue)));

  // Adjacent bytes: the user comparator cannot shorten.
  EXPECT_EQ(IKey("fa", 5, kTypeValue),
            Separator(IKey("fa", 5, kTypeValue), IKey("fb", 5, kTypeValue)));
}

TEST(DBFormatTest, SeparatorStaysInRange) {
  InternalKeyComparator cmp(BytewiseComparator());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a", "b"},
      {"abc", "abd"},
      {"abc", "zzz"},
      {"abc1234", "abd"},
      {"\xff\xff", "\xff\xff\x01"},
      {"x\xff\xffy", "y"},
      {"", "a"}};
  for (const auto& c : cases) {
    const std::string start = IKey(c.first, 42, kTypeValue);
    const std::string limit = IKey(c.second, 7, kTypeValue);
    const std::string sep = Separator(start, limit);
    EXPECT_LE(cmp.Compare(start, sep), 0) << c.first << " " << c.second;
    EXPECT_LT(cmp.Compare(sep, limit), 0) << c.first << " " << c.second;
    EXPECT_LE(sep.size(), start.size());
  }
}

TEST(DBFormatTest, ShortSuccessor) {
  EXPECT_EQ(IKey("g", kMaxSequenceNumber, kValueTypeForSeek),
            Successor(IKey("foo", 100, kTypeValue)));
  EXPECT_EQ(IKey("\x01", kMaxSequenceNumber, kValueTypeForSeek),
            Successor(IKey(std::string("\x00\x05", 2), 3, kTypeDeletion)));
  // All 0xff: no successor is shorter.
  EXPECT_EQ(IKey("\xff\xff", 100, kTypeValue),
            Successor(IKey("\xff\xff", 100, kTypeValue)));
  // Empty user key: unchanged.
  EXPECT_EQ(IKey("", 100, kTypeValue), Successor(IKey("", 100, kTypeValue)));
  // A single byte that can grow: same length, so kept as is.
  EXPECT_EQ(IKey("a", 100, kTypeValue), Successor(IKey("a", 100, kTypeValue)));

  InternalKeyComparator cmp(BytewiseComparator());
  const std::string k = IKey("\xff\x10zz", 9, kTypeValue);
  const std::string s = Successor(k);
  EXPECT_LE(cmp.Compare(k, s), 0);
}

// The memtable key of a LookupKey is the varint32 length of the internal
// key, `prefix_bytes` long, followed by the internal key itself.
void CheckLookupKey(const std::string& user, SequenceNumber seq,
                    uint32_t internal_length, size_t prefix_bytes) {
  LookupKey lk(user, seq);
  EXPECT_EQ(user, lk.user_key().ToString());
  EXPECT_EQ(IKey(user, seq, kValueTypeForSeek), lk.internal_key().ToString());
  Slice mk = lk.memtable_key();
  uint32_t len = 0;
  ASSERT_TRUE(ConsumeVarint32(&mk, &len));
  EXPECT_EQ(internal_length, len);
  EXPECT_EQ(lk.internal_key().ToString(), mk.ToString());
  EXPECT_EQ(lk.memtable_key().size(), prefix_bytes + lk.internal_key().size());
}

TEST(DBFormatTest, LookupKeyShort) { CheckLookupKey("hello", 77, 13, 1); }

TEST(DBFormatTest, LookupKeyLong) {
  CheckLookupKey(std::string(500, 'q'), 123456789, 508, 2);
}

TEST(DBFormatTest, LookupKeyAroundInlineLimit) {
  for (size_t n = 170; n < 220; ++n) {
    const std::string user(n, static_cast<char>('a' + n % 26));
    LookupKey lk(user, n);
    EXPECT_EQ(user, lk.user_key().ToString());
    ParsedInternalKey parsed;
    ASSERT_TRUE(ParseInternalKey(lk.internal_key(), &parsed));
    EXPECT_EQ(n, parsed.sequence);
    EXPECT_EQ(kValueTypeForSeek, parsed.type);
  }
}

TEST(DBFormatTest, InternalKeyClass) {
  InternalKey empty;
  EXPECT_TRUE(empty.empty());

  InternalKey k("user", 9, kTypeDeletion);
  EXPECT_FALSE(k.empty());
  EXPECT_EQ("user", k.user_key().ToString());
  EXPECT_EQ(IKey("user", 9, kTypeDeletion), k.Encode().ToString());

  InternalKey copy;
  ASSERT_TRUE(copy.DecodeFrom(k.Encode()));
  EXPECT_EQ(k.Encode().ToString(), copy.Encode().ToString());
  EXPECT_FALSE(copy.DecodeFrom(Slice()));

  copy.SetFrom(ParsedInternalKey("other", 1, kTypeValue));
  EXPECT_EQ(IKey("other", 1, kTypeValue), copy.Encode().ToString());
  copy.Clear();
  EXPECT_TRUE(copy.empty());
}

TEST(DBFormatTest, DebugStrings) {
  ParsedInternalKey p("k\x01", 42, kTypeValue);
  const std::string d = p.DebugString();
  EXPECT_NE(std::string::npos, d.find("42")) << d;
  EXPECT_NE(std::string::npos, d.find("\\x01")) << d;

  InternalKey good("abc", 7, kTypeDeletion);
  EXPECT_NE(std::string::npos, good.DebugString().find("abc"));
  EXPECT_NE(std::string::npos, good.DebugString().find("7"));

  InternalKey bad;
  ASSERT_TRUE(bad.DecodeFrom(Slice("xy")));
  EXPECT_NE(std::string::npos, bad.DebugString().find("bad"));
}

TEST(DBFormatTest, ComparatorToleratesShortKeys) {
  // Keys decoded from a corrupt file may lack a trailer; ordering them must
  // not read out of bounds and must stay consistent.
  InternalKeyComparator cmp(BytewiseComparator());
  EXPECT_EQ(0, cmp.Compare(Slice("ab"), Slice("ab")));
  EXPECT_LT(cmp.Compare(Slice("ab"), Slice("b")), 0);
  EXPECT_GT(cmp.Compare(Slice("b"), Slice("ab")), 0);
  EXPECT_EQ(0, cmp.Compare(Slice(""), Slice("")));
}

// Records the keys it is given, to check what InternalFilterPolicy passes on.
class RecordingPolicy : public FilterPolicy {
 public:
  const char* Name() const override { return "test.Recording"; }
  void CreateFilter(const Slice* keys, int n, std::string* dst) const override {
    for (int i = 0; i < n; ++i) {
      created.push_back(keys[i].ToString());
      dst->append(keys[i].data(), keys[i].size());
      dst->push_back('|');
    }
  }
  bool KeyMayMatch(const Slice& key, const Slice& filter) const override {
    probed.push_back(key.ToString());
    return filter.ToString().find(key.ToString() + "|") != std::string::npos;
  }

  mutable std::vector<std::string> created;
  mutable std::vector<std::string> probed;
};

TEST(DBFormatTest, InternalFilterPolicyStripsTrailers) {
  RecordingPolicy user;
  InternalFilterPolicy policy(&user);
  EXPECT_STREQ("test.Recording", policy.Name());
  EXPECT_EQ(&user, policy.user_policy());

  const std::vector<std::string> ikeys = {IKey("alpha", 5, kTypeValue),
                                          IKey("beta", 6, kTypeDeletion),
                                          IKey("", 7, kTypeValue)};
  std::vector<Slice> slices(ikeys.begin(), ikeys.end());
  std::string filter;
  policy.CreateFilter(slices.data(), static_cast<int>(slices.size()), &filter);
  EXPECT_EQ((std::vector<std::string>{"alpha", "beta", ""}), user.created);
  // The caller's array is left untouched (a caller may reuse it).
  for (size_t i = 0; i < ikeys.size(); ++i) {
    EXPECT_EQ(ikeys[i], slices[i].ToString());
  }

  EXPECT_TRUE(policy.KeyMayMatch(IKey("alpha", 100, kTypeValue), filter));
  EXPECT_TRUE(policy.KeyMayMatch(IKey("beta", 1, kTypeValue), filter));
  EXPECT_FALSE(policy.KeyMayMatch(IKey("gamma", 1, kTypeValue), filter));
  EXPECT_EQ((std::vector<std::string>{"alpha", "beta", "gamma"}), user.probed);
}

}  // namespace
}  // namespace leveldb
