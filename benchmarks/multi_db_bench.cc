// multi_db_bench: K databases in one process, their ElasticBF filters under
// one shared budget of B bytes against split budgets of B / K bytes each,
// on the same loaded databases (reopened between runs), with Gets choosing
// a database one-hot, Zipfian or evenly and a key within it by the
// read-path protocol (docs/evaluation.md, "Many databases sharing one
// budget"). Exits non-zero if the filters exceed B, a Get answers wrongly,
// or a run has other than one ElasticBF thread (shared) or K (split).
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>  // NOLINT
#include <vector>

#include "common/flags.h"
#include "common/proc_stats.h"
#include "leveldb/db.h"
#include "leveldb/direct_io.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/io_stats.h"
#include "leveldb/write_batch.h"
#include "zipf_keys.h"

namespace {

struct Settings {
  int64_t dbs = 4, num = 400000, reads = 50000, warmup = 50000, rounds = 2;
  int64_t budget_bytes = 0;  // B: --num / 2
  std::string dists = "onehot,zipf,even", dir = "/tmp/multi_db_bench";
} S;

// The workload: values, seed, db0's share of the one-hot Gets, the theta of
// the Zipfian over databases, and the share of Gets for absent keys.
constexpr int64_t kValueSize = 112, kSeed = 301;
constexpr double kHotShare = 0.9, kDbZipf = 0.99, kZeroLookupRatio = 0.5;

[[noreturn]] void Die(const std::string& msg) {
  std::fprintf(stderr, "multi_db_bench: %s\n", msg.c_str());
  std::exit(1);
}

void Check(const leveldb::Status& s) {
  if (!s.ok()) Die(s.ToString());
}

void ParseSettings(int argc, char** argv) {
  using bench::FlagType;
  const std::vector<bench::Flag> table = {
      {"dbs", FlagType::kInt, &S.dbs, "databases K (at most 1024)", 1},
      {"num", FlagType::kInt, &S.num, "keys of all databases together", 1},
      {"reads", FlagType::kInt, &S.reads, "measured Gets per run", 1},
      {"warmup", FlagType::kInt, &S.warmup, "Gets before measuring", 0},
      {"rounds", FlagType::kInt, &S.rounds, "rounds of every run", 1},
      {"dists", FlagType::kString, &S.dists, "onehot,zipf,even (any)"},
      {"dir", FlagType::kString, &S.dir, "parent of the databases"},
  };
  for (int i = 1; i < argc; ++i) {
    bool unknown = false;
    const std::string error = bench::ApplyFlag(table, argv[i], &unknown);
    if (!error.empty()) bench::PrintFlags(table, 18);
    if (!error.empty()) Die(error);
  }
  if (S.dbs > 1024 || S.num < S.dbs) Die("need --dbs <= min(1024, --num)");
  for (const std::string& d : bench::SplitCommas(S.dists)) {
    if (d != "onehot" && d != "zipf" && d != "even") Die("bad --dists: " + d);
  }
  S.budget_bytes = S.num / 2;
}

uint64_t KeysPerDb() { return static_cast<uint64_t>(S.num / S.dbs); }
std::string DbName(int i) { return S.dir + "/db" + std::to_string(i); }

// The databases of one run, with what they need while open.
struct Open {
  std::unique_ptr<leveldb::ElasticFilterBudget> budget;
  std::vector<std::unique_ptr<const leveldb::FilterPolicy>> policies;
  std::vector<std::unique_ptr<leveldb::DB>> dbs;
  ~Open() { dbs.clear(); }  // before their policies and budget
};

// config: "load" (fresh, each its default budget), "shared" or "split".
void OpenAll(const std::string& config, Open* o) {
  if (config == "shared") {
    o->budget.reset(leveldb::NewElasticFilterBudget(S.budget_bytes));
  }
  for (int i = 0; i < S.dbs; ++i) {
    leveldb::ElasticFilterOptions eo;
    eo.shared_budget = o->budget.get();
    if (config == "split") eo.memory_budget_bytes = S.budget_bytes / S.dbs;
    o->policies.emplace_back(leveldb::NewElasticFilterPolicy(eo));
    leveldb::Options options;
    options.create_if_missing = options.error_if_exists = config == "load";
    options.env = leveldb::DirectIOEnv();
    options.filter_policy = o->policies.back().get();
    leveldb::DB* db = nullptr;
    Check(leveldb::DB::Open(options, DbName(i), &db));
    o->dbs.emplace_back(db);
  }
}

// Shares of the table bytes per level, "s0/s1/..." (filter_bound --pool).
std::string LevelShares(leveldb::DB* db) {
  std::string text, line, out;
  db->GetProperty("leveldb.sstables", &text);
  std::istringstream in(text);
  std::vector<double> bytes;
  double total = 0;
  while (std::getline(in, line)) {
    if (line.rfind("--- level ", 0) == 0) bytes.push_back(0);
    const size_t colon = line.find(':');
    if (bytes.empty() || line[0] != ' ' || colon == line.npos) continue;
    bytes.back() += std::atof(line.c_str() + colon + 1);
    total += std::atof(line.c_str() + colon + 1);
  }
  while (!bytes.empty() && bytes.back() == 0) bytes.pop_back();
  for (double b : bytes) {
    out += (out.empty() ? "" : "/") + std::to_string(b / total).substr(0, 6);
  }
  return out;
}

// Fresh databases, each key of [0, KeysPerDb()) once in a shuffled order.
void Load() {
  for (int i = 0; i < S.dbs; ++i) leveldb::DestroyDB(DbName(i), {});
  leveldb::Env::Default()->CreateDir(S.dir);
  zipf_keys::ValueSource values(kValueSize, 0.5);
  zipf_keys::KeyFormatter key;
  {
    Open o;
    OpenAll("load", &o);
    for (int i = 0; i < S.dbs; ++i) {
      leveldb::WriteBatch batch;
      for (uint32_t k : zipf_keys::UniqueKeyOrder(KeysPerDb(), kSeed + i)) {
        const std::string_view kv = key.Set(k), v = values.Next(kValueSize);
        batch.Put({kv.data(), kv.size()}, {v.data(), v.size()});
        if (batch.ApproximateSize() < 65536) continue;
        Check(o.dbs[i]->Write({}, &batch));
        batch.Clear();
      }
      Check(o.dbs[i]->Write({}, &batch));
    }
  }
}

// CPU time of every thread of the process, in nanoseconds, by thread id.
std::map<int, uint64_t> ThreadCpu() {
  std::map<int, uint64_t> cpu;
  DIR* dir = opendir("/proc/self/task");
  while (const dirent* entry = dir != nullptr ? readdir(dir) : nullptr) {
    const int tid = std::atoi(entry->d_name);
    char path[64], text[128];
    std::snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
    if (tid > 0 && proc_io::internal::ReadSmallFile(path, text, sizeof(text))) {
      cpu[tid] = std::strtoull(text, nullptr, 10);
    }
  }
  if (dir != nullptr) closedir(dir);
  return cpu;
}

// Which database a Get goes to; db0 is the hot one.
int ChooseDb(const std::string& dist, const zipf_keys::Zipfian& zipf,
             double u) {
  if (dist == "zipf") return static_cast<int>(zipf.Rank(u));
  if (dist == "even") return static_cast<int>(u * S.dbs);
  if (S.dbs == 1 || u < kHotShare) return 0;
  const double cold = (u - kHotShare) / (1 - kHotShare);
  return std::min<int>(S.dbs - 1, 1 + static_cast<int>(cold * (S.dbs - 1)));
}

// n Gets, each of a database by `dist` and a key within it by the
// read-path protocol; fails on a wrong answer.
void Gets(const Open& o, const std::string& dist, int64_t n,
          zipf_keys::SplitMix64* rng) {
  const zipf_keys::Zipfian db_zipf(S.dbs, kDbZipf);
  const zipf_keys::ScrambledZipfian zipf(KeysPerDb(), 0.99);
  leveldb::ReadOptions options;
  options.fill_cache = false;
  zipf_keys::KeyFormatter key;
  std::string value;
  for (int64_t g = 0; g < n; ++g) {
    const int db = ChooseDb(dist, db_zipf, rng->NextDouble());
    const zipf_keys::ZipfLookup l =
        zipf_keys::NextZipfLookup(zipf, kZeroLookupRatio, rng);
    const auto k = key.Set(l.key, l.absent ? zipf_keys::kAbsentSuffix : "");
    const leveldb::Status s =
        o.dbs[db]->Get(options, {k.data(), k.size()}, &value);
    if (s.ok() == l.absent || !(s.ok() || s.IsNotFound())) {
      Die("wrong answer for " + std::string(k) + ": " + s.ToString());
    }
  }
}

// Reopens the databases (the log becomes a table) and waits until their
// tables and the process's I/O stay the same for two seconds, before and
// after --warmup Gets spread evenly, whose seek compactions would
// otherwise reshape the trees during the first run.
void Settle() {
  Open o;
  OpenAll("split", &o);
  zipf_keys::SplitMix64 rng(zipf_keys::ThreadSeed64(kSeed, 0));
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) Gets(o, "even", S.warmup, &rng);
    for (std::string last, now;; last.swap(now)) {
      std::this_thread::sleep_for(std::chrono::seconds(2));
      const proc_io::Snapshot io = proc_io::Process();
      now = std::to_string(io.read_bytes) + std::to_string(io.write_bytes);
      for (int i = 0; i < S.dbs; ++i) now += LevelShares(o.dbs[i].get());
      if (now == last) break;
    }
  }
  for (int i = 0; i < S.dbs; ++i) {
    std::printf("db%d levels (shares of table bytes): %s\n", i,
                LevelShares(o.dbs[i].get()).c_str());
  }
}

