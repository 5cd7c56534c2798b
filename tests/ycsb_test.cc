// Tests of the YCSB runner's library (benchmarks/ycsb): properties and spec
// files, the command line, YCSB's generators, keys and records, the latency
// histogram, and short end-to-end runs of workloads a-f.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "benchmarks/common/latency_histogram.h"
#include "benchmarks/ycsb/command_line.h"
#include "benchmarks/ycsb/engine.h"
#include "benchmarks/ycsb/generators.h"
#include "benchmarks/ycsb/properties.h"
#include "benchmarks/ycsb/record.h"
#include "benchmarks/ycsb/runner.h"
#include "benchmarks/ycsb/workload.h"
#include "benchmarks/ycsb/workload_spec.h"
#include "gtest/gtest.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "tests/test_util.h"

namespace ycsb {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---------------------------------------------------------------------------
// Properties and spec files
// ---------------------------------------------------------------------------

TEST(YcsbProperties, ParsesCommentsBlanksAndWhitespace) {
  Properties props;
  ASSERT_TRUE(props
                  .ParseText("# a comment\n"
                             "! another comment\n"
                             "\n"
                             "   \t\n"
                             "recordcount=10\n"
                             "  operationcount  =  20  \r\n"
                             "\treadproportion=0.25\t\n"
                             "workload=site.ycsb.workloads.CoreWorkload\n"
                             "empty=\n"
                             "path=/a=b\n",
                             "inline")
                  .ok());
  EXPECT_EQ("10", props.GetString("recordcount", ""));
  EXPECT_EQ("20", props.GetString("operationcount", ""));
  EXPECT_EQ("0.25", props.GetString("readproportion", ""));
  EXPECT_TRUE(props.Has("empty"));
  EXPECT_EQ("", props.GetString("empty", "x"));
  EXPECT_EQ("/a=b", props.GetString("path", ""));  // first '=' splits
  EXPECT_FALSE(props.Has("# a comment"));
  EXPECT_EQ(6u, props.values().size());
}

TEST(YcsbProperties, LaterSettingsWin) {
  Properties props;
  ASSERT_TRUE(props.ParseText("fieldcount=3\nfieldcount=4\n", "x").ok());
  EXPECT_EQ("4", props.GetString("fieldcount", ""));
  ASSERT_TRUE(props.ParseAssignment(" fieldcount = 7 ").ok());
  EXPECT_EQ("7", props.GetString("fieldcount", ""));
}

TEST(YcsbProperties, MalformedLineNamesOriginAndLine) {
  Properties props;
  leveldb::Status s =
      props.ParseText("recordcount=1\n# fine\nthis line is wrong\n", "my.spec");
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_TRUE(Contains(s.ToString(), "my.spec:3")) << s.ToString();
  EXPECT_TRUE(Contains(s.ToString(), "this line is wrong")) << s.ToString();
  EXPECT_TRUE(props.ParseText("=value\n", "keyless").IsInvalidArgument());
  EXPECT_TRUE(props.ParseAssignment("novalue").IsInvalidArgument());
}

TEST(YcsbProperties, MissingFileIsAnIOError) {
  Properties props;
  leveldb::Status s = props.LoadFile("/nonexistent/dir/workload.spec");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Contains(s.ToString(), "/nonexistent/dir/workload.spec"));
}

TEST(YcsbProperties, TypedGettersCheckSyntaxAndRange) {
  Properties props;
  props.Set("good", "42");
  props.Set("negative", "-5");
  props.Set("text", "abc");
  props.Set("trailing", "12x");
  props.Set("real", "0.5");
  props.Set("huge", "99999999999999999999999");
  int64_t value = 0;
  ASSERT_TRUE(props.GetInt("good", 0, 0, 100, &value).ok());
  EXPECT_EQ(42, value);
  ASSERT_TRUE(props.GetInt("absent", 7, 0, 100, &value).ok());
  EXPECT_EQ(7, value);
  for (const char* key : {"negative", "text", "trailing", "real", "huge"}) {
    leveldb::Status s = props.GetInt(key, 0, 0, 100, &value);
    EXPECT_TRUE(s.IsInvalidArgument()) << key;
    EXPECT_TRUE(Contains(s.ToString(), key)) << s.ToString();
    EXPECT_TRUE(Contains(s.ToString(), "[0, 100]")) << s.ToString();
  }
  double real = 0;
  ASSERT_TRUE(props.GetDouble("real", 0, 0, 1, &real).ok());
  EXPECT_DOUBLE_EQ(0.5, real);
  EXPECT_TRUE(props.GetDouble("text", 0, 0, 1, &real).IsInvalidArgument());
  EXPECT_TRUE(props.GetDouble("good", 0, 0, 1, &real).IsInvalidArgument());
  props.Set("nan", "nan");
  EXPECT_TRUE(props.GetDouble("nan", 0, -1e9, 1e9, &real).IsInvalidArgument());
}

TEST(YcsbProperties, Booleans) {
  Properties props;
  const std::map<std::string, bool> cases = {
      {"true", true}, {"TRUE", true}, {"1", true},
      {"yes", true},  {"on", true},   {"false", false},
      {"0", false},   {"No", false},  {"off", false}};
  for (const auto& entry : cases) {
    props.Set("flag", entry.first);
    bool value = !entry.second;
    ASSERT_TRUE(props.GetBool("flag", !entry.second, &value).ok())
        << entry.first;
    EXPECT_EQ(entry.second, value) << entry.first;
  }
  props.Set("flag", "maybe");
  bool value = false;
  leveldb::Status s = props.GetBool("flag", false, &value);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_TRUE(Contains(s.ToString(), "maybe"));
}

// ---------------------------------------------------------------------------
// Workload and engine settings
// ---------------------------------------------------------------------------

leveldb::Status ParseSpec(const Properties& props, WorkloadSpec* spec) {
  return ParseWorkloadSpec(props, spec);
}
leveldb::Status ParseSpec(const Properties& props, EngineSpec* spec) {
  return ParseEngineSpec(props, spec);
}

// Parses `text` as a spec file into *spec (a WorkloadSpec or EngineSpec).
template <typename Spec>
leveldb::Status ParseWith(const std::string& text, Spec* spec) {
  Properties props;
  leveldb::Status s = props.ParseText(text, "test");
  if (!s.ok()) return s;
  return ParseSpec(props, spec);
}

// Each case is a spec text that must fail with InvalidArgument, and a part
// of the message that names the problem.
template <typename Spec>
void ExpectRejected(
    const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& entry : cases) {
    Spec spec;
    leveldb::Status s = ParseWith(entry.first, &spec);
    EXPECT_TRUE(s.IsInvalidArgument()) << entry.first;
    EXPECT_TRUE(Contains(s.ToString(), entry.second))
        << entry.first << " -> " << s.ToString();
  }
}

TEST(YcsbWorkloadSpec, DefaultsAreYcsbs) {
  WorkloadSpec spec;
  ASSERT_TRUE(ParseWith("", &spec).ok());
  EXPECT_DOUBLE_EQ(0.95, spec.read_proportion);
  EXPECT_DOUBLE_EQ(0.05, spec.update_proportion);
  EXPECT_EQ(Distribution::kUniform, spec.request_distribution);
  EXPECT_EQ(10, spec.field_count);
  EXPECT_EQ(100, spec.field_length);
  EXPECT_EQ(1000, spec.max_scan_length);
  EXPECT_TRUE(spec.read_all_fields);
  EXPECT_FALSE(spec.write_all_fields);
  EXPECT_FALSE(spec.ordered_inserts);
  EXPECT_DOUBLE_EQ(0.99, spec.zipfian_constant);
  EXPECT_DOUBLE_EQ(0.0, spec.zero_lookup_proportion);
}

