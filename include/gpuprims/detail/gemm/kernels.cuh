// gpuprims' FP32 gemm kernels: the library's (a block_gemm_tile per block, one block per output
// tile, tiles numbered along n first), and the ladder's first rungs (one output per thread: naive
// and coalesced; the lecture's 16 x 16 shared tiles). Argument checks shared by gemm and the
// ladder.
#pragma once

#include <gpuprims/block/gemm.cuh>
#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/gemm.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims::detail {

// How many shapes a tuning offers (`static constexpr int shapes`, else one) and shape S of them.
template <class Tuning, class = void>
struct gemm_shape_count {
  static constexpr int value = 1;
};
template <class Tuning>
struct gemm_shape_count<Tuning, std::void_t<decltype(Tuning::shapes)>> {
  static constexpr int value = Tuning::shapes;
};

template <class Tuning, int Shape>
__host__ __device__ constexpr gemm_policy gemm_policy_of(int arch) {
  if constexpr (gemm_shape_count<Tuning>::value > 1) {
    return Tuning::select(arch, Shape);
  } else {
    return Tuning::select(arch);
  }
}

template <class Tuning, int Shape>
inline constexpr gemm_policy gemm_policy_here = gemm_policy_of<Tuning, Shape>(GPUPRIMS_TARGET_ARCH);

template <class Tuning, int Shape>
using gemm_tile_here = block_gemm_tile<
    gemm_policy_here<Tuning, Shape>.block_m, gemm_policy_here<Tuning, Shape>.block_n,
    gemm_policy_here<Tuning, Shape>.block_k, gemm_policy_here<Tuning, Shape>.thread_m,
    gemm_policy_here<Tuning, Shape>.thread_n, gemm_policy_here<Tuning, Shape>.warp_tiled,
    gemm_policy_here<Tuning, Shape>.stages>;

__host__ __device__ constexpr int gemm_threads(const gemm_policy& p) {
  return (p.block_m / p.thread_m) * (p.block_n / p.thread_n);
}

template <class Tuning, int Shape>
__global__ void __launch_bounds__(gemm_threads(gemm_policy_here<Tuning, Shape>),
                                  gemm_policy_here<Tuning, Shape>.min_blocks_per_sm)
    gemm_tile_kernel(const float* a, const float* b, float* c, std::size_t m, std::size_t n,
                     std::size_t k, std::size_t lda, std::size_t ldb, std::size_t ldc, float alpha,
                     float beta, bool vector_ab, bool vector_c) {
  constexpr gemm_policy p = gemm_policy_here<Tuning, Shape>;
  constexpr int BM = p.block_m, BN = p.block_n, TM = p.thread_m, TN = p.thread_n;
  using tile_t = gemm_tile_here<Tuning, Shape>;
  __shared__ typename tile_t::storage s;
  tile_t tile(s);
  // Block b takes tile (row, col) in groups of group_m tile rows, column by column within a
  // group: the blocks resident at once share fewer rows of A and columns of B (L2 reuse).
  const std::size_t tiles_m = ceil_div(m, std::size_t{BM}), tiles_n = ceil_div(n, std::size_t{BN});
  constexpr auto group_m = static_cast<std::size_t>(p.group_m);
  const std::size_t group = group_m * tiles_n, first_m = blockIdx.x / group * group_m;
  const std::size_t group_rows = tiles_m - first_m < group_m ? tiles_m - first_m : group_m;
  const std::size_t in_group = blockIdx.x % group;
  const std::size_t row0 = (first_m + in_group % group_rows) * BM;
  const std::size_t col0 = in_group / group_rows * BN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      acc[i][j] = 0.0f;
    }
  }
  if (alpha != 0.0f) {  // BLAS: A and B are not read when alpha is zero
    tile.multiply(a, lda, b, ldb, m, n, k, row0, col0, vector_ab, acc);
  }
  tile.store(c, ldc, m, n, row0, col0, alpha, beta, acc, vector_c);
}

// The result of one output from its dot product (C not read when beta == 0).
__device__ __forceinline__ void write_output(float* c, float dot, float alpha, float beta) {
  *c = beta != 0.0f ? fmaf(beta, *c, alpha * dot) : alpha * dot;
}

// Rung 1: thread i takes output (i % m, i / m): consecutive threads walk down a column, so their
// reads of A and writes of C are a row apart (uncoalesced).
template <int = 0>  // a template: defined in every translation unit that includes it
__global__ void gemm_naive_kernel(const float* a, const float* b, float* c, std::size_t m,
                                  std::size_t n, std::size_t k, std::size_t lda, std::size_t ldb,
                                  std::size_t ldc, float alpha, float beta) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < m * n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const std::size_t row = i % m, col = i / m;
    float dot = 0.0f;
    for (std::size_t kk = 0; alpha != 0.0f && kk < k; ++kk) {
      dot = fmaf(a[row * lda + kk], b[kk * ldb + col], dot);
    }
    write_output(c + row * ldc + col, dot, alpha, beta);
  }
}

