// Filter groups in table files: segmenting, unit layout, the elastic index,
// and what happens when any of it is damaged.
#include "table/elastic/filter_group.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/table_cache.h"
#include "elastic/mq_schedule.h"
#include "gtest/gtest.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/helpers/memenv.h"
#include "leveldb/options.h"
#include "table/block.h"
#include "table/elastic/elastic_filter_policy.h"
#include "table/elastic/filter_unit.h"
#include "table/elastic/ribbon_unit.h"
#include "tests/elastic_test_helpers.h"
#include "tests/elastic_test_peer.h"
#include "tests/test_util.h"
#include "util/crc32c.h"
#include "util/epoch.h"
#include "util/hash64.h"
#include "util/io_stats.h"
#include "util/random.h"

namespace leveldb {
namespace {

using test::KVVector;

// Keys of each data block, with the block's handle.
struct BlockKeys {
  BlockHandle handle;
  std::vector<std::string> keys;
};

std::vector<BlockKeys> ReadDataBlocks(const std::string& file,
                                      const Comparator* cmp) {
  std::vector<BlockKeys> blocks;
  test::StringSource source(file);
  for (const BlockHandle& h : test::DataBlockHandles(file, cmp)) {
    BlockContents contents;
    EXPECT_TRUE(ReadBlock(&source, ReadOptions(), h, &contents).ok());
    Block block(contents);
    BlockIterator it(cmp, &block);
    BlockKeys entry;
    entry.handle = h;
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      entry.keys.push_back(it.key().ToString());
    }
    blocks.push_back(std::move(entry));
  }
  return blocks;
}

// Units of 4 bits (planes), 6 per segment (8192-key segments): the shape
// the tests below were written for, whatever the defaults.
ElasticFilterOptions FourBySixOptions(ElasticFilterOptions::UnitKind kind) {
  ElasticFilterOptions eo;
  eo.unit_kind = kind;
  eo.bits_per_unit = 4;
  eo.units_per_segment = 6;
  return eo;
}

// Two-plane Ribbon units: segments of 16384 keys.
ElasticFilterOptions TwoPlaneOptions() {
  ElasticFilterOptions eo;
  eo.bits_per_unit = 2;
  eo.units_per_segment = 12;
  return eo;
}

ElasticFilterOptions BloomUnitOptions() {
  return FourBySixOptions(ElasticFilterOptions::UnitKind::kBloom);
}

class FilterGroupTest : public testing::Test {
 protected:
  FilterGroupTest() : env_(NewMemEnv(Env::Default())), dbname_("/fgtest") {
    options_.block_size = 1024;
    options_.env = env_.get();
    options_.info_log = &logger_;
    EXPECT_TRUE(env_->CreateDir(dbname_).ok());
  }

  void UsePolicy(const ElasticFilterOptions& eo) {
    eo_ = eo;
    policy_.reset(NewElasticFilterPolicy(eo));
    options_.filter_policy = policy_.get();
  }

  std::string Build(const KVVector& kvs) {
    return test::BuildTableBytes(options_, kvs);
  }

  uint64_t Install(uint64_t number, const std::string& bytes) {
    EXPECT_TRUE(
        WriteStringToFile(env_.get(), bytes, TableFileName(dbname_, number))
            .ok());
    return bytes.size();
  }

  // `stats`: where its unit counters go (null: kept by the schedule).
  std::unique_ptr<MQSchedule> NewSchedule(IoStats* stats) {
    MQScheduleOptions mo;
    mo.elastic = eo_;
    mo.elastic.memory_budget_bytes = size_t{1} << 30;
    mo.info_log = &logger_;
    mo.stats = stats;
    mo.background_thread = false;
    mo.opener = test::OpenerFor(env_.get(), dbname_);
    return std::make_unique<MQSchedule>(mo);
  }

  // The table of `kvs` as a DB writes it (internal keys), for lookups
  // through a TableCache made with LookupOptions().
  std::string BuildForLookups(const KVVector& kvs) {
    return test::BuildTableBytes(LookupOptions(), test::InternalEntries(kvs));
  }
  const Options& LookupOptions() { return internal_options_.From(options_); }

  // Looks up every present and absent key through a TableCache bound to
  // `mqs`; expects every present key found with its value and no absent
  // key found. Returns how many absent keys a filter rejected.
  int CheckLookups(TableCache* cache, MQSchedule* /*mqs*/, uint64_t number,
                   uint64_t size, const KVVector& kvs) {
    int rejected = 0;
    for (size_t i = 0; i < kvs.size(); ++i) {
      for (int absent = 0; absent < 2; ++absent) {
        const std::string key =
            absent ? test::AbsentKey(static_cast<int>(i)) : kvs[i].first;
        const test::TableGet get =
            test::GetFromTable(cache, number, size, key, &stats_);
        EXPECT_TRUE(get.status.ok());
        if (absent) {
          EXPECT_FALSE(get.found()) << key;
          if (get.probe.filter_rejected) ++rejected;
        } else {
          EXPECT_TRUE(get.found()) << key;
          EXPECT_EQ(kvs[i].second, get.value);
          EXPECT_FALSE(get.probe.filter_rejected) << key;
        }
      }
    }
    return rejected;
  }

