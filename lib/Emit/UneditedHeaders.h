//===- UneditedHeaders.h - allowed headers copied as they are ---*- C++ -*-===//
//
// An edited header's copy goes below --header-output-dir, which the build
// puts first on the include path, so an `#include "params.cuh"` in the copy
// looks for its neighbour there first: every other header the filter allows
// that the parse read is copied as it is, next to the edited ones. Both
// passes that edit headers (the batching, --balance=tiles) add them.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_UNEDITEDHEADERS_H
#define DISTWAR_EMIT_UNEDITEDHEADERS_H

#include "Parse/HeaderCopies.h"
#include "Parse/ParsedFile.h"
#include "distwar-rewrite/Rewriter.h"
#include <vector>

namespace distwar {

/// Appends to \p Out every user header of \p P that \p Copies places and
/// \p Out does not hold yet (by path), with its text as the parse read it.
void addUneditedHeaders(const ParsedFile &P, HeaderCopies &Copies,
                        std::vector<HeaderOutput> &Out);

} // namespace distwar

#endif