// The columns of a run.
constexpr int kIos = 0, kWasted = 1, kGetsPerS = 2, kBytes = 3, kHotBytes = 4,
              kColdMin = 5, kColdMax = 6, kUnitLoads = 7, kThreads = 8,
              kElasticCpu = 9, kOtherCpu = 10, kGetCpu = 11, kColumns = 12;
const char* kHeader =
    "| I/Os per Get | wasted reads per Get | Gets/s "
    "| filter bytes, all | db0 | others, least | others, most | unit loads "
    "| ElasticBF "
    "threads | their CPU ms | other background CPU ms | Get thread CPU ms "
    "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
using Row = std::vector<double>;

uint64_t Field(const std::string& text, const char* name) {
  uint64_t value = 0;
  proc_io::internal::FindField(text.c_str(), name, &value);
  return value;
}

// Filter bytes, unit loads (a shared budget's are its own) and I/O counters
// of the databases into *r; fails if the bytes are above the budget.
void DbStats(const Open& o, bool shared, Row* r) {
  Row& x = *r;
  x[kBytes] = x[kIos] = x[kWasted] = x[kColdMax] = x[kUnitLoads] = 0;
  x[kColdMin] = S.dbs > 1 ? 1e300 : 0;
  for (int i = 0; i < S.dbs; ++i) {
    std::string text, io;
    o.dbs[i]->GetProperty("leveldb.elasticbf", &text);
    const double own =
        Field(text, shared ? "db_memory_used_bytes" : "memory_used_bytes");
    x[kHotBytes] = i == 0 ? own : x[kHotBytes];
    x[kColdMin] = i > 0 ? std::min(x[kColdMin], own) : x[kColdMin];
    x[kColdMax] = i > 0 ? std::max(x[kColdMax], own) : x[kColdMax];
    x[kBytes] = shared ? Field(text, "memory_used_bytes") : x[kBytes] + own;
    x[kUnitLoads] = (shared ? 0 : x[kUnitLoads]) + Field(text, "unit_loads");
    o.dbs[i]->GetProperty("leveldb.io-stats", &io);
    x[kIos] += Field(io, "data_block_reads") -
               Field(io, "data_block_cache_hits") + 0.0;
    x[kWasted] += Field(io, "false_positives") + Field(io, "unfiltered_misses");
  }
  if (x[kBytes] > S.budget_bytes) Die("filter bytes above the budget");
  x[kIos] /= S.reads;
  x[kWasted] /= S.reads;
}

