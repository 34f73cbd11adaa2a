// The 2D stencil families: gpuprims::apply_stencil2d (5-point star and 9-point box, radius 1,
// periodic) against cudaMemcpyAsync of the grid (the limit of one step per pass) and the naive
// kernel (the 2D ladder's first rung; its other rungs with --full), on 8192^2 and 16384^2 floats.
// Bytes counted: the grid read and written once. Families "stencil2d_fused_5pt_steps<S>",
// "stencil2d_fused_9pt_steps<S>" and "stencil2d_fused_r2_star_steps<S>": temporal blocking
// (below); "stencil2d_update_heat_steps<S>": a user update against the same step as weights
// (below).
#include <gpuprims/device/stencil2d.cuh>
#include <gpuprims/ladder/stencil.cuh>

#include "reduce_families.cuh"
#include "support.cuh"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace gpuprims::bench {
namespace {

// Fixed streaming shapes, to measure the default's neighbours (--full).
template <int Warps, int Rows, int Batch, int MinBlocks, int Staged = 0, bool Dependent = true>
struct fixed_stencil2d_tuning {
  __host__ __device__ static constexpr stencil2d_policy select(int, std::size_t, int,
                                                               stencil_shape) {
    return {Warps, Rows, Batch, MinBlocks, 0, 0, 0, Staged, Dependent};
  }
};

// Random bits as floats include NaN and infinities: the arithmetic's speed does not depend on
// them, and weights summing to 0 keep the outputs bounded where the inputs are finite.
inline stencil2d_weights<float, 1> some_weights2d() {
  return {{{0.05f, 0.2f, 0.05f}, {0.2f, -1.0f, 0.2f}, {0.05f, 0.2f, 0.05f}}};
}

// run(in, out, side, stream) over a side x side grid of floats, periodic.
template <class Run>
void stencil2d_bench(benchmark::State& state, Run run) {
  const auto side = static_cast<std::size_t>(state.range(0));
  const std::size_t n = side * side;
  random_buffer in(n * 4, 31);
  device_scratch out(n * 4);
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, 2 * n * 4, [&](cudaStream_t s) {
    skip_on_error(state, run(in.as<float>(), static_cast<float*>(out.p), side, s));
  });
}

template <stencil_shape Shape, class Tuning = stencil2d_tuning>
void default_bench(benchmark::State& state) {
  stencil2d_bench(state, [](const float* in, float* out, std::size_t side, cudaStream_t s) {
    return apply_stencil2d<1, Shape, Tuning>(in, out, side, side, side, side, some_weights2d(),
                                             boundary::periodic(), s);
  });
}

template <stencil_shape Shape, ladder::stencil2d_rung Rung>
void rung_bench(benchmark::State& state) {
  stencil2d_bench(state, [](const float* in, float* out, std::size_t side, cudaStream_t s) {
    return ladder::apply_stencil2d<1, Shape, Rung>(in, out, side, side, side, side,
                                                   some_weights2d(), boundary::periodic(), s);
  });
}

void copy_grid_bench(benchmark::State& state) {
  const auto side = static_cast<std::size_t>(state.range(0));
  time_input_copy<float>(state, side * side);
}

// Fixed fused policies: streaming shapes around the default, and the shared tile (the default
// before register streaming), to measure against it in one run (--full).
template <int Warps, int Rows, int Ring, int MinBlocks, bool Dependent = true>
struct fixed_fused_tuning {
  __host__ __device__ static constexpr stencil2d_fused_policy select(int, std::size_t, int, int) {
    return {Warps, Rows, Ring, MinBlocks, 0, 0, 0, 0, Dependent};
  }
};
struct fused_tile_tuning {
  __host__ __device__ static constexpr stencil2d_fused_policy select(int, std::size_t, int, int) {
    return {0, 0, 0, 0, 64, 64, 32, 8};
  }
};

