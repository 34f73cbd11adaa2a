// Families "stencil_rad<R>": every rung of the stencil ladder and the default, with weights passed by
// value and kept in __constant__ memory, against cudaMemcpyAsync of the same bytes (the limit: a
// stencil reads and writes each element once); the naive rung is the ladder's first step. Bytes counted: n floats read
// and n written. Clamp boundary.
#include <gpuprims/stencil.cuh>

#include "support.cuh"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace gpuprims::bench {
namespace {

using gpuprims::stencil_algorithm;

__constant__ float constant_weights_storage[33];

// Weights read from __constant__ memory instead of the kernel's parameters.
template <int Rad>
struct constant_weights {
  __device__ float operator[](int j) const { return constant_weights_storage[j]; }
};

template <int Rad>
gpuprims::stencil_weights<float, Rad> some_weights() {
  gpuprims::stencil_weights<float, Rad> w{};
  for (int j = 0; j <= 2 * Rad; ++j) {
    w.w[j] = 0.5f / static_cast<float>(j + 1) - 0.1f;  // asymmetric, as a real filter may be
  }
  return w;
}

template <class Run>
void stencil_bench(benchmark::State& state, Run run) {
  const auto n = static_cast<std::size_t>(state.range(0));
  random_buffer in(n * sizeof(float), 41);
  random_buffer out(n * sizeof(float), 42);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, 2 * n * sizeof(float), [&](cudaStream_t stream) {
    if (const cudaError_t e = run(in.as<float>(), out.as<float>(), n, stream); e != cudaSuccess) {
      state.SkipWithError(cudaGetErrorString(e));
    }
  });
}

template <int Rad>
void add_family(const options& opt, const std::vector<std::int64_t>& sizes) {
  const std::string family = "stencil_rad" + std::to_string(Rad);
  auto variant = [&](const char* name, bool baseline, auto run) {
    add(opt, family, name, baseline, [run](benchmark::State& st) { stencil_bench(st, run); })
        ->ArgsProduct({sizes})
        ->ArgName("n");
  };
  auto rung = [](auto algorithm_constant) {
    return [](const float* in, float* out, std::size_t n, cudaStream_t s) {
      return gpuprims::stencil1d<Rad, decltype(algorithm_constant)::value>(in, out, n, some_weights<Rad>(),
                                                                           gpuprims::boundary::clamp(), s);
    };
  };
  variant("cudaMemcpyAsync", true, [](const float* in, float* out, std::size_t n, cudaStream_t s) {
    return cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
  });
  variant("naive", false, rung(std::integral_constant<stencil_algorithm, stencil_algorithm::naive>{}));
  variant("shared_halo", false, rung(std::integral_constant<stencil_algorithm, stencil_algorithm::shared_halo>{}));
  variant("shared_vectorized", false,
          rung(std::integral_constant<stencil_algorithm, stencil_algorithm::shared_vectorized>{}));
  variant("gpuprims::stencil1d", false, rung(std::integral_constant<stencil_algorithm, stencil_algorithm::automatic>{}));
  add(opt, family, "shared_vectorized_constant_weights", false, [sizes](benchmark::State& st) {
    const auto w = some_weights<Rad>();
    if (cudaMemcpyToSymbol(constant_weights_storage, w.w, sizeof(w.w)) != cudaSuccess) {
      st.SkipWithError("cudaMemcpyToSymbol failed");
      return;
    }
    stencil_bench(st, [](const float* in, float* out, std::size_t n, cudaStream_t s) {
      return gpuprims::stencil1d<Rad, stencil_algorithm::shared_vectorized>(in, out, n, constant_weights<Rad>{},
                                                                            gpuprims::boundary::clamp(), s);
    });
  })->ArgsProduct({sizes})->ArgName("n");
}

}  // namespace

void register_stencil(const options& opt) {
  const std::vector<std::int64_t> sizes = {std::int64_t{1} << 20, std::int64_t{1} << 24, std::int64_t{1} << 28};
  add_family<1>(opt, sizes);
  add_family<3>(opt, sizes);
  add_family<8>(opt, sizes);
  add_family<16>(opt, sizes);
}

}  // namespace gpuprims::bench
