// gpuprims::lookback: the decoupled look-back of single-pass scans (Merrill and Garland, 2016) as
// a building block: each block of a grid publishes its tile's aggregate and learns the fold of
// every tile before it, in one pass over the data. gpuprims' own scans are built on it; so can
// yours (any single-pass kernel whose tiles need "everything before me").
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/scan/block_warp_shuffle.cuh>
#include <gpuprims/detail/scan/tile_status.cuh>
#include <gpuprims/detail/shuffle.cuh>

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>
#include <type_traits>

namespace gpuprims {

/// Tiles are grouped in chunks of this many: the order in which tile aggregates combine (below).
inline constexpr int lookback_chunk_tiles = static_cast<int>(detail::lookback_chunk);

/// Bytes of workspace a grid of up to `tiles` tiles of T needs (8-byte aligned at least; cudaMalloc
/// gives 256). The reset rule: zero it once before its first use (cudaMemsetAsync(ws, 0, bytes,
/// stream)); after that every grid whose blocks all call lookback::finish leaves it ready for the
/// next, with no reset, whatever its tile count (up to the size). It serves one grid at a time
/// (grids that may overlap need one each) and one value layout: a grid of a T of another size on
/// it stops with a trap (cudaErrorIllegalInstruction) rather than read another layout's records.
template <class T>
constexpr std::size_t lookback_workspace_bytes(std::size_t tiles) {
  return detail::lookback_header_bytes +
         detail::status_records(tiles) * detail::status_record_bytes<T>;
}

/// The workspace as kernels see it: pass it by value to the kernel.
template <class T>
struct lookback_tiles {
  void* workspace;  ///< lookback_workspace_bytes<T>(tiles) bytes, zeroed before its first use
};

/// A grid-wide exclusive prefix for each tile, in one pass. Block b owns tile b (blockIdx.x), as
/// in cub::DeviceScan: blocks start in index order, so a tile only ever waits for tiles already
/// running. Every block constructs the lookback when it starts (it reads the grid's epoch then).
///
/// The order, for floating point: tile aggregates a_0, a_1, ... combine as a serial chain over
/// chunks of 32 tiles. T_c = ((a_32c op a_32c+1) op ...) op a_32c+31, the chunk prefix
/// Q_c+1 = Q_c op T_c (Q_0 = init, or nothing), and tile k = 32c + i gets
/// Q_c op ((a_32c op ...) op a_k-1). This depends on the tile count only, never on timing or the
/// GPU: a look-back that finds a later inclusive prefix folds forward from it in the same order,
/// so the bits repeat on every run and every device.
///
///   __shared__ typename gpuprims::lookback<float, gpuprims::plus<float>>::storage ls;
///   gpuprims::lookback<float, gpuprims::plus<float>> look(ls, status, gridDim.x);
///   ...                                    // the block's items and their total
///   float prefix;
///   bool has = false;
///   if (threadIdx.x < 32) has = look.exclusive_prefix(blockIdx.x, block_total, prefix);
///   ...                                    // share prefix with the block, use it
///   look.finish();                         // every thread, once, at the end of the block
template <class T, class Op>
class lookback {
  static_assert(std::is_trivially_copyable_v<T>, "tile values move through shuffles and memory");

 public:
  struct storage {
    T tile_values[32];
    T chunk_values[32];
    unsigned int epoch;  // the look-back's, for finish(): one value for the whole block
    bool last_block;
  };

  /// Every thread of the block, at its start; `tiles`: the grid's tile count (its block count).
  __device__ lookback(storage& s, const lookback_tiles<T>& status, std::size_t tiles, Op op = Op{})
      : s_(s),
        op_(op),
        header_(static_cast<detail::lookback_header*>(status.workspace)),
        records_{static_cast<unsigned char*>(status.workspace) + detail::lookback_header_bytes},
        tiles_(tiles),
        epoch_(cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(header_->epoch)
                   .load(cuda::memory_order_relaxed)) {}

  /// Called by the 32 lanes of one warp, converged, once per tile: publishes `aggregate` (the
  /// fold of tile `tile`'s items) and returns, in every lane, the fold of every earlier tile's
  /// aggregate in `prefix`; false (prefix untouched) for tile 0, which has none.
  __device__ bool exclusive_prefix(std::size_t tile, const T& aggregate, T& prefix) {
    const detail::maybe<T> p = prefix_of(tile, aggregate, {aggregate, false});
    if (p.has) {
      prefix = p.value;
    }
    return p.has;
  }

  /// The same with `init` before tile 0: tile 0 gets init, tile k init op (a_0 ... a_k-1).
  __device__ T exclusive_prefix_with_init(std::size_t tile, const T& aggregate, const T& init) {
    return prefix_of(tile, aggregate, {init, true}).value;
  }

  /// Every thread of every block calls it once, after the block's last exclusive_prefix (it holds
  /// a barrier). Nothing else to do but once in 2^30 grids, when the epoch's 30 bits wrap: then the
  /// grid's last block to finish clears every record ever used, so that none can match a later
  /// epoch by age.
  __device__ void finish() {
    // Every warp of this block is past its look-back, whose epoch is in the storage: a warp that
    // constructed the lookback late may have read the next grid's epoch, so its own copy does not
    // decide.
    __syncthreads();
    if (s_.epoch != detail::epoch_limit - 1) {
      return;  // the last tile's look-back moved the epoch on (next_epoch)
    }
    const int rank =
        static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
    if (rank == 0) {
      __threadfence();  // this block's records are written before the count says so
      s_.last_block = atomicAdd(&header_->blocks_done, 1u) == gridDim.x * gridDim.y * gridDim.z - 1;
    }
    __syncthreads();
    if (!s_.last_block) {
      return;
    }
    __threadfence();
    const std::size_t used = header_->records_used > detail::status_records(tiles_)
                                 ? header_->records_used
                                 : detail::status_records(tiles_);
    records_.clear(used, rank, static_cast<int>(blockDim.x * blockDim.y * blockDim.z));
    __syncthreads();
    if (rank == 0) {
      header_->records_used = 0;
      header_->record_bytes = static_cast<unsigned int>(detail::status_record_bytes<T>);
      header_->blocks_done = 0;
      header_->epoch = 0;
    }
  }

