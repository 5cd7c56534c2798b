// Out-of-line pieces of the POSIX port that have no better home.
#include "port/port.h"

namespace leveldb {
namespace port {

#if !defined(LEVELDB_HAVE_SSE42)
// Built without port/crc32c_sse42.cc: callers use the portable CRC.
bool AcceleratedCRC32C(uint32_t /*crc*/, const char* /*data*/, size_t /*size*/,
                       uint32_t* /*result*/) {
  return false;
}
#endif

}  // namespace port
}  // namespace leveldb
