// Env: everything the library asks of the operating system (files,
// directories, file locks, background threads, the clock, sleeping) goes
// through this interface.  A client can pass its own Env, for instance to
// limit I/O rates or to keep all files in memory.
//
// Implementations must be thread-safe: many threads call them at once.

#ifndef STORAGE_LEVELDB_INCLUDE_ENV_H_
#define STORAGE_LEVELDB_INCLUDE_ENV_H_

#include <cstdarg>
#include <cstdint>
#include <string>
#include <vector>

#include "leveldb/export.h"
#include "leveldb/status.h"

// <windows.h> defines DeleteFile as a macro.  If it were active here, the
// Env::DeleteFile member below would be renamed in some translation units
// but not in others, giving Env two incompatible definitions.  So the macro
// is suspended for the duration of this header and restored at the end.
// (Only needed while the deprecated Env::DeleteFile exists.)
#if defined(_WIN32)
#if defined(DeleteFile)
#undef DeleteFile
#define LEVELDB_DELETEFILE_UNDEFINED
#endif  // defined(DeleteFile)
#endif  // defined(_WIN32)

namespace leveldb {

class FileLock;
class Logger;
class RandomAccessFile;
class SequentialFile;
class Slice;
class WritableFile;

class LEVELDB_EXPORT Env {
 public:
  Env();

  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  virtual ~Env();

  // The shared Env of the host operating system.  The library owns it;
  // never delete it.
  static Env* Default();

  // Opens `fname` for reading from start to end.  Returns OK with *result
  // set to the new file, or an error with *result set to nullptr; a missing
  // file should give NotFound.  The file is never used by two threads at
  // once.
  virtual Status NewSequentialFile(const std::string& fname,
                                   SequentialFile** result) = 0;

  // Opens `fname` for reads at any offset.  Results and errors as for
  // NewSequentialFile.  The returned file must allow several threads to
  // read it at once.
  virtual Status NewRandomAccessFile(const std::string& fname,
                                     RandomAccessFile** result) = 0;

  // Creates `fname` empty for writing; an old file of that name loses its
  // contents.  Returns OK with *result set to the new file, or an error with
  // *result set to nullptr.  The file is never used by two threads at once.
  virtual Status NewWritableFile(const std::string& fname,
                                 WritableFile** result) = 0;

  // Opens `fname` so that writes go after its current end; a missing file
  // is created.  Results as for NewWritableFile.  An Env may refuse with
  // NotSupported; callers, the library among them, must handle that.
  virtual Status NewAppendableFile(const std::string& fname,
                                   WritableFile** result);

  // Whether a file or directory called `fname` exists.
  virtual bool FileExists(const std::string& fname) = 0;

  // Fills *result with the entry names of directory `dir` (bare names, no
  // path).
  virtual Status GetChildren(const std::string& dir,
                             std::vector<std::string>* result) = 0;

  // Removes the file `fname`.  Envs written for 1.23 override this one.
  // The default forwards to DeleteFile, so that an Env that only overrides
  // the old name keeps working.
  virtual Status RemoveFile(const std::string& fname);

  // Deprecated spelling of RemoveFile, still here for old sources; the
  // default forwards to RemoveFile.  New code should use RemoveFile.
  virtual Status DeleteFile(const std::string& fname);

  // Makes a new directory `dirname`.
  virtual Status CreateDir(const std::string& dirname) = 0;

  // Removes the directory `dirname`.  The default forwards to DeleteDir, so
  // that an Env that only overrides the old name keeps working.
  virtual Status RemoveDir(const std::string& dirname);

  // Deprecated spelling of RemoveDir, still here for old sources; the
  // default forwards to RemoveDir.  New code should use RemoveDir.
  virtual Status DeleteDir(const std::string& dirname);

  // Sets *file_size to the length of `fname` in bytes.
  virtual Status GetFileSize(const std::string& fname, uint64_t* file_size) = 0;

  // Moves `src` to the name `target`; an existing `target` is overwritten.
  virtual Status RenameFile(const std::string& src,
                            const std::string& target) = 0;

  // Locks the file `fname`, creating it when missing, so that a second
  // process cannot open the same database.  Returns an error at once,
  // without waiting, when the lock is already held.  On success sets *lock
  // to a handle for UnlockFile(); on error sets it to nullptr.  The
  // operating system drops the lock if the process dies.
  virtual Status LockFile(const std::string& fname, FileLock** lock) = 0;

  // Gives up a lock that LockFile() granted.  Call it once per lock.
  virtual Status UnlockFile(FileLock* lock) = 0;

  // Arranges for function(arg) to run once, later, on a background thread.
  // Neither order nor mutual exclusion between scheduled items is promised:
  // they may overlap, on any threads.
  virtual void Schedule(void (*function)(void* arg), void* arg) = 0;

  // Starts a new thread that runs function(arg) and exits when it returns.
  virtual void StartThread(void (*function)(void* arg), void* arg) = 0;

  // Sets *path to a directory that tests may use for scratch files.  It may
  // exist already; every call in one process gives the same directory.
  virtual Status GetTestDirectory(std::string* path) = 0;

  // Makes a Logger whose messages go to the file `fname`.
  virtual Status NewLogger(const std::string& fname, Logger** result) = 0;

  // A clock in microseconds with an unspecified zero; use it to measure
  // intervals only.
  virtual uint64_t NowMicros() = 0;

  // Pauses the calling thread for roughly `micros` microseconds.
  virtual void SleepForMicroseconds(int micros) = 0;
};

// A file read in order, from its start to its end.
class LEVELDB_EXPORT SequentialFile {
 public:
  SequentialFile() = default;

