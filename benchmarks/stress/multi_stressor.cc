#include "stress/multi_stressor.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "leveldb/db.h"
#include "leveldb/env.h"

namespace stress {

namespace {

using Clock = Stressor::Clock;

std::chrono::milliseconds Millis(uint32_t ms) {
  return std::chrono::milliseconds(ms);
}

// The value of line "name: N" of a leveldb.elasticbf text, or 0.
uint64_t Field(const std::string& text, const std::string& name) {
  const std::string key = "\n" + name + ": ";
  const size_t pos = ("\n" + text).find(key);
  if (pos == std::string::npos) return 0;
  return std::strtoull(text.c_str() + pos + key.size() - 1, nullptr, 10);
}

}  // namespace

MultiStressor::MultiStressor(const Flags& flags)
    : flags_(flags),
      threads_(flags.threads > 0 ? flags.threads : PickConfig(flags).threads),
      main_rng_(flags.seed + 3),
      cycle_rng_(flags.seed + 4) {}

MultiStressor::~MultiStressor() = default;

std::string MultiStressor::Setup() {
  leveldb::Env::Default()->CreateDir(flags_.db);  // it may exist
  for (int i = 0; i < flags_.dbs; i++) {
    if (flags_.destroy) {
      leveldb::Status s =
          leveldb::DestroyDB(DbPath(flags_, i), leveldb::Options());
      if (!s.ok()) return s.ToString();
      std::remove(StatePath(flags_, i).c_str());
    }
    std::unique_ptr<ExpectedState> oracle;
    const std::string err =
        ExpectedState::Open(StatePath(flags_, i), flags_.keys, &oracle);
    if (!err.empty()) return err;
    oracles_.push_back(std::move(oracle));
  }
  if (flags_.shared_budget_mb > 0) {
    budget_.reset(leveldb::NewElasticFilterBudget(SharedBudgetBytes(flags_)));
  }
  std::printf(
      "db_stress: seed=%llu keys=%u dbs=%d shared_budget_mb=%g fault=%s "
      "plant=%s threads=%d\n",
      static_cast<unsigned long long>(flags_.seed), flags_.keys, flags_.dbs,
      flags_.shared_budget_mb, flags_.fault.c_str(),
      flags_.plant.empty() ? "none" : flags_.plant.c_str(), threads_);
  for (int i = 0; i < flags_.dbs; i++) {
    Config config = PickConfig(flags_, i);
    config.threads = threads_;  // the process's, shared by the databases
    std::printf("db%d options: %s\n", i, config.ToString().c_str());
    Member member;
    member.index = i;
    member.budget = budget_.get();
    dbs_.emplace_back(new Stressor(flags_, config, oracles_[i].get(), member));
  }
  std::fflush(stdout);
  return "";
}

int MultiStressor::Run() {
  // Opens and closes run concurrently: they join and leave the shared
  // budget's scheduler together.
  ForEachDb([](Stressor* db) { db->Start(); });
  if (!AnyFailed()) {
    PrintTotals("opened");
    std::vector<std::thread> threads;
    for (int i = 0; i < threads_; i++) {
      threads.emplace_back([this, i] { Worker(i); });
    }
    threads.emplace_back([this] { Cycler(); });
    MainLoop();
    stop_ = true;
    for (std::thread& t : threads) t.join();
    CheckBudget(true);
  }
  ForEachDb([](Stressor* db) { db->Close(); });
  PrintTotals("stats");
  for (size_t i = 0; i < dbs_.size(); i++) {
    stress::PrintTotals("stats db" + std::to_string(i), dbs_[i]->totals());
  }
  const bool failed = AnyFailed();
  std::printf("result: %s\n", failed ? "VIOLATION" : "ok");
  return failed ? 1 : 0;
}

void MultiStressor::Worker(int id) {
  Rng rng(Mix64(flags_.seed) + 1000 + id);
  while (!Stopping()) {
    if (!dbs_[PickDb(&rng)]->Step(&rng)) {
      // Closed for a reopen or waiting for one; the others are open.
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
}

size_t MultiStressor::PickDb(Rng* rng) const {
  // Three in four operations go to the hot database.
  return rng->OneIn(4) ? rng->Uniform(static_cast<uint32_t>(dbs_.size()))
                       : hot_.load();
}

void MultiStressor::MainLoop() {
  const auto start = Clock::now();
  const auto end = start + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(flags_.duration));
  auto next_progress = start + std::chrono::seconds(1);
  auto next_shift = start;
  while (!AnyFailed()) {
    std::this_thread::sleep_for(Millis(5));
    const auto now = Clock::now();
    if (now >= end) break;
    if (now >= next_progress) {
      PrintTotals("progress");
      next_progress += std::chrono::seconds(1);
    }
    if (now >= next_shift) {
      // A new hot database: its units must come from the others.
      hot_ = main_rng_.Uniform(static_cast<uint32_t>(dbs_.size()));
      next_shift = now + Millis(200 + main_rng_.Uniform(800));
    }
    for (const auto& db : dbs_) db->Maintain(now);
    CheckBudget(false);
  }
}

void MultiStressor::Cycler() {
  // Beside the main thread's reopens and power losses: a second thread
  // that closes and opens databases while the rest run.
  while (!Stopping()) {
    const auto due = Clock::now() + Millis(100 + cycle_rng_.Uniform(400));
    while (!Stopping() && Clock::now() < due) {
      std::this_thread::sleep_for(Millis(5));
    }
    if (Stopping()) break;
    dbs_[cycle_rng_.Uniform(static_cast<uint32_t>(dbs_.size()))]->Reopen();
  }
}

void MultiStressor::CheckBudget(bool at_end) {
  if (budget_ == nullptr) return;
  for (const auto& db : dbs_) {
    std::string text;
    if (!db->Property("leveldb.elasticbf", &text)) continue;  // closed
    const uint64_t used = Field(text, "memory_used_bytes");
    const uint64_t bytes = Field(text, "memory_budget_bytes");
    const uint64_t members = Field(text, "shared_budget_databases");
    char detail[200];
    std::snprintf(
        detail, sizeof(detail),
        "databases=%llu memory_used_bytes=%llu "
        "memory_budget_bytes=%llu unit_loads=%llu "
        "unit_evictions=%llu",
        static_cast<unsigned long long>(members),
        static_cast<unsigned long long>(used),
        static_cast<unsigned long long>(bytes),
        static_cast<unsigned long long>(Field(text, "unit_loads")),
        static_cast<unsigned long long>(Field(text, "unit_evictions")));
    if (used > bytes || bytes != budget_->bytes()) {
      Violation("budget_exceeded", detail);
    } else if (at_end && members != dbs_.size()) {
      // Every database is open now: each must be a member.
      Violation("budget_not_shared", detail);
    } else if (at_end) {
      std::printf("budget: %s\n", detail);
    }
    return;
  }
}

void MultiStressor::Violation(const std::string& kind,
                              const std::string& detail) {
  std::printf(
      "VIOLATION %s key=-: %s\n  repeat: db_stress --seed=%llu --keys=%u "
      "--dbs=%d --shared_budget_mb=%g --fault=%s\n",
      kind.c_str(), detail.c_str(),
      static_cast<unsigned long long>(flags_.seed), flags_.keys, flags_.dbs,
      flags_.shared_budget_mb, flags_.fault.c_str());
  std::fflush(stdout);
  failed_ = true;
}

bool MultiStressor::AnyFailed() const {
  if (failed_) return true;
  for (const auto& db : dbs_) {
    if (db->failed()) return true;
  }
  return false;
}

void MultiStressor::ForEachDb(const std::function<void(Stressor*)>& fn) {
  std::vector<std::thread> threads;
  for (const auto& db : dbs_) {
    threads.emplace_back([&fn, &db] { fn(db.get()); });
  }
  for (std::thread& t : threads) t.join();
}

void MultiStressor::PrintTotals(const char* tag) const {
  Totals sum;
  for (const auto& db : dbs_) sum += db->totals();
  stress::PrintTotals(tag, sum);
}

}  // namespace stress
