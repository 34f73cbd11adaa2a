// The reduction benchmarks (docs/reduce.md). Bytes counted: the input, read once (the segments
// also write one float per segment).
//   "reduce_float": the device-wide gpuprims::reduce (caller workspace, and stream-ordered
//     workspace; and its kernel launched plainly, without the dependent launch) against
//     cub::DeviceReduce::Sum with its temporary storage allocated outside the timing;
//   "reduce_ladder_int" / "reduce_ladder_float": the reference notes' ladder, each rung a
//     block_reduce_algorithm driven as a device-wide reduction the way the notes drive it (one launch
//     per level, partials in between), then gpuprims::reduce and CUB. The integer family checks every
//     rung's sum against gpuprims::reduce before it is timed (integer sums do not depend on the
//     order), so a rung that computes the wrong thing reports an error, not a time;
//   "block_reduce_segments_<BlockSize>": block_reduce against cub::BlockReduce inside the same
//     one-block-per-segment kernel.
#include <gpuprims/reduce.cuh>

#include "support.cuh"

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace gpuprims::bench {
namespace {


using gpuprims::block_reduce_algorithm;

// How a thread gathers its value before the block reduces: one element (reduce0-2), two with the
// first add during load (reduce3-5), or a grid-stride loop over many pairs (reduce6, cascading).
enum class gather { one, two, cascade };

constexpr int ladder_block = 256;

template <block_reduce_algorithm Algorithm, gather Gather, class T>
__global__ void __launch_bounds__(ladder_block) ladder_kernel(const T* __restrict__ in, std::size_t n, T* out) {
  using reduce_t = gpuprims::block_reduce<ladder_block, gpuprims::plus<T>, T, Algorithm>;
  __shared__ typename reduce_t::storage storage;
  const std::size_t tid = threadIdx.x;
  T x = 0;
  if constexpr (Gather == gather::one) {
    const std::size_t i = blockIdx.x * std::size_t{ladder_block} + tid;
    x = i < n ? in[i] : T(0);
  } else {
    const std::size_t step = Gather == gather::two ? n : 2 * std::size_t{ladder_block} * gridDim.x;
    for (std::size_t i = blockIdx.x * 2 * std::size_t{ladder_block} + tid; i < n; i += step) {
      x += in[i];
      if (i + ladder_block < n) {
        x += in[i + ladder_block];
      }
    }
  }
  const T total = reduce_t(storage).reduce(x);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = total;
  }
}

// One launch per level until one value is left; `partials` holds two levels (ping-pong).
template <block_reduce_algorithm Algorithm, gather Gather, class T>
cudaError_t ladder_reduce(const T* in, std::size_t n, T* out, T* partials, std::size_t level_capacity,
                          unsigned int cascade_blocks, cudaStream_t stream) {
  T* levels[2] = {partials, partials + level_capacity};
  int next = 0;
  const std::size_t per_block = Gather == gather::one ? ladder_block : 2 * ladder_block;
  while (true) {
    std::size_t blocks = (n + per_block - 1) / per_block;
    if (Gather == gather::cascade && blocks > cascade_blocks) {
      blocks = cascade_blocks;
    }
    T* level_out = blocks == 1 ? out : levels[next];
    ladder_kernel<Algorithm, Gather><<<static_cast<unsigned int>(blocks), ladder_block, 0, stream>>>(in, n, level_out);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess || blocks == 1) {
      return e;
    }
    in = level_out;
    n = blocks;
    next ^= 1;
  }
}

