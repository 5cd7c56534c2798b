#include "db/version_edit.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "table/elastic/limits.h"
#include "tests/test_util.h"
#include "util/coding.h"
#include "util/random.h"

namespace leveldb {
namespace {

// Decoding then re-encoding must reproduce the bytes exactly.
void ExpectStableEncoding(const VersionEdit& edit) {
  std::string first;
  edit.EncodeTo(&first);
  VersionEdit decoded;
  ASSERT_TRUE(decoded.DecodeFrom(first).ok());
  std::string second;
  decoded.EncodeTo(&second);
  EXPECT_EQ(first, second);
  EXPECT_EQ(edit.DebugString(), decoded.DebugString());
}

InternalKey Key(const std::string& user_key, SequenceNumber seq,
                ValueType type = kTypeValue) {
  return InternalKey(user_key, seq, type);
}

// An edit using every kind of record, several times where allowed.
VersionEdit FullEdit(int files) {
  const uint64_t big = uint64_t{1} << 50;
  VersionEdit edit;
  edit.SetComparatorName("leveldb.BytewiseComparator");
  edit.SetLogNumber(big + 1);
  edit.SetPrevLogNumber(big + 2);
  edit.SetNextFile(big + 3);
  edit.SetLastSequence(kMaxSequenceNumber);
  for (int i = 0; i < files; ++i) {
    const int level = i % config::kNumLevels;
    edit.AddFile(level, big + 100 + i, big + 500 + i,
                 Key("smallest" + std::to_string(i), big + i),
                 Key("largest" + std::to_string(i), big + i, kTypeDeletion));
    edit.RemoveFile(level, big + 700 + i);
    edit.SetCompactPointer(level, Key("pointer" + std::to_string(i), i));
  }
  return edit;
}

// Single records encoded by hand, tag first.
std::string CompactPointerRecord(uint32_t level, const Slice& key) {
  std::string bytes;
  AppendVarint32(&bytes, 5);
  AppendVarint32(&bytes, level);
  AppendLengthPrefixed(&bytes, key);
  return bytes;
}

std::string DeletedFileRecord(uint32_t level, uint64_t number) {
  std::string bytes;
  AppendVarint32(&bytes, 6);
  AppendVarint32(&bytes, level);
  AppendVarint64(&bytes, number);
  return bytes;
}

std::string NewFileRecord(uint32_t level, uint64_t number, uint64_t size,
                          const Slice& smallest, const Slice& largest) {
  std::string bytes;
  AppendVarint32(&bytes, 7);
  AppendVarint32(&bytes, level);
  AppendVarint64(&bytes, number);
  AppendVarint64(&bytes, size);
  AppendLengthPrefixed(&bytes, smallest);
  AppendLengthPrefixed(&bytes, largest);
  return bytes;
}

TEST(VersionEditTest, EmptyEditEncodesToNothing) {
  VersionEdit edit;
  std::string encoded;
  edit.EncodeTo(&encoded);
  EXPECT_TRUE(encoded.empty());
  VersionEdit decoded;
  ASSERT_TRUE(decoded.DecodeFrom(encoded).ok());
  EXPECT_EQ("VersionEdit {\n}\n", decoded.DebugString());
}

TEST(VersionEditTest, RoundTripEveryField) {
  ExpectStableEncoding(FullEdit(1));
  ExpectStableEncoding(FullEdit(50));
}

TEST(VersionEditTest, RoundTripGrowingEdit) {
  // Fields added one at a time, with the encoding checked after each.
  VersionEdit edit;
  for (int i = 0; i < 4; ++i) {
    ExpectStableEncoding(edit);
    edit.AddFile(3, 300 + i, 1000 + i, Key("a", 5), Key("z", 7));
    edit.RemoveFile(4, 400 + i);
    edit.SetCompactPointer(i, Key("x", 9));
  }
  edit.SetComparatorName("foo");
  edit.SetLogNumber(7);
  edit.SetPrevLogNumber(6);
  edit.SetNextFile(8);
  edit.SetLastSequence(9);
  ExpectStableEncoding(edit);
}

TEST(VersionEditTest, ClearDropsEverything) {
  VersionEdit edit = FullEdit(5);
  edit.Clear();
  std::string encoded;
  edit.EncodeTo(&encoded);
  EXPECT_TRUE(encoded.empty());
}

TEST(VersionEditTest, DeletedFilesAreASet) {
  VersionEdit once;
  once.RemoveFile(2, 17);
  VersionEdit twice;
  twice.RemoveFile(2, 17);
  twice.RemoveFile(2, 17);
  std::string a;
  std::string b;
  once.EncodeTo(&a);
  twice.EncodeTo(&b);
  EXPECT_EQ(a, b);
}

TEST(VersionEditTest, EncodingUsesTheOnDiskTags) {
  VersionEdit edit;
  edit.SetComparatorName("cmp");
  edit.SetLogNumber(2);
  edit.SetPrevLogNumber(1);
  edit.SetNextFile(5);
  edit.SetLastSequence(300);
  edit.SetCompactPointer(1, Key("p", 1));
  edit.RemoveFile(2, 10);
  edit.AddFile(3, 11, 4096, Key("a", 1), Key("b", 2));
  std::string actual;
  edit.EncodeTo(&actual);

  std::string expected;
  AppendVarint32(&expected, 1);
  AppendLengthPrefixed(&expected, "cmp");
  AppendVarint32(&expected, 2);
  AppendVarint64(&expected, 2);
  AppendVarint32(&expected, 9);
  AppendVarint64(&expected, 1);
  AppendVarint32(&expected, 3);
  AppendVarint64(&expected, 5);
  AppendVarint32(&expected, 4);
  AppendVarint64(&expected, 300);
  expected += CompactPointerRecord(1, Key("p", 1).Encode());
  expected += DeletedFileRecord(2, 10);
  expected +=
      NewFileRecord(3, 11, 4096, Key("a", 1).Encode(), Key("b", 2).Encode());
  EXPECT_EQ(expected, actual);
}

TEST(VersionEditTest, DebugStringListsEveryField) {
  VersionEdit edit;
  edit.SetComparatorName("my.cmp");
  edit.SetLogNumber(12);
  edit.SetPrevLogNumber(11);
  edit.SetNextFile(13);
  edit.SetLastSequence(14);
  edit.SetCompactPointer(2, Key("ptr", 3));
  edit.RemoveFile(4, 15);
  edit.AddFile(5, 16, 17, Key("lo", 18), Key("hi", 19));
  const std::string s = edit.DebugString();
  for (const char* part :
       {"Comparator: my.cmp", "LogNumber: 12", "PrevLogNumber: 11",
        "NextFile: 13", "LastSeq: 14", "CompactPointer: 2 ", "RemoveFile: 4 15",
        "AddFile: 5 16 17 ", "'lo' @ 18 : 1", "'hi' @ 19 : 1",
        "'ptr' @ 3 : 1"}) {
    EXPECT_NE(std::string::npos, s.find(part)) << part << " in " << s;
  }
}

// Byte offsets at which the encoding of FullEdit-like edits can be cut into
// whole records: the encoding of each record on its own, accumulated in
// encoding order.
std::set<size_t> RecordBoundaries(int files) {
  const uint64_t big = uint64_t{1} << 50;
  std::vector<VersionEdit> singles(5);
  singles[0].SetComparatorName("leveldb.BytewiseComparator");
  singles[1].SetLogNumber(big + 1);
  singles[2].SetPrevLogNumber(big + 2);
  singles[3].SetNextFile(big + 3);
  singles[4].SetLastSequence(kMaxSequenceNumber);
  for (int i = 0; i < files; ++i) {
    VersionEdit e;
    e.SetCompactPointer(i % config::kNumLevels,
                        Key("pointer" + std::to_string(i), i));
    singles.push_back(e);
  }
  // Deleted files are encoded in (level, number) order.
  std::set<std::pair<int, uint64_t>> deleted;
  for (int i = 0; i < files; ++i) {
    deleted.emplace(i % config::kNumLevels, big + 700 + i);
  }
  for (const auto& [level, number] : deleted) {
    VersionEdit e;
    e.RemoveFile(level, number);
    singles.push_back(e);
  }
  for (int i = 0; i < files; ++i) {
    VersionEdit e;
    e.AddFile(i % config::kNumLevels, big + 100 + i, big + 500 + i,
              Key("smallest" + std::to_string(i), big + i),
              Key("largest" + std::to_string(i), big + i, kTypeDeletion));
    singles.push_back(e);
  }
  std::set<size_t> boundaries{0};
  size_t offset = 0;
  for (const VersionEdit& e : singles) {
    std::string part;
    e.EncodeTo(&part);
    offset += part.size();
    boundaries.insert(offset);
  }
  return boundaries;
}

TEST(VersionEditTest, EveryTruncationIsCorruptionUnlessOnARecordBoundary) {
  const int kFiles = 9;
  std::string full;
  FullEdit(kFiles).EncodeTo(&full);
  const std::set<size_t> boundaries = RecordBoundaries(kFiles);
  ASSERT_EQ(1u, boundaries.count(full.size()));

  for (size_t len = 0; len < full.size(); ++len) {
    // A private copy so that reading past the prefix would be caught by
    // sanitizers.
    const std::string prefix = full.substr(0, len);
    VersionEdit edit;
    Status s = edit.DecodeFrom(prefix);
    if (boundaries.count(len) != 0) {
      ASSERT_TRUE(s.ok()) << len << ": " << s.ToString();
      std::string again;
      edit.EncodeTo(&again);
      EXPECT_EQ(prefix, again) << len;
    } else {
      ASSERT_TRUE(s.IsCorruption()) << len << ": " << s.ToString();
      EXPECT_NE(std::string::npos, s.ToString().find("VersionEdit")) << len;
    }
  }
}

Status DecodeBytes(const std::string& bytes) {
  VersionEdit edit;
  return edit.DecodeFrom(bytes);
}

// Replaces 1 to 4 random bytes of `good` (and cuts a third of the copies
// short) 20000 times, decoding each copy: the result is OK or Corruption,
// and an edit that decodes has a stable encoding (ExpectStableEncoding).
// Returns how many copies were corrupt and, of the rest, how many
// held ElasticBF records.
void DecodeDamagedCopies(const std::string& good, uint32_t seed, int* corrupt,
                         int* elastic) {
  Random rnd(seed);
  *corrupt = 0;
  *elastic = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string bytes = good;
    const int flips = 1 + static_cast<int>(rnd.Uniform(4));
    for (int i = 0; i < flips; ++i) {
      bytes[rnd.Uniform(static_cast<int>(bytes.size()))] =
          static_cast<char>(rnd.Uniform(256));
    }
    if (rnd.OneIn(3)) bytes.resize(rnd.Uniform(static_cast<int>(bytes.size())));
    VersionEdit edit;
    Status s = edit.DecodeFrom(bytes);
    ASSERT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
    if (s.ok()) {
      if (edit.HasElastic()) ++*elastic;
      // Whatever decoded must encode and decode again identically.
      ASSERT_NO_FATAL_FAILURE(ExpectStableEncoding(edit));
    } else {
      ++*corrupt;
    }
  }
}

// Decodes 20000 inputs made by `make`: each one is OK or Corruption.
template <typename MakeBytes>
void DecodeRandomInputs(uint32_t seed, MakeBytes make) {
  Random rnd(seed);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::string bytes = make(&rnd);
    VersionEdit edit;
    Status s = edit.DecodeFrom(bytes);
    ASSERT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
  }
}

