//===- distwar/online_tuning.h - Tuning a threshold on the real launches --===//
//
// The search behind zero-code tuning (distwar/launch.h), free of CUDA. It
// never re-runs a launch and never saves buffers: every launch of the program
// runs once, as it would anyway, and the tuner only picks the threshold it
// runs with. A threshold changes how the same sums are issued (reduced in the
// warp, or as plain atomics), never what is added, so a launch computes the
// same gradients at every threshold up to float summation order.
//
// Successive launches differ (another camera, a scene that grows), so one
// launch per candidate says little. The search runs in rounds: each round
// runs every remaining candidate once, in a fresh random order, so the
// workload varies independently of the candidate; a round starts when the
// previous round's times are all in. A candidate leaves when it is clearly
// slower: after the first round, slower than `firstRoundCut` times the
// fastest, after the second `secondRoundCut` times (plain atomics and far-off
// thresholds go after one or two launches each); from `minRounds` on, when
// its mean exceeds the best mean by `significance` standard errors. The
// search ends with one candidate left or after `maxRounds`; the lowest mean
// wins (ties: the lower threshold). The candidates that survive are those
// near the best, so the rounds that tell them apart cost almost nothing: on
// a 3DGS-like landscape a first search costs about ten launches' worth of
// time, once per program.
//
// Then the tuner settles: every launch runs at the winner, one launch in
// `sampleEvery` is timed (for the report). Every `recheckInterval` launches
// a re-check searches around the winner (+-2, +-4; every first-search
// candidate with `recheckAll`), keeping the winner to the end, and proposes a threshold that is faster by `minGain` and
// significantly so; the tuner moves when the next re-check, run at once,
// proposes it again. Each re-check that keeps the threshold doubles the
// interval (up to `maxIntervalGrowth` times), a move resets it.
//
// A launch that reads a block-capable site has kBlockStrategy (34) among its
// candidates. It is a candidate of its own, not a neighbour of 33: every
// re-check times it along with the warp thresholds around the best one (the
// winner, or with 34 in force the fastest warp threshold of the last search),
// so that the tuner can move between the two strategies both ways.
//
// A launch that reads a site written with both forms (serial and butterfly,
// distwar/reduce.cuh) searches form x threshold in one search: every warp
// candidate below 33 also in the serial form (kSerialForm | t). A re-check
// steps around the best warp threshold in its own form and times the same
// thresholds in the other form, so that the form can change as the data
// does.
//
// Times arrive later than the launches (CUDA events read back without a
// sync): next() hands out a ticket for a launch to time, record() takes its
// time whenever it is known. Not thread-safe: the caller serialises.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_ONLINE_TUNING_H
#define DISTWAR_ONLINE_TUNING_H

#include "distwar/threshold_values.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

namespace distwar {

struct OnlineTunerOptions {
  /// Thresholds of the first search (0 behaves as 1; 33 never reduces; 34,
  /// the block strategy, is added for launches of block-capable sites).
  std::vector<int> candidates{1, 4, 8, 12, 16, 20, 24, 28, 32, 33};
  /// Launches at the table's threshold before the search (first launches
  /// load modules and warm caches).
  int warmupCalls = 2;
  int minRounds = 4;
  int maxRounds = 12;
  /// Rounds of a re-check.
  int recheckRounds = 8;
  /// First search: after one round, a candidate slower than this times the
  /// fastest leaves; after two rounds, by this other factor (on means).
  double firstRoundCut = 1.5;
  double secondRoundCut = 1.25;
  double significance = 2.5;
  double minGain = 0.01;
  long long recheckInterval = 2000;
  int maxIntervalGrowth = 8;
  int sampleEvery = 32;
  /// Re-checks time every candidate of the first search rather than the
  /// winner's neighbourhood: for candidates that are not thresholds (the
  /// kernel variants of distwar/variant_choice.h), where nearness means
  /// nothing.
  bool recheckAll = false;

  /// Every threshold behaviour (1..33, and 34 with `block`):
  /// DISTWAR_AUTOTUNE_SEARCH=exhaustive.
  static std::vector<int> allThresholds(bool block = false) {
    std::vector<int> all;
    for (int t = 1; t <= kNeverReduce; ++t)
      all.push_back(t);
    if (block)
      all.push_back(kBlockStrategy);
    return all;
  }
};

class OnlineTuner {
public:
  enum class Phase { kWarmup, kSearching, kSettled };

  /// What to do for one launch.
  struct Plan {
    /// The threshold to launch with; -1: leave the table as it is.
    int threshold = -1;
    /// >= 0: time this launch and record() its time with this ticket.
    long long ticket = -1;
  };

  struct CandidateStats {
    int threshold = 0;
    int samples = 0;
    double meanMs = 0;
    bool remaining = false;
  };