  SequentialFile(const SequentialFile&) = delete;
  SequentialFile& operator=(const SequentialFile&) = delete;

  virtual ~SequentialFile();

  // Reads up to n bytes into *result.  The data may be put in
  // scratch[0..n-1] with *result pointing there, so keep scratch alive while
  // *result is used.  Getting fewer than n bytes (at end of file, say) is
  // not an error.  Not thread-safe: callers synchronise.
  virtual Status Read(size_t n, Slice* result, char* scratch) = 0;

  // Skips n bytes, at least as fast as reading them would be.  Skipping
  // beyond the end leaves the file at its end and returns OK.  Not
  // thread-safe: callers synchronise.
  virtual Status Skip(uint64_t n) = 0;
};

// A file read at any offsets, in any order.
class LEVELDB_EXPORT RandomAccessFile {
 public:
  RandomAccessFile() = default;

  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  virtual ~RandomAccessFile();

  // Reads up to n bytes starting at byte `offset`, with the *result and
  // scratch rules of SequentialFile::Read.  Thread-safe.
  virtual Status Read(uint64_t offset, size_t n, Slice* result,
                      char* scratch) const = 0;
};

// A file written from start to end.  The library appends many small pieces,
// so implementations should buffer them.
class LEVELDB_EXPORT WritableFile {
 public:
  WritableFile() = default;

  WritableFile(const WritableFile&) = delete;
  WritableFile& operator=(const WritableFile&) = delete;

  virtual ~WritableFile();

  virtual Status Append(const Slice& data) = 0;
  virtual Status Close() = 0;
  virtual Status Flush() = 0;
  virtual Status Sync() = 0;
};

// Receives the library's diagnostic text messages.
class LEVELDB_EXPORT Logger {
 public:
  Logger() = default;

  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  virtual ~Logger();

  // Records one message built from a printf-style format and arguments.
  virtual void Logv(const char* format, std::va_list ap) = 0;
};

// What Env::LockFile() hands out; give it back to Env::UnlockFile().
class LEVELDB_EXPORT FileLock {
 public:
  FileLock() = default;

  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  virtual ~FileLock();
};

// Formats a printf-style message and sends it to info_log; a null info_log
// discards it.
void Log(Logger* info_log, const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((__format__(__printf__, 2, 3)))
#endif
    ;

// Creates or overwrites `fname` so that it holds exactly `data`.
LEVELDB_EXPORT Status WriteStringToFile(Env* env, const Slice& data,
                                        const std::string& fname);

// Sets *data to everything stored in the file `fname`.
LEVELDB_EXPORT Status ReadFileToString(Env* env, const std::string& fname,
                                       std::string* data);

// Forwards every call to a target Env.  Subclass it and override only the
// calls whose behaviour should change.
class LEVELDB_EXPORT EnvWrapper : public Env {
 public:
  // *t receives the calls; it must outlive this object.
  explicit EnvWrapper(Env* t) : target_(t) {}
  virtual ~EnvWrapper();

  // The Env that receives the calls.
  Env* target() const { return target_; }

  // Each override below only forwards to target_.
  Status NewSequentialFile(const std::string& f, SequentialFile** r) override {
    return target_->NewSequentialFile(f, r);
  }
  Status NewRandomAccessFile(const std::string& f,
                             RandomAccessFile** r) override {
    return target_->NewRandomAccessFile(f, r);
  }
  Status NewWritableFile(const std::string& f, WritableFile** r) override {
    return target_->NewWritableFile(f, r);
  }
  Status NewAppendableFile(const std::string& f, WritableFile** r) override {
    return target_->NewAppendableFile(f, r);
  }
  bool FileExists(const std::string& f) override {
    return target_->FileExists(f);
  }
  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* r) override {
    return target_->GetChildren(dir, r);
  }
  Status RemoveFile(const std::string& f) override {
    return target_->RemoveFile(f);
  }
  Status CreateDir(const std::string& d) override {
    return target_->CreateDir(d);
  }
  Status RemoveDir(const std::string& d) override {
    return target_->RemoveDir(d);
  }
  Status GetFileSize(const std::string& f, uint64_t* s) override {
    return target_->GetFileSize(f, s);
  }
  Status RenameFile(const std::string& s, const std::string& t) override {
    return target_->RenameFile(s, t);
  }
  Status LockFile(const std::string& f, FileLock** l) override {
    return target_->LockFile(f, l);
  }
  Status UnlockFile(FileLock* l) override { return target_->UnlockFile(l); }
  void Schedule(void (*f)(void*), void* a) override { target_->Schedule(f, a); }
  void StartThread(void (*f)(void*), void* a) override {
    target_->StartThread(f, a);
  }
  Status GetTestDirectory(std::string* path) override {
    return target_->GetTestDirectory(path);
  }
  Status NewLogger(const std::string& fname, Logger** result) override {
    return target_->NewLogger(fname, result);
  }
  uint64_t NowMicros() override { return target_->NowMicros(); }
  void SleepForMicroseconds(int micros) override {
    target_->SleepForMicroseconds(micros);
  }

 private:
  Env* target_;
};

}  // namespace leveldb

// Put back the <windows.h> DeleteFile macro suspended at the top.
#if defined(_WIN32) && defined(LEVELDB_DELETEFILE_UNDEFINED)
#if defined(UNICODE)
#define DeleteFile DeleteFileW
#else
#define DeleteFile DeleteFileA
#endif  // defined(UNICODE)
#endif  // defined(_WIN32) && defined(LEVELDB_DELETEFILE_UNDEFINED)

#endif  // STORAGE_LEVELDB_INCLUDE_ENV_H_