// Families "stencil2d_fused_5pt_steps<S>" and "stencil2d_fused_9pt_steps<S>": S steps of the
// 5-point star or the 9-point box (periodic) over 8192^2 floats (--full: 16384^2 too):
// apply_stencil2d_fused (one pass) against apply_stencil2d called S times (through a scratch
// grid, allocated outside the timing) and one cudaMemcpyAsync of the grid. Bytes counted: the grid
// read and written once, what the fused pass must move. "stencil2d_fused_r2_star_steps<S>"
// (--full): the same for the radius-2 star (9 points in a cross).
template <int Rad>
constexpr stencil2d_weights<float, Rad> fused2d_weights() {
  // Radius 1: the box's weights (the star reads the centre and its four neighbours of them).
  // Radius 2: 0.2 at the centre, 0.1 at each of the eight points along the arms, 0 elsewhere.
  stencil2d_weights<float, Rad> w{};
  for (int dy = -Rad; dy <= Rad; ++dy) {
    for (int dx = -Rad; dx <= Rad; ++dx) {
      const int far = (dy < 0 ? -dy : dy) + (dx < 0 ? -dx : dx);
      w.w[dy + Rad][dx + Rad] = Rad == 1 ? (far == 0   ? 0.2f
                                            : far == 1 ? 0.15f
                                                       : 0.05f)
                                         : (far == 0               ? 0.2f
                                            : (dy == 0 || dx == 0) ? 0.1f
                                                                   : 0.f);
    }
  }
  return w;
}

template <stencil_shape Shape, int Steps, class Tuning = stencil2d_fused_tuning, int Rad = 1>
void stencil2d_steps_bench(benchmark::State& state, bool fused) {
  const auto side = static_cast<std::size_t>(state.range(0));
  const std::size_t n = side * side;
  random_buffer in(n * 4, 31);
  device_scratch out(n * 4), scratch(n * 4);
  if (!in.ok() || out.p == nullptr || scratch.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  constexpr stencil2d_weights<float, Rad> w = fused2d_weights<Rad>();
  time_launches(state, 2 * n * 4, [&](cudaStream_t s) {
    if (fused) {
      skip_on_error(state, apply_stencil2d_fused<Rad, Shape, Steps, Tuning>(
                               in.as<float>(), static_cast<float*>(out.p), side, side, side, side,
                               w, boundary::periodic(), s));
      return;
    }
    const float* src = in.as<float>();
    for (int k = 0; k < Steps; ++k) {
      float* dst = static_cast<float*>((Steps - 1 - k) % 2 == 0 ? out.p : scratch.p);
      skip_on_error(state, apply_stencil2d<Rad, Shape>(src, dst, side, side, side, side, w,
                                                       boundary::periodic(), s));
      src = dst;
    }
  });
}

template <stencil_shape Shape, int Steps, int Rad = 1>
void add_fused2d_family(const options& opt) {
  const std::string family =
      std::string(Rad == 2                       ? "stencil2d_fused_r2_star_steps"
                  : Shape == stencil_shape::star ? "stencil2d_fused_5pt_steps"
                                                 : "stencil2d_fused_9pt_steps") +
      std::to_string(Steps);
  const arg_list sizes = opt.full ? each({8192, 16384}) : each({8192});
  add(opt, family, "cudaMemcpyAsync", role::baseline, copy_grid_bench, sizes, {"side"});
  add(opt, family, "apply_stencil2d x steps", role::baseline,
      [](benchmark::State& state) {
        stencil2d_steps_bench<Shape, Steps, stencil2d_fused_tuning, Rad>(state, false);
      },
      sizes, {"side"});
  add(opt, family, "gpuprims::apply_stencil2d_fused", role::default_,
      [](benchmark::State& state) {
        stencil2d_steps_bench<Shape, Steps, stencil2d_fused_tuning, Rad>(state, true);
      },
      sizes, {"side"});
  if (opt.full) {
    // Streaming strips of other heights, with the default's warps, ring and blocks an SM.
    constexpr int blocks = Steps * (2 * Rad + 1) * 4 <= 64 ? 4 : 2;
    const auto strips = [&](auto rows) {
      constexpr int height = decltype(rows)::value;
      add(opt, family, "strips of " + std::to_string(height) + " rows", role::variant,
          [](benchmark::State& state) {
            stencil2d_steps_bench<Shape, Steps, fixed_fused_tuning<4, height, 8, blocks>, Rad>(
                state, true);
          },
          sizes, {"side"});
    };
    strips(std::integral_constant<int, 16>{});
    strips(std::integral_constant<int, 24>{});
    strips(std::integral_constant<int, 32>{});
    add(opt, family, "shared tile 64x64", role::variant,
        [](benchmark::State& state) {
          stencil2d_steps_bench<Shape, Steps, fused_tile_tuning, Rad>(state, true);
        },
        sizes, {"side"});
  }
}

// Families "stencil2d_update_heat_steps<S>" (--full): S explicit heat steps (u + 0.2 times the
// 5-point Laplacian, periodic) over 8192^2 and 16384^2 floats in one pass, written as a user update
// (gpuprims::make_stencil_update, the default of the family; beside it the shared tile, the
// updates' path before they streamed) against the same step as 5-point weights (0.2 at the centre
// and its four neighbours: the same arithmetic in another order) and one cudaMemcpyAsync of the
// grid. Bytes counted: the grid read and written once.
struct heat_step {
  template <class At>
  __host__ __device__ float operator()(const At& at) const {
    const float u = at(0, 0);
    return u + 0.2f * (at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1) - 4.f * u);
  }
};

