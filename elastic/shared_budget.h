// SharedElasticBudget: the implementation of ElasticFilterBudget
// (include/leveldb/elastic_filter.h). It holds the byte budget and, while
// at least one database uses it, the UnitManager those databases share.
#ifndef STORAGE_LEVELDB_ELASTIC_SHARED_BUDGET_H_
#define STORAGE_LEVELDB_ELASTIC_SHARED_BUDGET_H_

#include <cstddef>
#include <memory>

#include "elastic/unit_manager.h"
#include "leveldb/elastic_filter.h"
#include "port/port.h"
#include "port/thread_annotations.h"

namespace leveldb {

class SharedElasticBudget : public ElasticFilterBudget {
 public:
  explicit SharedElasticBudget(size_t bytes) : bytes_(bytes) {}
  ~SharedElasticBudget() override = default;

  size_t bytes() const override { return bytes_; }

  // The manager of the databases using this budget. The first database to
  // ask (again after all have closed) builds it from its own options, with
  // this budget's bytes; the others join it. The databases hold it: it
  // goes, with its thread, when the last one closes.
  std::shared_ptr<UnitManager> Manager(const UnitManagerOptions& options)
      LOCKS_EXCLUDED(mu_);

  // The manager if one is alive (tests), else null.
  std::shared_ptr<UnitManager> CurrentManager() const LOCKS_EXCLUDED(mu_);

 private:
  const size_t bytes_;
  mutable port::Mutex mu_;
  std::weak_ptr<UnitManager> manager_ GUARDED_BY(mu_);
};

// The budget behind `budget` (every ElasticFilterBudget is one).
inline SharedElasticBudget* AsSharedBudget(ElasticFilterBudget* budget) {
  return static_cast<SharedElasticBudget*>(budget);
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_ELASTIC_SHARED_BUDGET_H_
