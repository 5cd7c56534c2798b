#include "elastic/multi_queue.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>
#include <vector>

namespace leveldb {

namespace {

int ClampUnits(int n) {
  return std::min(std::max(n, 1), MultiQueue::kMaxUnits);
}

double ClampFpr(double p) {
  if (!(p >= 0.0)) return std::isnan(p) ? 1.0 : 0.0;
  return std::min(p, 1.0);
}

int ClampLevel(int level) {
  return std::min(std::max(level, 0), MultiQueue::kMaxLsmLevels - 1);
}

}  // namespace

MultiQueue::MultiQueue(const Options& options)
    : n_(ClampUnits(options.units_per_segment)),
      fixed_lifetime_(options.lifetime),
      min_auto_lifetime_(options.min_auto_lifetime),
      budget_bytes_(options.budget_bytes),
      aging_lifetimes_(options.aging_lifetimes),
      queues_(n_ + 1),
      queue_len_(n_ + 1, 0),
      level_hist_(kMaxLsmLevels, std::vector<uint64_t>(n_ + 1, 0)) {
  RateClass(options.unit_fpr);  // class 0
  for (Link& head : queues_) head.prev = head.next = &head;
}

int MultiQueue::RateClass(double unit_fpr) {
  const double p = ClampFpr(unit_fpr);
  int nearest = 0;
  for (size_t c = 0; c < unit_fprs_.size(); ++c) {
    if (unit_fprs_[c] == p) return static_cast<int>(c);
    if (std::fabs(unit_fprs_[c] - p) < std::fabs(unit_fprs_[nearest] - p)) {
      nearest = static_cast<int>(c);
    }
  }
  if (unit_fprs_.size() >= static_cast<size_t>(kMaxRateClasses)) {
    return nearest;
  }
  std::vector<double> r(n_ + 1);
  r[0] = 1.0;
  for (int k = 1; k <= n_; ++k) r[k] = r[k - 1] * p;
  unit_fprs_.push_back(p);
  fpr_.push_back(std::move(r));
  queue_absent_.emplace_back(n_ + 1, 0);
  return static_cast<int>(unit_fprs_.size() - 1);
}

MultiQueue::~MultiQueue() = default;

void MultiQueue::AdvanceClock(uint64_t now) {
  if (aging_lifetimes_ == 0) return;
  // A lifetime too long to multiply means counts never age (a product that
  // wrapped could be 0 and divide by zero below).
  const uint64_t life = lifetime();
  const uint64_t period = life > ~uint64_t{0} / aging_lifetimes_
                              ? ~uint64_t{0}
                              : aging_lifetimes_ * life;
  if (now > epoch_start_ && now - epoch_start_ >= period) {
    const uint64_t epochs = (now - epoch_start_) / period;
    epoch_ += epochs;
    epoch_start_ += epochs * period;
  }
}

MultiQueue::Hotness MultiQueue::Halved(Hotness h, uint64_t shift) {
  if (shift >= 64) {
    h.absent_probes = h.accesses = 0;
  } else {
    h.absent_probes >>= shift;
    h.accesses >>= shift;
  }
  return h;
}

void MultiQueue::Age(Segment* s) {
  if (s->aged_epoch >= epoch_) return;
  const uint64_t before = s->hotness.absent_probes;
  s->hotness = Halved(s->hotness, epoch_ - s->aged_epoch);
  s->aged_epoch = epoch_;
  if (s->attached) {  // keep E[extra I/O]'s per-queue sums exact
    AbsentSum(*s) -= before - s->hotness.absent_probes;
  }
}

MultiQueue::Segment* MultiQueue::Find(SegmentId id) {
  auto it = segments_.find(id);
  return it == segments_.end() ? nullptr : &it->second;
}

const MultiQueue::Segment* MultiQueue::Find(SegmentId id) const {
  auto it = segments_.find(id);
  return it == segments_.end() ? nullptr : &it->second;
}

uint64_t MultiQueue::lifetime() const {
  if (fixed_lifetime_ != 0) return fixed_lifetime_;
  return std::max(min_auto_lifetime_, attached_);
}

bool MultiQueue::Expired(const Segment& s, uint64_t now,
                         uint64_t lifetime) const {
  // A clock that seems to run backwards means "just accessed".
  return now > s.hotness.last_access && now - s.hotness.last_access > lifetime;
}

uint64_t MultiQueue::FreeBytes() const {
  return budget_bytes_ > used_bytes_ ? budget_bytes_ - used_bytes_ : 0;
}

void MultiQueue::Enqueue(Segment* s, bool at_mru) {
  Link* head = &queues_[s->units];
  if (at_mru) {  // just before the sentinel
    s->prev = head->prev;
    s->next = head;
  } else {  // just after it
    s->prev = head;
    s->next = head->next;
  }
  s->prev->next = s;
  s->next->prev = s;
  ++queue_len_[s->units];
  AbsentSum(*s) += s->hotness.absent_probes;
  ++level_hist_[s->lsm_level][s->units];
}

void MultiQueue::Dequeue(Segment* s) {
  s->prev->next = s->next;
  s->next->prev = s->prev;
  s->prev = s->next = nullptr;
  --queue_len_[s->units];
  AbsentSum(*s) -= s->hotness.absent_probes;
  --level_hist_[s->lsm_level][s->units];
}

void MultiQueue::MoveToMru(Segment* s) {
  Dequeue(s);
  Enqueue(s, /*at_mru=*/true);
}

void MultiQueue::Promote(Segment* s) {
  Dequeue(s);
  ++s->units;
  used_bytes_ += s->unit_bytes;
  ++loads_;
  Enqueue(s, /*at_mru=*/true);  // it was just accessed or opened
}

void MultiQueue::Demote(Segment* s, std::vector<Victim>* victims, bool warm) {
  Dequeue(s);
  --s->units;
  used_bytes_ -= s->unit_bytes;
  ++evictions_;
  victims->push_back(Victim{s->id, s->units});
  // A cold victim goes ahead of the warmer segments of its new queue so
  // that the expired prefix stays at the LRU end.
  Enqueue(s, /*at_mru=*/warm);
}

bool MultiQueue::Attach(SegmentId id, uint64_t unit_bytes, int lsm_level,
                        const Hotness& initial, int rate_class) {
  if (rate_class < 0 || static_cast<size_t>(rate_class) >= fpr_.size()) {
    return false;
  }
  auto [it, inserted] = segments_.try_emplace(id);
  Segment& s = it->second;
  if (!inserted && s.attached) return false;
  if (inserted) {
    s.id = id;
    // Counts recorded elsewhere (a compaction input, a reopened DB's
    // MANIFEST) were aged up to at least their last access; epochs count
    // from time 0 in every process, so move to that epoch before taking
    // them as aged to the current one, or they would be halved twice.
    AdvanceClock(initial.last_access);
    s.hotness = initial;
    s.aged_epoch = epoch_;
    files_[FileNumberOf(id)].push_back(id);
  }
  Age(&s);  // detached here: before the queue sums include it
  s.unit_bytes = unit_bytes;
  s.lsm_level = ClampLevel(lsm_level);
  s.rate_class = rate_class;
  s.units = 0;
  s.attached = true;
  ++attached_;
  Enqueue(&s, /*at_mru=*/true);
  return true;
}

int MultiQueue::Detach(SegmentId id) {
  Segment* s = Find(id);
  if (s == nullptr || !s->attached) return 0;
  Dequeue(s);
  const int units = s->units;
  used_bytes_ -= static_cast<uint64_t>(units) * s->unit_bytes;
  s->units = 0;
  s->attached = false;
  --attached_;
  return units;
}

std::vector<MultiQueue::Released> MultiQueue::Forget(uint64_t file_number) {
  std::vector<Released> released;
  auto file = files_.find(file_number);
  if (file == files_.end()) return released;
  for (SegmentId id : file->second) {
    const int units = Detach(id);
    if (units > 0) released.push_back(Released{id, units});
    segments_.erase(id);
  }
  files_.erase(file);
  return released;
}

bool MultiQueue::GetHotness(SegmentId id, Hotness* hotness) const {
  const Segment* s = Find(id);
  if (s == nullptr) return false;
  *hotness = Halved(s->hotness, epoch_ - s->aged_epoch);
  return true;
}

bool MultiQueue::SetLsmLevel(SegmentId id, int lsm_level) {
  Segment* s = Find(id);
  if (s == nullptr) return false;
  const int level = ClampLevel(lsm_level);
  if (s->attached) {  // keep its queue position: only the tag changes
    --level_hist_[s->lsm_level][s->units];
    ++level_hist_[level][s->units];
  }
  s->lsm_level = level;
  return true;
}

bool MultiQueue::RecordAccess(SegmentId id, uint64_t now, bool absent) {
  Segment* s = Find(id);
  if (s == nullptr) return false;
  AdvanceClock(now);
  Age(s);
  if (s->attached) Dequeue(s);
  ++s->hotness.accesses;
  if (absent) ++s->hotness.absent_probes;
  s->hotness.last_access = std::max(s->hotness.last_access, now);
  if (s->attached) Enqueue(s, /*at_mru=*/true);
  return true;
}

std::vector<MultiQueue::Segment*> MultiQueue::FindExpiredVictims(
    const Segment* s, uint64_t needed, uint64_t now) {
  std::vector<Segment*> victims;
  const uint64_t life = lifetime();
  uint64_t covered = FreeBytes();
  for (int k = n_; k >= 1; --k) {
    const Link* head = &queues_[k];
    for (Link* l = head->next; l != head; l = l->next) {
      Segment* v = static_cast<Segment*>(l);
      if (v == s) continue;
      if (!Expired(*v, now, life)) break;  // the rest of Q_k is warmer
      if (v->unit_bytes == 0) continue;    // frees nothing
      victims.push_back(v);
      covered += v->unit_bytes;
      if (covered >= needed) {
        for (Segment* found : victims) Age(found);  // their loss uses f
        return victims;
      }
    }
  }
  victims.clear();
  return victims;
}

MultiQueue::Segment* MultiQueue::FindWarmVictim(const Segment* s,
                                                uint64_t needed) {
  Segment* best = nullptr;
  double best_loss = 0;
  for (int k = n_; k >= 1; --k) {
    const Link* head = &queues_[k];
    if (head->next == head) continue;
    Segment* v = static_cast<Segment*>(head->next);
    if (v == s) {
      if (v->next == head) continue;
      v = static_cast<Segment*>(v->next);
    }
    if (v->unit_bytes == 0 || FreeBytes() + v->unit_bytes < needed) continue;
    Age(v);  // its loss uses f
    const double loss = VictimLoss({v});
    if (best == nullptr || loss < best_loss) {
      best = v;
      best_loss = loss;
    }
  }
  return best;
}

bool MultiQueue::WorthSwapping(const Segment& s,
                               const std::vector<Segment*>& victims,
                               bool expired) const {
  // An unexpired victim's unit may be wanted back soon: take it only when
  // the expected I/Os saved exceed the one read that loads the unit.
  const double margin = expired ? 0.0 : 1.0;
  return LoadGain(s) > VictimLoss(victims) + margin;
}

double MultiQueue::VictimLoss(const std::vector<Segment*>& victims) const {
  double loss = 0;
  for (const Segment* v : victims) {
    const std::vector<double>& r = fpr_[v->rate_class];
    loss += static_cast<double>(v->hotness.absent_probes) *
            (r[v->units - 1] - r[v->units]);
  }
  return loss;
}

double MultiQueue::LoadGain(const Segment& s) const {
  const std::vector<double>& r = fpr_[s.rate_class];
  return static_cast<double>(s.hotness.absent_probes) *
         (r[s.units] - r[s.units + 1]);
}

double MultiQueue::AgedGets(uint64_t now) const {
  if (aging_lifetimes_ == 0)
    return static_cast<double>(std::max<uint64_t>(now, 1));
  const uint64_t life = lifetime();
  const double period =
      static_cast<double>(aging_lifetimes_) * static_cast<double>(life);
  const double current =
      now > epoch_start_ ? static_cast<double>(now - epoch_start_) : 0.0;
  // The epochs before: period * (1/2 + 1/4 + ...), as many as have passed.
  const double before =
      period * (1.0 - std::ldexp(1.0, -static_cast<int>(
                                          std::min<uint64_t>(epoch_, 64))));
  return std::max(current + before, 1.0);
}

double MultiQueue::UnitValue(UnitMemory which, uint64_t bytes, uint64_t now) {
  AdvanceClock(now);
  const bool taken = which == UnitMemory::kTaken;
  // (reads saved per byte, bytes) of each segment's candidate unit.
  std::vector<std::pair<double, uint64_t>> units;
  for (auto& [id, s] : segments_) {
    if (!s.attached || s.unit_bytes == 0) continue;
    if (taken ? s.units == 0 : s.units >= n_) continue;
    Age(&s);
    const double reads = taken ? VictimLoss({&s}) : LoadGain(s);
    units.emplace_back(reads / static_cast<double>(s.unit_bytes), s.unit_bytes);
  }
  if (taken) {
    std::sort(units.begin(), units.end());
  } else {
    std::sort(units.rbegin(), units.rend());
  }
  double reads = 0;
  uint64_t covered = 0;
  for (const auto& [per_byte, unit_bytes] : units) {
    if (covered >= bytes) break;
    reads += per_byte * static_cast<double>(unit_bytes);
    covered += unit_bytes;
  }
  if (covered == 0) return 0.0;
  return reads / static_cast<double>(covered) / AgedGets(now);
}

MultiQueue::Plan MultiQueue::PlanAccess(SegmentId id, uint64_t now) {
  Plan plan;
  Segment* s = Find(id);
  if (s == nullptr || !s->attached || s->units >= n_) return plan;
  AdvanceClock(now);
  Age(s);
  // Filters cannot help a segment whose probes all found their key.
  if (s->hotness.absent_probes == 0) return plan;
  plan.first_unit = s->units;
  if (FreeBytes() < s->unit_bytes) {
    std::vector<Segment*> victims = FindExpiredVictims(s, s->unit_bytes, now);
    const bool expired = !victims.empty();
    if (!expired) {
      Segment* warm = FindWarmVictim(s, s->unit_bytes);
      if (warm == nullptr || !WorthSwapping(*s, {warm}, false)) {
        ++rejected_no_victims_;
        return plan;
      }
      victims.push_back(warm);
      ++warm_swaps_;
    } else if (!WorthSwapping(*s, victims, true)) {
      ++rejected_no_gain_;
      return plan;
    }
    for (Segment* v : victims) Demote(v, &plan.victims, !expired);
    ++swaps_;
  }
  Promote(s);
  plan.units_to_load = 1;
  ++adjustments_;
  return plan;
}

MultiQueue::Plan MultiQueue::PlanInitialUnits(SegmentId id, int wanted,
                                              uint64_t now) {
  Plan plan;
  Segment* s = Find(id);
  if (s == nullptr || !s->attached) return plan;
  AdvanceClock(now);
  Age(s);
  plan.first_unit = s->units;
  while (plan.units_to_load < wanted && s->units < n_) {
    if (FreeBytes() < s->unit_bytes) {
      std::vector<Segment*> victims = FindExpiredVictims(s, s->unit_bytes, now);
      if (victims.empty() || LoadGain(*s) < VictimLoss(victims)) break;
      for (Segment* v : victims) Demote(v, &plan.victims);
    }
    Promote(s);
    ++plan.units_to_load;
  }
  return plan;
}

int MultiQueue::AbortLoad(SegmentId id, int unit) {
  Segment* s = Find(id);
  if (s == nullptr || !s->attached || unit < 0 || unit >= s->units) return 0;
  const int rolled_back = s->units - unit;
  Dequeue(s);
  s->units = unit;
  used_bytes_ -= static_cast<uint64_t>(rolled_back) * s->unit_bytes;
  aborted_loads_ += rolled_back;
  Enqueue(s, /*at_mru=*/true);
  return rolled_back;
}

std::vector<MultiQueue::Victim> MultiQueue::SetBudget(uint64_t budget_bytes,
                                                      uint64_t now) {
  budget_bytes_ = budget_bytes;
  std::vector<Victim> victims;
  const uint64_t life = lifetime();
  // Pass 1 takes only expired segments; pass 2 anything, coldest first.
  // Going from Q_n down, a demoted segment lands at the LRU end of the next
  // queue and is considered again there.
  for (int pass = 0; pass < 2; ++pass) {
    for (int k = n_; k >= 1 && used_bytes_ > budget_bytes_; --k) {
      Link* head = &queues_[k];
      while (used_bytes_ > budget_bytes_ && head->next != head) {
        Segment* v = static_cast<Segment*>(head->next);
        if (pass == 0 && !Expired(*v, now, life)) break;
        Demote(v, &victims);
      }
    }
  }
  return victims;
}

int MultiQueue::UnitsLoaded(SegmentId id) const {
  const Segment* s = Find(id);
  return (s == nullptr || !s->attached) ? -1 : s->units;
}

bool MultiQueue::IsAttached(SegmentId id) const {
  const Segment* s = Find(id);
  return s != nullptr && s->attached;
}

bool MultiQueue::IsExpired(SegmentId id, uint64_t now) const {
  const Segment* s = Find(id);
  return s != nullptr && Expired(*s, now, lifetime());
}

double MultiQueue::ExpectedExtraIo() const {
  double e = 0;
  for (size_t c = 0; c < fpr_.size(); ++c) {
    for (int k = 0; k <= n_; ++k) {
      e += fpr_[c][k] * static_cast<double>(queue_absent_[c][k]);
    }
  }
  return e;
}

double MultiQueue::RecomputeExpectedExtraIo() const {
  double e = 0;
  for (const auto& entry : segments_) {
    const Segment& s = entry.second;
    if (s.attached) {
      e += static_cast<double>(s.hotness.absent_probes) *
           fpr_[s.rate_class][s.units];
    }
  }
  return e;
}

MultiQueue::Stats MultiQueue::GetStats() const {
  Stats st;
  st.used_bytes = used_bytes_;
  st.budget_bytes = budget_bytes_;
  st.lifetime = lifetime();
  st.attached_segments = attached_;
  st.detached_segments = segments_.size() - attached_;
  st.segments_per_queue = queue_len_;
  int levels = 0;  // report levels up to the deepest one in use
  for (int level = 0; level < kMaxLsmLevels; ++level) {
    for (uint64_t count : level_hist_[level]) {
      if (count != 0) levels = level + 1;
    }
  }
  st.segments_by_level.assign(level_hist_.begin(),
                              level_hist_.begin() + levels);
  st.loads = loads_;
  st.aborted_loads = aborted_loads_;
  st.evictions = evictions_;
  st.adjustments = adjustments_;
  st.swaps = swaps_;
  st.warm_swaps = warm_swaps_;
  st.rejected_no_victims = rejected_no_victims_;
  st.rejected_no_gain = rejected_no_gain_;
  st.expected_extra_io = ExpectedExtraIo();
  return st;
}

bool MultiQueue::CheckInvariants(std::string* error) const {
  std::ostringstream why;
  uint64_t queued = 0;
  for (int k = 0; k <= n_; ++k) {
    const Link* head = &queues_[k];
    uint64_t len = 0;
    std::vector<uint64_t> absent(fpr_.size(), 0);
    for (const Link* l = head->next; l != head; l = l->next) {
      const Segment* s = static_cast<const Segment*>(l);
      if (l->next->prev != l) why << "broken link in Q" << k << "; ";
      if (!s->attached) why << "detached segment in Q" << k << "; ";
      if (s->units != k) why << "segment with " << s->units << " in Q" << k;
      ++len;
      absent[s->rate_class] += s->hotness.absent_probes;
    }
    if (len != queue_len_[k]) why << "length of Q" << k << " is off; ";
    for (size_t c = 0; c < fpr_.size(); ++c) {
      if (absent[c] != queue_absent_[c][k]) {
        why << "f sum of Q" << k << " class " << c << " is off; ";
      }
    }
    queued += len;
  }
  uint64_t attached = 0, used = 0;
  std::vector<std::vector<uint64_t>> hist(kMaxLsmLevels,
                                          std::vector<uint64_t>(n_ + 1, 0));
  for (const auto& entry : segments_) {
    const Segment& s = entry.second;
    if (entry.first != s.id) why << "segment keyed under a wrong id; ";
    if (!s.attached) {
      if (s.units != 0 || s.prev != nullptr) why << "detached but queued; ";
      continue;
    }
    if (s.units < 0 || s.units > n_) why << "units out of range; ";
    ++attached;
    used += static_cast<uint64_t>(s.units) * s.unit_bytes;
    ++hist[s.lsm_level][s.units];
  }
  if (attached != attached_ || attached != queued) {
    why << "attached count " << attached_ << " vs " << attached << " vs "
        << queued << " queued; ";
  }
  if (used != used_bytes_) {
    why << "used bytes " << used_bytes_ << " vs " << used << "; ";
  }
  if (used_bytes_ > budget_bytes_) why << "budget exceeded; ";
  if (hist != level_hist_) why << "level histogram is off; ";
  const double fresh = RecomputeExpectedExtraIo();
  if (std::fabs(fresh - ExpectedExtraIo()) > 1e-9 * std::max(1.0, fresh)) {
    why << "E[extra I/O] drifted; ";
  }
  *error = why.str();
  return error->empty();
}

}  // namespace leveldb
