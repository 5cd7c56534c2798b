// filter_bound: the fewest I/Os per Get that any placement of filter memory
// over segments can give on the read-path protocol (db_bench readzipf), to
// judge measured results and targets against what is possible at all.
//
// Why it is a bound. Lookups are independent draws from a fixed
// distribution, so whatever filters are in memory when a Get arrives were
// chosen without knowing its key; the expected waste of that Get is at
// least the minimum, over all placements within the budget, of the expected
// waste. The tree is given as the share of the keys each level holds, top
// to bottom (--levels); each level holds a random subset of the keys
// (fillunique writes in random order) cut into segments of --segment_keys
// keys, and covers the whole key space. A lookup probes one segment per
// level: for an absent key every level, for a present key the levels above
// its own. Level 0 counted as one level (fewer probes than several files)
// keeps the bound a bound.
//
// Waste of a probe of segment s for an absent key: the false-positive rate
// of the filter bits s holds. Three filter models, each minimised exactly:
//   units:   whole units of --bits_per_unit bits per key, FPR r^k with r the
//            fork's unit FPR (what ElasticBF can do; greedy on marginal gain
//            per byte is optimal because the gains fall with k);
//   bloom:   any real number of Bloom bits per key, FPR 0.6185^b (water
//            filling on the Lagrangian);
//   ideal:   any filter at all, FPR 2^-b (the information-theoretic limit).
// The budget, in bits per live key, is shared by all segments; every unit
// has the same size (every segment holds the same number of keys), so one
// greedy pass over all segments of all levels is optimal.
//
// Key probabilities: the exact ScrambledZipfian of zipf_keys.h (YCSB's
// item space of 10^10 ranks, FNV-scrambled modulo the key count). Ranks
// below --exact_ranks are summed per key exactly; the remaining mass is
// spread evenly (those ranks land on every key hundreds of times).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "table/filter_unit.h"
#include "zipf_keys.h"

namespace {

struct Flags {
  uint64_t num = 24000000;
  double zipf = 0.99;
  double zero_lookup_ratio = 0.5;
  // Shares of the keys per level, top to bottom: the tree of the 24M-key
  // ElasticBF run right after its load (segments per level 24, 28, 247,
  // 2556, 77; docs/evaluation/readpath-24m-d4).
  std::vector<double> levels = {0.0082, 0.0095, 0.0842, 0.8718, 0.0263};
  uint64_t segment_keys = 8192;
  int bits_per_unit = 4;
  int units_per_segment = 6;
  uint64_t exact_ranks = 200000000;
  std::vector<double> budgets = {4, 6.02};
  // Count only the probes of absent lookups. Present keys then waste
  // nothing, which keeps the result a bound on any workload whose present
  // keys may be found early (in a mixed run the hottest ones are in the
  // memtable), at the price of being looser.
  bool absent_only = false;
};

[[noreturn]] void Usage(const char* msg) {
  std::fprintf(stderr,
               "filter_bound: %s\n"
               "usage: filter_bound [--num=N] [--zipf=THETA] "
               "[--zero_lookup_ratio=R] [--levels=S0,S1,...] "
               "[--segment_keys=K] [--bits_per_unit=B] "
               "[--units_per_segment=U] [--exact_ranks=M] "
               "[--budgets=B1,B2,...] [--absent_only=0|1]\n",
               msg);
  std::exit(2);
}

bool ParseDouble(const char* s, double* out) {
  char* end = nullptr;
  *out = std::strtod(s, &end);
  return end != s && *end == '\0' && std::isfinite(*out);
}

bool ParseU64(const char* s, uint64_t* out) {
  if (*s < '0' || *s > '9') return false;
  char* end = nullptr;
  *out = std::strtoull(s, &end, 10);
  return *end == '\0';
}

// Comma-separated non-negative numbers.
bool ParseList(const char* v, std::vector<double>* out) {
  out->clear();
  const std::string list = v;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    double x = 0;
    if (!ParseDouble(list.substr(start, comma - start).c_str(), &x) || x < 0) {
      return false;
    }
    out->push_back(x);
    start = comma + 1;
  }
  return true;
}

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos) {
      Usage(("bad argument: " + arg).c_str());
    }
    const std::string name = arg.substr(2, eq - 2);
    const char* v = argv[i] + eq + 1;
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
      double sum = 0;
      ok = ParseList(v, &f.levels);
      for (double x : f.levels) sum += x;
      ok = ok && sum > 0.999 && sum < 1.001;
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
    } else if (name == "absent_only") {
      ok = ParseU64(v, &u) && u <= 1;
      f.absent_only = u == 1;
    } else {
      Usage(("unknown flag --" + name).c_str());
    }
    if (!ok) Usage(("bad value for --" + name + ": " + v).c_str());
  }
  return f;
}

