// Python binding of the splat backward kernel: `backward` runs the copy that
// distwar-rewrite batched, `backward_plain` the original with plain atomics.
// Both add into the gradient tensors they are given, as 3DGS's backward adds
// into zero-initialised gradients.
#include "splat_backward.h"

#include <distwar/sites.h>

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

namespace {

void checkTensor(const torch::Tensor &t, const char *name,
                 torch::ScalarType type, std::vector<int64_t> shape) {
  TORCH_CHECK(t.is_cuda(), name, " must be a CUDA tensor");
  TORCH_CHECK(t.scalar_type() == type, name, " must be ", type, ", not ",
              t.scalar_type());
  TORCH_CHECK(t.is_contiguous(), name, " must be contiguous");
  TORCH_CHECK(t.sizes() == at::IntArrayRef(shape), name, " must have shape ",
              at::IntArrayRef(shape), ", not ", t.sizes());
}

using Launcher = void (*)(const SplatBackwardArgs &, cudaStream_t);

void runBackward(Launcher launch, const torch::Tensor &tile_ranges,
                 const torch::Tensor &tile_list, const torch::Tensor &n_contrib,
                 const torch::Tensor &means, const torch::Tensor &conics,
                 const torch::Tensor &opacities, const torch::Tensor &colors,
                 const torch::Tensor &dL_dpixels, torch::Tensor dL_dmeans,
                 torch::Tensor dL_dconics, torch::Tensor dL_dopacities,
                 torch::Tensor dL_dcolors) {
  const int64_t height = n_contrib.size(0), width = n_contrib.size(1);
  const int64_t points = means.size(0);
  const int64_t tiles = ((width + SPLAT_TILE - 1) / SPLAT_TILE) *
                        ((height + SPLAT_TILE - 1) / SPLAT_TILE);
  const auto i32 = torch::kInt32, f32 = torch::kFloat32;
  checkTensor(tile_ranges, "tile_ranges", i32, {tiles, 2});
  checkTensor(tile_list, "tile_list", i32, {tile_list.size(0)});
  checkTensor(n_contrib, "n_contrib", i32, {height, width});
  checkTensor(means, "means", f32, {points, 2});
  checkTensor(conics, "conics", f32, {points, 3});
  checkTensor(opacities, "opacities", f32, {points});
  checkTensor(colors, "colors", f32, {points, SPLAT_CHANNELS});
  checkTensor(dL_dpixels, "dL_dpixels", f32, {SPLAT_CHANNELS, height, width});
  checkTensor(dL_dmeans, "dL_dmeans", f32, {points, 2});
  checkTensor(dL_dconics, "dL_dconics", f32, {points, 3});
  checkTensor(dL_dopacities, "dL_dopacities", f32, {points});
  checkTensor(dL_dcolors, "dL_dcolors", f32, {points, SPLAT_CHANNELS});

  const c10::cuda::CUDAGuard guard(means.device());
  SplatBackwardArgs args;
  args.width = static_cast<int>(width);
  args.height = static_cast<int>(height);
  args.tile_ranges =
      reinterpret_cast<const int2 *>(tile_ranges.data_ptr<int>());
  args.tile_list = tile_list.data_ptr<int>();
  args.n_contrib = n_contrib.data_ptr<int>();
  args.means = reinterpret_cast<const float2 *>(means.data_ptr<float>());
  args.conics = reinterpret_cast<const float3 *>(conics.data_ptr<float>());
  args.opacities = opacities.data_ptr<float>();
  args.colors = colors.data_ptr<float>();
  args.dL_dpixels = dL_dpixels.data_ptr<float>();
  args.dL_dmeans = dL_dmeans.data_ptr<float>();
  args.dL_dconics = dL_dconics.data_ptr<float>();
  args.dL_dopacities = dL_dopacities.data_ptr<float>();
  args.dL_dcolors = dL_dcolors.data_ptr<float>();
  launch(args, at::cuda::getCurrentCUDAStream());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

} // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def(
      "backward",
      [](const torch::Tensor &tile_ranges, const torch::Tensor &tile_list,
         const torch::Tensor &n_contrib, const torch::Tensor &means,
         const torch::Tensor &conics, const torch::Tensor &opacities,
         const torch::Tensor &colors, const torch::Tensor &dL_dpixels,
         torch::Tensor dL_dmeans, torch::Tensor dL_dconics,
         torch::Tensor dL_dopacities, torch::Tensor dL_dcolors) {
        runBackward(launch_splat_backward, tile_ranges, tile_list, n_contrib,
                    means, conics, opacities, colors, dL_dpixels, dL_dmeans,
                    dL_dconics, dL_dopacities, dL_dcolors);
      },
      "Splat backward, distwar-rewritten kernel; adds into the dL_d* tensors");
  m.def(
      "backward_plain",
      [](const torch::Tensor &tile_ranges, const torch::Tensor &tile_list,
         const torch::Tensor &n_contrib, const torch::Tensor &means,
         const torch::Tensor &conics, const torch::Tensor &opacities,
         const torch::Tensor &colors, const torch::Tensor &dL_dpixels,
         torch::Tensor dL_dmeans, torch::Tensor dL_dconics,
         torch::Tensor dL_dopacities, torch::Tensor dL_dcolors) {
        runBackward(plain::launch_splat_backward, tile_ranges, tile_list,
                    n_contrib, means, conics, opacities, colors, dL_dpixels,
                    dL_dmeans, dL_dconics, dL_dopacities, dL_dcolors);
      },
      "Splat backward, original plain-atomic kernel; adds into the dL_d* "
      "tensors");
  m.def("site_names", &distwar::siteNames,
        "distwar call sites registered by the rewritten copy");
}
