// ycsb: the YCSB core workloads against LevelDB, with YCSB-C's command
// line. Built twice: `ycsb` against the fork (ElasticBF available) and
// `ycsb_upstream` against stock LevelDB 1.23. See docs/ycsb.md.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "command_line.h"
#include "engine.h"
#include "runner.h"
#include "workload.h"
#include "workload_spec.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;  // the database failed or reads went wrong
constexpr int kExitUsage = 2;   // bad command line or properties

int UsageError(const leveldb::Status& status) {
  std::fprintf(stderr, "ycsb: %s\n\n%s", status.ToString().c_str(),
               ycsb::UsageText());
  return kExitUsage;
}

int PropertyError(const leveldb::Status& status) {
  std::fprintf(stderr, "ycsb: %s\n", status.ToString().c_str());
  return kExitUsage;
}

// A run on an existing database should use the recordcount, insertorder
// and zeropadding it was loaded with; warn when its first or last record is
// missing.
void WarnIfNotLoaded(const ycsb::Workload& workload,
                     const ycsb::Database& database) {
  const uint64_t last = static_cast<uint64_t>(workload.spec().record_count) - 1;
  for (uint64_t number : {uint64_t{0}, last}) {
    std::string value;
    leveldb::Status s = database.db()->Get(database.read_options(),
                                           workload.Key(number), &value);
    if (s.IsNotFound()) {
      std::fprintf(stderr,
                   "ycsb: warning: record %llu (%s) is missing: was the "
                   "database loaded with the same recordcount, insertorder "
                   "and zeropadding?\n",
                   static_cast<unsigned long long>(number),
                   workload.Key(number).c_str());
      return;
    }
  }
}

void PrintHeader(const ycsb::CommandLine& command_line,
                 const ycsb::WorkloadSpec& workload,
                 const ycsb::EngineSpec& engine) {
  std::printf("# ycsb on %s\n", ycsb::EngineName());
  std::printf("# workload: %s\n", ycsb::DescribeWorkload(workload).c_str());
  std::printf("# engine:   %s\n", ycsb::DescribeEngine(engine).c_str());
  std::printf("# threads:  %d, phases: %s%s%s\n", command_line.threads,
              command_line.load ? "load" : "",
              command_line.load && command_line.run ? "+" : "",
              command_line.run ? "run" : "");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  ycsb::CommandLine command_line;
  leveldb::Status s = ycsb::ParseCommandLine(
      std::vector<std::string>(argv + 1, argv + argc), &command_line);
  if (!s.ok()) return UsageError(s);
  if (command_line.help) {
    std::fputs(ycsb::UsageText(), stdout);
    return kExitOk;
  }
  ycsb::Properties props;
  ycsb::WorkloadSpec workload_spec;
  ycsb::EngineSpec engine_spec;
  s = ycsb::BuildProperties(command_line, &props);
  if (s.ok()) s = ycsb::ParseWorkloadSpec(props, &workload_spec);
  if (s.ok()) s = ycsb::ParseEngineSpec(props, &engine_spec);
  if (!s.ok()) return PropertyError(s);
  PrintHeader(command_line, workload_spec, engine_spec);

  if (command_line.fresh) {
    s = ycsb::Database::Destroy(engine_spec);
    if (!s.ok()) {
      std::fprintf(stderr, "ycsb: cannot delete %s: %s\n",
                   engine_spec.db_path.c_str(), s.ToString().c_str());
      return kExitFailed;
    }
  }
  std::unique_ptr<ycsb::Database> database;
  s = ycsb::Database::Open(engine_spec, command_line.load, &database);
  if (!s.ok()) {
    std::fprintf(stderr, "ycsb: cannot open %s: %s%s\n",
                 engine_spec.db_path.c_str(), s.ToString().c_str(),
                 command_line.load ? "" : " (load it first with -load)");
    return kExitFailed;
  }

  ycsb::Workload workload(workload_spec);
  ycsb::PhaseOptions options;
  options.threads = command_line.threads;
  uint64_t errors = 0;
  if (command_line.load) {
    ycsb::PhaseResult result;
    ycsb::RunLoadPhase(&workload, database.get(), options, &result);
    std::fputs(ycsb::FormatReport(result).c_str(), stdout);
    std::fflush(stdout);
    errors += result.stats.TotalErrors();
  }
  if (command_line.run) {
    if (!command_line.load) WarnIfNotLoaded(workload, *database);
    ycsb::PhaseResult result;
    ycsb::RunTransactionPhase(&workload, database.get(), options, &result);
    std::fputs(ycsb::FormatReport(result).c_str(), stdout);
    errors += result.stats.TotalErrors();
  }
  database.reset();  // closes the database before reporting success
  if (errors > 0) {
    std::fprintf(stderr, "ycsb: %llu operations failed\n",
                 static_cast<unsigned long long>(errors));
    return kExitFailed;
  }
  return kExitOk;
}