// Rung 2: thread i takes output (i / n, i % n): consecutive threads along a row of C, so B and C
// are read and written coalesced and A is a broadcast.
template <int = 0>  // a template: defined in every translation unit that includes it
__global__ void gemm_coalesced_kernel(const float* a, const float* b, float* c, std::size_t m,
                                      std::size_t n, std::size_t k, std::size_t lda,
                                      std::size_t ldb, std::size_t ldc, float alpha, float beta) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < m * n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const std::size_t row = i / n, col = i % n;
    float dot = 0.0f;
    for (std::size_t kk = 0; alpha != 0.0f && kk < k; ++kk) {
      dot = fmaf(a[row * lda + kk], b[kk * ldb + col], dot);
    }
    write_output(c + row * ldc + col, dot, alpha, beta);
  }
}

// Rung 3: the lecture's kernel, 16 x 16 threads, one output each, 16 x 16 tiles of A and B in
// shared memory, fixed for sizes that are not multiples of 16 (zeros outside the matrices, no
// write outside C).
template <int = 0>
__global__ void __launch_bounds__(256)
    gemm_shared16_kernel(const float* a, const float* b, float* c, std::size_t m, std::size_t n,
                         std::size_t k, std::size_t lda, std::size_t ldb, std::size_t ldc,
                         float alpha, float beta) {
  __shared__ float as[16][16];
  __shared__ float bs[16][16];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const std::size_t tiles_n = ceil_div(n, std::size_t{16});
  const std::size_t row = blockIdx.x / tiles_n * 16 + ty;
  const std::size_t col = blockIdx.x % tiles_n * 16 + tx;
  float dot = 0.0f;
  for (std::size_t k0 = 0; alpha != 0.0f && k0 < k; k0 += 16) {
    as[ty][tx] = row < m && k0 + tx < k ? a[row * lda + k0 + tx] : 0.0f;
    bs[ty][tx] = k0 + ty < k && col < n ? b[(k0 + ty) * ldb + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 16; ++kk) {
      dot = fmaf(as[ty][kk], bs[kk][tx], dot);
    }
    __syncthreads();
  }
  if (row < m && col < n) {
    write_output(c + row * ldc + col, dot, alpha, beta);
  }
}

// Row-major A (m x k, lda), B (k x n, ldb), C (m x n, ldc): what BLAS requires of them, no null
// pointer where something is read or written, C disjoint from A and B, sizes whose spans fit.
inline bool gemm_arguments_ok(const float* a, const float* b, const float* c, std::size_t m,
                              std::size_t n, std::size_t k, std::size_t lda, std::size_t ldb,
                              std::size_t ldc, float alpha) {
  if (m == 0 || n == 0) {
    return true;  // nothing to do, nothing referenced
  }
  const bool reads_ab = k > 0 && alpha != 0.0f;
  std::size_t c_span = 0, a_span = 0, b_span = 0;
  if (c == nullptr || ldc < n || !checked_span(1, 0, m, ldc, n, c_span) ||
      !checked_bytes<float>(c_span, c_span)) {
    return false;
  }
  if (!reads_ab) {
    return true;
  }
  if (a == nullptr || b == nullptr || lda < k || ldb < n ||
      !checked_span(1, 0, m, lda, k, a_span) || !checked_span(1, 0, k, ldb, n, b_span) ||
      !checked_bytes<float>(a_span, a_span) || !checked_bytes<float>(b_span, b_span)) {
    return false;
  }
  return !ranges_overlap(c, c_span, a, a_span) && !ranges_overlap(c, c_span, b, b_span);
}

inline bool host_aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// One block per block_m x block_n tile of C: the tuning's first shape with at least as many tiles
// as the GPU has SMs, else its last.
template <class Tuning, int Shape = 0>
cudaError_t launch_gemm_shape(const device_facts& facts, const float* a, const float* b, float* c,
                              std::size_t m, std::size_t n, std::size_t k, std::size_t lda,
                              std::size_t ldb, std::size_t ldc, float alpha, float beta,
                              cudaStream_t stream) {
  const gemm_policy p = gemm_policy_of<Tuning, Shape>(facts.target_arch);
  const std::size_t tiles = ceil_div(m, static_cast<std::size_t>(p.block_m)) *
                            ceil_div(n, static_cast<std::size_t>(p.block_n));
  if constexpr (Shape + 1 < gemm_shape_count<Tuning>::value) {
    if (tiles < static_cast<std::size_t>(facts.multiprocessors)) {
      return launch_gemm_shape<Tuning, Shape + 1>(facts, a, b, c, m, n, k, lda, ldb, ldc, alpha,
                                                  beta, stream);
    }
  }
  if (tiles > 0x7fffffff) {
    return cudaErrorInvalidValue;
  }
  const bool vector_ab =
      p.vector_global && host_aligned16(a) && host_aligned16(b) && lda % 4 == 0 && ldb % 4 == 0;
  const bool vector_c = p.vector_global && host_aligned16(c) && ldc % 4 == 0;
  return launch<gemm_tile_kernel<Tuning, Shape>>(
      dim3(static_cast<unsigned int>(tiles)), dim3(static_cast<unsigned int>(gemm_threads(p))),
      stream, false, a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, vector_ab, vector_c);
}

template <class Tuning>
cudaError_t launch_gemm_tiles(const float* a, const float* b, float* c, std::size_t m,
                              std::size_t n, std::size_t k, std::size_t lda, std::size_t ldb,
                              std::size_t ldc, float alpha, float beta, cudaStream_t stream) {
  device_facts facts;  // read once, whichever shape is taken
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  return launch_gemm_shape<Tuning>(facts, a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, stream);
}

}  // namespace gpuprims::detail
