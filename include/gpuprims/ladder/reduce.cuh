// The reduction ladder of the reference notes (reduce0 to reduce6), rung by rung, for teaching and
// measuring: the block-level trees in the block_reduce shape, and the notes' device-wide driver.
// Production code calls gpuprims::block_reduce and gpuprims::reduce.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/ladder/reduce_kernels.cuh>
#include <gpuprims/detail/ladder/reduce_trees.cuh>
#include <gpuprims/detail/reduce/block_front.cuh>
#include <gpuprims/detail/reduce/block_warp_shuffle.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims::ladder {

/// The block-level trees in shared memory (one T per thread of storage). The interleaved ones keep
/// operand order; the sequential ones need a commutative Op.
enum class block_reduce_rung {
  interleaved_modulo,   ///< reduce0: tid % 2s == 0 pairs tid with tid + s
  interleaved_strided,  ///< reduce1: thread i works on index 2si (bank conflicts)
  sequential,           ///< reduce2: tid pairs with tid + s, s halving
  unrolled_last_warp,   ///< reduce4: sequential down to 64 partials, then warp 0 with __syncwarp
  complete_unroll,      ///< reduce5: the same, every loop unrolled at compile time
};

namespace detail {
constexpr gpuprims::detail::tree_kind tree_of(block_reduce_rung r) {
  using gpuprims::detail::tree_kind;
  switch (r) {
    case block_reduce_rung::interleaved_modulo:
      return tree_kind::interleaved_modulo;
    case block_reduce_rung::interleaved_strided:
      return tree_kind::interleaved_strided;
    case block_reduce_rung::sequential:
      return tree_kind::sequential;
    case block_reduce_rung::unrolled_last_warp:
      return tree_kind::last_warp;
    default:
      return tree_kind::last_warp_unrolled;
  }
}
template <block_reduce_rung Rung, int BlockSize, class T>
using tree_algorithm = gpuprims::detail::block_reduce_tree<tree_of(Rung), BlockSize, T>;
}  // namespace detail

/// A rung as a block reduction, with gpuprims::block_reduce's storage and methods.
template <int BlockSize, class Op, block_reduce_rung Rung, class T = typename Op::value_type>
class block_reduce
    : public gpuprims::detail::block_reduce_front<detail::tree_algorithm<Rung, BlockSize, T>,
                                                  BlockSize, Op, T> {
 public:
  using gpuprims::detail::block_reduce_front<detail::tree_algorithm<Rung, BlockSize, T>, BlockSize,
                                             Op, T>::block_reduce_front;
};

/// The notes' device-wide reductions: a block tree and a way of gathering per thread.
enum class reduce_rung {
  reduce0_interleaved_modulo,     ///< one element per thread, interleaved_modulo
  reduce1_interleaved_strided,    ///< one element, interleaved_strided
  reduce2_sequential,             ///< one element, sequential
  reduce3_first_add_during_load,  ///< two elements (the first add during the load), sequential
  reduce4_unrolled_last_warp,     ///< two elements, unrolled_last_warp
  reduce5_complete_unroll,        ///< two elements, complete_unroll
  reduce6_cascading,       ///< one wave of blocks, each thread summing many pairs, complete_unroll
  warp_shuffle_cascading,  ///< reduce6's gather with gpuprims::block_reduce (warp shuffles)
};

/// Bytes of workspace ladder::reduce needs for n elements of T (two levels of block partials).
template <class T>
std::size_t reduce_workspace_bytes(std::size_t n) {
  return 2 * gpuprims::detail::ladder_level_capacity(n) * sizeof(T);
}

/// *out = in[0] + ... + in[n - 1] the notes' way: one launch per level (256-thread blocks), block
/// partials in the workspace between levels, asynchronous on `stream`. n >= 1; a null pointer or a
/// short workspace returns cudaErrorInvalidValue and launches nothing.
template <reduce_rung Rung, class T>
[[nodiscard]] cudaError_t reduce(const T* in, T* out, std::size_t n, void* workspace,
                                 std::size_t workspace_bytes, cudaStream_t stream = 0) {
  using gpuprims::detail::ladder_block;
  using gpuprims::detail::ladder_gather;
  if (in == nullptr || out == nullptr || n == 0 || workspace == nullptr ||
      workspace_bytes < reduce_workspace_bytes<T>(n) ||
      reinterpret_cast<std::uintptr_t>(workspace) % alignof(T) != 0) {
    return cudaErrorInvalidValue;
  }
  auto* partials = static_cast<T*>(workspace);
  constexpr auto gather = Rung <= reduce_rung::reduce2_sequential        ? ladder_gather::one
                          : Rung <= reduce_rung::reduce5_complete_unroll ? ladder_gather::two
                                                                         : ladder_gather::cascade;
  constexpr auto block_rung =
      Rung == reduce_rung::reduce0_interleaved_modulo      ? block_reduce_rung::interleaved_modulo
      : Rung == reduce_rung::reduce1_interleaved_strided   ? block_reduce_rung::interleaved_strided
      : Rung <= reduce_rung::reduce3_first_add_during_load ? block_reduce_rung::sequential
      : Rung == reduce_rung::reduce4_unrolled_last_warp    ? block_reduce_rung::unrolled_last_warp
                                                           : block_reduce_rung::complete_unroll;
  if constexpr (Rung == reduce_rung::warp_shuffle_cascading) {
    return gpuprims::detail::ladder_reduce<
        gpuprims::detail::block_reduce_warp_shuffle<ladder_block, T>, gather>(in, n, out, partials,
                                                                              stream);
  } else {
    return gpuprims::detail::ladder_reduce<detail::tree_algorithm<block_rung, ladder_block, T>,
                                           gather>(in, n, out, partials, stream);
  }
}

}  // namespace gpuprims::ladder
