#include "leveldb/table.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/table_cache.h"
#include "gtest/gtest.h"
#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"
#include "port/port.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "table/key_lookup.h"
#include "table/table_builder_access.h"
#include "table/table_filter_setup.h"
#include "table/table_state.h"
#include "tests/elastic_test_helpers.h"
#include "tests/table_test_helpers.h"
#include "tests/test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/io_stats.h"
#include "util/random.h"

namespace leveldb {
namespace {

using test::KVVector;
using test::SingleFileEnv;
using test::StringSink;
using test::StringSource;

// Orders keys in descending byte order, to prove the table honours the
// comparator it is given. Never shortens keys.
class DescendingComparator : public Comparator {
 public:
  int Compare(const Slice& a, const Slice& b) const override {
    return b.compare(a);
  }
  const char* Name() const override { return "test.DescendingComparator"; }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

const Comparator* Descending() {
  static DescendingComparator comparator;
  return &comparator;
}

// A table held in memory plus the model it was built from.
class TableHarness {
 public:
  explicit TableHarness(const Options& options) : options_(options) {}

  ~TableHarness() { table_.reset(); }

  // Entries must be sorted by options.comparator.
  void Build(const KVVector& entries) {
    entries_ = entries;
    StringSink sink;
    TableBuilder builder(options_, &sink);
    for (const auto& kv : entries) builder.Add(kv.first, kv.second);
    ASSERT_TRUE(builder.Finish().ok());
    ASSERT_EQ(entries.size(), builder.NumEntries());
    ASSERT_EQ(sink.contents().size(), builder.FileSize());
    contents_ = sink.contents();
    Reopen();
  }

  // Uses bytes built elsewhere (possibly with other options).
  void Adopt(const std::string& contents, const KVVector& entries) {
    contents_ = contents;
    entries_ = entries;
    Reopen();
  }

  void Reopen() {
    table_.reset();
    source_.reset(new StringSource(contents_));
    Table* table = nullptr;
    Status s = Table::Open(options_, source_.get(), contents_.size(), &table);
    ASSERT_TRUE(s.ok()) << s.ToString();
    table_.reset(table);
  }

  Table* table() const { return table_.get(); }
  const std::string& contents() const { return contents_; }
  const KVVector& entries() const { return entries_; }
  StringSource* source() const { return source_.get(); }
  const Options& options() const { return options_; }

 private:
  Options options_;
  std::string contents_;
  KVVector entries_;
  std::unique_ptr<StringSource> source_;
  std::unique_ptr<Table> table_;
};

KVVector SortedEntries(std::map<std::string, std::string> m,
                       const Comparator* cmp) {
  KVVector entries(m.begin(), m.end());
  std::sort(entries.begin(), entries.end(),
            [cmp](const std::pair<std::string, std::string>& a,
                  const std::pair<std::string, std::string>& b) {
              return cmp->Compare(a.first, b.first) < 0;
            });
  return entries;
}

// Full scans and point seeks against the entries the table was built from.
void CheckIteration(const TableHarness& h, const ReadOptions& read_options) {
  const KVVector& entries = h.entries();
  std::unique_ptr<Iterator> it(h.table()->NewIterator(read_options));
  EXPECT_FALSE(it->Valid());

  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_LT(i, entries.size());
    ASSERT_EQ(entries[i].first, it->key().ToString());
    ASSERT_EQ(entries[i].second, it->value().ToString());
  }
  ASSERT_EQ(entries.size(), i);
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();

  i = entries.size();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    ASSERT_GT(i, 0u);
    --i;
    ASSERT_EQ(entries[i].first, it->key().ToString());
    ASSERT_EQ(entries[i].second, it->value().ToString());
  }
  ASSERT_EQ(0u, i);

  for (size_t j = 0; j < entries.size(); j += 1 + entries.size() / 50) {
    it->Seek(entries[j].first);
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(entries[j].first, it->key().ToString());
    if (j > 0) {
      it->Prev();
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(entries[j - 1].first, it->key().ToString());
      it->Next();
    }
    it->Next();
    if (j + 1 < entries.size()) {
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(entries[j + 1].first, it->key().ToString());
    } else {
      ASSERT_FALSE(it->Valid());
    }
  }
  ASSERT_TRUE(it->status().ok());
}

// What one lookup through the table cache found and did.
struct GetResult {
  Status status;
  KeyLookup::Outcome outcome = KeyLookup::Outcome::kNotFound;
  std::string value;
  KeyLookup::Probe probe;

  bool found() const { return outcome == KeyLookup::Outcome::kFound; }
};

// Point lookups through a TableCache, as a DB makes them: in the harness's
// entries written as internal keys (with `writer`'s options, by default
// the harness's own) and read with the harness's options.
class GetHarness {
 public:
  explicit GetHarness(const TableHarness& h, const Options* writer = nullptr)
      : user_comparator_(h.options().comparator),
        write_keys_(writer != nullptr ? writer->comparator
                                      : h.options().comparator),
        read_keys_(h.options().comparator) {
    contents_ = test::BuildTableBytes(
        write_keys_.From(writer != nullptr ? *writer : h.options()),
        test::InternalEntries(h.entries()));
    options_ = read_keys_.From(h.options());
    options_.env = &env_;
    cache_.reset(new TableCache("/nonexistent-db", options_, 10));
  }

  GetResult Get(const ReadOptions& ro, const std::string& user_key) {
    const LookupKey key(user_key, kMaxSequenceNumber);
    GetResult r;
    KeyLookup lookup(user_comparator_, key.internal_key(), /*key_hash=*/0,
                     &r.value, /*stats=*/nullptr);
    r.status = cache_->Get(ro, 7, contents_.size(), &lookup);
    r.outcome = lookup.outcome();
    r.probe = lookup.probe();
    return r;
  }

  int reads() const { return reads_; }

