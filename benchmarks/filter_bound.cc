// filter_bound: the fewest I/Os per Get that any placement of filter memory
// over segments can give on the read-path protocol (db_bench readzipf), to
// judge measured results and targets against what is possible at all
// (docs/evaluation.md, "What the targets allow").
//
// Why it is a bound: lookups are independent draws from a fixed
// distribution, so the filters in memory when a Get arrives were chosen
// without knowing its key; its expected waste is at least the minimum, over
// all placements within the budget, of the expected waste. Level 0 counted
// as one level (fewer probes than several files) keeps the bound a bound.
//
// The waste of a probe of segment s for an absent key is the false-positive
// rate of the filter bits s holds, under four models, each minimised
// exactly: whole Bloom units (FPR r^k; greedy on marginal gain per byte is
// optimal because the gains fall with k), whole Ribbon units charged their
// real size (same greedy), any real number of Bloom bits per key (water
// filling on the Lagrangian) and any filter (2^-b). In the model every
// segment holds --segment_keys keys, so one greedy pass over all segments
// is optimal; from a database (--db, --ycsb_db) segments differ and the
// unit bounds are the LP relaxation, still a bound.
//
// Key probabilities: ranks of the scrambled Zipfian below --exact_ranks are
// summed per key exactly; the remaining mass is spread evenly (those ranks
// land on every key hundreds of times). --key_dist gives the key-range
// locality distributions of docs/workloads.md.
//
// --adaptive_gets=N: the bound for a placement that also learns from
// false positives it has paid (the memo of elastic/false_positive_memo.h,
// its memory free): a lookup wastes a read in a segment only the first
// time it comes in a run of N Gets, so each distinct lookup of
// probability q weighs the expected number of its first occurrences per
// Get, (1 - (1 - q)^N) / N, instead of q. Keys share the tail of ranks
// above --exact_ranks evenly, as for the static bound. A second row
// charges the static optimum's placement the same way: what a memo with
// today's placement could reach at best, so its gap to the adaptive row is
// all that placing units for the adaptive masses could add. Below the
// table, how the two placements differ (means per level, memory moved).
//
// --pool: several trees (databases) whose Gets each go to one tree with
// the given weights, the budget being bits per key of all of them: the
// bound for the best placement of the total over all trees, and for a
// split of equal bytes per tree (docs/evaluation.md, "Many databases
// sharing one budget"). --pool_dbs takes each tree's segments from its
// database, as --db does for one.
#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "common/flags.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "elastic/hotness_inheritance.h"
#include "elastic/mq_schedule.h"
#include "leveldb/elastic_filter.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "table/elastic/filter_group.h"
#include "table/elastic/filter_unit.h"
#include "table/elastic/ribbon_unit.h"
#include "table/elastic/segment.h"
#include "table/elastic/segment_key_range.h"
#include "ycsb/generators.h"
#include "ycsb/record.h"
#include "zipf_keys.h"

