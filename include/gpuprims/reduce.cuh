// Reductions: the library's operators, a warp reduction over shuffles, and block_reduce<BlockSize, Op>
// in the shape of cub::BlockReduce, callable from a user kernel.
#pragma once

#include <gpuprims/detail/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/reduce_kernels.cuh>
#include <gpuprims/detail/reduce_ladder.cuh>
#include <gpuprims/detail/shuffle.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims {

/// Binary operators with the accumulator type they reduce in (`value_type`) and their identity.
template <class T>
struct plus {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a + b; }
  __host__ __device__ static T identity() { return T(0); }
};
template <class T>
struct minimum {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct maximum {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a & b; }
  __host__ __device__ static T identity() { return static_cast<T>(~T(0)); }
};
template <class T>
struct bit_or {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a | b; }
  __host__ __device__ static T identity() { return T(0); }
};
template <class T>
struct bit_xor {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a ^ b; }
  __host__ __device__ static T identity() { return T(0); }
};

namespace detail {

// Every lane of a converged warp contributes: five shuffles, no lane checks, no branch.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce_full(T value, Op& op) {
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    value = op(value, shuffle_down(value, offset));
  }
  return value;
}

}  // namespace detail

/// Reduces one value per lane of a full, converged warp; lanes at or past `valid` do not take part.
/// The result is valid in lane 0. Five shuffle steps, no shared memory, no barrier. Lanes combine in
/// lane order (pairs, then pairs of pairs), so Op need only be associative, not commutative.
///
///   float s = gpuprims::warp_reduce(x, gpuprims::plus<float>{});
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T value, Op op, int valid = 32) {
  if (valid >= 32) {
    return detail::warp_reduce_full(value, op);
  }
  const int lane = detail::lane_id();
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const T other = detail::shuffle_down(value, offset);
    if (lane + offset < valid) {
      value = op(value, other);
    }
  }
  return value;
}

/// How block_reduce combines across the block: the reference notes' ladder, rung by rung, and the
/// default, warp shuffles. The shared-memory rungs keep one T per thread in shared memory; the
/// sequential ones (sequential, unrolled_last_warp, complete_unroll) need a commutative Op.
enum class block_reduce_algorithm {
  interleaved_modulo,   ///< reduce0
  interleaved_strided,  ///< reduce1
  sequential,           ///< reduce2
  unrolled_last_warp,   ///< reduce4, with __syncwarp
  complete_unroll,      ///< reduce5
  warp_shuffle,         ///< shuffles within warps, then over the warp partials: the default
};

/// A block-wide reduction for blocks of BlockSize threads (a multiple of 32, up to 1024), one-,
/// two- or three-dimensional. Op combines two T (the accumulator type: items of another type, such
/// as __half into float, are converted on entry). With warp_shuffle (the default) and the interleaved
/// rungs Op need only be associative: items combine in thread order, each thread's array in index
/// order; the sequential rungs also need it commutative. Declare the storage in shared memory, construct
/// with it, and call one method from every thread of the block; results are valid in thread 0
/// (all_reduce: in every thread). __syncthreads() before reusing the storage.
///
///   using reduce_t = gpuprims::block_reduce<256, gpuprims::plus<float>>;
///   __shared__ reduce_t::storage s;
///   float total = reduce_t(s).reduce(x);   // thread 0 has the block's sum
template <int BlockSize, class Op, class T = typename Op::value_type,
          block_reduce_algorithm Algorithm = block_reduce_algorithm::warp_shuffle>
class block_reduce {
  static_assert(BlockSize > 0 && BlockSize % 32 == 0 && BlockSize <= 1024,
                "BlockSize must be a multiple of 32 up to 1024");
  static_assert(std::is_trivially_copyable_v<T>, "block_reduce moves T through shuffles and shared memory: trivially copyable");
  static constexpr int warps = BlockSize / 32;
  static constexpr bool shuffles = Algorithm == block_reduce_algorithm::warp_shuffle;
  struct shuffle_storage {
    T warp_partials[warps];
    T result;
  };
  struct tree_storage {
    T data[BlockSize];
    T result;
  };