TEST(VersionEditTest, UnknownTagsAreCorruption) {
  // 8 is the retired large-value tag of old releases; the others were never
  // assigned.
  for (uint32_t tag : {0u, 8u, 10u, 11u, 127u, 128u, 300u, 0xffffffffu}) {
    std::string bytes;
    AppendVarint32(&bytes, tag);
    AppendVarint64(&bytes, 1);
    Status s = DecodeBytes(bytes);
    ASSERT_TRUE(s.IsCorruption()) << tag;
    EXPECT_EQ("Corruption: VersionEdit: unknown tag", s.ToString()) << tag;
  }
}

TEST(VersionEditTest, UnknownTagAfterValidRecordsIsCorruption) {
  std::string bytes;
  FullEdit(3).EncodeTo(&bytes);
  AppendVarint32(&bytes, 42);
  EXPECT_TRUE(DecodeBytes(bytes).IsCorruption());
}

TEST(VersionEditTest, OverlongTagVarintIsCorruption) {
  // Six continuation bytes: too long for a varint32.
  const std::string bytes("\x81\x81\x81\x81\x81\x01", 6);
  EXPECT_TRUE(DecodeBytes(bytes).IsCorruption());
}

TEST(VersionEditTest, LevelsOutOfRangeAreCorruption) {
  const InternalKey k = Key("k", 1);
  for (uint32_t level : {7u, 8u, 1000u}) {
    EXPECT_TRUE(
        DecodeBytes(CompactPointerRecord(level, k.Encode())).IsCorruption())
        << level;
    EXPECT_TRUE(DecodeBytes(DeletedFileRecord(level, 3)).IsCorruption())
        << level;
    EXPECT_TRUE(
        DecodeBytes(NewFileRecord(level, 3, 100, k.Encode(), k.Encode()))
            .IsCorruption())
        << level;
  }

  // The deepest real level is accepted.
  EXPECT_TRUE(DecodeBytes(DeletedFileRecord(config::kNumLevels - 1, 3)).ok());
}

