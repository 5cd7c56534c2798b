#include "db/table_cache.h"

#include <memory>
#include <string>
#include <vector>

#include "db/builder.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "db/version_edit.h"
#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/helpers/memenv.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "table/key_lookup.h"
#include "tests/table_test_helpers.h"

namespace leveldb {
namespace {

std::string IKey(const std::string& user_key, SequenceNumber seq,
                 ValueType type = kTypeValue) {
  return InternalKey(user_key, seq, type).Encode().ToString();
}

class TableCacheTest : public testing::Test {
 protected:
  TableCacheTest()
      : env_(NewMemEnv(Env::Default())),
        icmp_(BytewiseComparator()),
        dbname_("/tctest") {
    options_.env = env_.get();
    options_.comparator = &icmp_;
    EXPECT_TRUE(env_->CreateDir(dbname_).ok());
    cache_ = std::make_unique<TableCache>(dbname_, options_, 10);
  }

  Status Build(uint64_t number, test::KVVector entries, FileMetaData* meta,
               Status iter_status = Status::OK()) {
    meta->number = number;
    test::VectorIterator iter(&icmp_, std::move(entries), iter_status);
    return BuildTable(dbname_, env_.get(), options_, cache_.get(), &iter, meta);
  }

  test::KVVector SampleEntries() const {
    return {{IKey("apple", 3), "red"},
            {IKey("banana", 2), "yellow"},
            {IKey("cherry", 1), "dark"}};
  }

  // Result of TableCache::Get for internal key `ikey`: "key=value" when
  // the table holds a value of its user key, "deleted", "corrupt", or ""
  // when the table holds no entry of the key.
  std::string Lookup(uint64_t number, uint64_t size, const std::string& ikey,
                     Status* status) {
    std::string value;
    KeyLookup lookup(BytewiseComparator(), ikey, /*key_hash=*/0, &value,
                     /*stats=*/nullptr);
    *status = cache_->Get(ReadOptions(), number, size, &lookup);
    switch (lookup.outcome()) {
      case KeyLookup::Outcome::kFound:
        return lookup.user_key().ToString() + "=" + value;
      case KeyLookup::Outcome::kDeleted:
        return "deleted";
      case KeyLookup::Outcome::kCorrupt:
        return "corrupt";
      case KeyLookup::Outcome::kNotFound:
        break;
    }
    return "";
  }

  std::unique_ptr<Env> env_;
  const InternalKeyComparator icmp_;
  const std::string dbname_;
  Options options_;
  std::unique_ptr<TableCache> cache_;
};

TEST_F(TableCacheTest, BuildTableFillsMetadata) {
  FileMetaData meta;
  ASSERT_TRUE(Build(7, SampleEntries(), &meta).ok());
  EXPECT_EQ(7u, meta.number);
  EXPECT_EQ(IKey("apple", 3), meta.smallest.Encode().ToString());
  EXPECT_EQ(IKey("cherry", 1), meta.largest.Encode().ToString());
  uint64_t on_disk = 0;
  ASSERT_TRUE(env_->GetFileSize(TableFileName(dbname_, 7), &on_disk).ok());
  EXPECT_EQ(on_disk, meta.file_size);
  EXPECT_GT(meta.file_size, 0u);
}

TEST_F(TableCacheTest, EmptyInputWritesNoFile) {
  FileMetaData meta;
  ASSERT_TRUE(Build(8, {}, &meta).ok());
  EXPECT_EQ(0u, meta.file_size);
  EXPECT_FALSE(env_->FileExists(TableFileName(dbname_, 8)));
}

TEST_F(TableCacheTest, InputErrorFailsTheBuildAndRemovesTheFile) {
  FileMetaData meta;
  Status s =
      Build(9, SampleEntries(), &meta, Status::Corruption("broken input"));
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_FALSE(env_->FileExists(TableFileName(dbname_, 9)));
}

TEST_F(TableCacheTest, GetFindsEntries) {
  FileMetaData meta;
  ASSERT_TRUE(Build(5, SampleEntries(), &meta).ok());
  Status s;
  EXPECT_EQ("banana=yellow", Lookup(5, meta.file_size, IKey("banana", 10), &s));
  EXPECT_TRUE(s.ok());
  // The entry the seek lands on belongs to another key: no match.
  EXPECT_EQ("", Lookup(5, meta.file_size, IKey("c", 10), &s));
  EXPECT_TRUE(s.ok());
  // Entries newer than the lookup's sequence number are skipped.
  EXPECT_EQ("", Lookup(5, meta.file_size, IKey("banana", 1), &s));
  EXPECT_TRUE(s.ok());
  EXPECT_EQ("", Lookup(5, meta.file_size, IKey("zebra", 10), &s));
  EXPECT_TRUE(s.ok());
}

TEST_F(TableCacheTest, GetTellsDeletionsFromValues) {
  FileMetaData meta;
  ASSERT_TRUE(Build(5,
                    {{IKey("apple", 3, kTypeDeletion), ""},
                     {IKey("apple", 2), "old"},
                     {IKey("banana", 2), "yellow"}},
                    &meta)
                  .ok());
  Status s;
  EXPECT_EQ("deleted", Lookup(5, meta.file_size, IKey("apple", 10), &s));
  EXPECT_TRUE(s.ok());
  // Before the deletion the old value is seen.
  EXPECT_EQ("apple=old", Lookup(5, meta.file_size, IKey("apple", 2), &s));
  EXPECT_EQ("banana=yellow", Lookup(5, meta.file_size, IKey("banana", 10), &s));
  EXPECT_TRUE(s.ok());
}

TEST_F(TableCacheTest, IteratorSeesEverythingAndExposesTheTable) {
  FileMetaData meta;
  ASSERT_TRUE(Build(5, SampleEntries(), &meta).ok());
  Table* table = nullptr;
  std::unique_ptr<Iterator> it(
      cache_->NewIterator(ReadOptions(), 5, meta.file_size, &table));
  ASSERT_TRUE(it->status().ok());
  EXPECT_NE(nullptr, table);
  int count = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++count;
  EXPECT_EQ(3, count);
  EXPECT_LE(table->ApproximateOffsetOf(IKey("zzz", 1)), meta.file_size);
}

TEST_F(TableCacheTest, IteratorOutlivesEviction) {
  FileMetaData meta;
  ASSERT_TRUE(Build(5, SampleEntries(), &meta).ok());
  std::unique_ptr<Iterator> it(
      cache_->NewIterator(ReadOptions(), 5, meta.file_size));
  cache_->Evict(5);
  ASSERT_TRUE(env_->RemoveFile(TableFileName(dbname_, 5)).ok());
  // The pinned Table (and its open file) stays usable.
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("red", it->value().ToString());
  it.reset();

  // Once released and evicted, the table is gone.
  Status s;
  Lookup(5, meta.file_size, IKey("apple", 10), &s);
  EXPECT_FALSE(s.ok());
}

TEST_F(TableCacheTest, MissingTableIsCorruptionAndIsNotCached) {
  Status s;
  Lookup(6, 1000, IKey("apple", 10), &s);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("000006.ldb"));

