// In-memory files, a vector-backed iterator and iterator checks for the
// table-layer tests, so they do not depend on a real Env.
#ifndef STORAGE_LEVELDB_TESTS_TABLE_TEST_HELPERS_H_
#define STORAGE_LEVELDB_TESTS_TABLE_TEST_HELPERS_H_

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "util/random.h"

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

// The first of `entries` (sorted by `cmp`) whose key is >= `key`.
inline KVVector::const_iterator LowerBound(const KVVector& entries,
                                           const Comparator* cmp,
                                           const Slice& key) {
  return std::lower_bound(
      entries.begin(), entries.end(), key,
      [cmp](const std::pair<std::string, std::string>& e, const Slice& k) {
        return cmp->Compare(e.first, k) < 0;
      });
}

// Expects `it` to find nothing: not valid after SeekToFirst, SeekToLast or
// Seek(target), and an OK status.
inline void ExpectEmptyIterator(Iterator* it, const Slice& target) {
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek(target);
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
}

// The keys of `it`, first to last.
inline std::vector<std::string> ForwardKeys(Iterator* it) {
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    keys.push_back(it->key().ToString());
  }
  return keys;
}

// The keys of `it`, last to first.
inline std::vector<std::string> BackwardKeys(Iterator* it) {
  std::vector<std::string> keys;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    keys.push_back(it->key().ToString());
  }
  return keys;
}

// Drives `it` through `num_moves` random moves and checks after each one
// that it stands where it would in `model`, the same entries sorted by
// `cmp`. The moves are SeekToFirst, SeekToLast, Seek to a key made by
// `random_target`, Next and Prev; Next is drawn `next_weight` times as often
// as each of the others. Run it under ASSERT_NO_FATAL_FAILURE.
inline void CheckRandomMoves(
    Iterator* it, const KVVector& model, const Comparator* cmp, Random* rnd,
    int num_moves, int next_weight,
    const std::function<std::string()>& random_target) {
  // Moves 0..2 are the seeks, the next `next_weight` ones Next, the last Prev.
  const int num_choices = 4 + next_weight;
  size_t pos = model.size();  // model.size() stands for "not valid"
  for (int move = 0; move < num_moves; ++move) {
    const int choice = static_cast<int>(rnd->Uniform(num_choices));
    switch (choice) {
      case 0:
        it->SeekToFirst();
        pos = 0;
        break;
      case 1:
        it->SeekToLast();
        pos = model.empty() ? 0 : model.size() - 1;
        break;
      case 2: {
        const std::string target = random_target();
        it->Seek(target);
        pos = LowerBound(model, cmp, target) - model.begin();
        break;
      }
      default:
        if (pos == model.size()) break;  // stepping needs a position
        if (choice < num_choices - 1) {
          it->Next();
          ++pos;
        } else {
          it->Prev();
          pos = (pos == 0) ? model.size() : pos - 1;
        }
        break;
    }
    ASSERT_EQ(pos < model.size(), it->Valid()) << "move " << move;
    if (pos < model.size()) {
      ASSERT_EQ(model[pos].first, it->key().ToString());
      ASSERT_EQ(model[pos].second, it->value().ToString());
    }
  }
}

}  // namespace test
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_TABLE_TEST_HELPERS_H_
