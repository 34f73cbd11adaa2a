// Host launcher of the device-wide reduction: gpuprims::reduce, in one kernel launch.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/reduce/kernels.cuh>
#include <gpuprims/tuning/reduce.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>
#include <cuda/std/type_traits>

#include <cstddef>

namespace gpuprims {

/// Bytes of workspace gpuprims::reduce needs for accumulator type T on the current device (for any
/// n). Zero it once (cudaMemsetAsync) before its first use; every call leaves it zeroed again.
template <class T, class Tuning = reduce_tuning>
[[nodiscard]] cudaError_t reduce_workspace_bytes(std::size_t& bytes) {
  detail::device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(detail::current_device_facts(facts));
  bytes = detail::reduce_workspace_bytes_for<T>(Tuning::select(facts.target_arch), facts);
  return cudaSuccess;
}

/// *out = op(init, in[0] op in[1] op ... op in[n - 1]) on `stream`, in one kernel launch, with the
/// caller's workspace (see reduce_workspace_bytes; aligned to T and to 4 bytes). Op must be
/// associative and commutative (the grid-stride split interleaves the input), as for
/// cub::DeviceReduce. Items convert to T on load (__half into float, int8 into int64). The
/// combination order depends only on n, the device and the input's alignment: floating-point
/// results repeat bit for bit. n == 0 writes init. A null `out`, a null `in` with n > 0, or a
/// workspace that is null, short or misaligned return cudaErrorInvalidValue and launch nothing.
///
///   cudaError_t e = gpuprims::reduce(d_in, d_sum, n, 0.0f, gpuprims::plus<float>{},
///                                    d_ws, ws_bytes, stream);
template <class Tuning = reduce_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t reduce(const Item* in, T* out, std::size_t n,
                                 cuda::std::type_identity_t<T> init, Op op, void* workspace,
                                 std::size_t workspace_bytes, cudaStream_t stream = 0) {
  return detail::launch_reduce<Tuning>(in, out, n, init, op, workspace, workspace_bytes, stream);
}

/// The same with stream-ordered workspace (cudaMallocAsync from the device's default pool, freed
/// on the stream after the kernel): nothing to manage, no synchronisation, but three stream
/// operations more per call.
///
///   cudaError_t e = gpuprims::reduce(d_in, d_sum, n, 0.0f, gpuprims::plus<float>{}, stream);
template <class Tuning = reduce_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t reduce(const Item* in, T* out, std::size_t n,
                                 cuda::std::type_identity_t<T> init, Op op,
                                 cudaStream_t stream = 0) {
  if (out == nullptr || (n > 0 && in == nullptr)) {
    return cudaErrorInvalidValue;
  }
  if (n == 0) {
    return reduce<Tuning>(in, out, n, init, op, nullptr, 0, stream);
  }
  std::size_t bytes = 0;
  GPUPRIMS_RETURN_IF_ERROR((reduce_workspace_bytes<T, Tuning>(bytes)));
  void* workspace = nullptr;
  GPUPRIMS_RETURN_IF_ERROR(cudaMallocAsync(&workspace, bytes, stream));
  cudaError_t status = cudaMemsetAsync(workspace, 0, sizeof(unsigned int), stream);
  if (status == cudaSuccess) {
    status = reduce<Tuning>(in, out, n, init, op, workspace, bytes, stream);
  }
  const cudaError_t freed = cudaFreeAsync(workspace, stream);
  return status != cudaSuccess ? status : freed;
}

}  // namespace gpuprims
