// leveldbutil: command-line inspection and maintenance of database files.
//
//   leveldbutil dump FILE...           prints logs, descriptors and tables
//   leveldbutil strip-elastic DBDIR    makes a closed database's MANIFEST
//                                      readable by stock LevelDB 1.23
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "leveldb/dumpfile.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/options.h"
#include "leveldb/status.h"

namespace leveldb {
namespace {

// Sends the dump straight to standard output.
class StdoutFile : public WritableFile {
 public:
  Status Append(const Slice& data) override {
    if (std::fwrite(data.data(), 1, data.size(), stdout) != data.size()) {
      return Status::IOError("<stdout>", std::strerror(errno));
    }
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status Flush() override {
    if (std::fflush(stdout) != 0) {
      return Status::IOError("<stdout>", std::strerror(errno));
    }
    return Status::OK();
  }
  Status Sync() override { return Flush(); }
};

// Dumps each file in turn; a failure is reported and the rest still run.
bool DumpAll(int count, char** files) {
  Env* env = Env::Default();
  StdoutFile out;
  bool all_ok = true;
  for (int i = 0; i < count; i++) {
    Status s = DumpFile(env, files[i], &out);
    out.Flush();
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      all_ok = false;
    }
  }
  return all_ok;
}

// Rewrites the MANIFEST of a database using the bytewise comparator.
bool StripElastic(const char* dbname) {
  Options options;  // the default Env and comparator
  Status s = StripElasticMetadata(dbname, options);
  if (!s.ok()) {
    std::fprintf(stderr, "strip-elastic %s: %s\n", dbname,
                 s.ToString().c_str());
    return false;
  }
  std::printf(
      "strip-elastic %s: OK, the MANIFEST holds LevelDB 1.23 "
      "records only\n",
      dbname);
  return true;
}

void PrintUsage() {
  std::fprintf(stderr,
               "Usage: leveldbutil <command> [args]\n"
               "Commands:\n"
               "  dump FILE...          print the contents of log (*.log), "
               "descriptor (MANIFEST-*)\n"
               "                        and table (*.ldb, *.sst) files\n"
               "  strip-elastic DBDIR   remove ElasticBF's records (segment "
               "hotness) from the\n"
               "                        MANIFEST of a closed database so that "
               "stock LevelDB 1.23\n"
               "                        opens it (bytewise comparator only)\n");
}

}  // namespace
}  // namespace leveldb

int main(int argc, char** argv) {
  const char* command = argc >= 2 ? argv[1] : "";
  if (std::strcmp(command, "--help") == 0 || std::strcmp(command, "-h") == 0) {
    leveldb::PrintUsage();
    return 0;
  }
  if (std::strcmp(command, "dump") == 0 && argc >= 3) {
    return leveldb::DumpAll(argc - 2, argv + 2) ? 0 : 1;
  }
  if (std::strcmp(command, "strip-elastic") == 0 && argc == 3) {
    return leveldb::StripElastic(argv[2]) ? 0 : 1;
  }
  if (argc >= 2 && std::strcmp(command, "dump") != 0 &&
      std::strcmp(command, "strip-elastic") != 0) {
    std::fprintf(stderr, "leveldbutil: unknown command '%s'\n", command);
  }
  leveldb::PrintUsage();
  return 1;
}