 private:
  const Comparator* const user_comparator_;
  test::InternalKeyOptions write_keys_;
  test::InternalKeyOptions read_keys_;
  std::string contents_;
  int reads_ = 0;
  SingleFileEnv env_{&contents_, &reads_};
  Options options_;
  std::unique_ptr<TableCache> cache_;
};

// Every present key is found with its value; no absent key is.
void CheckGets(const TableHarness& h, Random* rnd,
               const Options* writer = nullptr) {
  GetHarness gets(h, writer);
  const KVVector& entries = h.entries();
  const Comparator* cmp = h.options().comparator;
  ReadOptions ro;
  ro.verify_checksums = true;
  for (const auto& kv : entries) {
    const GetResult r = gets.Get(ro, kv.first);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    ASSERT_TRUE(r.found()) << kv.first;
    ASSERT_EQ(kv.second, r.value);
  }
  for (int i = 0; i < 200; ++i) {
    const std::string probe = test::RandomKey(rnd, 1 + rnd->Uniform(12));
    auto pos = test::LowerBound(entries, cmp, probe);
    const bool present = pos != entries.end() && pos->first == probe;
    const GetResult r = gets.Get(ro, probe);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    ASSERT_EQ(present, r.found()) << probe;
    if (present) {
      ASSERT_EQ(pos->second, r.value);
    }
  }
}

KVVector RandomEntries(Random* rnd, int n, const Comparator* cmp) {
  std::map<std::string, std::string> m;
  for (int i = 0; i < n; ++i) {
    const std::string key = test::RandomKey(rnd, 1 + rnd->Uniform(16));
    std::string value;
    switch (rnd->Uniform(4)) {
      case 0:
        value = test::RandomBytes(rnd, rnd->Uniform(50));
        break;
      case 1:
        value = test::CompressibleString(rnd, 0.2, rnd->Uniform(400));
        break;
      case 2:
        value = test::RandomString(rnd, rnd->Skewed(12));
        break;
      default:
        break;  // empty value
    }
    m[key] = value;
  }
  return SortedEntries(m, cmp);
}

struct Config {
  CompressionType compression;
  bool bloom;
  bool cache;
  size_t block_size;
  int restart_interval;
  bool descending;
};

std::vector<Config> AllConfigs() {
  std::vector<Config> configs;
  for (CompressionType c : {kNoCompression, kSnappyCompression}) {
    for (bool bloom : {false, true}) {
      for (bool cache : {false, true}) {
        for (size_t block_size : {size_t{256}, size_t{4096}}) {
          for (int interval : {1, 16}) {
            configs.push_back({c, bloom, cache, block_size, interval,
                               /*descending=*/interval == 1 && !cache});
          }
        }
      }
    }
  }
  return configs;
}

TEST(TableTest, RoundTripsAcrossOptions) {
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  std::unique_ptr<Cache> cache(NewLRUCache(1 << 20));
  Random rnd(test::RandomSeed());
  for (const Config& config : AllConfigs()) {
    SCOPED_TRACE(testing::Message()
                 << "compression=" << config.compression
                 << " bloom=" << config.bloom << " cache=" << config.cache
                 << " block_size=" << config.block_size
                 << " restart=" << config.restart_interval
                 << " descending=" << config.descending);
    Options options;
    options.compression = config.compression;
    options.filter_policy = config.bloom ? bloom.get() : nullptr;
    options.block_cache = config.cache ? cache.get() : nullptr;
    options.block_size = config.block_size;
    options.block_restart_interval = config.restart_interval;
    options.comparator =
        config.descending ? Descending() : BytewiseComparator();
    TableHarness h(options);
    h.Build(RandomEntries(&rnd, 400, options.comparator));
    ReadOptions ro;
    ro.verify_checksums = rnd.OneIn(2);
    CheckIteration(h, ro);
    CheckGets(h, &rnd);
  }
}

TEST(TableTest, EmptyTable) {
  Options options;
  TableHarness h(options);
  h.Build({});
  std::unique_ptr<Iterator> it(h.table()->NewIterator(ReadOptions()));
  test::ExpectEmptyIterator(it.get(), "a");
  EXPECT_EQ(0u, h.table()->ApproximateOffsetOf("a"));
  // Metaindex and index (each an empty block plus trailer) and the footer.
  EXPECT_EQ(2 * (8 + kBlockTrailerSize) + Footer::kEncodedLength,
            h.contents().size());
}

TEST(TableTest, SingleEntryBothDirections) {
  Options options;
  TableHarness h(options);
  h.Build({{"only", "value"}});
  CheckIteration(h, ReadOptions());
  Random rnd(1);
  CheckGets(h, &rnd);
}

TEST(TableTest, HugeValues) {
  Random rnd(test::RandomSeed());
  Options options;
  options.compression = kNoCompression;
  TableHarness h(options);
  h.Build({{"a", test::RandomBytes(&rnd, 3 << 20)},
           {"b", "small"},
           {"c", test::CompressibleString(&rnd, 0.1, 1 << 20)},
           {"d", std::string(100000, '\0')}});
  CheckIteration(h, ReadOptions());
  CheckGets(h, &rnd);

  Options snappy;
  snappy.compression = kSnappyCompression;
  TableHarness hs(snappy);
  hs.Build(h.entries());
  CheckIteration(hs, ReadOptions());
  if (port::SnappyAvailable()) {
    EXPECT_LT(hs.contents().size(), h.contents().size());
  }
}

TEST(TableTest, ManySmallBlocks) {
  Random rnd(test::RandomSeed());
  Options options;
  options.block_size = 256;
  std::map<std::string, std::string> m;
  for (int i = 0; i < 3000; ++i) {
    m["key" + std::to_string(100000 + i)] = test::RandomString(&rnd, 30);
  }
  TableHarness h(options);
  h.Build(SortedEntries(m, BytewiseComparator()));
  CheckIteration(h, ReadOptions());
  CheckGets(h, &rnd);
}

// Decodes the index block the way a reader would, returning handles and
// separator keys.
void ReadIndex(const std::string& contents, KVVector* index,
               BlockHandle* metaindex, uint32_t* index_restarts) {
  Slice footer_input(contents.data() + contents.size() - Footer::kEncodedLength,
                     Footer::kEncodedLength);
  Footer footer;
  ASSERT_TRUE(footer.DecodeFrom(&footer_input).ok());
  *metaindex = footer.metaindex_handle();
  StringSource source(contents);
  BlockContents block_contents;
  ReadOptions ro;
  ro.verify_checksums = true;
  ASSERT_TRUE(
      ReadBlock(&source, ro, footer.index_handle(), &block_contents).ok());
  Block block(block_contents);
  *index_restarts =
      LoadFixed32(block_contents.data.data() + block_contents.data.size() - 4);
  std::unique_ptr<Iterator> it(block.NewIterator(BytewiseComparator()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    index->emplace_back(it->key().ToString(), it->value().ToString());
  }
}

TEST(TableTest, IndexUsesShortSeparatorsAndNoPrefixCompression) {
  Options options;
  options.block_size = 512;
  options.compression = kNoCompression;
  std::map<std::string, std::string> m;
  for (int i = 0; i < 400; ++i) {
    m["longish-common-prefix-" + std::to_string(10000 + i * 7)] =
        std::string(40, 'v');
  }
  TableHarness h(options);
  h.Build(SortedEntries(m, BytewiseComparator()));

  KVVector index;
  BlockHandle metaindex;
  uint32_t restarts = 0;
  ReadIndex(h.contents(), &index, &metaindex, &restarts);
  ASSERT_GT(index.size(), 10u);
  EXPECT_EQ(index.size(), restarts);  // restart interval 1

  // Walk the data blocks named by the index and recompute each separator.
  const Comparator* cmp = BytewiseComparator();
  ReadOptions ro;
  ro.verify_checksums = true;
  std::vector<std::vector<std::string>> block_keys;
  uint64_t expected_offset = 0;
  for (const auto& entry : index) {
    Slice input(entry.second);
    BlockHandle handle;
    ASSERT_TRUE(handle.DecodeFrom(&input).ok());
    EXPECT_EQ(expected_offset, handle.offset());
    expected_offset = handle.offset() + handle.size() + kBlockTrailerSize;
    BlockContents contents;
    ASSERT_TRUE(ReadBlock(h.source(), ro, handle, &contents).ok());
    Block block(contents);
    std::unique_ptr<Iterator> it(block.NewIterator(cmp));
    block_keys.emplace_back();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      block_keys.back().push_back(it->key().ToString());
    }
    ASSERT_FALSE(block_keys.back().empty());
  }
  EXPECT_EQ(expected_offset, metaindex.offset());
  for (size_t b = 0; b < index.size(); ++b) {
    std::string expected = block_keys[b].back();
    if (b + 1 < index.size()) {
      cmp->FindShortestSeparator(&expected, block_keys[b + 1].front());
    } else {
      cmp->FindShortSuccessor(&expected);
    }
    EXPECT_EQ(expected, index[b].first) << b;
  }
  // The last separator is a short successor such as "m".
  EXPECT_LT(index.back().first.size(), block_keys.back().back().size());
}

TEST(TableTest, BlocksAreCutAtBlockSize) {
  Random rnd(test::RandomSeed());
  for (size_t block_size : {size_t{100}, size_t{1000}, size_t{4096}}) {
    Options options;
    options.block_size = block_size;
    options.compression = kNoCompression;
    options.block_restart_interval = 1 + rnd.Uniform(16);
    TableHarness h(options);
    h.Build(RandomEntries(&rnd, 600, BytewiseComparator()));
    KVVector index;
    BlockHandle metaindex;
    uint32_t restarts;
    ReadIndex(h.contents(), &index, &metaindex, &restarts);
    ASSERT_FALSE(index.empty());

    // Rebuild each data block from its entries: it must come out byte for
    // byte the same, and be cut on the first entry that brought the size
    // estimate to block_size.
    size_t consumed = 0;
    for (size_t b = 0; b < index.size(); ++b) {
      Slice input(index[b].second);
      BlockHandle handle;
      ASSERT_TRUE(handle.DecodeFrom(&input).ok());
      const std::string stored =
          h.contents().substr(handle.offset(), handle.size());
      BlockBuilder rebuilt(&options);
      size_t estimate_before_last = 0;
      while (consumed < h.entries().size()) {
        estimate_before_last = rebuilt.CurrentSizeEstimate();
        rebuilt.Add(h.entries()[consumed].first, h.entries()[consumed].second);
        ++consumed;
        if (rebuilt.CurrentSizeEstimate() >= block_size) break;
      }
      if (b + 1 < index.size()) {
        EXPECT_GE(rebuilt.CurrentSizeEstimate(), block_size);
        EXPECT_LT(estimate_before_last, block_size);
      }
      EXPECT_EQ(stored, rebuilt.Finish().ToString()) << "block " << b;
    }
    EXPECT_EQ(h.entries().size(), consumed);
  }
}

TEST(TableTest, TrailersAndCompressionChoice) {
  Options options;
  options.compression = kSnappyCompression;
  options.block_size = 300;
  Random rnd(test::RandomSeed());
  std::map<std::string, std::string> m;
  for (int i = 0; i < 400; ++i) {
    // Values whose compressibility sweeps from none to a lot, so that some
    // blocks land on each side of the 1/8 savings threshold.
    const int runs = static_cast<int>(rnd.Uniform(80));
    m["k" + std::to_string(1000 + i)] =
        test::RandomBytes(&rnd, 200 - runs) + std::string(runs, 'a');
  }
  TableHarness h(options);
  h.Build(SortedEntries(m, BytewiseComparator()));
  KVVector index;
  BlockHandle metaindex;
  uint32_t restarts;
  ReadIndex(h.contents(), &index, &metaindex, &restarts);

  int types[2] = {0, 0};
  int kept_raw_despite_saving = 0;
  size_t consumed = 0;
  for (const auto& entry : index) {
    Slice input(entry.second);
    BlockHandle handle;
    ASSERT_TRUE(handle.DecodeFrom(&input).ok());
    const char* p = h.contents().data() + handle.offset();
    const uint8_t type = static_cast<uint8_t>(p[handle.size()]);
    ASSERT_LE(type, 1);
    ++types[type];
    // Masked CRC32C of contents + type byte.
    const uint32_t crc = crc32c::Value(p, handle.size() + 1);
    EXPECT_EQ(crc32c::Mask(crc), LoadFixed32(p + handle.size() + 1));

    // Rebuild the raw block and redo the compression decision.
    BlockBuilder rebuilt(&options);
    while (consumed < h.entries().size()) {
      rebuilt.Add(h.entries()[consumed].first, h.entries()[consumed].second);
      ++consumed;
      if (rebuilt.CurrentSizeEstimate() >= options.block_size) break;
    }
    const std::string raw = rebuilt.Finish().ToString();
    std::string compressed;
    const bool worth_it =
        port::SnappyCompress(raw.data(), raw.size(), &compressed) &&
        compressed.size() < raw.size() - raw.size() / 8;
    const std::string stored(p, handle.size());
    if (worth_it) {
      EXPECT_EQ(kSnappyCompression, type);
      EXPECT_EQ(compressed, stored);
    } else {
      EXPECT_EQ(kNoCompression, type);
      EXPECT_EQ(raw, stored);
      if (!compressed.empty() && compressed.size() < raw.size()) {
        ++kept_raw_despite_saving;
      }
    }
  }
  EXPECT_EQ(h.entries().size(), consumed);
  EXPECT_GT(types[0], 0);
  if (port::SnappyAvailable()) {
    EXPECT_GT(types[1], 0);
    // Blocks that snappy shrinks by less than 1/8 are stored raw.
    EXPECT_GT(kept_raw_despite_saving, 0);
  }
}

TEST(TableTest, FilterIsStoredAndSkipsBlockReads) {
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  Options options;
  options.filter_policy = bloom.get();
  options.block_size = 512;
  std::map<std::string, std::string> m;
  for (int i = 0; i < 500; ++i) {
    m["present" + std::to_string(i)] = std::string(20, 'v');
  }
  TableHarness h(options);
  h.Build(SortedEntries(m, BytewiseComparator()));

  // The metaindex names the filter block by policy name.
  EXPECT_NE(std::string::npos,
            h.contents().find("filter.leveldb.BuiltinBloomFilter2"));

  GetHarness gets(h);
  ReadOptions ro;
  GetResult r = gets.Get(ro, "present1");  // opens the table
  ASSERT_TRUE(r.found());
  const int reads_after_open = gets.reads();
  int passed = 0;
  for (int i = 0; i < 1000; ++i) {
    // Sorts among the present keys, so the index always names a block.
    const GetResult miss = gets.Get(ro, "present1" + std::to_string(i) + "x");
    ASSERT_TRUE(miss.status.ok());
    EXPECT_FALSE(miss.found());
    EXPECT_TRUE(miss.probe.consulted_filter);
    if (miss.probe.read_data_block) ++passed;
  }
  // Each lookup that passes the filter reads one block; ~1% should pass.
  EXPECT_LT(gets.reads() - reads_after_open, 60);
  EXPECT_EQ(gets.reads() - reads_after_open, passed);

  // The same table opened without a policy reads a block every time.
  Options plain = options;
  plain.filter_policy = nullptr;
  TableHarness no_filter(plain);
  no_filter.Build(h.entries());
  GetHarness plain_gets(no_filter);
  ASSERT_TRUE(plain_gets.Get(ro, "present1").found());
  const int plain_after_open = plain_gets.reads();
  for (int i = 0; i < 100; ++i) {
    const GetResult miss =
        plain_gets.Get(ro, "present1" + std::to_string(i) + "x");
    ASSERT_TRUE(miss.status.ok());
    EXPECT_FALSE(miss.probe.consulted_filter);
  }
  EXPECT_EQ(100, plain_gets.reads() - plain_after_open);
}

TEST(TableTest, TableWithFilterReadsWithoutPolicyAndViceVersa) {
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  Random rnd(test::RandomSeed());
  Options with;
  with.filter_policy = bloom.get();
  Options without;
  const KVVector entries = RandomEntries(&rnd, 300, BytewiseComparator());

  TableHarness filtered(with);
  filtered.Build(entries);
  TableHarness unfiltered(without);
  unfiltered.Build(entries);
  // The filter block and its metaindex entry are the only difference.
  EXPECT_LT(unfiltered.contents().size(), filtered.contents().size());

  // A filtered table read by options without a policy.
  TableHarness reader_without(without);
  reader_without.Adopt(filtered.contents(), entries);
  CheckIteration(reader_without, ReadOptions());
  CheckGets(reader_without, &rnd, &with);

  // An unfiltered table read with a policy: there is no filter to use.
  TableHarness reader_with(with);
  reader_with.Adopt(unfiltered.contents(), entries);
  CheckIteration(reader_with, ReadOptions());
  CheckGets(reader_with, &rnd, &without);

  // A filter written under another policy name is ignored, not misread.
  class OtherPolicy : public FilterPolicy {
   public:
    const char* Name() const override { return "test.NeverMatches"; }
    void CreateFilter(const Slice*, int, std::string*) const override {}
    bool KeyMayMatch(const Slice&, const Slice&) const override {
      return false;
    }
  } other;
  Options other_options;
  other_options.filter_policy = &other;
  TableHarness reader_other(other_options);
  reader_other.Adopt(filtered.contents(), entries);
  CheckGets(reader_other, &rnd, &with);
}

std::string EntryKey(const std::string& user_key, SequenceNumber sequence,
                     ValueType type) {
  std::string key;
  AppendInternalKey(&key, ParsedInternalKey(user_key, sequence, type));
  return key;
}

// The lookup alone decides what the entry a table probe lands on means.
TEST(KeyLookupTest, TheEntryTakenDecidesTheOutcome) {
  const LookupKey key("apple", 100);
  using Outcome = KeyLookup::Outcome;
  struct Case {
    std::string entry_key;  // empty: the probe landed on no entry
    Outcome outcome;
    bool matched;
  } cases[] = {
      {"", Outcome::kNotFound, false},
      {EntryKey("apple", 7, kTypeValue), Outcome::kFound, true},
      {EntryKey("apple", 7, kTypeDeletion), Outcome::kDeleted, true},
      {EntryKey("apricot", 7, kTypeValue), Outcome::kNotFound, false},
      {EntryKey("apricot", 7, kTypeDeletion), Outcome::kNotFound, false},
      {"short", Outcome::kCorrupt, false},  // no room for the tag
      {"apple" + std::string("\x02\x07\0\0\0\0\0\0", 8), Outcome::kCorrupt,
       false},  // an unknown type
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.entry_key);
    std::string value = "unchanged";
    IoStats stats;
    KeyLookup lookup(BytewiseComparator(), key.internal_key(), 42, &value,
                     &stats);
    EXPECT_EQ("apple", lookup.user_key().ToString());
    EXPECT_EQ(42u, lookup.key_hash());
    {
      KeyLookup::ProbeScope probe(&lookup);
      lookup.NoteBlockRead(/*from_cache=*/false);
      if (!c.entry_key.empty()) lookup.TakeEntry(c.entry_key, "red");
    }
    EXPECT_EQ(c.outcome, lookup.outcome());
    EXPECT_EQ(c.matched, lookup.probe().key_matched);
    EXPECT_EQ(c.outcome == Outcome::kFound ? "red" : "unchanged", value);
    // A block read for an entry of another key (or none) is wasted.
    EXPECT_EQ(!c.matched, lookup.WastedRead());
    EXPECT_EQ(c.matched ? 0u : 1u, stats.unfiltered_misses.load());
    EXPECT_EQ(1u, stats.data_block_reads.load());
  }
}

