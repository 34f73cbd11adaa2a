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
/// each owning TM x TN outputs in registers. WarpTiled (TM and TN multiples of 4) lays each warp's
/// outputs out as a (8 TM) x (4 TN) tile, lanes in 8 x 4, each lane TM / 4 x TN / 4 blocks of
/// 4 x 4, so that a warp's shared-memory reads are conflict-free 16-byte broadcasts; otherwise
/// thread t owns rows (t / (BN / TN)) * TM + [0, TM) and columns (t % (BN / TN)) * TN + [0, TN).
/// A is stored transposed (k-major) in the storage so that a thread's TM values of a k are
/// consecutive. Stages (1 or 2) is the number of tile pairs the storage holds: with 2, `multiply`
/// loads the next pair into registers while the block computes on this one (double buffering, one
/// barrier a k-step). Every thread calls each method (some hold barriers).
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
///
/// or, the whole k loop (double-buffered when Stages == 2), `tile.multiply(a, lda, b, ldb, m, n, k,
/// row0, col0, vector, acc)` in place of the loop.
template <int BM, int BN, int BK, int TM, int TN, bool WarpTiled = false, int Stages = 1>
class block_gemm_tile {
  static_assert(BM % TM == 0 && BN % TN == 0, "whole thread tiles");
  static_assert(BK % 4 == 0, "BK: a multiple of 4 (16-byte loads along k)");
  static_assert(BM % 4 == 0 && BN % 4 == 0, "BM, BN: multiples of 4 (16-byte rows)");
  static_assert(Stages == 1 || Stages == 2, "one tile pair, or two (double buffering)");
  static_assert(!WarpTiled ||
                    (TM % 4 == 0 && TN % 4 == 0 && BM % (8 * TM) == 0 && BN % (4 * TN) == 0),
                "the warp-tiled layout: TM, TN multiples of 4, BM and BN whole warp tiles of "
                "(8 TM) x (4 TN)");

 public:
  static constexpr int threads = (BM / TM) * (BN / TN);
  static_assert(threads % 32 == 0 && threads <= 1024, "a whole number of warps, at most 1024");
  static constexpr int stages = Stages;

  /// Declare it __shared__. Rows padded by 4 floats: the transposed stores of A spread over the
  /// banks, and every row stays 16-byte aligned for the vector reads.
  struct storage {
    alignas(16) float a[Stages][BK][BM + 4];
    alignas(16) float b[Stages][BK][BN + 4];
  };

  /// One thread's share of a pair of tiles in registers, between `fetch` and `stage`.
  struct fragment {
    float4 a[(BM * BK / 4 + threads - 1) / threads];
    float4 b[(BK * BN / 4 + threads - 1) / threads];
  };

  __device__ explicit block_gemm_tile(storage& s) : s_(s), tid_(static_cast<int>(threadIdx.x)) {
    detail::require_block_shape(threads, 1, 1);
  }

  /// The tile's row (0 to BM - 1) of this thread's output i (0 to TM - 1), and its column.
  __device__ int row_of(int i) const {
    if constexpr (WarpTiled) {
      const int warp = tid_ / 32, lane = tid_ % 32;
      return (warp / warps_n) * (8 * TM) + (i / 4) * 32 + (lane / 4) * 4 + i % 4;
    } else {
      return (tid_ / (BN / TN)) * TM + i;
    }
  }
  __device__ int col_of(int j) const {
    if constexpr (WarpTiled) {
      const int warp = tid_ / 32, lane = tid_ % 32;
      return (warp % warps_n) * (4 * TN) + (j / 4) * 16 + (lane % 4) * 4 + j % 4;
    } else {
      return (tid_ % (BN / TN)) * TN + j;
    }
  }

