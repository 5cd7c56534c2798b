#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "db/log_format.h"
#include "db/log_reader.h"
#include "db/log_writer.h"
#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "tests/test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/random.h"

namespace leveldb {
namespace log {
namespace {

// "<tag>" repeated up to exactly n bytes.
std::string Filled(const std::string& tag, size_t n) {
  std::string out;
  out.reserve(n + tag.size());
  while (out.size() < n) out += tag;
  out.resize(n);
  return out;
}

std::string Numbered(int i) { return std::to_string(i) + "."; }

// A WritableFile that appends to a string.
class MemoryWritable : public WritableFile {
 public:
  explicit MemoryWritable(std::string* data) : data_(data) {}
  Status Append(const Slice& slice) override {
    data_->append(slice.data(), slice.size());
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status Flush() override {
    ++flushes;
    return Status::OK();
  }
  Status Sync() override { return Status::OK(); }

  int flushes = 0;

 private:
  std::string* data_;
};

// A SequentialFile over a string, with an optional injected read error.
// Skipping past the end stops at the end, as a POSIX file does.
class MemorySequential : public SequentialFile {
 public:
  explicit MemorySequential(const std::string* data) : data_(data) {}

  Status Read(size_t n, Slice* result, char* scratch) override {
    if (fail_reads) {
      *result = Slice();
      return Status::IOError("injected read error");
    }
    const size_t left = data_->size() - pos_;
    const size_t take = std::min(n, left);
    std::copy(data_->data() + pos_, data_->data() + pos_ + take, scratch);
    *result = Slice(scratch, take);
    pos_ += take;
    return Status::OK();
  }

  Status Skip(uint64_t n) override {
    if (fail_skips) return Status::IOError("injected skip error");
    const uint64_t left = data_->size() - pos_;
    pos_ += static_cast<size_t>(std::min(n, left));
    return Status::OK();
  }

  bool fail_reads = false;
  bool fail_skips = false;

 private:
  const std::string* data_;
  size_t pos_ = 0;
};

class Collector : public Reader::Reporter {
 public:
  void Corruption(size_t bytes, const Status& status) override {
    dropped += bytes;
    messages += status.ToString() + ";";
    ++reports;
  }
  size_t dropped = 0;
  int reports = 0;
  std::string messages;
};

class LogTest : public testing::Test {
 protected:
  LogTest() : dest_(&data_), writer_(new Writer(&dest_)) {}

  void Write(const std::string& record) {
    ASSERT_TRUE(writer_->AddRecord(record).ok());
  }

  size_t WrittenBytes() const { return data_.size(); }

  // Starts reading from scratch at initial_offset.
  void StartReading(uint64_t initial_offset = 0, bool checksum = true) {
    source_ = std::make_unique<MemorySequential>(&data_);
    collector_ = Collector();
    reader_ = std::make_unique<Reader>(source_.get(), &collector_, checksum,
                                       initial_offset);
  }

  // Next record, or "EOF". Starts a reader on first use.
  std::string Read() {
    if (!reader_) StartReading();
    std::string scratch;
    Slice record;
    if (reader_->ReadRecord(&record, &scratch)) return record.ToString();
    return "EOF";
  }

  void ChangeByte(size_t offset, int delta) {
    data_[offset] = static_cast<char>(data_[offset] + delta);
  }
  void SetByte(size_t offset, char value) { data_[offset] = value; }
  void Truncate(size_t bytes) { data_.resize(data_.size() - bytes); }

  // Recomputes the checksum of the fragment whose header is at offset.
  void RepairChecksum(size_t offset, size_t payload_len) {
    const uint32_t crc = crc32c::Value(&data_[offset + 6], 1 + payload_len);
    StoreFixed32(&data_[offset], crc32c::Mask(crc));
  }

  size_t Dropped() const { return collector_.dropped; }
  int Reports() const { return collector_.reports; }
  const std::string& Messages() const { return collector_.messages; }

  bool MessagesContain(const std::string& text) const {
    return collector_.messages.find(text) != std::string::npos;
  }