namespace {

using bench::ParseDouble;
using bench::ParseU64;

struct Flags {
  uint64_t num = 24000000;
  double zipf = 0.99;
  double zero_lookup_ratio = 0.5;
  // Shares of the keys per level, top to bottom: the tree of the 24M-key
  // ElasticBF run right after its load (segments per level 24, 28, 247,
  // 2556, 77; eval/readpath-24m-d4).
  std::vector<double> levels = {0.0082, 0.0095, 0.0842, 0.8718, 0.0263};
  // The writer's segment size for the default 4 bits per unit.
  uint64_t segment_keys = leveldb::SegmentKeysForBits(4);
  int bits_per_unit = 4;
  int units_per_segment = 6;
  uint64_t exact_ranks = 200000000;
  std::vector<double> budgets = {4, 6.02};
  // Present keys then waste nothing: a bound on any workload whose present
  // keys may be found early (in the memtable), if a looser one.
  bool absent_only = false;
  bool absent_only_given = false;
  std::string db;                   // take the tree from this database
  std::string key_format = "ycsb";  // who wrote it: ycsb or readzipf
  zipf_keys::KeyDist key_dist = zipf_keys::KeyDist::kZipf;
  double hot_data_fraction = 0.2;
  double hot_op_fraction = 0.8;
  double hot_range_start = 0.0;
  bool ycsb_ordered = false;  // --ycsb_insertorder=ordered
  // --pool: per tree its keys, share of the Gets and level shares (empty:
  // --levels); --pool_zipf replaces the shares by a Zipfian over trees.
  struct Tree {
    uint64_t keys;
    double weight;
    std::vector<double> levels;
  };
  std::vector<Tree> pool;
  double pool_zipf = 0;
  std::vector<std::string> pool_dbs;  // --pool_dbs: tree i's database
  uint64_t adaptive_gets = 0;         // 0: no adaptive rows
};

[[noreturn]] void Usage(const char* msg) {
  std::fprintf(stderr,
               "filter_bound: %s\n"
               "usage: filter_bound [--num=N] [--zipf=THETA] "
               "[--zero_lookup_ratio=R] [--levels=S0,S1,...] "
               "[--segment_keys=K] [--bits_per_unit=B] "
               "[--units_per_segment=U] [--exact_ranks=M] "
               "[--budgets=B1,B2,...] [--absent_only=0|1] "
               "[--db=DIR [--key_format=ycsb|readzipf]] [--ycsb_db=DIR] "
               "[--ycsb_insertorder=hashed|ordered] "
               "[--key_dist=zipf|ordered_zipf|hotspot|latest] "
               "[--hot_data_fraction=F] [--hot_op_fraction=F] "
               "[--hot_range_start=F] "
               "[--pool=[Cx]KEYS:WEIGHT[:S0/S1/...],... [--pool_zipf=T] "
               "[--pool_dbs=DIR1,DIR2,...]] [--adaptive_gets=N]\n",
               msg);
  std::exit(2);
}

// Non-negative numbers separated by `sep`.
bool ParseList(const std::string& list, std::vector<double>* out,
               char sep = ',') {
  out->clear();
  std::string commas = list;
  std::replace(commas.begin(), commas.end(), sep, ',');
  for (const std::string& item : bench::SplitCommas(commas)) {
    double x = 0;
    if (!ParseDouble(item, &x) || x < 0) return false;
    out->push_back(x);
  }
  return true;
}

// Level shares summing to 1.
bool ParseLevels(const std::string& list, std::vector<double>* out,
                 char sep = ',') {
  double sum = 0;
  const bool ok = ParseList(list, out, sep);
  for (double x : *out) sum += x;
  return ok && sum > 0.999 && sum < 1.001;
}

// --pool: items [COUNTx]KEYS:WEIGHT[:S0/S1/...], COUNT trees each.
bool ParsePool(const std::string& list, std::vector<Flags::Tree>* pool) {
  double weights = 0;
  for (std::string item : bench::SplitCommas(list)) {
    uint64_t count = 1;
    const size_t x = item.find('x');
    if (x != std::string::npos) {
      if (!ParseU64(item.substr(0, x), &count) || count == 0) return false;
      item.erase(0, x + 1);
    }
    const size_t c1 = item.find(':');
    const size_t c2 = c1 == std::string::npos ? c1 : item.find(':', c1 + 1);
    Flags::Tree t{0, 0, {}};
    if (c1 == std::string::npos || !ParseU64(item.substr(0, c1), &t.keys) ||
        t.keys == 0 || t.keys >= (1ull << 32) ||
        !ParseDouble(item.substr(c1 + 1, c2 - c1 - 1), &t.weight) ||
        t.weight < 0) {
      return false;
    }
    if (c2 != std::string::npos &&
        !ParseLevels(item.substr(c2 + 1), &t.levels, '/')) {
      return false;
    }
    for (uint64_t i = 0; i < count && pool->size() < 4096; ++i) {
      pool->push_back(t);
      weights += t.weight;
    }
  }
  return !pool->empty() && pool->size() < 4096 && weights > 0;
}

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string name, v;
    if (!bench::SplitFlag(arg, &name, &v)) {
      Usage(("bad argument: " + arg).c_str());
    }
    uint64_t u = 0;
    bool ok = true;
    if (name == "num") {
      ok = ParseU64(v, &f.num) && f.num > 0 && f.num < (1ull << 32);
    } else if (name == "zipf") {
      ok = ParseDouble(v, &f.zipf) && f.zipf > 0 && f.zipf < 1;
    } else if (name == "zero_lookup_ratio") {
      ok = ParseDouble(v, &f.zero_lookup_ratio) && f.zero_lookup_ratio >= 0 &&
           f.zero_lookup_ratio <= 1;
    } else if (name == "levels") {
      ok = ParseLevels(v, &f.levels);
    } else if (name == "pool") {
      ok = ParsePool(v, &f.pool);
    } else if (name == "pool_dbs") {
      f.pool_dbs = bench::SplitCommas(v);
      for (const std::string& dir : f.pool_dbs) ok = ok && !dir.empty();
    } else if (name == "pool_zipf") {
      ok = ParseDouble(v, &f.pool_zipf) && f.pool_zipf > 0 && f.pool_zipf < 1;
    } else if (name == "segment_keys") {
      ok = ParseU64(v, &f.segment_keys) && f.segment_keys > 0;
    } else if (name == "bits_per_unit") {
      ok = ParseU64(v, &u) && u >= 1 && u <= 32;
      f.bits_per_unit = static_cast<int>(u);
    } else if (name == "units_per_segment") {
      ok = ParseU64(v, &u) && u >= 1 && u <= 64;
      f.units_per_segment = static_cast<int>(u);
    } else if (name == "exact_ranks") {
      ok = ParseU64(v, &f.exact_ranks) && f.exact_ranks > 0;
    } else if (name == "budgets") {
      ok = ParseList(v, &f.budgets);
    } else if (name == "db" || name == "ycsb_db") {
      f.db = v;
      ok = !f.db.empty();
      if (name == "ycsb_db") f.key_format = "ycsb";
    } else if (name == "key_format") {
      f.key_format = v;
      ok = f.key_format == "ycsb" || f.key_format == "readzipf";
    } else if (name == "key_dist") {
      ok = zipf_keys::ParseKeyDist(v, &f.key_dist);
    } else if (name == "hot_data_fraction") {
      ok = ParseDouble(v, &f.hot_data_fraction) && f.hot_data_fraction > 0 &&
           f.hot_data_fraction <= 1;
    } else if (name == "hot_op_fraction") {
      ok = ParseDouble(v, &f.hot_op_fraction) && f.hot_op_fraction > 0 &&
           f.hot_op_fraction <= 1;
    } else if (name == "hot_range_start") {
      ok = ParseDouble(v, &f.hot_range_start) && f.hot_range_start >= 0 &&
           f.hot_range_start < 1;
    } else if (name == "ycsb_insertorder") {
      ok = v == "hashed" || v == "ordered";
      f.ycsb_ordered = v == "ordered";
    } else if (name == "adaptive_gets") {
      ok = ParseU64(v, &f.adaptive_gets) && f.adaptive_gets > 0 &&
           f.adaptive_gets < (1ull << 40);
    } else if (name == "absent_only") {
      ok = ParseU64(v, &u) && u <= 1;
      f.absent_only = u == 1;
      f.absent_only_given = true;
    } else {
      Usage(("unknown flag --" + name).c_str());
    }
    if (!ok) Usage(("bad value for --" + name + ": " + v).c_str());
  }
  return f;
}

// Mass of the segments' probes that waste a read (per Get), and the keys
// each segment holds (what a unit of it costs). With --adaptive_gets,
// `once` is the mass counting each lookup's first occurrence only.
// `level`: the level each segment is on (for the placement summaries; may
// be empty, then all count as one level).
struct Segments {
  std::vector<double> mass;
  std::vector<double> keys;
  std::vector<double> once;
  std::vector<int> level;
};

// Expected first occurrences per Get, in n Gets, of a lookup drawn with
// probability q: (1 - (1 - q)^n) / n; q itself when n is 0 (static).
double FirstTimes(double q, uint64_t n) {
  if (n == 0 || q <= 0) return q;
  if (q >= 1) return 1.0 / static_cast<double>(n);
  const double dn = static_cast<double>(n);
  return -std::expm1(dn * std::log1p(-q)) / dn;
}

// Probability of every key index under a scrambled Zipfian: rank r has
// probability (r + 1)^-theta / zeta and lands on key scramble(r).
template <typename Scramble>
std::vector<double> RankProbabilities(const Flags& f, double zeta,
                                      uint64_t item_space,
                                      const Scramble& scramble) {
  std::vector<double> p(f.num, 0.0);
  const uint64_t exact = std::min(f.exact_ranks, item_space);
  double covered = 0;
  for (uint64_t r = 0; r < exact; ++r) {
    const double pr = std::pow(static_cast<double>(r + 1), -f.zipf) / zeta;
    p[scramble(r)] += pr;
    covered += pr;
  }
  const double rest = std::max(0.0, 1.0 - covered) / f.num;
  for (double& x : p) x += rest;
  return p;
}

// Probability that a readzipf lookup draws key index k, for every k.
std::vector<double> KeyProbabilities(const Flags& f) {
  const zipf_keys::ScrambledZipfian zipf(f.num, f.zipf);
  return RankProbabilities(f, zipf.zetan(), zipf.kItemSpace,
                           [&zipf](uint64_t r) { return zipf.Scramble(r); });
}