// Probability that a readzipf lookup draws key index k, for every k.
std::vector<double> KeyProbabilities(const Flags& f) {
  const zipf_keys::ScrambledZipfian zipf(f.num, f.zipf);
  std::vector<double> p(f.num, 0.0);
  const uint64_t exact = std::min(f.exact_ranks, zipf.kItemSpace);
  double covered = 0;
  for (uint64_t r = 0; r < exact; ++r) {
    const double pr =
        std::pow(static_cast<double>(r + 1), -f.zipf) / zipf.zetan();
    p[zipf.Scramble(r)] += pr;
    covered += pr;
  }
  const double rest = std::max(0.0, 1.0 - covered) / f.num;
  for (double& x : p) x += rest;
  return p;
}

// Expected wasted-probe mass per segment (probes per Get of keys not in
// it), for every segment of every level. A segment of level i holds
// segment_keys of its keys, so it spans segment_keys / share_i consecutive
// key indexes; it is probed by the absent lookups of that span and by the
// present ones whose key lives deeper.
std::vector<double> SegmentMass(const Flags& f, const std::vector<double>& p) {
  std::vector<double> mass;
  double deeper = 1;
  for (double share : f.levels) {
    deeper -= share;
    if (share <= 0) continue;
    const double present = f.absent_only ? 0.0 : std::max(0.0, deeper);
    const double weight =
        f.zero_lookup_ratio + (1 - f.zero_lookup_ratio) * present;
    const double span = f.segment_keys / share;
    double next_end = span;
    double sum = 0;
    for (uint64_t k = 0; k < f.num; ++k) {
      if (static_cast<double>(k) >= next_end) {
        mass.push_back(sum * weight);
        sum = 0;
        next_end += span;
      }
      sum += p[k];
    }
    mass.push_back(sum * weight);
  }
  return mass;
}

// Whole units: take the `units` largest marginal gains m_s * (r^(j-1) - r^j).
double UnitsBound(const std::vector<double>& mass, double r, int max_units,
                  uint64_t units) {
  std::vector<double> gains;
  gains.reserve(mass.size() * max_units);
  for (double m : mass) {
    double fpr = 1;
    for (int j = 0; j < max_units; ++j) {
      gains.push_back(m * fpr * (1 - r));
      fpr *= r;
    }
  }
  units = std::min<uint64_t>(units, gains.size());
  std::nth_element(gains.begin(), gains.begin() + units, gains.end(),
                   std::greater<double>());
  double waste = 0;
  for (double m : mass) waste += m;
  for (uint64_t i = 0; i < units; ++i) waste -= gains[i];
  return std::max(0.0, waste);
}

// Real bits per key b_s >= 0 with sum b_s = total, FPR c^b_s: at the optimum
// m_s c^b_s is the same (lambda) for every segment with b_s > 0.
double WaterFillBound(const std::vector<double>& mass, double c,
                      double total_bits) {
  const double log_c = std::log(c);
  auto bits_for = [&](double lambda, double m) {
    return m > lambda ? std::log(lambda / m) / log_c : 0.0;
  };
  double lo = 1e-300, hi = 1;
  for (int iter = 0; iter < 200; ++iter) {
    const double mid = std::sqrt(lo * hi);
    double used = 0;
    for (double m : mass) used += bits_for(mid, m);
    (used > total_bits ? lo : hi) = mid;
  }
  double waste = 0;
  for (double m : mass) waste += m * std::pow(c, bits_for(hi, m));
  return waste;
}