TEST(YcsbWorkloadSpec, ReadsEverySetting) {
  WorkloadSpec spec;
  ASSERT_TRUE(ParseWith("recordcount=123\noperationcount=45\n"
                        "readproportion=0.1\nupdateproportion=0.2\n"
                        "insertproportion=0.3\nscanproportion=0.15\n"
                        "readmodifywriteproportion=0.25\n"
                        "requestdistribution=latest\nmaxscanlength=17\n"
                        "scanlengthdistribution=zipfian\nfieldcount=3\n"
                        "fieldlength=9\nreadallfields=false\n"
                        "writeallfields=true\ninsertorder=ordered\n"
                        "zipfianconstant=0.5\nzerolookupproportion=0.4\n",
                        &spec)
                  .ok());
  EXPECT_EQ(123, spec.record_count);
  EXPECT_EQ(45, spec.operation_count);
  EXPECT_DOUBLE_EQ(0.3, spec.insert_proportion);
  EXPECT_DOUBLE_EQ(0.15, spec.scan_proportion);
  EXPECT_DOUBLE_EQ(0.25, spec.read_modify_write_proportion);
  EXPECT_EQ(Distribution::kLatest, spec.request_distribution);
  EXPECT_EQ(17, spec.max_scan_length);
  EXPECT_EQ(Distribution::kZipfian, spec.scan_length_distribution);
  EXPECT_EQ(3, spec.field_count);
  EXPECT_EQ(9, spec.field_length);
  EXPECT_FALSE(spec.read_all_fields);
  EXPECT_TRUE(spec.write_all_fields);
  EXPECT_TRUE(spec.ordered_inserts);
  EXPECT_DOUBLE_EQ(0.5, spec.zipfian_constant);
  EXPECT_DOUBLE_EQ(0.4, spec.zero_lookup_proportion);
}

TEST(YcsbWorkloadSpec, BadValuesGiveClearErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"requestdistribution=exponential", "exponential"},
      {"scanlengthdistribution=hotspot", "scanlengthdistribution"},
      {"hotspotdatafraction=0", "hotspotdatafraction"},
      {"hotspotdatafraction=1.5", "hotspotdatafraction"},
      {"hotspotopnfraction=-0.1", "hotspotopnfraction"},
      {"hotspotopnfraction=x", "hotspotopnfraction"},
      {"insertorder=ordered\nzeropadding=3\nrecordcount=990\n"
       "operationcount=10",
       "zeropadding"},
      {"requestdistribution=Zipfian", "requestdistribution"},
      {"scanlengthdistribution=latest", "scanlengthdistribution"},
      {"readproportion=1.5", "readproportion"},
      {"updateproportion=-0.1", "updateproportion"},
      {"readproportion=0\nupdateproportion=0", "proportions are zero"},
      {"recordcount=0", "recordcount"},
      {"recordcount=ten", "ten"},
      {"operationcount=-1", "operationcount"},
      {"fieldcount=0", "fieldcount"},
      {"fieldlength=abc", "fieldlength"},
      {"fieldlengthdistribution=zipfian", "fieldlengthdistribution"},
      {"maxscanlength=0", "maxscanlength"},
      {"insertorder=random", "insertorder"},
      {"readallfields=perhaps", "readallfields"},
      {"zipfianconstant=1", "zipfianconstant"},
      {"zipfianconstant=0", "zipfianconstant"},
      {"zerolookupproportion=2", "zerolookupproportion"},
  };
  ExpectRejected<WorkloadSpec>(cases);
}

TEST(YcsbWorkloadSpec, LocalityDistributions) {
  WorkloadSpec spec;
  ASSERT_TRUE(ParseWith("requestdistribution=hotspot\n"
                        "hotspotdatafraction=0.1\nhotspotopnfraction=0.95\n",
                        &spec)
                  .ok());
  EXPECT_EQ(Distribution::kHotspot, spec.request_distribution);
  EXPECT_DOUBLE_EQ(0.1, spec.hotspot_data_fraction);
  EXPECT_DOUBLE_EQ(0.95, spec.hotspot_opn_fraction);
  EXPECT_TRUE(
      Contains(DescribeWorkload(spec), "distribution=hotspot(0.1,0.95)"));
  ASSERT_TRUE(ParseWith("requestdistribution=hotspot", &spec).ok());
  EXPECT_DOUBLE_EQ(0.2, spec.hotspot_data_fraction);  // YCSB's defaults
  EXPECT_DOUBLE_EQ(0.8, spec.hotspot_opn_fraction);
  ASSERT_TRUE(ParseWith("requestdistribution=orderedzipfian", &spec).ok());
  EXPECT_EQ(Distribution::kOrderedZipfian, spec.request_distribution);
  // Exactly wide enough: record numbers reach 999 + 1 = 1000 at most.
  EXPECT_TRUE(ParseWith("insertorder=ordered\nzeropadding=4\n"
                        "recordcount=990\noperationcount=10",
                        &spec)
                  .ok());
  // Hashed keys keep any padding.
  EXPECT_TRUE(ParseWith("zeropadding=1", &spec).ok());
}

TEST(YcsbWorkloadSpec, ShippedWorkloadsHaveTheStandardMixes) {
  struct Expected {
    const char* name;
    double read, update, insert, scan, rmw;
    Distribution distribution;
  };
  const Expected expected[] = {
      {"a", 0.5, 0.5, 0, 0, 0, Distribution::kZipfian},
      {"b", 0.95, 0.05, 0, 0, 0, Distribution::kZipfian},
      {"c", 1, 0, 0, 0, 0, Distribution::kZipfian},
      {"d", 0.95, 0, 0.05, 0, 0, Distribution::kLatest},
      {"e", 0, 0, 0.05, 0.95, 0, Distribution::kZipfian},
      {"f", 0.5, 0, 0, 0, 0.5, Distribution::kZipfian},
  };
  for (const Expected& e : expected) {
    Properties props;
    ASSERT_TRUE(props
                    .LoadFile(std::string(YCSB_WORKLOAD_DIR) + "/workload" +
                              e.name + ".spec")
                    .ok())
        << e.name;
    WorkloadSpec spec;
    ASSERT_TRUE(ParseWorkloadSpec(props, &spec).ok()) << e.name;
    EXPECT_DOUBLE_EQ(e.read, spec.read_proportion) << e.name;
    EXPECT_DOUBLE_EQ(e.update, spec.update_proportion) << e.name;
    EXPECT_DOUBLE_EQ(e.insert, spec.insert_proportion) << e.name;
    EXPECT_DOUBLE_EQ(e.scan, spec.scan_proportion) << e.name;
    EXPECT_DOUBLE_EQ(e.rmw, spec.read_modify_write_proportion) << e.name;
    EXPECT_EQ(e.distribution, spec.request_distribution) << e.name;
    EXPECT_EQ(100000, spec.record_count) << e.name;
    EXPECT_EQ(100000, spec.operation_count) << e.name;
    if (std::string(e.name) == "e") {
      EXPECT_EQ(100, spec.max_scan_length);
      EXPECT_EQ(Distribution::kUniform, spec.scan_length_distribution);
    }
  }
}

TEST(YcsbEngineSpec, DefaultsAreTheLibrarysDefaults) {
  // Unset leveldb.bf_* settings must mean ElasticFilterOptions' defaults.
  const EngineSpec spec;
  const leveldb::ElasticFilterOptions lib;
  EXPECT_EQ(lib.bits_per_unit, spec.bf_bits_per_unit);
  EXPECT_EQ(lib.units_per_segment, spec.bf_units);
  EXPECT_DOUBLE_EQ(lib.memory_bits_per_key, spec.bf_memory_bits_per_key);
  EXPECT_EQ(lib.memory_budget_bytes,
            static_cast<size_t>(spec.bf_memory_budget_bytes));
  EXPECT_EQ(lib.segment_bytes, static_cast<size_t>(spec.bf_segment_bytes));
  EXPECT_EQ(lib.lifetime, static_cast<uint64_t>(spec.bf_lifetime));
  EXPECT_EQ(lib.initial_units, spec.bf_initial_units);
  EXPECT_EQ(lib.inherit_hotness, spec.bf_inherit_hotness);
}

