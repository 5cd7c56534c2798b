// Gets from several threads through TableCache while the MQSchedule loads
// and evicts filter units as fast as it can and tables open and close: no
// false negative, no false positive answer, and the budget always holds.
#include <algorithm>
#include <atomic>
#include <chrono>  // NOLINT
#include <memory>
#include <string>
#include <thread>  // NOLINT
#include <vector>

#include "db/filename.h"
#include "db/table_cache.h"
#include "elastic/mq_schedule.h"
#include "gtest/gtest.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/helpers/memenv.h"
#include "leveldb/options.h"
#include "table/elastic/filter_group.h"
#include "tests/elastic_test_helpers.h"
#include "tests/elastic_test_peer.h"
#include "tests/test_util.h"
#include "util/epoch.h"
#include "util/hash64.h"
#include "util/io_stats.h"
#include "util/random.h"

namespace leveldb {
namespace {

constexpr int kTables = 24;
constexpr int kKeysPerTable = 2000;
constexpr int kThreads = 4;

struct Counters {
  std::atomic<uint64_t> gets{0};
  std::atomic<uint64_t> missing{0};      // present key not found
  std::atomic<uint64_t> phantom{0};      // absent key found
  std::atomic<uint64_t> wrong_value{0};  // present key, other value
  std::atomic<uint64_t> errors{0};       // non-OK status
};

// Bytes of the segment locators of every table, as a filter layer with
// room for everything registers them.
uint64_t LocatorBytes(MQScheduleOptions mo, const Options& options,
                      const std::string& dbname,
                      const std::vector<uint64_t>& sizes) {
  mo.elastic.memory_budget_bytes = size_t{1} << 30;
  mo.stats = nullptr;
  MQSchedule mqs(mo);
  TableCache cache(dbname, options, 4, &mqs);
  for (size_t t = 0; t < sizes.size(); ++t) {
    EXPECT_TRUE(test::GetFromTable(&cache, t + 1, sizes[t], "k").status.ok());
  }
  const uint64_t bytes = MQScheduleTestPeer::GetStats(&mqs).locator_bytes;
  EXPECT_GT(bytes, 0u);
  return bytes;
}

TEST(ElasticConcurrencyTest, NoFalseNegativesWhileUnitsChurn) {
  std::unique_ptr<Env> env(NewMemEnv(Env::Default()));
  const std::string dbname = "/elastic_concurrency";
  ASSERT_TRUE(env->CreateDir(dbname).ok());

  ElasticFilterOptions eo;
  eo.segment_bytes = 4096;
  eo.lifetime = 1;  // everything not touched by the last Get is expired
  eo.initial_units = 1;
  std::unique_ptr<const FilterPolicy> policy(NewElasticFilterPolicy(eo));
  Options options;
  options.env = env.get();
  options.block_size = 1024;
  options.compression = kNoCompression;
  options.filter_policy = policy.get();
  // Tables as a DB writes them: internal keys.
  test::InternalKeyOptions internal;
  const Options& table_options = internal.From(options);

  std::vector<test::KVVector> contents(kTables);
  std::vector<uint64_t> sizes(kTables);
  uint64_t largest_unit = 0;
  for (int t = 0; t < kTables; ++t) {
    test::KVVector& kvs = contents[t];
    for (int i = 0; i < kKeysPerTable; ++i) {
      const int n = t * kKeysPerTable + i;
      kvs.emplace_back(test::PresentKey(n), "value" + std::to_string(n));
    }
    const std::string bytes =
        test::BuildTableBytes(table_options, test::InternalEntries(kvs));
    ElasticIndex index;
    ASSERT_TRUE(test::ReadElasticIndexOf(bytes, &index).ok());
    ASSERT_GE(index.num_segments(), 4u);
    for (uint32_t s = 0; s < index.num_segments(); ++s) {
      largest_unit = std::max(largest_unit, index.segment(s).unit_size);
    }
    ASSERT_TRUE(
        WriteStringToFile(env.get(), bytes, TableFileName(dbname, t + 1)).ok());
    sizes[t] = bytes.size();
  }

  IoStats stats;
  MQScheduleOptions mo;
  mo.elastic = eo;
  mo.stats = &stats;
  mo.min_auto_lifetime = 1;
  mo.opener = test::OpenerFor(env.get(), dbname);
  // The budget covers every table's locator and a few units only.
  mo.elastic.memory_budget_bytes =
      LocatorBytes(mo, table_options, dbname, sizes) + 4 * largest_unit;
  MQSchedule mqs(mo);
  Counters counters;
  {
    // Far fewer cache slots than tables: tables close and reopen all the
    // time too, while their filters stay.
    TableCache cache(dbname, table_options, 4, &mqs);

    std::atomic<bool> stop{false};
    std::atomic<int> over_budget{0};
    std::thread monitor([&] {
      while (!stop.load()) {
        uint64_t used, budget;
        mqs.GetMemory(&used, &budget);
        if (used > budget) over_budget.fetch_add(1);
        std::this_thread::yield();
      }
    });

    auto worker = [&](int id) {
      Random rnd(test::RandomSeed() + id);
      while (!stop.load(std::memory_order_relaxed)) {
        // Most Gets go to a hot table that changes every few thousand Gets,
        // so units keep moving between segments.
        const int hot = static_cast<int>((mqs.layer()->Now() / 5000) % kTables);
        const int t = rnd.OneIn(4) ? rnd.Uniform(kTables) : hot;
        const int i = rnd.Uniform(kKeysPerTable);
        const int n = t * kKeysPerTable + i;
        const bool absent = rnd.OneIn(2);
        const std::string key =
            absent ? test::AbsentKey(n) : test::PresentKey(n);

        mqs.layer()->Tick();  // as DBImpl::Get does
        const test::TableGet get =
            test::GetFromTable(&cache, t + 1, sizes[t], key, &stats);
        counters.gets.fetch_add(1, std::memory_order_relaxed);
        if (!get.status.ok()) {
          counters.errors.fetch_add(1);
        } else if (absent && get.found()) {
          counters.phantom.fetch_add(1);
        } else if (!absent && !get.found()) {
          counters.missing.fetch_add(1);
        } else if (!absent && get.value != "value" + std::to_string(n)) {
          counters.wrong_value.fetch_add(1);
        }
        if (!absent && get.probe.filter_rejected) {
          counters.missing.fetch_add(1);
        }
      }
    };
    std::vector<std::thread> workers;
    for (int w = 0; w < kThreads; ++w) workers.emplace_back(worker, w);
    // Run for 1.5 s, longer if the machine is so busy that little happened
    // by then, but never more than a minute.
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const auto elapsed = std::chrono::steady_clock::now() - start;
      const MQSchedule::Stats now = MQScheduleTestPeer::GetStats(&mqs);
      const bool enough = counters.gets.load() >= 20000 &&
                          now.unit_loads >= 50 && now.unit_evictions >= 50;
      if ((enough && elapsed >= std::chrono::milliseconds(1500)) ||
          elapsed >= std::chrono::seconds(60)) {
        break;
      }
    }
    stop.store(true);
    for (auto& w : workers) w.join();
    monitor.join();
    EXPECT_EQ(0, over_budget.load());
    MQScheduleTestPeer::WaitIdle(&mqs);
    std::string error;
    EXPECT_TRUE(MQScheduleTestPeer::CheckInvariants(&mqs, &error)) << error;
  }
  // The cache is gone, the filters are not; deleting the files frees them.
  EXPECT_EQ(static_cast<uint64_t>(kTables),
            MQScheduleTestPeer::GetStats(&mqs).attached_tables);
  for (int t = 0; t < kTables; ++t) mqs.ForgetFile(t + 1);
  const MQSchedule::Stats st = MQScheduleTestPeer::GetStats(&mqs);
  SCOPED_TRACE(mqs.StatsString() + stats.ToString());
  EXPECT_EQ(0u, st.attached_tables);
  EXPECT_EQ(0u, st.installed_bytes);
  EXPECT_EQ(0u, st.locator_bytes);

  EXPECT_GT(counters.gets.load(), 1000u);
  EXPECT_EQ(0u, counters.missing.load());
  EXPECT_EQ(0u, counters.phantom.load());
  EXPECT_EQ(0u, counters.wrong_value.load());
  EXPECT_EQ(0u, counters.errors.load());
  // The filters were really in use and really churning.
  EXPECT_GT(stats.filter_rejections.load(), 0u);
  EXPECT_GT(st.unit_loads, 10u);
  EXPECT_GT(st.unit_evictions, 10u);
  EXPECT_EQ(0u, st.unit_load_failures);
}

}  // namespace
}  // namespace leveldb
