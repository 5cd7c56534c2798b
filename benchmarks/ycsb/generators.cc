#include "generators.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ycsb {

double Zeta(uint64_t n, double theta) { return ZetaExtend(0, n, theta, 0.0); }

double ZetaExtend(uint64_t from, uint64_t to, double theta, double partial) {
  double sum = partial;
  for (uint64_t i = from + 1; i <= to; ++i) {
    sum += 1.0 / std::pow(static_cast<double>(i), theta);
  }
  return sum;
}

double ZetaApproximate(uint64_t n, double theta) {
  constexpr uint64_t kExactTerms = uint64_t{1} << 20;
  if (n <= kExactTerms) return Zeta(n, theta);
  const double head = Zeta(kExactTerms - 1, theta);
  // Euler-Maclaurin for the sum over [a, b] of f(x) = x^-theta, with the
  // first derivative correction; the next term is below 1e-20 here.
  const double a = static_cast<double>(kExactTerms);
  const double b = static_cast<double>(n);
  auto f = [theta](double x) { return std::pow(x, -theta); };
  auto derivative = [theta](double x) {
    return -theta * std::pow(x, -theta - 1.0);
  };
  const double integral =
      (std::pow(b, 1.0 - theta) - std::pow(a, 1.0 - theta)) / (1.0 - theta);
  const double tail =
      integral + (f(a) + f(b)) / 2.0 + (derivative(b) - derivative(a)) / 12.0;
  return head + tail;
}

uint64_t UniformGenerator::Next(Random* rng) {
  if (span_ == std::numeric_limits<uint64_t>::max()) return rng->Next();
  return min_ + rng->Uniform(span_ + 1);
}

ZipfianGenerator::ZipfianGenerator(uint64_t min, uint64_t max, double theta)
    : ZipfianGenerator(min, max, theta, Zeta(max - min + 1, theta)) {}

ZipfianGenerator::ZipfianGenerator(uint64_t min, uint64_t max, double theta,
                                   double zetan)
    : base_(min),
      theta_(theta),
      ranks_(max - min + 1, theta, zetan, Zeta(2, theta)) {}

uint64_t ZipfianGenerator::Next(Random* rng) {
  return NextWithCount(rng, ranks_.items());
}

uint64_t ZipfianGenerator::NextWithCount(Random* rng, uint64_t item_count) {
  if (item_count == 0) item_count = 1;
  const uint64_t items = ranks_.items();
  if (item_count > items) {
    ranks_.Reset(item_count,
                 ZetaExtend(items, item_count, theta_, ranks_.zetan()));
  } else if (item_count < items) {
    ranks_.Reset(item_count, Zeta(item_count, theta_));
  }
  return base_ + ranks_.Rank(rng->NextDouble());
}

double ScrambledZipfianGenerator::ItemSpaceZeta(double theta) {
  if (theta == 0.99) return kZetaItemSpace099;
  return ZetaApproximate(kItemSpace + 1, theta);
}

ScrambledZipfianGenerator::ScrambledZipfianGenerator(uint64_t min, uint64_t max,
                                                     double theta)
    : ScrambledZipfianGenerator(min, max, theta, ItemSpaceZeta(theta)) {}

ScrambledZipfianGenerator::ScrambledZipfianGenerator(uint64_t min, uint64_t max,
                                                     double theta,
                                                     double item_space_zetan)
    : min_(min),
      item_count_(max - min + 1),
      zipfian_(0, kItemSpace, theta, item_space_zetan) {}

uint64_t ScrambledZipfianGenerator::Next(Random* rng) {
  return min_ + FnvHash64(zipfian_.Next(rng)) % item_count_;
}

SkewedLatestGenerator::SkewedLatestGenerator(const CounterGenerator* basis,
                                             double theta, double zetan)
    : basis_(basis), zipfian_(0, basis->Last(), theta, zetan) {}

uint64_t SkewedLatestGenerator::Next(Random* rng) {
  const uint64_t last = basis_->Last();
  return last - zipfian_.NextWithCount(rng, last + 1);
}

HotspotGenerator::HotspotGenerator(uint64_t min, uint64_t max,
                                   double data_fraction, double op_fraction)
    : min_(min), items_(max - min + 1), op_fraction_(op_fraction) {
  const double hot = std::floor(static_cast<double>(items_) * data_fraction);
  // YCSB would divide by zero with an empty hot set: keep one number.
  hot_count_ =
      std::min(items_, std::max<uint64_t>(1, static_cast<uint64_t>(hot)));
}

uint64_t HotspotGenerator::Next(Random* rng) {
  const uint64_t cold = items_ - hot_count_;
  if (cold == 0 || rng->NextDouble() < op_fraction_) {
    return min_ + rng->Uniform(hot_count_);
  }
  return min_ + hot_count_ + rng->Uniform(cold);
}

void DiscreteGenerator::Add(int choice, double weight) {
  if (weight <= 0) return;
  choices_.emplace_back(choice, weight);
  total_ += weight;
}

int DiscreteGenerator::Next(Random* rng) const {
  double point = rng->NextDouble() * total_;
  for (const auto& choice : choices_) {
    if (point < choice.second) return choice.first;
    point -= choice.second;
  }
  return choices_.back().first;  // rounding left a sliver past the end
}

}  // namespace ycsb
