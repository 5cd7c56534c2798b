#include "stress/stressor.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "leveldb/direct_io.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/write_batch.h"

namespace stress {

namespace {

constexpr uint32_t kNoKey = UINT32_MAX;

// The planted bug --plant=drop_filter: every filter it builds leaves out
// about one key in 16, so lookups of those keys may be ruled out wrongly.
class DroppingFilterPolicy : public leveldb::FilterPolicy {
 public:
  explicit DroppingFilterPolicy(const leveldb::FilterPolicy* base)
      : base_(base) {}

  const char* Name() const override { return base_->Name(); }

  void CreateFilter(const leveldb::Slice* keys, int n,
                    std::string* dst) const override {
    std::vector<leveldb::Slice> kept;
    for (int i = 0; i < n; i++) {
      uint32_t k = 0;
      if (!ParseKey(keys[i], &k) || Mix64(k) % 16 != 0) {
        kept.push_back(keys[i]);
      }
    }
    base_->CreateFilter(kept.data(), static_cast<int>(kept.size()), dst);
  }

  bool KeyMayMatch(const leveldb::Slice& key,
                   const leveldb::Slice& filter) const override {
    return base_->KeyMayMatch(key, filter);
  }

 private:
  const leveldb::FilterPolicy* const base_;
};

const leveldb::FilterPolicy* MakeFilter(const Config& c,
                                        leveldb::ElasticFilterBudget* budget) {
  if (c.elastic) {
    leveldb::ElasticFilterOptions eo;
    eo.shared_budget = budget;
    eo.unit_kind = c.ribbon ? leveldb::ElasticFilterOptions::UnitKind::kRibbon
                            : leveldb::ElasticFilterOptions::UnitKind::kBloom;
    eo.memory_bits_per_key = c.budget_bits;
    eo.memory_budget_bytes = budget != nullptr ? 0 : c.budget_bytes;
    eo.inherit_hotness = c.inherit_hotness;
    eo.initial_units = c.initial_units;
    eo.false_positive_memo_bytes = c.memo_bytes;
    return leveldb::NewElasticFilterPolicy(eo);
  }
  return c.bloom ? leveldb::NewBloomFilterPolicy(10) : nullptr;
}

const char* RecoveryName(int how) {
  const char* names[] = {"at open", "after reopen", "after power loss"};
  return names[how];
}

}  // namespace

void Gate::Enter() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return !closed_; });
  inside_++;
}

bool Gate::TryEnter() {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) return false;
  inside_++;
  return true;
}

void Gate::Exit() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--inside_ == 0) cv_.notify_all();
}

void Gate::Close() {
  std::unique_lock<std::mutex> lock(mu_);
  closed_ = true;
  cv_.wait(lock, [this] { return inside_ == 0; });
}

void Gate::Open() {
  std::lock_guard<std::mutex> lock(mu_);
  closed_ = false;
  cv_.notify_all();
}

Totals& Totals::operator+=(const Totals& o) {
  ops += o.ops;
  checked += o.checked;
  acked_writes += o.acked_writes;
  write_errors += o.write_errors;
  read_errors += o.read_errors;
  power_losses += o.power_losses;
  reopens += o.reopens;
  faults.injected_errors += o.faults.injected_errors;
  faults.torn_files += o.faults.torn_files;
  faults.dropped_creations += o.faults.dropped_creations;
  return *this;
}

void PrintTotals(const std::string& tag, const Totals& t) {
  std::printf(
      "%s: ops=%llu checked=%llu acked_writes=%llu write_errors=%llu "
      "read_errors=%llu power_losses=%llu reopens=%llu injected=%llu "
      "torn_files=%llu dropped_files=%llu\n",
      tag.c_str(), static_cast<unsigned long long>(t.ops),
      static_cast<unsigned long long>(t.checked),
      static_cast<unsigned long long>(t.acked_writes),
      static_cast<unsigned long long>(t.write_errors),
      static_cast<unsigned long long>(t.read_errors),
      static_cast<unsigned long long>(t.power_losses),
      static_cast<unsigned long long>(t.reopens),
      static_cast<unsigned long long>(t.faults.injected_errors),
      static_cast<unsigned long long>(t.faults.torn_files),
      static_cast<unsigned long long>(t.faults.dropped_creations));
  std::fflush(stdout);
}

