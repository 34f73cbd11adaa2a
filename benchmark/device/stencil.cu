// Families "stencil_rad<R>": gpuprims::apply_stencil1d (the default, weights passed by value)
// against cudaMemcpyAsync of the same bytes (the limit: a stencil reads and writes each element
// once). The quick set measures radius 3 and 16; --full radii 1, 3, 8 and 16, and the same kernel
// with the weights read from __constant__ memory (the design choice behind passing them by value).
// The ladder's rungs register into the same families (ladder/stencil.cu). Families
// "stencil1d_fused_rad<R>_steps<S>": temporal blocking (below).
#include <gpuprims/stencil.cuh>

#include "../stencil_families.cuh"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpuprims::bench {
namespace {

__constant__ float constant_weights_storage[33];

// Weights read from __constant__ memory instead of the kernel's parameters.
template <int Rad>
struct constant_weights {
  static constexpr int radius = Rad;
  __device__ float operator[](int j) const { return constant_weights_storage[j]; }
};

// Another tile for apply_stencil1d (--full): Threads threads with Items floats each, registers
// kept for as many resident blocks as the library's policy keeps for that tile.
template <int Threads, int Items>
struct stencil_tile_tuning {
  __host__ __device__ static constexpr stencil_policy select(int arch, std::size_t element_size,
                                                             int) {
    return {Threads, Items, stencil_tuning::min_blocks_for(arch, element_size, Items, Threads),
            true};
  }
};

template <int Rad, int Threads, int Items>
void add_tile_variant(const options& opt) {
  add_stencil<Rad>(opt, "tile_" + std::to_string(Threads) + "x" + std::to_string(Items),
                   role::variant, [](const float* in, float* out, std::size_t n, cudaStream_t s) {
                     return gpuprims::apply_stencil1d<Rad, stencil_tile_tuning<Threads, Items>>(
                         in, out, n, some_weights<Rad>(), gpuprims::boundary::clamp(), s);
                   });
}

template <int Rad>
void add_family(const options& opt) {
  add_stencil<Rad>(opt, "cudaMemcpyAsync", role::baseline,
                   [](const float* in, float* out, std::size_t n, cudaStream_t s) {
                     return cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice,
                                            s);
                   });
  add_stencil<Rad>(opt, "gpuprims::apply_stencil1d", role::default_,
                   [](const float* in, float* out, std::size_t n, cudaStream_t s) {
                     return gpuprims::apply_stencil1d<Rad>(in, out, n, some_weights<Rad>(),
                                                           gpuprims::boundary::clamp(), s);
                   });
  if (opt.full) {
    add(opt, "stencil_rad" + std::to_string(Rad), "constant_weights", role::variant,
        [](benchmark::State& state) {
          const auto w = some_weights<Rad>();
          if (cudaMemcpyToSymbol(constant_weights_storage, w.w, sizeof(w.w)) != cudaSuccess) {
            state.SkipWithError("cudaMemcpyToSymbol failed");
            return;
          }
          stencil_bench(state, [](const float* in, float* out, std::size_t n, cudaStream_t s) {
            return gpuprims::apply_stencil1d<Rad>(in, out, n, constant_weights<Rad>{},
                                                  gpuprims::boundary::clamp(), s);
          });
        },
        stencil_sizes(opt), {"n"});
    // Tiles around the policy's (256 x 8 floats up to radius 4 on sm_90, 256 x 4 on most others;
    // 256 x 16 above).
    add_tile_variant<Rad, 256, 4>(opt);
    add_tile_variant<Rad, 256, 8>(opt);
    add_tile_variant<Rad, 256, 16>(opt);
    add_tile_variant<Rad, 512, 8>(opt);
    add_tile_variant<Rad, 128, 16>(opt);
  }
}

// A fixed tile for the fused kernel in shared memory (--full): Threads threads with Items outputs
// each.
template <int Threads, int Items>
struct fused_tile_tuning {
  __host__ __device__ static constexpr stencil_policy select(int, std::size_t, int) {
    return {Threads, Items, 0, true};
  }
};

// The same, each warp stepping its tile in registers (stencil_policy::fused_in_registers), with
// registers for MinBlocks blocks an SM; Contiguous: each lane a run of Items elements
// (stencil_policy::fused_contiguous_lanes).
template <int Threads, int Items, int MinBlocks, bool Contiguous = false>
struct fused_registers_tuning {
  __host__ __device__ static constexpr stencil_policy select(int, std::size_t, int) {
    return {Threads, Items, MinBlocks, true, true, Contiguous};
  }
};

template <int Rad, int Steps, class Tuning>
void fused_bench(benchmark::State& state) {
  stencil_bench(state, [](const float* in, float* out, std::size_t n, cudaStream_t s) {
    return gpuprims::apply_stencil1d_fused<Rad, Steps, Tuning>(in, out, n, some_weights<Rad>(),
                                                               gpuprims::boundary::clamp(), s);
  });
}