// The probability of key index (or record number) k under a locality
// distribution, for every k; the same for both key formats.
std::vector<double> LocalityProbabilities(const Flags& f) {
  switch (f.key_dist) {
    case zipf_keys::KeyDist::kOrderedZipf:
    case zipf_keys::KeyDist::kLatest:
      return zipf_keys::OrderedZipfProbabilities(
          f.num, f.zipf, f.key_dist == zipf_keys::KeyDist::kLatest);
    case zipf_keys::KeyDist::kHotspot: {
      const zipf_keys::Hotspot hot(f.num, f.hot_data_fraction,
                                   f.hot_op_fraction, f.hot_range_start);
      std::vector<double> p(f.num);
      for (uint64_t k = 0; k < f.num; ++k) p[k] = hot.Probability(k);
      return p;
    }
    case zipf_keys::KeyDist::kZipf:
      break;
  }
  return KeyProbabilities(f);
}

// One line naming a non-default distribution (the default prints none).
void PrintKeyDist(const Flags& f) {
  switch (f.key_dist) {
    case zipf_keys::KeyDist::kZipf:
      return;
    case zipf_keys::KeyDist::kOrderedZipf:
    case zipf_keys::KeyDist::kLatest:
      std::printf("key distribution: %s over %" PRIu64 " keys (theta %.2f)%s\n",
                  zipf_keys::KeyDistName(f.key_dist), f.num, f.zipf,
                  f.key_dist == zipf_keys::KeyDist::kLatest
                      ? ", newest (largest) key hottest"
                      : ", first key hottest");
      return;
    case zipf_keys::KeyDist::kHotspot: {
      const zipf_keys::Hotspot hot(f.num, f.hot_data_fraction,
                                   f.hot_op_fraction, f.hot_range_start);
      std::printf("key distribution: hotspot over %" PRIu64
                  " keys, %.2f of the lookups on keys [%" PRIu64 ", %" PRIu64
                  ")\n",
                  f.num, f.hot_op_fraction, hot.hot_begin(), hot.hot_end());
      return;
    }
  }
}

// Expected wasted-probe mass per segment (probes per Get of keys not in
// it), for every segment of every level. A segment of level i holds
// segment_keys of its keys, so it spans segment_keys / share_i consecutive
// key indexes; it is probed by the absent lookups of that span and by the
// present ones whose key lives deeper.
Segments SegmentMass(const Flags& f, const std::vector<double>& p) {
  Segments out;
  double deeper = 1;
  for (size_t lv = 0; lv < f.levels.size(); ++lv) {
    const double share = f.levels[lv];
    deeper -= share;
    if (share <= 0) continue;
    const double present = f.absent_only ? 0.0 : std::max(0.0, deeper);
    const double weight =
        f.zero_lookup_ratio + (1 - f.zero_lookup_ratio) * present;
    const double span = f.segment_keys / share;
    const uint64_t n = f.adaptive_gets;
    double next_end = span;
    double sum = 0, once = 0;
    for (uint64_t k = 0; k < f.num; ++k) {
      if (static_cast<double>(k) >= next_end) {
        out.mass.push_back(sum * weight);
        if (n > 0) out.once.push_back(once);
        sum = once = 0;
        next_end += span;
      }
      sum += p[k];
      // A present key lives deeper with probability `present`.
      if (n > 0) {
        once += FirstTimes(f.zero_lookup_ratio * p[k], n) +
                present * FirstTimes((1 - f.zero_lookup_ratio) * p[k], n);
      }
    }
    out.mass.push_back(sum * weight);
    if (n > 0) out.once.push_back(once);
    out.level.resize(out.mass.size(), static_cast<int>(lv));
  }
  out.keys.assign(out.mass.size(), static_cast<double>(f.segment_keys));
  return out;
}

// A written key and the probability a lookup draws it (or its absent
// neighbour).
struct Record {
  std::array<char, 24> key;
  uint8_t size;
  double p;
  leveldb::Slice slice() const { return {key.data(), size}; }
};

Record MakeRecord(std::string_view key, double p) {
  Record r;
  if (key.size() > r.key.size()) Usage("key longer than 24 bytes");
  std::copy(key.begin(), key.end(), r.key.begin());
  r.size = static_cast<uint8_t>(key.size());
  r.p = p;
  return r;
}

// Every record of the workload, sorted by key, and the suffix that makes
// a key absent.
std::vector<Record> WorkloadRecords(const Flags& f, std::string* suffix) {
  std::vector<Record> records;
  records.reserve(f.num);
  if (f.key_format == "readzipf") {
    // Zero-padded indexes: key order is index order.
    const std::vector<double> p = LocalityProbabilities(f);
    zipf_keys::KeyFormatter format;
    for (uint64_t k = 0; k < f.num; ++k) {
      records.push_back(MakeRecord(format.Set(k), p[k]));
    }
    *suffix = zipf_keys::kAbsentSuffix;
    return records;
  }
  std::vector<double> p;
  if (f.key_dist == zipf_keys::KeyDist::kZipf) {
    const double zeta = ycsb::ScrambledZipfianGenerator::ItemSpaceZeta(f.zipf);
    p = RankProbabilities(
        f, zeta, ycsb::ScrambledZipfianGenerator::kItemSpace + 1,
        [&f](uint64_t r) { return ycsb::FnvHash64(r) % f.num; });
  } else {
    p = LocalityProbabilities(f);
  }
  for (uint64_t k = 0; k < f.num; ++k) {
    records.push_back(
        MakeRecord(ycsb::BuildKeyName(k, !f.ycsb_ordered, 20), p[k]));
  }
  std::sort(records.begin(), records.end(),
            [](const Record& a, const Record& b) {
              return a.slice().compare(b.slice()) < 0;
            });
  *suffix = "~";
  return records;
}

[[noreturn]] void DbFail(const std::string& what, const leveldb::Status& s) {
  std::fprintf(stderr, "filter_bound: %s: %s\n", what.c_str(),
               s.ToString().c_str());
  std::exit(1);
}

// The number a written key names, if its format tells it: readzipf keys are
// the number, ordered YCSB keys "user" and the number. False otherwise.
bool KeyNumber(const Flags& f, const leveldb::Slice& key, uint64_t* number) {
  std::string digits = key.ToString();
  if (f.key_format == "ycsb") {
    if (!f.ycsb_ordered || digits.rfind("user", 0) != 0) return false;
    digits.erase(0, 4);
  }
  return ParseU64(digits, number);
}

// The live tables of each level, as the MANIFEST lists them (the directory
// may hold leftovers of an interrupted compaction). Only reads.
std::vector<std::vector<leveldb::FileMetaData*>> LiveTables(
    const std::string& db, leveldb::VersionSet* versions) {
  bool save_manifest = false;
  const leveldb::Status s = versions->Recover(&save_manifest);
  if (!s.ok()) DbFail(db, s);
  std::vector<std::vector<leveldb::FileMetaData*>> levels(
      leveldb::config::kNumLevels);
  for (int level = 0; level < leveldb::config::kNumLevels; ++level) {
    versions->current()->GetOverlappingInputs(level, nullptr, nullptr,
                                              &levels[level]);
  }
  return levels;
}

