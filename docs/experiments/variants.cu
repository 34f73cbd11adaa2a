// Experiments behind docs/design.md (dependent launch) and docs/transpose.md (tile shapes, block
// orders, cache hints, 16-byte accesses, a persistent double-buffered kernel, bulk copies through
// the copy engine). Not part of the build:
//   nvcc -std=c++17 -O3 -arch=sm_90 -I../../include -o variants variants.cu -lcublas
//   ./variants [reduce|transpose|all|bulk|direct]   (bulk: the bulk-copy (TMA) transposes and the
//   baselines; direct: warps that stage output rows straight from their loads, and tiles moved
//   without transposing them)
// Prints per-launch times (harness-like batches of ~100 us) and GB/s, with cuBLAS, cudaMemcpyAsync
// and CUB in the same run. Each transpose variant is checked against gpuprims::transpose first.
#include <gpuprims/reduce.cuh>
#include <gpuprims/transpose.cuh>
#include <gpuprims/copy.cuh>

#include <cub/device/device_reduce.cuh>
#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#define CK(x)                                                                               \
  do {                                                                                      \
    cudaError_t e_ = (x);                                                                   \
    if (e_ != cudaSuccess) {                                                                \
      std::printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, #x); \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

__global__ void fill(float* p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned long long z = (i + seed) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    p[i] = float((z ^ (z >> 31)) & 0xffffff) / 16777216.0f - 0.5f;
  }
}

__global__ void count_diff(const float* a, const float* b, size_t n, unsigned long long* bad) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    if (__float_as_uint(a[i]) != __float_as_uint(b[i])) atomicAdd(bad, 1ull);
  }
}

static cudaStream_t g_stream;

// Harness-like: batch of back-to-back launches sized to ~100 us, median per launch over iters.
static double time_us(const std::function<void(cudaStream_t)>& launch, int iters) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  CK(cudaEventRecord(a, g_stream));
  for (int i = 0; i < 3; ++i) launch(g_stream);
  CK(cudaEventRecord(b, g_stream));
  CK(cudaEventSynchronize(b));
  CK(cudaGetLastError());
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, a, b));
  double per = ms * 1e3 / 3;
  int batch = per >= 100 ? 1 : int(100 / (per > 0.5 ? per : 0.5));
  std::vector<double> t;
  for (int it = 0; it < iters; ++it) {
    CK(cudaEventRecord(a, g_stream));
    for (int i = 0; i < batch; ++i) launch(g_stream);
    CK(cudaEventRecord(b, g_stream));
    CK(cudaEventSynchronize(b));
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1e3 / batch);
  }
  CK(cudaGetLastError());
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return t[t.size() / 2];
}

template <class Kernel, class... Args>
static void launch_ex(bool pdl, Kernel kernel, dim3 grid, dim3 block, size_t smem, cudaStream_t s, Args... args) {
  cudaLaunchConfig_t c{};
  c.gridDim = grid;
  c.blockDim = block;
  c.dynamicSmemBytes = smem;
  c.stream = s;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  c.attrs = at;
  c.numAttrs = pdl ? 1 : 0;
  CK(cudaLaunchKernelEx(&c, kernel, args...));
}

// ---------------------------------------------------------------- reduce
template <int B, int U>
static void reduce_launch(bool pdl, const float* in, size_t n, float* out, void* ws, cudaStream_t s) {
  using namespace gpuprims::detail;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  size_t maxb = size_t(sms) * (2048 / B);
  size_t owners = reduce_owners(in, n);
  size_t blocks = std::min((owners + size_t(B) * U - 1) / (size_t(B) * U), maxb);
  auto* bytes = static_cast<unsigned char*>(ws);
  auto k = reduce_single_pass_kernel<gpuprims::block_reduce<B, gpuprims::plus<float>, float>, B, U, float,
                                     gpuprims::plus<float>, float>;
  launch_ex(pdl, k, dim3(unsigned(blocks)), dim3(B), 0, s, in, n, out, 0.0f, gpuprims::plus<float>{},
            reinterpret_cast<float*>(bytes + reduce_partials_offset<float>()), reinterpret_cast<unsigned*>(bytes));
}

