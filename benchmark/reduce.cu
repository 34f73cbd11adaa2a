// Family "reduce_float": the device-wide gpuprims::reduce (caller workspace, and stream-ordered
// workspace) against cub::DeviceReduce::Sum with its temporary storage allocated outside the timing.
// Bytes counted: the input, read once. Families "block_reduce_segments_<BlockSize>": block_reduce
// against cub::BlockReduce inside the same one-block-per-segment kernel.
#include <gpuprims/reduce.cuh>

#include "support.cuh"

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
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

// One block per segment of BlockSize floats, one item per thread: the block-level reduction is
// the only difference between the two kernels.
template <int BlockSize>
__global__ void __launch_bounds__(BlockSize) segments_gpuprims(const float* __restrict__ in, float* out) {
  using reduce_t = gpuprims::block_reduce<BlockSize, gpuprims::plus<float>>;
  __shared__ typename reduce_t::storage storage;
  const float x = in[blockIdx.x * std::size_t{BlockSize} + threadIdx.x];
  const float total = reduce_t(storage).reduce(x);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = total;
  }
}

template <int BlockSize>
__global__ void __launch_bounds__(BlockSize) segments_cub(const float* __restrict__ in, float* out) {
  using reduce_t = cub::BlockReduce<float, BlockSize>;
  __shared__ typename reduce_t::TempStorage storage;
  const float x = in[blockIdx.x * std::size_t{BlockSize} + threadIdx.x];
  const float total = reduce_t(storage).Sum(x);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = total;
  }
}

// Bytes counted: the segments read and one float written per segment.
template <int BlockSize>
void segments_bench(benchmark::State& state, void (*kernel)(const float*, float*)) {
  const auto segments = static_cast<std::size_t>(state.range(0));
  random_buffer in(segments * BlockSize * sizeof(float), 23);
  random_buffer out(segments * sizeof(float), 24);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, (segments * BlockSize + segments) * sizeof(float), [&](cudaStream_t stream) {
    kernel<<<static_cast<unsigned int>(segments), BlockSize, 0, stream>>>(in.as<float>(), out.as<float>());
  });
}

template <int BlockSize>
void add_segments(const options& opt) {
  const std::string family = "block_reduce_segments_" + std::to_string(BlockSize);
  add(opt, family, "cub::BlockReduce", true, [](benchmark::State& state) {
    segments_bench<BlockSize>(state, segments_cub<BlockSize>);
  })->Arg(std::int64_t{1} << 20)->ArgName("segments");
  add(opt, family, "gpuprims::block_reduce", false, [](benchmark::State& state) {
    segments_bench<BlockSize>(state, segments_gpuprims<BlockSize>);
  })->Arg(std::int64_t{1} << 20)->ArgName("segments");
}

}  // namespace

void register_reduce(const options& opt) {
  const std::vector<std::int64_t> sizes = {std::int64_t{1} << 16, std::int64_t{1} << 20, std::int64_t{1} << 24,
                                           std::int64_t{1} << 28};
  add(opt, "reduce_float", "cub::DeviceReduce::Sum", true, [](benchmark::State& state) {
    std::size_t bytes = 0;
    cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr),
                           static_cast<std::int64_t>(state.range(0)));
    device_scratch temp(bytes);
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
    device_scratch workspace(bytes);
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
  add_segments<128>(opt);
  add_segments<256>(opt);
  add_segments<1024>(opt);
}

}  // namespace gpuprims::bench