// For "latest" on a database: the key count of the tree, one more than the
// largest key number of its live tables (the MANIFEST says which; nothing
// else is read). Keeps f->num when the keys do not name their numbers.
void TakeKeyCountFromDb(Flags* f) {
  const leveldb::InternalKeyComparator icmp(leveldb::BytewiseComparator());
  leveldb::Options options;
  options.comparator = &icmp;
  leveldb::TableCache cache(f->db, options, 16);
  leveldb::VersionSet versions(f->db, &options, &cache, &icmp);
  uint64_t largest = 0;
  bool any = false;
  for (const auto& files : LiveTables(f->db, &versions)) {
    for (const leveldb::FileMetaData* file : files) {
      uint64_t number = 0;
      if (!KeyNumber(*f, file->largest.user_key(), &number)) {
        std::printf("latest: keys do not name their numbers; %" PRIu64
                    " keys (--num)\n",
                    f->num);
        return;
      }
      largest = std::max(largest, number);
      any = true;
    }
  }
  if (!any) DbFail(f->db, leveldb::Status::NotFound("no live tables"));
  f->num = largest + 1;
  std::printf("latest: %" PRIu64
              " keys in the tree, the newest (hottest) is number %" PRIu64
              "; the bound for this snapshot\n",
              f->num, largest);
}

// A table written without ElasticBF (stock LevelDB, or the fork with
// another filter policy) has no segments of its own: its keys are cut by
// the writer's rule (table/elastic/segment.h) at segment_keys keys, each
// key taken as a block. With the writer's count (SegmentKeysForBits) these
// match its segments to within one block.
std::vector<leveldb::SegmentKeyRange> CutByKeyCount(
    const std::vector<std::string>& user_keys, uint64_t segment_keys) {
  std::vector<leveldb::SegmentKeyRange> ranges;
  size_t first = 0;
  for (size_t i = 0; i < user_keys.size(); ++i) {
    if (leveldb::SegmentIsComplete(i + 1 - first, 0, 0, segment_keys) ||
        i + 1 == user_keys.size()) {
      ranges.push_back({user_keys[first], user_keys[i]});
      first = i + 1;
    }
  }
  return ranges;
}

// The segments of every live table of the database, with the mass of the
// lookups that probe each in vain and the keys each holds.
Segments DbSegments(const Flags& f, const std::vector<Record>& records,
                    const std::string& absent_suffix, uint64_t* entries) {
  const leveldb::InternalKeyComparator icmp(leveldb::BytewiseComparator());
  // Segment bounds come from the filter layer; it loads no unit here.
  leveldb::ElasticFilterOptions eo;
  eo.initial_units = 0;
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      leveldb::NewElasticFilterPolicy(eo));
  const leveldb::InternalFilterPolicy ipolicy(policy.get());
  leveldb::Options options;
  options.comparator = &icmp;
  options.filter_policy = &ipolicy;
  leveldb::MQScheduleOptions mo;
  mo.elastic = eo;
  mo.background_thread = false;
  leveldb::MQSchedule layer(mo);
  leveldb::TableCache cache(f.db, options, 16, &layer);
  leveldb::VersionSet versions(f.db, &options, &cache, &icmp);
  std::vector<std::vector<leveldb::FileMetaData*>> levels =
      LiveTables(f.db, &versions);
  // Search order of a Get: level-0 files newest first, then one table per
  // level. rank: that order, the same for every table of a level >= 1.
  // Its segments' key ranges start at its smallest key and end at its
  // largest.
  struct Live {
    const leveldb::FileMetaData* file;
    int rank;
    std::vector<leveldb::SegmentKeyRange> ranges;
    size_t first;  // index of its first segment in `out`
    const std::string& smallest() const { return ranges.front().first; }
    const std::string& largest() const { return ranges.back().last; }
    // Moves *seg to the segment a lookup of `key` goes to: the first whose
    // range does not end below it (an absent key never equals a bound).
    void Advance(const leveldb::Slice& key, size_t* seg) const {
      while (*seg + 1 < ranges.size() &&
             leveldb::Slice(ranges[*seg].last).compare(key) < 0) {
        ++*seg;
      }
    }
  };
  std::vector<Live> live;
  std::vector<leveldb::FileMetaData*>& level0 = levels[0];
  std::sort(level0.begin(), level0.end(),
            [](const leveldb::FileMetaData* a, const leveldb::FileMetaData* b) {
              return a->number > b->number;
            });
  for (size_t i = 0; i < level0.size(); ++i) {
    live.push_back({level0[i], static_cast<int>(i), {}, 0});
  }
  for (int level = 1; level < leveldb::config::kNumLevels; ++level) {
    for (const leveldb::FileMetaData* file : levels[level]) {
      live.push_back(
          {file, static_cast<int>(level0.size()) + level - 1, {}, 0});
    }
  }
  if (live.empty()) DbFail(f.db, leveldb::Status::NotFound("no live tables"));

  // Pass 1: each table's keys per segment and key range, and the rank of
  // the first table holding each record (where its Get stops).
  Segments out;
  *entries = 0;
  size_t cut_tables = 0;
  constexpr uint16_t kNowhere = std::numeric_limits<uint16_t>::max();
  std::vector<uint16_t> home(records.size(), kNowhere);
  auto find = [&records](const leveldb::Slice& key) {
    return std::lower_bound(records.begin(), records.end(), key,
                            [](const Record& rec, const leveldb::Slice& k) {
                              return rec.slice().compare(k) < 0;
                            });
  };
  for (Live& t : live) {
    const uint64_t number = t.file->number;
    const uint64_t size = t.file->file_size;
    const std::string path = leveldb::TableFileName(f.db, number);
    std::unique_ptr<leveldb::Iterator> it(
        cache.NewIterator(leveldb::ReadOptions(), number, size));
    std::vector<std::string> user_keys;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const leveldb::Slice user = leveldb::ExtractUserKey(it->key());
      user_keys.emplace_back(user.data(), user.size());
    }
    if (!it->status().ok()) DbFail(path, it->status());
    if (user_keys.empty()) continue;
    const leveldb::Status s = cache.GetSegmentKeyRanges(
        number, size, user_keys.front(), user_keys.back(), &t.ranges);
    if (!s.ok()) DbFail(path, s);
    if (t.ranges.empty()) {
      t.ranges = CutByKeyCount(user_keys, f.segment_keys);
      ++cut_tables;
    }
    t.first = out.mass.size();
    out.mass.resize(t.first + t.ranges.size(), 0.0);
    out.keys.resize(t.first + t.ranges.size(), 0.0);
    if (f.adaptive_gets > 0) out.once.resize(out.mass.size(), 0.0);
    // Ranks past level 0's files are one per level from level 1 on.
    const int l0 = static_cast<int>(level0.size());
    out.level.resize(out.mass.size(), t.rank < l0 ? 0 : t.rank - l0 + 1);
    size_t seg = 0;
    auto r = find(t.smallest());
    for (const std::string& key : user_keys) {
      t.Advance(key, &seg);
      out.keys[t.first + seg] += 1;
      while (r != records.end() && r->slice().compare(key) < 0) ++r;
      if (r != records.end() && r->slice().compare(key) == 0) {
        uint16_t& h = home[r - records.begin()];
        h = std::min(h, static_cast<uint16_t>(t.rank));
      }
    }
    *entries += user_keys.size();
  }

  // Pass 2: the lookups that probe each table in vain. Absent ones: every
  // record from smallest (included) to largest (excluded). Present ones
  // (unless --absent_only): records in [smallest, largest] whose Get
  // stops at a table after this one.
  for (const Live& t : live) {
    if (t.ranges.empty()) continue;
    size_t seg_absent = 0, seg_present = 0;
    std::string absent;
    for (auto r = find(t.smallest());
         r != records.end() && r->slice().compare(t.largest()) <= 0; ++r) {
      const uint16_t h = home[r - records.begin()];
      if (!f.absent_only && h != kNowhere && h > t.rank) {
        t.Advance(r->slice(), &seg_present);
        const double q = (1 - f.zero_lookup_ratio) * r->p;
        out.mass[t.first + seg_present] += q;
        if (f.adaptive_gets > 0) {
          out.once[t.first + seg_present] += FirstTimes(q, f.adaptive_gets);
        }
      }
      if (r->slice().compare(t.largest()) == 0) break;
      absent.assign(r->key.data(), r->size);
      absent.append(absent_suffix);
      t.Advance(absent, &seg_absent);
      const double q = f.zero_lookup_ratio * r->p;
      out.mass[t.first + seg_absent] += q;
      if (f.adaptive_gets > 0) {
        out.once[t.first + seg_absent] += FirstTimes(q, f.adaptive_gets);
      }
    }
  }
  std::printf("%s: %zu tables, %zu segments, %" PRIu64 " entries\n",
              f.db.c_str(), live.size(), out.mass.size(), *entries);
  if (cut_tables > 0) {
    std::printf(
        "%zu tables without ElasticBF segments, cut into segments of "
        "%" PRIu64 " keys (--segment_keys)\n",
        cut_tables, f.segment_keys);
  }
  return out;
}

