// The scan ladder's kernels: block-level scans in shared memory (Hillis-Steele, Blelloch with and
// without padding) and with warp shuffles, each driven device-wide by scan-then-propagate (scan the
// tiles, scan their totals recursively, add each tile's prefix); reduce-then-scan (three kernels);
// and a chained scan (a single pass, each tile waiting for its predecessor's inclusive prefix).
// Sums of T only: the ladder measures what each step costs, the library's scans do the rest.
#pragma once

#include <gpuprims/block/reduce.cuh>
#include <gpuprims/block/scan.cuh>
#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>

namespace gpuprims::detail {

inline constexpr int scan_ladder_block = 256;

// The block-level algorithms of the scan-then-propagate rungs.
enum class scan_tile_kind { hillis_steele, blelloch, blelloch_padded, warp_shuffle };

// Items a tile of each holds: one a thread, two for Blelloch's tree (items t and t + blockDim).
__host__ __device__ constexpr int scan_tile_items(scan_tile_kind k) {
  return (k == scan_tile_kind::blelloch || k == scan_tile_kind::blelloch_padded)
             ? 2 * scan_ladder_block
             : scan_ladder_block;
}

// One shared-memory slot every 32 so that strides of 2^k spread over the 32 banks (GPU Gems 3,
// 39.2.3, with the shift its listing meant).
template <bool Pad>
__host__ __device__ constexpr int padded(int i) {
  return Pad ? i + (i >> 5) : i;
}

// Hillis and Steele: log2(B) steps, each adding the value `offset` threads down; O(B log B) adds,
// two buffers so that a step reads only the previous one's values.
template <int B, class T>
__device__ T hillis_steele_scan(T (&s)[2][B], T x, T& total) {
  const int t = static_cast<int>(threadIdx.x);
  int cur = 0;
  s[cur][t] = x;
  __syncthreads();
  for (int offset = 1; offset < B; offset *= 2) {
    const T v = t >= offset ? s[cur][t - offset] + s[cur][t] : s[cur][t];
    s[cur ^ 1][t] = v;
    cur ^= 1;
    __syncthreads();
  }
  total = s[cur][B - 1];
  return s[cur][t];
}

// Blelloch: an up-sweep builds partial sums in a tree, a down-sweep pushes prefixes back down:
// O(2B) adds for 2B items. Thread t holds items t and t + B; both become inclusive sums. s holds
// padded<Pad>(2B) + 1 values: the last one keeps the total while the root is cleared.
template <int B, bool Pad, class T>
__device__ void blelloch_scan(T* s, T& a, T& b, T& total) {
  const int t = static_cast<int>(threadIdx.x);
  s[padded<Pad>(t)] = a;
  s[padded<Pad>(t + B)] = b;
  int offset = 1;
  for (int d = B; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1;
      const int bi = offset * (2 * t + 2) - 1;
      s[padded<Pad>(bi)] += s[padded<Pad>(ai)];
    }
    offset *= 2;
  }
  if (t == 0) {
    s[padded<Pad>(2 * B)] = s[padded<Pad>(2 * B - 1)];
    s[padded<Pad>(2 * B - 1)] = T{};
  }
  for (int d = 1; d < 2 * B; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      const int ai = padded<Pad>(offset * (2 * t + 1) - 1);
      const int bi = padded<Pad>(offset * (2 * t + 2) - 1);
      const T v = s[ai];
      s[ai] = s[bi];
      s[bi] += v;
    }
  }
  __syncthreads();
  a += s[padded<Pad>(t)];  // exclusive + item: inclusive
  b += s[padded<Pad>(t + B)];
  total = s[padded<Pad>(2 * B)];
}

