// stencil1d<Rad>: out[i] = sum over k in [-Rad, Rad] of w[k + Rad] * in[i + k], through a
// shared-memory tile with its halo, with clamp, periodic, constant and mirror boundaries.
#pragma once

#include <gpuprims/detail/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil_kernels.cuh>

#include <cuda_runtime.h>

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gpuprims {

/// Weights given at run time: w[j] multiplies in[i - Rad + j], j in [0, 2 Rad]. Passed to the
/// kernel by value (kernel parameters live in the constant bank: as fast as __constant__ memory,
/// see docs/stencil.md, and safe when several streams use different weights). Weights known at
/// compile time can be any type with a constexpr `operator[](int) const`; the compiler then folds them.
template <class T, int Rad>
struct stencil_weights {
  T w[2 * Rad + 1];
  __host__ __device__ constexpr T operator[](int j) const { return w[j]; }
};

/// Shared memory for one tile of stencil1d<Rad> with blocks of BlockSize threads, each computing
/// ItemsPerThread outputs: the tile and its halo, padded to 16-byte vectors.
template <int Rad, class T, int BlockSize = 256, int ItemsPerThread = 16 / static_cast<int>(sizeof(T))>
struct stencil1d_storage {
  static_assert(Rad >= 1 && Rad <= 16, "stencil1d supports radii 1 to 16");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "stencil1d supports float and double");
  static_assert(BlockSize >= 32 && BlockSize <= 1024 && BlockSize % 32 == 0, "BlockSize: a multiple of 32 up to 1024");
  static_assert(ItemsPerThread >= 1, "at least one output per thread");
  static constexpr int tile = BlockSize * ItemsPerThread;  ///< outputs per call
  alignas(16) T data[detail::stencil_layout<Rad, T, BlockSize, ItemsPerThread>::size];
};

/// One tile, from a user kernel with a one-dimensional block of BlockSize threads: writes
/// out[tile_begin, tile_begin + tile) (clipped to n) from in[tile_begin - Rad, tile_begin + tile + Rad),
/// positions outside [0, n) supplied by the boundary rule. Full tiles of 16-byte-aligned pointers
/// move as 16-byte vectors. Call it from every thread of the block (it holds a barrier);
/// __syncthreads() before reusing the storage.
///
///   using storage_t = gpuprims::stencil1d_storage<3, float, 256>;   // 1024 outputs per tile
///   __shared__ storage_t s;
///   gpuprims::stencil1d<3>(s, in, out, n, blockIdx.x * std::size_t{storage_t::tile}, weights, gpuprims::boundary::clamp());
template <int Rad, class T, int BlockSize, int ItemsPerThread, class Weights>
__device__ void stencil1d(stencil1d_storage<Rad, T, BlockSize, ItemsPerThread>& storage, const T* in, T* out,
                          std::size_t n, std::size_t tile_begin, const Weights& weights, const boundary& b) {
  assert(blockDim.x == BlockSize && blockDim.y == 1 && blockDim.z == 1);  // other shapes miss outputs
  const auto count = static_cast<std::int64_t>(n);
  const auto begin = static_cast<std::int64_t>(tile_begin);
  detail::stencil_load<Rad, BlockSize, ItemsPerThread>(storage.data, in, count, begin, b);
  __syncthreads();
  detail::stencil_compute_store<Rad, BlockSize, ItemsPerThread>(storage.data, out, count, begin, weights);
}

/// The rungs of the stencil ladder (docs/stencil.md), for the host launcher.
enum class stencil_algorithm {
  naive,              ///< one output per thread, every input read from global memory (the caches catch reuse)
  shared_halo,        ///< the reference notes' kernel, fixed: tile + halo in shared memory, one output per thread
  shared_vectorized,  ///< tile + halo in shared memory, 16-byte loads and stores, several outputs per thread
  automatic,          ///< the default: shared_vectorized, four vectors per thread above radius 4
};

namespace detail {

// Registers capped for a full multiprocessor of threads (three quarters with several units per
// thread or with doubles, half with both): the tile's loads in flight come from occupancy, and the
// compute keeps only one word and the accumulators live, so nothing spills (test/codegen/stencil.cu
// checks).
template <int Rad, class T, int BlockSize, int ItemsPerThread>
inline constexpr int stencil_min_blocks =
    (2048 - 512 * (stencil_layout<Rad, T, BlockSize, ItemsPerThread>::units_per_thread > 1) -
     512 * (sizeof(T) == 8)) /
    BlockSize;

template <int Rad, int BlockSize, int ItemsPerThread, class T, class Weights>
__global__ void __launch_bounds__(BlockSize, (stencil_min_blocks<Rad, T, BlockSize, ItemsPerThread>))
    stencil_shared_kernel(const T* in, T* out, std::size_t n, std::size_t rows, std::size_t in_pitch,
                          std::size_t out_pitch, std::size_t tiles, Weights w, boundary b) {
  using storage_t = stencil1d_storage<Rad, T, BlockSize, ItemsPerThread>;
  __shared__ storage_t storage;
  detail::wait_for_prior_grids();
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      gpuprims::stencil1d<Rad>(storage, in + row * in_pitch, out + row * out_pitch, n, t * storage_t::tile, w, b);
      __syncthreads();  // the next tile overwrites the storage
    }
  }
}