TEST(YcsbEngineSpec, ReadsSettings) {
  EngineSpec spec;
  ASSERT_TRUE(ParseWith("leveldb.dbpath=/tmp/x\n"
                        "leveldb.elastic_bf=true\n"
                        "leveldb.bf_bits_per_unit=2\n"
                        "leveldb.bf_units=8\n"
                        "leveldb.bf_memory_bits_per_key=3.5\n"
                        "leveldb.bf_memory_budget_bytes=4096\n"
                        "leveldb.bf_segment_bytes=8192\n"
                        "leveldb.bf_lifetime=99\n"
                        "leveldb.bf_initial_units=2\n"
                        "leveldb.bf_inherit_hotness=false\n"
                        "leveldb.direct_io=on\n"
                        "leveldb.fill_cache=false\n"
                        "leveldb.cache_size=0\n"
                        "leveldb.write_buffer_size=1048576\n"
                        "leveldb.max_file_size=4194304\n"
                        "leveldb.max_open_files=500\n"
                        "leveldb.compression=none\n"
                        "recordcount=5\n",
                        &spec)
                  .ok());
  EXPECT_EQ("/tmp/x", spec.db_path);
  EXPECT_TRUE(spec.elastic_bf);
  EXPECT_EQ(2, spec.bf_bits_per_unit);
  EXPECT_EQ(8, spec.bf_units);
  EXPECT_DOUBLE_EQ(3.5, spec.bf_memory_bits_per_key);
  EXPECT_EQ(4096, spec.bf_memory_budget_bytes);
  EXPECT_EQ(8192, spec.bf_segment_bytes);
  EXPECT_EQ(99, spec.bf_lifetime);
  EXPECT_EQ(2, spec.bf_initial_units);
  EXPECT_FALSE(spec.bf_inherit_hotness);
  EXPECT_TRUE(spec.direct_io);
  EXPECT_FALSE(spec.fill_cache);
  EXPECT_EQ(0, spec.cache_size);
  EXPECT_EQ(1048576, spec.write_buffer_size);
  EXPECT_EQ(4194304, spec.max_file_size);
  EXPECT_EQ(500, spec.max_open_files);
  EXPECT_FALSE(spec.compression);
}

TEST(YcsbEngineSpec, BadSettingsGiveClearErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"leveldb.bloom_bitz=4", "leveldb.bloom_bitz"},
      {"leveldb.compression=zstd", "zstd"},
      {"leveldb.cache_size=lots", "leveldb.cache_size"},
      {"leveldb.direct_io=2", "leveldb.direct_io"},
      {"leveldb.elastic_bf=true\nleveldb.bloom_bits=10", "mutually exclusive"},
      // Checked by the library's own validation.
      {"leveldb.elastic_bf=true\nleveldb.bf_bits_per_unit=-1", "bits_per_unit"},
      {"leveldb.elastic_bf=true\nleveldb.bf_units=17", "units_per_segment"},
      {"leveldb.dbpath=", "leveldb.dbpath"},
  };
  ExpectRejected<EngineSpec>(cases);
}

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------

TEST(YcsbCommandLine, ParsesYcsbcStyleArguments) {
  CommandLine line;
  ASSERT_TRUE(ParseCommandLine({"-db", "leveldb", "-threads", "4", "-P",
                                "a.spec", "-p", "recordcount=5", "-P", "b.spec",
                                "-load", "-dbpath", "/tmp/d"},
                               &line)
                  .ok());
  EXPECT_EQ(4, line.threads);
  EXPECT_EQ((std::vector<std::string>{"a.spec", "b.spec"}), line.spec_files);
  EXPECT_EQ((std::vector<std::string>{"recordcount=5"}), line.overrides);
  EXPECT_TRUE(line.load);
  EXPECT_FALSE(line.run);
  EXPECT_EQ("/tmp/d", line.db_path);

  ASSERT_TRUE(ParseCommandLine({"-P", "a.spec"}, &line).ok());
  EXPECT_TRUE(line.load && line.run);  // neither flag: both phases
  ASSERT_TRUE(ParseCommandLine({"-run"}, &line).ok());
  EXPECT_TRUE(line.run && !line.load);
}

TEST(YcsbCommandLine, RejectsBadArguments) {
  CommandLine line;
  const std::vector<std::vector<std::string>> bad = {
      {"-threads", "0"},  {"-threads", "x"}, {"-threads"},    {"-P"},
      {"-db", "rocksdb"}, {"-frobnicate"},   {"-dbpath", ""}, {"load"}};
  for (const auto& args : bad) {
    leveldb::Status s = ParseCommandLine(args, &line);
    EXPECT_TRUE(s.IsInvalidArgument()) << args[0];
    EXPECT_FALSE(s.ToString().empty());
  }
}

TEST(YcsbCommandLine, OverridesWinOverEverySpecFile) {
  leveldb::Env* env = leveldb::Env::Default();
  const std::string dir = leveldb::test::NewTempDir(env, "ycsb_cli");
  const std::string first = dir + "/first.spec";
  const std::string second = dir + "/second.spec";
  ASSERT_TRUE(leveldb::WriteStringToFile(
                  env, "recordcount=1\noperationcount=1\nfieldcount=1\n", first)
                  .ok());
  ASSERT_TRUE(leveldb::WriteStringToFile(
                  env, "operationcount=2\nfieldcount=2\n", second)
                  .ok());
  CommandLine line;
  // The override comes before the files on the command line, yet wins.
  ASSERT_TRUE(ParseCommandLine({"-p", "fieldcount=9", "-P", first, "-P", second,
                                "-dbpath", "/tmp/override"},
                               &line)
                  .ok());
  Properties props;
  ASSERT_TRUE(BuildProperties(line, &props).ok());
  EXPECT_EQ("1", props.GetString("recordcount", ""));
  EXPECT_EQ("2", props.GetString("operationcount", ""));  // later file wins
  EXPECT_EQ("9", props.GetString("fieldcount", ""));
  EXPECT_EQ("/tmp/override", props.GetString("leveldb.dbpath", ""));

  ASSERT_TRUE(ParseCommandLine({"-P", dir + "/missing.spec"}, &line).ok());
  Properties missing;
  EXPECT_TRUE(BuildProperties(line, &missing).IsIOError());
  leveldb::test::RemoveDirRecursively(env, dir);
}

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

// FNV-1a written out over a byte array, checked against the published
// vector for "a".
uint64_t ReferenceFnv1a(const unsigned char* bytes, size_t n) {
  uint64_t hash = 14695981039346656037ULL;
  for (size_t i = 0; i < n; ++i) {
    hash ^= bytes[i];
    hash *= 1099511628211ULL;
  }
  return hash;
}

TEST(YcsbGenerators, FnvHashIsFnv1aOverLittleEndianBytes) {
  const unsigned char a = 'a';
  ASSERT_EQ(0xAF63DC4C8601EC8CULL, ReferenceFnv1a(&a, 1));
  for (uint64_t value : {uint64_t{0}, uint64_t{1}, uint64_t{255},
                         uint64_t{123456789}, ~uint64_t{0}}) {
    unsigned char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = (value >> (8 * i)) & 0xFF;
    EXPECT_EQ(ReferenceFnv1a(bytes, 8), FnvHash64(value)) << value;
  }
  EXPECT_NE(FnvHash64(1), FnvHash64(2));
}