TEST(KeyLookupTest, EachProbeStartsEmptyAndIsCountedOnce) {
  const LookupKey key("apple", 100);
  std::string value;
  IoStats stats;
  KeyLookup lookup(BytewiseComparator(), key.internal_key(), 0, &value, &stats);
  {
    // Ruled out by a filter: no block read.
    KeyLookup::ProbeScope probe(&lookup);
    lookup.NoteFilter(/*rejected=*/true);
  }
  EXPECT_TRUE(lookup.probe().filter_rejected);
  EXPECT_FALSE(lookup.WastedRead());
  {
    // Let through, and the block (from the cache) holds another key.
    KeyLookup::ProbeScope probe(&lookup);
    EXPECT_FALSE(lookup.probe().consulted_filter);
    lookup.NoteFilter(/*rejected=*/false);
    lookup.NoteBlockRead(/*from_cache=*/true);
    lookup.TakeEntry(EntryKey("apricot", 1, kTypeValue), "x");
  }
  EXPECT_TRUE(lookup.WastedRead());
  {
    // The key's table: found.
    KeyLookup::ProbeScope probe(&lookup);
    lookup.NoteFilter(/*rejected=*/false);
    lookup.NoteBlockRead(/*from_cache=*/false);
    lookup.TakeEntry(EntryKey("apple", 5, kTypeValue), "red");
  }
  EXPECT_EQ(KeyLookup::Outcome::kFound, lookup.outcome());
  EXPECT_EQ("red", value);
  EXPECT_EQ(3u, stats.filter_checks.load());
  EXPECT_EQ(1u, stats.filter_rejections.load());
  EXPECT_EQ(2u, stats.data_block_reads.load());
  EXPECT_EQ(1u, stats.data_block_cache_hits.load());
  EXPECT_EQ(1u, stats.false_positives.load());
  EXPECT_EQ(0u, stats.unfiltered_misses.load());
}

