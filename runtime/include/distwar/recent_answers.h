//===- distwar/recent_answers.h - The last few answers of a lookup --------===//
//
// The last few answers of a lookup: a program's launches cycle through a
// few kernels, devices and streams, so a launch's bookkeeping (a kernel's
// persistent grids, a host thread's tile pools) mostly finds its answer in
// a few entries next to what it touches anyway, without walking the shared
// map (and taking the lock) behind it. That bookkeeping runs between the
// program's own work, with the host's caches cold, where every cache line
// it touches counts (bench/RESULTS.md, "the host's time per launch").
//
// Free of CUDA.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_RECENT_ANSWERS_H
#define DISTWAR_RECENT_ANSWERS_H

#include <cassert>

namespace distwar {
namespace detail {

/// Up to \p Entries answers, the oldest replaced first. Keys compare with
/// ==; values are copied in.
template <typename Key, typename Value, int Entries = 4> class RecentAnswers {
  static_assert(Entries >= 1, "room for one answer at least");

public:
  /// The answer remembered for \p key, or null.
  const Value *find(const Key &key) const {
    for (const Entry &e : entries)
      if (e.used && e.key == key)
        return &e.value;
    return nullptr;
  }
  /// Remembers \p value for \p key, which must not be remembered already.
  void remember(const Key &key, const Value &value) {
    assert(!find(key) && "an answer is remembered once");
    entries[next] = Entry{key, value, true};
    next = (next + 1) % Entries;
  }

private:
  struct Entry {
    Key key{};
    Value value{};
    bool used = false;
  };
  Entry entries[Entries];
  int next = 0;
};

} // namespace detail
} // namespace distwar

#endif // DISTWAR_RECENT_ANSWERS_H