  std::string data_;
  MemoryWritable dest_;
  std::unique_ptr<Writer> writer_;
  std::unique_ptr<MemorySequential> source_;
  Collector collector_;
  std::unique_ptr<Reader> reader_;
};

TEST_F(LogTest, EmptyLog) {
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports());
}

TEST_F(LogTest, HeaderLayout) {
  Write("abc");
  ASSERT_EQ(static_cast<size_t>(kHeaderSize + 3), WrittenBytes());
  const uint32_t expected_crc =
      crc32c::Mask(crc32c::Value("\x01"
                                 "abc",
                                 4));
  EXPECT_EQ(expected_crc, LoadFixed32(data_.data()));
  EXPECT_EQ(3, data_[4]);
  EXPECT_EQ(0, data_[5]);
  EXPECT_EQ(kFullType, data_[6]);
  EXPECT_EQ("abc", data_.substr(7));
}

TEST_F(LogTest, EmptyRecordIsWritten) {
  Write("");
  ASSERT_EQ(static_cast<size_t>(kHeaderSize), WrittenBytes());
  EXPECT_EQ(kFullType, data_[6]);
  EXPECT_EQ("", Read());
  EXPECT_EQ("EOF", Read());
}

TEST_F(LogTest, FlushesEveryRecord) {
  Write("a");
  const int after_one = dest_.flushes;
  EXPECT_GE(after_one, 1);
  Write("b");
  EXPECT_GT(dest_.flushes, after_one);
}

TEST_F(LogTest, SmallRecords) {
  Write("foo");
  Write("bar");
  Write("");
  Write("xxxx");
  EXPECT_EQ("foo", Read());
  EXPECT_EQ("bar", Read());
  EXPECT_EQ("", Read());
  EXPECT_EQ("xxxx", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ("EOF", Read());  // stays at EOF
  EXPECT_EQ(0, Reports());
}

TEST_F(LogTest, ManyBlocksOfSmallRecords) {
  for (int i = 0; i < 100000; ++i) Write(Numbered(i));
  EXPECT_GT(WrittenBytes(), static_cast<size_t>(10 * kBlockSize));
  for (int i = 0; i < 100000; ++i) ASSERT_EQ(Numbered(i), Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports());
}

TEST_F(LogTest, FragmentedRecords) {
  Write("small");
  Write(Filled("medium", 50000));
  Write(Filled("large", 100000));
  EXPECT_EQ("small", Read());
  EXPECT_EQ(Filled("medium", 50000), Read());
  EXPECT_EQ(Filled("large", 100000), Read());
  EXPECT_EQ("EOF", Read());
}

TEST_F(LogTest, HugeRecord) {
  Random rnd(test::RandomSeed());
  const std::string huge = test::RandomBytes(&rnd, 3 * 1024 * 1024 + 17);
  Write("before");
  Write(huge);
  Write("after");
  EXPECT_EQ("before", Read());
  EXPECT_EQ(huge, Read());
  EXPECT_EQ("after", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports());
}

TEST_F(LogTest, FragmentTypesAcrossBlocks) {
  // A record spanning three blocks: FIRST, MIDDLE, LAST.
  const size_t payload_per_block = kBlockSize - kHeaderSize;
  Write(Filled("z", 2 * payload_per_block + 10));
  EXPECT_EQ(kFirstType, data_[6]);
  EXPECT_EQ(kMiddleType, data_[kBlockSize + 6]);
  EXPECT_EQ(kLastType, data_[2 * kBlockSize + 6]);
  EXPECT_EQ(static_cast<size_t>(2 * kBlockSize + kHeaderSize + 10),
            WrittenBytes());
  EXPECT_EQ(Filled("z", 2 * payload_per_block + 10), Read());
}

TEST_F(LogTest, RecordExactlyFillsBlock) {
  Write(Filled("f", kBlockSize - kHeaderSize));
  EXPECT_EQ(static_cast<size_t>(kBlockSize), WrittenBytes());
  EXPECT_EQ(kFullType, data_[6]);
  Write("next");
  EXPECT_EQ(kFullType, data_[kBlockSize + 6]);
  EXPECT_EQ(Filled("f", kBlockSize - kHeaderSize), Read());
  EXPECT_EQ("next", Read());
  EXPECT_EQ("EOF", Read());
}

// Leaves `tail` bytes in the first block, then writes two more records.
class LogTrailerTest : public LogTest,
                       public testing::WithParamInterface<int> {};

TEST_P(LogTrailerTest, BlockTail) {
  const int tail = GetParam();
  const size_t first_len = kBlockSize - kHeaderSize - tail;
  Write(Filled("t", first_len));
  ASSERT_EQ(static_cast<size_t>(kBlockSize - tail), WrittenBytes());
  Write("bar");
  Write("baz");

  if (tail < kHeaderSize) {
    // The tail is zero-filled and "bar" starts the next block.
    EXPECT_EQ(std::string(tail, '\0'), data_.substr(kBlockSize - tail, tail));
    EXPECT_EQ(kFullType, data_[kBlockSize + 6]);
  } else {
    // Exactly a header fits: an empty FIRST ends the block.
    EXPECT_EQ(kFirstType, data_[kBlockSize - tail + 6]);
    EXPECT_EQ(0, data_[kBlockSize - tail + 4]);
    EXPECT_EQ(kLastType, data_[kBlockSize + 6]);
  }
  EXPECT_EQ(static_cast<size_t>(kBlockSize + 2 * (kHeaderSize + 3)),
            WrittenBytes());

  EXPECT_EQ(Filled("t", first_len), Read());
  EXPECT_EQ("bar", Read());
  EXPECT_EQ("baz", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports()) << Messages();
}

TEST_P(LogTrailerTest, EmptyRecordAtBlockTail) {
  const int tail = GetParam();
  Write(Filled("t", kBlockSize - kHeaderSize - tail));
  Write("");
  Write("after");
  EXPECT_EQ(Filled("t", kBlockSize - kHeaderSize - tail), Read());
  EXPECT_EQ("", Read());
  EXPECT_EQ("after", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports());
}

TEST_P(LogTrailerTest, EndOfFileInTail) {
  // The file ends right where the tail begins: nothing more to read.
  const int tail = GetParam();
  Write(Filled("t", kBlockSize - kHeaderSize - tail));
  EXPECT_EQ(Filled("t", kBlockSize - kHeaderSize - tail), Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports());
}

TEST_P(LogTrailerTest, ResumeWriterInTail) {
  // A writer reopened on a file whose size leaves `tail` bytes in the block
  // must pad (or fit) exactly as the original writer would have.
  const int tail = GetParam();
  Write(Filled("t", kBlockSize - kHeaderSize - tail));
  writer_ = std::make_unique<Writer>(&dest_, WrittenBytes());
  Write("resumed");
  Write(Filled("r", kBlockSize));
  EXPECT_EQ(Filled("t", kBlockSize - kHeaderSize - tail), Read());
  EXPECT_EQ("resumed", Read());
  EXPECT_EQ(Filled("r", kBlockSize), Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports());
}

INSTANTIATE_TEST_SUITE_P(Tails, LogTrailerTest, testing::Range(0, 8));

TEST_F(LogTest, ReopenForAppend) {
  Write("hello");
  writer_ = std::make_unique<Writer>(&dest_, WrittenBytes());
  Write("world");
  writer_ = std::make_unique<Writer>(&dest_, WrittenBytes());
  Write(Filled("big", 3 * kBlockSize));
  writer_ = std::make_unique<Writer>(&dest_, WrittenBytes());
  Write("last");
  EXPECT_EQ("hello", Read());
  EXPECT_EQ("world", Read());
  EXPECT_EQ(Filled("big", 3 * kBlockSize), Read());
  EXPECT_EQ("last", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports());
}

TEST_F(LogTest, RandomRecordSizes) {
  Random rnd(test::RandomSeed());
  std::vector<std::string> records;
  for (int i = 0; i < 500; ++i) {
    records.push_back(test::RandomBytes(&rnd, rnd.Skewed(17)));
    Write(records.back());
  }
  for (const std::string& r : records) ASSERT_EQ(r, Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports());
}

// ---- Damage ----

TEST_F(LogTest, ReadError) {
  Write("foo");
  StartReading();
  source_->fail_reads = true;
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(static_cast<size_t>(kBlockSize), Dropped());
  EXPECT_TRUE(MessagesContain("injected read error")) << Messages();
}

TEST_F(LogTest, UnknownRecordType) {
  Write("foo");
  Write("bar");
  ChangeByte(6, 100);
  RepairChecksum(0, 3);
  EXPECT_EQ("bar", Read());
  EXPECT_EQ(3u, Dropped());
  EXPECT_TRUE(MessagesContain("unknown record type")) << Messages();
}

TEST_F(LogTest, TruncatedTrailingRecordIsIgnored) {
  Write("foo");
  // Each cut inside the header or payload looks like a crashed writer.
  for (size_t cut = 1; cut < static_cast<size_t>(kHeaderSize + 3); ++cut) {
    std::string saved = data_;
    Truncate(cut);
    StartReading();
    EXPECT_EQ("EOF", Read()) << cut;
    EXPECT_EQ(0, Reports()) << cut << " " << Messages();
    data_ = saved;
  }
}

TEST_F(LogTest, TruncatedRecordAfterGoodOnes) {
  Write("one");
  Write("two");
  Write(Filled("partial", 1000));
  Truncate(500);
  EXPECT_EQ("one", Read());
  EXPECT_EQ("two", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports()) << Messages();
}

TEST_F(LogTest, BadLength) {
  const int payload = kBlockSize - kHeaderSize;
  Write(Filled("p", payload));
  Write("bar");
  // Claim one byte more than the block holds.
  ChangeByte(4, 1);
  EXPECT_EQ("bar", Read());
  EXPECT_EQ(static_cast<size_t>(kBlockSize), Dropped());
  EXPECT_TRUE(MessagesContain("bad record length")) << Messages();
}

TEST_F(LogTest, BadLengthAtEndIsIgnored) {
  Write("foo");
  Truncate(1);
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0u, Dropped());
}

TEST_F(LogTest, ChecksumMismatch) {
  Write("foooooo");
  ChangeByte(0, 10);
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(14u, Dropped());
  EXPECT_TRUE(MessagesContain("checksum mismatch")) << Messages();
}

TEST_F(LogTest, ChecksumMismatchDropsRestOfBlockOnly) {
  Write("first");
  Write("second");
  Write(Filled("x", kBlockSize));  // spills into block 1
  Write("third");
  // Corrupt the payload of "second": it and everything after it in block 0
  // is dropped, then reading resumes in block 1 (where the rest of the big
  // record is an orphan LAST fragment).
  ChangeByte(kHeaderSize + 5 + kHeaderSize, 1);
  EXPECT_EQ("first", Read());
  EXPECT_EQ("third", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_TRUE(MessagesContain("checksum mismatch")) << Messages();
  EXPECT_TRUE(MessagesContain("missing start of fragmented record"))
      << Messages();
}

TEST_F(LogTest, ChecksumNotVerifiedWhenDisabled) {
  Write("payload");
  ChangeByte(kHeaderSize, 1);
  StartReading(0, /*checksum=*/false);
  EXPECT_EQ("qayload", Read());
  EXPECT_EQ(0, Reports());
}

TEST_F(LogTest, MiddleWithoutFirst) {
  Write("foo");
  SetByte(6, kMiddleType);
  RepairChecksum(0, 3);
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(3u, Dropped());
  EXPECT_TRUE(MessagesContain("missing start of fragmented record"))
      << Messages();
}

TEST_F(LogTest, LastWithoutFirst) {
  Write("foo");
  SetByte(6, kLastType);
  RepairChecksum(0, 3);
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(3u, Dropped());
  EXPECT_TRUE(MessagesContain("missing start of fragmented record"))
      << Messages();
}

TEST_F(LogTest, FullInsideFragmentedRecord) {
  Write("foo");
  Write("bar");
  SetByte(6, kFirstType);
  RepairChecksum(0, 3);
  EXPECT_EQ("bar", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(3u, Dropped());
  EXPECT_TRUE(MessagesContain("partial record without end")) << Messages();
}

TEST_F(LogTest, FirstInsideFragmentedRecord) {
  Write("foo");
  Write(Filled("bar", 100000));
  SetByte(6, kFirstType);
  RepairChecksum(0, 3);
  EXPECT_EQ(Filled("bar", 100000), Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(3u, Dropped());
  EXPECT_TRUE(MessagesContain("partial record without end")) << Messages();
}

TEST_F(LogTest, MissingLastFragmentIsIgnored) {
  Write(Filled("bar", kBlockSize));
  // Remove the LAST fragment (header + 7 payload bytes) entirely.
  Truncate(kHeaderSize + 7);
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports()) << Messages();
}

TEST_F(LogTest, PartialLastFragmentIsIgnored) {
  Write(Filled("bar", kBlockSize));
  Truncate(1);
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports()) << Messages();
}

TEST_F(LogTest, CorruptBlockInsideRecords) {
  Write(Filled("foo", kBlockSize));
  Write(Filled("bar", kBlockSize));
  Write("correct");
  // Destroy block 1, which holds the end of the first record and the start
  // of the second.
  for (int i = kBlockSize; i < 2 * kBlockSize; ++i) SetByte(i, 'x');
  EXPECT_EQ("correct", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_GE(Dropped(), static_cast<size_t>(2 * kBlockSize));
  EXPECT_LE(Dropped(), static_cast<size_t>(2 * kBlockSize + 100));
}

TEST_F(LogTest, ZeroFilledSpaceIsSkippedSilently) {
  // Preallocated (never written) space reads as zeros; a header of zeros is
  // not corruption.
  Write("foo");
  data_.append(kBlockSize - WrittenBytes(), '\0');
  writer_ = std::make_unique<Writer>(&dest_, WrittenBytes());
  Write("bar");
  EXPECT_EQ("foo", Read());
  EXPECT_EQ("bar", Read());
  EXPECT_EQ("EOF", Read());
  EXPECT_EQ(0, Reports()) << Messages();
}

TEST_F(LogTest, SkipErrorIsReported) {
  Write(Filled("a", 3 * kBlockSize));
  StartReading(kBlockSize + 10);
  source_->fail_skips = true;
  EXPECT_EQ("EOF", Read());
  EXPECT_TRUE(MessagesContain("injected skip error")) << Messages();
  // Reading again must not resume from an unknown position.
  source_->fail_skips = false;
  EXPECT_EQ("EOF", Read());
}

// ---- initial_offset ----

// Writes records of varied shapes, remembering where each starts.
class LogOffsetTest : public LogTest {
 protected:
  // Size of a record that, written now, leaves `tail` bytes in its block.
  size_t LeavingTail(int tail) const {
    const size_t room = kBlockSize - WrittenBytes() % kBlockSize;
    EXPECT_GE(room, static_cast<size_t>(kHeaderSize + tail));
    return room - kHeaderSize - tail;
  }

  void SetUp() override {
    // Negative entries -1 - t stand for LeavingTail(t).
    const std::vector<int64_t> plan = {
        10000,                     // 0: within block 0
        10000,                     // 1: within block 0
        2 * kBlockSize - 1000,     // 2: FIRST, MIDDLE, LAST
        1,                         // 3
        0,                         // 4: empty
        -1 - 3,                    // 5: leaves a 3-byte tail
        kBlockSize - kHeaderSize,  // 6: exactly one block
        -1 - kHeaderSize,          // 7: leaves exactly one header
        5,                         // 8: empty FIRST at block end, then LAST
        100,                       // 9
        3 * kBlockSize + 123,      // 10: long record
        -1 - 0,                    // 11: ends exactly at a block boundary
        7,                         // 12
        -1 - 6,                    // 13: leaves a 6-byte tail
        0,                         // 14: empty record after padding
        9,                         // 15
    };
    for (size_t i = 0; i < plan.size(); ++i) {
      const size_t size = plan[i] >= 0
                              ? static_cast<size_t>(plan[i])
                              : LeavingTail(static_cast<int>(-1 - plan[i]));
      uint64_t start = WrittenBytes();
      const uint64_t room = kBlockSize - start % kBlockSize;
      if (room < static_cast<uint64_t>(kHeaderSize)) start += room;
      starts_.push_back(start);
      records_.push_back(
          Filled(std::string(1, static_cast<char>('a' + i)), size));
      Write(records_.back());
    }
  }

  // Reading from offset must yield exactly the records starting at or after
  // it, with their offsets, and report nothing.
  void CheckFrom(uint64_t offset) {
    StartReading(offset);
    std::string scratch;
    Slice record;
    for (size_t i = 0; i < records_.size(); ++i) {
      if (starts_[i] < offset) continue;
      ASSERT_TRUE(reader_->ReadRecord(&record, &scratch))
          << "offset " << offset << " record " << i;
      ASSERT_EQ(records_[i], record.ToString())
          << "offset " << offset << " record " << i;
      ASSERT_EQ(starts_[i], reader_->LastRecordOffset())
          << "offset " << offset << " record " << i;
    }
    ASSERT_FALSE(reader_->ReadRecord(&record, &scratch)) << "offset " << offset;
    ASSERT_EQ(0, Reports()) << "offset " << offset << ": " << Messages();
  }

  std::vector<std::string> records_;
  std::vector<uint64_t> starts_;
};

TEST_F(LogOffsetTest, LayoutAsExpected) {
  // Sanity check of the shapes the offsets below rely on.
  ASSERT_EQ(16u, records_.size());
  for (size_t i = 1; i < starts_.size(); ++i) {
    EXPECT_LT(starts_[i - 1], starts_[i]);
  }
  EXPECT_EQ(0u, starts_[6] % kBlockSize);
  EXPECT_EQ(kFullType, data_[starts_[6] + 6]);
  // Record 8 begins with an empty FIRST filling the end of a block.
  EXPECT_EQ(static_cast<uint64_t>(kBlockSize - kHeaderSize),
            starts_[8] % kBlockSize);
  EXPECT_EQ(kFirstType, data_[starts_[8] + 6]);
  EXPECT_EQ(0u, starts_[12] % kBlockSize);
  EXPECT_EQ(0u, starts_[14] % kBlockSize);
  EXPECT_EQ(std::string(6, '\0'), data_.substr(starts_[14] - 6, 6));
}

TEST_F(LogOffsetTest, EveryInterestingOffset) {
  std::set<uint64_t> offsets = {0, 1};
  for (uint64_t s : starts_) {
    for (int d = -2; d <= 2; ++d) {
      if (static_cast<int64_t>(s) + d >= 0) offsets.insert(s + d);
    }
  }
  // Block boundaries and the tail region before each.
  for (uint64_t b = kBlockSize; b <= WrittenBytes() + kBlockSize;
       b += kBlockSize) {
    for (uint64_t d = 0; d <= static_cast<uint64_t>(kHeaderSize + 1); ++d) {
      offsets.insert(b - d);
    }
    offsets.insert(b + 1);
  }
  // Middles of records.
  for (size_t i = 0; i + 1 < starts_.size(); ++i) {
    offsets.insert((starts_[i] + starts_[i + 1]) / 2);
  }
  offsets.insert(WrittenBytes() - 1);
  offsets.insert(WrittenBytes());
  offsets.insert(WrittenBytes() + 1);
  offsets.insert(WrittenBytes() + 5 * kBlockSize);

  for (uint64_t offset : offsets) {
    CheckFrom(offset);
    if (HasFatalFailure()) return;
  }
}

TEST_F(LogOffsetTest, InitialOffsetThenCorruptionIsReported) {
  // Damage after initial_offset is still reported.
  ChangeByte(starts_[9] + kHeaderSize, 1);
  StartReading(starts_[7]);
  EXPECT_EQ(records_[7], Read());
  EXPECT_EQ(records_[8], Read());
  // Record 9 and the rest of its block are dropped; the first record
  // returned after it starts in a later block.
  EXPECT_EQ(records_[11], Read());
  EXPECT_EQ(starts_[11], reader_->LastRecordOffset());
  EXPECT_TRUE(MessagesContain("checksum mismatch")) << Messages();
}

}  // namespace
}  // namespace log
}  // namespace leveldb
