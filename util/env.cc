// Out-of-line pieces of the Env interface and small file helpers built on it.
#include "leveldb/env.h"

#include <cstdarg>
#include <memory>

#include "leveldb/slice.h"
#include "util/env_util.h"

// Matches the guard in env.h: on Windows the macro must not rename our
// member definitions below.
#if defined(_WIN32) && defined(DeleteFile)
#undef DeleteFile
#endif

namespace leveldb {

Env::Env() = default;

Env::~Env() = default;

Status Env::NewAppendableFile(const std::string& fname, WritableFile** result) {
  *result = nullptr;
  return Status::NotSupported("NewAppendableFile is not implemented", fname);
}

// RemoveFile and DeleteFile default to each other, so a subclass only has to
// override one of them (old subclasses override DeleteFile, new ones
// RemoveFile). Overriding neither recurses forever, as in the reference.
Status Env::RemoveFile(const std::string& fname) { return DeleteFile(fname); }
Status Env::DeleteFile(const std::string& fname) { return RemoveFile(fname); }

// Same pairing for directories.
Status Env::RemoveDir(const std::string& dirname) { return DeleteDir(dirname); }
Status Env::DeleteDir(const std::string& dirname) { return RemoveDir(dirname); }

SequentialFile::~SequentialFile() = default;

RandomAccessFile::~RandomAccessFile() = default;

WritableFile::~WritableFile() = default;

Logger::~Logger() = default;

FileLock::~FileLock() = default;

void Log(Logger* info_log, const char* format, ...) {
  if (info_log == nullptr) return;
  std::va_list args;
  va_start(args, format);
  info_log->Logv(format, args);
  va_end(args);
}

namespace {

// Shared body of the two string writers; `sync` selects durability.
Status WriteWholeFile(Env* env, const Slice& data, const std::string& fname,
                      bool sync) {
  WritableFile* raw = nullptr;
  Status s = env->NewWritableFile(fname, &raw);
  if (!s.ok()) return s;
  std::unique_ptr<WritableFile> file(raw);
  s = file->Append(data);
  if (s.ok() && sync) s = file->Sync();
  if (s.ok()) s = file->Close();
  file.reset();  // Closes the descriptor before a possible removal.
  if (!s.ok()) env->RemoveFile(fname);
  return s;
}

}  // namespace

Status WriteStringToFile(Env* env, const Slice& data,
                         const std::string& fname) {
  return WriteWholeFile(env, data, fname, /*sync=*/false);
}

Status WriteStringToFileSync(Env* env, const Slice& data,
                             const std::string& fname) {
  return WriteWholeFile(env, data, fname, /*sync=*/true);
}

Status ReadFileToString(Env* env, const std::string& fname, std::string* data) {
  data->clear();
  SequentialFile* raw = nullptr;
  Status s = env->NewSequentialFile(fname, &raw);
  if (!s.ok()) return s;
  std::unique_ptr<SequentialFile> file(raw);
  constexpr size_t kChunk = 8192;
  std::unique_ptr<char[]> scratch(new char[kChunk]);
  while (true) {
    Slice piece;
    s = file->Read(kChunk, &piece, scratch.get());
    if (!s.ok() || piece.empty()) break;
    data->append(piece.data(), piece.size());
  }
  return s;
}

EnvWrapper::~EnvWrapper() = default;

}  // namespace leveldb
