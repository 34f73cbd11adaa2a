// Experiment "scan_l2_chunks" (--full only): a deterministic float scan with no look-back convoy
// (notes/scan.md, forty-seventh session). The default single-pass scan trails
// cub::DeviceScan::InclusiveSum by 10-12% at 2^28 floats on an H200: a tile holds its SM slot for
// 18 us, a third of it waiting for tiles still loading. Here each tile of 256 x 16 floats is
// handled twice, by blocks in launch order: reduced (read from DRAM, its sum published), then
// scanned `lag` chunks of `chunk` tiles later (read again, from the L2 where it stays, and
// written), by which time every sum its prefix needs is published. A scanning block folds its
// chunk's sums as one fixed block scan, and the chunks' bases form a chain, a hop a chunk (the
// first scanning block of chunk c publishes chunk c + 1's), so the order of every combination is a
// function of n alone.
// Block k reduces tile k and scans tile k - lag x chunk, every load of both issued before any is
// used (a first version, 2874d19, also had blocks taking turns: 2k reducing, 2k + 1 scanning); a
// thread's 4 words consecutive (lane words) or the warp's 128 consecutive (warp words: each load
// instruction 512 contiguous bytes, a warp scan per word). Cache hints: 0 none; 1 the scanning
// block's loads and stores evict-first; 2 as 1, and the reducing block's loads evict-last.
// Baselines: cudaMemcpyAsync of the input, cub::DeviceScan::InclusiveSum, gpuprims::inclusive_scan.
// Every row is checked first at 2^24 items of 0 or 1 (each prefix an exact float), bit for bit
// against the CPU. Float sums only, n a multiple of the tile: a study, not a library path.
#include <gpuprims/device/scan.cuh>