  std::unique_ptr<Env> env_;
  const std::string dbname_;
  test::CapturingLogger logger_;
  IoStats stats_;
  ElasticFilterOptions eo_;
  test::InternalKeyOptions internal_options_;
  std::unique_ptr<const FilterPolicy> policy_;
  Options options_;
};

// Replays the cutting rule over the real blocks: a segment closes at the
// first block boundary where SegmentComplete holds.
std::vector<ElasticIndex::Segment> ExpectedSegments(
    const std::vector<BlockKeys>& blocks, const ElasticFilterPolicy& policy) {
  std::vector<ElasticIndex::Segment> segments;
  ElasticIndex::Segment open;
  for (const BlockKeys& b : blocks) {
    open.num_keys += b.keys.size();
    const uint64_t next =
        b.handle.offset() + b.handle.size() + kBlockTrailerSize;
    if (policy.SegmentComplete(open.num_keys, next - open.first_block_offset)) {
      segments.push_back(open);
      open = ElasticIndex::Segment();
      open.first_block_offset = next;
    }
  }
  if (open.num_keys > 0) segments.push_back(open);
  return segments;
}

void ExpectSegmentsMatch(const std::string& file,
                         const ElasticFilterPolicy& policy) {
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(file, &index).ok());
  const auto blocks = ReadDataBlocks(file, BytewiseComparator());
  const auto expected = ExpectedSegments(blocks, policy);
  ASSERT_GT(expected.size(), 2u);
  ASSERT_EQ(expected.size(), index.num_segments());
  for (uint32_t s = 0; s < index.num_segments(); ++s) {
    EXPECT_EQ(expected[s].first_block_offset,
              index.segment(s).first_block_offset);
    EXPECT_EQ(expected[s].num_keys, index.segment(s).num_keys);
    const int bits = policy.options().bits_per_unit;
    if (index.unit_kind() == ElasticUnitKind::kRibbon) {
      EXPECT_TRUE(RibbonUnitSizeMatches(index.segment(s).unit_size,
                                        expected[s].num_keys, bits));
    } else {
      EXPECT_EQ(FilterUnitSize(expected[s].num_keys, bits),
                index.segment(s).unit_size);
    }
  }
  // Every data block maps to the segment whose range holds it.
  for (const BlockKeys& b : blocks) {
    const uint32_t s = index.SegmentOf(b.handle.offset());
    EXPECT_LE(index.segment(s).first_block_offset, b.handle.offset());
    if (s + 1 < index.num_segments()) {
      EXPECT_LT(b.handle.offset(), index.segment(s + 1).first_block_offset);
    }
  }
}

TEST_F(FilterGroupTest, SegmentsFollowTheKeyCountRule) {
  ElasticFilterOptions eo;
  eo.bits_per_unit = 16;  // 2048 keys per segment
  UsePolicy(eo);
  const std::string file = Build(test::MakeEntries(10000, 100));
  ASSERT_FALSE(file.empty());
  ExpectSegmentsMatch(file, *AsElasticPolicy(options_.filter_policy, nullptr));
}

TEST_F(FilterGroupTest, SegmentsFollowTheByteRule) {
  ElasticFilterOptions eo;
  eo.segment_bytes = 8192;
  UsePolicy(eo);
  const std::string file = Build(test::MakeEntries(3000, 100));
  ASSERT_FALSE(file.empty());
  ExpectSegmentsMatch(file, *AsElasticPolicy(options_.filter_policy, nullptr));
}

TEST_F(FilterGroupTest, UnitsAreStoredUnitMajorAsCheckedBlocks) {
  ElasticFilterOptions eo;
  eo.unit_kind = ElasticFilterOptions::UnitKind::kBloom;
  eo.bits_per_unit = 8;
  eo.units_per_segment = 5;
  UsePolicy(eo);
  const std::string file = Build(test::MakeEntries(12000, 60));
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(file, &index).ok());
  ASSERT_EQ(5, index.units_per_segment());
  ASSERT_EQ(8, index.bits_per_unit());
  ASSERT_GE(index.num_segments(), 3u);

  // Key hashes of each segment, from the data blocks.
  std::vector<std::vector<uint64_t>> hashes(index.num_segments());
  const auto blocks = ReadDataBlocks(file, BytewiseComparator());
  uint64_t data_end = 0;
  for (const BlockKeys& b : blocks) {
    for (const std::string& k : b.keys) {
      hashes[index.SegmentOf(b.handle.offset())].push_back(
          KeyHash64(k.data(), k.size()));
    }
    data_end = b.handle.offset() + b.handle.size() + kBlockTrailerSize;
  }

  test::StringSource source(file);
  ReadOptions verify;
  verify.verify_checksums = true;
  uint64_t expected_offset = index.region_offset(0);
  EXPECT_EQ(data_end, expected_offset);  // units follow the data blocks
  for (int u = 0; u < index.units_per_segment(); ++u) {
    EXPECT_EQ(expected_offset, index.region_offset(u));
    for (uint32_t s = 0; s < index.num_segments(); ++s) {
      const BlockHandle h = index.UnitHandle(s, u);
      EXPECT_EQ(expected_offset, h.offset());
      // The standard block reader accepts a unit: type 0, valid CRC.
      BlockContents contents;
      ASSERT_TRUE(ReadBlock(&source, verify, h, &contents).ok());
      std::string want;
      BuildFilterUnit(hashes[s].data(), hashes[s].size(), u, 8, &want);
      EXPECT_EQ(want, contents.data.ToString()) << "unit " << u << " seg " << s;
      if (contents.heap_allocated) delete[] contents.data.data();
      expected_offset = h.offset() + h.size() + kBlockTrailerSize;
    }
    EXPECT_EQ(index.region_offset(u) + index.region_size(), expected_offset);
  }
  BlockHandle index_handle;
  ASSERT_TRUE(test::FindMetaBlock(file, kElasticIndexBlockName, &index_handle));
  EXPECT_EQ(expected_offset, index_handle.offset());
}

