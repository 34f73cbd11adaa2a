// Families "stencil_rad<R>": gpuprims::apply_stencil1d (the default, weights passed by value)
// against cudaMemcpyAsync of the same bytes (the limit: a stencil reads and writes each element
// once). The quick set measures radius 3 and 16; --full radii 1, 3, 8 and 16, and the same kernel
// with the weights read from __constant__ memory (the design choice behind passing them by value).
// The ladder's rungs register into the same families (ladder/stencil.cu).
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
}

}  // namespace gpuprims::bench
