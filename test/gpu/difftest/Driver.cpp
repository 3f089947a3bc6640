//===- Driver.cpp - Worker processes under a watchdog, and the summary ----===//

#include "Driver.h"

#include "Tables.h"
#include "Worker.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern char **environ;

namespace difftest {
namespace {

using Clock = std::chrono::steady_clock;

enum class State { Pending, Running, Passed, Failed, Hung };

struct KernelResult {
  State state = State::Pending;
  std::string why; // hang or crash
};

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  int from = 0, to = 0;
  int current = -1; // position of the kernel begun and not done
  std::string partial;
  std::string fatal; // the worker's last FATAL line
  Clock::time_point lastOutput;
  bool killed = false;
};

class Driver {
public:
  Driver(const Options &o, const char *self)
      : o_(o), self_(self), selection_(selectKernels(o)),
        results_(selection_.size()) {
    for (size_t pos = 0; pos < selection_.size(); ++pos)
      positionOf_[difftest_meta::kKernels[selection_[pos]].index] =
          static_cast<int>(pos);
    for (int v : selectVariants(o))
      failuresByVariant_[kVariants[v].name] = 0;
  }

  int run() {
    header();
    for (int from = 0; from < static_cast<int>(selection_.size());
         from += o_.batch)
      pending_.push_back(
          {from, std::min<int>(from + o_.batch, selection_.size())});
    std::vector<Worker> running;
    const Clock::time_point start = Clock::now();
    while (!pending_.empty() || !running.empty()) {
      if (o_.timeLimit > 0 &&
          std::chrono::duration<double>(Clock::now() - start).count() >
              o_.timeLimit) {
        // Out of time: what did not finish is reported as not run, and the
        // summary still comes out.
        for (Worker &w : running) {
          kill(w.pid, SIGKILL);
          close(w.fd);
          waitpid(w.pid, nullptr, 0);
        }
        break;
      }
      while (!pending_.empty() && static_cast<int>(running.size()) < o_.jobs) {
        running.push_back(
            spawn(pending_.front().first, pending_.front().second));
        pending_.pop_front();
      }
      pump(running);
    }
    return summary();
  }

private:
  void header() const {
    std::printf("distwar_difftest: %zu kernels (generator seed %u), input "
                "seed %u, variants:",
                selection_.size(), difftest_meta::kGeneratorSeed, o_.seed);
    for (int v : selectVariants(o_))
      std::printf(" %s", kVariants[v].name);
    std::printf("%s\n", o_.small ? " (small)" : "");
    printTileMode(o_);
    std::ifstream coverage(o_.coverage);
    if (!o_.coverage.empty() && coverage) {
      std::printf("%s", std::string(std::istreambuf_iterator<char>(coverage),
                                    std::istreambuf_iterator<char>())
                            .c_str());
    } else {
      std::printf("(no coverage table at '%s': run coverage.py on the tool's "
                  "reports)\n",
                  o_.coverage.c_str());
    }
    std::fflush(stdout);
  }

  Worker spawn(int from, int to) {
    std::vector<std::string> args = {self_};
    for (const std::string &a : workerArguments(o_, from, to))
      args.push_back(a);
    std::vector<char *> argv;
    for (std::string &a : args)
      argv.push_back(&a[0]);
    argv.push_back(nullptr);
    int fds[2];
    if (pipe(fds) != 0) {
      std::perror("pipe");
      std::exit(2);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    Worker w;
    w.from = from;
    w.to = to;
    if (posix_spawn(&w.pid, "/proc/self/exe", &actions, nullptr, argv.data(),
                    environ) != 0) {
      std::perror("posix_spawn");
      std::exit(2);
    }
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    w.fd = fds[0];
    w.lastOutput = Clock::now();
    return w;
  }

  /// Waits up to 200 ms for output; handles lines, ended and stuck workers.
  void pump(std::vector<Worker> &running) {
    std::vector<pollfd> fds;
    for (const Worker &w : running)
      fds.push_back({w.fd, POLLIN, 0});
    poll(fds.data(), fds.size(), 200);
    const double deadline = 4 * o_.hangSeconds + 60;
    for (size_t i = 0; i < running.size();) {
      Worker &w = running[i];
      bool ended = false;
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[4096];
        const ssize_t n = read(w.fd, buf, sizeof buf);
        if (n > 0) {
          w.partial.append(buf, n);
          w.lastOutput = Clock::now();
          size_t eol;
          while ((eol = w.partial.find('\n')) != std::string::npos) {
            handleLine(w, w.partial.substr(0, eol));
            w.partial.erase(0, eol + 1);
          }
        } else {
          ended = true;
        }
      }
      if (!ended &&
          std::chrono::duration<double>(Clock::now() - w.lastOutput).count() >
              deadline) {
        kill(w.pid, SIGKILL);
        w.killed = true;
        ended = true;
      }
      if (ended) {
        finish(w);
        running.erase(running.begin() + i);
        fds.erase(fds.begin() + i);
      } else {
        ++i;
      }
    }
  }

