#include "util/thread_pool.h"

#include <utility>

#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace leveldb {

ThreadPool::ThreadPool(int threads) : work_available_(&mu_) {
  const int count = threads < 1 ? 1 : threads;
  workers_.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    workers_.emplace_back([this] { WorkerLoop(); });
  }
}

ThreadPool::~ThreadPool() {
  {
    MutexLock lock(&mu_);
    shutting_down_ = true;
    work_available_.SignalAll();
  }
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::Submit(std::function<void()> task) {
  MutexLock lock(&mu_);
  queue_.push_back(std::move(task));
  work_available_.Signal();
}

void ThreadPool::WorkerLoop() {
  while (true) {
    std::function<void()> task;
    {
      MutexLock lock(&mu_);
      while (queue_.empty() && !shutting_down_) work_available_.Wait();
      // Shutdown still drains the queue: leave only when it is empty.
      if (queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

bool TaskGroup::State::RunOne() {
  std::function<void()> task;
  {
    MutexLock lock(&mu);
    if (pending.empty()) return false;
    task = std::move(pending.front());
    pending.pop_front();
  }
  task();
  MutexLock lock(&mu);
  if (--unfinished == 0) done.SignalAll();
  return true;
}

TaskGroup::TaskGroup(ThreadPool* pool)
    : pool_(pool), state_(std::make_shared<State>()) {}

TaskGroup::~TaskGroup() { Wait(); }

void TaskGroup::Submit(std::function<void()> task) {
  {
    MutexLock lock(&state_->mu);
    state_->pending.push_back(std::move(task));
    ++state_->unfinished;
  }
  // One runner per task; whichever thread gets to a task first runs it.
  std::shared_ptr<State> state = state_;
  pool_->Submit([state] { state->RunOne(); });
}

void TaskGroup::Wait() {
  while (state_->RunOne()) {
  }
  MutexLock lock(&state_->mu);
  while (state_->unfinished > 0) state_->done.Wait();
}

ThreadPool* FilterBuildPool() {
  static NoDestructor<ThreadPool> pool(2);
  return pool.get();
}

}  // namespace leveldb