  explicit OnlineTuner(OnlineTunerOptions options = OnlineTunerOptions(),
                       uint64_t seed = 0x9e3779b97f4a7c15ULL)
      : opts(std::move(options)), rng(seed ? seed : 1) {
    interval = opts.recheckInterval;
    blockCandidate = std::find(opts.candidates.begin(), opts.candidates.end(),
                               kBlockStrategy) != opts.candidates.end();
    formCandidate = std::any_of(opts.candidates.begin(), opts.candidates.end(),
                                [](int t) { return asksSerialForm(t); });
    if (opts.warmupCalls <= 0)
      beginSearch(opts.candidates);
  }

  /// The plan of the next launch. `canTime`: a timed launch is possible now
  /// (events free); without it the search does not advance.
  Plan next(bool canTime) {
    ++calls;
    if (current == Phase::kWarmup) {
      if (calls <= opts.warmupCalls)
        return Plan{};
      beginSearch(opts.candidates);
    }
    if (current == Phase::kSettled) {
      ++sinceSettled;
      if (sinceSettled > interval)
        beginSearch(recheckCandidates());
    }
    if (current == Phase::kSettled) {
      Plan plan{best, -1};
      if (canTime && opts.sampleEvery > 0 &&
          sinceSettled % opts.sampleEvery == 0)
        plan.ticket = issue(-1);
      return plan;
    }
    // Searching.
    const int c = canTime ? nextCandidate() : -1;
    if (c < 0)
      return Plan{leading(), -1};
    ++cands[c].issued;
    return Plan{cands[c].threshold, issue(c)};
  }

  /// The time of the launch that got `ticket`. Unknown or stale tickets (of
  /// a search that has ended) are ignored.
  void record(long long ticket, double ms) {
    auto it = pending.find(ticket);
    if (it == pending.end())
      return;
    const Pending p = it->second;
    pending.erase(it);
    ++timedCalls;
    timedMs += ms;
    if (p.search != searchId || current != Phase::kSearching) {
      if (p.candidate < 0)
        ++settledSamples, settledMs += ms;
      return;
    }
    cands[p.candidate].ms.push_back(ms);
    evaluate();
  }

  /// A ticket whose time will never come (an event that failed): its
  /// candidate is issued again.
  void forget(long long ticket) {
    auto it = pending.find(ticket);
    if (it == pending.end())
      return;
    if (it->second.search == searchId && it->second.candidate >= 0)
      --cands[it->second.candidate].issued;
    pending.erase(it);
  }

  /// Whether next() will, whatever its `canTime`, plan the threshold in
  /// force untimed, and start no search: settled, neither a sample's turn
  /// nor a re-check's.
  bool nextIsQuiet() const {
    if (current != Phase::kSettled || sinceSettled + 1 > interval)
      return false;
    return opts.sampleEvery <= 0 || (sinceSettled + 1) % opts.sampleEvery != 0;
  }

  Phase phase() const { return current; }
  /// The threshold in force: the last winner (also while a re-check runs),
  /// else the leading candidate of the first search (-1 before any time).
  int threshold() const { return best >= 0 ? best : leading(); }
  bool settled() const { return current == Phase::kSettled; }
  long long callCount() const { return calls; }
  long long timedCount() const { return timedCalls; }
  double timedTotalMs() const { return timedMs; }
  /// Launches timed while settled, and their mean (0 before any).
  long long settledSampleCount() const { return settledSamples; }
  double settledMeanMs() const {
    return settledSamples ? settledMs / settledSamples : 0;
  }
  /// The warp threshold (1..33, in either form) the re-checks step around:
  /// the winner, or with kBlockStrategy in force the fastest warp threshold
  /// of the last search; -1 before any.
  int warpThreshold() const { return warpBest; }
  int searches() const { return searchCount; }
  int moves() const { return moveCount; }
  long long currentInterval() const { return interval; }
  /// The current or last search, per candidate.
  std::vector<CandidateStats> lastSearch() const {
    std::vector<CandidateStats> out;
    for (const Candidate &c : cands)
      out.push_back(
          {c.threshold, static_cast<int>(c.ms.size()), mean(c), c.remaining});
    return out;
  }

private:
  struct Candidate {
    int threshold = 0;
    std::vector<double> ms;
    int issued = 0;
    bool remaining = true;
  };
  struct Pending {
    int search;
    int candidate; // -1: a settled sample
  };

  long long issue(int candidate) {
    pending[nextTicket] = Pending{searchId, candidate};
    return nextTicket++;
  }