TEST_F(FilterGroupTest, EveryKeyPassesEveryUnitOfItsSegment) {
  UsePolicy(TwoPlaneOptions());
  const KVVector kvs = test::MakeEntries(20000, 40);
  const std::string file = Build(kvs);
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(file, &index).ok());
  ASSERT_GE(index.num_segments(), 2u);

  test::StringSource source(file);
  TableFilterGroups groups(index, file.size());
  EpochDomain epoch;
  for (int u = 0; u < index.units_per_segment(); ++u) {
    std::vector<UnitBuffer> buffers;
    std::vector<Status> statuses;
    ASSERT_TRUE(groups.ReadUnitRegion(&source, u, &buffers, &statuses).ok());
    for (uint32_t s = 0; s < index.num_segments(); ++s) {
      ASSERT_TRUE(statuses[s].ok()) << statuses[s].ToString();
      ASSERT_TRUE(groups.InstallUnit(s, u, &buffers[s], &epoch));
    }
  }

  const auto blocks = ReadDataBlocks(file, BytewiseComparator());
  size_t checked = 0;
  {
    EpochGuard guard(&epoch);
    for (const BlockKeys& b : blocks) {
      const uint32_t s = index.SegmentOf(b.handle.offset());
      for (const std::string& k : b.keys) {
        bool consulted = false;
        const uint64_t h = KeyHash64(k.data(), k.size());
        ASSERT_TRUE(groups.MayMatch(s, h, &consulted)) << k;
        EXPECT_TRUE(consulted);
        // The units as stored on disk agree, one by one.
        for (int u = 0; u < index.units_per_segment(); ++u) {
          BlockContents c;
          ASSERT_TRUE(
              ReadBlock(&source, ReadOptions(), index.UnitHandle(s, u), &c)
                  .ok());
          EXPECT_TRUE(FilterUnitMayMatch(c.data, h, u));
          if (c.heap_allocated) delete[] c.data.data();
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(kvs.size(), checked);

  // Six 4-bit units reject nearly every absent key (theory: ~1e-5 pass).
  int passed = 0;
  EpochGuard guard(&epoch);
  for (int i = 0; i < 20000; ++i) {
    const std::string k = test::AbsentKey(i);
    bool consulted;
    const uint32_t s =
        index.SegmentOf(blocks[i * blocks.size() / 20000].handle.offset());
    if (groups.MayMatch(s, KeyHash64(k.data(), k.size()), &consulted)) {
      ++passed;
    }
  }
  EXPECT_LT(passed, 20);
}

TEST_F(FilterGroupTest, InternalKeysAreHashedAsUserKeysOncePerUserKey) {
  InternalKeyComparator icmp(BytewiseComparator());
  ElasticFilterOptions eo;
  eo.bits_per_unit = 16;
  std::unique_ptr<const FilterPolicy> elastic(NewElasticFilterPolicy(eo));
  InternalFilterPolicy wrapped(elastic.get());
  options_.comparator = &icmp;
  options_.filter_policy = &wrapped;

  KVVector kvs;
  const int kUserKeys = 5000;
  for (int i = 0; i < kUserKeys; ++i) {
    for (SequenceNumber seq = 3; seq >= 1; --seq) {
      kvs.emplace_back(
          InternalKey(test::PresentKey(i), seq, kTypeValue).Encode().ToString(),
          "value");
    }
  }
  const std::string file = Build(kvs);
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(file, &index).ok());
  // One entry per user key and segment: a user key whose versions straddle
  // a segment boundary is in both segments.
  EXPECT_GE(index.total_keys(), static_cast<uint64_t>(kUserKeys));
  EXPECT_LT(index.total_keys(),
            static_cast<uint64_t>(kUserKeys) + index.num_segments());
  EXPECT_GE(index.num_segments(), 2u);

  test::StringSource source(file);
  TableFilterGroups groups(index, file.size());
  EpochDomain epoch;
  std::vector<UnitBuffer> buffers;
  std::vector<Status> statuses;
  ASSERT_TRUE(groups.ReadUnitRegion(&source, 0, &buffers, &statuses).ok());
  for (uint32_t s = 0; s < index.num_segments(); ++s) {
    ASSERT_TRUE(groups.InstallUnit(s, 0, &buffers[s], &epoch));
  }
  const auto blocks = ReadDataBlocks(file, &icmp);
  EpochGuard guard(&epoch);
  for (const BlockKeys& b : blocks) {
    for (const std::string& ikey : b.keys) {
      const Slice user = ExtractUserKey(ikey);
      bool consulted;
      EXPECT_TRUE(groups.MayMatch(index.SegmentOf(b.handle.offset()),
                                  KeyHash64(user.data(), user.size()),
                                  &consulted));
    }
  }
}

TEST_F(FilterGroupTest, TablesGetTheAutomaticShapeOfTheirBudget) {
  const KVVector kvs = test::MakeEntries(40000, 20);
  ElasticFilterOptions eo;  // Ribbon, shape from 4 bits per key
  UsePolicy(eo);
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(Build(kvs), &index).ok());
  EXPECT_EQ(1, index.bits_per_unit());
  EXPECT_EQ(16, index.units_per_segment());
  EXPECT_EQ(2u, index.num_segments());  // 32768 keys per 1-plane segment
  eo.memory_bits_per_key = 20;
  UsePolicy(eo);
  ASSERT_TRUE(test::ReadElasticIndexOf(Build(kvs), &index).ok());
  EXPECT_EQ(2, index.bits_per_unit());
  EXPECT_EQ(12, index.units_per_segment());
  EXPECT_EQ(3u, index.num_segments());  // 16384 keys per 2-plane segment
}

TEST_F(FilterGroupTest, EmptyTableHasNoElasticIndex) {
  UsePolicy(ElasticFilterOptions());
  const std::string file = BuildForLookups(KVVector());
  ASSERT_FALSE(file.empty());
  BlockHandle h;
  EXPECT_FALSE(test::FindMetaBlock(file, kElasticIndexBlockName, &h));

  const uint64_t size = Install(7, file);
  auto mqs = NewSchedule(&stats_);
  TableCache cache(dbname_, LookupOptions(), 10, mqs.get());
  EXPECT_EQ(0, CheckLookups(&cache, mqs.get(), 7, size, KVVector()));
  const test::TableGet get = test::GetFromTable(&cache, 7, size, "k00000000");
  ASSERT_TRUE(get.status.ok());
  EXPECT_FALSE(get.found());
  EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(mqs.get()).attached_tables);
}

// ---------------------------------------------------------------------------
// Index validation

class ElasticIndexTest : public testing::Test {
 protected:
  // A consistent index of three segments of a 1 MB file.
  static ElasticIndex Valid(
      std::vector<ElasticIndex::Segment>* segments = nullptr,
      std::vector<uint64_t>* regions = nullptr) {
    std::vector<ElasticIndex::Segment> segs(3);
    const uint64_t keys[3] = {1000, 1200, 10};
    for (int i = 0; i < 3; ++i) {
      segs[i].first_block_offset = i * 100000;
      segs[i].num_keys = keys[i];
      segs[i].unit_size = FilterUnitSize(keys[i], 4);
    }
    uint64_t region_bytes = 0;
    for (const auto& s : segs) region_bytes += s.unit_size + kBlockTrailerSize;
    std::vector<uint64_t> regs;
    for (int u = 0; u < 2; ++u) regs.push_back(400000 + u * region_bytes);
    if (segments != nullptr) *segments = segs;
    if (regions != nullptr) *regions = regs;
    return ElasticIndex(2, 4, segs, regs);
  }
  static constexpr uint64_t kFileSize = 1000000;

