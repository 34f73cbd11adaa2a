// The 2D stencil families: gpuprims::apply_stencil2d (5-point star and 9-point box, radius 1,
// periodic) against cudaMemcpyAsync of the grid (the limit of one step per pass), on 8192^2 and
// 16384^2 floats. Bytes counted: the grid read and written once. Families
// "stencil2d_fused_5pt_steps<S>": temporal blocking (below).
#include <gpuprims/device/stencil2d.cuh>

#include "reduce_families.cuh"
#include "support.cuh"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpuprims::bench {
namespace {

// A fixed tile shape, to measure the default's neighbours (5-point family, --full).
template <int BlockX, int BlockY, int ItemsY>
struct fixed_stencil2d_tuning {
  __host__ __device__ static constexpr stencil2d_policy select(int, std::size_t, int) {
    return {BlockX, BlockY, ItemsY};
  }
};

template <stencil_shape Shape, class Tuning = stencil2d_tuning>
void stencil2d_bench(benchmark::State& state) {
  const auto side = static_cast<std::size_t>(state.range(0));
  const std::size_t n = side * side;
  random_buffer in(n * 4, 31);
  device_scratch out(n * 4);
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  // Random bits as floats include NaN and infinities: the arithmetic's speed does not depend on
  // them, and weights summing to 0 keep the outputs bounded where the inputs are finite.
  const stencil2d_weights<float, 1> w{
      {{0.05f, 0.2f, 0.05f}, {0.2f, -1.0f, 0.2f}, {0.05f, 0.2f, 0.05f}}};
  time_launches(state, 2 * n * 4, [&](cudaStream_t s) {
    skip_on_error(
        state, apply_stencil2d<1, Shape, Tuning>(in.as<float>(), static_cast<float*>(out.p), side,
                                                 side, side, side, w, boundary::periodic(), s));
  });
}

void copy_grid_bench(benchmark::State& state) {
  const auto side = static_cast<std::size_t>(state.range(0));
  time_input_copy<float>(state, side * side);
}

// Family "stencil2d_fused_5pt_steps<S>": S steps of the 5-point star (periodic) over 8192^2 floats
// (--full: 16384^2 too): apply_stencil2d_fused (one pass) against apply_stencil2d called S times
// (through a scratch grid, allocated outside the timing) and one cudaMemcpyAsync of the grid.
// Bytes counted: the grid read and written once, what the fused pass must move.
template <int Steps>
void stencil2d_steps_bench(benchmark::State& state, bool fused) {
  const auto side = static_cast<std::size_t>(state.range(0));
  const std::size_t n = side * side;
  random_buffer in(n * 4, 31);
  device_scratch out(n * 4), scratch(n * 4);
  if (!in.ok() || out.p == nullptr || scratch.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  const stencil2d_weights<float, 1> w{{{0, 0.2f, 0}, {0.2f, 0.2f, 0.2f}, {0, 0.2f, 0}}};
  time_launches(state, 2 * n * 4, [&](cudaStream_t s) {
    if (fused) {
      skip_on_error(state, apply_stencil2d_fused<1, stencil_shape::star, Steps>(
                               in.as<float>(), static_cast<float*>(out.p), side, side, side, side,
                               w, boundary::periodic(), s));
      return;
    }
    const float* src = in.as<float>();
    for (int k = 0; k < Steps; ++k) {
      float* dst = static_cast<float*>((Steps - 1 - k) % 2 == 0 ? out.p : scratch.p);
      skip_on_error(state, apply_stencil2d<1, stencil_shape::star>(src, dst, side, side, side, side,
                                                                   w, boundary::periodic(), s));
      src = dst;
    }
  });
}

template <int Steps>
void add_fused2d_family(const options& opt) {
  const std::string family = "stencil2d_fused_5pt_steps" + std::to_string(Steps);
  const arg_list sizes = opt.full ? each({8192, 16384}) : each({8192});
  add(opt, family, "cudaMemcpyAsync", role::baseline, copy_grid_bench, sizes, {"side"});
  add(opt, family, "apply_stencil2d x steps", role::baseline,
      [](benchmark::State& state) { stencil2d_steps_bench<Steps>(state, false); }, sizes, {"side"});
  add(opt, family, "gpuprims::apply_stencil2d_fused", role::default_,
      [](benchmark::State& state) { stencil2d_steps_bench<Steps>(state, true); }, sizes, {"side"});
}

}  // namespace

void register_stencil2d(const options& opt) {
  const arg_list sizes = each({8192, 16384});
  for (const char* family : {"stencil2d_5pt", "stencil2d_9pt"}) {
    add(opt, family, "cudaMemcpyAsync", role::baseline, copy_grid_bench, sizes, {"side"});
  }
  add(opt, "stencil2d_5pt", "gpuprims::apply_stencil2d", role::default_,
      stencil2d_bench<stencil_shape::star>, sizes, {"side"});
  add(opt, "stencil2d_9pt", "gpuprims::apply_stencil2d", role::default_,
      stencil2d_bench<stencil_shape::box>, sizes, {"side"});
  add_fused2d_family<1>(opt);
  add_fused2d_family<2>(opt);
  add_fused2d_family<4>(opt);
  add_fused2d_family<8>(opt);
  if (!opt.full) {
    return;
  }
  add(opt, "stencil2d_5pt", "tile_32x8x4", role::variant,
      stencil2d_bench<stencil_shape::star, fixed_stencil2d_tuning<32, 8, 4>>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "tile_32x8x8", role::variant,
      stencil2d_bench<stencil_shape::star, fixed_stencil2d_tuning<32, 8, 8>>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "tile_64x4x4", role::variant,
      stencil2d_bench<stencil_shape::star, fixed_stencil2d_tuning<64, 4, 4>>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "tile_32x16x2", role::variant,
      stencil2d_bench<stencil_shape::star, fixed_stencil2d_tuning<32, 16, 2>>, sizes, {"side"});
}

}  // namespace gpuprims::bench
