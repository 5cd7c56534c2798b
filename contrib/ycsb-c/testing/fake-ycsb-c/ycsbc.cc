// usage: ycsbc DBNAME PROPERTY_FILE
// Loads name=value lines as YCSB-C does (split at the first '=', nothing
// trimmed, '#' lines skipped), creates the database through the factory,
// then writes and reads back one record.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "db/db_factory.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: ycsbc DBNAME PROPERTY_FILE" << std::endl;
    return 2;
  }
  utils::Properties props;
  props.SetProperty("dbname", argv[1]);
  std::ifstream input(argv[2]);
  std::string line;
  while (std::getline(input, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t equals = line.find('=');
    if (equals == std::string::npos) continue;
    props.SetProperty(line.substr(0, equals), line.substr(equals + 1));
  }
  ycsbc::DB* db = ycsbc::DBFactory::CreateDB(props);
  if (db == NULL) {
    // YCSB-C's own reaction, status included.
    std::cout << "Unknown database name " << props["dbname"] << std::endl;
    std::exit(0);
  }
  db->Init();
  std::vector<ycsbc::DB::KVPair> record(1, ycsbc::DB::KVPair("f", "v"));
  std::vector<ycsbc::DB::KVPair> result;
  const bool ok = db->Insert("t", "key", record) == ycsbc::DB::kOK &&
                  db->Read("t", "key", NULL, result) == ycsbc::DB::kOK &&
                  result == record;
  db->Close();
  delete db;
  std::cout << (ok ? "fake ycsbc: record read back" : "fake ycsbc: FAILED")
            << std::endl;
  return ok ? 0 : 1;
}