  static Status DecodeBuilt(int units, int bits,
                            std::vector<ElasticIndex::Segment> segs,
                            std::vector<uint64_t> regs) {
    std::string encoded;
    ElasticIndex(units, bits, std::move(segs), std::move(regs))
        .EncodeTo(&encoded);
    ElasticIndex out;
    return ElasticIndex::Decode(encoded, kFileSize, &out);
  }
};

TEST_F(ElasticIndexTest, RoundTrip) {
  std::string encoded;
  Valid().EncodeTo(&encoded);
  ElasticIndex decoded;
  ASSERT_TRUE(ElasticIndex::Decode(encoded, kFileSize, &decoded).ok());
  EXPECT_EQ(2, decoded.units_per_segment());
  EXPECT_EQ(4, decoded.bits_per_unit());
  ASSERT_EQ(3u, decoded.num_segments());
  EXPECT_EQ(2210u, decoded.total_keys());
  EXPECT_EQ(0u, decoded.SegmentOf(0));
  EXPECT_EQ(0u, decoded.SegmentOf(99999));
  EXPECT_EQ(1u, decoded.SegmentOf(100000));
  EXPECT_EQ(2u, decoded.SegmentOf(250000));
  const uint64_t s0 = decoded.segment(0).unit_size + kBlockTrailerSize;
  const uint64_t s1 = decoded.segment(1).unit_size + kBlockTrailerSize;
  EXPECT_EQ(400000u + s0 + s1, decoded.UnitHandle(2, 0).offset());
  EXPECT_EQ(decoded.region_offset(1) + s0, decoded.UnitHandle(1, 1).offset());
  EXPECT_EQ(decoded.segment(1).unit_size, decoded.UnitHandle(1, 1).size());
}

TEST_F(ElasticIndexTest, RejectsInconsistentIndexes) {
  std::vector<ElasticIndex::Segment> segs;
  std::vector<uint64_t> regs;
  Valid(&segs, &regs);
  EXPECT_TRUE(DecodeBuilt(2, 4, segs, regs).ok());

  EXPECT_FALSE(DecodeBuilt(0, 4, segs, {}).ok());
  EXPECT_FALSE(
      DecodeBuilt(17, 4, segs, std::vector<uint64_t>(17, 400000)).ok());
  EXPECT_FALSE(DecodeBuilt(2, 0, segs, regs).ok());
  EXPECT_FALSE(DecodeBuilt(2, 33, segs, regs).ok());
  EXPECT_FALSE(DecodeBuilt(2, 5, segs, regs).ok());  // sizes do not match
  EXPECT_FALSE(DecodeBuilt(2, 4, {}, regs).ok());    // no segment

  auto mutate = [&](auto change) {
    auto s = segs;
    auto r = regs;
    change(&s, &r);
    return DecodeBuilt(2, 4, s, r);
  };
  using Segs = std::vector<ElasticIndex::Segment>;
  using Regs = std::vector<uint64_t>;
  EXPECT_FALSE(
      mutate([](Segs* s, Regs*) { (*s)[0].first_block_offset = 5; }).ok());
  EXPECT_FALSE(
      mutate([](Segs* s, Regs*) { (*s)[2].first_block_offset = 100000; }).ok());
  EXPECT_FALSE(mutate([](Segs* s, Regs*) {
                 (*s)[2].first_block_offset = kFileSize;
               }).ok());
  EXPECT_FALSE(mutate([](Segs* s, Regs*) { (*s)[1].num_keys = 0; }).ok());
  EXPECT_FALSE(mutate([](Segs* s, Regs*) { (*s)[1].unit_size += 8; }).ok());
  EXPECT_FALSE(mutate([](Segs*, Regs* r) { (*r)[1] = (*r)[0] + 1; }).ok());
  EXPECT_FALSE(mutate([](Segs*, Regs* r) { (*r)[0] = 100; }).ok());
  EXPECT_FALSE(mutate([](Segs*, Regs* r) { (*r)[1] = kFileSize - 10; }).ok());
  EXPECT_FALSE(mutate([](Segs*, Regs* r) { r->pop_back(); }).ok());
  EXPECT_FALSE(mutate([](Segs* s, Regs*) {
                 (*s)[1].unit_size = ~uint64_t{0} - 2;
               }).ok());

  // Unknown versions and trailing garbage.
  std::string encoded;
  Valid().EncodeTo(&encoded);
  ElasticIndex out;
  std::string bad = encoded;
  bad[0] = 3;  // format version
  EXPECT_TRUE(ElasticIndex::Decode(bad, kFileSize, &out).IsNotSupportedError());
  bad = encoded;
  bad[3] = 9;  // hash version
  EXPECT_TRUE(ElasticIndex::Decode(bad, kFileSize, &out).IsNotSupportedError());
  EXPECT_FALSE(ElasticIndex::Decode(encoded + '\0', kFileSize, &out).ok());
  // A file too small for the regions.
  EXPECT_FALSE(ElasticIndex::Decode(encoded, 400010, &out).ok());
  EXPECT_EQ(0u, out.num_segments());
}