static void reduce_section() {
  std::printf("\n== reduce (us per launch, harness-like batches) ==\n");
  size_t wsb = 0;
  CK(gpuprims::reduce_workspace_bytes<float>(wsb));
  void* ws;
  CK(cudaMalloc(&ws, wsb));
  CK(cudaMemset(ws, 0, wsb));
  float* out;
  CK(cudaMalloc(&out, 64));
  for (int lg : {16, 20, 24, 28}) {
    size_t n = size_t(1) << lg;
    float* in;
    CK(cudaMalloc(&in, n * 4));
    fill<<<1024, 256>>>(in, n, 7 + lg);
    CK(cudaDeviceSynchronize());
    size_t cb = 0;
    cub::DeviceReduce::Sum(nullptr, cb, in, out, int64_t(n));
    void* ct;
    CK(cudaMalloc(&ct, cb));
    bool small = n * 4 <= (size_t(8) << 20);
    auto lib_plain = [&](cudaStream_t s) {
      if (small) reduce_launch<256, 8>(false, in, n, out, ws, s); else reduce_launch<1024, 4>(false, in, n, out, ws, s);
    };
    auto lib_pdl = [&](cudaStream_t s) {
      if (small) reduce_launch<256, 8>(true, in, n, out, ws, s); else reduce_launch<1024, 4>(true, in, n, out, ws, s);
    };
    auto cub_sum = [&](cudaStream_t s) { size_t b = cb; CK(cub::DeviceReduce::Sum(ct, b, in, out + 1, int64_t(n), s)); };
    auto lib_api = [&](cudaStream_t s) { CK(gpuprims::reduce(in, n, out + 2, 0.0f, gpuprims::plus<float>{}, ws, wsb, s)); };
    // correctness: plain vs pdl bitwise, both vs CUB closely
    float r[3];
    lib_plain(0);
    CK(cudaMemcpy(&r[0], out, 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 20; ++i) lib_pdl(0);  // default stream, back to back
    CK(cudaMemcpy(&r[1], out, 4, cudaMemcpyDeviceToHost));
    cub_sum(0);
    CK(cudaMemcpy(&r[2], out + 1, 4, cudaMemcpyDeviceToHost));
    std::printf("n=2^%d  sums plain %.6f pdl %.6f cub %.6f  bitwise %s\n", lg, r[0], r[1], r[2],
                std::memcmp(&r[0], &r[1], 4) == 0 ? "same" : "DIFFERENT");
    int iters = lg >= 28 ? 30 : 200;
    for (int round = 0; round < 3; ++round) {
      double c = time_us(cub_sum, iters), p = time_us(lib_plain, iters), d = time_us(lib_pdl, iters),
             a = time_us(lib_api, iters);
      std::printf("n=2^%d r%d  cub %8.2f  lib_plain %8.2f (%.3fx)  lib_pdl %8.2f (%.3fx)  lib_api %8.2f (%.3fx)\n", lg,
                  round, c, p, p / c, d, d / c, a, a / c);
    }
    CK(cudaFree(in));
    CK(cudaFree(ct));
  }
  CK(cudaFree(ws));
  CK(cudaFree(out));
}

// ---------------------------------------------------------------- transpose
__device__ __forceinline__ float ld(const float* p, int hint) { return (hint & 1) ? __ldcs(p) : *p; }
__device__ __forceinline__ void st(float* p, float v, int hint) {
  if (hint & 2) __stcs(p, v); else *p = v;
}

constexpr int min_blocks(int nt, int th, int tw) {
  const int by_threads = 2048 / nt;
  const int by_smem = 232448 / (th * (tw + 1) * 4 + 1024);
  return by_threads < by_smem ? by_threads : by_smem;
}

// TH x TW tile of the input (TH rows), NT threads, 1D grid of tiles; Order 0: tile columns fastest,
// 1: tile rows fastest. Copy: store the tile back untransposed (the access pattern of a tiled copy).
template <int TH, int TW, int NT, int Order, int Hint, bool Copy = false>
__global__ void __launch_bounds__(NT, min_blocks(NT, TH, TW))
    xpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  static_assert(NT % TW == 0 && NT % TH == 0, "");
  extern __shared__ float tile[];
  constexpr int P = TW + 1;
  constexpr int L = TH * TW / NT;
  const int tiles_x = cols / TW, tiles_y = rows / TH;
  int bx, by;
  if (Order == 0) {
    bx = blockIdx.x % tiles_x;
    by = blockIdx.x / tiles_x;
  } else if (Order == 1) {
    by = blockIdx.x % tiles_y;
    bx = blockIdx.x / tiles_y;
  } else {
    constexpr int W = Order - 100;
    const int band = blockIdx.x / (W * tiles_y), rem = blockIdx.x % (W * tiles_y);
    by = rem / W;
    bx = band * W + rem % W;
  }
  const size_t r0 = size_t(by) * TH, c0 = size_t(bx) * TW;
  const int lr = threadIdx.x / TW, lc = threadIdx.x % TW;
  const float* src = in + (r0 + lr) * cols + c0 + lc;
  const size_t in_step = size_t(NT / TW) * cols;
  gpuprims::detail::wait_for_prior_grids();
  float v[L];
#pragma unroll
  for (int j = 0; j < L; ++j) {
    v[j] = ld(src + j * in_step, Hint);
  }
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#pragma unroll
  for (int j = 0; j < L; ++j) {
    tile[(lr + j * (NT / TW)) * P + lc] = v[j];
  }
  __syncthreads();
  if (Copy) {
    float* dst = out + (r0 + lr) * cols + c0 + lc;
#pragma unroll
    for (int j = 0; j < L; ++j) {
      st(dst + j * in_step, tile[(lr + j * (NT / TW)) * P + lc], Hint);
    }
    return;
  }
  const int oc = threadIdx.x / TH, orr = threadIdx.x % TH;
  float* dst = out + (c0 + oc) * rows + r0 + orr;
  const size_t out_step = size_t(NT / TH) * rows;
#pragma unroll
  for (int j = 0; j < L; ++j) {
    st(dst + j * out_step, tile[orr * P + oc + j * (NT / TH)], Hint);
  }
}

// 16-byte global accesses on both sides; scalar shared-memory accesses (2-way conflicts).
template <int TH, int TW, int NT, int Order>
__global__ void __launch_bounds__(NT, min_blocks(NT, TH, TW))
    xpose_v4(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  static_assert(NT % (TW / 4) == 0 && NT % (TH / 4) == 0, "");
  extern __shared__ float tile[];
  constexpr int P = TW + 1;
  constexpr int L = TH * TW / 4 / NT;
  const int tiles_x = cols / TW, tiles_y = rows / TH;
  int bx, by;
  if (Order == 0) {
    bx = blockIdx.x % tiles_x;
    by = blockIdx.x / tiles_x;
  } else {
    by = blockIdx.x % tiles_y;
    bx = blockIdx.x / tiles_y;
  }
  const size_t r0 = size_t(by) * TH, c0 = size_t(bx) * TW;
  constexpr int RS = NT / (TW / 4);  // rows per step
  const int lr = threadIdx.x / (TW / 4), lc = threadIdx.x % (TW / 4) * 4;
  const float4* src = reinterpret_cast<const float4*>(in + (r0 + lr) * cols + c0 + lc);
  const size_t in_step = size_t(RS) * cols / 4;
  float4 v[L];
#pragma unroll
  for (int j = 0; j < L; ++j) {
    v[j] = src[j * in_step];
  }
#pragma unroll
  for (int j = 0; j < L; ++j) {
    float* t = tile + (lr + j * RS) * P + lc;
    t[0] = v[j].x;
    t[1] = v[j].y;
    t[2] = v[j].z;
    t[3] = v[j].w;
  }
  __syncthreads();
  constexpr int CS = NT / (TH / 4);  // output rows per step
  const int oc = threadIdx.x / (TH / 4), q = threadIdx.x % (TH / 4) * 4;
  float4* dst = reinterpret_cast<float4*>(out + (c0 + oc) * rows + r0 + q);
  const size_t out_step = size_t(CS) * rows / 4;
#pragma unroll
  for (int j = 0; j < L; ++j) {
    const float* t = tile + q * P + oc + j * CS;
    dst[j * out_step] = make_float4(t[0], t[P], t[2 * P], t[3 * P]);
  }
}

