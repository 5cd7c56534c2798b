#include "command_line.h"

#include "../common/flags.h"

namespace ycsb {

namespace {

leveldb::Status MissingValue(const std::string& flag) {
  return leveldb::Status::InvalidArgument(flag, "needs a value");
}

leveldb::Status ParseThreads(const std::string& text, int* threads) {
  int64_t value = 0;
  if (!bench::ParseInt(text, &value) || value < 1 || value > 1024) {
    return leveldb::Status::InvalidArgument(
        "-threads", "expected an integer in [1, 1024], got '" + text + "'");
  }
  *threads = static_cast<int>(value);
  return leveldb::Status::OK();
}

}  // namespace

leveldb::Status ParseCommandLine(const std::vector<std::string>& args,
                                 CommandLine* command_line) {
  *command_line = CommandLine();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "-load") {
      command_line->load = true;
    } else if (flag == "-run") {
      command_line->run = true;
    } else if (flag == "-fresh") {
      command_line->fresh = true;
    } else if (flag == "-h" || flag == "-help" || flag == "--help") {
      command_line->help = true;
    } else if (flag == "-db" || flag == "-threads" || flag == "-P" ||
               flag == "-p" || flag == "-dbpath") {
      if (i + 1 >= args.size()) return MissingValue(flag);
      const std::string& value = args[++i];
      if (flag == "-db") {
        command_line->db = value;
      } else if (flag == "-threads") {
        leveldb::Status s = ParseThreads(value, &command_line->threads);
        if (!s.ok()) return s;
      } else if (flag == "-P") {
        command_line->spec_files.push_back(value);
      } else if (flag == "-p") {
        command_line->overrides.push_back(value);
      } else {
        if (value.empty()) {
          return leveldb::Status::InvalidArgument("-dbpath", "is empty");
        }
        command_line->db_path = value;
      }
    } else {
      return leveldb::Status::InvalidArgument("unknown argument '" + flag + "'",
                                              "see ycsb -h");
    }
  }
  if (command_line->db != "leveldb") {
    return leveldb::Status::InvalidArgument("-db " + command_line->db,
                                            "this runner only drives leveldb");
  }
  if (!command_line->load && !command_line->run) {
    command_line->load = true;
    command_line->run = true;
  }
  return leveldb::Status::OK();
}

leveldb::Status BuildProperties(const CommandLine& command_line,
                                Properties* props) {
  for (const std::string& file : command_line.spec_files) {
    leveldb::Status s = props->LoadFile(file);
    if (!s.ok()) return s;
  }
  for (const std::string& assignment : command_line.overrides) {
    leveldb::Status s = props->ParseAssignment(assignment);
    if (!s.ok()) return s;
  }
  if (!command_line.db_path.empty()) {
    props->Set("leveldb.dbpath", command_line.db_path);
  }
  return leveldb::Status::OK();
}

const char* UsageText() {
  return "usage: ycsb -db leveldb [-threads N] -P FILE [-P FILE ...]\n"
         "            [-p key=value ...] [-load] [-run] [-dbpath DIR] "
         "[-fresh]\n"
         "\n"
         "  -threads N      client threads (default 1)\n"
         "  -P FILE         workload spec file (key=value lines); later "
         "files win\n"
         "  -p key=value    override a property (wins over every -P)\n"
         "  -load           load phase: insert recordcount records\n"
         "  -run            run phase: operationcount operations on an "
         "existing DB\n"
         "                  (neither flag: load, then run)\n"
         "  -dbpath DIR     database directory (or leveldb.dbpath; default\n"
         "                  /tmp/ycsb-leveldb)\n"
         "  -fresh          delete the database before loading\n"
         "\n"
         "Workload properties (YCSB's core workload and more) and the\n"
         "engine's leveldb.* settings: see docs/ycsb.md.\n";
}

}  // namespace ycsb
