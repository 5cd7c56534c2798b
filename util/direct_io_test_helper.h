// Switches that let tests reach the fallback paths of DirectIOEnv() on a
// filesystem that does support direct I/O. Not for production use.
#ifndef STORAGE_LEVELDB_UTIL_DIRECT_IO_TEST_HELPER_H_
#define STORAGE_LEVELDB_UTIL_DIRECT_IO_TEST_HELPER_H_

namespace leveldb {

class DirectIOTestHelper {
 public:
  // While on, opening a table file with O_DIRECT fails with EINVAL, as on a
  // filesystem without direct I/O, so files open in buffered mode.
  static void SimulateUnsupportedFilesystem(bool on);

  // While on, every direct read fails with EINVAL, as on filesystems that
  // accept O_DIRECT at open time but refuse the I/O.
  static void SimulateRefusedReads(bool on);
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_DIRECT_IO_TEST_HELPER_H_