TEST(VersionEditTest, KeysTooShortForAnInternalKeyAreCorruption) {
  for (const std::string& raw : {std::string(), std::string("1234567")}) {
    EXPECT_TRUE(DecodeBytes(NewFileRecord(1, 3, 100, Key("a", 1).Encode(), raw))
                    .IsCorruption())
        << raw.size();
    EXPECT_TRUE(DecodeBytes(CompactPointerRecord(1, raw)).IsCorruption())
        << raw.size();
  }
}

TEST(VersionEditTest, LengthPastTheEndIsCorruption) {
  std::string bytes;
  AppendVarint32(&bytes, 1);
  AppendVarint32(&bytes, 1000);  // comparator name length
  bytes.append("short");
  Status s = DecodeBytes(bytes);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("comparator name"));
}

TEST(VersionEditTest, RandomDamageNeverCrashes) {
  std::string good;
  FullEdit(12).EncodeTo(&good);
  int corrupt = 0, elastic = 0;
  ASSERT_NO_FATAL_FAILURE(
      DecodeDamagedCopies(good, test::RandomSeed(), &corrupt, &elastic));
  EXPECT_GT(corrupt, 0);
}

TEST(VersionEditTest, RandomBytesNeverCrash) {
  DecodeRandomInputs(test::RandomSeed() + 1, [](Random* rnd) {
    return test::RandomBytes(rnd, rnd->Uniform(64));
  });
}

