// Damages a table (of internal keys, as a DB writes them) one byte at a time
// (and truncates it at every length) and checks that reading it with
// checksums on either reports Corruption or returns exactly the original
// data: never a crash, a wrong value or a silently missing key.
#include <map>
#include <memory>
#include <string>

#include "db/dbformat.h"
#include "db/table_cache.h"
#include "gtest/gtest.h"
#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"
#include "table/internal_filter_policy.h"
#include "table/key_lookup.h"
#include "tests/table_test_helpers.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace {

using test::KVVector;

class TableCorruptionTest : public testing::Test {
 protected:
  // Tables as a DB writes them: internal keys, filtered by user key.
  TableCorruptionTest()
      : icmp_(BytewiseComparator()),
        bloom_(NewBloomFilterPolicy(10)),
        internal_bloom_(bloom_.get()),
        block_cache_(NewLRUCache(1 << 20)) {
    options_.comparator = &icmp_;
    options_.filter_policy = &internal_bloom_;
    options_.block_size = 256;
    options_.block_restart_interval = 4;
    options_.compression = kSnappyCompression;

    Random rnd(test::RandomSeed());
    for (int i = 0; i < 40; ++i) {
      std::string key = "key" + std::to_string(1000 + i * 3);
      // Mix compressible and random values so both block types occur.
      original_[key] = (i % 3 == 0) ? test::RandomBytes(&rnd, 1 + i)
                                    : test::CompressibleString(&rnd, 0.3, 60);
    }
    test::StringSink sink;
    TableBuilder builder(options_, &sink);
    for (const auto& kv : original_) {
      builder.Add(InternalKey(kv.first, 1, kTypeValue).Encode(), kv.second);
    }
    EXPECT_TRUE(builder.Finish().ok());
    table_ = sink.contents();
  }

  // Reads everything from `contents` in every way; returns true if some
  // Corruption was reported. Fails the test on anything else suspicious.
  bool CheckContents(const std::string& contents, bool mapped, bool cached) {
    Options options = options_;
    options.block_cache = cached ? block_cache_.get() : nullptr;
    bool corruption = false;

    test::StringSource source(contents, mapped);
    Table* raw_table = nullptr;
    Status s = Table::Open(options, &source, contents.size(), &raw_table);
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      EXPECT_EQ(nullptr, raw_table);
      return true;
    }
    std::unique_ptr<Table> table(raw_table);

    ReadOptions ro;
    ro.verify_checksums = true;
    std::unique_ptr<Iterator> it(table->NewIterator(ro));
    corruption |= CheckScan(it.get(), /*forward=*/true);
    corruption |= CheckScan(it.get(), /*forward=*/false);
    for (const auto& kv : original_) {
      it->Seek(LookupKey(kv.first, kMaxSequenceNumber).internal_key());
      if (it->Valid()) CheckEntry(it->key(), it->value());
    }
    if (!it->status().ok()) {
      EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
      corruption = true;
    }