  /// Reads this thread's share of A[row0, row0 + BM) x [k0, k0 + BK) and B[k0, k0 + BK) x
  /// [col0, col0 + BN) of row-major A (m x k, leading dimension lda) and B (k x n, ldb) into
  /// registers, zeros outside the matrices; no shared memory, no barrier. `vector`: a and b 16-byte
  /// aligned and lda, ldb multiples of 4 (16-byte loads where four values are in range).
  __device__ void fetch(fragment& f, const float* a, std::size_t lda, const float* b,
                        std::size_t ldb, std::size_t m, std::size_t n, std::size_t k,
                        std::size_t row0, std::size_t col0, std::size_t k0, bool vector) const {
    if (vector && row0 + BM <= m && col0 + BN <= n && k0 + BK <= k) {
      // The whole pair inside the matrices: one unconditional 16-byte load per vector.
#pragma unroll
      for (int v = 0; v < a_vectors; ++v) {
        const int q = tid_ + v * threads;
        if (a_quads % threads == 0 || q < a_quads) {
          f.a[v] = *reinterpret_cast<const float4*>(a + (row0 + q / (BK / 4)) * lda + k0 +
                                                    (q % (BK / 4)) * 4);
        }
      }
#pragma unroll
      for (int v = 0; v < b_vectors; ++v) {
        const int q = tid_ + v * threads;
        if (b_quads % threads == 0 || q < b_quads) {
          f.b[v] = *reinterpret_cast<const float4*>(b + (k0 + q / (BN / 4)) * ldb + col0 +
                                                    (q % (BN / 4)) * 4);
        }
      }
      return;
    }
#pragma unroll
    for (int v = 0; v < a_vectors; ++v) {
      const int q = tid_ + v * threads;
      const std::size_t gr = row0 + q / (BK / 4), gk = k0 + (q % (BK / 4)) * 4;
      f.a[v] = (a_quads % threads == 0 || q < a_quads) && gr < m && gk < k
                   ? load4(a + gr * lda + gk, k - gk, vector)
                   : make_float4(0, 0, 0, 0);
    }
#pragma unroll
    for (int v = 0; v < b_vectors; ++v) {
      const int q = tid_ + v * threads;
      const std::size_t gk = k0 + q / (BN / 4), gc = col0 + (q % (BN / 4)) * 4;
      f.b[v] = (b_quads % threads == 0 || q < b_quads) && gk < k && gc < n
                   ? load4(b + gk * ldb + gc, n - gc, vector)
                   : make_float4(0, 0, 0, 0);
    }
  }

  /// Writes a fragment into the storage's tile pair `slot` (0 to Stages - 1); no barrier.
  __device__ void stage(const fragment& f, int slot) {
#pragma unroll
    for (int v = 0; v < a_vectors; ++v) {
      const int q = tid_ + v * threads;
      if (a_quads % threads == 0 || q < a_quads) {
        const int r = q / (BK / 4), kq = (q % (BK / 4)) * 4;
        s_.a[slot][kq][r] = f.a[v].x;
        s_.a[slot][kq + 1][r] = f.a[v].y;
        s_.a[slot][kq + 2][r] = f.a[v].z;
        s_.a[slot][kq + 3][r] = f.a[v].w;
      }
    }
#pragma unroll
    for (int v = 0; v < b_vectors; ++v) {
      const int q = tid_ + v * threads;
      if (b_quads % threads == 0 || q < b_quads) {
        *reinterpret_cast<float4*>(&s_.b[slot][q / (BN / 4)][(q % (BN / 4)) * 4]) = f.b[v];
      }
    }
  }

  /// fetch and stage into pair 0, then a barrier: the pair is ready for `accumulate`.
  __device__ void load(const float* a, std::size_t lda, const float* b, std::size_t ldb,
                       std::size_t m, std::size_t n, std::size_t k, std::size_t row0,
                       std::size_t col0, std::size_t k0, bool vector) {
    fragment f;
    fetch(f, a, lda, b, ldb, m, n, k, row0, col0, k0, vector);
    stage(f, 0);
    __syncthreads();
  }