// Waste of a placement of whole units of FPR r, units[s] in segment s
// (the last one in part, as the LP relaxation takes it), when segment s
// draws mass w[s] of wasted probes.
double ChargeUnits(const std::vector<double>& w, double r,
                   const std::vector<double>& units) {
  double waste = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    const double whole = std::floor(units[i]);
    waste += w[i] * std::pow(r, whole) * (1 - (units[i] - whole) * (1 - r));
  }
  return waste;
}

// Whole units, each of FPR r, a unit of segment s costing cost[s]: the
// largest marginal gains m_s * r^(j-1) * (1 - r) per cost, taken in that
// order until `capacity` (in the costs' unit) is spent, the last one in
// part. With equal segments and a whole number of units this is the exact
// greedy optimum; otherwise the LP relaxation, a lower bound of it. A
// segment's gains fall with j, so it takes them in order: *units gets the
// count per segment.
double UnitsBound(const Segments& seg, double r, int max_units,
                  const std::vector<double>& cost, double capacity,
                  std::vector<double>* units) {
  struct Gain {
    double value;
    double cost;
    size_t seg;
  };
  std::vector<Gain> gains;
  gains.reserve(seg.mass.size() * max_units);
  for (size_t i = 0; i < seg.mass.size(); ++i) {
    double fpr = 1;
    for (int j = 0; j < max_units; ++j) {
      if (seg.keys[i] > 0)
        gains.push_back({seg.mass[i] * fpr * (1 - r), cost[i], i});
      fpr *= r;
    }
  }
  std::sort(gains.begin(), gains.end(), [](const Gain& a, const Gain& b) {
    return a.value * b.cost > b.value * a.cost;
  });
  units->assign(seg.mass.size(), 0.0);
  for (const Gain& g : gains) {
    if (capacity <= 0) break;
    const double part = std::min(1.0, capacity / g.cost);
    (*units)[g.seg] += part;
    capacity -= part * g.cost;
  }
  return ChargeUnits(seg.mass, r, *units);
}

// Waste of real bits per key bits[s] of FPR c^bits when segment s draws
// mass w[s]; a segment without keys holds no filter.
double ChargeBits(const std::vector<double>& w, const std::vector<double>& keys,
                  double c, const std::vector<double>& bits) {
  double waste = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    waste += keys[i] > 0 ? w[i] * std::pow(c, bits[i]) : w[i];
  }
  return waste;
}

// Real bits per key b_s >= 0 with sum w_s b_s = total_bits, FPR c^b_s: at
// the optimum m_s c^b_s / w_s is the same (lambda) for every segment with
// b_s > 0. *bits gets b_s.
double WaterFillBound(const Segments& seg, double c, double total_bits,
                      std::vector<double>* bits) {
  const double log_c = std::log(c);
  auto bits_for = [&](double lambda, size_t i) {
    const double density = seg.mass[i] / seg.keys[i];
    return density > lambda ? std::log(lambda / density) / log_c : 0.0;
  };
  double lo = 1e-300, hi = 1e300;
  for (int iter = 0; iter < 400; ++iter) {
    const double mid = std::sqrt(lo * hi);
    double used = 0;
    for (size_t i = 0; i < seg.mass.size(); ++i) {
      if (seg.keys[i] > 0) used += seg.keys[i] * bits_for(mid, i);
    }
    (used > total_bits ? lo : hi) = mid;
  }
  bits->assign(seg.mass.size(), 0.0);
  for (size_t i = 0; i < seg.mass.size(); ++i) {
    if (seg.keys[i] > 0) (*bits)[i] = bits_for(hi, i);
  }
  return ChargeBits(seg.mass, seg.keys, c, *bits);
}

// Waste of feasible placements, which the optima must not exceed (a
// self-check): every segment the same bits per key, as whole units
// (capacity / the cost of one unit everywhere of them, rounded down) and
// as real bits.
double EvenUnitsWaste(const Segments& seg, double r, int max_units,
                      const std::vector<double>& cost, double capacity) {
  double layer = 0;
  for (double c : cost) layer += c;
  const double k = std::min<double>(std::floor(capacity / layer), max_units);
  double waste = 0;
  for (double m : seg.mass) waste += m * std::pow(r, k);
  return waste;
}

// Bits one Ribbon unit of each segment takes: its real encoded size for
// the segment's key count. Empty if the shape or a segment is beyond the
// Ribbon units' limits.
std::vector<double> RibbonUnitBits(const Flags& f, const Segments& seg) {
  const leveldb::RibbonShape shape{f.bits_per_unit, f.units_per_segment};
  std::vector<double> bits;
  for (double keys : seg.keys) {
    const size_t n = static_cast<size_t>(keys);
    if (!leveldb::CheckRibbonShape(n, shape).ok()) return {};
    bits.push_back(8.0 * leveldb::RibbonUnitSize(n, f.bits_per_unit));
  }
  return bits;
}