TEST(YcsbGenerators, RandomIsDeterministicAndInRange) {
  Random a(42);
  Random b(42);
  Random c(43);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs |= x != c.Next();
    const double d = a.NextDouble();
    EXPECT_GE(d, 0.0);
    EXPECT_LT(d, 1.0);
    b.NextDouble();
    EXPECT_LT(a.Uniform(7), 7u);
    b.Uniform(7);
  }
  EXPECT_TRUE(differs);
}

TEST(YcsbGenerators, UniformCoversItsRangeEvenly) {
  Random rng(1);
  UniformGenerator generator(10, 19);
  std::vector<int> counts(10, 0);
  const int draws = 100000;
  for (int i = 0; i < draws; ++i) {
    const uint64_t value = generator.Next(&rng);
    ASSERT_GE(value, 10u);
    ASSERT_LE(value, 19u);
    ++counts[value - 10];
  }
  for (int count : counts) {
    EXPECT_NEAR(draws / 10, count, draws / 10 * 0.05);
  }
  UniformGenerator single(5, 5);
  EXPECT_EQ(5u, single.Next(&rng));
}

TEST(YcsbGenerators, CounterIsMonotonicAndUniqueAcrossThreads) {
  CounterGenerator counter(100);
  EXPECT_EQ(99u, counter.Last());
  EXPECT_EQ(100u, counter.Next());
  EXPECT_EQ(101u, counter.Next());
  EXPECT_EQ(101u, counter.Last());
  uint64_t previous = counter.Next();
  for (int i = 0; i < 100; ++i) {
    const uint64_t next = counter.Next();
    EXPECT_EQ(previous + 1, next);
    EXPECT_EQ(next, counter.Last());
    previous = next;
  }
  constexpr int kThreads = 4;
  constexpr int kPerThread = 10000;
  std::vector<std::vector<uint64_t>> taken(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&counter, &taken, t] {
      for (int i = 0; i < kPerThread; ++i) taken[t].push_back(counter.Next());
    });
  }
  for (auto& thread : threads) thread.join();
  std::set<uint64_t> all;
  for (const auto& numbers : taken) {
    EXPECT_TRUE(std::is_sorted(numbers.begin(), numbers.end()));
    all.insert(numbers.begin(), numbers.end());
  }
  EXPECT_EQ(static_cast<size_t>(kThreads * kPerThread), all.size());
  EXPECT_EQ(*all.rbegin(), counter.Last());
}

TEST(YcsbGenerators, ZetaIncrementalAndApproximate) {
  const double theta = 0.99;
  EXPECT_DOUBLE_EQ(1.0, Zeta(1, theta));
  EXPECT_NEAR(1.0 + std::pow(2.0, -theta), Zeta(2, theta), 1e-15);
  EXPECT_NEAR(Zeta(5000, theta),
              ZetaExtend(1000, 5000, theta, Zeta(1000, theta)), 1e-9);
  // Exact below the cutoff, Euler-Maclaurin above it.
  EXPECT_DOUBLE_EQ(Zeta(1000, 0.7), ZetaApproximate(1000, 0.7));
  const double exact = Zeta(3000000, 0.8);
  EXPECT_NEAR(exact, ZetaApproximate(3000000, 0.8), exact * 1e-10);
  // YCSB's precomputed zeta of its scrambled item space.
  const double ycsb = ScrambledZipfianGenerator::kZetaItemSpace099;
  EXPECT_NEAR(ycsb,
              ZetaApproximate(ScrambledZipfianGenerator::kItemSpace + 1, 0.99),
              ycsb * 1e-6);
}

TEST(YcsbGenerators, ZipfianMatchesTheory) {
  const uint64_t items = 1000;
  const double theta = 0.99;
  ZipfianGenerator generator(0, items - 1, theta);
  Random rng(7);
  const int draws = 400000;
  std::vector<int> counts(items, 0);
  for (int i = 0; i < draws; ++i) {
    const uint64_t value = generator.Next(&rng);
    ASSERT_LT(value, items);
    ++counts[value];
  }
  const double zetan = Zeta(items, theta);
  // Items 0 and 1 come from the exact branches of Gray's algorithm.
  const double p0 = 1.0 / zetan;
  const double p1 = std::pow(0.5, theta) / zetan;
  EXPECT_NEAR(p0, counts[0] / static_cast<double>(draws), p0 * 0.03);
  EXPECT_NEAR(p1, counts[1] / static_cast<double>(draws), p1 * 0.05);
  // Skew: the most popular item is 0, the head dominates the tail.
  EXPECT_EQ(0, std::max_element(counts.begin(), counts.end()) - counts.begin());
  int head = 0;
  int tail = 0;
  for (uint64_t i = 0; i < 10; ++i) head += counts[i];
  for (uint64_t i = items - 500; i < items; ++i) tail += counts[i];
  EXPECT_GT(head, 2 * tail);
}

TEST(YcsbGenerators, ZipfianWithOffsetAndGrowingCount) {
  Random rng(3);
  ZipfianGenerator generator(50, 59, 0.99);
  EXPECT_EQ(10u, generator.item_count());
  for (int i = 0; i < 1000; ++i) {
    const uint64_t value = generator.Next(&rng);
    ASSERT_GE(value, 50u);
    ASSERT_LE(value, 59u);
  }
  // Growing the count extends zeta incrementally to the exact value.
  uint64_t largest = 0;
  for (int i = 0; i < 20000; ++i) {
    largest = std::max(largest, generator.NextWithCount(&rng, 100));
  }
  EXPECT_EQ(100u, generator.item_count());
  EXPECT_NEAR(Zeta(100, 0.99), generator.zetan(), 1e-12);
  EXPECT_GT(largest, 59u);
  EXPECT_LE(largest, 149u);
  generator.NextWithCount(&rng, 20);  // shrinking recomputes
  EXPECT_NEAR(Zeta(20, 0.99), generator.zetan(), 1e-12);
}

TEST(YcsbGenerators, ScrambledZipfianSpreadsOverTheWholeRange) {
  const uint64_t items = 1000;
  ScrambledZipfianGenerator generator(0, items - 1, 0.99);
  Random rng(11);
  const int draws = 200000;
  std::vector<int> counts(items, 0);
  for (int i = 0; i < draws; ++i) {
    const uint64_t value = generator.Next(&rng);
    ASSERT_LT(value, items);
    ++counts[value];
  }
  // Every tenth of the range gets a fair share (clustered Zipfian would put
  // most draws in the first tenth).
  for (int part = 0; part < 10; ++part) {
    int in_part = 0;
    for (uint64_t i = part * 100; i < (part + 1) * 100u; ++i) {
      in_part += counts[i];
    }
    EXPECT_GT(in_part, draws / 10 / 4) << "part " << part;
    EXPECT_LT(in_part, draws / 10 * 4) << "part " << part;
  }
  // Still skewed: the hottest item is far above the average and it is not
  // simply the first item.
  const auto hottest = std::max_element(counts.begin(), counts.end());
  EXPECT_GT(*hottest, 10 * draws / static_cast<int>(items));
  EXPECT_EQ(FnvHash64(0) % items,
            static_cast<uint64_t>(hottest - counts.begin()));
  // Offset range.
  ScrambledZipfianGenerator offset(1000, 1009, 0.99);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t value = offset.Next(&rng);
    ASSERT_GE(value, 1000u);
    ASSERT_LE(value, 1009u);
  }
}

