// Codegen checks for the reductions (see check_sass.py).
#include <gpuprims/reduce.cuh>

#include <cuda_bf16.h>

extern "C" __global__ void block_sum_float(const float* in, float* out) {
  using reduce_t = gpuprims::block_reduce<256, gpuprims::plus<float>>;
  __shared__ reduce_t::storage s;
  const float total = reduce_t(s).reduce(in[blockIdx.x * 256 + threadIdx.x]);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = total;
  }
}

extern "C" __global__ void block_sum_bf16_partial(const __nv_bfloat16* in, float* out, int valid) {
  using reduce_t = gpuprims::block_reduce<992, gpuprims::plus<float>>;
  __shared__ reduce_t::storage s;
  const float x = threadIdx.x < valid ? static_cast<float>(in[threadIdx.x]) : 0.0f;
  out[threadIdx.x] = reduce_t(s).all_reduce(x, valid);
}

extern "C" __global__ void warp_max_double(const double* in, double* out) {
  const double m = gpuprims::warp_reduce(in[threadIdx.x], gpuprims::maximum<double>{});
  if (threadIdx.x == 0) {
    *out = m;
  }
}

// The kernels behind gpuprims::reduce.
using float_block = gpuprims::block_reduce<256, gpuprims::plus<float>>;
template __global__ void gpuprims::detail::reduce_single_pass_kernel<float_block, 256, 4, float, gpuprims::plus<float>, float>(
    const float*, std::size_t, float*, float, gpuprims::plus<float>, float*, unsigned int*);
using long_block = gpuprims::block_reduce<256, gpuprims::plus<long long>>;
template __global__ void gpuprims::detail::reduce_single_pass_kernel<long_block, 256, 4, long long, gpuprims::plus<long long>, signed char>(
    const signed char*, std::size_t, long long*, long long, gpuprims::plus<long long>, long long*, unsigned int*);

// sass: reduce_single_pass_kernel<.*float.*float> has LDG\.E\.128
// sass: reduce_single_pass_kernel<.*signed char> has LDG\.E\.128
// sass: reduce_single_pass_kernel has ATOMG|RED

// The warp level is shuffles, not shared memory; the block level adds one shared slot per warp.
// sass: ^(block_sum_float|block_sum_bf16_partial|warp_max_double)$ has SHFL\.DOWN
// sass: ^warp_max_double$ lacks (LDS|STS)
// ptxas: ^block_sum_float$ smem 36

// Every kernel behind a host launcher waits for the grids before it (griddepcontrol.wait: ACQBULK)
// and never signals its dependents early (launch_dependents: PREEXIT, costly in grids of many small
// blocks), see detail/dependent_launch.cuh; the device templates called from users' kernels do neither.
// sass: detail::reduce_single_pass_kernel< has ACQBULK
// sass: detail::reduce_single_pass_kernel< lacks PREEXIT
// sass: ^(block_sum_float|block_sum_bf16_partial|warp_max_double)$ lacks ACQBULK|PREEXIT