 public:
  using storage = std::conditional_t<shuffles, shuffle_storage, tree_storage>;

  __device__ explicit block_reduce(storage& s, Op op = Op{}) : s_(s), op_(op) {}

  /// The reduction of every thread's `item`, valid in thread 0.
  __device__ T reduce(const T& item) {
    if constexpr (!shuffles) {
      return reduce_tree(item, BlockSize);
    } else {
      return reduce_shuffle_full(item);
    }
  }

  /// Each thread folds its own items first (in order), then the block reduces.
  template <int Items, class Item>
  __device__ T reduce(const Item (&items)[Items]) {
    static_assert(Items > 0, "at least one item per thread");
    T folded = static_cast<T>(items[0]);
#pragma unroll
    for (int i = 1; i < Items; ++i) {
      folded = op_(folded, static_cast<T>(items[i]));
    }
    return reduce(folded);
  }

  /// Only threads [0, num_valid) contribute (a partial tile); valid in thread 0. num_valid >= 1
  /// (values above BlockSize count as BlockSize).
  __device__ T reduce(const T& item, int num_valid) {
    num_valid = num_valid < BlockSize ? num_valid : BlockSize;
    if constexpr (!shuffles) {
      return reduce_tree(item, num_valid);
    } else {
      return reduce_shuffle(item, num_valid);
    }
  }

 private:
  __device__ T reduce_tree(const T& item, int num_valid) {
    const int tid = linear_rank();
    if (tid < num_valid) {
      s_.data[tid] = item;
    }
    __syncthreads();
    if constexpr (Algorithm == block_reduce_algorithm::interleaved_modulo) {
      detail::tree_interleaved_modulo<BlockSize>(s_.data, tid, num_valid, op_);
    } else if constexpr (Algorithm == block_reduce_algorithm::interleaved_strided) {
      detail::tree_interleaved_strided<BlockSize>(s_.data, tid, num_valid, op_);
    } else if constexpr (Algorithm == block_reduce_algorithm::sequential) {
      detail::tree_sequential<BlockSize, false>(s_.data, tid, num_valid, 1, op_);
    } else {
      detail::tree_last_warp<BlockSize, Algorithm == block_reduce_algorithm::complete_unroll>(s_.data, tid, num_valid,
                                                                                             op_);
    }
    // Thread 0 wrote data[0] last (or a barrier followed): only it may read it without a race.
    return tid == 0 ? s_.data[0] : item;
  }

  // A full tile: no lane checks. Up to 16 warps, thread 0 folds the partials in order (as
  // cub::BlockReduce does: cheaper than a second round of five shuffles over a part-empty warp);
  // above, warp 0 shuffles them.
  __device__ T reduce_shuffle_full(const T& item) {
    const int rank = linear_rank();
    const int warp = rank / 32;
    T partial = detail::warp_reduce_full(item, op_);
    if (rank % 32 == 0) {
      s_.warp_partials[warp] = partial;
    }
    __syncthreads();
    if constexpr (warps <= 16) {
      if (rank == 0) {
#pragma unroll
        for (int w = 1; w < warps; ++w) {
          partial = op_(partial, s_.warp_partials[w]);
        }
      }
    } else {
      if (warp == 0) {
        const int lane = rank % 32;
        // Lanes past the last warp read slot 0: a value they never contribute.
        partial = warp_reduce(s_.warp_partials[lane < warps ? lane : 0], op_, warps);
      }
    }
    return partial;
  }

  __device__ T reduce_shuffle(const T& item, int num_valid) {
    const int rank = linear_rank();
    const int warp = rank / 32;
    const int lane = rank % 32;
    const int valid_in_warp = num_valid - warp * 32;
    T partial = warp_reduce(item, op_, valid_in_warp < 32 ? valid_in_warp : 32);
    if (lane == 0 && valid_in_warp > 0) {
      s_.warp_partials[warp] = partial;
    }
    __syncthreads();
    if (warp == 0) {
      const int valid_warps = (num_valid + 31) / 32;
      // Lanes past the last partial read slot 0: a value they never contribute (valid_warps).
      T p = s_.warp_partials[lane < valid_warps ? lane : 0];
      if constexpr (warps > 1) {
        p = warp_reduce(p, op_, valid_warps);
      }
      partial = p;
    }
    return partial;
  }

