// Helpers shared by the unit tests.
#ifndef STORAGE_LEVELDB_TESTS_TEST_UTIL_H_
#define STORAGE_LEVELDB_TESTS_TEST_UTIL_H_

#include <cstdint>
#include <string>

#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/slice.h"
#include "util/random.h"

namespace leveldb {
namespace test {

// len random bytes of any value.
std::string RandomBytes(Random* rnd, size_t len);

// len random printable characters.
std::string RandomString(Random* rnd, size_t len);

// A key of len bytes drawn from a small alphabet that includes 0x00 and 0xff,
// so that comparator edge cases show up often.
std::string RandomKey(Random* rnd, size_t len);

// len bytes that compress to about fraction * len.
std::string CompressibleString(Random* rnd, double fraction, size_t len);

// A fresh, empty directory for this test (under $TEST_TMPDIR or /tmp),
// unique per process and per call.
std::string NewTempDir(Env* env, const std::string& tag);

// Tables per level of db, every level, comma-separated: "1,1,1,0,0,0,0".
std::string FilesPerLevel(DB* db);

// DestroyDB(dbname) with env, then the directory and whatever is left in it.
void DestroyTempDB(Env* env, const std::string& dbname);

// Removes dir and everything in it (one level of files plus subdirectories
// one level deep, which is all the database layout uses).
void RemoveDirRecursively(Env* env, const std::string& dir);

// The 48-byte iSCSI read command of RFC 3720, appendix B.4: a published
// CRC-32C test vector, also a fixed input for the hash tests.
std::string IscsiReadCommand();

// Seed for randomized tests: $TEST_RANDOM_SEED if set, else a fixed value,
// so that failures reproduce.
uint32_t RandomSeed();

}  // namespace test
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_TEST_UTIL_H_
