#include "table/format.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "leveldb/options.h"
#include "port/port.h"
#include "tests/table_test_helpers.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {
namespace {

// Frames contents the way a table does: contents, type byte, masked CRC.
std::string Framed(const std::string& contents, char type) {
  std::string out = contents;
  out.push_back(type);
  const uint32_t crc = crc32c::Value(out.data(), out.size());
  AppendFixed32(&out, crc32c::Mask(crc));
  return out;
}

// A footer whose handles are (1, 2) and (3, 4), encoded.
std::string SmallFooter() {
  Footer footer;
  footer.set_metaindex_handle(BlockHandle(1, 2));
  footer.set_index_handle(BlockHandle(3, 4));
  std::string encoded;
  footer.EncodeTo(&encoded);
  return encoded;
}

// ReadBlock with checksums verified.
Status ReadVerified(RandomAccessFile* file, const BlockHandle& handle,
                    BlockContents* contents) {
  ReadOptions options;
  options.verify_checksums = true;
  return ReadBlock(file, options, handle, contents);
}

void FreeContents(const BlockContents& contents) {
  if (contents.heap_allocated) delete[] contents.data.data();
}

TEST(BlockHandleTest, RoundTripsManyValues) {
  const uint64_t values[] = {
      0,          1,          127,         128, 16383, 16384, (1ull << 32) - 1,
      1ull << 32, 1ull << 63, ~uint64_t{0}};
  for (uint64_t offset : values) {
    for (uint64_t size : values) {
      BlockHandle handle(offset, size);
      std::string encoded;
      handle.EncodeTo(&encoded);
      EXPECT_LE(encoded.size(), BlockHandle::kMaxEncodedLength);
      encoded.append("tail");
      Slice input(encoded);
      BlockHandle decoded;
      ASSERT_TRUE(decoded.DecodeFrom(&input).ok());
      EXPECT_EQ(offset, decoded.offset());
      EXPECT_EQ(size, decoded.size());
      EXPECT_EQ("tail", input.ToString());
    }
  }
}

TEST(BlockHandleTest, TruncatedEncodingIsCorruption) {
  std::string encoded;
  BlockHandle(300, 1ull << 40).EncodeTo(&encoded);
  for (size_t len = 0; len < encoded.size(); ++len) {
    Slice input(encoded.data(), len);
    BlockHandle decoded;
    EXPECT_TRUE(decoded.DecodeFrom(&input).IsCorruption()) << len;
  }
}

TEST(FooterTest, RoundTripAndLayout) {
  Footer footer;
  footer.set_metaindex_handle(BlockHandle(12345, 67));
  footer.set_index_handle(BlockHandle(1ull << 35, 4096));
  std::string encoded = "prefix";
  footer.EncodeTo(&encoded);
  ASSERT_EQ(6 + Footer::kEncodedLength, encoded.size());
  EXPECT_EQ(48u, Footer::kEncodedLength);
  EXPECT_EQ(kTableMagicNumber,
            LoadFixed64(encoded.data() + encoded.size() - 8));
  // The known magic bytes, little-endian.
  EXPECT_EQ(std::string("\x57\xfb\x80\x8b\x24\x75\x47\xdb", 8),
            encoded.substr(encoded.size() - 8));

  Slice input(encoded);
  input.remove_prefix(6);
  Footer decoded;
  ASSERT_TRUE(decoded.DecodeFrom(&input).ok());
  EXPECT_TRUE(input.empty());
  EXPECT_EQ(12345u, decoded.metaindex_handle().offset());
  EXPECT_EQ(67u, decoded.metaindex_handle().size());
  EXPECT_EQ(1ull << 35, decoded.index_handle().offset());
  EXPECT_EQ(4096u, decoded.index_handle().size());
}

TEST(FooterTest, PaddingIsZero) {
  const std::string encoded = SmallFooter();
  // Four one-byte varints, then zeros up to the magic number.
  EXPECT_EQ(std::string("\x01\x02\x03\x04", 4), encoded.substr(0, 4));
  EXPECT_EQ(std::string(36, '\0'), encoded.substr(4, 36));
}

TEST(FooterTest, BadMagicIsCorruption) {
  const std::string encoded = SmallFooter();
  for (size_t i = 40; i < 48; ++i) {
    std::string bad = encoded;
    bad[i] ^= 0x01;
    Slice input(bad);
    Footer decoded;
    Status s = decoded.DecodeFrom(&input);
    ASSERT_TRUE(s.IsCorruption());
    EXPECT_NE(std::string::npos, s.ToString().find("bad magic number"));
  }
}

TEST(FooterTest, TooShortIsCorruption) {
  const std::string encoded = SmallFooter();
  Slice input(encoded.data() + 1, encoded.size() - 1);
  Footer decoded;
  EXPECT_TRUE(decoded.DecodeFrom(&input).IsCorruption());
}

TEST(FooterTest, GarbageHandlesAreCorruption) {
  // Correct magic, but the handle area holds an endless varint.
  std::string encoded(40, '\xff');
  AppendFixed64(&encoded, kTableMagicNumber);
  Slice input(encoded);
  Footer decoded;
  EXPECT_TRUE(decoded.DecodeFrom(&input).IsCorruption());
}

TEST(ReadBlockTest, RawBlockIsHandedOver) {
  const std::string payload = "some block payload";
  test::StringSource file("xx" + Framed(payload, kNoCompression));
  BlockContents contents;
  ASSERT_TRUE(
      ReadVerified(&file, BlockHandle(2, payload.size()), &contents).ok());
  EXPECT_EQ(payload, contents.data.ToString());
  EXPECT_TRUE(contents.heap_allocated);
  EXPECT_TRUE(contents.cachable);
  FreeContents(contents);
}

TEST(ReadBlockTest, MappedFileIsNotCopied) {
  const std::string payload = "mapped payload";
  test::StringSource file(Framed(payload, kNoCompression), /*mapped=*/true);
  BlockContents contents;
  ASSERT_TRUE(
      ReadVerified(&file, BlockHandle(0, payload.size()), &contents).ok());
  EXPECT_EQ(payload, contents.data.ToString());
  EXPECT_FALSE(contents.heap_allocated);
  EXPECT_FALSE(contents.cachable);
}

TEST(ReadBlockTest, ChecksumMismatchDetectedOnlyWhenVerifying) {
  const std::string payload = "checksummed payload";
  std::string framed = Framed(payload, kNoCompression);
  framed[3] ^= 0x20;
  test::StringSource file(framed);
  BlockContents contents;
  Status s = ReadVerified(&file, BlockHandle(0, payload.size()), &contents);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("block checksum mismatch"));

