// Key anchor for the FilterPolicy interface's vtable.
#include "leveldb/filter_policy.h"

namespace leveldb {

FilterPolicy::~FilterPolicy() = default;

}  // namespace leveldb