 public:
  /// The reduction of every thread's `item`, returned to every thread.
  __device__ T all_reduce(const T& item) { return all_reduce(item, BlockSize); }

  /// Partial-tile all-reduce: threads [0, num_valid) contribute, every thread gets the result.
  __device__ T all_reduce(const T& item, int num_valid) {
    const T total = reduce(item, num_valid);
    if (linear_rank() == 0) {
      s_.result = total;
    }
    __syncthreads();
    return s_.result;
  }

 private:
  __device__ static int linear_rank() {
    if (blockDim.x == BlockSize) {  // a 1D block (the common case): no reads of threadIdx.y, .z
      return static_cast<int>(threadIdx.x);
    }
    return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  }

  storage& s_;
  Op op_;
};

namespace detail {

// The single-pass kernel's shape, measured on an H100 (docs/reduce.md): one wave of resident
// blocks; up to 8 MiB of input, 256 threads with eight 16-byte loads in flight each (fewer, fuller
// blocks start sooner), above it 1024 threads with four (fewer partials for the last block).
struct reduce_config {
  int block_threads, unroll, waves;
};
inline constexpr reduce_config reduce_small{256, 8, 1};
inline constexpr reduce_config reduce_large{1024, 4, 1};
inline constexpr std::size_t reduce_small_max_bytes = std::size_t{8} << 20;

// Blocks of the single-pass reduction: enough for the owners of the input, at most a few waves of
// resident blocks (each thread then folds many vectors before the block-level step).
template <int BlockThreads, int Waves>
cudaError_t reduce_max_blocks(std::size_t& blocks) {
  device_shape shape;
  GPUPRIMS_RETURN_IF_ERROR(query_device_shape(shape));
  blocks = static_cast<std::size_t>(shape.multiprocessors) *
           static_cast<std::size_t>(shape.max_threads_per_multiprocessor / BlockThreads) * Waves;
  return cudaSuccess;
}

// Workspace: the arrival counter (first, 256-byte aligned), then one partial per block.
template <class T>
std::size_t reduce_partials_offset() {
  return 256 > alignof(T) ? 256 : alignof(T);
}

template <class T>
std::size_t reduce_workspace_bytes_for(std::size_t max_blocks) {
  return reduce_partials_offset<T>() + max_blocks * sizeof(T);
}

}  // namespace detail

/// Bytes of workspace gpuprims::reduce needs for accumulator type T on the current device (for any
/// n). Zero it once (cudaMemsetAsync) before its first use; every call leaves it zeroed again.
template <class T>
[[nodiscard]] cudaError_t reduce_workspace_bytes(std::size_t& bytes) {
  std::size_t small = 0, large = 0;
  GPUPRIMS_RETURN_IF_ERROR((detail::reduce_max_blocks<detail::reduce_small.block_threads, detail::reduce_small.waves>(small)));
  GPUPRIMS_RETURN_IF_ERROR((detail::reduce_max_blocks<detail::reduce_large.block_threads, detail::reduce_large.waves>(large)));
  bytes = detail::reduce_workspace_bytes_for<T>(small > large ? small : large);
  return cudaSuccess;
}

