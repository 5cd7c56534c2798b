// Out-of-line members of Status. An error's state_ is one new[] buffer:
// [0..3] message length, [4] code, [5..] message bytes.
#include "leveldb/status.h"

#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace leveldb {

namespace {

constexpr size_t kHeaderBytes = 5;

uint32_t StoredLength(const char* state) {
  uint32_t len;
  std::memcpy(&len, state, sizeof(len));
  return len;
}

}  // namespace

const char* Status::CopyState(const char* state) {
  size_t total = kHeaderBytes + StoredLength(state);
  char* copy = new char[total];
  std::memcpy(copy, state, total);
  return copy;
}

Status::Status(Code code, const Slice& msg, const Slice& msg2) {
  assert(code != kOk);
  const bool has_detail = !msg2.empty();
  const size_t len = msg.size() + (has_detail ? 2 + msg2.size() : 0);
  const uint32_t len32 = static_cast<uint32_t>(len);

  char* buf = new char[kHeaderBytes + len];
  std::memcpy(buf, &len32, sizeof(len32));
  buf[4] = static_cast<char>(code);
  char* text = buf + kHeaderBytes;
  std::memcpy(text, msg.data(), msg.size());
  if (has_detail) {
    text += msg.size();
    text[0] = ':';
    text[1] = ' ';
    std::memcpy(text + 2, msg2.data(), msg2.size());
  }
  state_ = buf;
}

std::string Status::ToString() const {
  if (state_ == nullptr) return "OK";

  std::string out;
  switch (code()) {
    case kOk:
      out = "OK";
      break;
    case kNotFound:
      out = "NotFound: ";
      break;
    case kCorruption:
      out = "Corruption: ";
      break;
    case kNotSupported:
      out = "Not implemented: ";
      break;
    case kInvalidArgument:
      out = "Invalid argument: ";
      break;
    case kIOError:
      out = "IO error: ";
      break;
    default: {
      char label[40];
      std::snprintf(label, sizeof(label),
                    "Unknown code(%d): ", static_cast<int>(code()));
      out = label;
      break;
    }
  }
  out.append(state_ + kHeaderBytes, StoredLength(state_));
  return out;
}

}  // namespace leveldb
