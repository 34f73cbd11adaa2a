// Family "reduce_float": the device-wide gpuprims::reduce (caller workspace, and stream-ordered
// workspace) against cub::DeviceReduce::Sum with its temporary storage allocated outside the timing.
// Bytes counted: the input, read once.
#include <gpuprims/reduce.cuh>

#include "support.cuh"

#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpuprims::bench {
namespace {

void reduce_bench(benchmark::State& state, const std::function<cudaError_t(const float*, std::size_t, float*, cudaStream_t)>& run) {
  const auto n = static_cast<std::size_t>(state.range(0));
  random_buffer in(n * sizeof(float), 21);
  random_buffer out(sizeof(float), 22);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, n * sizeof(float), [&](cudaStream_t stream) {
    const cudaError_t status = run(in.as<float>(), n, out.as<float>(), stream);
    if (status != cudaSuccess) {
      state.SkipWithError(cudaGetErrorString(status));
    }
  });
}

// A device allocation that frees itself.
struct scratch {
  void* p = nullptr;
  explicit scratch(std::size_t bytes) { cudaMalloc(&p, bytes == 0 ? 1 : bytes); }
  ~scratch() { cudaFree(p); }
};

}  // namespace

void register_reduce(const options& opt) {
  const std::vector<std::int64_t> sizes = {std::int64_t{1} << 16, std::int64_t{1} << 20, std::int64_t{1} << 24,
                                           std::int64_t{1} << 28};
  add(opt, "reduce_float", "cub::DeviceReduce::Sum", true, [](benchmark::State& state) {
    std::size_t bytes = 0;
    cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr),
                           static_cast<std::int64_t>(state.range(0)));
    scratch temp(bytes);
    reduce_bench(state, [&](const float* in, std::size_t n, float* out, cudaStream_t s) {
      std::size_t b = bytes;
      return cub::DeviceReduce::Sum(temp.p, b, in, out, static_cast<std::int64_t>(n), s);
    });
  })->ArgsProduct({sizes})->ArgNames({"n"});
  add(opt, "reduce_float", "gpuprims::reduce", false, [](benchmark::State& state) {
    std::size_t bytes = 0;
    if (gpuprims::reduce_workspace_bytes<float>(bytes) != cudaSuccess) {
      state.SkipWithError("reduce_workspace_bytes failed");
      return;
    }
    scratch workspace(bytes);
    cudaMemset(workspace.p, 0, bytes);
    reduce_bench(state, [&](const float* in, std::size_t n, float* out, cudaStream_t s) {
      return gpuprims::reduce(in, n, out, 0.0f, gpuprims::plus<float>{}, workspace.p, bytes, s);
    });
  })->ArgsProduct({sizes})->ArgNames({"n"});
  add(opt, "reduce_float", "gpuprims::reduce_stream_ordered", false, [](benchmark::State& state) {
    reduce_bench(state, [](const float* in, std::size_t n, float* out, cudaStream_t s) {
      return gpuprims::reduce(in, n, out, 0.0f, gpuprims::plus<float>{}, s);
    });
  })->ArgsProduct({sizes})->ArgNames({"n"});
}

}  // namespace gpuprims::bench
