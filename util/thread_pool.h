// A small fixed-size thread pool, and TaskGroup to wait for a batch of tasks.
//
// ElasticBF builds the filter units of a table on a pool while the table's
// data blocks are being written. Tasks must not throw.
#ifndef STORAGE_LEVELDB_UTIL_THREAD_POOL_H_
#define STORAGE_LEVELDB_UTIL_THREAD_POOL_H_

#include <deque>
#include <functional>
#include <memory>
#include <thread>  // NOLINT
#include <vector>

#include "port/port.h"
#include "port/thread_annotations.h"

namespace leveldb {

class ThreadPool {
 public:
  // Starts max(threads, 1) worker threads.
  explicit ThreadPool(int threads);

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Runs every task still queued, then joins the workers. No thread other
  // than the pool's own tasks may call Submit() once destruction has begun.
  ~ThreadPool();

  // Queues task to run on some worker thread. Tasks start in FIFO order.
  void Submit(std::function<void()> task) LOCKS_EXCLUDED(mu_);

  int size() const { return static_cast<int>(workers_.size()); }

 private:
  void WorkerLoop() LOCKS_EXCLUDED(mu_);

  port::Mutex mu_;
  port::CondVar work_available_;
  std::deque<std::function<void()>> queue_ GUARDED_BY(mu_);
  bool shutting_down_ GUARDED_BY(mu_) = false;
  std::vector<std::thread> workers_;  // set in the constructor only
};

// A batch of tasks run on a pool; Wait() returns once all of them have
// finished. The waiting thread runs the batch's tasks that no worker has
// started yet, so Wait() makes progress even when every worker is busy, and
// may be called from a task of the same pool without deadlock.
//
// Submit and Wait may be called from several threads. The destructor waits.
class TaskGroup {
 public:
  explicit TaskGroup(ThreadPool* pool);

  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;

  ~TaskGroup();

  void Submit(std::function<void()> task);

  // Blocks until every task submitted so far has finished.
  void Wait();

 private:
  // Shared with the pool's runners, which may outlive the group (a runner
  // that finds the queue empty because Wait() took its task does nothing).
  struct State {
    State() : done(&mu) {}
    port::Mutex mu;
    port::CondVar done;
    std::deque<std::function<void()>> pending GUARDED_BY(mu);
    int unfinished GUARDED_BY(mu) = 0;

    // Runs one pending task if there is one; returns false otherwise.
    bool RunOne() LOCKS_EXCLUDED(mu);
  };

  ThreadPool* const pool_;
  const std::shared_ptr<State> state_;
};

// Process-wide pool (2 threads) for building filter units. Never destroyed.
ThreadPool* FilterBuildPool();

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_UTIL_THREAD_POOL_H_
