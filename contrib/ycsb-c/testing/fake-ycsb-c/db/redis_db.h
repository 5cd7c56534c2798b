#ifndef FAKE_YCSB_C_REDIS_DB_H_
#define FAKE_YCSB_C_REDIS_DB_H_

// Present only once redis/Makefile has fetched and installed hiredis.
#include "redis/hiredis/hiredis.h"

#endif  // FAKE_YCSB_C_REDIS_DB_H_
