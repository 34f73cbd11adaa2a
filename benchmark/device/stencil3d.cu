// The 3D stencil families: gpuprims::apply_stencil3d (7-point star and 27-point box, radius 1,
// periodic) on 512^3 floats against cudaMemcpyAsync of the grid (the limit of one step per pass)
// and a naive kernel (one thread a point, every neighbour read from global memory through the
// boundary rules). Bytes counted: the grid read and written once. --full adds other tiles and
// z chunks of the default.
#include <gpuprims/device/stencil3d.cuh>

#include "reduce_families.cuh"
#include "support.cuh"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims::bench {
namespace {

template <int BlockX, int BlockY, int ItemsY, int ZChunk, int MinBlocks = 4>
struct fixed_stencil3d_tuning {
  __host__ __device__ static constexpr stencil3d_policy select(int, std::size_t, int,
                                                               stencil_shape) {
    return {BlockX, BlockY, ItemsY, ZChunk, MinBlocks};
  }
};

// Weights summing to 0 keep the outputs bounded where the inputs are finite (random bits include
// NaN and infinities: the arithmetic's speed does not depend on them).
stencil3d_weights<float, 1> some_weights3d() {
  stencil3d_weights<float, 1> w{};
  for (int z = 0; z < 3; ++z) {
    for (int y = 0; y < 3; ++y) {
      for (int x = 0; x < 3; ++x) {
        w.w[z][y][x] = 0.01f * static_cast<float>(1 + x + 3 * y + 9 * z);
      }
    }
  }
  w.w[1][1][1] = -1.0f;
  return w;
}

template <stencil_shape Shape>
__global__ void naive_stencil3d_kernel(const float* in, float* out, std::size_t side,
                                       stencil3d_weights<float, 1> w) {
  const auto n = static_cast<std::int64_t>(side);
  const boundary3d b(boundary::periodic());
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < side * side * side;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const auto x = static_cast<std::int64_t>(i % side);
    const auto y = static_cast<std::int64_t>(i / side % side);
    const auto z = static_cast<std::int64_t>(i / side / side);
    out[i] = detail::stencil3d_point<1, Shape, float>(w, [&](int dz, int dy, int dx) {
      return detail::fetch3d(in, side, side * side, x + dx, y + dy, z + dz, n, n, n, b);
    });
  }
}

template <class Run>
void grid3d_bench(benchmark::State& state, Run run) {
  const auto side = static_cast<std::size_t>(state.range(0));
  const std::size_t n = side * side * side;
  random_buffer in(n * 4, 37);
  device_scratch out(n * 4);
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, 2 * n * 4, [&](cudaStream_t s) {
    skip_on_error(state, run(in.as<float>(), static_cast<float*>(out.p), side, s));
  });
}

template <stencil_shape Shape, class Tuning = stencil3d_tuning>
void stencil3d_bench(benchmark::State& state) {
  grid3d_bench(state, [](const float* in, float* out, std::size_t side, cudaStream_t s) {
    return apply_stencil3d<1, Shape, Tuning>(in, out, side, side, side, side, side * side, side,
                                             side * side, some_weights3d(), boundary::periodic(),
                                             s);
  });
}

template <stencil_shape Shape>
void naive3d_bench(benchmark::State& state) {
  grid3d_bench(state, [](const float* in, float* out, std::size_t side, cudaStream_t s) {
    naive_stencil3d_kernel<Shape><<<4096, 256, 0, s>>>(in, out, side, some_weights3d());
    return cudaGetLastError();
  });
}

void copy_grid3d_bench(benchmark::State& state) {
  const auto side = static_cast<std::size_t>(state.range(0));
  time_input_copy<float>(state, side * side * side);
}

}  // namespace

void register_stencil3d(const options& opt) {
  const arg_list sizes = each({512});
  for (const char* family : {"stencil3d_7pt", "stencil3d_27pt"}) {
    add(opt, family, "cudaMemcpyAsync", role::baseline, copy_grid3d_bench, sizes, {"side"});
  }
  add(opt, "stencil3d_7pt", "naive", role::baseline, naive3d_bench<stencil_shape::star>, sizes,
      {"side"});
  add(opt, "stencil3d_27pt", "naive", role::baseline, naive3d_bench<stencil_shape::box>, sizes,
      {"side"});
  add(opt, "stencil3d_7pt", "gpuprims::apply_stencil3d", role::default_,
      stencil3d_bench<stencil_shape::star>, sizes, {"side"});
  add(opt, "stencil3d_27pt", "gpuprims::apply_stencil3d", role::default_,
      stencil3d_bench<stencil_shape::box>, sizes, {"side"});
  if (!opt.full) {
    return;
  }
  // Tiles (threads x, y, rows a thread), z chunks and resident blocks (register caps) around the
  // defaults: the star's 32 x 8 x 4 for 4 blocks, the box's 32 x 8 x 4 for 2; chunks of 64 planes.
  using star_t = std::integral_constant<stencil_shape, stencil_shape::star>;
  using box_t = std::integral_constant<stencil_shape, stencil_shape::box>;
  const auto variant = [&](auto shape, const char* name, auto tuning) {
    constexpr stencil_shape s = decltype(shape)::value;
    add(opt, s == stencil_shape::star ? "stencil3d_7pt" : "stencil3d_27pt", name, role::variant,
        stencil3d_bench<s, decltype(tuning)>, sizes, {"side"});
  };
  variant(star_t{}, "min2", fixed_stencil3d_tuning<32, 8, 4, 64, 2>{});
  variant(star_t{}, "z128", fixed_stencil3d_tuning<32, 8, 4, 128, 4>{});
  variant(star_t{}, "tile_32x8x2", fixed_stencil3d_tuning<32, 8, 2, 64, 4>{});
  variant(star_t{}, "tile_64x4x4", fixed_stencil3d_tuning<64, 4, 4, 64, 4>{});
  variant(star_t{}, "tile_32x4x4_min8", fixed_stencil3d_tuning<32, 4, 4, 64, 8>{});
  variant(box_t{}, "min3", fixed_stencil3d_tuning<32, 8, 4, 64, 3>{});
  variant(box_t{}, "z128", fixed_stencil3d_tuning<32, 8, 4, 128, 2>{});
  variant(box_t{}, "tile_32x8x2_min3", fixed_stencil3d_tuning<32, 8, 2, 64, 3>{});
  variant(box_t{}, "tile_32x8x2_min4", fixed_stencil3d_tuning<32, 8, 2, 64, 4>{});
  variant(box_t{}, "tile_32x4x4_min4", fixed_stencil3d_tuning<32, 4, 4, 64, 4>{});
  variant(box_t{}, "tile_32x8x8_min2", fixed_stencil3d_tuning<32, 8, 8, 64, 2>{});
}

}  // namespace gpuprims::bench
