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
/// The order, for floating point: tile k's prefix is the serial left fold
/// P_k = ((init op a_0) op a_1) ... op a_k-1 of the tile aggregates (without init when there is
/// none), whatever the timing. Each tile publishes its aggregate, looks back for the nearest tile j
/// that has published its inclusive prefix P_j+1, and folds the aggregates after it forward, left
/// to right, from P_j+1: by induction the same bits as the serial chain, so results repeat on every
/// run and every device, and the chain costs what the classic decoupled look-back costs (which
/// folds right to left, so its bits depend on where it found an inclusive prefix).
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
    T window[32];
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
                                        const detail::maybe<T>& start) {
    const int lane = detail::lane_id();
    const unsigned int epoch = epoch_;
    if (detail::lane_id() == 0) {
      s_.epoch = epoch;
    }
    const unsigned int layout = header_->record_bytes;
    if (layout != 0 && layout != detail::status_record_bytes<T>) {
      __trap();  // the workspace holds another T's records
    }
    detail::maybe<T> prefix = start;
    if (tile == 0) {  // nothing to wait for: the inclusive prefix at once
      if (lane == 0) {
        records_.publish(0, detail::status_inclusive, detail::fold_after(start, aggregate, op_),
                         epoch);
      }
    } else {
      if (lane == 0) {
        records_.publish(tile, detail::status_aggregate, aggregate, epoch);
      }
      prefix = look_back(static_cast<long long>(tile), start, epoch, lane);
      if (lane == 0) {
        records_.publish(tile, detail::status_inclusive, detail::fold_after(prefix, aggregate, op_),
                         epoch);
      }
    }
    if (lane == 0 && tile == tiles_ - 1) {
      next_epoch();
    }
    __syncwarp();  // lane 0's reads of the window are done before the next tile's writes
    prefix.value = detail::shuffle_from(prefix.value, 0);
    prefix.has = __shfl_sync(detail::full_warp, prefix.has, 0);
    return prefix;
  }

  // The last tile's look-back has seen every tile's record (directly or through an inclusive
  // prefix, which its tile published after seeing the ones before), so every block of the grid has
  // read the epoch: the next grid's may be set, with no counter and no fence. The grid that would
  // wrap it leaves it to finish().
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

  // One look at the window of the 32 tiles [hi - 32, hi): each lane's record (tile -1 stands for
  // `start`, an inclusive prefix; tiles before it are known and empty). Returns the highest lane
  // holding an inclusive prefix with every lane above it known (-1: none, every lane known), or -2
  // while that is not yet so; the values land in s_.window.
  __device__ int look(long long hi, const detail::maybe<T>& start, unsigned int epoch, int lane) {
    const long long mine = hi - 32 + lane;
    T value = start.value;
    unsigned int kind = detail::status_absent;
    if (mine >= 0) {
      kind = records_.peek(static_cast<std::size_t>(mine), epoch, value);
    }
    const unsigned int inclusive =
        __ballot_sync(detail::full_warp, kind == detail::status_inclusive || mine == -1);
    const unsigned int known =
        __ballot_sync(detail::full_warp, kind != detail::status_absent || mine < 0);
    s_.window[lane] = value;
    __syncwarp();
    const int top = inclusive == 0 ? -1 : 31 - __clz(static_cast<int>(inclusive));
    const unsigned int above = top == 31 ? 0u : ~0u << (top + 1);
    return (known & above) == above ? top : -2;
  }

  // Lane 0: q folded forward over the window's lanes from `top` (an inclusive prefix, which
  // replaces q: the same bits) or from lane 0 (top == -1: aggregates only).
  __device__ detail::maybe<T> fold_window(detail::maybe<T> q, int top, long long hi,
                                          const detail::maybe<T>& start) {
    if (top >= 0) {
      q = hi - 32 + top == -1 ? start : detail::maybe<T>{s_.window[top], true};
    }
#pragma unroll
    for (int l = 0; l < 32; ++l) {
      if (l > top) {
        q = {detail::fold_after(q, s_.window[l], op_), true};
      }
    }
    return q;
  }

  // P_tile in lane 0: back window by window to the nearest inclusive prefix (spinning on a window
  // with a record not yet published above its nearest inclusive prefix), then forward to the tile,
  // folding the aggregates in order. Windows passed on the way back hold aggregates only; read
  // again on the way forward, they are all published (some may have become inclusive prefixes).
  __device__ detail::maybe<T> look_back(long long tile, const detail::maybe<T>& start,
                                        unsigned int epoch, int lane) {
    long long hi = tile;
    int top = -2;
    for (;;) {
      top = look(hi, start, epoch, lane);
      if (top >= 0) {
        break;
      }
      if (top == -1) {
        hi -= 32;  // aggregates only: further back
      } else {
        __nanosleep(32);
      }
      __syncwarp();
    }
    detail::maybe<T> q{};
    for (;;) {
      if (lane == 0) {
        q = fold_window(q, top, hi, start);
      }
      __syncwarp();
      hi += 32;
      if (hi > tile) {
        return q;
      }
      top = look(hi, start, epoch, lane);  // every record published: never -2
    }
  }

  storage& s_;
  Op op_;
  detail::lookback_header* header_;
  detail::status_records_view<T> records_;
  std::size_t tiles_;
  unsigned int epoch_;
};

}  // namespace gpuprims