// Scans each tile of `in` into `out` with one block-level algorithm; the tile's total to sums.
template <scan_tile_kind Kind, class T>
__global__ void __launch_bounds__(scan_ladder_block)
    scan_tiles_kernel(const T* in, T* out, std::size_t n, T* sums) {
  constexpr int b = scan_ladder_block;
  constexpr bool pad = Kind == scan_tile_kind::blelloch_padded;
  const std::size_t base = blockIdx.x * std::size_t{scan_tile_items(Kind)};
  const std::size_t i = base + threadIdx.x;
  T a = i < n ? in[i] : T{};
  T total{};
  if constexpr (Kind == scan_tile_kind::hillis_steele) {
    __shared__ T s[2][b];
    a = hillis_steele_scan(s, a, total);
  } else if constexpr (Kind == scan_tile_kind::warp_shuffle) {
    __shared__ typename block_scan<b, plus<T>>::storage s;
    a = block_scan<b, plus<T>>(s).inclusive_scan(a, total);
  } else {
    __shared__ T s[padded<pad>(2 * b) + 1];
    T c = i + b < n ? in[i + b] : T{};
    blelloch_scan<b, pad>(s, a, c, total);
    if (i + b < n) {
      out[i + b] = c;
    }
  }
  if (i < n) {
    out[i] = a;
  }
  if (sums != nullptr && threadIdx.x == 0) {
    sums[blockIdx.x] = total;
  }
}

// Adds the inclusive prefix of the tiles before it to every item of tile blockIdx.x + 1.
template <int Tile, class T>
__global__ void __launch_bounds__(scan_ladder_block)
    add_tile_prefix_kernel(T* out, std::size_t n, const T* prefixes) {
  const std::size_t tile = blockIdx.x + std::size_t{1};
  const T prefix = prefixes[tile - 1];
  for (std::size_t i = tile * Tile + threadIdx.x; i < (tile + 1) * Tile && i < n;
       i += scan_ladder_block) {
    out[i] += prefix;
  }
}

// The sums workspace of scan-then-propagate: one level per pass, until one tile is left.
inline std::size_t scan_then_propagate_elements(std::size_t n, std::size_t tile) {
  std::size_t total = 0;
  for (std::size_t tiles = ceil_div(n, tile); tiles > 1; tiles = ceil_div(tiles, tile)) {
    total += tiles;
  }
  return total;
}

template <scan_tile_kind Kind, class T>
cudaError_t scan_then_propagate(const T* in, T* out, std::size_t n, T* sums, cudaStream_t stream) {
  constexpr int tile = scan_tile_items(Kind);
  const std::size_t tiles = ceil_div(n, std::size_t{tile});
  GPUPRIMS_RETURN_IF_ERROR(
      (launch<scan_tiles_kernel<Kind, T>>(grid_x(tiles), dim3(scan_ladder_block), stream, false, in,
                                          out, n, tiles > 1 ? sums : static_cast<T*>(nullptr))));
  if (tiles == 1) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(scan_then_propagate<Kind>(sums, sums, tiles, sums + tiles, stream));
  return launch<add_tile_prefix_kernel<tile, T>>(grid_x(tiles - 1), dim3(scan_ladder_block), stream,
                                                 false, out, n, static_cast<const T*>(sums));
}

// Tiles of the reduce-then-scan and chained rungs: 256 threads x 16 items, loaded and stored
// through shared memory (coalesced in global memory, a thread's 16 consecutive items in
// registers; one pad slot every 32 keeps the 16-item rows off one bank).
inline constexpr int scan_ladder_items = 16;
inline constexpr int scan_ladder_tile = scan_ladder_block * scan_ladder_items;

template <class T>
struct staged_tile {
  T s[padded<true>(scan_ladder_tile)];

  __device__ void load(const T* in, std::size_t base, std::size_t n,
                       T (&items)[scan_ladder_items]) {
    for (int k = 0; k < scan_ladder_items; ++k) {
      const int i = k * scan_ladder_block + static_cast<int>(threadIdx.x);
      s[padded<true>(i)] = base + i < n ? in[base + i] : T{};
    }
    __syncthreads();
    for (int k = 0; k < scan_ladder_items; ++k) {
      items[k] = s[padded<true>(static_cast<int>(threadIdx.x) * scan_ladder_items + k)];
    }
    __syncthreads();
  }
  __device__ void store(const T (&items)[scan_ladder_items], T* out, std::size_t base,
                        std::size_t n) {
    for (int k = 0; k < scan_ladder_items; ++k) {
      s[padded<true>(static_cast<int>(threadIdx.x) * scan_ladder_items + k)] = items[k];
    }
    __syncthreads();
    for (int k = 0; k < scan_ladder_items; ++k) {
      const int i = k * scan_ladder_block + static_cast<int>(threadIdx.x);
      if (base + i < n) {
        out[base + i] = s[padded<true>(i)];
      }
    }
  }
};

