// UnitManager's budget: the one place it is computed, and the share of it
// the databases' false-positive memos take, weighed against the units.
#include <algorithm>
#include <cstdint>

#include "elastic/false_positive_memo.h"
#include "elastic/unit_manager.h"

namespace leveldb {

namespace {

// Memos together take at most 1/kMemoShareOfBudget of what the locators
// leave, each starts at 1/kMemoStartShare of it (or its request), and none
// goes below kMemoSmallestBytes or 1/kMemoFloorShare of it, whichever is
// less: the smallest size keeps measuring whether more would pay.
constexpr uint64_t kMemoShareOfBudget = 8;
constexpr uint64_t kMemoStartShare = 64;
constexpr uint64_t kMemoFloorShare = 128;
constexpr uint64_t kMemoSmallestBytes = 4 << 10;

}  // namespace

uint64_t UnitManager::BudgetKeysLocked() const {
  uint64_t keys = 0;
  for (const auto& [db, member] : members_) keys += member.budget_keys;
  return keys;
}

UnitManager::Budget UnitManager::ComputeBudgetLocked(
    uint64_t extra_keys) const {
  Budget budget;
  budget.total = options_.elastic.memory_budget_bytes;
  if (budget.total == 0) {
    const double keys = static_cast<double>(BudgetKeysLocked() + extra_keys);
    const double bytes = options_.elastic.memory_bits_per_key * keys / 8;
    // Converting a double at or past 2^64 is undefined: such a budget
    // saturates (in effect unlimited).
    constexpr double kTwoTo64 = 18446744073709551616.0;
    if (bytes >= kTwoTo64) {
      budget.total = ~uint64_t{0};
    } else {
      budget.total = bytes > 0 ? static_cast<uint64_t>(bytes) : 0;
    }
    // A budget per key always has room for the tables' locators: a small
    // table's locator can outweigh its keys' share, and a table registered
    // before the others at open would otherwise meet a budget of a few
    // bytes and stay without filters.
    if (bytes > 0) budget.total = std::max(budget.total, locator_bytes_);
  }
  // Locators come first: without one a table's units cannot be used. The
  // memos, sized within what the locators leave, come next.
  const uint64_t after_locators = AfterLocatorsLocked(budget.total);
  budget.memos = MemoBytesLocked();
  budget.units =
      after_locators > budget.memos ? after_locators - budget.memos : 0;
  return budget;
}

uint64_t UnitManager::AfterLocatorsLocked(uint64_t total) const {
  return total > locator_bytes_ ? total - locator_bytes_ : 0;
}

uint64_t UnitManager::MemoBytesLocked() const {
  uint64_t bytes = 0;
  for (const auto& [db, member] : members_) {
    bytes += member.client->layer()->memo()->bytes();
  }
  return bytes;
}

void UnitManager::SizeMemosLocked(uint64_t total) {
  const uint64_t after_locators = AfterLocatorsLocked(total);
  // Units keep most of the memory: a memo only helps where they let keys
  // by. Until its first decision a memo follows the budget at a small
  // share of it (the budget grows as tables register at open).
  uint64_t room = after_locators / kMemoShareOfBudget;
  for (auto& [db, member] : members_) {
    FalsePositiveMemo* memo = member.client->layer()->memo();
    uint64_t target = member.memo_target;
    if (!member.memo_weighed) {
      target = std::min<uint64_t>(target, after_locators / kMemoStartShare);
    }
    const size_t wanted = FalsePositiveMemo::RoundBytes(
        static_cast<size_t>(std::min<uint64_t>(target, room)));
    if (wanted != memo->bytes()) memo->Resize(wanted);
    room -= memo->bytes();
  }
}

void UnitManager::WeighMemoLocked(Member* member) {
  if (member->memo_request == 0) return;
  FilterLayer* layer = member->client->layer();
  FalsePositiveMemo* memo = layer->memo();
  MemoSizer::Sample sample;
  sample.now = layer->Now();
  sample.bytes = memo->bytes();
  for (int r = 0; r < MemoSizer::kRanks; ++r) {
    sample.hits_at[r] = memo->hits_at(r);
  }
  const bool due = member->sizer->Due(sample);
  MemoSizer::UnitValues units;
  if (due) {
    const uint64_t after_locators =
        AfterLocatorsLocked(ComputeBudgetLocked(0).total);
    member->sizer->SetBounds(
        std::min(kMemoSmallestBytes, after_locators / kMemoFloorShare),
        std::min<uint64_t>(member->memo_request,
                           after_locators / kMemoShareOfBudget));
    using UnitMemory = MultiQueue::UnitMemory;
    units.taken = mq_.UnitValue(UnitMemory::kTaken, sample.bytes, sample.now);
    units.given =
        mq_.UnitValue(UnitMemory::kGiven, sample.bytes / 2, sample.now);
  }
  // Not due: a window starts or goes on, or a memo switched off comes back.
  const size_t wanted = member->sizer->Next(sample, units);
  if (!due && wanted == sample.bytes) return;
  if (member->memo_weighed && wanted == member->memo_target) return;
  member->memo_weighed = true;
  member->memo_target = wanted;
  UpdateBudgetLocked();
}

void UnitManager::UpdateBudgetLocked() {
  SizeMemosLocked(ComputeBudgetLocked(0).total);
  const Budget budget = ComputeBudgetLocked(0);
  budget_bytes_ = budget.total;
  if (budget.units == mq_.budget_bytes()) return;
  if (budget.units > mq_.budget_bytes()) topup_pending_ = true;
  // Expiry is judged at the latest clock of the databases.
  uint64_t now = 0;
  for (const auto& [db, member] : members_) {
    now = std::max(now, member.client->layer()->Now());
  }
  DropVictimsLocked(mq_.SetBudget(budget.units, now));
}

}  // namespace leveldb
