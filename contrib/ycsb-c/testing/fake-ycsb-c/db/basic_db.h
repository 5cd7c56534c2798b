#ifndef FAKE_YCSB_C_BASIC_DB_H_
#define FAKE_YCSB_C_BASIC_DB_H_

#include <string>
#include <vector>

#include "core/db.h"

namespace ycsbc {

// Accepts everything and stores nothing.
class BasicDB : public DB {
 public:
  int Read(const std::string&, const std::string&,
           const std::vector<std::string>*, std::vector<KVPair>&) {
    return kOK;
  }
  int Scan(const std::string&, const std::string&, int,
           const std::vector<std::string>*,
           std::vector<std::vector<KVPair> >&) {
    return kOK;
  }
  int Update(const std::string&, const std::string&, std::vector<KVPair>&) {
    return kOK;
  }
  int Insert(const std::string&, const std::string&, std::vector<KVPair>&) {
    return kOK;
  }
  int Delete(const std::string&, const std::string&) { return kOK; }
};

}  // namespace ycsbc

#endif  // FAKE_YCSB_C_BASIC_DB_H_