Stressor::Stressor(const Flags& flags, const Config& config,
                   ExpectedState* oracle, const Member& member)
    : flags_(flags),
      config_(config),
      oracle_(oracle),
      index_(member.index),
      db_path_(member.index < 0 ? flags.db : DbPath(flags, member.index)),
      seed_(member.index < 0 ? flags.seed : DbSeed(flags, member.index)),
      env_(new FaultEnv(
          config.direct_io ? leveldb::DirectIOEnv() : leveldb::Env::Default(),
          Mix64(seed_ + 1))),
      filter_(MakeFilter(config, member.budget)),
      tracker_(oracle->num_keys()),
      locks_(new std::mutex[oracle->num_keys()]),
      main_rng_(seed_ + 2) {
  if (flags.plant == "drop_filter") {
    planted_.reset(new DroppingFilterPolicy(filter_.get()));
  }
  if (config.block_cache_bytes > 0) {
    cache_.reset(leveldb::NewLRUCache(config.block_cache_bytes));
  }
}

Stressor::~Stressor() { delete db_; }

bool Stressor::OpenDb() {
  leveldb::Options o;
  o.env = env_.get();
  o.create_if_missing = true;
  o.filter_policy = planted_ ? planted_.get() : filter_.get();
  o.max_open_files = config_.max_open_files;
  o.write_buffer_size = config_.write_buffer_size;
  o.max_file_size = config_.max_file_size;
  o.block_size = config_.block_size;
  o.block_cache = cache_.get();
  o.reuse_logs = config_.reuse_logs;
  o.paranoid_checks = config_.paranoid_checks;
  o.compression = config_.compression ? leveldb::kSnappyCompression
                                      : leveldb::kNoCompression;
  env_->SetErrorRate(0);
  leveldb::Status s = leveldb::DB::Open(o, db_path_, &db_);
  if (!s.ok()) {
    db_ = nullptr;
    Violation("open_failed", kNoKey, s.ToString());
    return false;
  }
  return true;
}

void Stressor::Violation(const std::string& kind, uint32_t key,
                         const std::string& detail) {
  static std::mutex print_mu;
  std::lock_guard<std::mutex> lock(print_mu);
  const std::string where = index_ < 0 ? "" : " db=db" + std::to_string(index_);
  std::printf("VIOLATION %s%s key=%s: %s\n", kind.c_str(), where.c_str(),
              key == kNoKey ? "-" : KeyString(key).c_str(), detail.c_str());
  std::string extra =
      flags_.reuse_logs < 0
          ? ""
          : " --reuse_logs=" + std::to_string(flags_.reuse_logs);
  if (!flags_.prefix_check) extra += " --prefix_check=0";
  if (flags_.dbs > 1) extra += " --dbs=" + std::to_string(flags_.dbs);
  if (flags_.shared_budget_mb > 0) {
    char mb[48];
    std::snprintf(mb, sizeof(mb), " --shared_budget_mb=%g",
                  flags_.shared_budget_mb);
    extra += mb;
  }
  std::printf(
      "  repeat: db_stress --seed=%llu --keys=%u --fault=%s%s%s%s "
      "(options: %s)\n",
      static_cast<unsigned long long>(flags_.seed), flags_.keys,
      flags_.fault.c_str(),
      flags_.plant.empty() ? "" : " --plant=", flags_.plant.c_str(),
      extra.c_str(), config_.ToString().c_str());
  std::fflush(stdout);
  failed_ = true;
}

Stressor::Read Stressor::ReadKey(const leveldb::ReadOptions& ro, uint32_t key,
                                 Found* found, BatchList* batch) {
  std::string value;
  leveldb::Status s = db_->Get(ro, KeyString(key), &value);
  found->present = false;
  if (s.IsNotFound()) return Read::kOk;
  if (!s.ok()) {
    counters_.read_errors++;
    return Read::kError;
  }
  uint32_t v = 0;
  BatchList entries;
  if (!DecodeValue(key, value, flags_.max_value, &v, &entries)) {
    Violation("corrupt_value", key,
              "a value of " + std::to_string(value.size()) +
                  " bytes that is no version of this key");
    return Read::kBad;
  }
  found->present = true;
  found->version = v;
  if (batch != nullptr) *batch = std::move(entries);
  return Read::kOk;
}

