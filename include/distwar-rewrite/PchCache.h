//===- PchCache.h - precompiled CUDA headers, kept across runs --*- C++ -*-===//
//
// Every CUDA parse starts with the same headers: Clang's CUDA runtime
// wrapper (the SDK's runtime and math headers) and the front end's nvcc
// declarations (CudaArgs.h), about half a second of parsing per file; most
// kernel files add CUDA headers of their own (cooperative groups, CUB). They
// are precompiled once per front-end command line (toolkit, arch, flags,
// working directory, Clang version) and set of CUDA headers into a per-user
// cache directory, as clangd keeps preambles. An entry is written under a
// unique name and renamed into place, so parallel runs never see a partial one;
// it lists the files it was built from (size and time), and any change rebuilds
// it. A file whose leading includes name more than CUDA headers (torch's,
// the project's own) gets an entry of its own on top, its preamble
// precompiled (lib/Parse/Preamble.h). The cache itself is
// lib/Parse/PrecompiledHeaders.h and lib/Parse/Preamble.h; this is where
// the tool keeps it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_REWRITE_PCHCACHE_H
#define DISTWAR_REWRITE_PCHCACHE_H

#include <string>

namespace distwar {

/// $DISTWAR_CACHE_DIR, else $XDG_CACHE_HOME/distwar, else
/// ~/.cache/distwar; "" when none can be named.
std::string defaultCacheDir();

} // namespace distwar

#endif