// Waste of one feasible placement of whole units: the same number on every
// segment, the remainder one each on the first segments. The optimum can
// only be lower (a self-check of the greedy).
double EvenUnitsWaste(const std::vector<double>& mass, double r, int max_units,
                      uint64_t units) {
  const uint64_t per = units / mass.size();
  const uint64_t extra = units % mass.size();
  double waste = 0;
  for (size_t s = 0; s < mass.size(); ++s) {
    const uint64_t k = std::min<uint64_t>(per + (s < extra ? 1 : 0),
                                          static_cast<uint64_t>(max_units));
    waste += mass[s] * std::pow(r, static_cast<double>(k));
  }
  return waste;
}

// The same for real bits: every segment total_bits / segments.
double EvenBitsWaste(const std::vector<double>& mass, double c,
                     double total_bits) {
  double waste = 0;
  for (double m : mass) waste += m * std::pow(c, total_bits / mass.size());
  return waste;
}

}  // namespace

int main(int argc, char** argv) {
  const Flags f = ParseFlags(argc, argv);
  const std::vector<double> p = KeyProbabilities(f);
  const std::vector<double> mass = SegmentMass(f, p);
  double total_mass = 0, top = 0;
  for (double m : mass) total_mass += m;
  for (double m : mass) top = std::max(top, m);
  const int probes = leveldb::FilterUnitProbes(f.bits_per_unit);
  const double r = leveldb::FilterUnitTheoreticalFpr(f.bits_per_unit, probes);
  const double floor = 1 - f.zero_lookup_ratio;

  std::printf("keys %" PRIu64 ", zipf %.2f, absent share %.2f, levels", f.num,
              f.zipf, f.zero_lookup_ratio);
  for (double share : f.levels) std::printf(" %.4f", share);
  std::printf(", %zu segments of %" PRIu64 " keys\n", mass.size(),
              f.segment_keys);
  std::printf(
      "wasted-probe mass per Get without filters: %.4f; hottest "
      "segment %.1fx the mean; unit: %d bits, %d probes, FPR %.4f\n",
      total_mass, top * mass.size() / total_mass, f.bits_per_unit, probes, r);
  std::printf("floor (found keys, one read each): %.4f I/Os per Get%s\n\n",
              floor, f.absent_only ? "; waste of absent lookups only" : "");
  std::printf(
      "| budget, bits per live key | units (%dx%d): waste, x floor "
      "| any Bloom: waste, x floor | any filter: waste, x floor |\n"
      "|---|---|---|---|\n",
      f.units_per_segment, f.bits_per_unit);
  for (double budget : f.budgets) {
    const double total_bits = budget * static_cast<double>(f.num);
    const uint64_t units = static_cast<uint64_t>(
        total_bits / (f.bits_per_unit * static_cast<double>(f.segment_keys)));
    const double u = UnitsBound(mass, r, f.units_per_segment, units);
    const double b = WaterFillBound(mass, 0.6185, total_bits / f.segment_keys);
    const double i = WaterFillBound(mass, 0.5, total_bits / f.segment_keys);
    // An optimum above a feasible placement, or a better filter model doing
    // worse, means the computation is wrong: say so and fail.
    const double slack = 1e-9 * std::max(1.0, total_mass);
    if (u > EvenUnitsWaste(mass, r, f.units_per_segment, units) + slack ||
        b > EvenBitsWaste(mass, 0.6185, total_bits / f.segment_keys) + slack ||
        i > b + slack) {
      std::fprintf(stderr, "filter_bound: self-check failed at %.2f bits\n",
                   budget);
      return 1;
    }
    std::printf("| %.2f | %.4f, %.3fx | %.4f, %.3fx | %.4f, %.3fx |\n", budget,
                u, (floor + u) / floor, b, (floor + b) / floor, i,
                (floor + i) / floor);
  }
  return 0;
}
