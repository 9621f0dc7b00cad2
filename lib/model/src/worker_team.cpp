#include "psfsim/worker_team.hpp"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "psfsim/host_cores.hpp"

namespace psfsim {
namespace {

// One call of run_on_workers: its tasks are claimed one at a time by whoever gets there first.
struct Pass {
  Pass(std::size_t tasks, const std::function<void(std::size_t)>& task)
      : tasks(tasks), task(task) {}

  // Claims and runs tasks until none is left; returns whether there were any.
  bool work() {
    bool ran = false;
    for (std::size_t i = next.fetch_add(1); i < tasks; i = next.fetch_add(1)) {
      ran = true;
      try {
        task(i);
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
      }
      if (done.fetch_add(1) + 1 == tasks) {
        const std::lock_guard lock(mutex);
        ended.notify_all();
      }
    }
    return ran;
  }
  [[nodiscard]] bool claimed() const { return next.load() >= tasks; }

  const std::size_t tasks;
  const std::function<void(std::size_t)>& task;  // the caller's, alive until done == tasks
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex mutex;
  std::condition_variable ended;
  std::exception_ptr failure;
};

class Team {
 public:
  void run(std::size_t tasks, const std::function<void(std::size_t)>& task) {
    const auto pass = std::make_shared<Pass>(tasks, task);
    {
      const std::lock_guard lock(mutex_);
      start_workers();
      passes_.push_back(pass);
    }
    // One worker for each task beyond the caller's: a pass of two wakes one, not the team.
    for (std::size_t woken = 1; woken < tasks; ++woken) work_waiting_.notify_one();
    pass->work();
    {
      std::unique_lock lock(pass->mutex);
      pass->ended.wait(lock, [&] { return pass->done.load() == tasks; });
    }
    if (pass->failure) std::rethrow_exception(pass->failure);
  }

  // Before a fork: waits until no worker but the forking one is inside a pass, and keeps
  // them out until after_fork_in_parent. A worker forked mid-pass may hold a lock of the
  // allocator (ASan's takes none around fork), and the child, which inherits it held,
  // then hangs on its first allocation. Waiting releases mutex_, so a pass that a busy
  // worker starts from inside its task is not shut out.
  void before_fork() {
    std::unique_lock lock(mutex_);
    const int forking = serving ? 1 : 0;
    idle_.wait(lock, [&] { return busy_ <= forking; });
    lock.release();
  }
  void after_fork_in_parent() { mutex_.unlock(); }

 private:
  // Under mutex_: as many workers as the process may use cores, less the caller's.
  void start_workers() {
    if (started_) return;
    started_ = true;
    const int workers = usable_cores() - 1;
    for (int w = 0; w < workers; ++w) {
      try {
        std::thread([this] { serve(); }).detach();
      } catch (...) {  // no thread to be had: the callers do the work themselves
        break;
      }
    }
  }
  void serve() {
    serving = true;
    std::unique_lock lock(mutex_);
    for (;;) {
      work_waiting_.wait(lock, [&] {
        while (!passes_.empty() && passes_.front()->claimed()) passes_.pop_front();
        return !passes_.empty();
      });
      std::shared_ptr<Pass> pass = passes_.front();
      ++busy_;
      lock.unlock();
      pass->work();
      pass.reset();  // may free the pass: still busy, as far as a fork is concerned
      lock.lock();
      if (--busy_ == 0) idle_.notify_all();
    }
  }

  static thread_local bool serving;  // this thread is one of a team's workers

  std::mutex mutex_;
  std::condition_variable work_waiting_;
  std::condition_variable idle_;
  std::deque<std::shared_ptr<Pass>> passes_;
  int busy_ = 0;  // workers between taking a pass and letting it go
  bool started_ = false;
};

thread_local bool Team::serving = false;

// Never destroyed: detached workers wait on it until the process ends. A forked child has
// none of its parent's threads, and inherits the team's mutex held by the fork: it starts
// over with a team of its own (the parent's is left as it is).
std::atomic<Team*> the_team{nullptr};
// The team before_fork held, for the parent to let go: the C library runs one fork's
// handlers at a time.
Team* held_for_fork = nullptr;

void hold_team_for_fork() {
  held_for_fork = the_team.load(std::memory_order_acquire);
  if (held_for_fork != nullptr) held_for_fork->before_fork();
}
void release_team_in_parent() {
  if (held_for_fork != nullptr) held_for_fork->after_fork_in_parent();
  held_for_fork = nullptr;
}
void forget_team_in_child() {
  held_for_fork = nullptr;
  the_team.store(nullptr);
}

Team& team() {
  Team* current = the_team.load(std::memory_order_acquire);
  if (current != nullptr) return *current;
  static const bool watching_forks = [] {
    pthread_atfork(hold_team_for_fork, release_team_in_parent, forget_team_in_child);
    return true;
  }();
  (void)watching_forks;
  auto* made = new Team;
  if (the_team.compare_exchange_strong(current, made, std::memory_order_acq_rel)) return *made;
  delete made;  // another thread's came first; this one never started a worker
  return *current;
}

}  // namespace

void run_on_workers(std::size_t tasks, const std::function<void(std::size_t)>& task) {
  if (tasks == 0) return;
  if (tasks == 1) {
    task(0);
    return;
  }
  team().run(tasks, task);
}

}  // namespace psfsim
