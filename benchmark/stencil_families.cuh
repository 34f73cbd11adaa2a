// What the stencil benchmarks share (benchmark/device and ladder register into the same families
// "stencil_rad<R>", so that every row is measured against the same baseline): asymmetric weights,
// the sizes, and the timed loop. Bytes counted: n floats read and n written. Clamp boundary.
#pragma once

#include <gpuprims/types.cuh>

#include "support.cuh"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace gpuprims::bench {

template <int Rad>
gpuprims::stencil_weights<float, Rad> some_weights() {
  gpuprims::stencil_weights<float, Rad> w{};
  for (int j = 0; j <= 2 * Rad; ++j) {
    w.w[j] = 0.5f / static_cast<float>(j + 1) - 0.1f;  // asymmetric, as a real filter may be
  }
  return w;
}

using stencil_run =
    std::function<cudaError_t(const float* in, float* out, std::size_t n, cudaStream_t stream)>;

inline void stencil_bench(benchmark::State& state, const stencil_run& run) {
  const auto n = static_cast<std::size_t>(state.range(0));
  random_buffer in(n * sizeof(float), 41);
  random_buffer out(n * sizeof(float), 42);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, 2 * n * sizeof(float), [&](cudaStream_t stream) {
    skip_on_error(state, run(in.as<float>(), out.as<float>(), n, stream));
  });
}

// The sizes of the stencil families: the quick set at 2^24 and 2^28 floats, --full from 2^20.
inline arg_list stencil_sizes(const options& opt) {
  return opt.full ? each({std::int64_t{1} << 20, std::int64_t{1} << 24, std::int64_t{1} << 28})
                  : each({std::int64_t{1} << 24, std::int64_t{1} << 28});
}

// Registers `run` in family stencil_rad<Rad>.
template <int Rad>
void add_stencil(const options& opt, const std::string& variant, role r, stencil_run run) {
  add(opt, "stencil_rad" + std::to_string(Rad), variant, r,
      [run](benchmark::State& state) { stencil_bench(state, run); }, stencil_sizes(opt), {"n"});
}

}  // namespace gpuprims::bench