bool Stressor::ScanRange(const leveldb::Snapshot* snap, uint32_t lo, uint32_t n,
                         std::vector<Found>* out,
                         std::vector<BatchList>* batches) {
  out->assign(n, Found());
  batches->assign(n, BatchList());
  leveldb::ReadOptions ro;
  ro.snapshot = snap;
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(ro));
  int64_t prev = static_cast<int64_t>(lo) - 1;
  for (it->Seek(KeyString(lo)); it->Valid(); it->Next()) {
    uint32_t k = 0;
    if (!ParseKey(it->key(), &k) || static_cast<int64_t>(k) <= prev) {
      Violation("iterator_order", k,
                "key '" + it->key().ToString() + "' after key " +
                    std::to_string(prev) + " in a scan from " + KeyString(lo));
      return false;
    }
    if (k >= lo + n) break;
    uint32_t v = 0;
    if (!DecodeValue(k, it->value(), flags_.max_value, &v,
                     &(*batches)[k - lo])) {
      Violation("corrupt_value", k, "a scanned value that is no version");
      return false;
    }
    (*out)[k - lo] = Found{true, v};
    prev = k;
  }
  if (!it->status().ok()) {
    counters_.read_errors++;
    return false;
  }
  return true;
}

bool Stressor::VerifyAll(Recovery how) {
  const uint32_t n = oracle_->num_keys();
  const char* when = RecoveryName(static_cast<int>(how));
  std::vector<Found> found(n);
  std::vector<BatchList> batches(n);
  for (uint32_t k = 0; k < n; k++) {
    const Read r = ReadKey(leveldb::ReadOptions(), k, &found[k], &batches[k]);
    if (r == Read::kBad) return false;
    if (r == Read::kError) {
      Violation("read_failed", k, std::string("Get failed ") + when);
      return false;
    }
    const KeyState s = oracle_->Load(k);
    const std::string why =
        how == Recovery::kPowerLoss
            ? CheckAfterPowerLoss(s, tracker_.FloorOf(k), found[k])
            : CheckExact(s, found[k]);
    if (!why.empty()) {
      Violation(
          found[k].present ? "wrong_version" : "lost_write", k,
          std::string(when) + ": found " + Describe(found[k]) + ", " + why);
      return false;
    }
    counters_.checked++;
  }
  // A full scan must agree with the Gets, key by key.
  std::vector<Found> scanned;
  std::vector<BatchList> scanned_batches;
  if (!ScanRange(nullptr, 0, n, &scanned, &scanned_batches)) {
    if (!failed_) Violation("scan_failed", kNoKey, when);
    return false;
  }
  for (uint32_t k = 0; k < n; k++) {
    if (scanned[k].present != found[k].present ||
        scanned[k].version != found[k].version) {
      Violation("scan_mismatch", k,
                std::string(when) + ": Get found " + Describe(found[k]) +
                    ", the scan " + Describe(scanned[k]));
      return false;
    }
  }
  if (!CheckAcrossKeys(found, batches, how)) return false;
  for (uint32_t k = 0; k < n; k++) Adopt(k, found[k], how);
  counters_.checked += n;
  return true;
}

bool Stressor::CheckAcrossKeys(const std::vector<Found>& found,
                               const std::vector<BatchList>& batches,
                               Recovery how) {
  const std::string when = RecoveryName(static_cast<int>(how));
  std::vector<KeyState> states(found.size());
  for (uint32_t k = 0; k < found.size(); k++) states[k] = oracle_->Load(k);
  // Write batches are atomic: all of each one that left a value survived.
  for (uint32_t k = 0; k < found.size(); k++) {
    for (const BatchEntry& e : batches[k]) {
      const std::string why = CheckBatchEntry(e, found[e.key], states[e.key]);
      if (!why.empty()) {
        Violation("torn_batch", k,
                  when + ": found " + Describe(found[k]) + ", but " + why);
        return false;
      }
    }
  }
  if (how != Recovery::kPowerLoss || !flags_.prefix_check) return true;
  const std::string why = tracker_.CheckPrefix(found, states);
  if (!why.empty()) Violation("prefix_hole", kNoKey, when + ": " + why);
  return why.empty();
}

