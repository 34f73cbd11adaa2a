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

template <class T, class Tuning = reduce_tuning, class Op = gpuprims::plus<T>>
void reduce_default_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::size_t bytes = 0;
  random_buffer in(n * sizeof(T), 31);
  random_buffer out(sizeof(T), 33);
  if (gpuprims::reduce_workspace_bytes<T, T, Tuning>(n, bytes) != cudaSuccess || !in.ok() ||
      !out.ok()) {
    state.SkipWithError("setup failed");
    return;
  }
  device_scratch workspace(bytes);
  time_launches(state, n * sizeof(T), [&](cudaStream_t stream) {
    skip_on_error(state, gpuprims::reduce<Tuning>(in.as<T>(), out.as<T>(), n, Op::identity(), Op{},
                                                  workspace.p, bytes, stream));
  });
}

// cub::DeviceReduce::Sum, Min or Max by Kind.
enum class cub_reduce { sum, min, max };

template <class T, cub_reduce Kind = cub_reduce::sum>
void cub_reduce_bench(benchmark::State& state) {
  const auto n = static_cast<std::int64_t>(state.range(0));
  const auto run = [n](void* temp, std::size_t& bytes, const T* in, T* out, cudaStream_t s) {
    if constexpr (Kind == cub_reduce::sum) {
      return cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
    } else if constexpr (Kind == cub_reduce::min) {
      return cub::DeviceReduce::Min(temp, bytes, in, out, n, s);
    } else {
      return cub::DeviceReduce::Max(temp, bytes, in, out, n, s);
    }
  };
  std::size_t bytes = 0;
  run(nullptr, bytes, nullptr, nullptr, 0);
  device_scratch temp(bytes);
  random_buffer in(static_cast<std::size_t>(n) * sizeof(T), 31);
  random_buffer out(sizeof(T), 33);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, static_cast<std::size_t>(n) * sizeof(T), [&](cudaStream_t stream) {
    std::size_t b = bytes;
    skip_on_error(state, run(temp.p, b, in.as<T>(), out.as<T>(), stream));
  });
}

template <class T>
void cub_sum_bench(benchmark::State& state) {
  cub_reduce_bench<T, cub_reduce::sum>(state);
}

// cudaMemcpyAsync of n items' bytes: the bandwidth a pass over them can reach. Bytes counted: read
// and written.
template <class T>
void time_input_copy(benchmark::State& state, std::size_t n) {
  random_buffer in(n * sizeof(T), 31);
  device_scratch out(n * sizeof(T));
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, 2 * n * sizeof(T), [&](cudaStream_t stream) {
    skip_on_error(
        state, cudaMemcpyAsync(out.p, in.as<T>(), n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  });
}

// The copy of state.range(0) items.
template <class T>
void copy_input_bench(benchmark::State& state) {
  time_input_copy<T>(state, static_cast<std::size_t>(state.range(0)));
}

}  // namespace gpuprims::bench
