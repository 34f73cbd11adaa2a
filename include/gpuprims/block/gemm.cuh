// block_gemm_tile: one block's tile of a row-major FP32 matrix product, C = alpha A B + beta C,
// from your own kernel: the storage of one A tile and one B tile, a method that loads the next
// pair, one that accumulates their product into each thread's register tile, and one that writes
// the register tile (with your epilogue in between if you like).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/block_shape.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpuprims {

/// A BM x BN tile of C over k in steps of BK, for a block of (BM / TM) x (BN / TN) threads (1D),
/// each owning TM x TN outputs in registers. WarpTiled (BM = BN = 128, TM = TN = 8, 256 threads)
/// lays a warp's outputs out as a 64 x 32 tile, lanes in 8 x 4, each lane two 4 x 4 blocks in each
/// direction, so that a warp's shared-memory reads are conflict-free 16-byte broadcasts; otherwise
/// thread t owns rows (t / (BN / TN)) * TM + [0, TM) and columns (t % (BN / TN)) * TN + [0, TN).
/// A is stored transposed (k-major) in the storage so that a thread's TM values of a k are
/// consecutive. Every thread calls each method (they hold barriers).
///
///   using tile_t = gpuprims::block_gemm_tile<128, 128, 16, 8, 8, true>;
///   __shared__ tile_t::storage s;
///   tile_t tile(s);
///   float acc[8][8] = {};
///   for (std::size_t k0 = 0; k0 < k; k0 += 16) {
///     tile.load(a, lda, b, ldb, m, n, k, row0, col0, k0, vector);
///     tile.accumulate(acc);
///   }
///   tile.store(c, ldc, m, n, row0, col0, alpha, beta, acc, vector_c);
template <int BM, int BN, int BK, int TM, int TN, bool WarpTiled = false>
class block_gemm_tile {
  static_assert(BM % TM == 0 && BN % TN == 0, "whole thread tiles");
  static_assert(BK % 4 == 0, "BK: a multiple of 4 (16-byte loads along k)");
  static_assert(BM % 4 == 0 && BN % 4 == 0, "BM, BN: multiples of 4 (16-byte rows)");
  static_assert(!WarpTiled || (BM == 128 && BN == 128 && TM == 8 && TN == 8),
                "the warp-tiled layout is 128 x 128 with 8 x 8 a thread");

 public:
  static constexpr int threads = (BM / TM) * (BN / TN);
  static_assert(threads % 32 == 0 && threads <= 1024, "a whole number of warps, at most 1024");

  /// Declare it __shared__. Rows padded by 4 floats: the transposed stores of A spread over the
  /// banks, and every row stays 16-byte aligned for the vector reads.
  struct storage {
    alignas(16) float a[BK][BM + 4];
    alignas(16) float b[BK][BN + 4];
  };

  __device__ explicit block_gemm_tile(storage& s) : s_(s), tid_(static_cast<int>(threadIdx.x)) {
    detail::require_block_shape(threads, 1, 1);
  }

  /// The tile's row (0 to BM - 1) of this thread's output i (0 to TM - 1), and its column.
  __device__ int row_of(int i) const {
    if constexpr (WarpTiled) {
      const int warp = tid_ / 32, lane = tid_ % 32;
      return (warp / 4) * 64 + (i / 4) * 32 + (lane / 4) * 4 + i % 4;
    } else {
      return (tid_ / (BN / TN)) * TM + i;
    }
  }
  __device__ int col_of(int j) const {
    if constexpr (WarpTiled) {
      const int warp = tid_ / 32, lane = tid_ % 32;
      return (warp % 4) * 32 + (j / 4) * 16 + (lane % 4) * 4 + j % 4;
    } else {
      return (tid_ % (BN / TN)) * TN + j;
    }
  }

