//===- ChannelVersions.h - Loops versioned by trip count --------*- C++ -*-===//
//
// A loop over a texel's channels whose count is known only at run time
// (Analysis/RunTimeTrip.h) holds serial groups whose fields are those
// channels. The loop is versioned (GENERATED_CODE.md, section 11):
//
//   { auto distwar_channels = [&](auto distwar_count) {
//       constexpr int distwar_trip = decltype(distwar_count)::value;
//       <batches>  for (int i = 0; i < distwar_trip; i++) { ... }  <reductions>
//     };
//     const bool distwar_apart = [&](const int i) {
//       return ::distwar::channelRangesApart(n, ::distwar::channelHull(n,
//           <each add's address>), &(<each read>)...);
//     }(0);
//     if (!::distwar::runChannelVersion(distwar_channels, n, distwar_apart))
//       <the loop as written> }
//
// The versions defer the adds past the loop's own reads; a lane whose reads
// may meet its adds (the test above, in bytes, on the addresses at the
// channel variable's first value) runs the loop as written, and so does
// every lane for a count outside 1..kVersionedChannels.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_CHANNELVERSIONS_H
#define DISTWAR_EMIT_CHANNELVERSIONS_H

#include "Emit/EditList.h"
#include "Find/AtomicSites.h"
#include "Group/EditPoints.h"
#include <vector>

namespace distwar {

/// A versioned loop, with the addresses of its groups' atomics and the
/// reads the run-time test keeps apart from them.
struct VersionedLoop {
  const ChannelLoop *Loop = nullptr;
  /// The atomics' addresses as the run-time test spells them.
  std::vector<std::string> Adds;
  std::vector<const clang::Expr *> Reads;
};

/// Site \p S's address as written (expanded from its macro where it is
/// written in one), for the run-time test.
std::string versionedAddressText(const AtomicSite &S, clang::ASTContext &Ctx);

/// The key a versioned group of \p S is reduced by, after the loop: its key,
/// or for a run's base (AtomicSite::KeyIsRunBase) its address at the loop
/// variable's first value, `[&](const int c) { return grad_col + c; }(0)`.
std::string versionedKeyText(const AtomicSite &S, clang::ASTContext &Ctx);

/// The edits around \p V's loop; its groups' batches and reductions, at
/// its start and end, go inside the versions.
void planChannelVersion(EditList &Edits, const EditPoints &Where,
                        clang::ASTContext &Ctx, const VersionedLoop &V);

} // namespace distwar

#endif
