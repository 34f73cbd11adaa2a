// Host launchers of the device-wide reduction: gpuprims::reduce.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/reduce/cols.cuh>
#include <gpuprims/detail/reduce/kernels.cuh>
#include <gpuprims/detail/reduce/rows.cuh>
#include <gpuprims/device/workspace.cuh>
#include <gpuprims/tuning/reduce.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>
#include <cuda/std/type_traits>

#include <cstddef>
#include <type_traits>

namespace gpuprims {

/// Bytes of workspace gpuprims::reduce needs for n items of Item reduced in T, on the current
/// device: 0 for inputs one block reduces alone; never more than about 768 + n * sizeof(Item) /
/// 2048. The workspace needs no preparation (no zeroing): docs/reduce.md, "The workspace".
template <class Item, class T = Item, class Tuning = reduce_tuning>
[[nodiscard]] cudaError_t reduce_workspace_bytes(std::size_t n, std::size_t& bytes) {
  detail::device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(detail::current_device_facts(facts));
  bytes = detail::reduce_workspace_bytes_for<Item, T>(Tuning::select(facts.target_arch), n);
  return cudaSuccess;
}

/// *out = op(init, in[0] op in[1] op ... op in[n - 1]) on `stream`, with the caller's workspace
/// (reduce_workspace_bytes; 256-byte aligned, as cudaMalloc gives). Items convert to T on load
/// (__half into float, int8 into int64); Op takes and returns T. Op must be associative and
/// commutative (tiles interleave the input), as for cub::DeviceReduce. The combination order is a
/// function of n and of the input's address modulo 16 only, the same on every GPU, so results
/// repeat bit for bit across runs and devices (docs/reduce.md, "The order"). One launch up to 2^24
/// floats (the first pass's last block finishes), two up to 2^34. A workspace serves one call at a
/// time: calls that may overlap (two streams, two graphs) need one each. n == 0 writes init. A null
/// `out`, a null `in` with n > 0, or a needed workspace that is null, short or misaligned return
/// cudaErrorInvalidValue and launch nothing.
///
///   cudaError_t e = gpuprims::reduce(d_in, d_sum, n, 0.0f, gpuprims::plus<float>{},
///                                    d_ws, ws_bytes, stream);
template <class Tuning = reduce_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t reduce(const Item* in, T* out, std::size_t n,
                                 cuda::std::type_identity_t<T> init, Op op, void* workspace,
                                 std::size_t workspace_bytes, cudaStream_t stream = 0) {
  return detail::launch_reduce<Tuning>(in, out, n, init, op, workspace, workspace_bytes, stream);
}

/// The same without a workspace argument: the library keeps one per stream (device/workspace.cuh),
/// allocated (stream-ordered) by the first call on a stream that needs it and reused by every later
/// one; under stream capture the graph allocates and frees its own. Safe from several host threads,
/// on several streams and devices at once.
///
///   cudaError_t e = gpuprims::reduce(d_in, d_sum, n, 0.0f, gpuprims::plus<float>{}, stream);
template <class Tuning = reduce_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t reduce(const Item* in, T* out, std::size_t n,
                                 cuda::std::type_identity_t<T> init, Op op,
                                 cudaStream_t stream = 0) {
  if (out == nullptr || (n > 0 && in == nullptr)) {
    return cudaErrorInvalidValue;
  }
  // The device's facts read once for the size, the workspace and the launch: at small sizes the
  // host's time per call is what a batch of calls waits for.
  detail::device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(detail::current_device_facts(facts));
  const std::size_t bytes =
      detail::reduce_workspace_bytes_for<Item, T>(Tuning::select(facts.target_arch), n);
  return detail::with_stream_workspace(
      stream, bytes,
      [&](void* workspace) {
        return detail::launch_reduce<Tuning>(facts, in, out, n, init, op, workspace, bytes, stream);
      },
      detail::workspace_zeroed, facts.device);
}

/// The reductions without `init`, for operators with an identity (plus, minimum, maximum and the
/// bit operators): *out = in[0] op ... op in[n - 1], Op::identity() for n == 0.
///
///   cudaError_t e = gpuprims::reduce(d_in, d_max, n, gpuprims::maximum<float>{}, stream);
template <class Tuning = reduce_tuning, class Item, class T, class Op,
          std::enable_if_t<detail::has_identity<Op, T>, int> = 0>
[[nodiscard]] cudaError_t reduce(const Item* in, T* out, std::size_t n, Op op,
                                 cudaStream_t stream = 0) {
  return reduce<Tuning>(in, out, n, static_cast<T>(Op::identity()), op, stream);
}

template <class Tuning = reduce_tuning, class Item, class T, class Op,
          std::enable_if_t<detail::has_identity<Op, T>, int> = 0>
[[nodiscard]] cudaError_t reduce(const Item* in, T* out, std::size_t n, Op op, void* workspace,
                                 std::size_t workspace_bytes, cudaStream_t stream = 0) {
  return reduce<Tuning>(in, out, n, static_cast<T>(Op::identity()), op, workspace, workspace_bytes,
                        stream);
}

/// out[r] = op(init, in[r * in_pitch] op ... op in[r * in_pitch + cols - 1]) for each of `rows`
/// rows (pitch in items, at least cols), one result per row; init for cols == 0. Items convert to
/// T; Op takes and returns T and must be associative and commutative. Packed rows (in_pitch ==
/// cols, in on a 16-byte boundary, items that pack into 16-byte words) are read as 16-byte words
/// in contiguous tiles (reduce_rows_policy::packed_max_cols): several rows a word (rows that divide
/// a word, with a thread a row's bits) or a lane a word (rows of 2 to 32 words, a shuffle tree over
/// the row's lanes). Otherwise up to 8 items a thread per row. Longer rows that all start at the
/// same offset from a 16-byte boundary (in_pitch a whole number of 16-byte words) of items that
/// pack into 16-byte words load 16-byte words: a group of lanes per row up to 4095 items; from 4096
/// items those rows (and rows of items that do not pack) are cut into tiles as gpuprims::reduce
/// cuts an input (a block a tile, a second launch folding each row's partials). Other rows: a warp
/// or a block per row by cols, long unpadded ones gpuprims::segmented_reduce's walk
/// (reduce_rows_tuning; docs/reduce.md). Tiles and the walk use the stream's cached workspace. Each
/// row's order depends on cols, in_pitch and the input's alignment (the walk's also on rows), so
/// the bits repeat on every GPU. rows == 0 launches nothing. A null `out`, a null `in` with work, a
/// pitch shorter than cols, a span that overflows, or an output overlapping the input return
/// cudaErrorInvalidValue and launch nothing.
///
///   cudaError_t e = gpuprims::reduce_rows(d_in, d_sums, rows, cols, cols, 0.0f,
///                                         gpuprims::plus<float>{}, stream);
template <class Tuning = reduce_rows_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t reduce_rows(const Item* in, T* out, std::size_t rows, std::size_t cols,
                                      std::size_t in_pitch, cuda::std::type_identity_t<T> init,
                                      Op op, cudaStream_t stream = 0) {
  return detail::launch_reduce_rows<Tuning>(in, out, rows, cols, in_pitch, init, op, stream);
}

/// out[c] = op(init, in[c] op in[in_pitch + c] op ... op in[(rows - 1) * in_pitch + c]) for each
/// of `cols` columns of a row-major matrix (pitch in items, at least cols), one result per column;
/// init for rows == 0. Read row by row, coalesced, without transposing: a block takes up to 32
/// columns and a chunk of rows, and further short passes fold the chunks' partials (in the
/// stream's cached workspace, as gpuprims::reduce without workspace). Items convert to T; Op takes
/// and returns T and must be associative and commutative. The order depends on rows, cols and the
/// policy only (docs/reduce.md), so the bits repeat on every GPU. cols == 0 launches nothing. A
/// null `out`, a null `in` with work, a pitch shorter than cols, a span that overflows, or an
/// output overlapping the input return cudaErrorInvalidValue and launch nothing.
///
///   cudaError_t e = gpuprims::reduce_cols(d_in, d_col_sums, rows, cols, cols, 0.0f,
///                                         gpuprims::plus<float>{}, stream);
template <class Tuning = reduce_cols_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t reduce_cols(const Item* in, T* out, std::size_t rows, std::size_t cols,
                                      std::size_t in_pitch, cuda::std::type_identity_t<T> init,
                                      Op op, cudaStream_t stream = 0) {
  return detail::launch_reduce_cols<Tuning>(in, out, rows, cols, in_pitch, init, op, stream);
}

}  // namespace gpuprims