TEST(TableTest, BlockCacheServesRepeatedReads) {
  std::unique_ptr<Cache> cache(NewLRUCache(8 << 20));
  Options options;
  options.block_cache = cache.get();
  options.block_size = 1024;
  Random rnd(test::RandomSeed());
  TableHarness h(options);
  h.Build(RandomEntries(&rnd, 500, BytewiseComparator()));

  auto scan = [&h](bool fill_cache) {
    ReadOptions ro;
    ro.fill_cache = fill_cache;
    std::unique_ptr<Iterator> it(h.table()->NewIterator(ro));
    size_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
    EXPECT_EQ(h.entries().size(), n);
  };

  // A scan that does not fill the cache leaves the next scan reading again.
  int before = h.source()->reads();
  scan(false);
  const int uncached_reads = h.source()->reads() - before;
  EXPECT_GT(uncached_reads, 1);
  before = h.source()->reads();
  scan(true);
  EXPECT_EQ(uncached_reads, h.source()->reads() - before);
  EXPECT_GT(cache->TotalCharge(), 0u);
  // Now everything is cached.
  before = h.source()->reads();
  scan(true);
  scan(false);
  EXPECT_EQ(before, h.source()->reads());

  // A second Table over the same bytes has its own cache id.
  TableHarness other(options);
  other.Build(h.entries());
  before = other.source()->reads();
  {
    std::unique_ptr<Iterator> it(other.table()->NewIterator(ReadOptions()));
    it->SeekToFirst();
    ASSERT_TRUE(it->Valid());
  }
  EXPECT_EQ(before + 1, other.source()->reads());
}