double EvenBitsWaste(const Segments& seg, double c, double total_bits) {
  double total_keys = 0;
  for (double w : seg.keys) total_keys += w;
  double waste = 0;
  for (double m : seg.mass) waste += m * std::pow(c, total_bits / total_keys);
  return waste;
}

// The models' optima at one budget: wasted probes per Get.
struct Bounds {
  double units = 0;
  double ribbon = 0;  // 0 when the Ribbon model does not apply
  double bloom = 0;
  double ideal = 0;
};

// The placements behind Bounds, per segment: units (Bloom, Ribbon) or
// bits per key (any Bloom, any filter). ribbon is empty when the Ribbon
// model does not apply.
struct Placement {
  std::vector<double> units;
  std::vector<double> ribbon;
  std::vector<double> bloom;
  std::vector<double> ideal;
};

// Fixed filter constants of the real-bits models: FPR c^bits.
constexpr double kBloomBase = 0.6185;
constexpr double kIdealBase = 0.5;

double RibbonFpr(const Flags& f) {
  return leveldb::UnitFalsePositiveRate(leveldb::ElasticUnitKind::kRibbon,
                                        f.bits_per_unit);
}

// In the model every segment has segment_keys keys, so the capacity is
// spent on whole units of one cost; from a database, segments differ and
// any amount goes (the LP relaxation).
double Spendable(bool from_db, double capacity, double unit_cost) {
  if (from_db || unit_cost <= 0) return capacity;
  return std::floor(capacity / unit_cost) * unit_cost;
}

// Fills *b, and *p with the placements, for a budget of total_bits; false
// if an optimum is above a feasible placement or a better filter model
// does worse (the computation would be wrong). Bloom units are counted in
// key-units (keys x bits_per_unit bits), Ribbon units in bits.
bool ComputeBounds(const Flags& f, bool from_db, const Segments& seg, double r,
                   const std::vector<double>& ribbon_bits, double total_bits,
                   Bounds* b, Placement* p) {
  double total_mass = 0;
  for (double m : seg.mass) total_mass += m;
  const double slack = 1e-9 * std::max(1.0, total_mass);
  const double key_units = Spendable(from_db, total_bits / f.bits_per_unit,
                                     static_cast<double>(f.segment_keys));
  b->units =
      UnitsBound(seg, r, f.units_per_segment, seg.keys, key_units, &p->units);
  b->bloom = WaterFillBound(seg, kBloomBase, total_bits, &p->bloom);
  b->ideal = WaterFillBound(seg, kIdealBase, total_bits, &p->ideal);
  bool ok = b->units <= EvenUnitsWaste(seg, r, f.units_per_segment, seg.keys,
                                       key_units) +
                            slack &&
            b->bloom <= EvenBitsWaste(seg, kBloomBase, total_bits) + slack &&
            b->ideal <= b->bloom + slack;
  p->ribbon.clear();
  if (!ribbon_bits.empty()) {
    const double rr = RibbonFpr(f);
    const double bits = Spendable(from_db, total_bits, ribbon_bits[0]);
    b->ribbon =
        UnitsBound(seg, rr, f.units_per_segment, ribbon_bits, bits, &p->ribbon);
    ok = ok &&
         b->ribbon <=
             EvenUnitsWaste(seg, rr, f.units_per_segment, ribbon_bits, bits) +
                 slack &&
         b->ideal <= b->ribbon + slack;
  }
  return ok;
}

// The waste of placement p when the segments draw masses w instead of
// those it was chosen for.
Bounds Charge(const Flags& f, const Segments& seg, const std::vector<double>& w,
              double r, const Placement& p) {
  Bounds b;
  b.units = ChargeUnits(w, r, p.units);
  if (!p.ribbon.empty()) b.ribbon = ChargeUnits(w, RibbonFpr(f), p.ribbon);
  b.bloom = ChargeBits(w, seg.keys, kBloomBase, p.bloom);
  b.ideal = ChargeBits(w, seg.keys, kIdealBase, p.ideal);
  return b;
}

// One row of the table: its head (the budget), then each model's waste
// and its ratio to the floor.
void PrintRow(const std::string& head, double floor, const Bounds& b,
              bool ribbon) {
  std::printf("| %s | %.4f, %.3fx | ", head.c_str(), b.units,
              (floor + b.units) / floor);
  if (ribbon) {
    std::printf("%.4f, %.3fx | ", b.ribbon, (floor + b.ribbon) / floor);
  } else {
    std::printf("n/a | ");
  }
  std::printf("%.4f, %.3fx | %.4f, %.3fx |\n", b.bloom,
              (floor + b.bloom) / floor, b.ideal, (floor + b.ideal) / floor);
}

// The trees of --pool: all their segments, each tree's masses scaled by
// its share of the Gets, and where each tree's segments start (then the
// end). Trees of the same keys and levels are computed once.
struct Pool {
  Segments all;
  std::vector<size_t> first;
  std::vector<double> shares;
};

Pool PoolSegments(const Flags& f) {
  Pool p;
  const zipf_keys::Zipfian zipf(f.pool.size(), f.pool_zipf);
  double sum = 0;
  for (size_t i = 0; i < f.pool.size(); ++i) {
    p.shares.push_back(f.pool_zipf > 0 ? zipf.Probability(i)
                                       : f.pool[i].weight);
    sum += p.shares.back();
  }
  std::map<std::tuple<uint64_t, std::vector<double>, std::string>, Segments>
      trees;
  for (size_t i = 0; i < f.pool.size(); ++i) {
    Flags one = f;
    one.num = f.pool[i].keys;
    if (!f.pool[i].levels.empty()) one.levels = f.pool[i].levels;
    if (!f.pool_dbs.empty()) one.db = f.pool_dbs[i];
    auto it = trees.find({one.num, one.levels, one.db});
    if (it == trees.end()) {
      std::string suffix;
      uint64_t entries = 0;
      it = trees
               .emplace(std::make_tuple(one.num, one.levels, one.db),
                        one.db.empty()
                            ? SegmentMass(one, LocalityProbabilities(one))
                            : DbSegments(one, WorkloadRecords(one, &suffix),
                                         suffix, &entries))
               .first;
    }
    p.shares[i] /= sum;
    p.first.push_back(p.all.mass.size());
    for (size_t s = 0; s < it->second.mass.size(); ++s) {
      p.all.mass.push_back(it->second.mass[s] * p.shares[i]);
      p.all.keys.push_back(it->second.keys[s]);
    }
  }
  p.first.push_back(p.all.mass.size());
  return p;
}