  /// The winner's neighbourhood among the warp thresholds of its form
  /// (around the best warp threshold while kBlockStrategy wins), the same
  /// thresholds in the other form where the launch has two, and
  /// kBlockStrategy where it is a candidate.
  std::vector<int> recheckCandidates() const {
    if (opts.recheckAll)
      return opts.candidates;
    std::vector<int> around;
    if (isWarpThreshold(warpBest))
      for (int d : {-4, -2, 0, 2, 4})
        if (isWarpThreshold(warpBest + d) &&
            asksSerialForm(warpBest + d) == asksSerialForm(warpBest))
          around.push_back(warpBest + d);
    if (formCandidate) {
      const size_t n = around.size();
      for (size_t i = 0; i < n; ++i)
        around.push_back(otherForm(around[i]));
    }
    if (blockCandidate || best == kBlockStrategy)
      around.push_back(kBlockStrategy);
    return around;
  }

  /// A candidate as the search takes it: kBlockStrategy, else clamped to
  /// the warp thresholds 1..33 (the serial form 1..32, 33 having none).
  static int candidateThreshold(int t) {
    if (t == kBlockStrategy)
      return t;
    return inFormOf(std::max(1, std::min(kNeverReduce, thresholdOf(t))), t);
  }

  void beginSearch(const std::vector<int> &thresholds) {
    current = Phase::kSearching;
    ++searchId;
    ++searchCount;
    incumbent = best;
    cands.clear();
    for (int t : thresholds) {
      Candidate c;
      c.threshold = candidateThreshold(t);
      bool duplicate = false;
      for (const Candidate &o : cands)
        duplicate = duplicate || o.threshold == c.threshold;
      if (!duplicate)
        cands.push_back(c);
    }
    rounds = incumbent < 0 ? opts.maxRounds : opts.recheckRounds;
    roundsStarted = 0;
    seen = 0;
    order.clear();
    orderPos = 0;
    if (cands.size() == 1)
      settle(0);
  }

  uint64_t random() {
    // xorshift64*: reproducible orders for a given seed.
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dULL;
  }

  /// The candidate of the next timed launch, or -1 while the times of the
  /// round under way are still out (a round starts when the previous one's
  /// are all in, so that a slow candidate is cut before it runs again) or
  /// when the search has issued all its rounds.
  int nextCandidate() {
    while (orderPos < order.size()) {
      const int c = order[orderPos++];
      if (cands[c].remaining && cands[c].issued < roundsStarted)
        return c;
    }
    // A launch whose time was lost runs again.
    for (size_t i = 0; i < cands.size(); ++i)
      if (cands[i].remaining && cands[i].issued < roundsStarted)
        return static_cast<int>(i);
    if (roundsStarted >= rounds || seen < roundsStarted)
      return -1;
    ++roundsStarted;
    order.clear();
    orderPos = 0;
    for (size_t i = 0; i < cands.size(); ++i)
      if (cands[i].remaining)
        order.push_back(static_cast<int>(i));
    for (size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[random() % i]);
    return nextCandidate();
  }

  /// A candidate's times, each capped at three times their median (a
  /// preempted or interrupted launch must not decide alone).
  static std::vector<double> capped(const Candidate &c) {
    std::vector<double> sorted = c.ms;
    std::sort(sorted.begin(), sorted.end());
    const double cap = sorted.empty() ? 0 : 3 * sorted[sorted.size() / 2];
    std::vector<double> out;
    for (double v : c.ms)
      out.push_back(std::min(v, cap));
    return out;
  }
  static double mean(const Candidate &c) {
    if (c.ms.empty())
      return 0;
    double sum = 0;
    for (double v : capped(c))
      sum += v;
    return sum / c.ms.size();
  }
  static double variance(const Candidate &c, double m) {
    if (c.ms.size() < 2)
      return 0;
    double sum = 0;
    for (double v : capped(c))
      sum += (v - m) * (v - m);
    return sum / (c.ms.size() - 1);
  }

  /// The remaining candidate with the lowest mean (ties: lower threshold).
  int fastest() const {
    int best = -1;
    for (size_t i = 0; i < cands.size(); ++i) {
      if (!cands[i].remaining || cands[i].ms.empty())
        continue;
      if (best < 0 || mean(cands[i]) < mean(cands[best]) ||
          (mean(cands[i]) == mean(cands[best]) &&
           cands[i].threshold < cands[best].threshold))
        best = static_cast<int>(i);
    }
    return best;
  }

  /// The warp candidate (1..33, either form) with the lowest mean among
  /// those still in the search, else among all that ran; -1 when none ran.
  int fastestWarp() const {
    int pick = -1;
    for (int pass = 0; pass < 2 && pick < 0; ++pass) {
      for (size_t i = 0; i < cands.size(); ++i) {
        const Candidate &c = cands[i];
        if (!isWarpThreshold(c.threshold) || c.ms.empty() ||
            (pass == 0 && !c.remaining))
          continue;
        if (pick < 0 || mean(c) < mean(cands[pick]))
          pick = static_cast<int>(i);
      }
    }
    return pick;
  }