  void handleLine(Worker &w, const std::string &text) {
    std::istringstream in(text);
    std::string tag;
    int index = -1;
    in >> tag >> index;
    const auto pos = positionOf_.find(index);
    if (tag == "BEGIN" && pos != positionOf_.end()) {
      w.current = pos->second;
      results_[w.current].state = State::Running;
    } else if (tag == "DONE" && pos != positionOf_.end()) {
      std::string verdict;
      int inert = 0;
      in >> verdict >> inert;
      results_[pos->second].state =
          verdict == "pass" ? State::Passed : State::Failed;
      inertShapes_ += inert;
      w.current = -1;
    } else if (tag == "FAIL" || tag == "UNSTABLE") {
      std::printf("%s seed=%u input-seed=%u kernel=%s\n", tag.c_str(),
                  difftest_meta::kGeneratorSeed, o_.seed,
                  text.substr(tag.size() + 1).c_str());
      std::fflush(stdout);
      const size_t at = text.find("variant=");
      if (at != std::string::npos) {
        const std::string v = text.substr(at + 8, text.find(' ', at) - at - 8);
        failedVariants_[index].insert(v);
      }
    } else if (tag == "FATAL:") {
      w.fatal = text;
    } else {
      std::printf("%s\n", text.c_str());
    }
  }

  /// A worker ended: the kernel it was running (or, if it died before
  /// beginning one, the next of its batch) hung or crashed, unless it ended
  /// normally; the rest of its batch goes back to the queue.
  void finish(Worker &w) {
    close(w.fd);
    int status = 0;
    waitpid(w.pid, &status, 0);
    const bool normal =
        !w.killed && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    int culprit = w.current;
    if (culprit < 0) {
      culprit = w.from;
      while (culprit < w.to && results_[culprit].state != State::Pending)
        ++culprit;
      if (culprit == w.to)
        return;
    }
    KernelResult &r = results_[culprit];
    const bool hung =
        w.killed || (WIFEXITED(status) && WEXITSTATUS(status) == 3);
    r.state = hung ? State::Hung : State::Failed;
    r.why = w.killed ? "no progress; worker killed"
            : normal ? "the worker ended before it"
            : w.fatal.empty()
                ? "worker ended (status " + std::to_string(status) + ")"
                : w.fatal;
    const KernelSpec &k = difftest_meta::kKernels[selection_[culprit]];
    std::printf("%s seed=%u input-seed=%u kernel=%d %s: %s\n",
                hung ? "HANG" : "CRASH", difftest_meta::kGeneratorSeed, o_.seed,
                k.index, k.name, r.why.c_str());
    std::fflush(stdout);
    if (culprit + 1 < w.to)
      pending_.push_back({culprit + 1, w.to});
  }

  int summary() {
    int passed = 0, failed = 0, hung = 0, notRun = 0;
    std::vector<int> bad;
    for (size_t pos = 0; pos < results_.size(); ++pos) {
      const State s = results_[pos].state;
      passed += s == State::Passed;
      failed += s == State::Failed;
      hung += s == State::Hung;
      notRun += s == State::Pending || s == State::Running;
      if (s == State::Failed || s == State::Hung)
        bad.push_back(difftest_meta::kKernels[selection_[pos]].index);
    }
    if (notRun)
      std::printf("%d kernel(s) not run: --time-limit %.0f s reached\n", notRun,
                  o_.timeLimit);
    for (const auto &entry : failedVariants_)
      for (const std::string &v : entry.second)
        ++failuresByVariant_[v];
    for (const auto &entry : failuresByVariant_)
      std::printf("variant %s: %d kernel(s) with a mismatch\n",
                  entry.first.c_str(), entry.second);
    if (inertShapes_)
      std::printf("note: %d kernel launch(es) where the plain kernel added "
                  "nothing\n",
                  inertShapes_);
    if (!bad.empty()) {
      std::string list;
      for (size_t i = 0; i < bad.size() && i < 50; ++i)
        list += (i ? "," : "") + std::to_string(bad[i]);
      std::printf("reproduce: distwar_difftest --seed %u --only %s\n"
                  "one kernel's source: gen_difftest.py --seed %u --print "
                  "<index>\n",
                  o_.seed, list.c_str(), difftest_meta::kGeneratorSeed);
    }
    std::printf("%d passed, %d failed, %d hung\n", passed, failed, hung);
    return failed == 0 && hung == 0 && notRun == 0 && passed > 0 ? 0 : 1;
  }

  const Options &o_;
  const char *self_;
  std::vector<int> selection_;
  std::vector<KernelResult> results_;
  std::map<int, int> positionOf_;
  std::deque<std::pair<int, int>> pending_;
  std::map<std::string, int> failuresByVariant_;
  std::map<int, std::set<std::string>> failedVariants_;
  int inertShapes_ = 0;
};

} // namespace

int runDriver(const Options &o, const char *self) {
  return Driver(o, self).run();
}

int runInProcess(const Options &o) {
  printTileMode(o);
  const int total = static_cast<int>(selectKernels(o).size());
  const int failed = runWorker(o, 0, total);
  std::printf("%d passed, %d failed, 0 hung\n", total - failed, failed);
  return failed == 0 && total > 0 ? 0 : 1;
}

} // namespace difftest
