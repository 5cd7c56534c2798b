// Status says how an operation went: OK, or an error kind (NotFound,
// Corruption, NotSupported, InvalidArgument, IOError) with a message for
// people to read.
//
// Threading: sharing one Status between threads is safe for const methods
// only; as soon as a thread may modify it, guard every use of it with one
// mutex.

#ifndef STORAGE_LEVELDB_INCLUDE_STATUS_H_
#define STORAGE_LEVELDB_INCLUDE_STATUS_H_

#include <algorithm>
#include <string>

#include "leveldb/export.h"
#include "leveldb/slice.h"

namespace leveldb {

class LEVELDB_EXPORT Status {
 public:
  // The default-constructed Status means success.
  Status() noexcept : state_(nullptr) {}
  ~Status() { delete[] state_; }

  Status(const Status& rhs);
  Status& operator=(const Status& rhs);

  Status(Status&& rhs) noexcept : state_(rhs.state_) { rhs.state_ = nullptr; }
  Status& operator=(Status&& rhs) noexcept;

  // Success.
  static Status OK() { return Status(); }

  // Factories for each error kind.  When msg2 is non-empty the stored
  // message is "msg: msg2".
  static Status NotFound(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kNotFound, msg, msg2);
  }
  static Status Corruption(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kCorruption, msg, msg2);
  }
  static Status NotSupported(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kNotSupported, msg, msg2);
  }
  static Status InvalidArgument(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kInvalidArgument, msg, msg2);
  }
  static Status IOError(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIOError, msg, msg2);
  }

  // True for success.
  bool ok() const { return state_ == nullptr; }

  // Predicates for the individual error kinds.
  bool IsNotFound() const { return code() == kNotFound; }
  bool IsCorruption() const { return code() == kCorruption; }
  bool IsIOError() const { return code() == kIOError; }
  bool IsNotSupportedError() const { return code() == kNotSupported; }
  bool IsInvalidArgument() const { return code() == kInvalidArgument; }

  // Printable form: "OK" on success, otherwise the kind followed by the
  // message.
  std::string ToString() const;

 private:
  enum Code {
    kOk = 0,
    kNotFound = 1,
    kCorruption = 2,
    kNotSupported = 3,
    kInvalidArgument = 4,
    kIOError = 5
  };

  Code code() const {
    if (state_ == nullptr) return kOk;
    return static_cast<Code>(state_[4]);
  }

  Status(Code code, const Slice& msg, const Slice& msg2);
  static const char* CopyState(const char* s);

  // Null on success.  For an error it owns a buffer obtained with new[]:
  // bytes 0..3 hold the message length (32-bit), byte 4 holds the Code and
  // the message text follows from byte 5 on (not NUL-terminated).  The
  // inline members above depend on this layout, so it is part of the ABI.
  const char* state_;
};

inline Status::Status(const Status& rhs)
    : state_(rhs.state_ == nullptr ? nullptr : CopyState(rhs.state_)) {}

inline Status& Status::operator=(const Status& rhs) {
  // Equal pointers cover both self-assignment and the frequent "both OK"
  // case; nothing needs to happen then.
  if (state_ == rhs.state_) return *this;
  delete[] state_;
  state_ = (rhs.state_ == nullptr) ? nullptr : CopyState(rhs.state_);
  return *this;
}

inline Status& Status::operator=(Status&& rhs) noexcept {
  // Hand our old buffer to rhs; its destructor will release it.
  std::swap(state_, rhs.state_);
  return *this;
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_INCLUDE_STATUS_H_
