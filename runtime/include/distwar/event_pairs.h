//===- distwar/event_pairs.h - Timing launches without a sync -------------===//
//
// The CUDA events with which launch tuning (distwar/launch.h) and the choice
// among kernel variants (distwar/variant_launch.h) time the program's own
// launches: a timed launch takes a free pair, records its start before the
// launch and its stop after it, and a later call reads back every pair whose
// stop has been reached (cudaEventQuery), so the host never waits for the
// GPU. One set per device.
//
// Every CUDA call's error goes to the caller's `check(cudaError_t) -> bool`,
// which decides what an error of ours does (both callers pass StopOnError).
// Not thread-safe: the caller serialises.
//
// Host code only; header-only.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_EVENT_PAIRS_H
#define DISTWAR_EVENT_PAIRS_H

#include <cuda_runtime_api.h>

#include <cassert>
#include <cstddef>
#include <vector>

namespace distwar {
namespace detail {

/// The check both callers pass: an error of ours is cleared (the program's
/// next check must not take it for its own) and stops the timing on that
/// device (`*broken`).
struct StopOnError {
  bool *broken;
  bool operator()(cudaError_t err) const {
    if (err == cudaSuccess)
      return true;
    cudaGetLastError();
    *broken = true;
    return false;
  }
};

class EventPairs {
public:
  /// Creates `count` pairs, all free; false when a creation failed.
  template <typename Check> bool create(int count, const Check &check) {
    assert(starts.empty() && "the pairs are created once");
    for (int i = 0; i < count; ++i) {
      cudaEvent_t start, stop;
      if (!check(cudaEventCreate(&start)) || !check(cudaEventCreate(&stop)))
        return false;
      starts.push_back(start);
      stops.push_back(stop);
      free.push_back(i);
    }
    return true;
  }

  size_t freeCount() const { return free.size(); }
  size_t inFlightCount() const { return inFlight.size(); }

  /// Before a timed launch: a free pair with its start recorded on
  /// `stream`, or -1 when none is free or the record failed.
  template <typename Check> int start(cudaStream_t stream, const Check &check) {
    if (free.empty())
      return -1;
    const int pair = free.back();
    if (!check(cudaEventRecord(starts[pair], stream)))
      return -1;
    free.pop_back();
    return pair;
  }

  /// After the launch: its stop, to be read back with `ticket`. False when
  /// the launch failed (its error pending: it is not timed) or the record
  /// did; the pair is free again and the caller forgets the ticket.
  template <typename Check>
  bool stop(int pair, long long ticket, cudaStream_t stream,
            const Check &check) {
    assert(pair >= 0 && pair < static_cast<int>(stops.size()));
    if (cudaPeekAtLastError() != cudaSuccess ||
        !check(cudaEventRecord(stops[pair], stream))) {
      free.push_back(pair);
      return false;
    }
    inFlight.push_back({pair, ticket});
    return true;
  }

  /// Reads back every finished pair: `record(ticket, ms)`, or
  /// `forget(ticket)` when its time cannot be read. Pairs still running
  /// stay in flight.
  template <typename Check, typename Record, typename Forget>
  void collect(const Check &check, const Record &record,
               const Forget &forget) {
    size_t kept = 0;
    for (size_t i = 0; i < inFlight.size(); ++i) {
      const InFlight f = inFlight[i];
      const cudaError_t q = cudaEventQuery(stops[f.pair]);
      if (q == cudaErrorNotReady) {
        cudaGetLastError();
        inFlight[kept++] = f;
        continue;
      }
      float ms = 0;
      if (!check(q) ||
          !check(cudaEventElapsedTime(&ms, starts[f.pair], stops[f.pair]))) {
        forget(f.ticket);
        continue;
      }
      free.push_back(f.pair);
      record(f.ticket, ms);
    }
    inFlight.resize(kept);
  }

private:
  struct InFlight {
    int pair;
    long long ticket;
  };
  // Never destroyed before the program ends: the events are left to the
  // CUDA runtime's teardown, which may already have run.
  std::vector<cudaEvent_t> starts, stops;
  std::vector<int> free;
  std::vector<InFlight> inFlight;
};

} // namespace detail
} // namespace distwar

#endif // DISTWAR_EVENT_PAIRS_H