 private:
  __device__ detail::maybe<T> prefix_of(std::size_t tile, const T& aggregate,
                                        detail::maybe<T> start) {
    const int lane = detail::lane_id();
    const unsigned int epoch = epoch_;
    if (lane == 0) {
      s_.epoch = epoch;
    }
    const unsigned int layout = header_->record_bytes;
    if (layout != 0 && layout != detail::status_record_bytes<T>) {
      __trap();  // the workspace holds another T's records
    }
    const std::size_t chunk = tile / lookback_chunk_tiles;
    const int in_chunk = static_cast<int>(tile % lookback_chunk_tiles);
    if (lane == 0) {
      records_.publish(detail::tile_record(tile), detail::status_aggregate, aggregate, epoch);
    }
    // The aggregates of the tiles before this one in its chunk, each lane one tile.
    T mine = aggregate;
    if (lane < in_chunk) {
      while (records_.peek(detail::tile_record(chunk * lookback_chunk_tiles + lane), epoch, mine) ==
             detail::status_absent) {
        __nanosleep(32);
      }
    }
    s_.tile_values[lane] = mine;
    __syncwarp();
    detail::maybe<T> local{aggregate, false};
    if (lane == 0) {
#pragma unroll
      for (int l = 0; l < lookback_chunk_tiles - 1; ++l) {
        if (l < in_chunk) {
          local = {detail::fold_after(local, s_.tile_values[l], op_), true};
        }
      }
    }
    const bool closes_chunk = in_chunk == lookback_chunk_tiles - 1;
    if (lane == 0 && closes_chunk) {  // the chunk's total, as early as it is known
      records_.publish(detail::chunk_record(chunk), detail::status_aggregate,
                       detail::fold_after(local, aggregate, op_), epoch);
    }
    detail::maybe<T> before = start;
    if (chunk > 0) {
      before = chunk_prefix(chunk, start, epoch, lane);
    }
    detail::maybe<T> prefix{};
    if (lane == 0) {
      prefix = detail::fold_maybe(before, local, op_);
      if (closes_chunk) {
        records_.publish(detail::chunk_record(chunk), detail::status_inclusive,
                         detail::fold_after(before, detail::fold_after(local, aggregate, op_), op_),
                         epoch);
      }
    }
    if (lane == 0 && tile == tiles_ - 1) {
      next_epoch();
    }
    __syncwarp();  // lane 0's reads of the windows are done before the next tile's writes
    prefix.value = detail::shuffle_from(prefix.value, 0);
    prefix.has = __shfl_sync(detail::full_warp, prefix.has, 0);
    return prefix;
  }

  // The last tile's look-back has seen every tile's aggregate (directly or through a chunk's), so
  // every block of the grid has read the epoch: the next grid's may be set, with no counter and no
  // fence. The grid that would wrap it leaves it to finish().
  __device__ void next_epoch() {
    if (epoch_ == detail::epoch_limit - 1) {
      return;
    }
    const std::size_t mine = detail::status_records(tiles_);
    if (header_->records_used < mine) {
      header_->records_used = mine;
    }
    header_->record_bytes = static_cast<unsigned int>(detail::status_record_bytes<T>);
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(header_->epoch)
        .store(epoch_ + 1, cuda::memory_order_relaxed);
  }

  // Q_chunk: the nearest chunk within 32 that has its inclusive prefix, folded forward over the
  // chunk totals after it (chunk -1 stands for `start`). Spins until that window is complete.
  __device__ detail::maybe<T> chunk_prefix(std::size_t chunk, const detail::maybe<T>& start,
                                           unsigned int epoch, int lane) {
    const long long mine = static_cast<long long>(chunk) - 32 + lane;
    T value = start.value;
    int top = 0;
    for (;;) {
      unsigned int kind = detail::status_absent;
      if (mine >= 0) {
        kind = records_.peek(detail::chunk_record(static_cast<std::size_t>(mine)), epoch, value);
      }
      const unsigned int inclusive =
          __ballot_sync(detail::full_warp, kind == detail::status_inclusive || mine == -1);
      const unsigned int known =
          __ballot_sync(detail::full_warp, kind != detail::status_absent || mine < 0);
      if (inclusive != 0) {
        top = 31 - __clz(static_cast<int>(inclusive));
        const unsigned int above = top == 31 ? 0u : ~0u << (top + 1);
        if ((known & above) == above) {
          break;
        }
      }
      __nanosleep(64);
    }
    s_.chunk_values[lane] = value;
    __syncwarp();
    detail::maybe<T> q = start;
    if (lane == 0) {
      if (static_cast<long long>(chunk) - 32 + top >= 0) {
        q = {s_.chunk_values[top], true};
      }
#pragma unroll
      for (int l = 1; l < 32; ++l) {
        if (l > top) {
          q = {detail::fold_after(q, s_.chunk_values[l], op_), true};
        }
      }
    }
    return q;
  }

  storage& s_;
  Op op_;
  detail::lookback_header* header_;
  detail::status_records_view<T> records_;
  std::size_t tiles_;
  unsigned int epoch_;
};

}  // namespace gpuprims