// ---------------------------------------------------------------------------
// ElasticBF records: segment hotness (tag 100) and the logical clock (101)

HotnessPtr MakeHotness(uint32_t segments, uint64_t salt, bool with_units) {
  auto h = std::make_shared<InheritedHotness>();
  for (uint32_t s = 0; s < segments; ++s) {
    const uint64_t accesses = salt * 1000 + s * 7;
    h->segments.push_back(
        MultiQueue::Hotness{accesses / 2, accesses, (uint64_t{1} << 40) + s});
    if (with_units) h->units.push_back(static_cast<int>(s % 8) - 1);
  }
  return h;
}

// A 1.23 edit plus hotness for two files and the clock.
VersionEdit ElasticEdit() {
  VersionEdit edit = FullEdit(3);
  edit.SetFileHotness(11, MakeHotness(5, 1, true));
  edit.SetFileHotness(uint64_t{1} << 45, MakeHotness(1, 2, false));
  edit.SetElasticClock(uint64_t{1} << 41);
  return edit;
}

TEST(VersionEditElasticTest, RoundTrip) {
  ExpectStableEncoding(ElasticEdit());
  VersionEdit decoded;
  std::string bytes;
  ElasticEdit().EncodeTo(&bytes);
  ASSERT_TRUE(decoded.DecodeFrom(bytes).ok());
  EXPECT_TRUE(decoded.HasElastic());
  const std::string text = decoded.DebugString();
  EXPECT_NE(std::string::npos, text.find("SegmentHotness: 11 [")) << text;
  EXPECT_NE(std::string::npos, text.find("ElasticClock: 2199023255552"));
  // Segment 2 of file 11: accesses 1014, absent 507, units 1.
  EXPECT_NE(std::string::npos, text.find("507/1014@1099511627778x1")) << text;
}

TEST(VersionEditElasticTest, EncodingUsesTheNewTags) {
  VersionEdit edit;
  auto h = std::make_shared<InheritedHotness>();
  h->segments = {MultiQueue::Hotness{1, 2, 300}, MultiQueue::Hotness{0, 0, 0}};
  h->units = {4, -1};
  edit.SetFileHotness(9, h);
  edit.SetElasticClock(77);
  std::string actual;
  edit.EncodeTo(&actual);

  std::string expected;
  AppendVarint32(&expected, 100);
  AppendVarint64(&expected, 9);
  AppendVarint32(&expected, 2);
  AppendVarint64(&expected, 1);
  AppendVarint64(&expected, 2);
  AppendVarint64(&expected, 300);
  AppendVarint32(&expected, 5);  // units + 1
  AppendVarint64(&expected, 0);
  AppendVarint64(&expected, 0);
  AppendVarint64(&expected, 0);
  AppendVarint32(&expected, 0);  // no target
  AppendVarint32(&expected, 101);
  AppendVarint64(&expected, 77);
  EXPECT_EQ(expected, actual);
}

TEST(VersionEditElasticTest, EmptyHotnessIsNotRecordedAndClearDropsAll) {
  VersionEdit edit;
  edit.SetFileHotness(3, nullptr);
  edit.SetFileHotness(4, std::make_shared<InheritedHotness>());
  EXPECT_FALSE(edit.HasElastic());
  edit = ElasticEdit();
  std::string with;
  edit.EncodeTo(&with);
  edit.ClearElastic();
  EXPECT_FALSE(edit.HasElastic());
  std::string without, plain;
  edit.EncodeTo(&without);
  FullEdit(3).EncodeTo(&plain);
  EXPECT_EQ(plain, without);  // LevelDB 1.23's records, untouched
  EXPECT_GT(with.size(), without.size());
}