// The bounds with total_bits split into equal parts per tree, each placed
// at best within its tree: the sums of the trees' wastes. *ribbon is false
// if a tree is beyond the Ribbon units' limits.
bool SplitBounds(const Flags& f, const Pool& p, double r, double total_bits,
                 Bounds* b, bool* ribbon) {
  *b = Bounds();
  const size_t trees = p.first.size() - 1;
  for (size_t t = 0; t < trees; ++t) {
    Segments one;
    const size_t begin = p.first[t], end = p.first[t + 1];
    one.mass.assign(p.all.mass.begin() + begin, p.all.mass.begin() + end);
    one.keys.assign(p.all.keys.begin() + begin, p.all.keys.begin() + end);
    const std::vector<double> ribbon_bits = RibbonUnitBits(f, one);
    *ribbon = *ribbon && !ribbon_bits.empty();
    Bounds bt;
    Placement unused;
    if (!ComputeBounds(f, !f.pool_dbs.empty(), one, r, ribbon_bits,
                       total_bits / trees, &bt, &unused)) {
      return false;
    }
    b->units += bt.units;
    b->ribbon += bt.ribbon;
    b->bloom += bt.bloom;
    b->ideal += bt.ideal;
  }
  return true;
}

// The pooled rows of one budget: the best placement over all trees, then
// the equal split; false if a self-check fails (the best placement is
// never worse than a split).
bool PrintPooled(const Flags& f, const Pool& p, double r,
                 const std::vector<double>& ribbon_bits, double budget,
                 double total_bits, double floor) {
  Bounds best, split;
  Placement unused;
  bool ribbon = !ribbon_bits.empty();
  if (!ComputeBounds(f, !f.pool_dbs.empty(), p.all, r, ribbon_bits, total_bits,
                     &best, &unused) ||
      !SplitBounds(f, p, r, total_bits, &split, &ribbon)) {
    return false;
  }
  const double slack = 1e-9;
  char head[64];
  std::snprintf(head, sizeof(head), "%.2f, pooled", budget);
  PrintRow(head, floor, best, ribbon);
  std::snprintf(head, sizeof(head), "%.2f, split evenly", budget);
  PrintRow(head, floor, split, ribbon);
  return best.units <= split.units + slack &&
         best.bloom <= split.bloom + slack &&
         best.ideal <= split.ideal + slack &&
         (!ribbon || best.ribbon <= split.ribbon + slack);
}

// True if no model of a wastes more than b's (Ribbon only if it applies).
bool NoneAbove(const Bounds& a, const Bounds& b, bool ribbon) {
  const double slack = 1e-9;
  return a.units <= b.units + slack && a.bloom <= b.bloom + slack &&
         a.ideal <= b.ideal + slack &&
         (!ribbon || a.ribbon <= b.ribbon + slack);
}

// Per level of seg, the mean of x over its segments, or over its keys
// (x weighted by each segment's keys) if per_key.
std::map<int, double> LevelMeans(const Segments& seg,
                                 const std::vector<double>& x, bool per_key) {
  std::map<int, std::pair<double, double>> sums;
  for (size_t i = 0; i < x.size(); ++i) {
    const int level = seg.level.empty() ? 0 : seg.level[i];
    const double w = per_key ? seg.keys[i] : 1.0;
    sums[level].first += w * x[i];
    sums[level].second += w;
  }
  std::map<int, double> means;
  for (const auto& [level, sum] : sums) {
    means[level] = sum.second > 0 ? sum.first / sum.second : 0.0;
  }
  return means;
}

// One line comparing the static and adaptive placements x and y of one
// model (units, or bits per key if per_key; segment s's share of memory
// is x[s] * cost[s]): per level the mean of each, the segments given
// nothing, and the share of the memory that y holds where x does not.
std::string PlacementLine(const std::string& what, const Segments& seg,
                          const std::vector<double>& x,
                          const std::vector<double>& y,
                          const std::vector<double>& cost, bool per_key) {
  std::string line = what + " (static -> adaptive), mean " +
                     (per_key ? "bits per key" : "units per segment") +
                     " by level:";
  const std::map<int, double> mx = LevelMeans(seg, x, per_key);
  const std::map<int, double> my = LevelMeans(seg, y, per_key);
  char buf[96];
  for (const auto& [level, mean] : mx) {
    std::snprintf(buf, sizeof(buf), " L%d %.2f -> %.2f;", level, mean,
                  my.at(level));
    line += buf;
  }
  size_t empty_x = 0, empty_y = 0;
  double spent = 0, moved = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    empty_x += x[i] <= 0 ? 1 : 0;
    empty_y += y[i] <= 0 ? 1 : 0;
    spent += x[i] * cost[i];
    moved += std::max(0.0, y[i] - x[i]) * cost[i];
  }
  std::snprintf(buf, sizeof(buf),
                " segments with none %zu -> %zu of %zu; memory moved %.1f%%\n",
                empty_x, empty_y, x.size(),
                100 * moved / std::max(spent, 1e-300));
  return line + buf;
}

// The summaries of the unit model in use (Ribbon if it applies, else
// Bloom units) and of any filter, for one budget.
std::string PlacementLines(const std::string& budget, const Segments& seg,
                           const std::vector<double>& ribbon_bits,
                           const Placement& fixed, const Placement& adaptive) {
  const bool ribbon = !ribbon_bits.empty();
  return PlacementLine(budget + (ribbon ? ", Ribbon units" : ", units"), seg,
                       ribbon ? fixed.ribbon : fixed.units,
                       ribbon ? adaptive.ribbon : adaptive.units,
                       ribbon ? ribbon_bits : seg.keys, false) +
         PlacementLine(budget + ", any filter", seg, fixed.ideal,
                       adaptive.ideal, seg.keys, true);
}

// The adaptive rows of one budget: the bound (the models' optima on the
// first-occurrence masses), then the static optima's placement fixed_at
// charged the same way; the gap between the two is what placing for the
// adaptive masses could gain. Appends the placements' summary to *notes.
// False if a self-check fails: adaptive <= static placement charged
// adaptively <= static.
bool PrintAdaptive(const Flags& f, bool from_db, const Segments& seg, double r,
                   const std::vector<double>& ribbon_bits, double budget,
                   double total_bits, double floor, const Bounds& fixed,
                   const Placement& fixed_at, std::string* notes) {
  Segments once = seg;
  once.mass = seg.once;
  Bounds b;
  Placement at;
  if (!ComputeBounds(f, from_db, once, r, ribbon_bits, total_bits, &b, &at)) {
    return false;
  }
  const bool ribbon = !ribbon_bits.empty();
  const Bounds charged = Charge(f, seg, seg.once, r, fixed_at);
  char head[64];
  std::snprintf(head, sizeof(head), "%.2f, adaptive", budget);
  PrintRow(head, floor, b, ribbon);
  std::snprintf(head, sizeof(head), "%.2f, static placement, adaptive charge",
                budget);
  PrintRow(head, floor, charged, ribbon);
  std::snprintf(head, sizeof(head), "placement at %.2f", budget);
  *notes += PlacementLines(head, seg, ribbon_bits, fixed_at, at);
  return NoneAbove(b, charged, ribbon) && NoneAbove(charged, fixed, ribbon);
}

}  // namespace