TEST_F(ElasticIndexTest, TruncationsAndRandomDamageNeverCrash) {
  std::string encoded;
  Valid().EncodeTo(&encoded);
  ElasticIndex out;
  for (size_t n = 0; n < encoded.size(); ++n) {
    EXPECT_FALSE(
        ElasticIndex::Decode(Slice(encoded.data(), n), kFileSize, &out).ok())
        << n;
  }
  Random rnd(test::RandomSeed());
  int accepted = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    std::string bad = encoded;
    const int flips = 1 + rnd.Uniform(3);
    for (int f = 0; f < flips; ++f) {
      bad[rnd.Uniform(static_cast<int>(bad.size()))] ^=
          static_cast<char>(1 + rnd.Uniform(255));
    }
    if (ElasticIndex::Decode(bad, kFileSize, &out).ok()) {
      // Whatever got through is self-consistent.
      ++accepted;
      EXPECT_TRUE(out.Validate(kFileSize).ok());
      for (uint32_t s = 0; s < out.num_segments(); ++s) {
        for (int u = 0; u < out.units_per_segment(); ++u) {
          const BlockHandle h = out.UnitHandle(s, u);
          EXPECT_LE(h.offset() + h.size() + kBlockTrailerSize, kFileSize);
        }
      }
    }
  }
  EXPECT_LT(accepted, 5000);
}

// ---------------------------------------------------------------------------
// Damage in real tables

TEST_F(FilterGroupTest, CorruptIndexLeavesTheTableWithoutElasticFilters) {
  UsePolicy(BloomUnitOptions());  // the v1 index layout and Bloom views
  const KVVector kvs = test::MakeEntries(20000, 20);
  const std::string good = BuildForLookups(kvs);
  BlockHandle h;
  ASSERT_TRUE(test::FindMetaBlock(good, kElasticIndexBlockName, &h));

  // (a) a flipped byte: the block CRC fails; (b) a consistent CRC over
  // inconsistent contents (bits_per_unit no longer matches unit sizes).
  std::string crc_broken = good;
  crc_broken[h.offset() + 2] ^= 0x01;
  std::string content_broken = good;
  std::string index_bytes = good.substr(h.offset(), h.size());
  ASSERT_EQ(4, index_bytes[2]);  // bits_per_unit
  index_bytes[2] = 5;
  test::RewriteBlock(&content_broken, h, index_bytes);

  uint64_t number = 10;
  for (const std::string* file : {&crc_broken, &content_broken}) {
    const uint64_t size = Install(++number, *file);
    auto mqs = NewSchedule(&stats_);
    const size_t log_lines = logger_.lines().size();
    {
      TableCache cache(dbname_, LookupOptions(), 10, mqs.get());
      EXPECT_EQ(0, CheckLookups(&cache, mqs.get(), number, size, kvs));
      EXPECT_EQ(0u, MQScheduleTestPeer::GetStats(mqs.get()).attached_tables);
    }
    const auto lines = logger_.lines();
    ASSERT_GT(lines.size(), log_lines);
    EXPECT_NE(std::string::npos, lines.back().find("ElasticBF"));
  }
  // The intact table does use its filters.
  const uint64_t size = Install(++number, good);
  auto mqs = NewSchedule(&stats_);
  TableCache cache(dbname_, LookupOptions(), 10, mqs.get());
  EXPECT_GT(CheckLookups(&cache, mqs.get(), number, size, kvs), 15000);
  EXPECT_EQ(1u, MQScheduleTestPeer::GetStats(mqs.get()).attached_tables);
}

TEST_F(FilterGroupTest, UnitWithBadChecksumIsNeverInstalled) {
  UsePolicy(TwoPlaneOptions());
  const KVVector kvs = test::MakeEntries(60000, 20);
  std::string file = BuildForLookups(kvs);
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(file, &index).ok());
  ASSERT_GE(index.num_segments(), 3u);
  const BlockHandle bad_unit = index.UnitHandle(1, 0);
  // Clearing bits would make a unit reject present keys; the CRC check must
  // catch it first.
  file[bad_unit.offset() + 3] ^= static_cast<char>(0xff);
  const uint64_t size = Install(20, file);

  auto mqs = NewSchedule(&stats_);
  TableCache cache(dbname_, LookupOptions(), 10, mqs.get());
  const int rejected = CheckLookups(&cache, mqs.get(), 20, size, kvs);
  EXPECT_GT(rejected, 0);

  const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(mqs.get());
  EXPECT_EQ(1u, st.unit_load_failures);
  EXPECT_EQ(1u, stats_.unit_load_failures.load());
  EXPECT_EQ(index.num_segments() - 1, st.unit_loads);
  EXPECT_EQ(1u, st.region_reads);
  ASSERT_GE(st.mq.segments_per_queue.size(), 2u);
  EXPECT_EQ(1u, st.mq.segments_per_queue[0]);  // segment 1 has no unit
  EXPECT_EQ(index.region_size() - index.num_segments() * kBlockTrailerSize -
                index.segment(1).unit_size,
            st.installed_bytes);
  std::string error;
  EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(mqs.get(), &error)) << error;

  bool logged = false;
  for (const std::string& line : logger_.lines()) {
    if (line.find("segment 1 ") != std::string::npos &&
        line.find("checksum") != std::string::npos) {
      logged = true;
    }
  }
  EXPECT_TRUE(logged);

  // Accesses to the broken segment do not retry the unit.
  for (int i = 0; i < 50; ++i) {
    mqs->layer()->RecordAccess(MakeSegmentId(20, 1), true);
  }
  MQScheduleTestPeer::WaitIdle(mqs.get());
  EXPECT_EQ(1u, MQScheduleTestPeer::GetStats(mqs.get()).unit_load_failures);
  EXPECT_EQ(1u,
            MQScheduleTestPeer::GetStats(mqs.get()).mq.segments_per_queue[0]);
}

TEST_F(FilterGroupTest, RegionAndSingleReadsAgree) {
  UsePolicy(BloomUnitOptions());  // the v1 index layout and Bloom views
  const std::string file = Build(test::MakeEntries(20000, 20));
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(file, &index).ok());
  test::StringSource source(file, /*mapped=*/true);
  TableFilterGroups groups(index, file.size());
  std::vector<UnitBuffer> region;
  std::vector<Status> statuses;
  ASSERT_TRUE(groups.ReadUnitRegion(&source, 3, &region, &statuses).ok());
  for (uint32_t s = 0; s < index.num_segments(); ++s) {
    ASSERT_TRUE(statuses[s].ok());
    UnitBuffer single;
    ASSERT_TRUE(groups.ReadUnit(&source, s, 3, &single).ok());
    ASSERT_EQ(index.segment(s).unit_size, single.size);
    ASSERT_EQ(single.size, region[s].size);
    EXPECT_EQ(
        0, std::memcmp(single.words.get(), region[s].words.get(), single.size));
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(single.words.get()) % 8);
    EXPECT_EQ(FilterUnitProbes(4), single.view.probes);
  }
  UnitBuffer none;
  EXPECT_FALSE(groups.ReadUnit(&source, index.num_segments(), 0, &none).ok());
  EXPECT_FALSE(groups.ReadUnit(&source, 0, 6, &none).ok());
}