TEST(YcsbGenerators, LatestFavoursRecentInserts) {
  CounterGenerator inserts(1000);  // records 0..999 exist
  SkewedLatestGenerator generator(&inserts, 0.99, Zeta(1000, 0.99));
  Random rng(5);
  const int draws = 100000;
  int newest_tenth = 0;
  int newest = 0;
  for (int i = 0; i < draws; ++i) {
    const uint64_t value = generator.Next(&rng);
    ASSERT_LE(value, 999u);
    newest_tenth += value >= 900;
    newest += value == 999;
  }
  EXPECT_GT(newest_tenth, draws / 2);
  EXPECT_NEAR(1.0 / Zeta(1000, 0.99), newest / static_cast<double>(draws),
              0.03);
  // New inserts become the favourites at once.
  for (int i = 0; i < 100; ++i) inserts.Next();
  int after = 0;
  int newest_after = 0;
  for (int i = 0; i < draws; ++i) {
    const uint64_t value = generator.Next(&rng);
    ASSERT_LE(value, 1099u);
    after += value >= 1000;
    newest_after += value == 1099;
  }
  EXPECT_GT(after, draws / 2);
  EXPECT_GT(newest_after, draws / 10);
}

TEST(YcsbGenerators, DiscreteFollowsWeights) {
  DiscreteGenerator generator;
  generator.Add(1, 0.5);
  generator.Add(2, 0.25);
  generator.Add(3, 0.25);
  generator.Add(4, 0.0);  // never chosen
  EXPECT_DOUBLE_EQ(1.0, generator.total_weight());
  Random rng(9);
  std::map<int, int> counts;
  const int draws = 100000;
  for (int i = 0; i < draws; ++i) ++counts[generator.Next(&rng)];
  EXPECT_NEAR(draws * 0.5, counts[1], draws * 0.01);
  EXPECT_NEAR(draws * 0.25, counts[2], draws * 0.01);
  EXPECT_NEAR(draws * 0.25, counts[3], draws * 0.01);
  EXPECT_EQ(0, counts[4]);
}

TEST(YcsbGenerators, HotspotSharesAndHotSet) {
  HotspotGenerator generator(100, 10099, 0.2, 0.8);
  EXPECT_EQ(2000u, generator.hot_count());
  Random rng(21);
  const int draws = 200000;
  int hot = 0, hot_low_half = 0, cold_low_half = 0;
  for (int i = 0; i < draws; ++i) {
    const uint64_t value = generator.Next(&rng);
    ASSERT_GE(value, 100u);
    ASSERT_LE(value, 10099u);
    if (value < 2100) {
      ++hot;
      hot_low_half += value < 1100;
    } else {
      cold_low_half += value < 6100;
    }
  }
  // The hot set (the lowest numbers) gets its share, uniform inside each
  // part.
  EXPECT_NEAR(0.8, static_cast<double>(hot) / draws, 0.01);
  EXPECT_NEAR(0.5, static_cast<double>(hot_low_half) / hot, 0.01);
  EXPECT_NEAR(0.5, static_cast<double>(cold_low_half) / (draws - hot), 0.02);
  // A hot set of everything, and one too small to hold a record.
  HotspotGenerator all(0, 99, 1.0, 0.3);
  HotspotGenerator tiny(0, 99, 0.001, 1.0);
  EXPECT_EQ(1u, tiny.hot_count());
  for (int i = 0; i < 1000; ++i) {
    ASSERT_LE(all.Next(&rng), 99u);
    ASSERT_EQ(0u, tiny.Next(&rng));
  }
}

// Draws `draws` request key numbers of a workload given as spec text.
std::map<uint64_t, int> DrawRequests(const std::string& text, int draws,
                                     int inserts = 0) {
  WorkloadSpec spec;
  EXPECT_TRUE(ParseWith(text, &spec).ok());
  Workload workload(spec);
  for (int i = 0; i < inserts; ++i) workload.insert_sequence()->Next();
  std::unique_ptr<NumberGenerator> chooser = workload.NewKeyChooser();
  Random rng(4);
  std::map<uint64_t, int> counts;
  for (int i = 0; i < draws; ++i) ++counts[chooser->Next(&rng)];
  return counts;
}

// With insertorder=ordered, numbers and keys sort alike: a hot set of the
// lowest numbers is the range of the smallest keys.
TEST(YcsbGenerators, OrderedKeysMakeHotSetsKeyRanges) {
  WorkloadSpec spec;
  ASSERT_TRUE(ParseWith("recordcount=5000\ninsertorder=ordered", &spec).ok());
  const Workload workload(spec);
  std::vector<std::string> keys;
  for (uint64_t n = 0; n < 5000; ++n) keys.push_back(workload.Key(n));
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  const std::map<uint64_t, int> counts = DrawRequests(
      "recordcount=5000\ninsertorder=ordered\nrequestdistribution=hotspot",
      100000);
  int in_range = 0;
  for (const auto& entry : counts)
    in_range += entry.first < 1000 ? entry.second : 0;
  EXPECT_NEAR(0.8, in_range / 100000.0, 0.01);
  // The cold part is read too: about 5 draws per cold record, so nearly
  // all of them are drawn.
  EXPECT_GT(counts.size(), 4900u);
}

TEST(YcsbGenerators, OrderedZipfianFavoursTheFirstRecords) {
  const std::map<uint64_t, int> counts = DrawRequests(
      "recordcount=10000\nrequestdistribution=orderedzipfian", 200000);
  ASSERT_LT(counts.rbegin()->first, 10000u);
  // The ten most drawn records are 0..9, in that order of popularity.
  std::vector<std::pair<int, uint64_t>> by_count;
  for (const auto& entry : counts)
    by_count.emplace_back(entry.second, entry.first);
  std::sort(by_count.rbegin(), by_count.rend());
  for (uint64_t i = 0; i < 3; ++i) EXPECT_EQ(i, by_count[i].second);
  for (size_t i = 0; i < 10; ++i) EXPECT_LT(by_count[i].second, 10u);
  // Record 0 has the Zipfian's first probability.
  EXPECT_NEAR(1.0 / Zeta(10000, 0.99), counts.at(0) / 200000.0, 0.005);
}

// latest with ordered inserts: recent records are the largest keys.
TEST(YcsbGenerators, LatestWithOrderedInsertsReadsTheLargestKeys) {
  const std::string text =
      "recordcount=1000\ninsertorder=ordered\nrequestdistribution=latest";
  const std::map<uint64_t, int> counts = DrawRequests(text, 100000, 200);
  WorkloadSpec spec;
  ASSERT_TRUE(ParseWith(text, &spec).ok());
  const Workload workload(spec);
  int newest = 0;
  for (const auto& entry : counts) {
    ASSERT_LE(entry.first, 1199u);
    if (entry.first >= 1000) {
      newest += entry.second;
      EXPECT_GT(workload.Key(entry.first), workload.Key(999));
    }
  }
  EXPECT_GT(newest, 100000 / 2);  // the 200 inserted records dominate
  // The newest record is the most drawn one.
  int most = 0;
  for (const auto& entry : counts) most = std::max(most, entry.second);
  EXPECT_EQ(most, counts.at(1199));
}

// ---------------------------------------------------------------------------
// Keys and records
// ---------------------------------------------------------------------------

TEST(YcsbKeys, NamingIsDeterministicAndPadded) {
  EXPECT_EQ("user00000000000000000042", BuildKeyName(42, false, 20));
  EXPECT_EQ("user42", BuildKeyName(42, false, 1));
  EXPECT_EQ("user0042", BuildKeyName(42, false, 4));
  const std::string hashed = BuildKeyName(42, true, 20);
  EXPECT_EQ(hashed, BuildKeyName(42, true, 20));
  std::string digits = std::to_string(FnvHash64(42));
  digits.insert(0, 20 - digits.size(), '0');
  EXPECT_EQ("user" + digits, hashed);
  EXPECT_EQ(24u, hashed.size());
  EXPECT_NE(hashed, BuildKeyName(43, true, 20));
  // Ordered keys sort like their numbers.
  EXPECT_LT(BuildKeyName(9, false, 20), BuildKeyName(10, false, 20));
  EXPECT_EQ("field0", FieldName(0));
  EXPECT_EQ("field12", FieldName(12));
}