// Family "stencil1d_fused_rad<R>_steps<S>": S steps of a radius-R stencil (clamp, asymmetric
// weights) over 2^28 floats (--full: 2^24 too): apply_stencil1d_fused (one pass) against
// apply_stencil1d called S times (through a scratch buffer, allocated outside the timing) and one
// cudaMemcpyAsync of the signal (the limit of one pass), and the fused kernel tiled as
// apply_stencil1d; --full adds other tiles. Bytes counted: one read and one write of the signal,
// what the fused pass must move; the S single steps move S times that.
template <int Rad, int Steps>
void add_fused_family(const options& opt) {
  const std::string family =
      "stencil1d_fused_rad" + std::to_string(Rad) + "_steps" + std::to_string(Steps);
  const arg_list sizes = opt.full ? each({std::int64_t{1} << 24, std::int64_t{1} << 28})
                                  : each({std::int64_t{1} << 28});
  add(opt, family, "cudaMemcpyAsync", role::baseline,
      [](benchmark::State& state) {
        stencil_bench(state, [](const float* in, float* out, std::size_t n, cudaStream_t s) {
          return cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        });
      },
      sizes, {"n"});
  add(opt, family, "apply_stencil1d x steps", role::baseline,
      [](benchmark::State& state) {
        device_scratch scratch(static_cast<std::size_t>(state.range(0)) * sizeof(float));
        if (scratch.p == nullptr) {
          state.SkipWithError("allocation failed");
          return;
        }
        stencil_bench(state, [&](const float* in, float* out, std::size_t n, cudaStream_t s) {
          const float* src = in;
          cudaError_t e = cudaSuccess;
          for (int k = 0; k < Steps && e == cudaSuccess; ++k) {
            float* dst = (Steps - 1 - k) % 2 == 0 ? out : static_cast<float*>(scratch.p);
            e = gpuprims::apply_stencil1d<Rad>(src, dst, n, some_weights<Rad>(),
                                               gpuprims::boundary::clamp(), s);
            src = dst;
          }
          return e;
        });
      },
      sizes, {"n"});
  add(opt, family, "gpuprims::apply_stencil1d_fused", role::default_,
      fused_bench<Rad, Steps, stencil_fused_tuning>, sizes, {"n"});
  // The shared-memory kernel tiled as apply_stencil1d (the default before stencil_fused_tuning).
  add(opt, family, "single_step_tiling", role::variant, fused_bench<Rad, Steps, stencil_tuning>,
      sizes, {"n"});
  if (opt.full) {
    add(opt, family, "tile_256x8", role::variant,
        fused_bench<Rad, Steps, fused_tile_tuning<256, 8>>, sizes, {"n"});
    // The shared-memory tile of the sm_90 default before each warp stepped in registers.
    add(opt, family, "tile_256x16", role::variant,
        fused_bench<Rad, Steps, fused_tile_tuning<256, 16>>, sizes, {"n"});
    add(opt, family, "tile_128x8", role::variant,
        fused_bench<Rad, Steps, fused_tile_tuning<128, 8>>, sizes, {"n"});
    add(opt, family, "tile_512x8", role::variant,
        fused_bench<Rad, Steps, fused_tile_tuning<512, 8>>, sizes, {"n"});
    // Lane l holding the vectors l, l + 32, ... (the default before 2026-11-29), and other shapes.
    add(opt, family, "strided_256x16", role::variant,
        fused_bench<Rad, Steps, fused_registers_tuning<256, 16, 4>>, sizes, {"n"});
    add(opt, family, "registers_256x16_5_blocks", role::variant,
        fused_bench<Rad, Steps, fused_registers_tuning<256, 16, 5>>, sizes, {"n"});
    add(opt, family, "registers_128x16", role::variant,
        fused_bench<Rad, Steps, fused_registers_tuning<128, 16, 8>>, sizes, {"n"});
    add(opt, family, "registers_256x32", role::variant,
        fused_bench<Rad, Steps, fused_registers_tuning<256, 32, 2>>, sizes, {"n"});
    add(opt, family, "registers_256x32_3_blocks", role::variant,
        fused_bench<Rad, Steps, fused_registers_tuning<256, 32, 3>>, sizes, {"n"});
    // Each lane a run of elements (the default since 2026-11-29: 128 x 16) in other shapes.
    add(opt, family, "contiguous_256x16_5_blocks", role::variant,
        fused_bench<Rad, Steps, fused_registers_tuning<256, 16, 5, true>>, sizes, {"n"});
    add(opt, family, "contiguous_256x16", role::variant,
        fused_bench<Rad, Steps, fused_registers_tuning<256, 16, 4, true>>, sizes, {"n"});
    add(opt, family, "contiguous_256x32_3_blocks", role::variant,
        fused_bench<Rad, Steps, fused_registers_tuning<256, 32, 3, true>>, sizes, {"n"});
    add(opt, family, "contiguous_256x24_3_blocks", role::variant,
        fused_bench<Rad, Steps, fused_registers_tuning<256, 24, 3, true>>, sizes, {"n"});
  }
}

}  // namespace

void register_stencil(const options& opt) {
  if (opt.full) {
    add_family<1>(opt);
  }
  add_family<3>(opt);
  if (opt.full) {
    add_family<8>(opt);
  }
  add_family<16>(opt);
  add_fused_family<1, 1>(opt);
  add_fused_family<1, 2>(opt);
  add_fused_family<1, 4>(opt);
  add_fused_family<1, 8>(opt);
  add_fused_family<3, 1>(opt);
  add_fused_family<3, 2>(opt);
  add_fused_family<3, 4>(opt);
  add_fused_family<3, 8>(opt);
}

}  // namespace gpuprims::bench