// Per-thread CPU during the measured Gets: the Get thread, the threads
// the opening started (ElasticBF's), the others (compactions, builds).
void ThreadStats(const std::map<int, uint64_t>& before_open,
                 const std::map<int, uint64_t>& start, Row* r) {
  for (const auto& [tid, ns] : ThreadCpu()) {
    const auto s = start.find(tid);
    const double ms = (ns - (s == start.end() ? 0 : s->second)) / 1e6;
    const bool elastic = tid != ::gettid() && before_open.count(tid) == 0;
    (*r)[kThreads] += elastic ? 1 : 0;
    (*r)[tid == ::gettid() ? kGetCpu : elastic ? kElasticCpu : kOtherCpu] += ms;
  }
}

Row Run(const std::string& config, const std::string& dist, int round) {
  const std::map<int, uint64_t> before_open = ThreadCpu();
  Open o;
  OpenAll(config, &o);
  zipf_keys::SplitMix64 rng(zipf_keys::ThreadSeed64(kSeed, round));
  Gets(o, dist, S.warmup, &rng);
  Row r(kColumns, 0.0);
  DbStats(o, config == "shared", &r);
  for (const auto& db : o.dbs) leveldb::ResetIoStats(db.get());
  const double unit_loads = r[kUnitLoads];
  const std::map<int, uint64_t> start = ThreadCpu();
  const auto t0 = std::chrono::steady_clock::now();
  Gets(o, dist, S.reads, &rng);
  const std::chrono::duration<double> secs =
      std::chrono::steady_clock::now() - t0;
  ThreadStats(before_open, start, &r);
  r[kGetsPerS] = S.reads / secs.count();
  DbStats(o, config == "shared", &r);
  // ResetIoStats zeroed the split budgets' counts, not the shared one's.
  if (config == "shared") r[kUnitLoads] -= unit_loads;
  if (r[kThreads] != (config == "shared" ? 1 : S.dbs)) {
    Die(config + ": ElasticBF threads: " + std::to_string(r[kThreads]));
  }
  return r;
}

