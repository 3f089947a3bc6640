//===- LocalPointers.h - an address kept in a local pointer -----*- C++ -*-===//
//
// `float *p = grad + i * 3; atomicAdd(p, a); atomicAdd(p + 1, b);` adds to
// the same elements as `atomicAdd(grad + i * 3, a)`: read through the local,
// the address decomposes as the sum written out would, and both spellings
// are decided alike.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_FIND_LOCALPOINTERS_H
#define DISTWAR_FIND_LOCALPOINTERS_H

#include "Find/AddressParts.h"
#include "Find/UniformBuffers.h"

namespace distwar {

/// When \p Parts.Base names a local pointer of \p Function initialised as
/// `buf + terms` or `&buf[index]`, with `buf` a variable the same in every
/// lane (\p Buffers), and neither that pointer nor any variable of its
/// initialiser is ever changed, nor another variable of one of their names
/// declared in the function: replaces the base by `buf` and puts the
/// initialiser's index terms before Parts.IndexTerms. Returns whether it
/// did.
bool forwardLocalPointer(AddressParts &Parts, const clang::FunctionDecl *Function,
                         UniformBuffers &Buffers);

} // namespace distwar

#endif