namespace detail {

// The single-pass launch with its tuning knobs (threads per block, 16-byte loads in flight per
// thread, waves of resident blocks); gpuprims::reduce picks one of the two shapes above by size.
template <int BlockThreads, int Unroll, int Waves, class Item, class T, class Op>
cudaError_t reduce_single_pass(const Item* in, std::size_t n, T* out, T init, Op op, void* workspace,
                               std::size_t workspace_bytes, cudaStream_t stream) {
  static_assert(std::is_trivially_copyable_v<T>, "the accumulator moves through shuffles: trivially copyable");
  if (out == nullptr || (n > 0 && in == nullptr)) {
    return cudaErrorInvalidValue;
  }
  if (n == 0) {
    return launch<write_value_kernel<T>>(1, 1, stream, out, init);
  }
  std::size_t max_blocks = 0;
  GPUPRIMS_RETURN_IF_ERROR((reduce_max_blocks<BlockThreads, Waves>(max_blocks)));
  const std::size_t needed = reduce_workspace_bytes_for<T>(max_blocks);
  constexpr std::size_t workspace_alignment = alignof(T) > 4 ? alignof(T) : 4;
  if (workspace == nullptr || workspace_bytes < needed ||
      reinterpret_cast<std::uintptr_t>(workspace) % workspace_alignment != 0) {
    return cudaErrorInvalidValue;
  }
  const std::size_t owners = reduce_owners(in, n);
  constexpr std::size_t per_block = std::size_t{BlockThreads} * Unroll;
  std::size_t blocks = (owners + per_block - 1) / per_block;
  blocks = blocks < max_blocks ? blocks : max_blocks;
  blocks = blocks == 0 ? 1 : blocks;
  auto* bytes = static_cast<unsigned char*>(workspace);
  return launch<reduce_single_pass_kernel<block_reduce<BlockThreads, Op, T>, BlockThreads, Unroll, T, Op, Item>>(
      static_cast<unsigned int>(blocks), BlockThreads, stream, in, n, out, init, op,
      reinterpret_cast<T*>(bytes + reduce_partials_offset<T>()), reinterpret_cast<unsigned int*>(bytes));
}

}  // namespace detail

/// *out = op(init, in[0] op in[1] op ... op in[n - 1]) on `stream`, in one kernel launch, with the
/// caller's workspace (see reduce_workspace_bytes; aligned to T and to 4 bytes). Op must be
/// associative and commutative (the grid-stride split interleaves the input), as for
/// cub::DeviceReduce. Items convert to T on load (__half into float,
/// int8 into int64). The combination order depends only on n, the device and the input's
/// alignment: floating-point results repeat bit for bit. n == 0 writes init.
///
///   cudaError_t e = gpuprims::reduce(d_in, n, d_sum, 0.0f, gpuprims::plus<float>{}, d_ws, ws_bytes, stream);
template <class Item, class T, class Op>
[[nodiscard]] cudaError_t reduce(const Item* in, std::size_t n, T* out, detail::identity_t<T> init, Op op,
                                 void* workspace, std::size_t workspace_bytes, cudaStream_t stream = 0) {
  using detail::reduce_large;
  using detail::reduce_small;
  if (n <= detail::reduce_small_max_bytes / sizeof(Item)) {
    return detail::reduce_single_pass<reduce_small.block_threads, reduce_small.unroll, reduce_small.waves>(
        in, n, out, init, op, workspace, workspace_bytes, stream);
  }
  return detail::reduce_single_pass<reduce_large.block_threads, reduce_large.unroll, reduce_large.waves>(
      in, n, out, init, op, workspace, workspace_bytes, stream);
}

/// The same with stream-ordered workspace (cudaMallocAsync from the device's default pool, freed
/// on the stream after the kernel): nothing to manage, no synchronisation.
///
///   cudaError_t e = gpuprims::reduce(d_in, n, d_sum, 0.0f, gpuprims::plus<float>{}, stream);
template <class Item, class T, class Op>
[[nodiscard]] cudaError_t reduce(const Item* in, std::size_t n, T* out, detail::identity_t<T> init, Op op,
                                 cudaStream_t stream = 0) {
  if (out == nullptr || (n > 0 && in == nullptr)) {
    return cudaErrorInvalidValue;
  }
  if (n == 0) {
    return reduce(in, n, out, init, op, nullptr, 0, stream);
  }
  std::size_t bytes = 0;
  GPUPRIMS_RETURN_IF_ERROR(reduce_workspace_bytes<T>(bytes));
  void* workspace = nullptr;
  GPUPRIMS_RETURN_IF_ERROR(cudaMallocAsync(&workspace, bytes, stream));
  cudaError_t status = cudaMemsetAsync(workspace, 0, sizeof(unsigned int), stream);
  if (status == cudaSuccess) {
    status = reduce(in, n, out, init, op, workspace, bytes, stream);
  }
  const cudaError_t freed = cudaFreeAsync(workspace, stream);
  return status != cudaSuccess ? status : freed;
}

}  // namespace gpuprims
