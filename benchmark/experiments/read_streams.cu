// Experiment "read_streams" (--full only): why the segmented walk reads long segments at 1.08-1.15x
// CUB's time (notes/reduce.md, thirty-sixth session). 2^28 random floats summed by a kernel of the
// benchmark's own that reads as the walk does (each warp a group of 32 lanes x 4 16-byte words,
// registers capped for two blocks of 256 an SM; but two buffers in turn, so up to two groups in
// flight where the walk has one), in three orders and two layouts:
//   - streams: each warp its own contiguous run (as the walk: 4096 runs), each block its own run
//     with its warps taking turns along it, or every warp striding over the whole input;
//   - layout: a lane's 4 words consecutive (as the walk: a lane owns 16 consecutive items, so each
//     load instruction covers 16-byte pieces 64 bytes apart) or the warp's words consecutive (each
//     load instruction 512 contiguous bytes).
// The per-warp runs also come skewed: one or five groups more a run, so that the 4096 runs of
// 512 blocks no longer start a power of two bytes apart (the thirty-eighth session's finding:
// notes/reduce.md).
// Baselines: the library's reduce (workspace outside the timing) and the walk itself at segments of
// 2^20 items. Each warp writes its sum (nothing is left for the compiler to drop); not checked,
// it is not a result.
#include <gpuprims/device/reduce.cuh>
#include <gpuprims/device/segmented_reduce.cuh>

