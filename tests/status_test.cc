// Status messages and copies, including the exact ToString() texts of 1.23.
#include "leveldb/status.h"

#include <string>
#include <utility>

#include "gtest/gtest.h"

namespace leveldb {
namespace {

TEST(StatusTest, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ("OK", s.ToString());
  EXPECT_TRUE(Status::OK().ok());
  EXPECT_FALSE(s.IsNotFound());
  EXPECT_FALSE(s.IsCorruption());
  EXPECT_FALSE(s.IsIOError());
  EXPECT_FALSE(s.IsNotSupportedError());
  EXPECT_FALSE(s.IsInvalidArgument());
}

TEST(StatusTest, ToStringTexts) {
  EXPECT_EQ("NotFound: missing", Status::NotFound("missing").ToString());
  EXPECT_EQ("Corruption: bad block",
            Status::Corruption("bad block").ToString());
  EXPECT_EQ("Not implemented: feature",
            Status::NotSupported("feature").ToString());
  EXPECT_EQ("Invalid argument: x", Status::InvalidArgument("x").ToString());
  EXPECT_EQ("IO error: /tmp/a: No such file",
            Status::IOError("/tmp/a", "No such file").ToString());
}

TEST(StatusTest, TwoPartMessage) {
  EXPECT_EQ("NotFound: a: b", Status::NotFound("a", "b").ToString());
  // An empty second part adds no separator.
  EXPECT_EQ("NotFound: a", Status::NotFound("a", "").ToString());
  EXPECT_EQ("Corruption: ", Status::Corruption("").ToString());
  EXPECT_EQ("Corruption: : detail",
            Status::Corruption("", "detail").ToString());
}

TEST(StatusTest, BinaryMessagesKeptIntact) {
  std::string msg("a\0b", 3);
  Status s = Status::IOError(msg);
  EXPECT_EQ(std::string("IO error: a\0b", 13), s.ToString());
}

TEST(StatusTest, Predicates) {
  EXPECT_TRUE(Status::NotFound("x").IsNotFound());
  EXPECT_TRUE(Status::Corruption("x").IsCorruption());
  EXPECT_TRUE(Status::NotSupported("x").IsNotSupportedError());
  EXPECT_TRUE(Status::InvalidArgument("x").IsInvalidArgument());
  EXPECT_TRUE(Status::IOError("x").IsIOError());
  EXPECT_FALSE(Status::IOError("x").ok());
  EXPECT_FALSE(Status::IOError("x").IsNotFound());
  EXPECT_FALSE(Status::NotFound("x").IsCorruption());
}

TEST(StatusTest, CopyIsIndependent) {
  Status original = Status::Corruption("first", "second");
  Status copy(original);
  EXPECT_EQ(original.ToString(), copy.ToString());
  original = Status::OK();
  EXPECT_TRUE(original.ok());
  EXPECT_EQ("Corruption: first: second", copy.ToString());

  Status assigned;
  assigned = copy;
  EXPECT_TRUE(assigned.IsCorruption());
  Status& alias = assigned;
  assigned = alias;  // Self-assignment leaves the status intact.
  EXPECT_EQ("Corruption: first: second", assigned.ToString());
}

TEST(StatusTest, MoveLeavesSourceValid) {
  Status ok = Status::OK();
  Status err = Status::NotFound("custom NotFound status message");
  ok = std::move(err);
  EXPECT_TRUE(ok.IsNotFound());
  EXPECT_EQ("NotFound: custom NotFound status message", ok.ToString());

  Status moved(std::move(ok));
  EXPECT_TRUE(moved.IsNotFound());

  Status self = Status::IOError("self");
  Status& alias = self;
  self = std::move(alias);
  EXPECT_EQ("IO error: self", self.ToString());
}

TEST(StatusTest, LongMessage) {
  std::string big(100000, 'z');
  Status s = Status::InvalidArgument(big, big);
  EXPECT_EQ(std::string("Invalid argument: ") + big + ": " + big, s.ToString());
  Status copy = s;
  EXPECT_EQ(s.ToString(), copy.ToString());
}

}  // namespace
}  // namespace leveldb
