// Command line of the YCSB runner, in YCSB-C's style:
//
//   ycsb -db leveldb [-threads N] -P workloads/workloada.spec [-P more.spec]
//        [-p key=value ...] [-load] [-run] [-dbpath DIR] [-fresh]
//
// -load and -run select the phases; with neither, both run (load, then
// run). -p settings override every -P file whatever their order, as in YCSB;
// later -P files override earlier ones.
#ifndef LEVELDB_BENCHMARKS_YCSB_COMMAND_LINE_H_
#define LEVELDB_BENCHMARKS_YCSB_COMMAND_LINE_H_

#include <string>
#include <vector>

#include "leveldb/status.h"
#include "properties.h"

namespace ycsb {

struct CommandLine {
  std::string db = "leveldb";
  int threads = 1;
  std::vector<std::string> spec_files;
  std::vector<std::string> overrides;  // "key=value" from -p
  bool load = false;
  bool run = false;
  std::string db_path;  // empty: leveldb.dbpath or its default
  bool fresh = false;   // destroy the database before loading
  bool help = false;
};

leveldb::Status ParseCommandLine(const std::vector<std::string>& args,
                                 CommandLine* command_line);

// Spec files in order, then the -p overrides, then -dbpath.
leveldb::Status BuildProperties(const CommandLine& command_line,
                                Properties* props);

const char* UsageText();

}  // namespace ycsb

#endif  // LEVELDB_BENCHMARKS_YCSB_COMMAND_LINE_H_
