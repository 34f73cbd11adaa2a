// apply_stencil1d's kernel, its argument checks and its grid. The kernel reads its tile shape from
// the policy for the architecture it was compiled for; the host picks the same policy by the
// architecture the library's code runs as on the device.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil/tile.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gpuprims::detail {

template <class Tuning, class T, int Rad>
__host__ __device__ constexpr stencil_policy stencil_policy_for(int arch) {
  stencil_policy p = Tuning::select(arch, sizeof(T), Rad);
  p.min_blocks = arch::resident_blocks(p.min_blocks, p.block_threads, arch);
  return p;
}

template <class Tuning, class T, int Rad>
inline constexpr stencil_policy stencil_policy_here =
    stencil_policy_for<Tuning, T, Rad>(GPUPRIMS_TARGET_ARCH);

template <class Tuning, int Rad, class T, class Weights>
__global__ void __launch_bounds__(stencil_policy_here<Tuning, T, Rad>.block_threads,
                                  stencil_policy_here<Tuning, T, Rad>.min_blocks)
    stencil_kernel(const T* in, T* out, std::size_t rows, std::size_t n, std::size_t in_pitch,
                   std::size_t out_pitch, std::size_t tiles, Weights w, boundary b) {
  constexpr stencil_policy p = stencil_policy_here<Tuning, T, Rad>;
  constexpr int block = p.block_threads, items = p.items_per_thread;
  static_assert(block % 32 == 0 && block <= 1024 && items >= 1,
                "stencil_policy: a whole number of warps, >= 1 item");
  using layout = stencil_layout<Rad, T, block, items>;
  __shared__ alignas(16) T data[layout::size];
  const auto count = static_cast<std::int64_t>(n);
  wait_for_prior_grids();
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      stencil_tile<Rad, block, items>(data, in + row * in_pitch, out + row * out_pitch, count,
                                      static_cast<std::int64_t>(t * layout::tile), w, b);
      __syncthreads();  // the next tile overwrites the storage
    }
  }
}

template <int Rad, class T, class Weights>
constexpr void check_stencil_types() {
  static_assert(Rad >= 1 && Rad <= 16, "stencil1d supports radii 1 to 16");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "stencil1d supports float and double");
  static_assert(std::is_trivially_copyable_v<Weights>, "the weights travel to the kernel by value");
  static_assert(weights_radius<Weights> == Rad, "the weights' radius differs from the stencil's");
}

template <class T>
cudaError_t validate_stencil(const T* in, const T* out, std::size_t rows, std::size_t n,
                             std::size_t in_pitch, std::size_t out_pitch, const boundary& b) {
  std::size_t in_span = 0, out_span = 0;
  const bool known_mode = b.mode == boundary_mode::constant || b.mode == boundary_mode::clamp ||
                          b.mode == boundary_mode::periodic || b.mode == boundary_mode::mirror;
  const bool ok = in != nullptr && out != nullptr && known_mode && in_pitch >= n &&
                  out_pitch >= n &&
                  n <= static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max()) &&
                  checked_span(1, 0, rows, in_pitch, n, in_span) &&
                  checked_span(1, 0, rows, out_pitch, n, out_span) &&
                  disjoint_spans(in, in_span, out, out_span);
  return ok ? cudaSuccess : cudaErrorInvalidValue;
}

// Tiles along x (a grid-stride loop past 2^31 - 1 of them), rows along y (past 65535 likewise).
template <class Tuning, int Rad, class T, class Weights>
cudaError_t launch_stencil(const T* in, T* out, std::size_t rows, std::size_t n,
                           std::size_t in_pitch, std::size_t out_pitch, const Weights& weights,
                           const boundary& b, cudaStream_t stream) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const stencil_policy p = stencil_policy_for<Tuning, T, Rad>(facts.target_arch);
  const std::size_t tile =
      static_cast<std::size_t>(p.block_threads) * static_cast<std::size_t>(p.items_per_thread);
  const std::size_t tiles = ceil_div(n, tile);
  return launch<stencil_kernel<Tuning, Rad, T, Weights>>(
      dim3(grid_x(tiles), grid_yz(rows)), dim3(p.block_threads), stream,
      dependent_launch(p.dependent_launch, facts), in, out, rows, n, in_pitch, out_pitch, tiles,
      weights, b);
}

}  // namespace gpuprims::detail