// Reduce-then-scan, kernel 1: each tile's total (read n).
template <class T>
__global__ void __launch_bounds__(scan_ladder_block)
    reduce_tiles_kernel(const T* in, std::size_t n, T* totals) {
  __shared__ typename block_reduce<scan_ladder_block, plus<T>>::storage s;
  const std::size_t base = blockIdx.x * std::size_t{scan_ladder_tile};
  T x{};
  for (std::size_t i = base + threadIdx.x; i < base + scan_ladder_tile && i < n;
       i += scan_ladder_block) {
    x += in[i];
  }
  const T total = block_reduce<scan_ladder_block, plus<T>>(s).reduce(x);
  if (threadIdx.x == 0) {
    totals[blockIdx.x] = total;
  }
}

// A running total for block_scan's prefix callback.
template <class T>
struct running_prefix {
  T total{};
  __device__ T operator()(const T& aggregate) {
    const T before = total;
    total += aggregate;
    return before;
  }
};

// Kernel 2: one block turns the tile totals into exclusive prefixes, in place.
template <class T>
__global__ void __launch_bounds__(1024) scan_totals_kernel(T* totals, std::size_t count) {
  __shared__ typename block_scan<1024, plus<T>>::storage s;
  running_prefix<T> prefix;
  for (std::size_t base = 0; base < count; base += 1024) {
    const std::size_t i = base + threadIdx.x;
    T item[1] = {i < count ? totals[i] : T{}};
    T result[1];
    block_scan<1024, plus<T>>(s).exclusive_scan_with_prefix(item, result, prefix);
    if (i < count) {
      totals[i] = result[0];
    }
    __syncthreads();
  }
}

// Kernel 3 (read n, write n), and the chained rung: each tile scanned with a prefix that
// `prefix_of(aggregate)` supplies in thread 0.
template <class T, class PrefixOf>
__device__ void scan_tile_with_prefix(const T* in, T* out, std::size_t n, PrefixOf prefix_of) {
  __shared__ staged_tile<T> tile;
  __shared__ typename block_scan<scan_ladder_block, plus<T>>::storage s;
  const std::size_t base = blockIdx.x * std::size_t{scan_ladder_tile};
  T items[scan_ladder_items];
  tile.load(in, base, n, items);
  T results[scan_ladder_items];
  block_scan<scan_ladder_block, plus<T>>(s).inclusive_scan_with_prefix(items, results, prefix_of);
  tile.store(results, out, base, n);
}

template <class T>
struct tile_prefix_from {
  const T* prefixes;
  __device__ T operator()(const T&) const { return prefixes[blockIdx.x]; }
};

template <class T>
__global__ void __launch_bounds__(scan_ladder_block)
    scan_tiles_with_prefix_kernel(const T* in, T* out, std::size_t n, const T* prefixes) {
  scan_tile_with_prefix(in, out, n, tile_prefix_from<T>{prefixes});
}

// The chained scan's record of a tile: its inclusive prefix, then a flag set with release.
template <class T>
struct chained_record {
  T inclusive;
  unsigned int ready;
};

// Thread 0 of tile k waits for tile k - 1's inclusive prefix, publishes its own, returns the first.
template <class T>
struct chained_prefix {
  chained_record<T>* records;
  __device__ T operator()(const T& aggregate) const {
    T before{};
    const unsigned int tile = blockIdx.x;
    if (tile > 0) {
      cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ready(records[tile - 1].ready);
      while (ready.load(cuda::memory_order_acquire) == 0) {
      }
      before = records[tile - 1].inclusive;
    }
    records[tile].inclusive = before + aggregate;
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(records[tile].ready)
        .store(1u, cuda::memory_order_release);
    return before;
  }
};

template <class T>
__global__ void __launch_bounds__(scan_ladder_block)
    chained_scan_kernel(const T* in, T* out, std::size_t n, chained_record<T>* records) {
  scan_tile_with_prefix(in, out, n, chained_prefix<T>{records});
}

}  // namespace gpuprims::detail
