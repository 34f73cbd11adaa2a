// The copy launchers' kernels and their grid: each kernel reads its shape from the policy for the
// architecture it was compiled for; the host picks the same policy by the architecture the
// library's code runs as on the device (device_facts::target_arch).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/copy/vector_copy.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/copy.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace gpuprims::detail {

template <class Tuning>
__host__ __device__ constexpr copy_policy copy_policy_for(int arch) {
  return Tuning::select(arch);
}

template <class Tuning>
inline constexpr int copy_block_threads =
    copy_policy_for<Tuning>(GPUPRIMS_TARGET_ARCH).block_threads;

// Unrolled: the policy's vectors in flight per thread (small inputs), else one.
template <class Tuning, bool Unrolled>
inline constexpr int copy_unroll = Unrolled ? copy_policy_for<Tuning>(GPUPRIMS_TARGET_ARCH).unroll
                                            : 1;

template <class Tuning>
struct copy_grid_position {
  std::size_t rank, num_threads;
  __device__ __forceinline__ copy_grid_position()
      : rank(static_cast<std::size_t>(blockIdx.x) * copy_block_threads<Tuning> + threadIdx.x),
        num_threads(static_cast<std::size_t>(gridDim.x) * copy_block_threads<Tuning>) {}
};

template <class Tuning, int N, bool Unrolled, class T>
__global__ void __launch_bounds__(copy_block_threads<Tuning>)
    vector_copy_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  const copy_grid_position<Tuning> at;
  wait_for_prior_grids();
  vector_copy_impl<N, copy_unroll<Tuning, Unrolled>>(in, out, n, at.rank, at.num_threads);
}

// gpuprims::copy's kernel for the bytes of any trivially copyable type when source and destination
// are equally aligned modulo 16: peel to 16-byte alignment, then 16-byte words.
template <class Tuning, bool Unrolled>
__global__ void __launch_bounds__(copy_block_threads<Tuning>)
    copy_aligned_bytes_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out,
                              std::size_t n) {
  const copy_grid_position<Tuning> at;
  wait_for_prior_grids();
  copy_widest<16, copy_unroll<Tuning, Unrolled>>(in, out, n, at.rank, at.num_threads);
}

template <class Tuning, int Lane, bool Unrolled>
__global__ void __launch_bounds__(copy_block_threads<Tuning>)
    copy_skewed_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out,
                       std::size_t n, unsigned int shift_bits) {
  const copy_grid_position<Tuning> at;
  wait_for_prior_grids();
  copy_skewed<Lane, copy_unroll<Tuning, Unrolled>>(in, out, n, shift_bits, at.rank, at.num_threads);
}

template <class T>
cudaError_t validate_copy(const T* in, const T* out, std::size_t n) {
  std::size_t bytes = 0;
  if (!checked_bytes<T>(n, bytes) || in == nullptr || out == nullptr ||
      ranges_overlap(in, bytes, out, bytes)) {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

// Calls launch(unrolled, grid, block, dependent) with the shape the policy gives `words` vector
// words on the current device: below `unroll_below` vectors per resident thread, `unroll` of them
// per thread; else one, and a grid that covers the input.
template <class Tuning, class Launch>
cudaError_t launch_copy(std::size_t words, Launch&& launch) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const copy_policy p = copy_policy_for<Tuning>(facts.target_arch);
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  const auto threads = static_cast<std::size_t>(p.block_threads);
  if (words < facts.resident_threads() * static_cast<std::size_t>(p.unroll_below)) {
    return launch(std::true_type{},
                  grid_x(ceil_div(words, threads * static_cast<std::size_t>(p.unroll))),
                  dim3(p.block_threads), dependent);
  }
  return launch(std::false_type{}, grid_x(ceil_div(words, threads)), dim3(p.block_threads),
                dependent);
}

template <class Tuning, int Lane>
cudaError_t launch_copy_skewed(const unsigned char* in, unsigned char* out, std::size_t bytes,
                               unsigned int shift_bits, cudaStream_t stream) {
  return launch_copy<Tuning>(
      bytes / 16 + 1, [&](auto unrolled, unsigned int blocks, dim3 block, bool dependent) {
        return launch<copy_skewed_kernel<Tuning, Lane, decltype(unrolled)::value>>(
            blocks, block, stream, dependent, in, out, bytes, shift_bits);
      });
}

}  // namespace gpuprims::detail