int main(int argc, char** argv) {
  Flags f = ParseFlags(argc, argv);
  const bool from_db = !f.db.empty();
  // With a database, present lookups count only when asked for
  // (--absent_only=0): right for read-only runs, not for mixes whose hot
  // keys are found in the memtable.
  if (from_db && !f.absent_only_given) f.absent_only = true;
  Segments seg;
  uint64_t entries = f.num;  // what the budget's bits per key count
  Pool pool;
  const bool pooled = !f.pool.empty();
  if (pooled && from_db) Usage("--pool takes no database");
  if (f.pool_zipf > 0 && !pooled) Usage("--pool_zipf needs --pool");
  if (pooled && f.adaptive_gets > 0) Usage("--adaptive_gets takes no --pool");
  if (!f.pool_dbs.empty() && f.pool_dbs.size() != f.pool.size()) {
    Usage("--pool_dbs needs one database per tree of --pool");
  }
  // Present lookups count in a pool of databases only when asked for, as
  // for one database.
  if (!f.pool_dbs.empty() && !f.absent_only_given) f.absent_only = true;
  if (pooled) {
    PrintKeyDist(f);
    pool = PoolSegments(f);
    seg = pool.all;
    entries = 0;
    for (const Flags::Tree& t : f.pool) entries += t.keys;
    // Databases: their tables' entries, as --db counts them.
    if (!f.pool_dbs.empty()) {
      entries = 0;
      for (double keys : seg.keys) entries += static_cast<uint64_t>(keys);
    }
  } else if (from_db) {
    // Fail before the long computation of the records' probabilities.
    if (!leveldb::Env::Default()->FileExists(leveldb::CurrentFileName(f.db))) {
      DbFail(f.db, leveldb::Status::NotFound("no database (no CURRENT)"));
    }
    if (f.key_dist == zipf_keys::KeyDist::kLatest) TakeKeyCountFromDb(&f);
    PrintKeyDist(f);
    std::string suffix;
    const std::vector<Record> records = WorkloadRecords(f, &suffix);
    seg = DbSegments(f, records, suffix, &entries);
  } else {
    PrintKeyDist(f);
    seg = SegmentMass(f, LocalityProbabilities(f));
  }
  double total_mass = 0, top = 0, total_keys = 0;
  for (size_t i = 0; i < seg.mass.size(); ++i) {
    total_mass += seg.mass[i];
    total_keys += seg.keys[i];
    top = std::max(top, seg.mass[i] / std::max(1.0, seg.keys[i]));
  }
  const int probes = leveldb::FilterUnitProbes(f.bits_per_unit);
  const double r = leveldb::UnitFalsePositiveRate(
      leveldb::ElasticUnitKind::kBloom, f.bits_per_unit);
  const double floor = 1 - f.zero_lookup_ratio;

  if (pooled) {
    const std::string cut =
        f.pool_dbs.empty() ? "of " + std::to_string(f.segment_keys) + " keys"
                           : "of the databases";
    std::printf("pool of %zu trees, %" PRIu64
                " keys, zipf %.2f, absent share %.2f, %zu segments %s; "
                "shares of the Gets:",
                f.pool.size(), entries, f.zipf, f.zero_lookup_ratio,
                seg.mass.size(), cut.c_str());
    for (double share : pool.shares) std::printf(" %.4f", share);
    std::printf("\n");
  } else if (from_db) {
    std::printf("records %" PRIu64 ", zipf %.2f, absent share %.2f\n", f.num,
                f.zipf, f.zero_lookup_ratio);
  } else {
    std::printf("keys %" PRIu64 ", zipf %.2f, absent share %.2f, levels", f.num,
                f.zipf, f.zero_lookup_ratio);
    for (double share : f.levels) std::printf(" %.4f", share);
    std::printf(", %zu segments of %" PRIu64 " keys\n", seg.mass.size(),
                f.segment_keys);
  }
  std::printf(
      "wasted-probe mass per Get without filters: %.4f; hottest "
      "segment %.1fx the mean (per key); unit: %d bits, %d probes, FPR %.4f\n",
      total_mass, top * total_keys / std::max(total_mass, 1e-300),
      f.bits_per_unit, probes, r);
  if (f.adaptive_gets > 0) {
    double once = 0;
    for (double m : seg.once) once += m;
    std::printf("adaptive, %" PRIu64
                " Gets: a lookup wastes a read in a segment only the first "
                "time; mass per Get %.4f\n",
                f.adaptive_gets, once);
  }
  const std::vector<double> ribbon_bits = RibbonUnitBits(f, seg);
  if (ribbon_bits.empty()) {
    std::printf("ribbon: beyond the Ribbon units' limits (n/a below)\n");
  } else if (!from_db) {
    std::printf(
        "ribbon unit: %d planes, FPR %.4f, %.0f bytes per segment "
        "(%.4f bits per key per plane)\n",
        f.bits_per_unit,
        leveldb::UnitFalsePositiveRate(leveldb::ElasticUnitKind::kRibbon,
                                       f.bits_per_unit),
        ribbon_bits[0] / 8,
        ribbon_bits[0] / (f.segment_keys * f.bits_per_unit));
  }
  std::printf("floor (found keys, one read each): %.4f I/Os per Get%s\n\n",
              floor, f.absent_only ? "; waste of absent lookups only" : "");
  std::printf(
      "| budget, bits per %s | units (%dx%d): waste, x floor "
      "| Ribbon units (%dx%d planes): waste, x floor "
      "| any Bloom: waste, x floor | any filter: waste, x floor |\n"
      "|---|---|---|---|---|\n",
      from_db  ? "entry"
      : pooled ? "key of all trees, placement"
               : "live key",
      f.units_per_segment, f.bits_per_unit, f.units_per_segment,
      f.bits_per_unit);
  std::string notes;  // printed after the table
  for (double budget : f.budgets) {
    const double total_bits = budget * static_cast<double>(entries);
    Bounds b;
    Placement at;
    if (pooled
            ? !PrintPooled(f, pool, r, ribbon_bits, budget, total_bits, floor)
            : !ComputeBounds(f, from_db, seg, r, ribbon_bits, total_bits, &b,
                             &at)) {
      std::fprintf(stderr, "filter_bound: self-check failed at %.2f bits\n",
                   budget);
      return 1;
    }
    if (pooled) continue;
    char head[32];
    std::snprintf(head, sizeof(head), "%.2f", budget);
    PrintRow(head, floor, b, !ribbon_bits.empty());
    if (f.adaptive_gets > 0 &&
        !PrintAdaptive(f, from_db, seg, r, ribbon_bits, budget, total_bits,
                       floor, b, at, &notes)) {
      std::fprintf(stderr,
                   "filter_bound: adaptive self-check failed at %.2f bits\n",
                   budget);
      return 1;
    }
  }
  if (!notes.empty()) std::printf("\n%s", notes.c_str());
  return 0;
}