TEST(YcsbKeys, AbsentKeysSortBetweenNeighbours) {
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 2000; ++i) keys.push_back(BuildKeyName(i, true, 20));
  std::sort(keys.begin(), keys.end());
  const std::set<std::string> key_set(keys.begin(), keys.end());
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    const std::string absent = AbsentKey(keys[i]);
    EXPECT_EQ(0u, key_set.count(absent));
    EXPECT_LT(keys[i], absent);
    EXPECT_LT(absent, keys[i + 1]);
  }
}

TEST(YcsbRecords, EncodeDecodeRoundTrip) {
  std::vector<Field> fields = {{"field0", "hello"},
                               {"field1", ""},
                               {"field2", std::string(300, 'x')},
                               {"", std::string("\0\xff\x80", 3)}};
  std::string encoded;
  EncodeRecord(fields, &encoded);
  std::vector<Field> decoded;
  ASSERT_TRUE(DecodeRecord(encoded, &decoded));
  EXPECT_EQ(fields, decoded);
  std::string value;
  ASSERT_TRUE(FindField(encoded, "field2", &value));
  EXPECT_EQ(std::string(300, 'x'), value);
  ASSERT_TRUE(FindField(encoded, "field1", &value));
  EXPECT_EQ("", value);
  EXPECT_FALSE(FindField(encoded, "field9", &value));
  // The layout documented in record.h.
  std::string small;
  EncodeRecord({{"ab", "xyz"}}, &small);
  EXPECT_EQ(std::string("\x01\x02"
                        "ab\x03"
                        "xyz"),
            small);
  EncodeRecord({}, &small);
  EXPECT_EQ(std::string(1, '\0'), small);
  ASSERT_TRUE(DecodeRecord(small, &decoded));
  EXPECT_TRUE(decoded.empty());
}

TEST(YcsbRecords, MalformedRecordsAreRejected) {
  std::string encoded;
  EncodeRecord({{"field0", "value0"}, {"field1", "value1"}}, &encoded);
  std::vector<Field> decoded;
  std::string value;
  for (size_t length = 0; length < encoded.size(); ++length) {
    const std::string truncated = encoded.substr(0, length);
    EXPECT_FALSE(DecodeRecord(truncated, &decoded)) << length;
  }
  EXPECT_FALSE(DecodeRecord(encoded + "x", &decoded));
  EXPECT_FALSE(DecodeRecord(std::string("\x02\x06"
                                        "field0\xff",
                                        9),
                            &decoded));
  EXPECT_FALSE(DecodeRecord(std::string(6, '\xff'), &decoded));
  EXPECT_FALSE(FindField(std::string("\x05\x03"
                                     "abc",
                                     5),
                         "x", &value));
}

// ---------------------------------------------------------------------------
// Latency histogram
// ---------------------------------------------------------------------------

TEST(YcsbHistogram, BucketsTileTheRange) {
  EXPECT_EQ(0, LatencyHistogram::BucketIndex(0));
  uint64_t expected_low = 0;
  for (int i = 0; i < LatencyHistogram::BucketCount(); ++i) {
    const uint64_t low = LatencyHistogram::BucketLow(i);
    const uint64_t high = LatencyHistogram::BucketHigh(i);
    ASSERT_EQ(expected_low, low) << i;
    ASSERT_LE(low, high);
    ASSERT_EQ(i, LatencyHistogram::BucketIndex(low));
    ASSERT_EQ(i, LatencyHistogram::BucketIndex(high));
    // Relative width stays small: percentiles are accurate to ~3%.
    if (low >= 32) {
      ASSERT_LE(high - low + 1, low / 32 + 1);
    }
    if (high == UINT64_MAX) break;
    expected_low = high + 1;
  }
  EXPECT_EQ(LatencyHistogram::BucketCount() - 1,
            LatencyHistogram::BucketIndex(UINT64_MAX));
}

TEST(YcsbHistogram, StatisticsAndPercentiles) {
  LatencyHistogram histogram;
  EXPECT_EQ(0.0, histogram.Percentile(50));
  for (uint64_t v = 1; v <= 100000; ++v) histogram.Add(v);
  EXPECT_EQ(100000u, histogram.count());
  EXPECT_EQ(1u, histogram.min());
  EXPECT_EQ(100000u, histogram.max());
  EXPECT_NEAR(50000.5, histogram.Average(), 1e-6);
  EXPECT_NEAR(50000, histogram.Percentile(50), 50000 * 0.03);
  EXPECT_NEAR(99000, histogram.Percentile(99), 99000 * 0.03);
  EXPECT_NEAR(99900, histogram.Percentile(99.9), 99900 * 0.03);
  EXPECT_LE(histogram.Percentile(100), 100000.0);

  LatencyHistogram other;
  other.Add(5000000);
  histogram.Merge(other);
  EXPECT_EQ(100001u, histogram.count());
  EXPECT_EQ(5000000u, histogram.max());
  EXPECT_EQ(5000000.0, histogram.Percentile(100));

  LatencyHistogram constant;
  for (int i = 0; i < 10; ++i) constant.Add(777);
  EXPECT_EQ(777.0, constant.Percentile(50));  // clamped to [min, max]
  EXPECT_EQ(777.0, constant.Percentile(99.9));
}

// ---------------------------------------------------------------------------
// End to end
// ---------------------------------------------------------------------------

class YcsbEndToEnd : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = leveldb::test::NewTempDir(leveldb::Env::Default(), "ycsb");
  }
  void TearDown() override {
    leveldb::test::RemoveDirRecursively(leveldb::Env::Default(), dir_);
  }

  // The shipped spec of `name`, scaled down, with absent-key reads.
  Properties SmallWorkload(const std::string& name) {
    Properties props;
    EXPECT_TRUE(props
                    .LoadFile(std::string(YCSB_WORKLOAD_DIR) + "/workload" +
                              name + ".spec")
                    .ok());
    props.Set("recordcount", "2000");
    props.Set("operationcount", "3000");
    props.Set("fieldlength", "20");
    props.Set("zerolookupproportion", "0.3");
    props.Set("leveldb.dbpath", dir_ + "/db_" + name);
    props.Set("leveldb.write_buffer_size", "65536");  // several tables
    return props;
  }

  // Both specs parsed from one set of properties; both must parse.
  void ParseSpecs(const Properties& props, WorkloadSpec* spec,
                  EngineSpec* engine) {
    ASSERT_TRUE(ParseWorkloadSpec(props, spec).ok());
    ASSERT_TRUE(ParseEngineSpec(props, engine).ok());
  }

  // What LoadAndRun() built and measured.
  struct LoadedRun {
    WorkloadSpec spec;
    EngineSpec engine;
    std::unique_ptr<Database> database;
    std::unique_ptr<Workload> workload;
    PhaseResult load;
    PhaseResult run;
  };

  // Parses `props`, creates the database and runs the load phase, then the
  // transaction phase, with `threads` client threads and no progress lines.
  void LoadAndRun(const Properties& props, int threads, LoadedRun* r) {
    ASSERT_NO_FATAL_FAILURE(ParseSpecs(props, &r->spec, &r->engine));
    ASSERT_TRUE(Database::Open(r->engine, true, &r->database).ok());
    r->workload = std::make_unique<Workload>(r->spec);
    PhaseOptions options;
    options.threads = threads;
    options.progress = nullptr;
    RunLoadPhase(r->workload.get(), r->database.get(), options, &r->load);
    RunTransactionPhase(r->workload.get(), r->database.get(), options, &r->run);
  }

  std::string dir_;
};