TEST(TableTest, MappedFileBlocksWork) {
  Random rnd(test::RandomSeed());
  Options options;
  options.compression = kNoCompression;
  options.block_size = 512;
  std::unique_ptr<Cache> cache(NewLRUCache(1 << 20));
  options.block_cache = cache.get();
  TableHarness h(options);
  h.Build(RandomEntries(&rnd, 200, BytewiseComparator()));
  StringSource mapped(h.contents(), /*mapped=*/true);
  Table* table = nullptr;
  ASSERT_TRUE(Table::Open(options, &mapped, h.contents().size(), &table).ok());
  std::unique_ptr<Table> owned(table);
  std::unique_ptr<Iterator> it(table->NewIterator(ReadOptions()));
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_EQ(h.entries()[i].first, it->key().ToString());
    ASSERT_EQ(h.entries()[i].second, it->value().ToString());
  }
  EXPECT_EQ(h.entries().size(), i);
  // Blocks that point into the mapping are not cachable.
  EXPECT_EQ(0u, cache->TotalCharge());
}

TEST(TableTest, ApproximateOffsets) {
  Random rnd(test::RandomSeed());
  Options options;
  options.compression = kNoCompression;
  options.block_size = 1024;
  const int kValueSize = 10000;
  std::map<std::string, std::string> m;
  for (int i = 0; i < 8; ++i) {
    m["k0" + std::to_string(i)] = test::RandomBytes(&rnd, kValueSize);
  }
  TableHarness h(options);
  h.Build(SortedEntries(m, BytewiseComparator()));
  Table* t = h.table();
  // Each value gets its own block; the offset of key i is about
  // i * (value + overhead).
  EXPECT_EQ(0u, t->ApproximateOffsetOf("a"));
  EXPECT_EQ(0u, t->ApproximateOffsetOf("k00"));
  for (int i = 1; i < 8; ++i) {
    const uint64_t offset = t->ApproximateOffsetOf("k0" + std::to_string(i));
    EXPECT_GE(offset, static_cast<uint64_t>(i) * kValueSize);
    EXPECT_LE(offset, static_cast<uint64_t>(i) * (kValueSize + 50));
    // A key between i-1 and i lands in block i as well.
    EXPECT_EQ(offset,
              t->ApproximateOffsetOf("k0" + std::to_string(i - 1) + "x"));
  }
  const uint64_t past_end = t->ApproximateOffsetOf("z");
  EXPECT_GE(past_end, 8u * kValueSize);
  EXPECT_LE(past_end, h.contents().size());
  EXPECT_GT(past_end, t->ApproximateOffsetOf("k07"));
}