TEST_F(FilterGroupTest, InstallAndDropPublishSnapshots) {
  UsePolicy(ElasticFilterOptions());
  const std::string file = Build(test::MakeEntries(5000, 20));
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(file, &index).ok());
  test::StringSource source(file);
  TableFilterGroups groups(index, file.size());
  EpochDomain epoch;
  const uint64_t unit = index.segment(0).unit_size;

  UnitBuffer b0, b1, b2;
  ASSERT_TRUE(groups.ReadUnit(&source, 0, 0, &b0).ok());
  ASSERT_TRUE(groups.ReadUnit(&source, 0, 1, &b1).ok());
  ASSERT_TRUE(groups.ReadUnit(&source, 0, 2, &b2).ok());
  EXPECT_FALSE(groups.InstallUnit(0, 1, &b1, &epoch));  // out of order
  EXPECT_TRUE(b1.words != nullptr);                     // left alone
  EXPECT_TRUE(groups.InstallUnit(0, 0, &b0, &epoch));
  EXPECT_TRUE(groups.InstallUnit(0, 1, &b1, &epoch));
  EXPECT_TRUE(groups.InstallUnit(0, 2, &b2, &epoch));
  EXPECT_EQ(3, groups.LoadedCount(0));
  EXPECT_EQ(3 * unit, groups.loaded_bytes());

  {
    EpochGuard reader(&epoch);
    bool consulted = false;
    const std::string k = test::PresentKey(0);
    EXPECT_TRUE(groups.MayMatch(0, KeyHash64(k.data(), k.size()), &consulted));
    EXPECT_TRUE(consulted);
    // Dropping while a reader is inside keeps the memory alive.
    EXPECT_EQ(2 * unit, groups.DropUnits(0, 1, &epoch));
    EXPECT_EQ(1, groups.LoadedCount(0));
    epoch.Reclaim();
    EXPECT_GT(epoch.pending_count(), 0u);
  }
  epoch.Drain();
  EXPECT_EQ(0u, epoch.pending_count());
  EXPECT_EQ(unit, groups.loaded_bytes());
  EXPECT_EQ(0u, groups.DropUnits(0, 1, &epoch));
  EXPECT_EQ(unit, groups.DropAll(&epoch));
  EXPECT_EQ(0, groups.LoadedCount(0));
  bool consulted = true;
  EpochGuard reader(&epoch);
  EXPECT_TRUE(groups.MayMatch(0, 12345, &consulted));
  EXPECT_FALSE(consulted);
}

}  // namespace
}  // namespace leveldb

