// Copyright (c) The LevelDB reimplementation authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.

// The include guard keeps the name used by the reference release, since
// some clients check for it.
#ifndef STORAGE_LEVELDB_HELPERS_MEMENV_MEMENV_H_
#define STORAGE_LEVELDB_HELPERS_MEMENV_MEMENV_H_

#include "leveldb/export.h"

namespace leveldb {

class Env;

// An Env whose files live purely in memory; everything that is not file
// storage (threads, clock, ...) is forwarded to *base_env, which must stay
// alive while the result is used.  The caller deletes the result.
LEVELDB_EXPORT Env* NewMemEnv(Env* base_env);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_HELPERS_MEMENV_MEMENV_H_