template <block_reduce_algorithm Algorithm, gather Gather, class T>
void ladder_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  random_buffer in(n * sizeof(T), 31);
  const std::size_t capacity = n / ladder_block + 1;
  random_buffer scratch(2 * capacity * sizeof(T) + 2 * sizeof(T), 32);
  if (!in.ok() || !scratch.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  // reduce6: one full wave of resident blocks, each thread then sums n / (2 x threads) pairs.
  const auto cascade_blocks =
      static_cast<unsigned int>(prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / ladder_block));
  T* out = scratch.as<T>() + 2 * capacity;
  T* partials = scratch.as<T>();
  auto run = [&](cudaStream_t stream) {
    return ladder_reduce<Algorithm, Gather>(in.as<T>(), n, out, partials, capacity, cascade_blocks, stream);
  };
  if constexpr (std::is_integral_v<T>) {
    T* expected = out + 1;
    T got = 0, want = 1;
    if (run(0) != cudaSuccess ||
        gpuprims::reduce(in.as<T>(), n, expected, T(0), gpuprims::plus<T>{}, cudaStream_t{0}) != cudaSuccess ||
        cudaMemcpy(&got, out, sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(&want, expected, sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess || got != want) {
      state.SkipWithError("the rung's sum differs from gpuprims::reduce's");
      return;
    }
  }
  time_launches(state, n * sizeof(T), [&](cudaStream_t stream) {
    if (const cudaError_t e = run(stream); e != cudaSuccess) {
      state.SkipWithError(cudaGetErrorString(e));
    }
  });
}

// gpuprims::reduce's kernel in the shape gpuprims::reduce picks, launched with <<<>>>: no
// programmatic dependent launch, so each call starts only after the one before it has finished.
// The difference to "gpuprims::reduce" is what the dependent launch buys between back-to-back calls.
template <int BlockThreads, int Unroll, class T>
cudaError_t reduce_plain_launch(const T* in, std::size_t n, T* out, void* workspace, cudaStream_t stream) {
  using namespace gpuprims::detail;
  static_assert(reduce_small.waves == 1 && reduce_large.waves == 1, "reduce_plain_launch sizes one wave");
  std::size_t max_blocks = 0;
  GPUPRIMS_RETURN_IF_ERROR((reduce_max_blocks<BlockThreads, 1>(max_blocks)));
  constexpr std::size_t per_block = std::size_t{BlockThreads} * Unroll;
  std::size_t blocks = (reduce_owners(in, n) + per_block - 1) / per_block;
  blocks = blocks < max_blocks ? blocks : max_blocks;
  auto* bytes = static_cast<unsigned char*>(workspace);
  reduce_single_pass_kernel<gpuprims::block_reduce<BlockThreads, gpuprims::plus<T>, T>, BlockThreads, Unroll>
      <<<static_cast<unsigned int>(blocks), BlockThreads, 0, stream>>>(
          in, n, out, T(0), gpuprims::plus<T>{}, reinterpret_cast<T*>(bytes + reduce_partials_offset<T>()),
          reinterpret_cast<unsigned int*>(bytes));
  return cudaGetLastError();
}

// gpuprims::reduce with the caller's workspace; Plain: its kernel through reduce_plain_launch.
template <class T, bool Plain = false>
void reduce_default_bench(benchmark::State& state) {
  using gpuprims::detail::reduce_large;
  using gpuprims::detail::reduce_small;
  const auto n = static_cast<std::size_t>(state.range(0));
  std::size_t bytes = 0;
  random_buffer in(n * sizeof(T), 31);
  random_buffer out(sizeof(T), 33);
  if (gpuprims::reduce_workspace_bytes<T>(bytes) != cudaSuccess || !in.ok() || !out.ok()) {
    state.SkipWithError("setup failed");
    return;
  }
  device_scratch workspace(bytes);
  cudaMemset(workspace.p, 0, bytes);
  const bool small = n <= gpuprims::detail::reduce_small_max_bytes / sizeof(T);
  time_launches(state, n * sizeof(T), [&](cudaStream_t stream) {
    cudaError_t e = cudaSuccess;
    if constexpr (Plain) {
      constexpr auto run_small = reduce_plain_launch<reduce_small.block_threads, reduce_small.unroll, T>;
      constexpr auto run_large = reduce_plain_launch<reduce_large.block_threads, reduce_large.unroll, T>;
      e = (small ? run_small : run_large)(in.as<T>(), n, out.as<T>(), workspace.p, stream);
    } else {
      e = gpuprims::reduce(in.as<T>(), n, out.as<T>(), T(0), gpuprims::plus<T>{}, workspace.p, bytes, stream);
    }
    if (e != cudaSuccess) {
      state.SkipWithError(cudaGetErrorString(e));
    }
  });
}

template <class T>
void cub_sum_bench(benchmark::State& state) {
  const auto n = static_cast<std::int64_t>(state.range(0));
  std::size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), n);
  device_scratch temp(bytes);
  random_buffer in(static_cast<std::size_t>(n) * sizeof(T), 31);
  random_buffer out(sizeof(T), 33);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, static_cast<std::size_t>(n) * sizeof(T), [&](cudaStream_t stream) {
    std::size_t b = bytes;
    if (cub::DeviceReduce::Sum(temp.p, b, in.as<T>(), out.as<T>(), n, stream) != cudaSuccess) {
      state.SkipWithError("cub::DeviceReduce::Sum failed");
    }
  });
}

