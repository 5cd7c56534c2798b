// Local stand-in for YCSB-C's core/db.h, used ONLY to build and test the
// LevelDB binding outside YCSB-C (tests/ycsb_binding_test.cc). Written from
// the published description of YCSB-C's interface; inside a YCSB-C checkout
// the binding compiles against YCSB-C's own core/db.h instead.
#ifndef YCSB_C_TESTING_CORE_DB_H_
#define YCSB_C_TESTING_CORE_DB_H_

#include <string>
#include <utility>
#include <vector>

namespace ycsbc {

// A key-value store driven by YCSB-C's client threads. One object is shared
// by all threads; Init() and Close() run once per thread.
class DB {
 public:
  typedef std::pair<std::string, std::string> KVPair;  // field name, value

  static const int kOK = 0;
  static const int kErrorNoData = 1;
  static const int kErrorConflict = 2;

  virtual void Init() {}
  virtual void Close() {}

  // `fields` == NULL means all fields.
  virtual int Read(const std::string& table, const std::string& key,
                   const std::vector<std::string>* fields,
                   std::vector<KVPair>& result) = 0;
  virtual int Scan(const std::string& table, const std::string& key,
                   int record_count, const std::vector<std::string>* fields,
                   std::vector<std::vector<KVPair> >& result) = 0;
  virtual int Update(const std::string& table, const std::string& key,
                     std::vector<KVPair>& values) = 0;
  virtual int Insert(const std::string& table, const std::string& key,
                     std::vector<KVPair>& values) = 0;
  virtual int Delete(const std::string& table, const std::string& key) = 0;

  virtual ~DB() {}
};

}  // namespace ycsbc

#endif  // YCSB_C_TESTING_CORE_DB_H_
