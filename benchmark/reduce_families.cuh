// What the reduction benchmarks share: gpuprims::reduce with the caller's workspace and
// cub::DeviceReduce::Sum with its temporary storage allocated outside the timing, both timed over
// state.range(0) random elements of T.
#pragma once

#include <gpuprims/device/reduce.cuh>

#include "support.cuh"

#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <cstdint>

namespace gpuprims::bench {

template <class T, class Tuning = reduce_tuning>
void reduce_default_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::size_t bytes = 0;
  random_buffer in(n * sizeof(T), 31);
  random_buffer out(sizeof(T), 33);
  if (gpuprims::reduce_workspace_bytes<T, Tuning>(bytes) != cudaSuccess || !in.ok() || !out.ok()) {
    state.SkipWithError("setup failed");
    return;
  }
  device_scratch workspace(bytes);
  cudaMemset(workspace.p, 0, bytes);
  time_launches(state, n * sizeof(T), [&](cudaStream_t stream) {
    skip_on_error(state, gpuprims::reduce<Tuning>(in.as<T>(), out.as<T>(), n, T(0),
                                                  gpuprims::plus<T>{}, workspace.p, bytes, stream));
  });
}

template <class T>
void cub_sum_bench(benchmark::State& state) {
  const auto n = static_cast<std::int64_t>(state.range(0));
  std::size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                         n);
  device_scratch temp(bytes);
  random_buffer in(static_cast<std::size_t>(n) * sizeof(T), 31);
  random_buffer out(sizeof(T), 33);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, static_cast<std::size_t>(n) * sizeof(T), [&](cudaStream_t stream) {
    std::size_t b = bytes;
    skip_on_error(state, cub::DeviceReduce::Sum(temp.p, b, in.as<T>(), out.as<T>(), n, stream));
  });
}

}  // namespace gpuprims::bench