template <int Steps>
void heat_bench(benchmark::State& state, bool update) {
  stencil2d_bench(state, [update](const float* in, float* out, std::size_t side, cudaStream_t s) {
    if (update) {
      return apply_stencil2d_fused<1, stencil_shape::star, Steps>(
          in, out, side, side, side, side, make_stencil_update<1>(heat_step{}),
          boundary::periodic(), s);
    }
    const stencil2d_weights<float, 1> w{{{0.f, 0.2f, 0.f}, {0.2f, 0.2f, 0.2f}, {0.f, 0.2f, 0.f}}};
    return apply_stencil2d_fused<1, stencil_shape::star, Steps>(in, out, side, side, side, side, w,
                                                                boundary::periodic(), s);
  });
}

// The updates' path before they streamed: the single step's shared tile, and the fused shared
// tile for 2 or more steps.
struct update_tile_tuning {
  __host__ __device__ static constexpr stencil2d_policy select(int, std::size_t, int,
                                                               stencil_shape) {
    return stencil2d_tuning::shared_tile();
  }
};
template <int Steps>
void heat_tile_bench(benchmark::State& state) {
  stencil2d_bench(state, [](const float* in, float* out, std::size_t side, cudaStream_t s) {
    const auto step = make_stencil_update<1>(heat_step{});
    if constexpr (Steps == 1) {
      return apply_stencil2d<1, stencil_shape::star, update_tile_tuning>(
          in, out, side, side, side, side, step, boundary::periodic(), s);
    } else {
      return apply_stencil2d_fused<1, stencil_shape::star, Steps, fused_tile_tuning>(
          in, out, side, side, side, side, step, boundary::periodic(), s);
    }
  });
}

template <int Steps>
void add_heat_family(const options& opt) {
  const std::string family = "stencil2d_update_heat_steps" + std::to_string(Steps);
  const arg_list sizes = each({8192, 16384});
  add(opt, family, "cudaMemcpyAsync", role::baseline, copy_grid_bench, sizes, {"side"});
  add(opt, family, "5-point weights", role::baseline,
      [](benchmark::State& state) { heat_bench<Steps>(state, false); }, sizes, {"side"});
  add(opt, family, "gpuprims::make_stencil_update", role::default_,
      [](benchmark::State& state) { heat_bench<Steps>(state, true); }, sizes, {"side"});
  add(opt, family, "make_stencil_update, shared tile (before)", role::variant,
      heat_tile_bench<Steps>, sizes, {"side"});
}

