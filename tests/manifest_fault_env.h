// An Env whose MANIFEST writes can be made to fail once, the way a full
// disk or a crash in the middle of a write leaves a MANIFEST: when armed,
// the next append of at least `min_bytes` bytes to a MANIFEST writes half
// of its data and reports an error, leaving a torn record.
#ifndef STORAGE_LEVELDB_TESTS_MANIFEST_FAULT_ENV_H_
#define STORAGE_LEVELDB_TESTS_MANIFEST_FAULT_ENV_H_

#include <memory>
#include <string>

#include "db/filename.h"
#include "leveldb/env.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/mutexlock.h"

namespace leveldb {
namespace test {

class TornManifestEnv : public EnvWrapper {
 public:
  explicit TornManifestEnv(Env* base, size_t min_bytes = 0)
      : EnvWrapper(base), min_bytes_(min_bytes) {}

  void Arm() {
    MutexLock l(&mu_);
    armed_ = true;
  }
  int failures() {
    MutexLock l(&mu_);
    return failures_;
  }

  Status NewWritableFile(const std::string& fname,
                         WritableFile** result) override {
    return Wrap(fname, target()->NewWritableFile(fname, result), result);
  }
  Status NewAppendableFile(const std::string& fname,
                           WritableFile** result) override {
    return Wrap(fname, target()->NewAppendableFile(fname, result), result);
  }

 private:
  class File : public WritableFile {
   public:
    File(TornManifestEnv* env, WritableFile* base) : env_(env), base_(base) {}
    Status Append(const Slice& data) override {
      if (data.size() >= env_->min_bytes_ && env_->TakeFault()) {
        base_->Append(Slice(data.data(), data.size() / 2));
        base_->Flush();
        return Status::IOError("MANIFEST", "No space left on device");
      }
      return base_->Append(data);
    }
    Status Close() override { return base_->Close(); }
    Status Flush() override { return base_->Flush(); }
    Status Sync() override { return base_->Sync(); }

   private:
    TornManifestEnv* const env_;
    std::unique_ptr<WritableFile> base_;
  };

  Status Wrap(const std::string& fname, Status s, WritableFile** result) {
    uint64_t number;
    FileType type;
    const size_t slash = fname.rfind('/');
    const std::string base =
        slash == std::string::npos ? fname : fname.substr(slash + 1);
    if (s.ok() && ParseFileName(base, &number, &type) &&
        type == kDescriptorFile) {
      *result = new File(this, *result);
    }
    return s;
  }

  bool TakeFault() {
    MutexLock l(&mu_);
    if (!armed_) return false;
    armed_ = false;
    ++failures_;
    return true;
  }

  const size_t min_bytes_;
  port::Mutex mu_;
  bool armed_ GUARDED_BY(mu_) = false;
  int failures_ GUARDED_BY(mu_) = 0;
};

}  // namespace test
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_MANIFEST_FAULT_ENV_H_
