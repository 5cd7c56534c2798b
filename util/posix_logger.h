// Logger that appends timestamped lines to a stdio stream. Used for the LOG
// file of a database when the client does not supply its own Logger.
#ifndef STORAGE_LEVELDB_UTIL_POSIX_LOGGER_H_
#define STORAGE_LEVELDB_UTIL_POSIX_LOGGER_H_

#include <sys/time.h>

#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <sstream>
#include <string>
#include <thread>  // NOLINT

#include "leveldb/env.h"

namespace leveldb {

class PosixLogger final : public Logger {
 public:
  // Takes ownership of `stream` and closes it on destruction.
  explicit PosixLogger(std::FILE* stream) : stream_(stream) {}

  ~PosixLogger() override { std::fclose(stream_); }

  void Logv(const char* format, std::va_list ap) override {
    std::string line = LinePrefix();
    AppendFormatted(&line, format, ap);
    if (line.empty() || line.back() != '\n') line.push_back('\n');
    // One fwrite per line: stdio locks the stream per call, so lines written
    // by concurrent threads never interleave.
    std::fwrite(line.data(), 1, line.size(), stream_);
    std::fflush(stream_);
  }

 private:
  // "YYYY/MM/DD-HH:MM:SS.micros <thread id> " for the current moment.
  static std::string LinePrefix() {
    struct timeval now;
    ::gettimeofday(&now, nullptr);
    struct std::tm parts;
    ::localtime_r(&now.tv_sec, &parts);

    std::ostringstream id_stream;
    id_stream << std::this_thread::get_id();
    std::string thread_id = id_stream.str();

    char stamp[64];
    std::snprintf(stamp, sizeof(stamp), "%04d/%02d/%02d-%02d:%02d:%02d.%06d ",
                  parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                  parts.tm_hour, parts.tm_min, parts.tm_sec,
                  static_cast<int>(now.tv_usec));
    return std::string(stamp) + thread_id + " ";
  }

  // Appends printf-style output of any length to *out.
  static void AppendFormatted(std::string* out, const char* format,
                              std::va_list ap) {
    char small[512];
    std::va_list probe;
    va_copy(probe, ap);
    int needed = std::vsnprintf(small, sizeof(small), format, probe);
    va_end(probe);
    if (needed < 0) return;  // Encoding error: log only the prefix.
    if (static_cast<size_t>(needed) < sizeof(small)) {
      out->append(small, static_cast<size_t>(needed));
      return;
    }
    // Too long for the stack buffer: format again into an exact-size one.
    size_t old_size = out->size();
    out->resize(old_size + static_cast<size_t>(needed) + 1);
    std::va_list again;
    va_copy(again, ap);
    std::vsnprintf(&(*out)[old_size], static_cast<size_t>(needed) + 1, format,
                   again);
    va_end(again);
    out->resize(old_size + static_cast<size_t>(needed));
  }

  std::FILE* const stream_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_POSIX_LOGGER_H_