  ASSERT_TRUE(
      ReadBlock(&file, ReadOptions(), BlockHandle(0, payload.size()), &contents)
          .ok());
  EXPECT_NE(payload, contents.data.ToString());
  FreeContents(contents);
}

TEST(ReadBlockTest, ChecksumCoversTypeByte) {
  const std::string payload = "abc";
  std::string framed = Framed(payload, kNoCompression);
  framed[payload.size()] = kSnappyCompression;
  test::StringSource file(framed);
  BlockContents contents;
  EXPECT_TRUE(ReadVerified(&file, BlockHandle(0, payload.size()), &contents)
                  .IsCorruption());
}

TEST(ReadBlockTest, TruncatedReadIsCorruption) {
  const std::string payload = "0123456789";
  const std::string framed = Framed(payload, kNoCompression);
  for (size_t len = 0; len < framed.size(); ++len) {
    test::StringSource file(framed.substr(0, len));
    BlockContents contents;
    Status s = ReadVerified(&file, BlockHandle(0, payload.size()), &contents);
    ASSERT_TRUE(s.IsCorruption()) << len;
    EXPECT_NE(std::string::npos, s.ToString().find("truncated block read"));
  }
}

TEST(ReadBlockTest, FileErrorIsPassedThrough) {
  test::StringSource file("tiny");
  BlockContents contents;
  Status s = ReadVerified(&file, BlockHandle(100, 3), &contents);
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(s.IsCorruption());
}

TEST(ReadBlockTest, HugeHandleIsRejected) {
  test::StringSource file("tiny");
  BlockContents contents;
  EXPECT_TRUE(ReadVerified(&file, BlockHandle(0, ~uint64_t{0}), &contents)
                  .IsCorruption());
}

TEST(ReadBlockTest, UnknownTypeIsCorruption) {
  const std::string payload = "typed";
  for (int type : {2, 3, 0x7f, 0xff}) {
    test::StringSource file(Framed(payload, static_cast<char>(type)));
    BlockContents contents;
    Status s = ReadVerified(&file, BlockHandle(0, payload.size()), &contents);
    ASSERT_TRUE(s.IsCorruption());
    EXPECT_NE(std::string::npos, s.ToString().find("bad block type"));
  }
}

TEST(ReadBlockTest, SnappyBlocks) {
  std::string original;
  for (int i = 0; i < 200; ++i) original.append("repetitive text ");
  std::string compressed;
  if (!port::SnappyCompress(original.data(), original.size(), &compressed)) {
    // Without snappy, a snappy block must be reported as unsupported.
    ASSERT_FALSE(port::SnappyAvailable());
    test::StringSource file(Framed("whatever", kSnappyCompression));
    BlockContents contents;
    EXPECT_TRUE(ReadVerified(&file, BlockHandle(0, 8), &contents)
                    .IsNotSupportedError());
    return;
  }
  ASSERT_LT(compressed.size(), original.size());

  for (bool mapped : {false, true}) {
    test::StringSource file(Framed(compressed, kSnappyCompression), mapped);
    BlockContents contents;
    ASSERT_TRUE(
        ReadVerified(&file, BlockHandle(0, compressed.size()), &contents).ok());
    EXPECT_EQ(original, contents.data.ToString());
    // Decompressed data always lives in a fresh heap buffer.
    EXPECT_TRUE(contents.heap_allocated);
    EXPECT_TRUE(contents.cachable);
    FreeContents(contents);
  }

  // Damaged compressed bytes with a correct CRC.
  std::string damaged = compressed;
  for (size_t i = 1; i < damaged.size(); i += 3) damaged[i] ^= 0x5a;
  test::StringSource bad_file(Framed(damaged, kSnappyCompression));
  BlockContents contents;
  Status s = ReadVerified(&bad_file, BlockHandle(0, damaged.size()), &contents);
  if (s.ok()) {
    // Snappy may decode some damage into other bytes; it must not be the
    // original then. (The CRC is what protects real tables.)
    EXPECT_NE(original, contents.data.ToString());
    FreeContents(contents);
  } else {
    EXPECT_TRUE(s.IsCorruption());
  }

  // A length header that claims an enormous expansion.
  std::string absurd;
  AppendVarint32(&absurd, 0xfffffff0u);
  absurd.append("\x00\x01", 2);
  test::StringSource absurd_file(Framed(absurd, kSnappyCompression));
  s = ReadVerified(&absurd_file, BlockHandle(0, absurd.size()), &contents);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos,
            s.ToString().find("corrupted snappy compressed block contents"));
}

}  // namespace
}  // namespace leveldb
