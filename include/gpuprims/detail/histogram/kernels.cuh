// gpuprims' device histogram kernels: one grid-stride pass over the samples, warp-uniform (a warp
// takes 32 consecutive words a round, so every lane runs every round and warp-wide votes are
// safe), 16-byte words after a scalar head up to the first aligned one. Bins land either in
// per-block copies in shared memory, added to the output once at the block's end, or straight in
// the output with global atomics. The plan (loads, aggregation, copies) is a runtime argument: the
// policy's for the library's calls, a rung's for the ladder.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/histogram/bins.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/histogram.cuh>

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpuprims::detail {

struct histogram_plan {
  int slots;  // shared counters a block (0: global atomics)
  int copies;
  bool vector_loads;
  bool warp_aggregate;
  bool byte_values;  // 8-bit samples of a mapping with `tabulate`: histogram_bytes_kernel
};

// Samples a 16-byte word holds; 1 (no vector loads) for samples whose alignment is below their
// size (a struct of 8 bytes aligned to 4 may start anywhere mod 16 in steps of 4).
template <class Sample>
inline constexpr int histogram_per_word = 16 % sizeof(Sample) == 0 &&
                                                  alignof(Sample) == sizeof(Sample)
                                              ? 16 / sizeof(Sample)
                                              : 1;

// Adds `count` to bin b of this warp's copy (shared) or of the output (global).
template <class Counter>
struct histogram_sink {
  unsigned int* shared;  // this warp's copy, or null
  Counter* global;

  __device__ void add(int b, unsigned int count) const {
    if (shared != nullptr) {
      atomicAdd(shared + b, count);
    } else {
      cuda::atomic_ref<Counter, cuda::thread_scope_device>(global[b]).fetch_add(
          static_cast<Counter>(count), cuda::memory_order_relaxed);
    }
  }
};

// One sample per lane, every lane of the warp (valid or not).
template <class Counter>
__device__ __forceinline__ void count_sample(int b, const histogram_sink<Counter>& sink,
                                             bool aggregate) {
  if (aggregate) {
    const unsigned int same = __match_any_sync(full_warp, b);
    if (b >= 0 && lane_id() == __ffs(static_cast<int>(same)) - 1) {
      sink.add(b, static_cast<unsigned int>(__popc(static_cast<int>(same))));
    }
  } else if (b >= 0) {
    sink.add(b, 1u);
  }
}

template <class Tuning>
inline constexpr histogram_policy histogram_policy_here = Tuning::select(GPUPRIMS_TARGET_ARCH);

// Which counters a block keeps: none (global atomics), the policy's small or large shared array.
enum class histogram_kernel_size { global, small, large };

template <class Tuning, histogram_kernel_size Size>
inline constexpr int histogram_slots =
    Size == histogram_kernel_size::global  ? 0
    : Size == histogram_kernel_size::small ? histogram_policy_here<Tuning>.small_shared_bins
                                           : histogram_policy_here<Tuning>.shared_bins;

// `head` samples before the first 16-byte word (0 without vector loads).
template <class Tuning, histogram_kernel_size Size, class Sample, class Mapper, class Counter>
__global__ void __launch_bounds__(histogram_policy_here<Tuning>.block_threads)
    histogram_kernel(const Sample* in, std::size_t n, std::size_t head, Counter* counts, int bins,
                     histogram_plan plan, Mapper map) {
  constexpr int Slots = histogram_slots<Tuning, Size>;
  constexpr int threads = histogram_policy_here<Tuning>.block_threads;
  constexpr int warps = threads / 32;
  constexpr bool tabulate = sizeof(Sample) == 1 && Mapper::tabulate;
  static_assert(threads % 32 == 0 && threads <= 1024, "histogram_policy: block_threads");
  __shared__ unsigned int hist[Slots > 0 ? Slots : 1];
  __shared__ int table[tabulate ? 256 : 1];
  wait_for_prior_grids();
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / 32;
  const int lane = lane_id();
  if constexpr (Slots > 0) {
    if (bins * plan.copies > Slots) {
      __trap();  // a plan for another policy's shared array
    }
    for (int i = tid; i < bins * plan.copies; i += threads) {
      hist[i] = 0;
    }
  }
  if constexpr (tabulate) {
    for (int v = tid; v < 256; v += threads) {
      const auto byte = static_cast<unsigned char>(v);
      Sample x;
      memcpy(&x, &byte, 1);
      table[v] = map(x);
    }
  }
  if constexpr (Slots > 0 || tabulate) {
    __syncthreads();
  }
  const histogram_sink<Counter> sink{Slots > 0 ? hist + (warp % plan.copies) * bins : nullptr,
                                     counts};
  const auto bin_of = [&](const Sample& x) {
    if constexpr (tabulate) {
      unsigned char byte;
      memcpy(&byte, &x, 1);
      return table[byte];
    } else {
      return map(x);
    }
  };
  // Scalar samples [first, first + count) by warp 0 of one block, a lane each (count <= 32 a
  // round).
  const auto scalar_span = [&](std::size_t first, std::size_t count) {
    for (std::size_t base = 0; base < count; base += 32) {
      const bool valid = base + lane < count;
      count_sample(valid ? bin_of(in[first + base + lane]) : -1, sink, plan.warp_aggregate);
    }
  };
  const std::size_t warp_rank = blockIdx.x * std::size_t{warps} + warp;
  const std::size_t warp_stride = std::size_t{gridDim.x} * warps * 32;
  if (plan.vector_loads) {
    constexpr int per_word = histogram_per_word<Sample>;
    const std::size_t words = (n - head) / per_word;
    const uint4* body = reinterpret_cast<const uint4*>(in + head);
    if (blockIdx.x == 0 && warp == 0) {
      scalar_span(0, head);
    }
    if (blockIdx.x == gridDim.x - 1 && warp == 0) {
      scalar_span(head + words * per_word, n - head - words * per_word);
    }
    for (std::size_t w0 = warp_rank * 32; w0 < words; w0 += warp_stride) {
      const std::size_t w = w0 + lane;
      uint4 raw{};
      if (w < words) {
        raw = body[w];
      }
      Sample x[per_word];
      memcpy(x, &raw, sizeof(x));
#pragma unroll
      for (int k = 0; k < per_word; ++k) {
        count_sample(w < words ? bin_of(x[k]) : -1, sink, plan.warp_aggregate);
      }
    }
  } else {
    for (std::size_t i0 = warp_rank * 32; i0 < n; i0 += warp_stride) {
      const std::size_t i = i0 + lane;
      count_sample(i < n ? bin_of(in[i]) : -1, sink, plan.warp_aggregate);
    }
  }
  if constexpr (Slots > 0) {
    __syncthreads();
    for (int b = tid; b < bins; b += threads) {
      unsigned int sum = 0;
      for (int c = 0; c < plan.copies; ++c) {
        sum += hist[c * bins + b];
      }
      if (sum != 0) {
        cuda::atomic_ref<Counter, cuda::thread_scope_device>(counts[b]).fetch_add(
            static_cast<Counter>(sum), cuda::memory_order_relaxed);
      }
    }
  }
}

// 8-bit samples of a mapping that may be evaluated on any value (Mapper::tabulate): each block
// counts the 256 sample values, lane l of every warp into copy l of 32 (value v's counter of lane
// l at v * 32 + l, so a warp's 32 atomics fall in 32 different banks whatever the data), and maps
// each value to its bin once, at its end. Warps take 32 x byte_words consecutive 16-byte words a
// round, a lane's words 32 apart; the scalar head and tail go to warp 0 of the first and the last
// block.
template <class Tuning, class Sample, class Mapper, class Counter>
__global__ void __launch_bounds__(histogram_policy_here<Tuning>.byte_block_threads)
    histogram_bytes_kernel(const Sample* in, std::size_t n, std::size_t head, Counter* counts,
                           Mapper map) {
  static_assert(sizeof(Sample) == 1, "8-bit samples");
  constexpr histogram_policy p = histogram_policy_here<Tuning>;
  constexpr int threads = p.byte_block_threads;
  constexpr int warps = threads / 32;
  constexpr int words_per_lane = p.byte_words;
  static_assert(threads % 32 == 0 && threads <= 1024 && words_per_lane >= 1,
                "histogram_policy: byte_block_threads, byte_words");
  __shared__ unsigned int hist[256 * 32];
  wait_for_prior_grids();
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / 32;
  const int lane = lane_id();
  for (int i = tid; i < 256 * 32; i += threads) {
    hist[i] = 0;
  }
  __syncthreads();
  unsigned int* const mine = hist + lane;
  // Samples [first, first + count), count < 32: a lane each.
  const auto scalar_span = [&](std::size_t first, std::size_t count) {
    if (static_cast<std::size_t>(lane) < count) {
      unsigned char byte;
      memcpy(&byte, in + first + lane, 1);
      atomicAdd(mine + byte * 32, 1u);
    }
  };
  const std::size_t words = (n - head) / 16;
  if (blockIdx.x == 0 && warp == 0) {
    scalar_span(0, head);
  }
  if (blockIdx.x == gridDim.x - 1 && warp == 0) {
    scalar_span(head + words * 16, n - head - words * 16);
  }
  const uint4* body = reinterpret_cast<const uint4*>(in + head);
  const std::size_t stride = std::size_t{gridDim.x} * warps * 32 * words_per_lane;
  for (std::size_t w0 = (blockIdx.x * std::size_t{warps} + warp) * 32 * words_per_lane + lane;
       w0 < words; w0 += stride) {
    uint4 raw[words_per_lane];
#pragma unroll
    for (int k = 0; k < words_per_lane; ++k) {
      raw[k] = w0 + k * 32 < words ? body[w0 + k * 32] : uint4{};
    }
#pragma unroll
    for (int k = 0; k < words_per_lane; ++k) {
      if (w0 + k * 32 < words) {
        const unsigned int v[4] = {raw[k].x, raw[k].y, raw[k].z, raw[k].w};
#pragma unroll
        for (int j = 0; j < 16; ++j) {
          atomicAdd(mine + ((v[j / 4] >> (8 * (j % 4))) & 0xffu) * 32, 1u);
        }
      }
    }
  }
  __syncthreads();
  for (int v = tid; v < 256; v += threads) {
    unsigned int sum = 0;
    for (int l = 0; l < 32; ++l) {
      sum += hist[v * 32 + ((l + v) & 31)];  // rotated: a warp's 32 reads in 32 banks
    }
    const auto byte = static_cast<unsigned char>(v);
    Sample x;
    memcpy(&x, &byte, 1);
    const int b = map(x);
    if (sum != 0 && b >= 0) {
      cuda::atomic_ref<Counter, cuda::thread_scope_device>(counts[b]).fetch_add(
          static_cast<Counter>(sum), cuda::memory_order_relaxed);
    }
  }
}

// The library's plan for `bins` bins: shared copies while they fit, global atomics beyond.
inline histogram_plan histogram_plan_for(const histogram_policy& p, int bins) {
  const auto copies_in = [&](int slots) {
    const int fit = slots / bins;
    const int copies = fit < p.copies ? fit : p.copies;
    return copies > 1 ? copies : 1;  // a policy of 0 copies means one
  };
  if (bins <= p.small_shared_bins) {
    return {p.small_shared_bins, copies_in(p.small_shared_bins), p.vector_loads, p.warp_aggregate,
            p.byte_values};
  }
  if (bins <= p.shared_bins) {
    return {p.shared_bins, copies_in(p.shared_bins), p.vector_loads, p.warp_aggregate,
            p.byte_values};
  }
  return {0, 1, p.vector_loads, p.warp_aggregate, p.byte_values};
}

// Samples a block may count before its 32-bit shared counters could overflow.
inline constexpr std::size_t histogram_block_samples = std::size_t{1} << 30;

template <class Tuning, class Sample, class Mapper, class Counter>
cudaError_t launch_histogram(const Sample* in, std::size_t n, Counter* counts, int bins,
                             const Mapper& map, histogram_plan plan, bool zero_first,
                             cudaStream_t stream) {
  if (zero_first) {
    GPUPRIMS_RETURN_IF_ERROR(
        cudaMemsetAsync(counts, 0, static_cast<std::size_t>(bins) * sizeof(Counter), stream));
  }
  if (n == 0) {
    return cudaSuccess;
  }
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const histogram_policy p = Tuning::select(facts.target_arch);
  const auto head_of = [&] {  // samples before the first 16-byte word
    const auto misalignment = reinterpret_cast<std::uintptr_t>(in) % 16;
    const std::size_t head = misalignment == 0 ? 0 : (16 - misalignment) / sizeof(Sample);
    return head < n ? head : n;
  };
  const std::size_t at_least = ceil_div(n, histogram_block_samples);
  if constexpr (sizeof(Sample) == 1 && Mapper::tabulate) {
    if (plan.byte_values) {
      const std::size_t per_block =
          std::size_t{16} * static_cast<std::size_t>(p.byte_block_threads) * p.byte_words;
      std::size_t blocks = static_cast<std::size_t>(facts.multiprocessors) * p.byte_blocks_per_sm;
      const std::size_t at_most = ceil_div(n, per_block);
      blocks = blocks < at_most ? blocks : at_most;
      blocks = blocks > at_least ? blocks : at_least;
      if (blocks > 0x7fffffff) {
        return cudaErrorInvalidValue;
      }
      return launch<histogram_bytes_kernel<Tuning, Sample, Mapper, Counter>>(
          dim3(static_cast<unsigned int>(blocks)),
          dim3(static_cast<unsigned int>(p.byte_block_threads)), stream, false, in, n, head_of(),
          counts, map);
    }
  }
  const bool vector = plan.vector_loads && histogram_per_word<Sample> > 1;
  const std::size_t head = vector ? head_of() : 0;
  plan.vector_loads = vector;
  const std::size_t per_round = std::size_t{32} * (vector ? histogram_per_word<Sample> : 1);
  const std::size_t warps_needed = ceil_div(n, per_round);
  const std::size_t warps_a_block = static_cast<std::size_t>(p.block_threads / 32);
  std::size_t blocks = static_cast<std::size_t>(facts.multiprocessors) * p.blocks_per_sm;
  const std::size_t at_most = ceil_div(warps_needed, warps_a_block);
  blocks = blocks < at_most ? blocks : at_most;
  blocks = blocks > at_least ? blocks : at_least;
  if (blocks > 0x7fffffff) {
    return cudaErrorInvalidValue;
  }
  const dim3 grid(static_cast<unsigned int>(blocks));
  const dim3 block(static_cast<unsigned int>(p.block_threads));
  const auto go = [&](auto kernel_size) {
    return launch<histogram_kernel<Tuning, decltype(kernel_size)::value, Sample, Mapper, Counter>>(
        grid, block, stream, false, in, n, head, counts, bins, plan, map);
  };
  using size_t_ = histogram_kernel_size;
  if (plan.slots == 0) {
    return go(std::integral_constant<size_t_, size_t_::global>{});
  }
  return plan.slots <= p.small_shared_bins ? go(std::integral_constant<size_t_, size_t_::small>{})
                                           : go(std::integral_constant<size_t_, size_t_::large>{});
}

}  // namespace gpuprims::detail
