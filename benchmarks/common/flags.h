// The command-line flags of the benchmark programs, "--name=value", parsed
// in one place. A program lists its flags in a table of Flag rows and hands
// each argument to ApplyFlag; programs with flags of their own shape
// (lists, bounded counts) use SplitFlag and the number parsers directly.
// Public API only: the *_upstream twins and the RocksDB programs share it.
#ifndef LEVELDB_BENCHMARKS_COMMON_FLAGS_H_
#define LEVELDB_BENCHMARKS_COMMON_FLAGS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

enum class FlagType { kBool, kInt, kDouble, kString };

// One row of a flag table: the flag --name sets *target.
struct Flag {
  const char* name;
  FlagType type;
  void* target;
  const char* help;
  int64_t min_value = INT64_MIN;  // lower bound of a kInt flag
};

// A decimal int64 filling all of `text`.
bool ParseInt(const std::string& text, int64_t* value);
// A finite double filling all of `text`, not out of range.
bool ParseDouble(const std::string& text, double* value);
// 1, true, 0 or false.
bool ParseBool(const std::string& text, bool* value);
// Decimal digits only (no sign, no space) filling all of `text`.
bool ParseU64(const std::string& text, uint64_t* value);

// The items of a comma-separated list, empty ones included.
std::vector<std::string> SplitCommas(const std::string& list);

// Splits "--name=value" into its parts; false for any other shape.
bool SplitFlag(const std::string& arg, std::string* name, std::string* value);

// Applies one "--name=value" argument (or "--name" for a kBool flag) to the
// row of `table` it names. Returns an empty string, or why it was refused;
// *unknown tells whether no row has that name.
std::string ApplyFlag(const std::vector<Flag>& table, const std::string& arg,
                      bool* unknown);

// One "  --name  help" line per row, names padded to `width`.
void PrintFlags(const std::vector<Flag>& table, int width);

}  // namespace bench

#endif  // LEVELDB_BENCHMARKS_COMMON_FLAGS_H_