template <class T>
void add_ladder(const options& opt, const std::string& family, std::int64_t n) {
  auto one = [&](const char* name, void (*fn)(benchmark::State&), bool baseline = false) {
    add(opt, family, name, baseline, fn)->Arg(n)->ArgName("n");
  };
  one("reduce0_interleaved_modulo", ladder_bench<block_reduce_algorithm::interleaved_modulo, gather::one, T>);
  one("reduce1_interleaved_strided", ladder_bench<block_reduce_algorithm::interleaved_strided, gather::one, T>);
  one("reduce2_sequential", ladder_bench<block_reduce_algorithm::sequential, gather::one, T>);
  one("reduce3_first_add_during_load", ladder_bench<block_reduce_algorithm::sequential, gather::two, T>);
  one("reduce4_unrolled_last_warp", ladder_bench<block_reduce_algorithm::unrolled_last_warp, gather::two, T>);
  one("reduce5_complete_unroll", ladder_bench<block_reduce_algorithm::complete_unroll, gather::two, T>);
  one("reduce6_cascading", ladder_bench<block_reduce_algorithm::complete_unroll, gather::cascade, T>);
  one("warp_shuffle_cascading", ladder_bench<block_reduce_algorithm::warp_shuffle, gather::cascade, T>);
  one("gpuprims::reduce", reduce_default_bench<T>);
  one("cub::DeviceReduce::Sum", cub_sum_bench<T>, true);
}

// gpuprims::reduce's stream-ordered overload: its workspace allocation is part of each call.
void reduce_stream_ordered_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  random_buffer in(n * sizeof(float), 31);
  random_buffer out(sizeof(float), 33);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, n * sizeof(float), [&](cudaStream_t stream) {
    if (gpuprims::reduce(in.as<float>(), n, out.as<float>(), 0.0f, gpuprims::plus<float>{}, stream) != cudaSuccess) {
      state.SkipWithError("gpuprims::reduce failed");
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
  add(opt, "reduce_float", "cub::DeviceReduce::Sum", true, cub_sum_bench<float>)->ArgsProduct({sizes})->ArgNames({"n"});
  add(opt, "reduce_float", "gpuprims::reduce", false, reduce_default_bench<float>)
      ->ArgsProduct({sizes})
      ->ArgNames({"n"});
  add(opt, "reduce_float", "gpuprims::reduce_plain_launch", false, reduce_default_bench<float, true>)
      ->ArgsProduct({sizes})
      ->ArgNames({"n"});
  add(opt, "reduce_float", "gpuprims::reduce_stream_ordered", false, reduce_stream_ordered_bench)
      ->ArgsProduct({sizes})
      ->ArgNames({"n"});
  add_segments<128>(opt);
  add_segments<256>(opt);
  add_segments<1024>(opt);
  add_ladder<int>(opt, "reduce_ladder_int", std::int64_t{1} << 22);
  add_ladder<float>(opt, "reduce_ladder_float", std::int64_t{1} << 28);
}

}  // namespace gpuprims::bench