namespace leveldb {
namespace {

// ---------------------------------------------------------------------------
// Ribbon units

// Size and CRC32C of the Bloom table BloomTableBytesAreUnchanged builds, as
// written before Ribbon units existed.
constexpr size_t kBloomTableSize = 50569;
constexpr uint32_t kBloomTableCrc = 1972390738;

ElasticFilterOptions RibbonOptions() {
  return FourBySixOptions(ElasticFilterOptions::UnitKind::kRibbon);
}

// The raw bytes of the table's elastic index block.
std::string ElasticIndexBytes(const std::string& file) {
  BlockHandle h;
  EXPECT_TRUE(test::FindMetaBlock(file, kElasticIndexBlockName, &h));
  return file.substr(static_cast<size_t>(h.offset()),
                     static_cast<size_t>(h.size()));
}

// Installs every unit of every segment (all must verify).
void InstallAllUnits(const std::string& file, const ElasticIndex& index,
                     TableFilterGroups* groups, EpochDomain* epoch) {
  test::StringSource source(file);
  for (int u = 0; u < index.units_per_segment(); ++u) {
    std::vector<UnitBuffer> buffers;
    std::vector<Status> statuses;
    ASSERT_TRUE(groups->ReadUnitRegion(&source, u, &buffers, &statuses).ok());
    for (uint32_t s = 0; s < index.num_segments(); ++s) {
      ASSERT_TRUE(statuses[s].ok()) << statuses[s].ToString();
      ASSERT_TRUE(groups->InstallUnit(s, u, &buffers[s], epoch));
    }
  }
}

// Checks a Ribbon table's layout (units equal to BuildRibbonUnits over the
// segment's keys) and that every key passes its segment's loaded units;
// returns the key count of each segment.
std::vector<uint64_t> CheckRibbonTable(const std::string& file,
                                       const ElasticFilterOptions& eo) {
  ElasticIndex index;
  EXPECT_TRUE(test::ReadElasticIndexOf(file, &index).ok());
  EXPECT_EQ(ElasticUnitKind::kRibbon, index.unit_kind());
  EXPECT_EQ(eo.bits_per_unit, index.bits_per_unit());
  EXPECT_EQ(eo.units_per_segment, index.units_per_segment());
  const auto blocks = ReadDataBlocks(file, BytewiseComparator());
  std::vector<std::vector<uint64_t>> hashes(index.num_segments());
  for (const BlockKeys& b : blocks) {
    for (const std::string& k : b.keys) {
      hashes[index.SegmentOf(b.handle.offset())].push_back(
          KeyHash64(k.data(), k.size()));
    }
  }
  test::StringSource source(file);
  std::vector<uint64_t> counts;
  for (uint32_t s = 0; s < index.num_segments(); ++s) {
    counts.push_back(index.segment(s).num_keys);
    EXPECT_EQ(hashes[s].size(), index.segment(s).num_keys);
    std::vector<std::string> want;
    EXPECT_TRUE(BuildRibbonUnits(hashes[s].data(), hashes[s].size(),
                                 {eo.bits_per_unit, eo.units_per_segment},
                                 &want)
                    .ok());
    for (int u = 0; u < index.units_per_segment(); ++u) {
      BlockContents c;
      EXPECT_TRUE(
          ReadBlock(&source, ReadOptions(), index.UnitHandle(s, u), &c).ok());
      EXPECT_EQ(want[u], c.data.ToString()) << "segment " << s << " unit " << u;
      if (c.heap_allocated) delete[] c.data.data();
    }
  }
  TableFilterGroups groups(index, file.size());
  EpochDomain epoch;
  InstallAllUnits(file, index, &groups, &epoch);
  EpochGuard guard(&epoch);
  for (uint32_t s = 0; s < index.num_segments(); ++s) {
    EXPECT_EQ(index.units_per_segment(), groups.LoadedCount(s));
    for (uint64_t h : hashes[s]) {
      bool consulted = false;
      EXPECT_TRUE(groups.MayMatch(s, h, &consulted)) << "segment " << s;
      EXPECT_TRUE(consulted);
    }
  }
  return counts;
}

TEST_F(FilterGroupTest, RibbonTablesKeepEveryKeyInTinySegments) {
  // One data block per segment (segment_bytes at its minimum), holding 1, 2
  // or 3 keys depending on the value size.
  const struct {
    size_t value_size;
    uint64_t keys_per_segment;
  } cases[] = {{1100, 1}, {600, 2}, {400, 3}};
  for (const auto& c : cases) {
    ElasticFilterOptions eo = RibbonOptions();
    eo.segment_bytes = 1024;
    UsePolicy(eo);
    options_.compression = kNoCompression;  // blocks hold whole values
    const KVVector kvs = test::MakeEntries(300, c.value_size);
    const std::string file = Build(kvs);
    const std::vector<uint64_t> counts = CheckRibbonTable(file, eo);
    ASSERT_GE(counts.size(), 90u);
    for (size_t s = 0; s + 1 < counts.size(); ++s) {
      EXPECT_EQ(c.keys_per_segment, counts[s]) << "segment " << s;
    }
    // Through a table cache with loaded units: every key found, and the
    // units reject absent keys.
    const uint64_t number = 30 + c.keys_per_segment;
    const uint64_t size = Install(number, BuildForLookups(kvs));
    auto mqs = NewSchedule(&stats_);
    TableCache cache(dbname_, LookupOptions(), 10, mqs.get());
    EXPECT_GT(CheckLookups(&cache, mqs.get(), number, size, kvs), 0);
  }
}

TEST_F(FilterGroupTest, RibbonTablesKeepEveryKeyInLargeSegments) {
  ElasticFilterOptions eo = RibbonOptions();  // 4 planes x 6 units
  UsePolicy(eo);
  const KVVector kvs = test::MakeEntries(30000, 20);
  const std::string file = Build(kvs);
  const std::vector<uint64_t> counts = CheckRibbonTable(file, eo);
  ASSERT_GE(counts.size(), 3u);
  EXPECT_GE(counts[0], 8192u);
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(file, &index).ok());
  for (uint32_t s = 0; s < index.num_segments(); ++s) {
    EXPECT_TRUE(RibbonUnitSizeMatches(index.segment(s).unit_size,
                                      index.segment(s).num_keys, 4));
  }
  const uint64_t size = Install(40, BuildForLookups(kvs));
  auto mqs = NewSchedule(&stats_);
  TableCache cache(dbname_, LookupOptions(), 10, mqs.get());
  // One 4-plane unit rejects about 15/16 of the absent keys.
  EXPECT_GT(CheckLookups(&cache, mqs.get(), 40, size, kvs), 25000);

  // Units of other shapes, up to all 64 planes.
  for (auto shape : {std::pair<int, int>{1, 1}, {7, 3}, {4, 16}, {32, 2}}) {
    eo.bits_per_unit = shape.first;
    eo.units_per_segment = shape.second;
    eo.initial_units = 1;
    UsePolicy(eo);
    CheckRibbonTable(Build(test::MakeEntries(5000, 20)), eo);
  }
}

TEST_F(FilterGroupTest, RibbonSegmentsStayWithinTheKeyLimit) {
  ElasticFilterOptions eo = RibbonOptions();
  eo.bits_per_unit = 1;
  eo.units_per_segment = 1;
  eo.segment_bytes = size_t{1} << 30;  // bytes never close a segment
  UsePolicy(eo);
  const int n = static_cast<int>(kMaxRibbonSegmentKeys) + 50000;
  const std::string file = Build(test::MakeEntries(n, 0));
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(file, &index).ok());
  ASSERT_EQ(2u, index.num_segments());
  EXPECT_LE(index.segment(0).num_keys, kMaxRibbonSegmentKeys);
  EXPECT_GT(index.segment(0).num_keys, kMaxRibbonSegmentKeys - 1000);
  EXPECT_EQ(static_cast<uint64_t>(n), index.total_keys());
  // Both segments got solved units, not the keep-everything fallback.
  for (uint32_t s = 0; s < 2; ++s) {
    EXPECT_GT(index.segment(s).unit_size, kRibbonTrailerSize);
  }
}

TEST_F(FilterGroupTest, RibbonIndexIsVersion2AndBloomIndexStaysVersion1) {
  UsePolicy(RibbonOptions());
  const std::string ribbon = ElasticIndexBytes(Build(test::MakeEntries(50, 8)));
  ASSERT_GE(ribbon.size(), 6u);
  // version 2, kind 1 (Ribbon), 6 units, 4 planes, hash version, segments.
  EXPECT_EQ(2, ribbon[0]);
  EXPECT_EQ(1, ribbon[1]);
  EXPECT_EQ(6, ribbon[2]);
  EXPECT_EQ(4, ribbon[3]);
  EXPECT_EQ(kKeyHashVersion, ribbon[4]);
  EXPECT_EQ(1, ribbon[5]);

  UsePolicy(BloomUnitOptions());
  const std::string bloom = ElasticIndexBytes(Build(test::MakeEntries(50, 8)));
  EXPECT_EQ(1, bloom[0]);  // version 1: no kind
  EXPECT_EQ(6, bloom[1]);
  EXPECT_EQ(4, bloom[2]);
  EXPECT_EQ(ribbon.substr(4, 2), bloom.substr(3, 2));
}