    corruption |= CheckGets(contents, options);
    return corruption;
  }

  // Any entry handed out must be an original entry with its value.
  void CheckEntry(const Slice& key, const Slice& value) {
    ParsedInternalKey parsed;
    ASSERT_TRUE(ParseInternalKey(key, &parsed)) << "invented key";
    auto pos = original_.find(parsed.user_key.ToString());
    ASSERT_TRUE(pos != original_.end()) << "invented key";
    ASSERT_EQ(pos->second, value.ToString()) << "wrong value";
  }

  bool CheckScan(Iterator* it, bool forward) {
    size_t seen = 0;
    std::string last;
    if (forward) {
      it->SeekToFirst();
    } else {
      it->SeekToLast();
    }
    for (; it->Valid(); forward ? it->Next() : it->Prev()) {
      const std::string key = ExtractUserKey(it->key()).ToString();
      CheckEntry(it->key(), it->value());
      if (seen > 0) {
        EXPECT_TRUE(forward ? key > last : key < last) << "out of order";
      }
      last = key;
      ++seen;
      if (seen > original_.size()) {
        ADD_FAILURE() << "more entries than were written";
        break;
      }
    }
    const Status s = it->status();
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      return true;
    }
    // A clean scan must have returned everything.
    EXPECT_EQ(original_.size(), seen);
    return false;
  }

  // Point lookups through the DB's path (TableCache -> ProbeTable).
  bool CheckGets(const std::string& contents, Options options) {
    int reads = 0;
    test::SingleFileEnv env(&contents, &reads);
    options.env = &env;
    TableCache cache("/nonexistent-db", options, 4);
    ReadOptions ro;
    ro.verify_checksums = true;
    bool corruption = false;
    for (const auto& kv : original_) {
      const LookupKey key(kv.first, kMaxSequenceNumber);
      std::string value;
      KeyLookup lookup(BytewiseComparator(), key.internal_key(),
                       /*key_hash=*/0, &value, /*stats=*/nullptr);
      const Status s = cache.Get(ro, 9, contents.size(), &lookup);
      if (!s.ok()) {
        EXPECT_TRUE(s.IsCorruption()) << s.ToString();
        corruption = true;
        continue;
      }
      if (lookup.outcome() == KeyLookup::Outcome::kCorrupt) {
        corruption = true;  // a Get reports it as Corruption
        continue;
      }
      // Not finding a key that is there, with no error, is data loss.
      EXPECT_EQ(KeyLookup::Outcome::kFound, lookup.outcome())
          << "lost " << kv.first;
      EXPECT_EQ(kv.second, value);
    }
    return corruption;
  }

  const InternalKeyComparator icmp_;
  Options options_;
  std::unique_ptr<const FilterPolicy> bloom_;
  const InternalFilterPolicy internal_bloom_;
  std::unique_ptr<Cache> block_cache_;
  std::map<std::string, std::string> original_;
  std::string table_;
};

TEST_F(TableCorruptionTest, IntactTableReadsBack) {
  EXPECT_GT(table_.size(), 1000u);
  EXPECT_FALSE(CheckContents(table_, false, false));
  EXPECT_FALSE(CheckContents(table_, true, true));
}

TEST_F(TableCorruptionTest, EveryByteFlipped) {
  int detected = 0;
  int harmless = 0;
  for (size_t i = 0; i < table_.size(); ++i) {
    for (int mask : {0xff, 0x01}) {
      std::string damaged = table_;
      damaged[i] = static_cast<char>(damaged[i] ^ mask);
      SCOPED_TRACE(testing::Message() << "byte " << i << " ^ " << mask);
      if (CheckContents(damaged, /*mapped=*/i % 2 == 0,
                        /*cached=*/i % 3 == 0)) {
        ++detected;
      } else {
        ++harmless;
      }
      if (HasFailure()) return;
    }
  }
  // Damage to the footer padding, the metaindex or the filter only costs
  // the filter; everything else (most of the file) must be caught.
  EXPECT_GT(detected, static_cast<int>(table_.size()));
  EXPECT_GT(harmless, 0);
}

TEST_F(TableCorruptionTest, EveryTruncation) {
  for (size_t len = 0; len < table_.size(); ++len) {
    SCOPED_TRACE(testing::Message() << "length " << len);
    const std::string truncated = table_.substr(0, len);
    EXPECT_TRUE(CheckContents(truncated, len % 2 == 0, false));
    if (HasFailure()) return;
  }
}

TEST_F(TableCorruptionTest, ClaimedSizeLargerThanFile) {
  // The footer is looked for where the caller says the file ends.
  test::StringSource source(table_);
  Table* table = nullptr;
  Status s = Table::Open(options_, &source, table_.size() + 100, &table);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(nullptr, table);
}

}  // namespace
}  // namespace leveldb