  /// Loads A[row0, row0 + BM) x [k0, k0 + BK) and B[k0, k0 + BK) x [col0, col0 + BN) of row-major
  /// A (m x k, leading dimension lda) and B (k x n, ldb), zeros outside the matrices, then a
  /// barrier. `vector`: a and b 16-byte aligned and lda, ldb multiples of 4 (16-byte loads where
  /// four values are in range).
  __device__ void load(const float* a, std::size_t lda, const float* b, std::size_t ldb,
                       std::size_t m, std::size_t n, std::size_t k, std::size_t row0,
                       std::size_t col0, std::size_t k0, bool vector) {
    constexpr int a_quads = BM * BK / 4, b_quads = BK * BN / 4;
    for (int q = tid_; q < a_quads; q += threads) {
      const int r = q / (BK / 4), kq = (q % (BK / 4)) * 4;
      const std::size_t gr = row0 + r, gk = k0 + kq;
      float v[4] = {0, 0, 0, 0};
      if (gr < m) {
        const float* src = a + gr * lda + gk;
        if (vector && gk + 3 < k) {
          const float4 f = *reinterpret_cast<const float4*>(src);
          v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w;
        } else {
          for (int e = 0; e < 4; ++e) {
            v[e] = gk + e < k ? src[e] : 0.0f;
          }
        }
      }
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        s_.a[kq + e][r] = v[e];
      }
    }
    for (int q = tid_; q < b_quads; q += threads) {
      const int kk = q / (BN / 4), c = (q % (BN / 4)) * 4;
      const std::size_t gk = k0 + kk, gc = col0 + c;
      float4 f = make_float4(0, 0, 0, 0);
      if (gk < k) {
        const float* src = b + gk * ldb + gc;
        if (vector && gc + 3 < n) {
          f = *reinterpret_cast<const float4*>(src);
        } else {
          f.x = gc < n ? src[0] : 0.0f;
          f.y = gc + 1 < n ? src[1] : 0.0f;
          f.z = gc + 2 < n ? src[2] : 0.0f;
          f.w = gc + 3 < n ? src[3] : 0.0f;
        }
      }
      *reinterpret_cast<float4*>(&s_.b[kk][c]) = f;
    }
    __syncthreads();
  }

  /// acc[i][j] += sum over the tile's k of A(row_of(i), k) B(k, col_of(j)), then a barrier (the
  /// storage is free for the next load).
  __device__ void accumulate(float (&acc)[TM][TN]) const {
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float av[TM], bv[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        av[i] = s_.a[kk][row_of(i)];
      }
#pragma unroll
      for (int j = 0; j < TN; ++j) {
        bv[j] = s_.b[kk][col_of(j)];
      }
#pragma unroll
      for (int i = 0; i < TM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) {
          acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
      }
    }
    __syncthreads();
  }

  /// C(row0 + row_of(i), col0 + col_of(j)) = alpha acc[i][j] + beta C(...) within m x n (C not
  /// read when beta == 0). `vector`: c 16-byte aligned and ldc a multiple of 4.
  __device__ void store(float* c, std::size_t ldc, std::size_t m, std::size_t n, std::size_t row0,
                        std::size_t col0, float alpha, float beta, const float (&acc)[TM][TN],
                        bool vector) const {
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      const std::size_t gr = row0 + row_of(i);
      if (gr >= m) {
        continue;
      }
#pragma unroll
      for (int j0 = 0; j0 < TN; j0 += 4) {
        const std::size_t gc = col0 + col_of(j0);
        float* dst = c + gr * ldc + gc;
        if (TN % 4 == 0 && vector && gc + 3 < n) {
          float4 out = make_float4(alpha * acc[i][j0], alpha * acc[i][j0 + 1],
                                   alpha * acc[i][j0 + 2], alpha * acc[i][j0 + 3]);
          if (beta != 0.0f) {
            const float4 old = *reinterpret_cast<const float4*>(dst);
            out.x = fmaf(beta, old.x, out.x);
            out.y = fmaf(beta, old.y, out.y);
            out.z = fmaf(beta, old.z, out.z);
            out.w = fmaf(beta, old.w, out.w);
          }
          *reinterpret_cast<float4*>(dst) = out;
          continue;
        }
        for (int j = j0; j < j0 + 4 && j < TN; ++j) {
          const std::size_t col = col0 + col_of(j);
          if (col < n) {
            float* p = c + gr * ldc + col;
            *p = beta != 0.0f ? fmaf(beta, *p, alpha * acc[i][j]) : alpha * acc[i][j];
          }
        }
      }
    }
  }

 private:
  storage& s_;
  int tid_;
};

}  // namespace gpuprims
