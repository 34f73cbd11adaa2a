// Host launchers of the segmented reductions: gpuprims::segmented_reduce (segments given by
// offsets) and gpuprims::reduce_batched (segments of one size, back to back: reduce_rows).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/reduce/kernels.cuh>
#include <gpuprims/detail/reduce/rows.cuh>
#include <gpuprims/detail/reduce/segmented.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/device/workspace.cuh>
#include <gpuprims/tuning/reduce.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gpuprims {
namespace detail {

template <class T, class Tuning>
cudaError_t segmented_workspace_of(std::size_t& bytes) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  bytes = segmented_workspace_bytes<T>(Tuning::select(facts.target_arch));
  return cudaSuccess;
}

template <class Tuning, class Item, class Offsets, class T, class Op>
cudaError_t segmented_with_workspace(const Item* in, Offsets offsets, T* out,
                                     std::size_t num_segments, T init, Op op, void* workspace,
                                     std::size_t workspace_bytes, cudaStream_t stream) {
  std::size_t needed = 0;
  GPUPRIMS_RETURN_IF_ERROR((segmented_workspace_of<T, Tuning>(needed)));
  if (workspace == nullptr || workspace_bytes < needed ||
      reinterpret_cast<std::uintptr_t>(workspace) % segmented_workspace_alignment != 0) {
    return cudaErrorInvalidValue;
  }
  return launch_segmented_reduce<Tuning>(in, offsets, num_segments, out, init, op, workspace,
                                         stream);
}

}  // namespace detail

/// Bytes of workspace gpuprims::segmented_reduce and gpuprims::reduce_batched need for results of
/// type T, on the current device: a constant (two records per walker of the policy, about 96 KiB
/// for float), whatever the segments.
template <class T, class Tuning = segmented_reduce_tuning>
[[nodiscard]] cudaError_t segmented_reduce_workspace_bytes(std::size_t& bytes) {
  return detail::segmented_workspace_of<T, Tuning>(bytes);
}

/// out[s] = op(init, in[offsets[s]] op ... op in[offsets[s + 1] - 1]) for each of `num_segments`
/// segments, given by num_segments + 1 offsets (any integer type) in device memory; init for an
/// empty segment. Items convert to T; Op takes and returns T and must be associative and
/// commutative (the lanes of a warp read a segment's items interleaved). The work is spread evenly
/// over the segments' items and ends together (a merge path), so a segment of 2^24 items among a
/// million empty or tiny ones costs what its items cost, and the combination order depends on the
/// offsets and the input's alignment alone: the bits repeat on every GPU. Two launches, whatever
/// the segments.
/// Offsets must not decrease: where they do the results are undefined, though nothing outside
/// in[offsets[0], offsets[num_segments]) is read and nothing outside out[0, num_segments) written.
/// The input's extent lies in device memory, so an output overlapping it is not detected (don't).
/// The workspace (segmented_reduce_workspace_bytes, 16-byte aligned) needs no preparation and
/// serves one call at a time. num_segments == 0 launches nothing. A null `out`, `offsets` or `in`
/// with segments, an `out` overlapping the offsets, or a null, short or misaligned workspace return
/// cudaErrorInvalidValue and launch nothing.
///
///   cudaError_t e = gpuprims::segmented_reduce(d_in, d_offsets, d_sums, num_segments, 0.0f,
///                                              gpuprims::plus<float>{}, d_ws, ws_bytes, stream);
template <class Tuning = segmented_reduce_tuning, class Item, class Offset, class T, class Op>
[[nodiscard]] cudaError_t segmented_reduce(const Item* in, const Offset* offsets, T* out,
                                           std::size_t num_segments,
                                           cuda::std::type_identity_t<T> init, Op op,
                                           void* workspace, std::size_t workspace_bytes,
                                           cudaStream_t stream = 0) {
  detail::check_accumulator_types<T, Op>();
  static_assert(std::is_integral_v<Offset>, "offsets are integers");
  if (num_segments == 0) {
    return cudaSuccess;
  }
  std::size_t out_bytes = 0, offset_bytes = 0;
  if (in == nullptr || offsets == nullptr || out == nullptr ||
      !detail::checked_bytes<T>(num_segments, out_bytes) ||
      !detail::checked_bytes<Offset>(num_segments + 1, offset_bytes) ||
      detail::ranges_overlap(out, out_bytes, offsets, offset_bytes)) {
    return cudaErrorInvalidValue;
  }
  return detail::segmented_with_workspace<Tuning>(in, offsets, out, num_segments, T(init), op,
                                                  workspace, workspace_bytes, stream);
}

/// The same without a workspace argument: the stream's cached workspace (as gpuprims::reduce).
///
///   cudaError_t e = gpuprims::segmented_reduce(d_in, d_offsets, d_sums, num_segments, 0.0f,
///                                              gpuprims::plus<float>{}, stream);
template <class Tuning = segmented_reduce_tuning, class Item, class Offset, class T, class Op>
[[nodiscard]] cudaError_t segmented_reduce(const Item* in, const Offset* offsets, T* out,
                                           std::size_t num_segments,
                                           cuda::std::type_identity_t<T> init, Op op,
                                           cudaStream_t stream = 0) {
  if (num_segments == 0) {
    return cudaSuccess;
  }
  if (in == nullptr || offsets == nullptr || out == nullptr) {
    return cudaErrorInvalidValue;
  }
  std::size_t bytes = 0;
  GPUPRIMS_RETURN_IF_ERROR((segmented_reduce_workspace_bytes<T, Tuning>(bytes)));
  return detail::with_stream_workspace(stream, bytes, [&](void* workspace) {
    return segmented_reduce<Tuning>(in, offsets, out, num_segments, init, op, workspace, bytes,
                                    stream);
  });
}

/// out[s] = op(init, in[s * segment_size] op ... op in[s * segment_size + segment_size - 1]) for
/// `num_segments` segments of `segment_size` items each, back to back: gpuprims::reduce_rows with
/// pitch == cols, by another name (a thread a segment up to 8 items; segments whose starts share
/// their offset from a 16-byte boundary, of items that pack into 16-byte words: a group of lanes a
/// segment below 4096 items, tiles from there; others a warp, a block or segmented_reduce's
/// walk; reduce_rows_tuning). Op must be associative and commutative.
/// segment_size == 0 writes init everywhere; num_segments == 0 launches nothing. A null `out`, a
/// null `in` with items, sizes whose span overflows, or an output overlapping the input return
/// cudaErrorInvalidValue and launch nothing.
///
///   cudaError_t e = gpuprims::reduce_batched(d_in, d_sums, batches, 1024, 0.0f,
///                                            gpuprims::plus<float>{}, stream);
template <class Tuning = reduce_rows_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t reduce_batched(const Item* in, T* out, std::size_t num_segments,
                                         std::size_t segment_size,
                                         cuda::std::type_identity_t<T> init, Op op,
                                         cudaStream_t stream = 0) {
  return detail::launch_reduce_rows<Tuning>(in, out, num_segments, segment_size, segment_size,
                                            T(init), op, stream);
}

}  // namespace gpuprims
