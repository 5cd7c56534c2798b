#include "stress/stress_config.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "stress/fault_env.h"

namespace stress {

namespace {

bool ParseUint(const char* text, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-') {
    return false;
  }
  *out = v;
  return true;
}

bool ParseDouble(const char* text, double* out) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= 0)) return false;
  *out = v;
  return true;
}

// Sets one flag from "name=value"; returns "" or an error.
std::string SetFlag(const std::string& name, const char* value, Flags* f) {
  uint64_t u = 0;
  if (name == "db") {
    f->db = value;
  } else if (name == "state") {
    f->state = value;
  } else if (name == "fault") {
    f->fault = value;
    const std::string v = value;
    if (v != "none" && v != "power" && v != "errors" && v != "all" &&
        v != "auto") {
      return "bad value for --fault: " + v;
    }
  } else if (name == "plant") {
    f->plant = value;
    if (f->plant != "drop_filter" && f->plant != "split_batch") {
      return "unknown plant: " + f->plant;
    }
  } else if (name == "duration") {
    if (!ParseDouble(value, &f->duration)) return "bad --duration";
  } else if (name == "shared_budget_mb") {
    // MiB, fractions too: a budget tighter than the filters must move.
    if (!ParseDouble(value, &f->shared_budget_mb) || f->shared_budget_mb <= 0 ||
        f->shared_budget_mb > (1 << 20)) {
      return "bad value for --shared_budget_mb: " + std::string(value) +
             " (MiB above 0, at most 1048576; leave it out for a budget "
             "per database)";
    }
  } else if (!ParseUint(value, &u)) {
    return "bad value for --" + name + ": " + value;
  } else if (name == "seed") {
    f->seed = u;
  } else if (name == "keys" && u >= 16 && u < (1u << 28)) {
    f->keys = static_cast<uint32_t>(u);
  } else if (name == "threads" && u <= 64) {
    f->threads = static_cast<int>(u);
  } else if (name == "max_value" && u >= 8 && u <= (1u << 20)) {
    f->max_value = u;
  } else if (name == "destroy" && u <= 1) {
    f->destroy = u == 1;
  } else if (name == "prefix_check" && u <= 1) {
    f->prefix_check = u == 1;
  } else if (name == "reuse_logs" && u <= 1) {
    f->reuse_logs = static_cast<int>(u);
  } else if (name == "dbs") {
    if (u < 1 || u > 64)
      return "bad value for --dbs: " + std::string(value) + " (1 to 64)";
    f->dbs = static_cast<int>(u);
  } else {
    return "unknown flag or value out of range: --" + name;
  }
  return "";
}

}  // namespace

std::string ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; i++) {
    const char* arg = argv[i];
    const char* eq = std::strchr(arg, '=');
    if (std::strncmp(arg, "--", 2) != 0 || eq == nullptr) {
      return std::string("expected --name=value, got ") + arg;
    }
    const std::string name(arg + 2, eq - arg - 2);
    std::string err = SetFlag(name, eq + 1, flags);
    if (!err.empty()) return err;
  }
  if (flags->db.empty()) return "--db is required";
  if (flags->dbs > 1 && !flags->state.empty()) {
    return "--state takes one database; with --dbs the oracle of DIR/db<i> "
           "is DIR/db<i>.oracle";
  }
  if (flags->shared_budget_mb > 0 && flags->plant == "drop_filter") {
    return "--plant=drop_filter needs the Bloom policy, not "
           "--shared_budget_mb";
  }
  if (flags->state.empty()) flags->state = flags->db + ".oracle";
  return "";
}

std::string DbPath(const Flags& flags, int db) {
  return flags.db + "/db" + std::to_string(db);
}

std::string StatePath(const Flags& flags, int db) {
  return DbPath(flags, db) + ".oracle";
}

uint64_t DbSeed(const Flags& flags, int db) {
  return Mix64(flags.seed) + 7919 * static_cast<uint64_t>(db + 1);
}

size_t SharedBudgetBytes(const Flags& flags) {
  const double bytes = flags.shared_budget_mb * (1 << 20);
  return bytes < 1 ? 1 : static_cast<size_t>(bytes);
}

