// In-memory files and a vector-backed iterator for the table-layer tests,
// so they do not depend on a real Env.
#ifndef STORAGE_LEVELDB_TESTS_TABLE_TEST_HELPERS_H_
#define STORAGE_LEVELDB_TESTS_TABLE_TEST_HELPERS_H_

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"

namespace leveldb {
namespace test {

// Collects everything appended into a string.
class StringSink : public WritableFile {
 public:
  Status Append(const Slice& data) override {
    if (fail_appends_) return Status::IOError("injected append failure");
    contents_.append(data.data(), data.size());
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }

  const std::string& contents() const { return contents_; }
  void set_fail_appends(bool fail) { fail_appends_ = fail; }

 private:
  std::string contents_;
  bool fail_appends_ = false;
};

// Serves reads from a private copy of a string. In "mapped" mode it returns
// pointers into that copy instead of filling the scratch buffer, the way
// an mmap-backed file does.
class StringSource : public RandomAccessFile {
 public:
  explicit StringSource(std::string contents, bool mapped = false)
      : contents_(std::move(contents)), mapped_(mapped) {}

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    ++reads_;
    if (offset > contents_.size()) {
      *result = Slice();
      return Status::InvalidArgument("read past end of file");
    }
    const size_t available = contents_.size() - static_cast<size_t>(offset);
    n = std::min(n, available);
    if (mapped_) {
      *result = Slice(contents_.data() + offset, n);
    } else {
      if (n > 0) std::memcpy(scratch, contents_.data() + offset, n);
      *result = Slice(scratch, n);
    }
    return Status::OK();
  }

  uint64_t Size() const { return contents_.size(); }
  int reads() const { return reads_.load(); }

 private:
  const std::string contents_;
  const bool mapped_;
  // Atomic: RandomAccessFile::Read may be called from several threads.
  mutable std::atomic<int> reads_{0};
};

// An Env whose every random-access file is a copy of *contents; counts
// reads in *reads. Lets tests drive TableCache without touching disk.
class SingleFileEnv : public EnvWrapper {
 public:
  SingleFileEnv(const std::string* contents, int* reads)
      : EnvWrapper(Env::Default()), contents_(contents), reads_(reads) {}

  Status NewRandomAccessFile(const std::string&,
                             RandomAccessFile** result) override {
    *result = new CountingSource(*contents_, reads_);
    return Status::OK();
  }

 private:
  class CountingSource : public RandomAccessFile {
   public:
    CountingSource(const std::string& contents, int* reads)
        : source_(contents), reads_(reads) {}
    Status Read(uint64_t offset, size_t n, Slice* result,
                char* scratch) const override {
      ++*reads_;
      return source_.Read(offset, n, result, scratch);
    }

   private:
    StringSource source_;
    int* reads_;
  };

  const std::string* contents_;
  int* reads_;
};

using KVVector = std::vector<std::pair<std::string, std::string>>;

// Iterates a vector already sorted by `comparator`; may report a status.
class VectorIterator : public Iterator {
 public:
  VectorIterator(const Comparator* comparator, KVVector entries,
                 Status status = Status::OK())
      : comparator_(comparator),
        entries_(std::move(entries)),
        status_(std::move(status)),
        pos_(entries_.size()) {}

  bool Valid() const override { return pos_ < entries_.size(); }
  void SeekToFirst() override { pos_ = 0; }
  void SeekToLast() override {
    pos_ = entries_.empty() ? entries_.size() : entries_.size() - 1;
  }
  void Seek(const Slice& target) override {
    pos_ = 0;
    while (pos_ < entries_.size() &&
           comparator_->Compare(Slice(entries_[pos_].first), target) < 0) {
      ++pos_;
    }
  }
  void Next() override { ++pos_; }
  void Prev() override { pos_ = (pos_ == 0) ? entries_.size() : pos_ - 1; }
  Slice key() const override { return Slice(entries_[pos_].first); }
  Slice value() const override { return Slice(entries_[pos_].second); }
  Status status() const override { return status_; }

 private:
  const Comparator* const comparator_;
  const KVVector entries_;
  const Status status_;
  size_t pos_;
};

}  // namespace test
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_TABLE_TEST_HELPERS_H_