// Every loaded record and every insert of the run is in the database with
// fieldcount fields; absent keys are not.
void VerifyDatabase(const Workload& workload, const PhaseResult& run,
                    Database* database) {
  const WorkloadSpec& spec = workload.spec();
  const uint64_t inserted = run.stats.op(kInsert).latency.count();
  const uint64_t total = static_cast<uint64_t>(spec.record_count) + inserted;
  for (uint64_t n = 0; n < total; ++n) {
    std::string value;
    const std::string key = workload.Key(n);
    ASSERT_TRUE(database->db()->Get(database->read_options(), key, &value).ok())
        << key;
    std::vector<Field> fields;
    ASSERT_TRUE(DecodeRecord(value, &fields)) << key;
    ASSERT_EQ(spec.field_count, static_cast<int64_t>(fields.size())) << key;
    EXPECT_TRUE(database->db()
                    ->Get(database->read_options(), AbsentKey(key), &value)
                    .IsNotFound());
  }
  // Nothing else was written.
  std::unique_ptr<leveldb::Iterator> it(
      database->db()->NewIterator(database->read_options()));
  uint64_t entries = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++entries;
  EXPECT_EQ(total, entries);
}

void ExpectCleanRun(const std::string& name, const PhaseResult& load,
                    const PhaseResult& run, const WorkloadSpec& spec) {
  SCOPED_TRACE("workload " + name);
  EXPECT_EQ(static_cast<uint64_t>(spec.record_count),
            load.stats.op(kInsert).latency.count());
  EXPECT_EQ(0u, load.stats.TotalErrors()) << load.stats.first_error();
  EXPECT_EQ(static_cast<uint64_t>(spec.operation_count),
            run.stats.TotalOperations());
  EXPECT_EQ(0u, run.stats.TotalErrors()) << run.stats.first_error();
  // Reads of loaded keys find them; absent-key reads find nothing.
  EXPECT_EQ(0u, run.stats.op(kRead).not_found);
  EXPECT_EQ(0u, run.stats.op(kUpdate).not_found);
  EXPECT_EQ(0u, run.stats.op(kReadModifyWrite).not_found);
  EXPECT_EQ(run.stats.op(kReadAbsent).latency.count(),
            run.stats.op(kReadAbsent).not_found);
  // The mix follows the proportions (3000 operations: loose bounds).
  const double ops = static_cast<double>(spec.operation_count);
  const double reads =
      static_cast<double>(run.stats.op(kRead).latency.count() +
                          run.stats.op(kReadAbsent).latency.count());
  EXPECT_NEAR(spec.read_proportion * ops, reads, 0.05 * ops + 1);
  EXPECT_NEAR(spec.update_proportion * ops,
              static_cast<double>(run.stats.op(kUpdate).latency.count()),
              0.05 * ops + 1);
  EXPECT_NEAR(spec.insert_proportion * ops,
              static_cast<double>(run.stats.op(kInsert).latency.count()),
              0.05 * ops + 1);
  EXPECT_NEAR(spec.scan_proportion * ops,
              static_cast<double>(run.stats.op(kScan).latency.count()),
              0.05 * ops + 1);
  EXPECT_NEAR(
      spec.read_modify_write_proportion * ops,
      static_cast<double>(run.stats.op(kReadModifyWrite).latency.count()),
      0.05 * ops + 1);
  if (reads > 0) {
    EXPECT_NEAR(0.3 * reads,
                static_cast<double>(run.stats.op(kReadAbsent).latency.count()),
                0.1 * reads);
  }
  if (spec.scan_proportion > 0) {
    // Scans start at existing keys and run up to 100 records.
    const double per_scan =
        static_cast<double>(run.stats.op(kScan).scanned_records) /
        static_cast<double>(run.stats.op(kScan).latency.count());
    EXPECT_GT(per_scan, 10.0);
    EXPECT_LE(per_scan, 100.0);
  }
  const std::string report = FormatReport(run);
  EXPECT_TRUE(Contains(report, "[run] 3000 operations")) << report;
  EXPECT_TRUE(Contains(report, "p99.9(us)")) << report;
  // The client threads' CPU time (Linux): some was spent (the user/kernel
  // split is sampled at scheduler ticks, so either part alone can be 0 on
  // a short run), and no more CPU than wall time per thread.
  if (run.cpu_valid) {
    EXPECT_GT(run.client_user_ns + run.client_system_ns, 0u);
    EXPECT_LE(static_cast<double>(run.client_user_ns + run.client_system_ns),
              run.seconds * 1e9 * run.threads * 1.05 + 1e7);
    EXPECT_TRUE(Contains(report, "client CPU per operation:")) << report;
  }
}

TEST_F(YcsbEndToEnd, WorkloadsAThroughF) {
  for (const std::string name : {"a", "b", "c", "d", "e", "f"}) {
    SCOPED_TRACE(name);
    LoadedRun r;
    ASSERT_NO_FATAL_FAILURE(LoadAndRun(SmallWorkload(name), 1, &r));
    ExpectCleanRun(name, r.load, r.run, r.spec);
    VerifyDatabase(*r.workload, r.run, r.database.get());
  }
}

TEST_F(YcsbEndToEnd, ElasticFiltersAndThreads) {
  Properties props = SmallWorkload("c");
  props.Set("leveldb.elastic_bf", "true");
  props.Set("leveldb.bf_memory_bits_per_key", "8");
  LoadedRun r;
  ASSERT_NO_FATAL_FAILURE(LoadAndRun(props, 3, &r));
  const PhaseResult& run = r.run;
  EXPECT_EQ(3, run.threads);
  ExpectCleanRun("c (elastic, 3 threads)", r.load, run, r.spec);
  VerifyDatabase(*r.workload, run, r.database.get());
  // The fork reports its I/O statistics and ElasticBF state, counted for the
  // run phase alone (one Get per operation).
  EXPECT_TRUE(Contains(run.engine_stats, "leveldb.io-stats:"))
      << run.engine_stats;
  EXPECT_TRUE(Contains(run.engine_stats, "leveldb.elasticbf:"));
  EXPECT_TRUE(Contains(run.engine_stats, "gets:"));
  EXPECT_TRUE(Contains(FormatReport(run), "leveldb.io-stats:"));
}

TEST_F(YcsbEndToEnd, SeparateLoadAndRunOnAnExistingDatabase) {
  Properties props = SmallWorkload("b");
  props.Set("insertorder", "ordered");
  props.Set("readallfields", "false");
  props.Set("zipfianconstant", "0.9");  // zeta of the item space computed
  WorkloadSpec spec;
  EngineSpec engine;
  ASSERT_NO_FATAL_FAILURE(ParseSpecs(props, &spec, &engine));
  std::unique_ptr<Database> database;
  // Run-only on a missing database fails clearly instead of creating it.
  EXPECT_FALSE(Database::Open(engine, false, &database).ok());
  PhaseOptions options;
  options.progress = nullptr;
  PhaseResult load;
  {
    ASSERT_TRUE(Database::Open(engine, true, &database).ok());
    Workload workload(spec);
    RunLoadPhase(&workload, database.get(), options, &load);
    database.reset();
  }
  ASSERT_TRUE(Database::Open(engine, false, &database).ok());
  Workload workload(spec);
  PhaseResult run;
  RunTransactionPhase(&workload, database.get(), options, &run);
  ExpectCleanRun("b (separate phases)", load, run, spec);
  VerifyDatabase(workload, run, database.get());
  // Ordered inserts: the keys are in number order in the database.
  std::unique_ptr<leveldb::Iterator> it(
      database->db()->NewIterator(database->read_options()));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(workload.Key(0), it->key().ToString());
  it.reset();
  database.reset();
  ASSERT_TRUE(Database::Destroy(engine).ok());
  EXPECT_FALSE(Database::Open(engine, false, &database).ok());
}