namespace {

template <typename T, size_t N>
T Pick(Rng* rng, const T (&choices)[N]) {
  return choices[rng->Uniform(N)];
}

void PickFilters(Rng* rng, Config* c) {
  c->elastic = rng->OneIn(2) || rng->OneIn(2);
  c->ribbon = !rng->OneIn(3);
  const double bits[] = {0, 0.5, 2, 4, 8, 24};
  c->budget_bits = Pick(rng, bits);
  const size_t bytes[] = {0, 0, 0, 512, 64 << 10};
  c->budget_bytes = Pick(rng, bytes);
  c->inherit_hotness = rng->OneIn(2);
  c->initial_units = static_cast<int>(rng->Uniform(3));
  c->bloom = !c->elastic && !rng->OneIn(3);
  const size_t memo[] = {0, 0, 4 << 10, 1 << 20};
  c->memo_bytes = Pick(rng, memo);
}

void PickFaults(const Flags& f, Rng* rng, Config* c) {
  std::string fault = f.fault;
  if (fault == "auto") {
    const char* kinds[] = {"none", "power", "errors", "all"};
    fault = Pick(rng, kinds);
  }
  c->power_loss = fault == "power" || fault == "all";
  const double rates[] = {1e-4, 5e-4, 2e-3};
  c->error_rate = fault == "errors" || fault == "all" ? Pick(rng, rates) : 0;
}

}  // namespace

Config PickConfig(const Flags& flags, int db) {
  Rng rng(db < 0 ? flags.seed : DbSeed(flags, db));
  Config c;
  c.threads = flags.threads > 0 ? flags.threads : 1 + rng.Uniform(8);
  PickFilters(&rng, &c);
  // 74 is the least max_open_files LevelDB accepts: table-cache churn.
  c.max_open_files = rng.OneIn(2) ? 74 : 1000;
  const size_t buffers[] = {64 << 10, 256 << 10, 4 << 20};
  c.write_buffer_size = Pick(&rng, buffers);
  const size_t files[] = {1 << 20, 2 << 20, 8 << 20};
  c.max_file_size = Pick(&rng, files);
  const size_t blocks[] = {512, 4096, 16384};
  c.block_size = Pick(&rng, blocks);
  const size_t caches[] = {0, 64 << 10};
  c.block_cache_bytes = Pick(&rng, caches);
  c.reuse_logs = rng.OneIn(2);
  c.paranoid_checks = rng.OneIn(2);
  c.direct_io = rng.OneIn(3);
  c.compression = rng.OneIn(2);
  const double syncs[] = {0, 0.01, 0.2, 1};
  c.sync_fraction = Pick(&rng, syncs);
  PickFaults(flags, &rng, &c);
  if (flags.reuse_logs >= 0) c.reuse_logs = flags.reuse_logs == 1;
  if (flags.plant == "drop_filter") {
    // It wraps the plain Bloom policy.
    c.elastic = false;
    c.bloom = true;
  }
  if (flags.shared_budget_mb > 0) {
    c.elastic = true;
    c.shared_budget_mb = flags.shared_budget_mb;
  }
  return c;
}

std::string Config::ToString() const {
  char buf[640];
  std::snprintf(
      buf, sizeof(buf),
      "threads=%d filter=%s unit_kind=%s budget_bits=%g budget_bytes=%zu "
      "inherit_hotness=%d initial_units=%d memo_bytes=%zu max_open_files=%d "
      "write_buffer_size=%zu max_file_size=%zu block_size=%zu "
      "block_cache=%zu reuse_logs=%d paranoid_checks=%d direct_io=%d "
      "compression=%d sync_fraction=%g power_loss=%d error_rate=%g",
      threads, elastic ? "elastic" : (bloom ? "bloom10" : "none"),
      ribbon ? "ribbon" : "bloom", budget_bits, budget_bytes,
      inherit_hotness ? 1 : 0, initial_units, memo_bytes, max_open_files,
      write_buffer_size, max_file_size, block_size, block_cache_bytes,
      reuse_logs ? 1 : 0, paranoid_checks ? 1 : 0, direct_io ? 1 : 0,
      compression ? 1 : 0, sync_fraction, power_loss ? 1 : 0, error_rate);
  std::string out = buf;
  if (shared_budget_mb > 0) {
    // The per-database budget fields above are then ignored.
    char mb[32];
    std::snprintf(mb, sizeof(mb), " shared_budget_mb=%g", shared_budget_mb);
    out += mb;
  }
  return out;
}

}  // namespace stress