void Stressor::Adopt(uint32_t key, const Found& found, Recovery how) {
  // What recovery kept is now the acknowledged state; versions in
  // (found, top] that it did not keep can no longer appear.
  KeyState s = oracle_->Load(key);
  const KeyState before = s;
  if (found.present) {
    s.acked = found.version;
    s.acked_del = false;
  } else if (!s.acked_del) {
    s.acked = s.top;
    s.acked_del = true;
  }
  s.maybe = s.maybe_del = false;
  oracle_->Store(key, s);
  if (how != Recovery::kReopen) {
    // At open every file counts as durable to this process's Env, and
    // after a power loss what survived is on disk.
    tracker_.Reset(key, s.acked, s.acked_del);
  } else if (s.acked != before.acked || s.acked_del != before.acked_del) {
    tracker_.Acked(key, s.acked, s.acked_del, false, tracker_.IssueMark());
  }
}

bool Stressor::Recover(Recovery how) {
  std::lock_guard<std::mutex> serial(recover_mu_);
  const bool power = how == Recovery::kPowerLoss;
  // The power goes out while workers may be inside a write: theirs fail.
  env_->SetPowerOut(power);
  gate_.Close();
  env_->SetErrorRate(0);
  reopen_wanted_ = false;
  delete db_;  // with the power out, nothing it writes now reaches a file
  db_ = nullptr;
  env_->SetPowerOut(false);
  bool ok = true;
  if (power) {
    leveldb::Status s = env_->PowerLoss(main_rng_.Next());
    if (!s.ok()) Violation("power_loss_setup", kNoKey, s.ToString());
    ok = s.ok();
    counters_.power_losses++;
  } else {
    counters_.reopens++;
  }
  ok = ok && OpenDb() && VerifyAll(how);
  env_->SetErrorRate(config_.error_rate);
  gate_.Open();
  return ok;
}

Totals Stressor::totals() const {
  Totals t;
  t.ops = counters_.ops;
  t.checked = counters_.checked;
  t.acked_writes = counters_.acked_writes;
  t.write_errors = counters_.write_errors;
  t.read_errors = counters_.read_errors;
  t.power_losses = counters_.power_losses;
  t.reopens = counters_.reopens;
  t.faults = env_->stats();
  return t;
}

void Stressor::PrintProgress(const char* tag) { PrintTotals(tag, totals()); }

void Stressor::Maintain(Clock::time_point now) {
  if (reopen_wanted_) {
    Recover(Recovery::kReopen);
  } else if (now >= next_power_) {
    Recover(Recovery::kPowerLoss);
    SchedulePowerLoss();
  }
}

void Stressor::SchedulePowerLoss() {
  if (!config_.power_loss) return;
  next_power_ =
      Clock::now() + std::chrono::milliseconds(50 + main_rng_.Uniform(1000));
}

bool Stressor::Reopen() { return Recover(Recovery::kReopen); }

bool Stressor::Property(const std::string& name, std::string* value) {
  if (!gate_.TryEnter()) return false;
  const bool ok = db_ != nullptr && db_->GetProperty(name, value);
  gate_.Exit();
  return ok;
}

void Stressor::MainLoop() {
  const auto start = Clock::now();
  const auto end = start + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(flags_.duration));
  auto next_progress = start + std::chrono::seconds(1);
  while (!failed_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto now = Clock::now();
    if (now >= end) break;
    if (now >= next_progress) {
      PrintProgress("progress");
      next_progress += std::chrono::seconds(1);
    }
    Maintain(now);
  }
}

bool Stressor::Start() {
  if (!OpenDb() || !VerifyAll(Recovery::kNone)) return false;
  env_->SetErrorRate(config_.error_rate);
  SchedulePowerLoss();
  return true;
}

void Stressor::Close() {
  env_->SetErrorRate(0);
  delete db_;  // a clean close; the next run checks what it left
  db_ = nullptr;
}

int Stressor::Run() {
  if (!OpenDb() || !VerifyAll(Recovery::kNone)) return 1;
  PrintProgress("opened");
  env_->SetErrorRate(config_.error_rate);
  std::vector<std::thread> workers;
  for (int i = 0; i < config_.threads; i++) {
    workers.emplace_back([this, i] { Worker(i); });
  }
  SchedulePowerLoss();
  MainLoop();
  stop_ = true;
  gate_.Open();
  for (std::thread& t : workers) t.join();
  Close();
  PrintProgress("stats");
  std::printf("result: %s\n", failed_ ? "VIOLATION" : "ok");
  return failed_ ? 1 : 0;
}

}  // namespace stress