  int leading() const {
    if (current != Phase::kSearching)
      return best;
    const int f = fastest();
    return f >= 0 ? cands[f].threshold : best;
  }

  bool clearlySlower(const Candidate &a, const Candidate &b) const {
    const double ma = mean(a), mb = mean(b);
    const double se = std::sqrt(variance(a, ma) / a.ms.size() +
                                variance(b, mb) / b.ms.size());
    return ma - mb > opts.significance * se && ma > mb;
  }

  /// Called whenever a time arrives: cuts candidates once every remaining
  /// one has one more time, and ends the search when it is decided.
  void evaluate() {
    int complete = -1;
    for (const Candidate &c : cands)
      if (c.remaining)
        complete = complete < 0
                       ? static_cast<int>(c.ms.size())
                       : std::min(complete, static_cast<int>(c.ms.size()));
    if (complete <= seen)
      return;
    seen = complete;
    const int lead = fastest();
    if (lead < 0)
      return;
    const double leadMs = mean(cands[lead]);
    const double cut = complete == 1   ? opts.firstRoundCut
                       : complete == 2 ? opts.secondRoundCut
                                       : 0;
    for (size_t i = 0; i < cands.size(); ++i) {
      Candidate &c = cands[i];
      // A re-check keeps the threshold in force to the end: it is the one
      // to beat (settle()).
      if (!c.remaining || static_cast<int>(i) == lead ||
          c.threshold == incumbent)
        continue;
      // A re-check of every candidate (recheckAll) times the far ones
      // again too: cut them as the first search does.
      if ((incumbent < 0 || opts.recheckAll) && cut > 0 &&
          mean(c) > cut * leadMs)
        c.remaining = false;
      else if (complete >= opts.minRounds && clearlySlower(c, cands[lead]))
        c.remaining = false;
    }
    int remaining = 0;
    for (const Candidate &c : cands)
      remaining += c.remaining ? 1 : 0;
    if (remaining == 1 || complete >= rounds)
      settle(fastest());
  }

  void settle(int winner) {
    int chosen = cands[winner].threshold;
    bool confirmed = true;
    if (incumbent >= 0 && chosen != incumbent) {
      // A re-check: move only for a real gain over the threshold in force,
      // found by two re-checks in a row (one alone, among near-equal
      // thresholds, takes noise for a gain too often).
      const Candidate *inc = nullptr;
      for (const Candidate &c : cands)
        if (c.threshold == incumbent)
          inc = &c;
      const bool better =
          !inc || (mean(cands[winner]) < (1 - opts.minGain) * mean(*inc) &&
                   clearlySlower(*inc, cands[winner]));
      confirmed = better && candidateMove == chosen;
      candidateMove = better && !confirmed ? chosen : -1;
      if (!confirmed)
        chosen = incumbent;
    } else {
      candidateMove = -1;
    }
    if (incumbent >= 0 && chosen == incumbent) {
      if (candidateMove < 0)
        interval = std::min(interval * 2,
                            opts.recheckInterval * opts.maxIntervalGrowth);
    } else {
      if (incumbent >= 0)
        ++moveCount;
      interval = opts.recheckInterval;
    }
    best = chosen;
    const int warp = fastestWarp();
    if (isWarpThreshold(best))
      warpBest = best;
    else if (warp >= 0)
      warpBest = cands[warp].threshold;
    current = Phase::kSettled;
    // A move to confirm is re-checked at once.
    sinceSettled = candidateMove >= 0 ? interval : 0;
    // Times of this search still in flight are ignored when they come.
    ++searchId;
  }

  OnlineTunerOptions opts;
  uint64_t rng;
  Phase current = Phase::kWarmup;
  std::vector<Candidate> cands;
  std::vector<int> order;
  size_t orderPos = 0;
  std::map<long long, Pending> pending;
  long long nextTicket = 0;
  int searchId = 0;
  int searchCount = 0;
  int moveCount = 0;
  int rounds = 0;
  int roundsStarted = 0;
  /// Times every remaining candidate has (complete rounds).
  int seen = 0;
  int best = -1;
  /// See warpThreshold().
  int warpBest = -1;
  /// kBlockStrategy is among the first search's candidates.
  bool blockCandidate = false;
  /// A serial-form value is among them (the launch has a two-form site).
  bool formCandidate = false;
  int incumbent = -1;
  /// The winner of the last re-check, not confirmed yet (-1: none).
  int candidateMove = -1;
  long long calls = 0;
  long long sinceSettled = 0;
  long long interval = 0;
  long long timedCalls = 0;
  double timedMs = 0;
  long long settledSamples = 0;
  double settledMs = 0;
};

} // namespace distwar

#endif // DISTWAR_ONLINE_TUNING_H
