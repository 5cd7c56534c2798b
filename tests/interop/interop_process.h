// Running the interop tools as child processes from the GoogleTest drivers.
// The fork's and upstream's builds never meet in one process: the drivers
// link only the fork and talk to the tools through files and exit codes.
#ifndef STORAGE_LEVELDB_TESTS_INTEROP_INTEROP_PROCESS_H_
#define STORAGE_LEVELDB_TESTS_INTEROP_INTEROP_PROCESS_H_

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace leveldb {
namespace interop {

// `s` as one single-quoted shell word.
inline std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

inline std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

// Runs `tool args` with stdout to out_path (stderr next to it); returns ""
// on success, else the command, its exit status and its stderr.
inline std::string RunTool(const std::string& tool, const std::string& args,
                           const std::string& out_path) {
  const std::string err_path = out_path + ".stderr";
  const std::string cmd = Quote(tool) + " " + args + " >" + Quote(out_path) +
                          " 2>" + Quote(err_path);
  int rc = std::system(cmd.c_str());
  if (rc == 0) return "";
  return "`" + cmd + "` exited with status " + std::to_string(rc) + ": " +
         ReadWholeFile(err_path);
}

}  // namespace interop
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_TESTS_INTEROP_INTEROP_PROCESS_H_