template <class T>
cudaError_t validate_stencil(const T* in, const T* out, std::size_t n, std::size_t rows, std::size_t in_pitch,
                             std::size_t out_pitch, const boundary& b) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  std::size_t in_span = 0, out_span = 0;
  const bool known_mode = b.mode == boundary_mode::constant || b.mode == boundary_mode::clamp ||
                          b.mode == boundary_mode::periodic || b.mode == boundary_mode::mirror;
  const bool ok = in != nullptr && out != nullptr && known_mode && in_pitch >= n && out_pitch >= n &&
                  n <= static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max()) &&
                  checked_span(1, 0, rows, in_pitch, n, in_span) && checked_span(1, 0, rows, out_pitch, n, out_span) &&
                  in_span <= max / sizeof(T) && out_span <= max / sizeof(T) &&
                  !ranges_overlap(in, in_span * sizeof(T), out, out_span * sizeof(T));
  return ok ? cudaSuccess : cudaErrorInvalidValue;
}

}  // namespace detail

/// `rows` signals of n elements (row pitches in elements, >= n), each filtered on its own:
/// out[r][i] = sum over j in [0, 2 Rad] of weights[j] * in[r][i - Rad + j], positions outside
/// [0, n) supplied by `b`. float or double. Out of place: overlapping spans, null pointers, pitches
/// shorter than n and unknown boundary modes return cudaErrorInvalidValue; n == 0 or rows == 0
/// launches nothing. Asynchronous on `stream`.
///
///   gpuprims::stencil_weights<float, 1> w{{1.f, -2.f, 1.f}};
///   cudaError_t e = gpuprims::stencil1d<1>(d_in, d_out, n, rows, in_pitch, out_pitch, w, gpuprims::boundary::periodic(), stream);
template <int Rad, stencil_algorithm Algorithm = stencil_algorithm::automatic, class T, class Weights>
[[nodiscard]] cudaError_t stencil1d(const T* in, T* out, std::size_t n, std::size_t rows, std::size_t in_pitch,
                                    std::size_t out_pitch, const Weights& weights, boundary b = {},
                                    cudaStream_t stream = 0) {
  static_assert(Rad >= 1 && Rad <= 16, "stencil1d supports radii 1 to 16");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "stencil1d supports float and double");
  static_assert(std::is_trivially_copyable_v<Weights>, "the weights travel to the kernel by value");
  if (n == 0 || rows == 0) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_stencil(in, out, n, rows, in_pitch, out_pitch, b));
  constexpr std::size_t max_y = 65535;
  const auto grid_y = static_cast<unsigned int>(rows < max_y ? rows : max_y);
  constexpr int block = 256;
  if constexpr (Algorithm == stencil_algorithm::naive) {
    return detail::launch<detail::stencil_naive_kernel<Rad, block, T, Weights>>(
        dim3(detail::covering_blocks(n, block), grid_y), block, stream, in, out, n, rows, in_pitch, out_pitch, weights,
        b);
  } else {
    // Measured on an H100 (docs/stencil.md): one 16-byte vector per thread up to radius 4, four
    // beyond (a 4-vector tile halves the halo's share and keeps more loads in flight).
    constexpr int vector = 16 / static_cast<int>(sizeof(T));
    constexpr int items = Algorithm == stencil_algorithm::shared_halo ? 1
                          : Algorithm == stencil_algorithm::shared_vectorized || Rad <= 4 ? vector
                                                                                        : 4 * vector;
    const std::size_t tiles = (n + block * items - 1) / (block * items);
    return detail::launch<detail::stencil_shared_kernel<Rad, block, items, T, Weights>>(
        dim3(detail::covering_blocks(n, block * items), grid_y), block, stream, in, out, n, rows, in_pitch, out_pitch,
        tiles, weights, b);
  }
}

/// One signal of n elements.
///
///   gpuprims::stencil_weights<float, 1> w{{1.f, -2.f, 1.f}};
///   cudaError_t e = gpuprims::stencil1d<1>(d_in, d_out, n, w, gpuprims::boundary::clamp(), stream);
template <int Rad, stencil_algorithm Algorithm = stencil_algorithm::automatic, class T, class Weights>
[[nodiscard]] cudaError_t stencil1d(const T* in, T* out, std::size_t n, const Weights& weights, boundary b = {},
                                    cudaStream_t stream = 0) {
  return stencil1d<Rad, Algorithm>(in, out, n, 1, n, n, weights, b, stream);
}

}  // namespace gpuprims
