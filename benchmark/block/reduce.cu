// Families "block_reduce_segments_<BlockSize>": block_reduce against cub::BlockReduce inside the
// same one-block-per-segment kernel, one item per thread: the block-level reduction is the only
// difference between the two kernels. Bytes counted: the segments read and one float written per
// segment. The quick set measures 256-thread blocks; --full also 128 and 1024.
#include <gpuprims/block/reduce.cuh>

#include "../support.cuh"

#include <cub/block/block_reduce.cuh>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpuprims::bench {
namespace {

template <int BlockSize>
__global__ void __launch_bounds__(BlockSize)
    segments_gpuprims(const float* __restrict__ in, float* out) {
  using reduce_t = gpuprims::block_reduce<BlockSize, gpuprims::plus<float>>;
  __shared__ typename reduce_t::storage storage;
  const float x = in[blockIdx.x * std::size_t{BlockSize} + threadIdx.x];
  const float total = reduce_t(storage).reduce(x);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = total;
  }
}

template <int BlockSize>
__global__ void __launch_bounds__(BlockSize)
    segments_cub(const float* __restrict__ in, float* out) {
  using reduce_t = cub::BlockReduce<float, BlockSize>;
  __shared__ typename reduce_t::TempStorage storage;
  const float x = in[blockIdx.x * std::size_t{BlockSize} + threadIdx.x];
  const float total = reduce_t(storage).Sum(x);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = total;
  }
}

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
    kernel<<<static_cast<unsigned int>(segments), BlockSize, 0, stream>>>(in.as<float>(),
                                                                          out.as<float>());
  });
}

template <int BlockSize>
void add_segments(const options& opt) {
  const std::string family = "block_reduce_segments_" + std::to_string(BlockSize);
  const arg_list segments = each({std::int64_t{1} << 20});
  add(opt, family, "cub::BlockReduce", role::baseline,
      [](benchmark::State& state) { segments_bench<BlockSize>(state, segments_cub<BlockSize>); },
      segments, {"segments"});
  add(opt, family, "gpuprims::block_reduce", role::default_,
      [](benchmark::State& state) {
        segments_bench<BlockSize>(state, segments_gpuprims<BlockSize>);
      },
      segments, {"segments"});
}

}  // namespace

void register_block_reduce(const options& opt) {
  add_segments<256>(opt);
  if (opt.full) {
    add_segments<128>(opt);
    add_segments<1024>(opt);
  }
}

}  // namespace gpuprims::bench