TEST_F(YcsbEndToEnd, WriteAllFieldsAndZipfianScanLengths) {
  Properties props = SmallWorkload("e");
  props.Set("writeallfields", "true");
  props.Set("scanlengthdistribution", "zipfian");
  props.Set("readmodifywriteproportion", "0.2");
  props.Set("updateproportion", "0.2");
  LoadedRun r;
  ASSERT_NO_FATAL_FAILURE(LoadAndRun(props, 1, &r));
  const PhaseResult& run = r.run;
  EXPECT_EQ(0u, run.stats.TotalErrors()) << run.stats.first_error();
  EXPECT_GT(run.stats.op(kUpdate).latency.count(), 0u);
  EXPECT_GT(run.stats.op(kReadModifyWrite).latency.count(), 0u);
  // Zipfian scan lengths favour short scans.
  const double per_scan =
      static_cast<double>(run.stats.op(kScan).scanned_records) /
      static_cast<double>(run.stats.op(kScan).latency.count());
  EXPECT_LT(per_scan, 40.0);
  EXPECT_GE(per_scan, 1.0);
  VerifyDatabase(*r.workload, run, r.database.get());
}

// With everything in the memtable nothing reads in the background, so the
// process's read syscalls are all the client threads' and the measuring
// snapshots': the snapshots' own reads (CPU ones included) must count
// nowhere, whatever the number of threads.
TEST_F(YcsbEndToEnd, MeasuringReadsAreNeitherClientNorBackgroundReads) {
  for (const int threads : {1, 3}) {
    SCOPED_TRACE(threads);
    Properties props = SmallWorkload("c");
    props.Set("leveldb.write_buffer_size", "67108864");  // no table
    props.Set("leveldb.dbpath", dir_ + "/db_" + std::to_string(threads));
    LoadedRun r;
    ASSERT_NO_FATAL_FAILURE(LoadAndRun(props, threads, &r));
    for (const PhaseResult* phase : {&r.load, &r.run}) {
      SCOPED_TRACE(phase->name);
      if (!phase->io_valid) continue;  // no per-task I/O accounting
      EXPECT_EQ(0u, phase->client_read_syscalls);
      EXPECT_EQ(0u, phase->background_read_syscalls);
      EXPECT_TRUE(Contains(FormatReport(*phase),
                           "; background: 0 read syscalls, 0.0 MB"))
          << FormatReport(*phase);
    }
    EXPECT_EQ(3000u, r.run.stats.op(kRead).latency.count() +
                         r.run.stats.op(kReadAbsent).latency.count());
  }
}

// The first million draws of the samplers, hashed. The values were recorded
// before the readzipf and YCSB samplers became one (zipf_keys::Zipfian):
// a change to any draw, or to the zeta sums behind them, changes a hash.
class DrawHash {
 public:
  void Add(uint64_t v) { hash_ = (hash_ ^ v) * 1099511628211ull; }
  void AddDouble(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof(bits));
    Add(bits);
  }
  uint64_t Take() {
    const uint64_t h = hash_;
    hash_ = 1469598103934665603ull;
    return h;
  }

 private:
  uint64_t hash_ = 1469598103934665603ull;
};

constexpr uint64_t kDraws = 1000000;

TEST(YcsbGenerators, ReadzipfDrawsAreThoseRecorded) {
  DrawHash h;
  const zipf_keys::ScrambledZipfian scrambled(1000000, 0.99);
  zipf_keys::SplitMix64 rng(zipf_keys::ThreadSeed64(0, 0));
  for (uint64_t i = 0; i < kDraws; i++) {
    const zipf_keys::ZipfLookup l =
        zipf_keys::NextZipfLookup(scrambled, 0.5, &rng);
    h.Add(l.key * 2 + (l.absent ? 1 : 0));
  }
  EXPECT_EQ(0xcc40a9737a6fb8e0ull, h.Take());

  const zipf_keys::Zipfian ordered(24000000, 0.99);
  zipf_keys::SplitMix64 rng2(zipf_keys::ThreadSeed64(42, 1));
  for (uint64_t i = 0; i < kDraws; i++) h.Add(ordered.Rank(rng2.NextDouble()));
  for (uint64_t j = 0; j < 2000; j++) h.AddDouble(ordered.Probability(j));
  EXPECT_EQ(0xb9fe38baa851db87ull, h.Take());

  zipf_keys::Zipfian recency(1000, 0.8);
  zipf_keys::SplitMix64 rng3(zipf_keys::ThreadSeed64(1, 2));
  uint64_t n = 1000;
  for (uint64_t i = 0; i < kDraws; i++) {
    if (i % 10 == 0) recency.Extend(++n);
    h.Add(n - 1 - recency.Rank(rng3.NextDouble()));
  }
  EXPECT_EQ(0x921a7bbc84e2530full, h.Take());
}

// One stream through the scrambled, Zipfian (growing and shrinking) and
// latest generators, in this order; the hash of each.
std::vector<uint64_t> YcsbDrawHashes(int64_t seed, double theta,
                                     uint64_t keys) {
  DrawHash h;
  std::vector<uint64_t> hashes;
  Random rng(static_cast<uint64_t>(seed) * 77 + 5);
  ScrambledZipfianGenerator scrambled(
      7, 7 + keys - 1, theta, ScrambledZipfianGenerator::ItemSpaceZeta(theta));
  for (uint64_t i = 0; i < kDraws; i++) h.Add(scrambled.Next(&rng));
  hashes.push_back(h.Take());
  ScrambledZipfianGenerator computed(0, keys - 1, theta);
  for (uint64_t i = 0; i < kDraws / 10; i++) h.Add(computed.Next(&rng));
  hashes.push_back(h.Take());
  ZipfianGenerator zipfian(3, 3 + keys - 1, theta);
  for (uint64_t i = 0; i < kDraws; i++) h.Add(zipfian.Next(&rng));
  uint64_t count = keys;
  for (uint64_t i = 0; i < kDraws; i++) {
    if (i % 7 == 0) count++;
    if (i % 100003 == 0) count = count / 2 + 1;
    h.Add(zipfian.NextWithCount(&rng, count));
    h.AddDouble(zipfian.zetan());
  }
  hashes.push_back(h.Take());
  CounterGenerator inserts(keys);
  SkewedLatestGenerator latest(&inserts, theta, Zeta(keys, theta));
  for (uint64_t i = 0; i < kDraws; i++) {
    if (i % 5 == 0) inserts.Next();
    h.Add(latest.Next(&rng));
  }
  hashes.push_back(h.Take());
  return hashes;
}

TEST(YcsbGenerators, DrawsAreThoseRecorded) {
  EXPECT_EQ(
      (std::vector<uint64_t>{0xb8bb9eb81616a2d5ull, 0xf8a2d1c6e4d0a3d1ull,
                             0xb35e8c0ff59d5035ull, 0xcfc7961d76f4f78full}),
      YcsbDrawHashes(0, 0.99, 1000000));
  EXPECT_EQ(
      (std::vector<uint64_t>{0x5969a076ccd1973dull, 0x36fc63c5b531c266ull,
                             0x5890c44ce60c8b7cull, 0x38274d6da1d37305ull}),
      YcsbDrawHashes(42, 0.8, 1000));
}

}  // namespace
}  // namespace ycsb
