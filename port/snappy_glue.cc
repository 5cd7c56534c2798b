// Snappy compression glue. Built with or without snappy; without it every
// call reports failure and snappy blocks read as NotSupported.
#include "port/port.h"

#if defined(LEVELDB_HAVE_SNAPPY)
#include <snappy.h>
#endif

namespace leveldb {
namespace port {

#if defined(LEVELDB_HAVE_SNAPPY)

bool SnappyAvailable() { return true; }

bool SnappyCompress(const char* input, size_t length, std::string* output) {
  output->resize(snappy::MaxCompressedLength(length));
  size_t written = 0;
  snappy::RawCompress(input, length, &(*output)[0], &written);
  output->resize(written);
  return true;
}

bool SnappyUncompressedLength(const char* input, size_t length,
                              size_t* result) {
  return snappy::GetUncompressedLength(input, length, result);
}

bool SnappyUncompress(const char* input, size_t length, char* output) {
  return snappy::RawUncompress(input, length, output);
}

#else

bool SnappyAvailable() { return false; }

bool SnappyCompress(const char*, size_t, std::string*) { return false; }

bool SnappyUncompressedLength(const char*, size_t, size_t*) { return false; }

bool SnappyUncompress(const char*, size_t, char*) { return false; }

#endif

}  // namespace port
}  // namespace leveldb
