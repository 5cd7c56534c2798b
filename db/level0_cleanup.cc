#include "db/level0_cleanup.h"

#include <algorithm>

namespace leveldb {

// The exchange rate of seek compaction (AllowedSeeksForSize): one probe is
// worth about 16 KiB of compaction, and no fewer than 100 probes.
uint64_t Level0Cleanup::ReadsAllowed(uint64_t rewrite_bytes) {
  return std::max<uint64_t>(100, rewrite_bytes / 16384);
}

}  // namespace leveldb