#include "../reduce_families.cuh"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpuprims::bench {
namespace {

constexpr std::size_t read_items = std::size_t{1} << 28;
constexpr int words = 4, warps_per_block = 8;
constexpr std::size_t group_words = 32 * words;  // 16-byte words a group

enum class streams { per_warp, per_block, strided };

template <streams S, bool LaneWords>
__global__ void __launch_bounds__(256, 2)
    read_streams_kernel(const float4* __restrict__ in, std::size_t groups, std::size_t skew,
                        float* out) {
  const unsigned int lane = threadIdx.x % 32, warp_in_block = threadIdx.x / 32;
  const std::size_t warps = std::size_t{gridDim.x} * warps_per_block,
                    warp = std::size_t{blockIdx.x} * warps_per_block + warp_in_block;
  std::size_t first = 0, step = 1, count = 0;
  if constexpr (S == streams::per_warp) {
    const std::size_t share = (groups + warps - 1) / warps + skew;
    first = warp * share;
    count = first < groups ? (groups - first < share ? groups - first : share) : 0;
  } else if constexpr (S == streams::per_block) {
    const std::size_t share = (groups + gridDim.x - 1) / gridDim.x,
                      begin = std::size_t{blockIdx.x} * share,
                      end = begin + share < groups ? begin + share : groups;
    first = begin + warp_in_block;
    step = warps_per_block;
    count = first < end ? (end - first + step - 1) / step : 0;
  } else {
    first = warp;
    step = warps;
    count = first < groups ? (groups - first + step - 1) / step : 0;
  }
  const auto load = [&](std::size_t i, float4(&v)[words]) {
    const float4* p = in + (first + i * step) * group_words;
#pragma unroll
    for (int k = 0; k < words; ++k) {
      v[k] = LaneWords ? p[lane * words + k] : p[k * 32 + lane];
    }
  };
  float acc = 0.f;
  const auto add = [&](const float4(&v)[words]) {
#pragma unroll
    for (int k = 0; k < words; ++k) {
      acc += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
  };
  // Two buffers taking turns (no register copy waiting on a load): a group's loads are issued as
  // soon as its buffer is added, so up to two groups are in flight (the walk copies its next
  // buffer into the current one and keeps one; its own try of two buffers was slower,
  // notes/reduce.md).
  float4 a[words], b[words];
  if (count > 0) {
    load(0, a);
  }
  for (std::size_t i = 0; i < count; i += 2) {
    if (i + 1 < count) {
      load(i + 1, b);
    }
    add(a);
    if (i + 2 < count) {
      load(i + 2, a);
    }
    if (i + 1 < count) {
      add(b);
    }
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  }
  if (lane == 0) {
    out[warp] = acc;
  }
}

// blocks: state.range(0), or two an SM where it is 0; state.range(1) (per-warp runs): groups added
// to each warp's share, so that the runs no longer start a power of two bytes apart (the last warps
// read less).
template <streams S, bool LaneWords>
void read_streams_bench(benchmark::State& state) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const auto blocks =
      static_cast<unsigned int>(state.range(0) > 0 ? state.range(0) : std::int64_t{2} * sms);
  random_buffer in(read_items * sizeof(float), 31);
  device_scratch out(std::size_t{blocks} * warps_per_block * sizeof(float));
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  const std::size_t groups = read_items / 4 / group_words;
  const auto skew = static_cast<std::size_t>(state.range(1));
  time_launches(state, read_items * sizeof(float), [&](cudaStream_t stream) {
    read_streams_kernel<S, LaneWords>
        <<<blocks, 256, 0, stream>>>(in.as<float4>(), groups, skew, static_cast<float*>(out.p));
    skip_on_error(state, cudaGetLastError());
  });
}

void library_reduce_bench(benchmark::State& state) {
  std::size_t bytes = 0;
  random_buffer in(read_items * sizeof(float), 31);
  device_scratch out(sizeof(float));
  if (gpuprims::reduce_workspace_bytes<float, float>(read_items, bytes) != cudaSuccess ||
      !in.ok() || out.p == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  device_scratch workspace(bytes);
  time_launches(state, read_items * sizeof(float), [&](cudaStream_t stream) {
    skip_on_error(state, gpuprims::reduce(in.as<float>(), static_cast<float*>(out.p), read_items,
                                          0.0f, plus<float>{}, workspace.p, bytes, stream));
  });
}

// The walk over segments of 2^20 items (256 segments).
void walk_bench(benchmark::State& state) {
  constexpr std::size_t length = std::size_t{1} << 20, segments = read_items / length;
  std::vector<int> offsets;
  for (std::size_t s = 0; s <= segments; ++s) {
    offsets.push_back(static_cast<int>(s * length));
  }
  random_buffer in(read_items * sizeof(float), 31);
  device_scratch d_offsets(offsets.size() * sizeof(int)), out(segments * sizeof(float));
  std::size_t bytes = 0;
  if (!in.ok() || d_offsets.p == nullptr || out.p == nullptr ||
      gpuprims::segmented_reduce_workspace_bytes<float>(bytes) != cudaSuccess ||
      cudaMemcpy(d_offsets.p, offsets.data(), offsets.size() * sizeof(int),
                 cudaMemcpyHostToDevice) != cudaSuccess) {
    state.SkipWithError("setup failed");
    return;
  }
  device_scratch workspace(bytes);
  time_launches(state, read_items * sizeof(float), [&](cudaStream_t stream) {
    skip_on_error(
        state, gpuprims::segmented_reduce(in.as<float>(), static_cast<const int*>(d_offsets.p),
                                          static_cast<float*>(out.p), segments, 0.0f, plus<float>{},
                                          workspace.p, bytes, stream));
  });
}

}  // namespace

void register_read_streams(const options& opt) {
  if (!opt.full) {
    return;
  }
  const arg_list blocks = {{512, 0}, {0, 0}};
  const arg_list more_blocks = {{256, 0}, {512, 0}, {0, 0}, {1024, 0}, {2048, 0}, {4096, 0}};
  // Shares of 128 groups (512 blocks) made 129 and 133: runs 258 and 266 KiB apart, not 256.
  const arg_list skewed = {{512, 1}, {512, 5}};
  const std::vector<std::string> names = {"blocks", "skew"};
  // The baselines have no grid to choose: one run each.
  add(opt, "read_streams", "gpuprims::reduce", role::baseline, library_reduce_bench, {{0, 0}},
      names);
  add(opt, "read_streams", "gpuprims::segmented_reduce_2^20", role::baseline, walk_bench, {{0, 0}},
      names);
  add(opt, "read_streams", "warp_runs_lane_words", role::variant,
      read_streams_bench<streams::per_warp, true>, more_blocks, names);
  add(opt, "read_streams", "warp_runs_lane_words_skewed", role::variant,
      read_streams_bench<streams::per_warp, true>, skewed, names);
  add(opt, "read_streams", "warp_runs_warp_words", role::variant,
      read_streams_bench<streams::per_warp, false>, blocks, names);
  add(opt, "read_streams", "warp_runs_warp_words_skewed", role::variant,
      read_streams_bench<streams::per_warp, false>, skewed, names);
  add(opt, "read_streams", "block_runs_lane_words", role::variant,
      read_streams_bench<streams::per_block, true>, blocks, names);
  add(opt, "read_streams", "block_runs_warp_words", role::variant,
      read_streams_bench<streams::per_block, false>, blocks, names);
  add(opt, "read_streams", "strided_lane_words", role::variant,
      read_streams_bench<streams::strided, true>, blocks, names);
  add(opt, "read_streams", "strided_warp_words", role::variant,
      read_streams_bench<streams::strided, false>, blocks, names);
}

}  // namespace gpuprims::bench