// The bytes of Bloom-unit tables are pinned: adding Ribbon units (index
// version 2) must leave them exactly as builds before wrote them.
TEST_F(FilterGroupTest, BloomTableBytesAreUnchanged) {
  ElasticFilterOptions eo = BloomUnitOptions();
  eo.bits_per_unit = 5;
  eo.units_per_segment = 3;
  UsePolicy(eo);
  const std::string file = Build(test::MakeEntries(5000, 16));
  EXPECT_EQ(kBloomTableSize, file.size());
  EXPECT_EQ(kBloomTableCrc, crc32c::Value(file.data(), file.size()));
}

TEST_F(FilterGroupTest, DamagedRibbonUnitsAnswerMaybe) {
  UsePolicy(RibbonOptions());
  const KVVector kvs = test::MakeEntries(30000, 20);
  const std::string good = BuildForLookups(kvs);
  ElasticIndex index;
  ASSERT_TRUE(test::ReadElasticIndexOf(good, &index).ok());
  ASSERT_GE(index.num_segments(), 3u);
  const BlockHandle unit = index.UnitHandle(1, 0);
  const std::string original =
      good.substr(static_cast<size_t>(unit.offset()), unit.size());

  // Damage that keeps a valid CRC: a trailer of another version, another
  // plane count, or another unit index (planes this unit does not hold);
  // and plain bit damage the CRC catches.
  std::vector<std::string> files;
  for (int field : {0, 1, 2}) {
    std::string contents = original;
    contents[contents.size() - kRibbonTrailerSize + field] +=
        field == 0 ? 5 : 1;
    std::string file = good;
    test::RewriteBlock(&file, unit, contents);
    files.push_back(file);
  }
  files.push_back(good);
  files.back()[unit.offset() + 9] ^= static_cast<char>(0xff);

  uint64_t number = 50;
  for (const std::string& file : files) {
    test::StringSource source(file);
    TableFilterGroups groups(index, file.size());
    UnitBuffer buffer;
    EXPECT_FALSE(groups.ReadUnit(&source, 1, 0, &buffer).ok());
    EXPECT_EQ(nullptr, buffer.words.get());
    bool consulted = true;
    EXPECT_TRUE(groups.MayMatch(1, 12345, &consulted));
    EXPECT_FALSE(consulted);

    // Every key is still found; the other segments keep their units.
    const uint64_t size = Install(++number, file);
    auto mqs = NewSchedule(/*stats=*/nullptr);  // counts this file only
    TableCache cache(dbname_, LookupOptions(), 10, mqs.get());
    EXPECT_GT(CheckLookups(&cache, mqs.get(), number, size, kvs), 10000);
    EXPECT_EQ(1u, MQScheduleTestPeer::GetStats(mqs.get()).unit_load_failures);
  }
}

TEST_F(ElasticIndexTest, RibbonIndexRoundTripAndChecks) {
  std::vector<ElasticIndex::Segment> segs(2);
  segs[0].num_keys = 1000;
  segs[0].unit_size = RibbonUnitSize(1000, 8);
  segs[1].first_block_offset = 100000;
  segs[1].num_keys = 3;
  segs[1].unit_size = RibbonUnitSize(3, 8);
  const uint64_t region = segs[0].unit_size + segs[1].unit_size + 10;
  const std::vector<uint64_t> regs = {400000, 400000 + region};
  auto encode = [&](const std::vector<ElasticIndex::Segment>& s, int bits,
                    int units, std::vector<uint64_t> r) {
    std::string encoded;
    ElasticIndex(units, bits, s, std::move(r), ElasticUnitKind::kRibbon)
        .EncodeTo(&encoded);
    return encoded;
  };
  const std::string encoded = encode(segs, 8, 2, regs);
  ElasticIndex out;
  ASSERT_TRUE(ElasticIndex::Decode(encoded, kFileSize, &out).ok());
  EXPECT_EQ(ElasticUnitKind::kRibbon, out.unit_kind());
  EXPECT_EQ(8, out.bits_per_unit());
  EXPECT_EQ(RibbonUnitSize(3, 8), out.UnitHandle(1, 1).size());

  // The trailer alone (keep-all units) fits any key count.
  auto keep_all = segs;
  keep_all[0].unit_size = kRibbonTrailerSize;
  EXPECT_TRUE(
      ElasticIndex::Decode(encode(keep_all, 8, 2, regs), kFileSize, &out).ok());
  // A Bloom unit size is not a Ribbon one.
  auto bloom_size = segs;
  bloom_size[0].unit_size = FilterUnitSize(1000, 8);
  EXPECT_TRUE(
      ElasticIndex::Decode(encode(bloom_size, 8, 2, regs), kFileSize, &out)
          .IsCorruption());
  // More than 64 planes.
  std::vector<ElasticIndex::Segment> wide = segs;
  wide[0].unit_size = RibbonUnitSize(1000, 33);
  wide[1].unit_size = RibbonUnitSize(3, 33);
  EXPECT_TRUE(ElasticIndex::Decode(encode(wide, 33, 2, regs), kFileSize, &out)
                  .IsCorruption());
  // An unknown kind is ignored, like an unknown version.
  std::string bad = encoded;
  bad[1] = 2;
  EXPECT_TRUE(ElasticIndex::Decode(bad, kFileSize, &out).IsNotSupportedError());
  // Bloom tables are written as version 1, but version 2 may say Bloom.
  std::vector<ElasticIndex::Segment> one = {segs[0]};
  one[0].unit_size = FilterUnitSize(1000, 4);
  std::string bloom;
  ElasticIndex(2, 4, one, {400000, 500000}).EncodeTo(&bloom);
  EXPECT_EQ(1, bloom[0]);
  bloom = std::string("\x02\x00", 2) + bloom.substr(1);
  ASSERT_TRUE(ElasticIndex::Decode(bloom, kFileSize, &out).ok());
  EXPECT_EQ(ElasticUnitKind::kBloom, out.unit_kind());
}

}  // namespace
}  // namespace leveldb