  Table* table = reinterpret_cast<Table*>(1);
  std::unique_ptr<Iterator> it(
      cache_->NewIterator(ReadOptions(), 6, 1000, &table));
  EXPECT_EQ(nullptr, table);
  EXPECT_TRUE(it->status().IsCorruption());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());

  // The file appears later: the earlier failure must not stick.
  FileMetaData meta;
  ASSERT_TRUE(Build(6, SampleEntries(), &meta).ok());
  EXPECT_EQ("apple=red", Lookup(6, meta.file_size, IKey("apple", 10), &s));
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST_F(TableCacheTest, WrongSizeIsAnError) {
  FileMetaData meta;
  ASSERT_TRUE(Build(5, SampleEntries(), &meta).ok());
  cache_->Evict(5);  // BuildTable's check left it open
  Status s;
  Lookup(5, 10, IKey("apple", 10), &s);  // too small for a footer
  EXPECT_FALSE(s.ok());
  // Not cached either: the right size works afterwards.
  EXPECT_EQ("apple=red", Lookup(5, meta.file_size, IKey("apple", 10), &s));
  EXPECT_TRUE(s.ok());
}

TEST_F(TableCacheTest, ReadsLegacySstNames) {
  FileMetaData meta;
  ASSERT_TRUE(Build(12, SampleEntries(), &meta).ok());
  cache_->Evict(12);
  ASSERT_TRUE(env_->RenameFile(TableFileName(dbname_, 12),
                               SSTTableFileName(dbname_, 12))
                  .ok());
  Status s;
  EXPECT_EQ("banana=yellow",
            Lookup(12, meta.file_size, IKey("banana", 10), &s));
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST_F(TableCacheTest, ManyTablesThroughASmallCache) {
  std::vector<FileMetaData> metas(30);
  for (int i = 0; i < 30; ++i) {
    const std::string key = "key" + std::to_string(i);
    ASSERT_TRUE(
        Build(100 + i, {{IKey(key, 1), "v" + std::to_string(i)}}, &metas[i])
            .ok());
  }
  // More tables than entries: each lookup may reopen, results stay right.
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 30; ++i) {
      Status s;
      const std::string key = "key" + std::to_string(i);
      EXPECT_EQ(key + "=v" + std::to_string(i),
                Lookup(100 + i, metas[i].file_size, IKey(key, 5), &s));
      EXPECT_TRUE(s.ok());
    }
  }
}

}  // namespace
}  // namespace leveldb
