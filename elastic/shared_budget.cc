#include "elastic/shared_budget.h"

#include "util/mutexlock.h"

namespace leveldb {

ElasticFilterBudget::~ElasticFilterBudget() = default;

ElasticFilterBudget* NewElasticFilterBudget(size_t bytes) {
  return new SharedElasticBudget(bytes);
}

std::shared_ptr<UnitManager> SharedElasticBudget::Manager(
    const UnitManagerOptions& options) {
  MutexLock l(&mu_);
  std::shared_ptr<UnitManager> manager = manager_.lock();
  if (manager != nullptr) return manager;
  UnitManagerOptions shared = options;
  shared.shared = true;
  shared.elastic.memory_budget_bytes = bytes_;
  // Counters and failures are the budget's, not the first database's: it
  // may close while the others go on.
  shared.stats = nullptr;
  shared.info_log = nullptr;
  manager = std::make_shared<UnitManager>(shared);
  manager_ = manager;
  return manager;
}

std::shared_ptr<UnitManager> SharedElasticBudget::CurrentManager() const {
  MutexLock l(&mu_);
  return manager_.lock();
}

}  // namespace leveldb
