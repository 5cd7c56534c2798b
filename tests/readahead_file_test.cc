#include "table/readahead_file.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"
#include "table/format.h"
#include "table/table_filter_setup.h"
#include "table/table_state.h"
#include "tests/table_test_helpers.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace {

using test::StringSink;
using test::StringSource;

std::string Bytes(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; i++) s[i] = static_cast<char>(i * 7 + i / 251);
  return s;
}

// Reads [offset, offset + n) through `file`; fails the test on an error.
std::string ReadAt(const RandomAccessFile& file, uint64_t offset, size_t n) {
  std::string scratch(n, '\0');
  Slice result;
  Status s = file.Read(offset, n, &result, &scratch[0]);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return result.ToString();
}

TEST(ReadaheadFileTest, FrontToBackCostsOneReadPerWindow) {
  const std::string bytes = Bytes(10000);
  StringSource source(bytes);
  ReadaheadFile file(&source, bytes.size(), 4096);
  for (size_t offset = 0; offset < bytes.size(); offset += 100) {
    const size_t n = std::min<size_t>(100, bytes.size() - offset);
    ASSERT_EQ(bytes.substr(offset, n), ReadAt(file, offset, n));
  }
  // Windows start where a read left the previous one: 0, 4000, 8000.
  EXPECT_EQ(3, source.reads());
}

TEST(ReadaheadFileTest, AnyOrderGivesTheFileBytes) {
  const std::string bytes = Bytes(50000);
  StringSource source(bytes);
  ReadaheadFile file(&source, bytes.size(), 1024);
  Random rnd(test::RandomSeed());
  for (int i = 0; i < 2000; i++) {
    const uint64_t offset = rnd.Uniform(static_cast<int>(bytes.size()));
    const size_t n = rnd.Uniform(1500);  // some larger than the window
    const size_t expected = std::min<size_t>(n, bytes.size() - offset);
    ASSERT_EQ(bytes.substr(offset, expected), ReadAt(file, offset, n))
        << "offset " << offset << " n " << n;
  }
}

TEST(ReadaheadFileTest, ShortAtTheEndOfTheTableAndEmptyPastIt) {
  const std::string bytes = Bytes(3000);
  StringSource source(bytes);
  ReadaheadFile file(&source, bytes.size(), 1024);
  EXPECT_EQ(bytes.substr(2900), ReadAt(file, 2900, 500));
  EXPECT_EQ("", ReadAt(file, 3000, 10));
  EXPECT_EQ("", ReadAt(file, 2950, 0));
}

TEST(ReadaheadFileTest, ReadsAsLargeAsTheWindowGoStraightThrough) {
  const std::string bytes = Bytes(20000);
  StringSource source(bytes);
  ReadaheadFile file(&source, bytes.size(), 1024);
  EXPECT_EQ(bytes.substr(100, 5000), ReadAt(file, 100, 5000));
  EXPECT_EQ(bytes.substr(5100, 1024), ReadAt(file, 5100, 1024));
  EXPECT_EQ(2, source.reads());
}

TEST(ReadaheadFileTest, MappedFilesAreNotCopied) {
  const std::string bytes = Bytes(10000);
  StringSource source(bytes, /*mapped=*/true);
  ReadaheadFile file(&source, bytes.size(), 4096);
  for (size_t offset = 0; offset < 1000; offset += 100) {
    ASSERT_EQ(bytes.substr(offset, 100), ReadAt(file, offset, 100));
  }
  // One read found the file hands out its own memory; then one per call.
  EXPECT_EQ(11, source.reads());
}

class FailingFile : public RandomAccessFile {
 public:
  Status Read(uint64_t, size_t, Slice* result, char*) const override {
    *result = Slice();
    return Status::IOError("injected read error");
  }
};

TEST(ReadaheadFileTest, ErrorsReachTheReader) {
  FailingFile failing;
  ReadaheadFile file(&failing, 100000, 4096);
  std::string scratch(100, '\0');
  Slice result;
  Status s = file.Read(0, 100, &result, &scratch[0]);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  // A failed fill leaves nothing behind that a later read could take.
  s = file.Read(0, 100, &result, &scratch[0]);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

// A table of `n` entries in many small blocks, and its entries.
std::string SmallBlockTable(const Options& options, int n,
                            std::vector<std::string>* keys) {
  StringSink sink;
  TableBuilder builder(options, &sink);
  for (int i = 0; i < n; i++) {
    char key[32];
    std::snprintf(key, sizeof(key), "key%08d", i);
    keys->push_back(key);
    builder.Add(key, std::string(40, static_cast<char>('a' + i % 26)));
  }
  EXPECT_TRUE(builder.Finish().ok());
  return sink.contents();
}

TEST(TableScanIteratorTest, ScansEveryEntryInFewReads) {
  Options options;
  options.block_size = 512;
  options.compression = kNoCompression;
  std::vector<std::string> keys;
  const std::string bytes = SmallBlockTable(options, 5000, &keys);
  StringSource source(bytes);
  TableState table;
  ASSERT_TRUE(
      OpenTableState(options, TableFilterSetup(), &source, bytes.size(), &table)
          .ok());
  const int reads_to_open = source.reads();

  ReadOptions read_options;
  read_options.verify_checksums = true;
  std::unique_ptr<Iterator> it(
      NewTableScanIterator(table, read_options, 64 << 10));
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    ASSERT_LT(i, keys.size());
    ASSERT_EQ(keys[i], it->key().ToString());
  }
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  EXPECT_EQ(keys.size(), i);
  // Hundreds of blocks, a handful of 64 KiB windows.
  const int scan_reads = source.reads() - reads_to_open;
  EXPECT_LE(scan_reads, static_cast<int>(bytes.size() / (64 << 10)) + 2);
  EXPECT_GT(bytes.size() / options.block_size, 100u);
}

TEST(TableScanIteratorTest, DamagedBlockIsCorruption) {
  Options options;
  options.block_size = 512;
  options.compression = kNoCompression;
  std::vector<std::string> keys;
  std::string bytes = SmallBlockTable(options, 2000, &keys);
  bytes[bytes.size() / 3] ^= 0x10;  // inside some data block
  StringSource source(bytes);
  TableState table;
  ASSERT_TRUE(
      OpenTableState(options, TableFilterSetup(), &source, bytes.size(), &table)
          .ok());
  ReadOptions read_options;
  read_options.verify_checksums = true;
  std::unique_ptr<Iterator> it(
      NewTableScanIterator(table, read_options, 64 << 10));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
}

}  // namespace
}  // namespace leveldb