// Persistent, double-buffered: cp.async brings tile t + G into one buffer while the block
// transposes tile t out of the other. Tiles in rows-first order (o1) or columns-first (o0).
template <int TH, int TW, int NT, int Order, int Blocks>
__global__ void __launch_bounds__(NT, Blocks)
    xpose_pipe(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  extern __shared__ float smem[];
  constexpr int P = TW + 1;
  constexpr int L = TH * TW / NT;
  const int tiles_x = cols / TW, tiles_y = rows / TH, tiles = tiles_x * tiles_y;
  const int lr = threadIdx.x / TW, lc = threadIdx.x % TW;
  const int oc = threadIdx.x / TH, orr = threadIdx.x % TH;
  auto origin = [&](int t, size_t& r0, size_t& c0) {
    int bx, by;
    if (Order == 0) {
      bx = t % tiles_x;
      by = t / tiles_x;
    } else {
      by = t % tiles_y;
      bx = t / tiles_y;
    }
    r0 = size_t(by) * TH;
    c0 = size_t(bx) * TW;
  };
  auto prefetch = [&](int t, float* buf) {
    size_t r0, c0;
    origin(t, r0, c0);
    const float* src = in + (r0 + lr) * cols + c0 + lc;
#pragma unroll
    for (int j = 0; j < L; ++j) {
      const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(buf + (lr + j * (NT / TW)) * P + lc));
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(src + size_t(j) * (NT / TW) * cols) : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
  };
  int cur = 0;
  int t = blockIdx.x;
  if (t < tiles) prefetch(t, smem);
  for (; t < tiles; t += gridDim.x) {
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    if (t + int(gridDim.x) < tiles) prefetch(t + gridDim.x, smem + (cur ^ 1) * TH * P);
    size_t r0, c0;
    origin(t, r0, c0);
    float* dst = out + (c0 + oc) * rows + r0 + orr;
    const float* b = smem + cur * TH * P;
#pragma unroll
    for (int j = 0; j < L; ++j) {
      dst[size_t(j) * (NT / TH) * rows] = b[orr * P + oc + j * (NT / TH)];
    }
    cur ^= 1;
  }
}

// Tile rows reach shared memory by one-dimensional bulk copies (cp.async.bulk: the TMA engine
// without a tensor map), completing on an mbarrier, so no thread or register holds the tile in
// flight and many small blocks fit on an SM. Rows of the shared tile are TW + 4 floats apart (the
// copies need 16-byte aligned rows). Store 0: each warp access writes 8 rows x 4 columns of the
// tile to 4 output rows (conflict-free with that pitch); 1: 32 lanes down one tile column (4-way
// conflicts, 128-byte output pieces); 2: transposed into a second tile (pitch TH + 8, conflict-free)
// that bulk copies store, one output row piece each.
__device__ __forceinline__ void bar_wait(unsigned bar, unsigned phase) {
  unsigned done = 0;
  while (!done) {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(bar), "r"(phase) : "memory");
  }
}

template <int TH, int TW, int NT, int Store>
__global__ void __launch_bounds__(NT) xpose_bulk(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  static_assert(TH % 32 == 0 && TW % 32 == 0, "");
  extern __shared__ __align__(128) float smem[];
  __shared__ __align__(8) unsigned long long bar;
  constexpr int P = TW + 4, Q = TH + 8, NW = NT / 32;
  const int tiles_y = rows / TH;
  const size_t r0 = size_t(blockIdx.x % tiles_y) * TH, c0 = size_t(blockIdx.x / tiles_y) * TW;
  const unsigned bar_a = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_a) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  gpuprims::detail::wait_for_prior_grids();
  if (warp == 0) {
    if (lane == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_a), "r"(TH * TW * 4) : "memory");
    }
    __syncwarp();
    for (int r = lane; r < TH; r += 32) {
      const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem + r * P));
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                   ::"r"(dst), "l"(in + (r0 + r) * cols + c0), "r"(TW * 4), "r"(bar_a) : "memory");
    }
  }
  bar_wait(bar_a, 0);
  const int rl = lane % 8, cl = lane / 8;
  if (Store == 0) {
    for (int cq = warp; cq < TW / 4; cq += NW) {
      const int c = cq * 4 + cl;
      float* dst = out + (c0 + c) * rows + r0 + rl;
#pragma unroll
      for (int rg = 0; rg < TH / 8; ++rg) dst[rg * 8] = smem[(rg * 8 + rl) * P + c];
    }
  } else if (Store == 1) {
    for (int i = warp; i < TW * (TH / 32); i += NW) {
      const int c = i % TW, rb = i / TW;
      out[(c0 + c) * rows + r0 + rb * 32 + lane] = smem[(rb * 32 + lane) * P + c];
    }
  } else {
    float* t = smem + TH * P;
    for (int cq = warp; cq < TW / 4; cq += NW) {
      const int c = cq * 4 + cl;
#pragma unroll
      for (int rg = 0; rg < TH / 8; ++rg) t[c * Q + rg * 8 + rl] = smem[(rg * 8 + rl) * P + c];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (warp == 0) {
      for (int c = lane; c < TW; c += 32) {
        const unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(t + c * Q));
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                     ::"l"(out + (c0 + c) * rows + r0), "r"(src), "r"(TH * 4) : "memory");
      }
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
  }
}