TEST(TableTest, ApproximateOffsetsWithCompression) {
  Random rnd(test::RandomSeed());
  Options options;
  options.compression = kSnappyCompression;
  options.block_size = 1024;
  std::map<std::string, std::string> m;
  for (int i = 0; i < 8; ++i) {
    m["k0" + std::to_string(i)] = test::CompressibleString(&rnd, 0.25, 10000);
  }
  TableHarness h(options);
  h.Build(SortedEntries(m, BytewiseComparator()));
  // With snappy each 10000-byte value shrinks to about a quarter, so the
  // offsets grow by ~2500 per key; without it they grow by ~10000.
  const uint64_t low = port::SnappyAvailable() ? 2000 : 10000;
  const uint64_t high = port::SnappyAvailable() ? 4000 : 10050;
  for (int i = 1; i < 8; ++i) {
    const uint64_t offset =
        h.table()->ApproximateOffsetOf("k0" + std::to_string(i));
    EXPECT_GE(offset, i * low);
    EXPECT_LE(offset, i * high);
  }
}

TEST(TableTest, RandomizedAgainstModel) {
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  std::unique_ptr<Cache> cache(NewLRUCache(64 << 10));
  Random rnd(test::RandomSeed() + 17);
  for (int round = 0; round < 40; ++round) {
    Options options;
    options.compression = rnd.OneIn(2) ? kSnappyCompression : kNoCompression;
    options.filter_policy = rnd.OneIn(2) ? bloom.get() : nullptr;
    options.block_cache = rnd.OneIn(2) ? cache.get() : nullptr;
    options.block_size = 64 + rnd.Uniform(4096);
    options.block_restart_interval = 1 + rnd.Uniform(20);
    options.comparator = rnd.OneIn(4) ? Descending() : BytewiseComparator();
    const Comparator* cmp = options.comparator;
    TableHarness h(options);
    h.Build(RandomEntries(&rnd, rnd.Uniform(600), cmp));
    const KVVector& model = h.entries();

    ReadOptions ro;
    ro.verify_checksums = rnd.OneIn(2);
    ro.fill_cache = rnd.OneIn(2);
    std::unique_ptr<Iterator> it(h.table()->NewIterator(ro));
    SCOPED_TRACE("round " + std::to_string(round));
    ASSERT_NO_FATAL_FAILURE(test::CheckRandomMoves(
        it.get(), model, cmp, &rnd, /*num_moves=*/400, /*next_weight=*/2,
        [&rnd] { return test::RandomKey(&rnd, rnd.Uniform(10)); }));
    ASSERT_TRUE(it->status().ok());
    CheckGets(h, &rnd);
  }
}

TEST(TableBuilderTest, RejectsComparatorChange) {
  Options options;
  StringSink sink;
  TableBuilder builder(options, &sink);
  Options changed = options;
  changed.comparator = Descending();
  EXPECT_TRUE(builder.ChangeOptions(changed).IsInvalidArgument());
  changed = options;
  changed.block_size = 128;
  changed.compression = kNoCompression;
  EXPECT_TRUE(builder.ChangeOptions(changed).ok());
  builder.Abandon();
}

