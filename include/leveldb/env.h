// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.
//
// Env is the library's window onto the operating system: files, directory
// operations, locking, background threads, the clock and sleeping.  Clients
// can supply their own Env (for example to throttle I/O or to keep
// everything in memory).
//
// Every Env implementation must tolerate concurrent calls from many threads.

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

  // The process-wide Env for the host operating system.  It is owned by the
  // library and must not be deleted.
  static Env* Default();

  // Opens `fname` for reading front to back.  On success stores the new
  // file in *result and returns OK; otherwise stores nullptr and returns an
  // error (NotFound when the file does not exist).  The file is used by one
  // thread at a time.
  virtual Status NewSequentialFile(const std::string& fname,
                                   SequentialFile** result) = 0;

  // Opens `fname` for positional reads.  Success/failure conventions as for
  // NewSequentialFile (NotFound for a missing file).  The returned object
  // must support concurrent reads from several threads.
  virtual Status NewRandomAccessFile(const std::string& fname,
                                     RandomAccessFile** result) = 0;

  // Creates `fname` for writing, truncating any existing file of that name.
  // On success stores the new file in *result and returns OK; otherwise
  // stores nullptr and returns an error.  Used by one thread at a time.
  virtual Status NewWritableFile(const std::string& fname,
                                 WritableFile** result) = 0;

  // Opens `fname` for writing at its end, creating it if needed.  Same
  // conventions as NewWritableFile.  An Env may decline with a
  // NotSupported error, and callers (the library included) have to cope.
  virtual Status NewAppendableFile(const std::string& fname,
                                   WritableFile** result);

  // True when `fname` exists.
  virtual bool FileExists(const std::string& fname) = 0;

  // Replaces *result with the names (relative to `dir`) of the entries in
  // directory `dir`.
  virtual Status GetChildren(const std::string& dir,
                             std::vector<std::string>* result) = 0;

  // Deletes `fname`. Implementations written for 1.23 override this; the
  // base version calls DeleteFile so an Env written against the old name
  // still works.
  virtual Status RemoveFile(const std::string& fname);

  // Old name of RemoveFile, kept for source compatibility; the base version
  // calls RemoveFile. Prefer RemoveFile in new code.
  virtual Status DeleteFile(const std::string& fname);

  // Creates the directory `dirname`.
  virtual Status CreateDir(const std::string& dirname) = 0;

  // Deletes the directory `dirname`. The base version calls DeleteDir, for
  // Env implementations written against the old name.
  virtual Status RemoveDir(const std::string& dirname);

  // Old name of RemoveDir, kept for source compatibility; the base version
  // calls RemoveDir. Prefer RemoveDir in new code.
  virtual Status DeleteDir(const std::string& dirname);

  // Stores the size in bytes of `fname` in *file_size.
  virtual Status GetFileSize(const std::string& fname, uint64_t* file_size) = 0;

  // Renames `src` to `target`, replacing `target` if it exists.
  virtual Status RenameFile(const std::string& src,
                            const std::string& target) = 0;

  // Takes an exclusive lock on `fname` (creating the file if necessary) so
  // that two processes cannot open the same database.  Never waits: if the
  // lock is held elsewhere the call fails at once.  On success *lock
  // receives a handle to pass to UnlockFile(); on failure it is set to
  // nullptr.  Locks vanish automatically when the process exits.
  virtual Status LockFile(const std::string& fname, FileLock** lock) = 0;

  // Drops a lock obtained from a successful LockFile() call.  Each lock may
  // be released only once.
  virtual Status UnlockFile(FileLock* lock) = 0;

  // Queues function(arg) to run once on some background thread.  Queued
  // work items may run concurrently with each other and in any thread, so
  // callers must not assume they are serialised.
  virtual void Schedule(void (*function)(void* arg), void* arg) = 0;

  // Runs function(arg) on a brand-new thread, which ends when the function
  // returns.
  virtual void StartThread(void (*function)(void* arg), void* arg) = 0;

  // Stores in *path a scratch directory for tests.  It may already exist.
  // Repeated calls within one process yield the same directory.
  virtual Status GetTestDirectory(std::string* path) = 0;

  // Creates a Logger that writes informational messages to `fname`.
  virtual Status NewLogger(const std::string& fname, Logger** result) = 0;

  // Microseconds elapsed since an arbitrary fixed origin.  Only differences
  // between two readings are meaningful.
  virtual uint64_t NowMicros() = 0;

  // Blocks the calling thread for about `micros` microseconds.
  virtual void SleepForMicroseconds(int micros) = 0;
};

// A file that is read from start to end.
class LEVELDB_EXPORT SequentialFile {
 public:
  SequentialFile() = default;

  SequentialFile(const SequentialFile&) = delete;
  SequentialFile& operator=(const SequentialFile&) = delete;

  virtual ~SequentialFile();

  // Reads at most n bytes.  The implementation may use scratch[0, n) as a
  // buffer and point *result into it, so scratch must outlive any use of
  // *result.  A short read (including at end of file) is not an error.
  // Callers provide their own synchronisation.
  virtual Status Read(size_t n, Slice* result, char* scratch) = 0;

  // Moves forward n bytes without returning them; never slower than
  // reading them.  Skipping past the end stops at the end and returns OK.
  // Callers provide their own synchronisation.
  virtual Status Skip(uint64_t n) = 0;
};

// A file that is read at arbitrary offsets.
class LEVELDB_EXPORT RandomAccessFile {
 public:
  RandomAccessFile() = default;

  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  virtual ~RandomAccessFile();

  // Reads at most n bytes beginning at `offset`.  Buffer conventions are
  // those of SequentialFile::Read.  May be called from several threads at
  // once.
  virtual Status Read(uint64_t offset, size_t n, Slice* result,
                      char* scratch) const = 0;
};

// A file that is written sequentially.  Callers append many small pieces,
// so implementations are expected to buffer.
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

// Sink for diagnostic text messages.
class LEVELDB_EXPORT Logger {
 public:
  Logger() = default;

  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  virtual ~Logger();

  // Formats one message printf-style and records it.
  virtual void Logv(const char* format, std::va_list ap) = 0;
};

// Handle for a lock obtained through Env::LockFile().
class LEVELDB_EXPORT FileLock {
 public:
  FileLock() = default;

  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  virtual ~FileLock();
};

// printf-style message to info_log; does nothing when info_log is null.
void Log(Logger* info_log, const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((__format__(__printf__, 2, 3)))
#endif
    ;

// Writes `data` to the file `fname`, replacing its contents.
LEVELDB_EXPORT Status WriteStringToFile(Env* env, const Slice& data,
                                        const std::string& fname);

// Replaces *data with the full contents of the file `fname`.
LEVELDB_EXPORT Status ReadFileToString(Env* env, const std::string& fname,
                                       std::string* data);

// An Env that passes every call through to another Env.  Handy as a base
// class for an Env that wants to change only a few operations.
class LEVELDB_EXPORT EnvWrapper : public Env {
 public:
  // Forwards to *t, which must outlive this object.
  explicit EnvWrapper(Env* t) : target_(t) {}
  virtual ~EnvWrapper();

  // The Env being forwarded to.
  Env* target() const { return target_; }

  // Pure delegation from here on.
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
