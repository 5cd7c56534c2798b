// Small pieces shared by the interop tools (interop_table_tool,
// interop_db_tool). Like the tools, this uses LevelDB's public API only, so
// it compiles against the fork and against Debian's LevelDB alike; include
// it by its plain name, as the upstream builds see no project include path.
#ifndef STORAGE_LEVELDB_TESTS_INTEROP_INTEROP_TOOL_UTIL_H_
#define STORAGE_LEVELDB_TESTS_INTEROP_INTEROP_TOOL_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../../benchmarks/common/random.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace interop_tool {

// How the tool names itself in error messages; each tool defines it.
extern const char kToolName[];

// Reports `what` on stderr and exits with status 1.
[[noreturn]] inline void Fail(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", kToolName, what.c_str());
  std::exit(1);
}

inline void Check(const leveldb::Status& s, const std::string& what) {
  if (!s.ok()) Fail(what + ": " + s.ToString());
}

// The argument `name` as a whole decimal number in [lo, hi]; fails the tool
// otherwise.
inline long long IntArg(const char* text, long long lo, long long hi,
                        const char* name) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) {
    Fail(std::string("bad ") + name + " '" + text + "' (expected " +
         std::to_string(lo) + ".." + std::to_string(hi) + ")");
  }
  return v;
}

// Every byte of s as two lowercase hex digits.
inline std::string Hex(const leveldb::Slice& s) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() * 2);
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

// The benchmarks' SplitMix64 (public API only, identical in both builds),
// drawing bounded numbers by modulo as the tools' data always has.
class Rng {
 public:
  explicit Rng(uint64_t seed) : bits_(seed) {}
  uint64_t Next() { return bits_.Next(); }
  // Uniform in [0, n); n > 0.
  uint64_t Below(uint64_t n) { return Next() % n; }
  bool Percent(int p) { return Below(100) < static_cast<uint64_t>(p); }

 private:
  bench::SplitMix64 bits_;
};

}  // namespace interop_tool

#endif  // STORAGE_LEVELDB_TESTS_INTEROP_INTEROP_TOOL_UTIL_H_