void Print(const std::string& head, const Row& r) {
  std::printf("| %s", head.c_str());
  for (int c = 0; c < kColumns; ++c) {
    std::printf(c <= kWasted ? " | %.4f" : " | %.0f", r[c]);
  }
  std::printf(" |\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  ParseSettings(argc, argv);
  // Starts the Env's one background thread now, so that the threads an
  // opening starts are ElasticBF's alone (ThreadStats).
  leveldb::Env::Default()->Schedule([](void*) {}, nullptr);
  std::printf("multi_db_bench: %" PRId64 " databases of %" PRIu64
              " keys, budget %" PRId64 " bytes (split: %" PRId64
              " each), %" PRId64 " + %" PRId64 " Gets per run\n",
              S.dbs, KeysPerDb(), S.budget_bytes, S.budget_bytes / S.dbs,
              S.warmup, S.reads);
  Load();
  Settle();
  std::map<std::string, std::vector<Row>> runs;
  std::vector<std::string> order;
  std::printf("| round, distribution, budget %s", kHeader);
  for (int round = 1; round <= S.rounds; ++round) {
    for (const std::string& dist : bench::SplitCommas(S.dists)) {
      for (int c = 0; c < 2; ++c) {
        const std::string config = (c + round) % 2 == 1 ? "shared" : "split";
        const std::string name = dist + ", " + config;
        if (runs[name].empty()) order.push_back(name);
        runs[name].push_back(Run(config, dist, round));
        Print(std::to_string(round) + ", " + name, runs[name].back());
      }
    }
  }
  std::printf("\nmedians of %" PRId64 " rounds:\n| distribution, budget %s",
              S.rounds, kHeader);
  for (const std::string& name : order) {
    Row median(kColumns);
    for (int c = 0; c < kColumns; ++c) {
      std::vector<double> v;
      for (const Row& r : runs[name]) v.push_back(r[c]);
      std::sort(v.begin(), v.end());
      median[c] = (v[(v.size() - 1) / 2] + v[v.size() / 2]) / 2;
    }
    Print(name, median);
  }
  return 0;
}