#include "../reduce_families.cuh"
#include "../scan_families.cuh"
#include "../support.cuh"

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace gpuprims::bench {
namespace {

constexpr int threads = 256, words = 4;             // a thread: 4 consecutive float4
constexpr int tile_words = threads * words;         // 1024 float4
constexpr std::size_t tile_items = tile_words * 4;  // 4096 floats

using record = unsigned long long;  // (epoch << 32) | float bits

__device__ __forceinline__ void publish(record* r, float v, unsigned int epoch) {
  cuda::atomic_ref<record, cuda::thread_scope_device>(*r).store(
      (record{epoch} << 32) | __float_as_uint(v), cuda::memory_order_relaxed);
}

__device__ __forceinline__ float await(record* r, unsigned int epoch) {
  cuda::atomic_ref<record, cuda::thread_scope_device> a(*r);
  record v = a.load(cuda::memory_order_relaxed);
  while (static_cast<unsigned int>(v >> 32) != epoch) {
    __nanosleep(32);
    v = a.load(cuda::memory_order_relaxed);
  }
  return __uint_as_float(static_cast<unsigned int>(v));
}

__device__ __forceinline__ record peek(record* r) {
  return cuda::atomic_ref<record, cuda::thread_scope_device>(*r).load(cuda::memory_order_relaxed);
}

// A record read early (`seen`): its value if it was already this epoch's, else awaited.
__device__ __forceinline__ float settle(record seen, record* r, unsigned int epoch) {
  return static_cast<unsigned int>(seen >> 32) == epoch
             ? __uint_as_float(static_cast<unsigned int>(seen))
             : await(r, epoch);
}

template <int Hints>
__device__ __forceinline__ float4 load_word(const float4* p, bool scan_block) {
  float4 v;
  if (Hints >= 1 && scan_block) {
    v = __ldcs(p);
  } else if (Hints >= 2) {
    std::uint64_t policy;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    asm volatile("ld.global.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p), "l"(policy));
  } else {
    v = *p;
  }
  return v;
}

// Exclusive scan of one float a thread over the block (a fixed order); `total` the block's sum.
__device__ __forceinline__ float block_exclusive(float x, float& total, float (&warp_sums)[8]) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float inc = x;
#pragma unroll
  for (int o = 1; o < 32; o *= 2) {
    const float y = __shfl_up_sync(0xffffffffu, inc, o);
    if (lane >= o) {
      inc = y + inc;
    }
  }
  float ex = __shfl_up_sync(0xffffffffu, inc, 1);
  if (lane == 31) {
    warp_sums[warp] = inc;
  }
  __syncthreads();
  float before = 0.f;
  total = warp_sums[0];
#pragma unroll
  for (int w = 1; w < 8; ++w) {
    if (w == warp) {
      before = total;
    }
    total = total + warp_sums[w];
  }
  return lane == 0 ? before : before + ex;
}

// Where thread t's word j lies in its tile: lane words (a thread's 4 words consecutive) or warp
// words (a warp's 128 words consecutive, word j of lane l at j x 32 + l: each load instruction 512
// contiguous bytes).
template <bool WarpWords>
__device__ __forceinline__ std::size_t word_at(int j) {
  const int t = threadIdx.x;
  return WarpWords ? static_cast<std::size_t>((t / 32) * 128 + j * 32 + t % 32)
                   : static_cast<std::size_t>(t * words + j);
}

template <int Chunk, int Hints, int MinBlocks, bool WarpWords = false>
__global__ void __launch_bounds__(threads, MinBlocks)
    l2_pair_scan(const float4* __restrict__ in, float4* __restrict__ out, std::size_t tiles,
                 int lag, record* sums, record* bases, unsigned int epoch) {
  constexpr int per_thread = Chunk / threads;
  __shared__ float warp_sums[8], warp_sums2[8], warp_sums3[8];
  __shared__ float shared_prefix;
  const std::size_t k = blockIdx.x, behind = static_cast<std::size_t>(lag) * Chunk;
  const bool reduces = k < tiles, scans = k >= behind;
  const std::size_t tile = scans ? k - behind : 0, chunk = tile / Chunk;
  const int r = static_cast<int>(tile % Chunk);
  float4 v[words], w[words];
  if (reduces) {
#pragma unroll
    for (int j = 0; j < words; ++j) {
      v[j] = load_word<Hints>(in + k * tile_words + word_at<WarpWords>(j), false);
    }
  }
  const std::size_t first = chunk * Chunk;
  const bool owner = static_cast<int>(threadIdx.x) == r / per_thread;
  record seen[per_thread], seen_base = 0;
  if (scans) {
#pragma unroll
    for (int j = 0; j < words; ++j) {
      w[j] = load_word<Hints>(in + tile * tile_words + word_at<WarpWords>(j), true);
    }
    // The chunk's sums and its base, read now (usually published long ago), awaited below.
#pragma unroll
    for (int j = 0; j < per_thread; ++j) {
      const std::size_t i = first + threadIdx.x * per_thread + j;
      seen[j] = i < tiles ? peek(sums + i) : 0;
    }
    if (owner && chunk > 0) {
      seen_base = peek(bases + chunk);
    }
  }
  if (reduces) {
    float s = (v[0].x + v[0].y) + (v[0].z + v[0].w);
#pragma unroll
    for (int j = 1; j < words; ++j) {
      s = s + ((v[j].x + v[j].y) + (v[j].z + v[j].w));
    }
#pragma unroll
    for (int o = 16; o > 0; o /= 2) {
      s = s + __shfl_xor_sync(0xffffffffu, s, o);
    }
    if (threadIdx.x % 32 == 0) {
      warp_sums3[threadIdx.x / 32] = s;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      float t = warp_sums3[0];
#pragma unroll
      for (int j = 1; j < 8; ++j) {
        t = t + warp_sums3[j];
      }
      publish(sums + k, t, epoch);
    }
  }
  if (!scans) {
    return;
  }
  float a[per_thread];
#pragma unroll
  for (int j = 0; j < per_thread; ++j) {
    const std::size_t i = first + threadIdx.x * per_thread + j;
    a[j] = i < tiles ? settle(seen[j], sums + i, epoch) : 0.f;
  }
  float own = a[0];
#pragma unroll
  for (int j = 1; j < per_thread; ++j) {
    own = own + a[j];
  }
  float chunk_total = 0.f;
  const float before = block_exclusive(own, chunk_total, warp_sums);
  if (owner) {
    float e = before;
#pragma unroll
    for (int j = 0; j < per_thread; ++j) {
      if (j < r % per_thread) {
        e = e + a[j];
      }
    }
    float base = 0.f;
    if (chunk > 0) {
      base = settle(seen_base, bases + chunk, epoch);
    }
    if (r == 0) {
      publish(bases + chunk + 1, chunk > 0 ? base + chunk_total : chunk_total, epoch);
    }
    shared_prefix = chunk > 0 ? base + e : e;
  }
  float run[words * 4];
#pragma unroll
  for (int j = 0; j < words; ++j) {
    run[4 * j] = w[j].x;
    run[4 * j + 1] = run[4 * j] + w[j].y;
    run[4 * j + 2] = run[4 * j + 1] + w[j].z;
    run[4 * j + 3] = run[4 * j + 2] + w[j].w;
  }
  float before_word[words];
  float tile_total = 0.f;
  if constexpr (WarpWords) {
    // Word j of the warp's 128: a warp scan of the words' sums, after the warp's earlier words.
    const int lane = threadIdx.x % 32;
    float carry = 0.f;
#pragma unroll
    for (int j = 0; j < words; ++j) {
      float inc = run[4 * j + 3];
#pragma unroll
      for (int o = 1; o < 32; o *= 2) {
        const float y = __shfl_up_sync(0xffffffffu, inc, o);
        if (lane >= o) {
          inc = y + inc;
        }
      }
      const float ex = __shfl_up_sync(0xffffffffu, inc, 1);
      const float word_total = __shfl_sync(0xffffffffu, inc, 31);
      before_word[j] = j == 0 ? (lane == 0 ? 0.f : ex) : (lane == 0 ? carry : carry + ex);
      carry = j == 0 ? word_total : carry + word_total;
    }
    if (lane == 0) {
      warp_sums2[threadIdx.x / 32] = carry;
    }
    __syncthreads();
    float warp_before = 0.f;
    tile_total = warp_sums2[0];
#pragma unroll
    for (int q = 1; q < 8; ++q) {
      if (q == static_cast<int>(threadIdx.x / 32)) {
        warp_before = tile_total;
      }
      tile_total = tile_total + warp_sums2[q];
    }
    const float pre = shared_prefix + warp_before;
#pragma unroll
    for (int j = 0; j < words; ++j) {
      before_word[j] = pre + before_word[j];
    }
  } else {
    // A thread's words are consecutive: each word's items after the thread's earlier words.
    float carry[words];
    float acc = run[3];
#pragma unroll
    for (int j = 1; j < words; ++j) {
      carry[j] = acc;
      acc = acc + run[4 * j + 3];
    }
    const float thread_before = block_exclusive(acc, tile_total, warp_sums2);
    const float prefix = shared_prefix + thread_before;
    before_word[0] = prefix;
#pragma unroll
    for (int j = 1; j < words; ++j) {
      before_word[j] = prefix + carry[j];
    }
  }
#pragma unroll
  for (int j = 0; j < words; ++j) {
    const float4 o = {before_word[j] + run[4 * j], before_word[j] + run[4 * j + 1],
                      before_word[j] + run[4 * j + 2], before_word[j] + run[4 * j + 3]};
    float4* q = out + tile * tile_words + word_at<WarpWords>(j);
    if (Hints >= 1) {
      __stcs(q, o);
    } else {
      *q = o;
    }
  }
}

template <int Chunk, int Hints, int MinBlocks, bool WarpWords = false>
struct l2_pair_launcher {
  record* sums = nullptr;
  record* bases = nullptr;
  unsigned int epoch = 0;
  int lag = 1;

  cudaError_t operator()(const float* in, float* out, std::size_t n, cudaStream_t stream) {
    const std::size_t tiles = n / tile_items;
    const std::size_t blocks = tiles + static_cast<std::size_t>(lag) * Chunk;
    l2_pair_scan<Chunk, Hints, MinBlocks, WarpWords>
        <<<static_cast<unsigned int>(blocks), threads, 0, stream>>>(
            reinterpret_cast<const float4*>(in), reinterpret_cast<float4*>(out), tiles, lag, sums,
            bases, ++epoch);
    return cudaGetLastError();
  }
};

// The exact check: 2^24 items of 0 or 1, every prefix at most 2^24 (exact in a float).
template <class Launcher>
bool l2_chunk_scan_correct(Launcher& launch) {
  constexpr std::size_t n = std::size_t{1} << 24;
  std::vector<float> h(n), got(n);
  std::mt19937 gen(7);
  for (auto& x : h) {
    x = static_cast<float>(gen() & 1u);
  }
  device_scratch in(n * sizeof(float)), out(n * sizeof(float));
  if (cudaMemcpy(in.p, h.data(), n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemset(out.p, 0xff, n * sizeof(float)) != cudaSuccess) {
    return false;
  }
  for (int run = 0; run < 2; ++run) {  // twice: the epochs move on
    if (launch(static_cast<const float*>(in.p), static_cast<float*>(out.p), n, 0) != cudaSuccess ||
        cudaDeviceSynchronize() != cudaSuccess) {
      return false;
    }
  }
  if (cudaMemcpy(got.data(), out.p, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) {
    return false;
  }
  float expect = 0.f;
  for (std::size_t i = 0; i < n; ++i) {
    expect += h[i];
    if (got[i] != expect) {
      std::fprintf(stderr, "scan_l2_chunks: item %zu is %g, expected %g\n", i, got[i], expect);
      return false;
    }
  }
  return true;
}

// state.range(0): n; range(1): lag (chunks).
template <class Launcher, int Chunk>
void l2_chunk_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::size_t tiles_max = (std::size_t{1} << 28) / tile_items + 2;
  device_scratch sums(tiles_max * sizeof(record)), bases((tiles_max / Chunk + 2) * sizeof(record));
  random_buffer in(n * sizeof(float), 31);
  device_scratch out(n * sizeof(float));
  if (n % tile_items != 0 || n > (std::size_t{1} << 28) || !in.ok() || out.p == nullptr ||
      sums.p == nullptr || bases.p == nullptr ||
      cudaMemset(sums.p, 0, tiles_max * sizeof(record)) != cudaSuccess ||
      cudaMemset(bases.p, 0, (tiles_max / Chunk + 2) * sizeof(record)) != cudaSuccess) {
    state.SkipWithError("setup failed");
    return;
  }
  Launcher launch{static_cast<record*>(sums.p), static_cast<record*>(bases.p), 0,
                  static_cast<int>(state.range(1))};
  if (!l2_chunk_scan_correct(launch)) {
    state.SkipWithError("wrong result");
    return;
  }
  time_launches(state, 2 * n * sizeof(float), [&](cudaStream_t stream) {
    skip_on_error(state, launch(in.as<float>(), static_cast<float*>(out.p), n, stream));
  });
}

}  // namespace

void register_scan_l2_chunks(const options& opt) {
  if (!opt.full) {
    return;
  }
  const std::int64_t big = std::int64_t{1} << 28, mid = std::int64_t{1} << 24;
  const arg_list sizes = {{mid, 0}, {big, 0}};
  const std::vector<std::string> names = {"n", "lag"};
  add(opt, "scan_l2_chunks", "cudaMemcpyAsync", role::baseline, copy_input_bench<float>, sizes,
      names);
  add(opt, "scan_l2_chunks", "cub::DeviceScan::InclusiveSum", role::baseline, cub_scan_bench<float>,
      sizes, names);
  add(opt, "scan_l2_chunks", "gpuprims::inclusive_scan", role::baseline, scan_default_bench<float>,
      sizes, names);
  const arg_list lags = {{mid, 1}, {mid, 2}, {big, 1}, {big, 2}, {big, 4}};
  add(opt, "scan_l2_chunks", "pair_chunk256_hints1", role::variant,
      l2_chunk_bench<l2_pair_launcher<256, 1, 4>, 256>, lags, names);
  add(opt, "scan_l2_chunks", "pair_chunk512_hints1", role::variant,
      l2_chunk_bench<l2_pair_launcher<512, 1, 4>, 512>, lags, names);
  add(opt, "scan_l2_chunks", "pair_chunk256_hints2", role::variant,
      l2_chunk_bench<l2_pair_launcher<256, 2, 4>, 256>, lags, names);
  add(opt, "scan_l2_chunks", "warpwords_chunk256", role::variant,
      l2_chunk_bench<l2_pair_launcher<256, 0, 4, true>, 256>, lags, names);
  add(opt, "scan_l2_chunks", "warpwords_chunk256_hints1", role::variant,
      l2_chunk_bench<l2_pair_launcher<256, 1, 4, true>, 256>, lags, names);
  add(opt, "scan_l2_chunks", "warpwords_chunk512_hints1", role::variant,
      l2_chunk_bench<l2_pair_launcher<512, 1, 4, true>, 512>, lags, names);
  add(opt, "scan_l2_chunks", "warpwords_chunk256_hints2", role::variant,
      l2_chunk_bench<l2_pair_launcher<256, 2, 4, true>, 256>, lags, names);
  add(opt, "scan_l2_chunks", "warpwords_chunk512_hints2", role::variant,
      l2_chunk_bench<l2_pair_launcher<512, 2, 4, true>, 512>, lags, names);
}

}  // namespace gpuprims::bench
