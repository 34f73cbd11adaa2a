// The 3D stencil families: gpuprims::apply_stencil3d (7-point star and 27-point box, radius 1,
// periodic) on 512^3 floats against cudaMemcpyAsync of the grid (the limit of one step per pass)
// and the 3D ladder's naive rung (one thread a point, every neighbour read from global memory
// through the boundary rules). Bytes counted: the grid read and written once. The shared ring (the
// previous default) runs beside the default; --full adds other strips, tiles and z chunks.
// Families "stencil3d_fused_7pt_steps<S>" and "stencil3d_fused_27pt_steps<S>": temporal blocking
// (below).
#include <gpuprims/device/stencil3d.cuh>
#include <gpuprims/ladder/stencil.cuh>

#include "reduce_families.cuh"
#include "support.cuh"

#include <cstddef>
#include <string>
#include <type_traits>

namespace gpuprims::bench {
namespace {

// The shared ring of BlockX x BlockY threads, ItemsY rows each.
template <int BlockX, int BlockY, int ItemsY, int ZChunk, int MinBlocks = 4>
struct fixed_stencil3d_tuning {
  __host__ __device__ static constexpr stencil3d_policy select(int, std::size_t, int,
                                                               stencil_shape) {
    return {0, 0, ZChunk, MinBlocks, BlockX, BlockY, ItemsY};
  }
};

// Register streaming: Warps a block, strips of Rows rows, planes asked of the L2 Prefetch ahead,
// the strips ordered for OrderWarps warps at work (0: the device's).
template <int Warps, int Rows, int ZChunk, int MinBlocks, int Prefetch = 0, int OrderWarps = 0>
struct fixed_strip3d_tuning {
  __host__ __device__ static constexpr stencil3d_policy select(int, std::size_t, int,
                                                               stencil_shape) {
    return {Warps, Rows, ZChunk, MinBlocks, 0, 0, 0, Prefetch, OrderWarps};
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

// A random grid of depth x side x side floats into a scratch grid: side is the first argument,
// depth the second where the family has one (else side); run(in, out, depth, side, stream).
template <class Run>
void grid3d_bench(benchmark::State& state, bool with_depth, Run run) {
  const auto side = static_cast<std::size_t>(state.range(0));
  const auto depth = with_depth ? static_cast<std::size_t>(state.range(1)) : side;
  const std::size_t n = side * side * depth;
  random_buffer in(n * 4, 37);
  device_scratch out(n * 4);
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, 2 * n * 4, [&](cudaStream_t s) {
    skip_on_error(state, run(in.as<float>(), static_cast<float*>(out.p), depth, side, s));
  });
}

template <stencil_shape Shape, class Tuning = stencil3d_tuning, bool WithDepth = false>
void stencil3d_bench(benchmark::State& state) {
  grid3d_bench(
      state, WithDepth,
      [](const float* in, float* out, std::size_t depth, std::size_t side, cudaStream_t s) {
        return apply_stencil3d<1, Shape, Tuning>(in, out, depth, side, side, side, side * side,
                                                 side, side * side, some_weights3d(),
                                                 boundary::periodic(), s);
      });
}

template <stencil_shape Shape, ladder::stencil3d_rung Rung>
void rung3d_bench(benchmark::State& state) {
  grid3d_bench(
      state, false,
      [](const float* in, float* out, std::size_t depth, std::size_t side, cudaStream_t s) {
        return ladder::apply_stencil3d<1, Shape, Rung>(in, out, depth, side, side, side,
                                                       side * side, side, side * side,
                                                       some_weights3d(), boundary::periodic(), s);
      });
}

// A cudaMemcpyAsync of the grid grid3d_bench gives the stencil (the same arguments).
template <bool WithDepth = false>
void copy_grid3d_bench(benchmark::State& state) {
  const auto side = static_cast<std::size_t>(state.range(0));
  const auto depth = WithDepth ? static_cast<std::size_t>(state.range(1)) : side;
  time_input_copy<float>(state, side * side * depth);
}

// A fused policy: BlockY rows of 32 threads, spans of SpanX x SpanY, chunks of ZChunk planes,
// Prefetch input planes in flight, registers for MinBlocks blocks an SM.
template <int BlockY, int SpanX, int SpanY, int ZChunk, int Prefetch, int MinBlocks>
struct fixed_fused3d_tuning {
  __host__ __device__ static constexpr stencil3d_fused_policy select(int, std::size_t, int, int) {
    return {32, BlockY, SpanX, SpanY, ZChunk, Prefetch, MinBlocks};
  }
};

// apply_stencil3d_fused's streaming: Warps warps of Rows rows a lane, a ring of Ring input planes,
// chunks of ZChunk planes, registers for MinBlocks blocks an SM (the library's shared rings near a
// non-periodic z boundary), the ring's rows read first for the star as the library reads them.
// One step too runs the fused kernels, which the variant measures.
template <int Warps, int Rows, int Ring, int ZChunk, int MinBlocks>
struct fixed_fused_strip3d_tuning : stencil3d_fused_tuning {
  static constexpr bool one_step_by_stencil3d = false;
  __host__ __device__ static constexpr stencil3d_fused_strip_policy strip(int, std::size_t, int,
                                                                          bool box, int) {
    return {Warps, Rows, Ring, ZChunk, MinBlocks, !box};
  }
};

// Families "stencil3d_fused_7pt_steps<S>" and "stencil3d_fused_27pt_steps<S>": S steps of the
// 7-point star or the 27-point box (periodic) over 512^3 floats: apply_stencil3d_fused (one pass)
// against apply_stencil3d called S times (through a scratch grid, allocated outside the timing)
// and one cudaMemcpyAsync of the grid. Bytes counted: the grid read and written once, what the
// fused pass must move.
template <stencil_shape Shape, int Steps, class Tuning = stencil3d_fused_tuning>
void stencil3d_steps_bench(benchmark::State& state, bool fused) {
  const auto side = static_cast<std::size_t>(state.range(0));
  const std::size_t n = side * side * side;
  random_buffer in(n * 4, 41);
  device_scratch out(n * 4), scratch(n * 4);
  if (!in.ok() || out.p == nullptr || scratch.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  const auto w = some_weights3d();
  time_launches(state, 2 * n * 4, [&](cudaStream_t s) {
    if (fused) {
      skip_on_error(state, apply_stencil3d_fused<1, Shape, Steps, Tuning>(
                               in.as<float>(), static_cast<float*>(out.p), side, side, side, side,
                               side * side, side, side * side, w, boundary::periodic(), s));
      return;
    }
    const float* src = in.as<float>();
    for (int k = 0; k < Steps; ++k) {
      float* dst = static_cast<float*>((Steps - 1 - k) % 2 == 0 ? out.p : scratch.p);
      skip_on_error(state,
                    apply_stencil3d<1, Shape>(src, dst, side, side, side, side, side * side, side,
                                              side * side, w, boundary::periodic(), s));
      src = dst;
    }
  });
}

template <stencil_shape Shape, int Steps>
void add_fused3d_family(const options& opt) {
  const std::string family =
      std::string(Shape == stencil_shape::star ? "stencil3d_fused_7pt_steps"
                                               : "stencil3d_fused_27pt_steps") +
      std::to_string(Steps);
  const arg_list sizes = each({512});
  add(opt, family, "cudaMemcpyAsync", role::baseline, copy_grid3d_bench<>, sizes, {"side"});
  add(opt, family, "apply_stencil3d x steps", role::baseline,
      [](benchmark::State& state) { stencil3d_steps_bench<Shape, Steps>(state, false); }, sizes,
      {"side"});
  add(opt, family, "gpuprims::apply_stencil3d_fused", role::default_,
      [](benchmark::State& state) { stencil3d_steps_bench<Shape, Steps>(state, true); }, sizes,
      {"side"});
  if (opt.full) {
    const auto variant = [&](const char* name, auto tuning) {
      add(opt, family, name, role::variant,
          [](benchmark::State& state) {
            stencil3d_steps_bench<Shape, Steps, decltype(tuning)>(state, true);
          },
          sizes, {"side"});
    };
    variant("shared rings (the default before streaming)",
            fixed_fused3d_tuning<8, 32, 32, 64, 4, 3>{});
    if constexpr (Steps <= 4) {
      variant("streaming 8 warps x 4 rows", fixed_fused_strip3d_tuning<8, 4, 4, 64, 1>{});
      variant("streaming 16 x 2, ring 2", fixed_fused_strip3d_tuning<16, 2, 2, 64, 1>{});
      variant("streaming 16 x 2, ring 6", fixed_fused_strip3d_tuning<16, 2, 6, 64, 1>{});
      variant("streaming 16 x 2, chunks of 128", fixed_fused_strip3d_tuning<16, 2, 4, 128, 1>{});
      variant("streaming 16 x 2, chunks of 32", fixed_fused_strip3d_tuning<16, 2, 4, 32, 1>{});
    }
    if constexpr (Steps == 8) {
      variant("streaming 16 x 2, ring 4 (spills)", fixed_fused_strip3d_tuning<16, 2, 4, 64, 1>{});
    }
    if constexpr (Steps <= 2) {
      variant("streaming 32 x 1", fixed_fused_strip3d_tuning<32, 1, 4, 64, 1>{});
      variant("streaming 16 x 2, 2 blocks", fixed_fused_strip3d_tuning<16, 2, 3, 64, 2>{});
      variant("streaming 8 x 2, 3 blocks", fixed_fused_strip3d_tuning<8, 2, 4, 64, 3>{});
    }
  }
}

}  // namespace

void register_stencil3d(const options& opt) {
  const arg_list sizes = each({512});
  for (const char* family : {"stencil3d_7pt", "stencil3d_27pt"}) {
    add(opt, family, "cudaMemcpyAsync", role::baseline, copy_grid3d_bench<>, sizes, {"side"});
  }
  add(opt, "stencil3d_7pt", "naive", role::baseline,
      rung3d_bench<stencil_shape::star, ladder::stencil3d_rung::naive>, sizes, {"side"});
  add(opt, "stencil3d_27pt", "naive", role::baseline,
      rung3d_bench<stencil_shape::box, ladder::stencil3d_rung::naive>, sizes, {"side"});
  add(opt, "stencil3d_7pt", "gpuprims::apply_stencil3d", role::default_,
      stencil3d_bench<stencil_shape::star>, sizes, {"side"});
  add(opt, "stencil3d_27pt", "gpuprims::apply_stencil3d", role::default_,
      stencil3d_bench<stencil_shape::box>, sizes, {"side"});
  add(opt, "stencil3d_7pt", "shared ring", role::variant,
      rung3d_bench<stencil_shape::star, ladder::stencil3d_rung::shared_ring>, sizes, {"side"});
  add(opt, "stencil3d_27pt", "shared ring", role::variant,
      rung3d_bench<stencil_shape::box, ladder::stencil3d_rung::shared_ring>, sizes, {"side"});
  add_fused3d_family<stencil_shape::star, 1>(opt);
  add_fused3d_family<stencil_shape::star, 2>(opt);
  add_fused3d_family<stencil_shape::star, 4>(opt);
  add_fused3d_family<stencil_shape::star, 8>(opt);
  add_fused3d_family<stencil_shape::box, 1>(opt);
  add_fused3d_family<stencil_shape::box, 2>(opt);
  add_fused3d_family<stencil_shape::box, 4>(opt);
  add_fused3d_family<stencil_shape::box, 8>(opt);
  if (!opt.full) {
    return;
  }
  // Strips (warps a block, rows, z chunk, resident blocks, planes prefetched) around the defaults
  // (the box's with its prefetch of 2 planes), and the shared ring's tiles (threads x, y, rows a
  // thread) around its own.
  using star_t = std::integral_constant<stencil_shape, stencil_shape::star>;
  using box_t = std::integral_constant<stencil_shape, stencil_shape::box>;
  const auto variant = [&](auto shape, const char* name, auto tuning) {
    constexpr stencil_shape s = decltype(shape)::value;
    add(opt, s == stencil_shape::star ? "stencil3d_7pt" : "stencil3d_27pt", name, role::variant,
        stencil3d_bench<s, decltype(tuning)>, sizes, {"side"});
  };
  variant(star_t{}, "strips_4w_2r_min4", fixed_strip3d_tuning<4, 2, 64, 4>{});
  variant(star_t{}, "strips_4w_4r_min3", fixed_strip3d_tuning<4, 4, 64, 3>{});
  variant(star_t{}, "strips_4w_8r_min2", fixed_strip3d_tuning<4, 8, 64, 2>{});
  variant(star_t{}, "strips_4w_4r_min4_z64", fixed_strip3d_tuning<4, 4, 64, 4>{});
  variant(star_t{}, "strips_4w_4r_min4_z128", fixed_strip3d_tuning<4, 4, 128, 4>{});
  variant(star_t{}, "strips_2w_4r_min8", fixed_strip3d_tuning<2, 4, 64, 8>{});
  variant(star_t{}, "strips_8w_4r_min2", fixed_strip3d_tuning<8, 4, 64, 2>{});
  variant(star_t{}, "strips_4w_4r_min4_prefetch1", fixed_strip3d_tuning<4, 4, 32, 4, 1>{});
  variant(star_t{}, "strips_4w_4r_min4_prefetch2", fixed_strip3d_tuning<4, 4, 32, 4, 2>{});
  variant(star_t{}, "strips_4w_4r_min4_prefetch3", fixed_strip3d_tuning<4, 4, 32, 4, 3>{});
  variant(star_t{}, "strips_4w_4r_min4_prefetch4", fixed_strip3d_tuning<4, 4, 32, 4, 4>{});
  variant(box_t{}, "strips_4w_1r_min4", fixed_strip3d_tuning<4, 1, 64, 4, 2>{});
  variant(box_t{}, "strips_4w_2r_min2", fixed_strip3d_tuning<4, 2, 64, 2, 2>{});
  variant(box_t{}, "strips_4w_4r_min2", fixed_strip3d_tuning<4, 4, 64, 2, 2>{});
  variant(box_t{}, "strips_4w_2r_min3_z64", fixed_strip3d_tuning<4, 2, 64, 3, 2>{});
  variant(box_t{}, "strips_4w_2r_min3_z128", fixed_strip3d_tuning<4, 2, 128, 3, 2>{});
  variant(box_t{}, "strips_4w_2r_min3_no_prefetch", fixed_strip3d_tuning<4, 2, 32, 3>{});
  variant(box_t{}, "strips_4w_2r_min3_prefetch1", fixed_strip3d_tuning<4, 2, 32, 3, 1>{});
  variant(box_t{}, "strips_4w_2r_min3_prefetch3", fixed_strip3d_tuning<4, 2, 32, 3, 3>{});
  // The order of the strips: planned for one layer of strips (4 x 127 for the star at 512^3, 4 x
  // 255 for the box) it is chunk after chunk, the order before 2026-11-27 (thirtieth session);
  // other numbers of warps around the device's (2112 and 1584 on an H100).
  variant(star_t{}, "strips_4w_4r_min4_chunk_order", fixed_strip3d_tuning<4, 4, 32, 4, 0, 508>{});
  variant(star_t{}, "strips_4w_4r_min4_order1524", fixed_strip3d_tuning<4, 4, 32, 4, 0, 1524>{});
  variant(star_t{}, "strips_4w_4r_min4_order2540", fixed_strip3d_tuning<4, 4, 32, 4, 0, 2540>{});
  variant(star_t{}, "strips_4w_4r_min4_z16", fixed_strip3d_tuning<4, 4, 16, 4>{});
  variant(star_t{}, "strips_4w_4r_min4_z24", fixed_strip3d_tuning<4, 4, 24, 4>{});
  variant(star_t{}, "strips_4w_4r_min4_z48", fixed_strip3d_tuning<4, 4, 48, 4>{});
  variant(box_t{}, "strips_4w_2r_min3_chunk_order", fixed_strip3d_tuning<4, 2, 32, 3, 2, 1020>{});
  variant(box_t{}, "strips_4w_2r_min3_order700", fixed_strip3d_tuning<4, 2, 32, 3, 2, 700>{});
  variant(box_t{}, "strips_4w_2r_min3_order2040", fixed_strip3d_tuning<4, 2, 32, 3, 2, 2040>{});
  variant(box_t{}, "strips_4w_2r_min3_order3060", fixed_strip3d_tuning<4, 2, 32, 3, 2, 3060>{});
  variant(star_t{}, "ring_tile_32x4x4_min8", fixed_stencil3d_tuning<32, 4, 4, 64, 8>{});
  // Family "stencil3d_7pt_flat": the 7-point star over 64 planes of 2048^2 floats (periodic), 16 x
  // 511 strips a layer, more than an H100's warps at work (blocks of strips).
  const arg_list flat = {{2048, 64}};
  add(opt, "stencil3d_7pt_flat", "cudaMemcpyAsync", role::baseline, copy_grid3d_bench<true>, flat,
      {"side", "depth"});
  add(opt, "stencil3d_7pt_flat", "gpuprims::apply_stencil3d", role::default_,
      stencil3d_bench<stencil_shape::star, stencil3d_tuning, true>, flat, {"side", "depth"});
  add(opt, "stencil3d_7pt_flat", "strips_4w_4r_min4_chunk_order", role::variant,
      stencil3d_bench<stencil_shape::star, fixed_strip3d_tuning<4, 4, 32, 4, 0, 16 * 511>, true>,
      flat, {"side", "depth"});
  variant(box_t{}, "ring_tile_32x4x4_min4", fixed_stencil3d_tuning<32, 4, 4, 64, 4>{});
}

}  // namespace gpuprims::bench
