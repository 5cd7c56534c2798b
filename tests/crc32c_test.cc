// CRC-32C against published test vectors, plus agreement between the
// portable and hardware paths.
#include "util/crc32c.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "port/port.h"
#include "tests/test_util.h"
#include "util/random.h"

namespace leveldb {
namespace crc32c {
namespace {

uint32_t Crc(const std::string& s) { return Value(s.data(), s.size()); }

TEST(Crc32cTest, StandardVectors) {
  // Vectors from RFC 3720 (iSCSI), appendix B.4.
  EXPECT_EQ(0x8a9136aau, Crc(std::string(32, '\0')));
  EXPECT_EQ(0x62a8ab43u, Crc(std::string(32, '\xff')));

  std::string ascending(32, '\0');
  std::string descending(32, '\0');
  for (int i = 0; i < 32; ++i) {
    ascending[i] = static_cast<char>(i);
    descending[i] = static_cast<char>(31 - i);
  }
  EXPECT_EQ(0x46dd794eu, Crc(ascending));
  EXPECT_EQ(0x113fdb5cu, Crc(descending));

  EXPECT_EQ(0xd9963a56u, Crc(test::IscsiReadCommand()));

  // The customary "check" value of the algorithm.
  EXPECT_EQ(0xe3069283u, Crc("123456789"));
}

TEST(Crc32cTest, PortablePathMatchesVectors) {
  std::string zeros(32, '\0');
  EXPECT_EQ(0x8a9136aau, ExtendPortable(0, zeros.data(), zeros.size()));
  EXPECT_EQ(0xe3069283u, ExtendPortable(0, "123456789", 9));
  EXPECT_EQ(0u, ExtendPortable(0, "", 0));
}

TEST(Crc32cTest, EmptyInputKeepsCrc) {
  EXPECT_EQ(0u, Value("", 0));
  EXPECT_EQ(0x12345678u, Extend(0x12345678u, "", 0));
}

TEST(Crc32cTest, DifferentInputsDiffer) {
  EXPECT_NE(Crc("a"), Crc("foo"));
  EXPECT_NE(Crc("a"), Crc("b"));
  EXPECT_NE(Crc("ab"), Crc("ba"));
}

TEST(Crc32cTest, ExtendComposes) {
  Random rnd(301);
  std::string data(1000, '\0');
  for (char& c : data) c = static_cast<char>(rnd.Uniform(256));
  const uint32_t whole = Value(data.data(), data.size());
  for (size_t split = 0; split <= data.size(); split += 37) {
    uint32_t head = Value(data.data(), split);
    EXPECT_EQ(whole, Extend(head, data.data() + split, data.size() - split))
        << "split " << split;
  }
  EXPECT_EQ(Crc("hello world"), Extend(Crc("hello "), "world", 5));
}

TEST(Crc32cTest, MaskRoundTrips) {
  const uint32_t crc = Crc("foo");
  EXPECT_NE(crc, Mask(crc));
  EXPECT_NE(crc, Mask(Mask(crc)));
  EXPECT_EQ(crc, Unmask(Mask(crc)));
  EXPECT_EQ(crc, Unmask(Unmask(Mask(Mask(crc)))));
  for (uint32_t v : {0u, 1u, 0x80000000u, 0xffffffffu, 0xdeadbeefu}) {
    EXPECT_EQ(v, Unmask(Mask(v)));
  }
  // Rotation right by 15 plus the delta, as stored on disk.
  EXPECT_EQ(0xa282ead8u, Mask(0));
  EXPECT_EQ((1u << 17) + 0xa282ead8u, Mask(1));
}

TEST(Crc32cTest, PortableAndAcceleratedAgree) {
  Random rnd(42);
  // Room for every length at every start offset within an 8-byte word.
  std::vector<char> buf(300 + 16);
  for (char& c : buf) c = static_cast<char>(rnd.Uniform(256));

  uint32_t probe;
  const bool accelerated = port::AcceleratedCRC32C(0, buf.data(), 1, &probe);
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t len = 0; len <= 300; ++len) {
      const char* start = buf.data() + offset;
      const uint32_t init = rnd.Next();
      const uint32_t portable = ExtendPortable(init, start, len);
      EXPECT_EQ(portable, Extend(init, start, len))
          << "offset " << offset << " len " << len;
      if (accelerated) {
        uint32_t hw = 0;
        ASSERT_TRUE(port::AcceleratedCRC32C(init, start, len, &hw));
        EXPECT_EQ(portable, hw) << "offset " << offset << " len " << len;
      }
    }
  }
}

TEST(Crc32cTest, PathsAgreeOnLongInputs) {
  // Long enough for the hardware path's interleaved stripes (768-byte
  // rounds) plus every kind of remainder after them.
  Random rnd(7);
  std::vector<char> buf(200000 + 16);
  for (char& c : buf) c = static_cast<char>(rnd.Uniform(256));
  for (size_t len : {767u, 768u, 769u, 775u, 776u, 1535u, 1536u, 1537u, 2304u,
                     4096u, 4099u, 32768u, 100003u, 200000u}) {
    for (size_t offset : {0u, 1u, 3u, 7u}) {
      const char* start = buf.data() + offset;
      const uint32_t init = rnd.Next();
      EXPECT_EQ(ExtendPortable(init, start, len), Extend(init, start, len))
          << "offset " << offset << " len " << len;
    }
  }
  // Composition across the stripe boundary.
  const uint32_t whole = Value(buf.data(), 5000);
  EXPECT_EQ(whole, Extend(Value(buf.data(), 1000), buf.data() + 1000, 4000));
}

TEST(Crc32cTest, AcceleratedMatchesVectorsWhenPresent) {
  uint32_t result = 0;
  if (port::AcceleratedCRC32C(0, "123456789", 9, &result)) {
    EXPECT_EQ(0xe3069283u, result);
  } else {
    // Without hardware support the port layer must leave *result alone.
    EXPECT_EQ(0u, result);
  }
}

}  // namespace
}  // namespace crc32c
}  // namespace leveldb
