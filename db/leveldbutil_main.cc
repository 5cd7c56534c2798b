// leveldbutil: command-line inspection of database files.
//
//   leveldbutil dump FILE...   prints logs, descriptors and tables as text
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "leveldb/dumpfile.h"
#include "leveldb/env.h"
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

void PrintUsage() {
  std::fprintf(stderr,
               "Usage: leveldbutil <command> [args]\n"
               "Commands:\n"
               "  dump FILE...   print the contents of log (*.log), "
               "descriptor (MANIFEST-*)\n"
               "                 and table (*.ldb, *.sst) files\n");
}

}  // namespace
}  // namespace leveldb

int main(int argc, char** argv) {
  if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 ||
                    std::strcmp(argv[1], "-h") == 0)) {
    leveldb::PrintUsage();
    return 0;
  }
  if (argc < 3 || std::strcmp(argv[1], "dump") != 0) {
    if (argc >= 2 && std::strcmp(argv[1], "dump") != 0) {
      std::fprintf(stderr, "leveldbutil: unknown command '%s'\n", argv[1]);
    }
    leveldb::PrintUsage();
    return 1;
  }
  return leveldb::DumpAll(argc - 2, argv + 2) ? 0 : 1;
}