// The tile a block takes, for the block orders of xpose_rs and xpose_move: 0 tile columns fastest,
// 1 tile rows fastest (the library's), 100 + W bands of W tile columns walked row by row, 200 + K
// K x K groups of tiles (tile rows fastest inside a group and between groups), 300 + H bands of H
// tile rows walked column by column. What differs is the shape of the set of tiles in flight
// together (about 528 on an H100): how long a run of each input row and each output row it reads
// and writes.
template <int Order>
__device__ __forceinline__ void tile_of_block(int tiles_y, int tiles_x, int& by, int& bx) {
  const int b = blockIdx.x;
  if constexpr (Order == 0) {
    by = b / tiles_x, bx = b % tiles_x;
  } else if constexpr (Order == 1) {
    by = b % tiles_y, bx = b / tiles_y;
  } else if constexpr (Order < 200) {
    constexpr int W = Order - 100;
    const int band = b / (W * tiles_y), rem = b % (W * tiles_y);
    by = rem / W, bx = band * W + rem % W;
  } else if constexpr (Order < 300) {
    constexpr int K = Order - 200;
    const int g = b / (K * K), in = b % (K * K), groups_y = tiles_y / K;
    by = g % groups_y * K + in % K, bx = g / groups_y * K + in / K;
  } else {
    constexpr int H = Order - 300;
    const int band = b / (H * tiles_x), rem = b % (H * tiles_x);
    bx = rem / H, by = band * H + rem % H;
  }
}

// Loads that ask L2 to fetch Pf bytes around the sector missed (0: no prefetch size given, as the
// compiler emits): whether the tile rows, 256 bytes each, read down a strip, come from DRAM better
// as one request.
template <int Pf>
__device__ __forceinline__ float ld_prefetch(const float* p) {
  if constexpr (Pf == 0) {
    return __ldg(p);
  } else {
    float v;
    if constexpr (Pf == 128) {
      asm("ld.global.nc.L2::128B.f32 %0, [%1];" : "=f"(v) : "l"(__cvta_generic_to_global(p)));
    } else {
      static_assert(Pf == 256, "");
      asm("ld.global.nc.L2::256B.f32 %0, [%1];" : "=f"(v) : "l"(__cvta_generic_to_global(p)));
    }
    return v;
  }
}

// The library's loads (registers, 64 x 64 tile, 8 elements a thread) with the bulk stores of
// xpose_bulk<.., 2>: each warp copies whole tile columns from the padded tile into output-row
// order (pitch TH + 4, 16-byte aligned rows) and bulk-copies them out itself. Order 1: tile rows
// first (as the library), 0: tile columns first; Hint: evict-first L2 policy on the bulk stores;
// Copy: the tile stored back untransposed through the same bulk stores (a tiled copy); with Move,
// its rows stored untransposed at the transposed tile's place (square tiles: the transpose's DRAM
// pattern and the same instructions, with a row copy in place of the column gather).
template <int TH, int TW, int NT, int MinB, int Order = 1, bool Hint = false, bool Copy = false, bool Move = false,
          int Pf = 0>
