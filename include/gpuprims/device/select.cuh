// Host launchers of stream compaction: gpuprims::select_if and gpuprims::partition (stable).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/select/kernels.cuh>
#include <gpuprims/device/workspace.cuh>
#include <gpuprims/tuning/select.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims {

/// Bytes of workspace select_if or partition of up to n items of Item needs on the current device
/// (8 bytes a tile, 2048 to 10240 4-byte items a tile by size and GPU; 24 bytes from 2^32 items on,
/// whose counts need 64 bits). Zero it once before its first use; every call leaves it ready for
/// the next (gpuprims::lookback's reset rule).
/// One call at a time; pass its size with it each time: a workspace sized for 2^32 items or more
/// keeps 64-bit records for every call, one sized for fewer 32-bit ones.
template <class Item, class Tuning = select_tuning>
[[nodiscard]] cudaError_t select_workspace_bytes(std::size_t n, std::size_t& bytes) {
  detail::device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(detail::current_device_facts(facts));
  bytes = detail::select_workspace_size<Tuning, Item>(n, facts.target_arch);
  return cudaSuccess;
}

/// Copies the items of in[0, n) for which pred(item) is true to out, in input order, in one pass
/// over memory, and writes their number to *d_count (device memory; 0 for n == 0). `Count` is any
/// integer type that can hold n. In place (out == in) is allowed; any other overlap of in, out and
/// *d_count, a null pointer with work, or a short, null or misaligned workspace return
/// cudaErrorInvalidValue and launch nothing. out[count, n) is left untouched.
///
///   struct positive { __device__ bool operator()(float x) const { return x > 0; } };
///   cudaError_t e = gpuprims::select_if(d_in, d_out, n, positive{}, d_count, d_ws, ws_bytes,
///   stream);
template <class Tuning = select_tuning, class Item, class Pred, class Count>
[[nodiscard]] cudaError_t select_if(const Item* in, Item* out, std::size_t n, Pred pred,
                                    Count* d_count, void* workspace, std::size_t workspace_bytes,
                                    cudaStream_t stream = 0) {
  return detail::launch_select<Tuning, false>(in, out, static_cast<Item*>(nullptr), d_count, n,
                                              pred, workspace, workspace_bytes, stream);
}

/// A stable partition into two outputs: the items for which pred(item) is true to selected[0,
/// count), the others to rejected[0, n - count), both in input order, count to *d_count. The
/// outputs and the input must not overlap (cudaErrorInvalidValue); otherwise as select_if. (A
/// stable partition within one array needs the count before the first item is placed, so a second
/// pass; with two outputs one pass does it.)
template <class Tuning = select_tuning, class Item, class Pred, class Count>
[[nodiscard]] cudaError_t partition(const Item* in, Item* selected, Item* rejected, std::size_t n,
                                    Pred pred, Count* d_count, void* workspace,
                                    std::size_t workspace_bytes, cudaStream_t stream = 0) {
  return detail::launch_select<Tuning, true>(in, selected, rejected, d_count, n, pred, workspace,
                                             workspace_bytes, stream);
}

namespace detail {
// The stream's cached look-back workspace for the record layout n's counts need.
template <class Tuning, class Item, class Launch>
cudaError_t with_select_workspace(std::size_t n, cudaStream_t stream, Launch&& launch) {
  std::size_t bytes = 0;
  GPUPRIMS_RETURN_IF_ERROR((select_workspace_bytes<Item, Tuning>(n, bytes)));
  const std::size_t purpose =
      n >> 32 != 0 ? status_record_bytes<unsigned long long> : status_record_bytes<unsigned int>;
  return with_stream_workspace(
      stream, n == 0 ? 0 : bytes, [&](void* workspace) { return launch(workspace, bytes); },
      purpose);
}
}  // namespace detail

/// select_if without a workspace argument: the library keeps one per stream (device/workspace.cuh),
/// allocated and zeroed by the first call that needs it, with no per-call allocation, reset or
/// extra launch after that; under stream capture the graph allocates its own.
///
///   cudaError_t e = gpuprims::select_if(d_in, d_out, n, positive{}, d_count, stream);
template <class Tuning = select_tuning, class Item, class Pred, class Count>
[[nodiscard]] cudaError_t select_if(const Item* in, Item* out, std::size_t n, Pred pred,
                                    Count* d_count, cudaStream_t stream = 0) {
  if (!detail::select_arguments_ok(in, out, static_cast<const Item*>(nullptr), d_count, n, false)) {
    return cudaErrorInvalidValue;
  }
  return detail::with_select_workspace<Tuning, Item>(n, stream, [&](void* ws, std::size_t bytes) {
    return select_if<Tuning>(in, out, n, pred, d_count, ws, bytes, stream);
  });
}

/// partition without a workspace argument (the stream's, as select_if).
template <class Tuning = select_tuning, class Item, class Pred, class Count>
[[nodiscard]] cudaError_t partition(const Item* in, Item* selected, Item* rejected, std::size_t n,
                                    Pred pred, Count* d_count, cudaStream_t stream = 0) {
  if (!detail::select_arguments_ok(in, selected, rejected, d_count, n, true)) {
    return cudaErrorInvalidValue;
  }
  return detail::with_select_workspace<Tuning, Item>(n, stream, [&](void* ws, std::size_t bytes) {
    return partition<Tuning>(in, selected, rejected, n, pred, d_count, ws, bytes, stream);
  });
}

}  // namespace gpuprims
