// Names of the files that make up a database directory.
#ifndef STORAGE_LEVELDB_DB_FILENAME_H_
#define STORAGE_LEVELDB_DB_FILENAME_H_

#include <cstdint>
#include <string>

#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

class Env;

enum FileType {
  kLogFile,
  kDBLockFile,
  kTableFile,
  kDescriptorFile,
  kCurrentFile,
  kTempFile,
  kInfoLogFile  // LOG or LOG.old
};

// dbname/000123.log
std::string LogFileName(const std::string& dbname, uint64_t number);

// dbname/000123.ldb
std::string TableFileName(const std::string& dbname, uint64_t number);

// dbname/000123.sst, the table suffix of older releases (still read).
std::string SSTTableFileName(const std::string& dbname, uint64_t number);

// dbname/MANIFEST-000005
std::string DescriptorFileName(const std::string& dbname, uint64_t number);

// dbname/CURRENT: names the live MANIFEST.
std::string CurrentFileName(const std::string& dbname);

// dbname/LOCK
std::string LockFileName(const std::string& dbname);

// dbname/000123.dbtmp
std::string TempFileName(const std::string& dbname, uint64_t number);

// dbname/LOG
std::string InfoLogFileName(const std::string& dbname);

// dbname/LOG.old
std::string OldInfoLogFileName(const std::string& dbname);

// Classifies a bare file name (no directory). Returns false for names that
// are not database files; *number is 0 for files without a number.
bool ParseFileName(const std::string& filename, uint64_t* number,
                   FileType* type);

// Points CURRENT at MANIFEST-<descriptor_number>, atomically (write a temp
// file, then rename it).
Status SetCurrentFile(Env* env, const std::string& dbname,
                      uint64_t descriptor_number);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_DB_FILENAME_H_
