// What the scan benchmarks share: gpuprims::inclusive_scan with the caller's workspace (zeroed once
// outside the timing), optionally timed beside CUB, and cub::DeviceScan::InclusiveSum with its
// temporary storage allocated outside the timing, both over state.range(0) random items of T.
#pragma once

#include <gpuprims/device/scan.cuh>

#include "support.cuh"

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <cstdint>

namespace gpuprims::bench {

// BesideCub: each batch timed beside a batch of cub::DeviceScan::InclusiveSum on the same input
// (time_launches_paired): `ratio` is the scan's time over CUB's, measured where both see the same
// host and GPU. At 2^16-2^20 a launch costs a few us and CUB's row moves by 10-20% from run to run.
template <class T, class Tuning = scan_tuning, bool BesideCub = false>
void scan_default_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::size_t bytes = 0;
  random_buffer in(n * sizeof(T), 31);
  device_scratch out(n * sizeof(T));
  if (gpuprims::scan_workspace_bytes<T, T, Tuning>(n, bytes) != cudaSuccess || !in.ok() ||
      out.p == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  device_scratch workspace(bytes);
  if (cudaMemset(workspace.p, 0, bytes) != cudaSuccess) {
    state.SkipWithError("workspace");
    return;
  }
  const auto scan = [&](cudaStream_t stream) {
    skip_on_error(state, gpuprims::inclusive_scan<Tuning>(in.as<T>(), static_cast<T*>(out.p), n,
                                                          plus<T>{}, workspace.p, bytes, stream));
  };
  if constexpr (BesideCub) {
    std::size_t cub_bytes = 0;
    cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, static_cast<const T*>(nullptr),
                                  static_cast<T*>(nullptr), static_cast<std::int64_t>(n));
    device_scratch cub_out(n * sizeof(T)), cub_temp(cub_bytes);
    if (cub_out.p == nullptr || cub_temp.p == nullptr) {
      state.SkipWithError("setup failed");
      return;
    }
    time_launches_paired(state, 2 * n * sizeof(T), scan, [&](cudaStream_t stream) {
      std::size_t b = cub_bytes;
      skip_on_error(state, cub::DeviceScan::InclusiveSum(cub_temp.p, b, in.as<T>(),
                                                         static_cast<T*>(cub_out.p),
                                                         static_cast<std::int64_t>(n), stream));
    });
  } else {
    time_launches(state, 2 * n * sizeof(T), scan);
  }
}

template <class T>
void cub_scan_bench(benchmark::State& state) {
  const auto n = static_cast<std::int64_t>(state.range(0));
  std::size_t bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const T*>(nullptr),
                                static_cast<T*>(nullptr), n);
  device_scratch temp(bytes);
  random_buffer in(static_cast<std::size_t>(n) * sizeof(T), 31);
  device_scratch out(static_cast<std::size_t>(n) * sizeof(T));
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, 2 * static_cast<std::size_t>(n) * sizeof(T), [&](cudaStream_t stream) {
    std::size_t b = bytes;
    skip_on_error(state, cub::DeviceScan::InclusiveSum(temp.p, b, in.as<T>(),
                                                       static_cast<T*>(out.p), n, stream));
  });
}

}  // namespace gpuprims::bench