TEST(TableBuilderTest, ChangeOptionsAppliesToLaterBlocks) {
  Options options;
  options.compression = kNoCompression;
  options.block_size = 1 << 20;
  StringSink sink;
  TableBuilder builder(options, &sink);
  builder.Add("a", std::string(500, 'x'));
  builder.Add("b", std::string(500, 'x'));
  EXPECT_EQ(0u, builder.FileSize());  // still one open block
  Options smaller = options;
  smaller.block_size = 100;
  ASSERT_TRUE(builder.ChangeOptions(smaller).ok());
  builder.Add("c", std::string(500, 'x'));
  EXPECT_GT(builder.FileSize(), 1500u);  // the block was cut
  ASSERT_TRUE(builder.Finish().ok());
  EXPECT_EQ(3u, builder.NumEntries());
}

TEST(TableBuilderTest, OutOfOrderKeysAreRejected) {
  Options options;
  StringSink sink;
  TableBuilder builder(options, &sink);
  builder.Add("b", "1");
  builder.Add("a", "2");
  EXPECT_TRUE(builder.status().IsInvalidArgument());
  EXPECT_EQ(1u, builder.NumEntries());
  EXPECT_TRUE(builder.Finish().IsInvalidArgument());
}

TEST(TableBuilderTest, WriteErrorsAreReported) {
  Options options;
  options.block_size = 64;
  StringSink sink;
  TableBuilder builder(options, &sink);
  builder.Add("a", std::string(100, 'x'));  // first block written
  ASSERT_TRUE(builder.status().ok());
  sink.set_fail_appends(true);
  builder.Add("b", std::string(100, 'x'));
  EXPECT_TRUE(builder.status().IsIOError());
  EXPECT_TRUE(builder.Finish().IsIOError());
}

TEST(TableBuilderTest, ExplicitFlushStartsNewBlock) {
  Options options;
  options.compression = kNoCompression;
  StringSink sink;
  TableBuilder builder(options, &sink);
  builder.Add("a", "1");
  builder.Flush();
  const uint64_t after_first = builder.FileSize();
  EXPECT_GT(after_first, 0u);
  builder.Flush();  // nothing pending: no empty block
  EXPECT_EQ(after_first, builder.FileSize());
  builder.Add("b", "2");
  ASSERT_TRUE(builder.Finish().ok());
  KVVector index;
  BlockHandle metaindex;
  uint32_t restarts;
  ReadIndex(sink.contents(), &index, &metaindex, &restarts);
  EXPECT_EQ(2u, index.size());
}

TEST(TableOpenTest, TooShortFile) {
  Options options;
  for (size_t len : {0, 1, 47}) {
    StringSource source(std::string(len, 'x'));
    Table* table = reinterpret_cast<Table*>(1);
    Status s = Table::Open(options, &source, len, &table);
    ASSERT_TRUE(s.IsCorruption());
    EXPECT_NE(std::string::npos,
              s.ToString().find("file is too short to be an sstable"));
    EXPECT_EQ(nullptr, table);
  }
}

TEST(TableOpenTest, NotATable) {
  Options options;
  StringSource source(std::string(1000, 'x'));
  Table* table = nullptr;
  Status s = Table::Open(options, &source, 1000, &table);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("bad magic number"));
  EXPECT_EQ(nullptr, table);
}

TEST(TableOpenTest, IndexHandleOutsideFile) {
  Options options;
  Footer footer;
  footer.set_metaindex_handle(BlockHandle(0, 0));
  footer.set_index_handle(BlockHandle(1 << 20, 1 << 30));
  std::string contents(100, '\0');
  footer.EncodeTo(&contents);
  StringSource source(contents);
  Table* table = nullptr;
  EXPECT_TRUE(
      Table::Open(options, &source, contents.size(), &table).IsCorruption());
  EXPECT_EQ(nullptr, table);
}

// A table of `n` keys written with `options`, as file bytes.
std::string TableBytes(const Options& options, int n) {
  StringSink sink;
  TableBuilder builder(options, &sink);
  char key[32];
  for (int i = 0; i < n; ++i) {
    std::snprintf(key, sizeof(key), "key%08d", i);
    builder.Add(key, std::string(100, static_cast<char>('a' + i % 26)));
  }
  EXPECT_TRUE(builder.Finish().ok());
  return sink.contents();
}

// Opens `bytes` and checks a few keys; returns the reads the open took.
int ReadsToOpen(const Options& options, const std::string& bytes,
                bool mapped = false) {
  StringSource source(bytes, mapped);
  Table* table = nullptr;
  EXPECT_TRUE(Table::Open(options, &source, bytes.size(), &table).ok());
  const int reads = source.reads();
  if (table == nullptr) return reads;
  std::unique_ptr<Iterator> it(table->NewIterator(ReadOptions()));
  for (const char* key : {"key00000000", "key00000777", "key00001999"}) {
    it->Seek(key);
    EXPECT_TRUE(it->Valid() && it->key() == Slice(key)) << key;
  }
  delete table;
  return reads;
}

// A filter policy of the user's own: a filter holds every key.
class KeyListPolicy : public FilterPolicy {
 public:
  const char* Name() const override { return "test.KeyList"; }
  void CreateFilter(const Slice* keys, int n, std::string* dst) const override {
    for (int i = 0; i < n; ++i) {
      dst->append(keys[i].data(), keys[i].size());
      dst->push_back('\0');
    }
  }
  bool KeyMayMatch(const Slice& key, const Slice& filter) const override {
    const std::string wanted = key.ToString() + '\0';
    return filter.ToString().find(wanted) != std::string::npos;
  }
};

// The bytes of a table of `n` keys from `builder`, which it finishes.
std::string FillAndFinish(TableBuilder* builder, const StringSink& sink,
                          int n) {
  char key[32];
  for (int i = 0; i < n; ++i) {
    std::snprintf(key, sizeof(key), "key%08d", i);
    builder->Add(key, std::string(100, static_cast<char>('a' + i % 26)));
  }
  EXPECT_TRUE(builder->Finish().ok());
  return sink.contents();
}