template <int Steps, int Warps, int Rows, int Ring, int MinBlocks>
void add_fused2d_shape(const options& opt) {
  const std::string name = "streaming " + std::to_string(Warps) + "w x " + std::to_string(Rows) +
                           " rows, ring " + std::to_string(Ring) + ", " +
                           std::to_string(MinBlocks) + " blocks";
  add(opt, "stencil2d_fused_5pt_steps" + std::to_string(Steps), name, role::variant,
      [](benchmark::State& state) {
        stencil2d_steps_bench<stencil_shape::star, Steps,
                              fixed_fused_tuning<Warps, Rows, Ring, MinBlocks>>(state, true);
      },
      each({8192, 16384}), {"side"});
}

}  // namespace

void register_stencil2d(const options& opt) {
  const arg_list sizes = each({8192, 16384});
  for (const char* family : {"stencil2d_5pt", "stencil2d_9pt"}) {
    add(opt, family, "cudaMemcpyAsync", role::baseline, copy_grid_bench, sizes, {"side"});
  }
  add(opt, "stencil2d_5pt", "gpuprims::apply_stencil2d", role::default_,
      default_bench<stencil_shape::star>, sizes, {"side"});
  add(opt, "stencil2d_9pt", "gpuprims::apply_stencil2d", role::default_,
      default_bench<stencil_shape::box>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "naive", role::baseline,
      rung_bench<stencil_shape::star, ladder::stencil2d_rung::naive>, sizes, {"side"});
  add(opt, "stencil2d_9pt", "naive", role::baseline,
      rung_bench<stencil_shape::box, ladder::stencil2d_rung::naive>, sizes, {"side"});
  add_fused2d_family<stencil_shape::star, 1>(opt);
  add_fused2d_family<stencil_shape::star, 2>(opt);
  if (opt.full) {
    add_fused2d_family<stencil_shape::star, 3>(opt);
    add_fused2d_family<stencil_shape::star, 2, 2>(opt);
  }
  add_fused2d_family<stencil_shape::star, 4>(opt);
  add_fused2d_family<stencil_shape::star, 8>(opt);
  add_fused2d_family<stencil_shape::box, 1>(opt);
  add_fused2d_family<stencil_shape::box, 2>(opt);
  add_fused2d_family<stencil_shape::box, 4>(opt);
  add_fused2d_family<stencil_shape::box, 8>(opt);
  if (!opt.full) {
    return;
  }
  add_heat_family<1>(opt);
  add_heat_family<2>(opt);
  add_heat_family<4>(opt);
  add_heat_family<8>(opt);
  // The fused default's neighbours: warps a block, rows a strip, rows in the ring, blocks an SM.
  add_fused2d_shape<4, 4, 8, 8, 4>(opt);
  add_fused2d_shape<4, 4, 12, 8, 4>(opt);
  add_fused2d_shape<4, 4, 32, 8, 4>(opt);
  add_fused2d_shape<4, 4, 16, 4, 4>(opt);
  add_fused2d_shape<4, 4, 16, 16, 4>(opt);
  add_fused2d_shape<4, 8, 16, 8, 2>(opt);
  add_fused2d_shape<4, 2, 16, 8, 8>(opt);
  add(opt, "stencil2d_fused_5pt_steps4", "default, plain launch", role::variant,
      [](benchmark::State& state) {
        stencil2d_steps_bench<stencil_shape::star, 4, fixed_fused_tuning<4, 16, 8, 4, false>>(state,
                                                                                              true);
      },
      each({8192, 16384}), {"side"});
  // Eight steps keep 8 x 3 rows in registers: streaming at fewer blocks an SM.
  add_fused2d_shape<8, 4, 16, 8, 3>(opt);
  add_fused2d_shape<8, 4, 16, 8, 2>(opt);
  add_fused2d_shape<8, 4, 32, 8, 2>(opt);
  // The 2D ladder's other rungs (ladder/stencil.cuh), and the default's neighbours: warps a block,
  // rows a strip, rows a batch, blocks an SM.
  add(opt, "stencil2d_5pt", "shared_tile", role::variant,
      rung_bench<stencil_shape::star, ladder::stencil2d_rung::shared_tile>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "coarsened", role::variant,
      rung_bench<stencil_shape::star, ladder::stencil2d_rung::coarsened>, sizes, {"side"});
  add(opt, "stencil2d_9pt", "shared_tile", role::variant,
      rung_bench<stencil_shape::box, ladder::stencil2d_rung::shared_tile>, sizes, {"side"});
  add(opt, "stencil2d_9pt", "coarsened", role::variant,
      rung_bench<stencil_shape::box, ladder::stencil2d_rung::coarsened>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "strip_4w_16r_b4_5blk", role::variant,
      default_bench<stencil_shape::star, fixed_stencil2d_tuning<4, 16, 4, 5>>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "strip_4w_32r_b4_4blk", role::variant,
      default_bench<stencil_shape::star, fixed_stencil2d_tuning<4, 32, 4, 4>>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "strip_4w_8r_b1_8blk", role::variant,
      default_bench<stencil_shape::star, fixed_stencil2d_tuning<4, 8, 1, 8>>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "strip_8w_8r_b2_3blk", role::variant,
      default_bench<stencil_shape::star, fixed_stencil2d_tuning<8, 8, 2, 3>>, sizes, {"side"});
  add(opt, "stencil2d_9pt", "strip_4w_16r_b4_4blk", role::variant,
      default_bench<stencil_shape::box, fixed_stencil2d_tuning<4, 16, 4, 4>>, sizes, {"side"});
  // The default's rows staged in shared memory (radius 1) against the same shape unstaged (the
  // default before), and staged neighbours.
  add(opt, "stencil2d_5pt", "unstaged_4w_8r_b2_6blk", role::variant,
      default_bench<stencil_shape::star, fixed_stencil2d_tuning<4, 8, 2, 6, 0>>, sizes, {"side"});
  add(opt, "stencil2d_9pt", "unstaged_4w_8r_b2_6blk", role::variant,
      default_bench<stencil_shape::box, fixed_stencil2d_tuning<4, 8, 2, 6, 0>>, sizes, {"side"});
  add(opt, "stencil2d_9pt", "staged_4w_8r_b2_5blk", role::variant,
      default_bench<stencil_shape::box, fixed_stencil2d_tuning<4, 8, 2, 5, 1>>, sizes, {"side"});
  // The default launched plainly (no programmatic dependent launch), the default before.
  add(opt, "stencil2d_5pt", "plain_launch", role::variant,
      default_bench<stencil_shape::star, fixed_stencil2d_tuning<4, 8, 2, 6, 1, false>>, sizes,
      {"side"});
  add(opt, "stencil2d_9pt", "plain_launch", role::variant,
      default_bench<stencil_shape::box, fixed_stencil2d_tuning<4, 8, 2, 5, 1, false>>, sizes,
      {"side"});
  add(opt, "stencil2d_5pt", "staged_4w_8r_b2_8blk", role::variant,
      default_bench<stencil_shape::star, fixed_stencil2d_tuning<4, 8, 2, 8, 1>>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "staged_4w_16r_b4_4blk", role::variant,
      default_bench<stencil_shape::star, fixed_stencil2d_tuning<4, 16, 4, 4, 1>>, sizes, {"side"});
  add(opt, "stencil2d_5pt", "staged_8w_8r_b2_4blk", role::variant,
      default_bench<stencil_shape::star, fixed_stencil2d_tuning<8, 8, 2, 4, 1>>, sizes, {"side"});
}

}  // namespace gpuprims::bench