TEST(VersionEditElasticTest, NoTargetsDecodeAsNoUnits) {
  VersionEdit edit;
  edit.SetFileHotness(5, MakeHotness(3, 1, /*with_units=*/false));
  // Also checks that the decoded edit prints as `edit` does.
  ASSERT_NO_FATAL_FAILURE(ExpectStableEncoding(edit));
  EXPECT_EQ(std::string::npos, edit.DebugString().find("x"));
}

TEST(VersionEditElasticTest, EveryTruncationOfARecordIsCorruption) {
  VersionEdit edit;
  edit.SetFileHotness(12, MakeHotness(4, 3, true));
  std::string record;
  edit.EncodeTo(&record);
  VersionEdit clock;
  clock.SetElasticClock(uint64_t{1} << 50);
  std::string clock_record;
  clock.EncodeTo(&clock_record);
  for (const std::string& full : {record, clock_record}) {
    for (size_t len = 1; len < full.size(); ++len) {
      Status s = DecodeBytes(full.substr(0, len));
      ASSERT_TRUE(s.IsCorruption()) << len << ": " << s.ToString();
    }
    EXPECT_TRUE(DecodeBytes(full).ok());
  }
}

// A tag-100 record by hand.
std::string HotnessRecord(uint64_t file, uint32_t count,
                          const std::vector<uint64_t>& fields) {
  std::string bytes;
  AppendVarint32(&bytes, 100);
  AppendVarint64(&bytes, file);
  AppendVarint32(&bytes, count);
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i % 4 == 3) {
      AppendVarint32(&bytes, static_cast<uint32_t>(fields[i]));
    } else {
      AppendVarint64(&bytes, fields[i]);
    }
  }
  return bytes;
}

TEST(VersionEditElasticTest, ImpossibleValuesAreCorruption) {
  // Sanity: a valid one.
  EXPECT_TRUE(DecodeBytes(HotnessRecord(1, 1, {2, 3, 4, 1})).ok());
  // Unit counts up to the format's limit (stored plus one).
  EXPECT_TRUE(
      DecodeBytes(HotnessRecord(1, 1, {3, 3, 4, kMaxElasticUnits + 1})).ok());
  const std::vector<std::string> bad = {
      HotnessRecord(1, 0, {}),            // no segments
      HotnessRecord(1, 1, {4, 3, 4, 1}),  // absent > accesses
      HotnessRecord(1, 1, {2, 3, 4, kMaxElasticUnits + 2}),  // too many units
      HotnessRecord(1, 2, {2, 3, 4, 1}),             // fewer than announced
      HotnessRecord(1, 1u << 20 | 1, {2, 3, 4, 1}),  // too many segments
      HotnessRecord(1, 0xffffffffu, {2, 3, 4, 1}),   // far too many
      HotnessRecord(1, 100000, {2, 3, 4, 1, 2, 3}),  // more than the bytes
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    Status s = DecodeBytes(bad[i]);
    ASSERT_TRUE(s.IsCorruption()) << i << ": " << s.ToString();
    EXPECT_EQ("Corruption: VersionEdit: segment hotness", s.ToString()) << i;
  }
  std::string clock;
  AppendVarint32(&clock, 101);
  clock.push_back('\x80');  // an unfinished varint
  Status s = DecodeBytes(clock);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_EQ("Corruption: VersionEdit: elastic clock", s.ToString());
}

TEST(VersionEditElasticTest, RandomDamageNeverCrashes) {
  std::string good;
  ElasticEdit().EncodeTo(&good);
  int corrupt = 0, elastic = 0;
  ASSERT_NO_FATAL_FAILURE(
      DecodeDamagedCopies(good, test::RandomSeed() + 2, &corrupt, &elastic));
  EXPECT_GT(corrupt, 0);
  EXPECT_GT(elastic, 0);
}

TEST(VersionEditElasticTest, RandomHotnessRecordsNeverCrash) {
  // Random bytes after the tag: mostly corruption, never a crash or a huge
  // allocation.
  DecodeRandomInputs(test::RandomSeed() + 3, [](Random* rnd) {
    std::string bytes;
    AppendVarint32(&bytes, rnd->OneIn(2) ? 100 : 101);
    bytes += test::RandomBytes(rnd, rnd->Uniform(48));
    return bytes;
  });
}

}  // namespace
}  // namespace leveldb