TEST(TableBuilderTest, ResolvedSetupWritesWhatThePublicBuilderWrites) {
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  std::unique_ptr<const FilterPolicy> elastic(
      NewElasticFilterPolicy(ElasticFilterOptions()));
  KeyListPolicy user;
  for (const FilterPolicy* policy :
       {static_cast<const FilterPolicy*>(nullptr), bloom.get(),
        static_cast<const FilterPolicy*>(&user), elastic.get()}) {
    Options options;
    options.filter_policy = policy;
    StringSink public_sink;
    TableBuilder public_builder(options, &public_sink);
    const std::string expected =
        FillAndFinish(&public_builder, public_sink, 3000);
    StringSink sink;
    std::unique_ptr<TableBuilder> builder =
        ElasticTableBuilderAccess::NewBuilder(
            options, ResolveTableFilter(policy), &sink);
    EXPECT_EQ(expected, FillAndFinish(builder.get(), sink, 3000))
        << (policy == nullptr ? "no policy" : policy->Name());
  }
}

TEST(TableBuilderTest, ResolvedSetupDecidesTheFilters) {
  // The builder follows the setup it is given, not the options' policy.
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  Options options;
  options.filter_policy = bloom.get();
  StringSink sink;
  std::unique_ptr<TableBuilder> builder =
      ElasticTableBuilderAccess::NewBuilder(options, TableFilterSetup(), &sink);
  const std::string bytes = FillAndFinish(builder.get(), sink, 500);
  Options plain;
  EXPECT_EQ(TableBytes(plain, 500), bytes);
  EXPECT_EQ(std::string::npos, bytes.find("filter.leveldb"));
}

TEST(TableBuilderTest, FilterPolicyIsFixedAtConstruction) {
  // The filter block is named after the policy that built it, even when
  // ChangeOptions drops the policy half-way.
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  Options options;
  options.filter_policy = bloom.get();
  StringSink sink;
  TableBuilder builder(options, &sink);
  builder.Add("a", "1");
  Options changed = options;
  changed.filter_policy = nullptr;
  ASSERT_TRUE(builder.ChangeOptions(changed).ok());
  builder.Add("b", "2");
  ASSERT_TRUE(builder.Finish().ok());

  StringSink expected_sink;
  TableBuilder expected(options, &expected_sink);
  expected.Add("a", "1");
  expected.Add("b", "2");
  ASSERT_TRUE(expected.Finish().ok());
  EXPECT_EQ(expected_sink.contents(), sink.contents());
  EXPECT_NE(std::string::npos,
            sink.contents().find("filter.leveldb.BuiltinBloomFilter2"));
}

TEST(TableOpenTest, FooterIndexAndFilterComeInOneRead) {
  Options options;
  options.compression = kNoCompression;
  const std::string plain = TableBytes(options, 2000);
  EXPECT_EQ(1, ReadsToOpen(options, plain));
  EXPECT_EQ(1, ReadsToOpen(options, plain, /*mapped=*/true));

  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  options.filter_policy = bloom.get();
  EXPECT_EQ(1, ReadsToOpen(options, TableBytes(options, 2000)));
}

TEST(TableOpenTest, AnIndexLargerThanTheFirstReadTakesOneMore) {
  Options options;
  options.block_size = 128;  // one index entry per key or so
  options.compression = kSnappyCompression;
  const std::string bytes = TableBytes(options, 20000);
  Footer footer;
  Slice input(bytes.data() + bytes.size() - Footer::kEncodedLength,
              Footer::kEncodedLength);
  ASSERT_TRUE(footer.DecodeFrom(&input).ok());
  ASSERT_GT(bytes.size() - footer.index_handle().offset(), 16u << 10);
  EXPECT_EQ(2, ReadsToOpen(options, bytes));
  EXPECT_EQ(2, ReadsToOpen(options, bytes, /*mapped=*/true));
}

TEST(TableOpenTest, ResolvedSetupDecidesWhatIsRead) {
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  Options options;
  options.filter_policy = bloom.get();
  options.compression = kNoCompression;
  const std::string bytes = TableBytes(options, 2000);
  const int public_reads = ReadsToOpen(options, bytes);

  // With the setup of the options' policy: the same reads and a filter.
  StringSource source(bytes);
  TableState state;
  ASSERT_TRUE(OpenTableState(options, ResolveTableFilter(bloom.get()), &source,
                             bytes.size(), &state)
                  .ok());
  EXPECT_EQ(public_reads, source.reads());
  ASSERT_NE(nullptr, state.filter);
  EXPECT_EQ(bloom.get(), state.filter_reader_policy);
  EXPECT_TRUE(state.filter->KeyMayMatch(0, "key00000000"));

  // With no filter asked for, the options' policy is not looked at.
  StringSource unfiltered_source(bytes);
  TableState unfiltered;
  ASSERT_TRUE(OpenTableState(options, TableFilterSetup(), &unfiltered_source,
                             bytes.size(), &unfiltered)
                  .ok());
  EXPECT_EQ(nullptr, unfiltered.filter);
  EXPECT_EQ(nullptr, unfiltered.filter_reader_policy);
}

TEST(TableOpenTest, DamagedIndexInTheTailIsCorruption) {
  Options options;
  std::string bytes = TableBytes(options, 2000);
  Footer footer;
  Slice input(bytes.data() + bytes.size() - Footer::kEncodedLength,
              Footer::kEncodedLength);
  ASSERT_TRUE(footer.DecodeFrom(&input).ok());
  bytes[footer.index_handle().offset() + 1] ^= 0x40;
  StringSource source(bytes);
  Table* table = nullptr;
  const Status s = Table::Open(options, &source, bytes.size(), &table);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(nullptr, table);
}

}  // namespace
}  // namespace leveldb
