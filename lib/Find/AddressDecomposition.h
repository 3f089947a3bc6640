//===- AddressDecomposition.h - Buffer, key and field -----------*- C++ -*-===//
//
// `&buf[key * K + c].x`, `buf + key + ch`, `&p.grad[key]`, `acc[i][j]`,
// `atomicAdd(g, v)`: which lanes may reduce together (the key) and which
// slot of a batch each site fills (the field), read off the atomic's address.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_FIND_ADDRESSDECOMPOSITION_H
#define DISTWAR_FIND_ADDRESSDECOMPOSITION_H

#include "Find/AtomicSites.h"
#include "Find/ChannelLoopMatch.h"
#include "Find/UniformBuffers.h"

namespace distwar {

/// Fills \p Site's Buffer, BufferField, Key, KeyText, FieldText, Channel,
/// KeyIsBuffer and KeyIsAddress from its address, or sets its Why. Site.Call,
/// Ancestors and TypeText are already set; when the element type is only the
/// buffer's declared template parameter, TypeText is set from it and the
/// result is true.
bool decomposeAddress(AtomicSite &Site, const clang::FunctionDecl *Function,
                      UniformBuffers &Buffers, clang::ASTContext &Ctx);

} // namespace distwar

#endif