__global__ void __launch_bounds__(NT, MinB) xpose_rs(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  static_assert(TH % 32 == 0 && NT % TW == 0, "");
  extern __shared__ __align__(128) float smem[];
  constexpr int P = TW + 1, Q = TH + 4, NW = NT / 32, L = TH * TW / NT;
  float* t = smem + TH * P;
  int by, bx;
  tile_of_block<Order>(rows / TH, cols / TW, by, bx);
  const size_t r0 = size_t(by) * TH, c0 = size_t(bx) * TW;
  const int lr = threadIdx.x / TW, lc = threadIdx.x % TW, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float* src = in + (r0 + lr) * cols + c0 + lc;
  gpuprims::detail::wait_for_prior_grids();
  float v[L];
#pragma unroll
  for (int j = 0; j < L; ++j) v[j] = ld_prefetch<Pf>(src + size_t(j) * (NT / TW) * cols);
#pragma unroll
  for (int j = 0; j < L; ++j) smem[(lr + j * (NT / TW)) * P + lc] = v[j];
  __syncthreads();
  if (Copy) {
    for (int r = warp; r < TH; r += NW) {
#pragma unroll
      for (int k = 0; k < TW / 32; ++k) t[r * (TW + 4) + lane + 32 * k] = smem[r * P + lane + 32 * k];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncwarp();
    const int r = warp + lane * NW;
    if (lane < (TH + NW - 1 - warp) / NW) {
      const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(t + r * (TW + 4)));
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                   ::"l"(Move ? out + (c0 + r) * rows + r0 : out + (r0 + r) * cols + c0), "r"(sa), "r"(TW * 4)
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    return;
  }
  for (int c = warp; c < TW; c += NW) {
#pragma unroll
    for (int k = 0; k < TH / 32; ++k) t[c * Q + lane + 32 * k] = smem[(lane + 32 * k) * P + c];
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncwarp();
  const int c = warp + lane * NW;
  if (lane < (TW + NW - 1 - warp) / NW) {
    const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(t + c * Q));
    if (Hint) {
      unsigned long long pol;
      asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;"
                   ::"l"(out + (c0 + c) * rows + r0), "r"(sa), "r"(TH * 4), "l"(pol) : "memory");
    } else {
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                   ::"l"(out + (c0 + c) * rows + r0), "r"(sa), "r"(TH * 4) : "memory");
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

// Each warp moves a WR x 8 patch of the input on its own: 8 columns (32 bytes: one sector of each
// input row) of WR rows, V floats per load, so a warp's load covers 32 / (8 / V) rows of 32 bytes.
// Lanes write their elements straight into the warp's staged output rows (pitch WR + 4 floats:
// 16-byte aligned rows, and the lanes of one store fall on 32 different banks for V = 1, 2, 4),
// then 8 lanes bulk-store one output row piece of WR floats each. No gather pass through a padded
// tile and no block-wide barrier. Block: NT / 32 warps, TW / 8 of them across a tile of TW
// columns; consecutive blocks walk down the tile rows (the library's order).
template <int WR, int V, int TW, int NT>
__global__ void __launch_bounds__(NT, 2048 / NT) xpose_direct(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  constexpr int NW = NT / 32, WX = TW / 8, TH = WR * (NW / WX);
  constexpr int LC = 8 / V, LR = 32 / LC, L = WR / LR, P = WR + 4;
  static_assert(NW % WX == 0 && WR % LR == 0 && WR % 32 == 0, "");
  extern __shared__ __align__(128) float smem[];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float* staged = smem + warp * 8 * P;
  const int tiles_y = rows / TH;
  const size_t r0 = size_t(blockIdx.x % tiles_y) * TH + (warp / WX) * WR;
  const size_t c0 = size_t(blockIdx.x / tiles_y) * TW + (warp % WX) * 8;
  const int lc = lane % LC, lr = lane / LC;
  const float* src = in + (r0 + lr) * cols + c0 + lc * V;
  gpuprims::detail::wait_for_prior_grids();
  if constexpr (V == 1) {
    float v[L];
#pragma unroll
    for (int j = 0; j < L; ++j) v[j] = src[size_t(j) * LR * cols];
#pragma unroll
    for (int j = 0; j < L; ++j) staged[lc * P + lr + j * LR] = v[j];
  } else if constexpr (V == 2) {
    float2 v[L];
#pragma unroll
    for (int j = 0; j < L; ++j) v[j] = *reinterpret_cast<const float2*>(src + size_t(j) * LR * cols);
#pragma unroll
    for (int j = 0; j < L; ++j) {
      staged[(2 * lc) * P + lr + j * LR] = v[j].x;
      staged[(2 * lc + 1) * P + lr + j * LR] = v[j].y;
    }
  } else {
    float4 v[L];
#pragma unroll
    for (int j = 0; j < L; ++j) v[j] = *reinterpret_cast<const float4*>(src + size_t(j) * LR * cols);
#pragma unroll
    for (int j = 0; j < L; ++j) {
      staged[(4 * lc) * P + lr + j * LR] = v[j].x;
      staged[(4 * lc + 1) * P + lr + j * LR] = v[j].y;
      staged[(4 * lc + 2) * P + lr + j * LR] = v[j].z;
      staged[(4 * lc + 3) * P + lr + j * LR] = v[j].w;
    }
  }
  gpuprims::detail::fence_shared_for_bulk_copies();
  __syncwarp();
  if (lane < 8) {
    gpuprims::detail::bulk_store(out + (c0 + lane) * rows + r0, staged + lane * P, WR * 4);
    gpuprims::detail::wait_bulk_store_reads();
  }
}

// Where the loss of a transpose against a copy comes from: 64 x 64 tiles through registers only,
// rows-first block order unless told, each tile row stored as it was read, either back in its place (Move
// false: a tiled copy) or at the transposed tile's place (Move true: the DRAM pattern of a
// transpose, at 256-byte granularity, with no transposing inside the tile).
template <bool Move, int Pf = 0, int Order = 1>
__global__ void __launch_bounds__(512, 4) xpose_move(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  int by, bx;
  tile_of_block<Order>(rows / 64, cols / 64, by, bx);
  const size_t r0 = size_t(by) * 64, c0 = size_t(bx) * 64;
  const int lr = threadIdx.x / 64, lc = threadIdx.x % 64;
  const float* src = in + (r0 + lr) * cols + c0 + lc;
  float* dst = Move ? out + (c0 + lr) * rows + r0 + lc : out + (r0 + lr) * cols + c0 + lc;
  const size_t dst_step = size_t(8) * (Move ? rows : cols);
  float v[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) v[j] = ld_prefetch<Pf>(src + size_t(j) * 8 * cols);
#pragma unroll
  for (int j = 0; j < 8; ++j) dst[j * dst_step] = v[j];
}

// The expected output of xpose_move<true> for square matrices.
__global__ void tilemove_ref(const float* in, float* out, int dim) {
  const size_t n = size_t(dim) * dim;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const size_t r = i / dim, c = i % dim;
    out[(c / 64 * 64 + r % 64) * dim + r / 64 * 64 + c % 64] = in[i];
  }
}

struct variant {
  std::string name;
  std::function<void(const float*, float*, int, int, cudaStream_t)> run;
  bool copy = false;
  bool moved = false;  // checked against tilemove_ref
};

template <int TH, int TW, int NT, int Order, int Hint, bool Copy = false>
variant make_x(const char* name, bool pdl = false) {
  auto k = xpose<TH, TW, NT, Order, Hint, Copy>;
  const size_t smem = size_t(TH) * (TW + 1) * 4;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  return {name, [=](const float* in, float* out, int rows, int cols, cudaStream_t s) {
            launch_ex(pdl, k, dim3((rows / TH) * (cols / TW)), dim3(NT), smem, s, in, out, rows, cols);
          }, Copy};
}
template <int TH, int TW, int NT, int Order>
variant make_v4(const char* name) {
  auto k = xpose_v4<TH, TW, NT, Order>;
  const size_t smem = size_t(TH) * (TW + 1) * 4;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  return {name, [=](const float* in, float* out, int rows, int cols, cudaStream_t s) {
            launch_ex(false, k, dim3((rows / TH) * (cols / TW)), dim3(NT), smem, s, in, out, rows, cols);
          }};
}

template <int TH, int TW, int NT, int Order, int Blocks>
variant make_pipe(const char* name) {
  auto k = xpose_pipe<TH, TW, NT, Order, Blocks>;
  const size_t smem = 2 * size_t(TH) * (TW + 1) * 4;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return {name, [=](const float* in, float* out, int rows, int cols, cudaStream_t s) {
            const int tiles = (rows / TH) * (cols / TW);
            const int grid = std::min(tiles, sms * Blocks);
            launch_ex(false, k, dim3(grid), dim3(NT), smem, s, in, out, rows, cols);
          }};
}

template <int TH, int TW, int NT, int Store>
variant make_bulk(const char* name) {
  auto k = xpose_bulk<TH, TW, NT, Store>;
  const size_t smem = size_t(TH) * (TW + 4) * 4 + (Store == 2 ? size_t(TW) * (TH + 8) * 4 : 0);
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  return {name, [=](const float* in, float* out, int rows, int cols, cudaStream_t s) {
            launch_ex(false, k, dim3((rows / TH) * (cols / TW)), dim3(NT), smem, s, in, out, rows, cols);
          }};
}

template <int TH, int TW, int NT, int MinB, int Order = 1, bool Hint = false, bool Copy = false, bool Move = false,
          int Pf = 0>
variant make_rs(const char* name) {
  static_assert(!Move || (Copy && TH == TW), "");
  auto k = xpose_rs<TH, TW, NT, MinB, Order, Hint, Copy, Move, Pf>;
  const size_t smem = size_t(TH) * (TW + 1) * 4 + size_t(TW + 4) * (TH + 4) * 4;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  return {name, [=](const float* in, float* out, int rows, int cols, cudaStream_t s) {
            launch_ex(false, k, dim3((rows / TH) * (cols / TW)), dim3(NT), smem, s, in, out, rows, cols);
          }, Copy && !Move, Move};
}

template <int WR, int V, int TW, int NT>
variant make_direct(const char* name) {
  auto k = xpose_direct<WR, V, TW, NT>;
  constexpr int TH = WR * (NT / 32 / (TW / 8));
  const size_t smem = size_t(NT / 32) * 8 * (WR + 4) * 4;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  return {name, [=](const float* in, float* out, int rows, int cols, cudaStream_t s) {
            launch_ex(false, k, dim3((rows / TH) * (cols / TW)), dim3(NT), smem, s, in, out, rows, cols);
          }};
}

template <bool Move, int Pf = 0, int Order = 1>
variant make_move(const char* name) {
  return {name, [](const float* in, float* out, int rows, int cols, cudaStream_t s) {
            launch_ex(false, xpose_move<Move, Pf, Order>, dim3((rows / 64) * (cols / 64)), dim3(512), 0, s, in, out, rows, cols);
          }, !Move, Move};
}

static void transpose_section(const std::string& which) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) std::exit(2);
  std::vector<variant> vs;
  vs.push_back({"lib_default", [](const float* in, float* out, int rows, int cols, cudaStream_t s) {
                  CK(gpuprims::transpose(in, out, rows, cols, s));
                }});
  vs.push_back({"cublasSgeam", [h](const float* in, float* out, int rows, int cols, cudaStream_t s) {
                  const float one = 1, zero = 0;
                  cublasSetStream(h, s);
                  // row-major rows x cols == column-major cols x rows (ld cols); C = A^T: rows x cols col-major? 
                  cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, out, rows, out, rows);
                }});
  vs.push_back({"memcpy", [](const float* in, float* out, int rows, int cols, cudaStream_t s) {
                  CK(cudaMemcpyAsync(out, in, size_t(rows) * cols * 4, cudaMemcpyDeviceToDevice, s));
                }, true});
  vs.push_back({"lib_copy", [](const float* in, float* out, int rows, int cols, cudaStream_t s) {
                  CK(gpuprims::copy(in, out, size_t(rows) * cols, s));
                }, true});
  // The same tiles stored untransposed in place: a tiled copy, whose order of DRAM accesses no
  // transpose has (docs/transpose.md, "Where the last percent goes").
  vs.push_back(make_x<64, 64, 512, 0, 0, true>("tiledcopy64x64", false));
  if (which == "direct") {
    vs.push_back(make_rs<64, 64, 512, 4>("rs64_nt512"));
    vs.push_back(make_rs<64, 64, 512, 4, 1, false, true>("rs64_copy"));
    vs.push_back(make_rs<64, 64, 512, 4, 0, false, true>("rs64_copy_o0"));
    vs.push_back(make_rs<64, 64, 512, 4, 1, false, true, true>("rs64_move"));
    vs.push_back(make_rs<64, 64, 512, 4, 0, false, true, true>("rs64_move_o0"));
    vs.push_back(make_move<false>("regcopy64_o1"));
    vs.push_back(make_move<true>("regmove64_o1"));
    vs.push_back(make_move<true, 256>("regmove64_pf256"));
    vs.push_back(make_rs<64, 64, 512, 4, 1, false, false, false, 128>("rs64_pf128"));
    vs.push_back(make_rs<64, 64, 512, 4, 1, false, false, false, 256>("rs64_pf256"));
    vs.push_back(make_rs<64, 64, 512, 4, 0, false, false, false, 256>("rs64_o0_pf256"));
    // The shape of the set of tiles in flight (tile_of_block).
    vs.push_back(make_rs<64, 64, 512, 4, 0>("rs64_o0"));
    vs.push_back(make_rs<64, 64, 512, 4, 108>("rs64_band8"));
    vs.push_back(make_rs<64, 64, 512, 4, 116>("rs64_band16"));
    vs.push_back(make_rs<64, 64, 512, 4, 132>("rs64_band32"));
    vs.push_back(make_rs<64, 64, 512, 4, 208>("rs64_group8"));
    vs.push_back(make_rs<64, 64, 512, 4, 216>("rs64_group16"));
    vs.push_back(make_rs<64, 64, 512, 4, 232>("rs64_group32"));
    vs.push_back(make_rs<64, 64, 512, 4, 316>("rs64_rowband16"));
    vs.push_back(make_rs<64, 64, 512, 4, 332>("rs64_rowband32"));
    vs.push_back(make_move<true, 0, 116>("regmove_band16"));
    vs.push_back(make_move<true, 0, 216>("regmove_group16"));
    vs.push_back(make_move<true, 0, 316>("regmove_rowband16"));
    vs.push_back(make_direct<64, 1, 64, 512>("d64_v1_64c_512"));
    vs.push_back(make_direct<64, 2, 64, 512>("d64_v2_64c_512"));
    vs.push_back(make_direct<64, 4, 64, 512>("d64_v4_64c_512"));
    vs.push_back(make_direct<64, 1, 64, 256>("d64_v1_64c_256"));
    vs.push_back(make_direct<64, 4, 64, 256>("d64_v4_64c_256"));
    vs.push_back(make_direct<32, 1, 64, 256>("d32_v1_64c_256"));
    vs.push_back(make_direct<32, 4, 64, 512>("d32_v4_64c_512"));
    vs.push_back(make_direct<128, 4, 64, 512>("d128_v4_64c_512"));
    vs.push_back(make_direct<128, 1, 64, 256>("d128_v1_64c_256"));
    vs.push_back(make_direct<64, 4, 128, 512>("d64_v4_128c_512"));
    vs.push_back(make_direct<64, 1, 32, 128>("d64_v1_32c_128"));
  } else if (which == "bulk") {
    vs.push_back(make_x<64, 64, 512, 1, 0>("o1_64x64"));
    vs.push_back(make_rs<64, 64, 512, 4>("rs64_nt512"));
    vs.push_back(make_rs<64, 64, 512, 4, 0>("rs64_o0"));
    vs.push_back(make_rs<64, 64, 512, 4, 1, true>("rs64_evict_first"));
    vs.push_back(make_rs<64, 64, 512, 4, 1, false, true>("rs64_copy"));
    vs.push_back(make_rs<64, 64, 1024, 2>("rs64_nt1024"));
    vs.push_back(make_rs<64, 64, 512, 3>("rs64_b3"));
    vs.push_back(make_rs<32, 64, 256, 8>("rs32r64c_nt256"));
    vs.push_back(make_rs<64, 32, 256, 8>("rs64r32c_nt256"));
    vs.push_back(make_rs<128, 64, 512, 3>("rs128r64c_nt512"));
    vs.push_back(make_rs<64, 128, 512, 3>("rs64r128c_nt512"));
    vs.push_back(make_rs<32, 32, 128, 16>("rs32_nt128"));
    vs.push_back(make_bulk<64, 64, 128, 0>("bulk64_s0_nt128"));
    vs.push_back(make_bulk<64, 64, 256, 0>("bulk64_s0_nt256"));
    vs.push_back(make_bulk<64, 64, 256, 1>("bulk64_s1_nt256"));
    vs.push_back(make_bulk<64, 64, 128, 2>("bulk64_s2_nt128"));
    vs.push_back(make_bulk<64, 64, 256, 2>("bulk64_s2_nt256"));
    vs.push_back(make_bulk<32, 32, 64, 0>("bulk32_s0_nt64"));
    vs.push_back(make_bulk<32, 32, 128, 2>("bulk32_s2_nt128"));
    vs.push_back(make_bulk<32, 128, 256, 0>("bulk32r128c_s0"));
    vs.push_back(make_bulk<128, 32, 256, 0>("bulk128r32c_s0"));
    vs.push_back(make_bulk<128, 64, 256, 0>("bulk128r64c_s0"));
    vs.push_back(make_bulk<64, 128, 256, 0>("bulk64r128c_s0"));
    vs.push_back(make_bulk<128, 128, 512, 0>("bulk128_s0"));
    vs.push_back(make_bulk<128, 128, 512, 2>("bulk128_s2"));
    vs.push_back(make_bulk<64, 128, 256, 2>("bulk64r128c_s2"));
  } else {
  // Tile shapes (rows x cols of the input tile), threads, and the block order: o0 walks the tile
  // columns first, o1 the tile rows (what gpuprims::transpose does), bandW columns W wide.
  vs.push_back(make_x<64, 64, 512, 0, 0>("x64x64_o0"));
  vs.push_back(make_x<64, 64, 512, 1, 0>("x64x64_o1"));
  vs.push_back(make_x<64, 64, 512, 102, 0>("band2"));
  vs.push_back(make_x<64, 64, 512, 108, 0>("band8"));
  vs.push_back(make_x<64, 64, 512, 116, 0>("band16"));
  vs.push_back(make_x<64, 64, 256, 0, 0>("x64x64_nt256"));
  vs.push_back(make_x<64, 64, 256, 1, 0>("o1_nt256"));
  vs.push_back(make_x<64, 64, 1024, 1, 0>("o1_nt1024"));
  vs.push_back(make_x<32, 32, 256, 0, 0>("x32x32"));
  vs.push_back(make_x<32, 32, 256, 1, 0>("o1_32x32"));
  vs.push_back(make_x<32, 64, 512, 1, 0>("o1_32r64c"));
  vs.push_back(make_x<64, 32, 512, 1, 0>("o1_64r32c"));
  vs.push_back(make_x<128, 64, 512, 0, 0>("x128r64c_o0"));
  vs.push_back(make_x<128, 64, 512, 1, 0>("x128r64c_o1"));
  vs.push_back(make_x<64, 128, 512, 0, 0>("x64r128c_o0"));
  vs.push_back(make_x<64, 128, 512, 1, 0>("x64r128c_o1"));
  vs.push_back(make_x<128, 128, 1024, 0, 0>("x128x128_o0"));
  vs.push_back(make_x<128, 128, 1024, 1, 0>("x128x128_o1"));
  vs.push_back(make_x<256, 64, 1024, 0, 0>("x256r64c_o0"));
  vs.push_back(make_x<256, 64, 1024, 1, 0>("x256r64c_o1"));
  vs.push_back(make_x<64, 256, 1024, 0, 0>("x64r256c_o0"));
  vs.push_back(make_x<64, 256, 1024, 1, 0>("x64r256c_o1"));
  // Evict-first hints (__ldcs / __stcs): 1 loads, 2 stores, 3 both.
  vs.push_back(make_x<64, 64, 512, 0, 3>("x64x64_o0_cs"));
  vs.push_back(make_x<64, 64, 512, 1, 1>("o1_ldcs"));
  vs.push_back(make_x<64, 64, 512, 1, 2>("o1_stcs"));
  vs.push_back(make_x<64, 64, 512, 1, 3>("o1_cs"));
  // The dependent launch on a single timed launch (nothing to overlap).
  vs.push_back(make_x<64, 64, 512, 1, 0>("o1_pdl", true));
  // 16-byte global accesses on both sides.
  vs.push_back(make_v4<64, 64, 256, 0>("v4_64x64_o0"));
  vs.push_back(make_v4<64, 64, 256, 1>("v4_64x64_o1"));
  vs.push_back(make_v4<64, 128, 256, 0>("v4_64r128c_o0"));
  vs.push_back(make_v4<128, 64, 256, 0>("v4_128r64c_o0"));
  vs.push_back(make_v4<128, 128, 512, 0>("v4_128x128_o0"));
  // Persistent blocks, cp.async double buffering.
  vs.push_back(make_pipe<64, 64, 512, 1, 4>("pipe64_o1_b4"));
  vs.push_back(make_pipe<64, 64, 512, 0, 4>("pipe64_o0_b4"));
  vs.push_back(make_pipe<64, 64, 512, 1, 3>("pipe64_o1_b3"));
  vs.push_back(make_pipe<64, 64, 1024, 1, 2>("pipe64_o1_nt1024"));
  vs.push_back(make_pipe<32, 32, 256, 1, 8>("pipe32_o1_b8"));
  vs.push_back(make_pipe<64, 64, 256, 1, 6>("pipe64_o1_nt256"));
  }
  for (int dim : {8192, 16384}) {
    const size_t n = size_t(dim) * dim;
    float *in, *out, *ref, *moved;
    unsigned long long* bad;
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4));
    CK(cudaMalloc(&ref, n * 4));
    CK(cudaMalloc(&moved, n * 4));
    CK(cudaMalloc(&bad, 8));
    fill<<<4096, 256>>>(in, n, dim);
    CK(gpuprims::transpose(in, ref, dim, dim, cudaStream_t{0}));
    tilemove_ref<<<4096, 256>>>(in, moved, dim);
    CK(cudaDeviceSynchronize());
    std::printf("\n== transpose float %dx%d (GB/s of 2 x %zu MiB) ==\n", dim, dim, n * 4 >> 20);
    for (auto& v : vs) {
      CK(cudaMemset(out, 0xff, n * 4));
      v.run(in, out, dim, dim, 0);
      CK(cudaGetLastError());
      CK(cudaMemset(bad, 0, 8));
      count_diff<<<4096, 256>>>(out, v.copy ? in : v.moved ? moved : ref, n, bad);
      unsigned long long b = 0;
      CK(cudaMemcpy(&b, bad, 8, cudaMemcpyDeviceToHost));
      if (b) std::printf("%-16s WRONG: %llu mismatches\n", v.name.c_str(), b);
    }
    std::vector<std::vector<double>> gbs(vs.size());
    for (int round = 0; round < 5; ++round) {
      for (size_t i = 0; i < vs.size(); ++i) {
        double us = time_us([&](cudaStream_t s) { vs[i].run(in, out, dim, dim, s); }, dim == 8192 ? 40 : 15);
        gbs[i].push_back(2.0 * n * 4 / us / 1e3);
      }
    }
    double geam = 0, mc = 0;
    for (size_t i = 0; i < vs.size(); ++i) {
      auto g = gbs[i];
      std::sort(g.begin(), g.end());
      if (vs[i].name == "cublasSgeam") geam = g[2];
      if (vs[i].name == "memcpy") mc = g[2];
    }
    for (size_t i = 0; i < vs.size(); ++i) {
      auto g = gbs[i];
      std::sort(g.begin(), g.end());
      std::printf("%-16s %7.0f  (min %7.0f max %7.0f)  %.3fx geam  %.3fx memcpy\n", vs[i].name.c_str(), g[2], g[0],
                  g[4], g[2] / geam, g[2] / mc);
    }
    CK(cudaFree(in));
    CK(cudaFree(out));
    CK(cudaFree(ref));
    CK(cudaFree(moved));
    CK(cudaFree(bad));
  }
  cublasDestroy(h);
}

static void host_cost() {
  auto k = xpose<64, 64, 512, 0, 0>;
  cudaFuncAttributes fa{};
  const int reps = 20000;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) CK(cudaFuncGetAttributes(&fa, k));
  auto t1 = std::chrono::steady_clock::now();
  std::printf("\nhost: cudaFuncGetAttributes %.3f us; ptx %d binary %d\n",
              std::chrono::duration<double, std::micro>(t1 - t0).count() / reps, fa.ptxVersion, fa.binaryVersion);
}

int main(int argc, char** argv) {
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, %d SMs, L2 %d MiB\n", p.name, p.multiProcessorCount, p.l2CacheSize >> 20);
  CK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
  std::string what = argc > 1 ? argv[1] : "all";
  host_cost();
  if (what == "all" || what == "reduce") reduce_section();
  if (what == "all" || what == "transpose") transpose_section("all");
  if (what == "bulk") transpose_section("bulk");
  if (what == "direct") transpose_section("direct");
  return 0;
}
