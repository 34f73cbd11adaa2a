// Host launchers of the device-wide scans: gpuprims::inclusive_scan and gpuprims::exclusive_scan.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/scan/kernels.cuh>
#include <gpuprims/device/workspace.cuh>
#include <gpuprims/tuning/scan.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>
#include <cuda/std/type_traits>

#include <cstddef>

namespace gpuprims {

/// Bytes of workspace a scan of up to n items of Item into T needs on the current device (a few
/// bytes a tile: 8 per 6144 floats, or per 2048 up to 2^21 items). Zero it once before its first
/// use; every call leaves it ready for the next (gpuprims::lookback's reset rule). It serves one
/// call at a time, of any n up to the one it was sized for, and one output type.
template <class Item, class T = Item, class Tuning = scan_tuning>
[[nodiscard]] cudaError_t scan_workspace_bytes(std::size_t n, std::size_t& bytes) {
  detail::device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(detail::current_device_facts(facts));
  bytes =
      lookback_workspace_bytes<T>(detail::scan_most_tiles<Tuning, Item, T>(n, facts.target_arch));
  return cudaSuccess;
}

/// out[i] = in[0] op in[1] op ... op in[i] for i < n, on `stream`, in one pass over memory (a
/// block per tile, each tile's prefix from the tiles before it: gpuprims::lookback), with the
/// caller's workspace (scan_workspace_bytes; zeroed once before its first use). Items convert to T
/// on load (int8 into int64, __half into float); Op takes and returns T and need only be
/// associative. The order of every combination is a function of n only (docs/scan.md, "The
/// order"), so floating-point results repeat bit for bit on every run and every GPU. In place
/// (in == out, items and outputs of one size) is allowed; any other overlap, a null `out`, a null
/// `in` with n > 0, or a short or null workspace return cudaErrorInvalidValue and launch nothing.
/// n == 0 launches nothing.
///
///   cudaError_t e = gpuprims::inclusive_scan(d_in, d_out, n, gpuprims::plus<int>{}, d_ws,
///                                            ws_bytes, stream);
template <class Tuning = scan_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t inclusive_scan(const Item* in, T* out, std::size_t n, Op op,
                                         void* workspace, std::size_t workspace_bytes,
                                         cudaStream_t stream = 0) {
  return detail::launch_scan<Tuning, false>(in, out, n, T{}, op, workspace, workspace_bytes,
                                            stream);
}

/// out[0] = init, out[i] = init op in[0] op ... op in[i - 1] for 0 < i < n; otherwise as
/// inclusive_scan.
///
///   cudaError_t e = gpuprims::exclusive_scan(d_counts, d_offsets, n, 0, gpuprims::plus<int>{},
///                                            d_ws, ws_bytes, stream);
template <class Tuning = scan_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t exclusive_scan(const Item* in, T* out, std::size_t n,
                                         cuda::std::type_identity_t<T> init, Op op, void* workspace,
                                         std::size_t workspace_bytes, cudaStream_t stream = 0) {
  return detail::launch_scan<Tuning, true>(in, out, n, init, op, workspace, workspace_bytes,
                                           stream);
}

namespace detail {
// The stream's cached look-back workspace for T's record layout (device/workspace.cuh).
template <class Tuning, class Item, class T, class Launch>
cudaError_t with_scan_workspace(std::size_t n, cudaStream_t stream, Launch&& launch) {
  std::size_t bytes = 0;
  GPUPRIMS_RETURN_IF_ERROR((scan_workspace_bytes<Item, T, Tuning>(n, bytes)));
  return with_stream_workspace(
      stream, n == 0 ? 0 : bytes, [&](void* workspace) { return launch(workspace, bytes); },
      status_record_bytes<T>);
}
}  // namespace detail

/// The same without a workspace argument: the library keeps one per stream (device/workspace.cuh),
/// allocated and zeroed (stream-ordered) by the first call on a stream that needs it and reused by
/// every later one, with no per-call allocation, reset or extra launch; under stream capture the
/// graph allocates its own.
///
///   cudaError_t e = gpuprims::inclusive_scan(d_in, d_out, n, gpuprims::plus<float>{}, stream);
template <class Tuning = scan_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t inclusive_scan(const Item* in, T* out, std::size_t n, Op op,
                                         cudaStream_t stream = 0) {
  if (!detail::scan_arguments_ok(in, out, n)) {
    return cudaErrorInvalidValue;
  }
  return detail::with_scan_workspace<Tuning, Item, T>(n, stream, [&](void* ws, std::size_t bytes) {
    return inclusive_scan<Tuning>(in, out, n, op, ws, bytes, stream);
  });
}

template <class Tuning = scan_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t exclusive_scan(const Item* in, T* out, std::size_t n,
                                         cuda::std::type_identity_t<T> init, Op op,
                                         cudaStream_t stream = 0) {
  if (!detail::scan_arguments_ok(in, out, n)) {
    return cudaErrorInvalidValue;
  }
  return detail::with_scan_workspace<Tuning, Item, T>(n, stream, [&](void* ws, std::size_t bytes) {
    return exclusive_scan<Tuning>(in, out, n, init, op, ws, bytes, stream);
  });
}

}  // namespace gpuprims