  /// acc[i][j] += sum over the tile pair `slot`'s k of A(row_of(i), k) B(k, col_of(j)); no
  /// barrier.
  __device__ void accumulate(float (&acc)[TM][TN], int slot) const {
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float av[TM], bv[TN];
      if constexpr (WarpTiled) {  // 16-byte broadcasts: 8 (A) and 4 (B) distinct words a warp
#pragma unroll
        for (int i = 0; i < TM; i += 4) {
          const float4 v = *reinterpret_cast<const float4*>(&s_.a[slot][kk][row_of(i)]);
          av[i] = v.x, av[i + 1] = v.y, av[i + 2] = v.z, av[i + 3] = v.w;
        }
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
          const float4 v = *reinterpret_cast<const float4*>(&s_.b[slot][kk][col_of(j)]);
          bv[j] = v.x, bv[j + 1] = v.y, bv[j + 2] = v.z, bv[j + 3] = v.w;
        }
      } else {
#pragma unroll
        for (int i = 0; i < TM; ++i) {
          av[i] = s_.a[slot][kk][row_of(i)];
        }
#pragma unroll
        for (int j = 0; j < TN; ++j) {
          bv[j] = s_.b[slot][kk][col_of(j)];
        }
      }
#pragma unroll
      for (int i = 0; i < TM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) {
          acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
      }
    }
  }

  /// accumulate(acc, 0), then a barrier (the storage is free for the next load).
  __device__ void accumulate(float (&acc)[TM][TN]) const {
    accumulate(acc, 0);
    __syncthreads();
  }

  /// acc += A[row0, row0 + BM) x [0, k) B[0, k) x [col0, col0 + BN), the whole k loop. With two
  /// stages the next pair's global loads are in flight while this pair is computed, and each
  /// k-step has one barrier: the pair being written is the one every thread finished reading
  /// before the previous barrier.
  __device__ void multiply(const float* a, std::size_t lda, const float* b, std::size_t ldb,
                           std::size_t m, std::size_t n, std::size_t k, std::size_t row0,
                           std::size_t col0, bool vector, float (&acc)[TM][TN]) {
    if constexpr (Stages == 1) {
      for (std::size_t k0 = 0; k0 < k; k0 += BK) {
        load(a, lda, b, ldb, m, n, k, row0, col0, k0, vector);
        accumulate(acc);
      }
    } else {
      if (k == 0) {
        return;
      }
      fragment f;
      std::size_t k0 = 0;
      int slot = 0;
      if (vector && row0 + BM <= m && col0 + BN <= n && k >= BK) {
        // The tile inside the matrices: the whole k-steps load through pointers that advance a
        // step at a time, unconditionally (fewer registers than the general fetch's addressing).
        const float* pa[a_vectors];
        const float* pb[b_vectors];
#pragma unroll
        for (int v = 0; v < a_vectors; ++v) {
          const int q = min(tid_ + v * threads, a_quads - 1);
          pa[v] = a + (row0 + q / (BK / 4)) * lda + (q % (BK / 4)) * 4;
        }
#pragma unroll
        for (int v = 0; v < b_vectors; ++v) {
          const int q = min(tid_ + v * threads, b_quads - 1);
          pb[v] = b + std::size_t(q / (BN / 4)) * ldb + col0 + (q % (BN / 4)) * 4;
        }
        const std::size_t b_step = BK * ldb;
        fetch_inside(f, pa, pb);
        stage(f, 0);
        __syncthreads();
        for (k0 = BK; k0 + BK <= k; k0 += BK) {
#pragma unroll
          for (int v = 0; v < a_vectors; ++v) {
            pa[v] += BK;
          }
#pragma unroll
          for (int v = 0; v < b_vectors; ++v) {
            pb[v] += b_step;
          }
          fetch_inside(f, pa, pb);
          accumulate(acc, slot);
          slot ^= 1;
          stage(f, slot);
          __syncthreads();
        }
      } else {
        fetch(f, a, lda, b, ldb, m, n, k, row0, col0, 0, vector);
        stage(f, 0);
        __syncthreads();
        k0 = BK;
      }
      for (; k0 < k; k0 += BK) {  // the rest, through the general fetch
        fetch(f, a, lda, b, ldb, m, n, k, row0, col0, k0, vector);
        accumulate(acc, slot);
        slot ^= 1;
        stage(f, slot);
        __syncthreads();
      }
      accumulate(acc, slot);
      __syncthreads();  // the storage may be reused after multiply returns
    }
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
  static constexpr int a_quads = BM * BK / 4, b_quads = BK * BN / 4;
  static constexpr int a_vectors = (a_quads + threads - 1) / threads;
  static constexpr int b_vectors = (b_quads + threads - 1) / threads;
  static constexpr int warps_n = BN / (4 * TN);  // warp tiles along n (WarpTiled)

  // One 16-byte load per vector of the fragment, from pointers inside the matrices.
  __device__ static void fetch_inside(fragment& f, const float* const (&pa)[a_vectors],
                                      const float* const (&pb)[b_vectors]) {
#pragma unroll
    for (int v = 0; v < a_vectors; ++v) {
      f.a[v] = *reinterpret_cast<const float4*>(pa[v]);
    }
#pragma unroll
    for (int v = 0; v < b_vectors; ++v) {
      f.b[v] = *reinterpret_cast<const float4*>(pb[v]);
    }
  }

  // Four floats from p, zeros past `left` of them; one 16-byte load when `vector` and all four are
  // there.
  __device__ static float4 load4(const float* p, std::size_t left, bool vector) {
    if (vector && left >= 4) {
      return *reinterpret_cast<const float4*>(p);
    }
    return make_float4(left > 0 ? p[0] : 0.0f, left > 1 ? p[1] : 0.0f, left > 2 ? p[2] : 0.0f,
                       left > 3 ? p[3] : 0.0f);
  }

  storage& s_;
  int tid_;
};

}  // namespace gpuprims
