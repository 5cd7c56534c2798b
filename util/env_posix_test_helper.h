// Knobs that let tests exercise the fallback paths of the POSIX Env.
#ifndef STORAGE_LEVELDB_UTIL_ENV_POSIX_TEST_HELPER_H_
#define STORAGE_LEVELDB_UTIL_ENV_POSIX_TEST_HELPER_H_

namespace leveldb {

class EnvPosixTestHelper {
 public:
  // Both setters only take effect when called before the first call to
  // Env::Default(), which reads the limits once while building the Env.

  // Largest number of read-only files that keep a descriptor open.
  static void SetReadOnlyFDLimit(int limit);

  // Largest number of read-only files that are memory-mapped.
  static void SetReadOnlyMMapLimit(int limit);
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_ENV_POSIX_TEST_HELPER_H_
