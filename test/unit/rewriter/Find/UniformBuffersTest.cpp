//===- UniformBuffersTest.cpp - buffers the same in every lane ------------===//

#include "Find/UniformBuffers.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const UniformBuffersCode = R"cu(
    struct Params { float *grad; struct { float *inner; } nested; int n; };
    __device__ float *written_global;
    __device__ float *read_global;
    __device__ float global_array[64];
    __constant__ float *constant_pointer;
    __device__ void retarget(float *to) { written_global = to; }
    __device__ float use(int i) { return read_global[i]; }
    __device__ void helper(float *param, float v) { param[0] = v; }
    __global__ void k(float *kept, float *moved, Params p, Params q, float v) {
      moved += 1;
      q.grad = kept;
      kept[0] = v;
      moved[0] = v;
      p.grad[0] = v;
    })cu";

/// The one field named \p Name of struct Params.
const clang::FieldDecl *paramsField(clang::ASTContext &Ctx,
                                    llvm::StringRef Name) {
  const clang::VarDecl *P = variable(Ctx, "p");
  const auto *RD = P ? P->getType()->getAsRecordDecl() : nullptr;
  if (RD)
    for (const clang::FieldDecl *F : RD->fields())
      if (F->getName() == Name)
        return F;
  ADD_FAILURE() << "no field " << Name.str();
  return nullptr;
}

TEST(UniformBuffers, KernelParametersTheKernelNeverChanges) {
  Parsed P = parse(UniformBuffersCode);
  clang::ASTContext &Ctx = P.context();
  UniformBuffers Buffers(Ctx);
  const clang::FunctionDecl *K = function(Ctx, "k");
  EXPECT_TRUE(Buffers.isUniform(variable(Ctx, "kept"), nullptr, false, K));
  EXPECT_FALSE(Buffers.isUniform(variable(Ctx, "moved"), nullptr, false, K));
}

TEST(UniformBuffers, SharedArraysOfTheKernelButNotSharedPointers) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g) {
      __shared__ float table[32];
      __shared__ float *chosen;
      float local[4];
      chosen = g;
      table[0] = local[0] = *chosen;
    })cu");
  clang::ASTContext &Ctx = P.context();
  UniformBuffers Buffers(Ctx);
  const clang::FunctionDecl *K = function(Ctx, "k");
  EXPECT_TRUE(Buffers.isUniform(variable(Ctx, "table"), nullptr, false, K));
  EXPECT_FALSE(Buffers.isUniform(variable(Ctx, "chosen"), nullptr, false, K));
  EXPECT_FALSE(Buffers.isUniform(variable(Ctx, "local"), nullptr, false, K));
}

TEST(UniformBuffers, PointerMembersOfByValueParameters) {
  Parsed P = parse(UniformBuffersCode);
  clang::ASTContext &Ctx = P.context();
  UniformBuffers Buffers(Ctx);
  const clang::FunctionDecl *K = function(Ctx, "k");
  const clang::FieldDecl *Grad = paramsField(Ctx, "grad");
  EXPECT_TRUE(Buffers.isUniform(variable(Ctx, "p"), Grad, false, K));
  // q's member is assigned in the kernel.
  EXPECT_FALSE(Buffers.isUniform(variable(Ctx, "q"), Grad, false, K));
}

TEST(UniformBuffers, ADeviceFunctionsParameterMayDifferPerCall) {
  Parsed P = parse(UniformBuffersCode);
  clang::ASTContext &Ctx = P.context();
  UniformBuffers Buffers(Ctx);
  EXPECT_FALSE(Buffers.isUniform(variable(Ctx, "param"), nullptr, false,
                                 function(Ctx, "helper")));
}

TEST(UniformBuffers, GlobalsThatNoDeviceFunctionWrites) {
  Parsed P = parse(UniformBuffersCode);
  clang::ASTContext &Ctx = P.context();
  UniformBuffers Buffers(Ctx);
  const clang::FunctionDecl *K = function(Ctx, "k");
  EXPECT_TRUE(
      Buffers.isUniform(variable(Ctx, "read_global"), nullptr, false, K));
  EXPECT_TRUE(
      Buffers.isUniform(variable(Ctx, "global_array"), nullptr, false, K));
  EXPECT_TRUE(
      Buffers.isUniform(variable(Ctx, "constant_pointer"), nullptr, false, K));
  EXPECT_FALSE(
      Buffers.isUniform(variable(Ctx, "written_global"), nullptr, false, K));
  // Asked again (the answer is remembered), the same.
  EXPECT_FALSE(
      Buffers.isUniform(variable(Ctx, "written_global"), nullptr, false, K));
}

} // namespace
