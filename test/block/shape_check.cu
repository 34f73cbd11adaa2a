// shape_check reduce|transpose|stencil: a block-level template launched with a block of the wrong
// shape must stop the kernel (in every build, not only with assertions on), never run off its
// shared storage. One case per process: the trap leaves the context unusable. Exit 0 when the
// launch failed as it must, 1 when the kernel ran, 77 without a GPU.
#include <gpuprims/block/reduce.cuh>
#include <gpuprims/block/stencil.cuh>
#include <gpuprims/block/transpose.cuh>

#include "support/device_check.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

namespace {

__global__ void reduce_kernel(const float* in, float* out) {
  using reduce_t = gpuprims::block_reduce<256, gpuprims::plus<float>>;
  __shared__ reduce_t::storage s;
  const float total = reduce_t(s).reduce(in[threadIdx.x]);
  if (threadIdx.x == 0) {
    *out = total;
  }
}

__global__ void transpose_kernel(const float* in, float* out) {
  using tile_t = gpuprims::tiled_transpose<32, 1, float>;
  __shared__ tile_t::storage s;
  tile_t(s).transpose(in, 32, out, 32, 32, 32, 0, 0);
}

__global__ void stencil_kernel(const float* in, float* out) {
  using stencil_t = gpuprims::stencil1d<1, float, 256>;
  __shared__ stencil_t::storage s;
  stencil_t(s).apply(in, out, 1024, 0, gpuprims::stencil_weights<float, 1>{{1, 2, 1}},
                     gpuprims::boundary{});
}

}  // namespace

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  if (argc != 2 || gpuprims::test::check_device_runs_this_build(argv[0]) != 0) {
    std::fprintf(stderr, "usage: %s reduce|transpose|stencil\n", argv[0]);
    return 2;
  }
  float* buffer = nullptr;
  if (cudaMalloc(&buffer, 2 * 4096 * sizeof(float)) != cudaSuccess ||
      cudaMemset(buffer, 0, 2 * 4096 * sizeof(float)) != cudaSuccess) {
    std::fprintf(stderr, "allocation failed\n");
    return 2;
  }
  const char* which = argv[1];
  if (std::strcmp(which, "reduce") == 0) {
    reduce_kernel<<<1, 128>>>(buffer, buffer + 4096);  // block_reduce<256> with 128 threads
  } else if (std::strcmp(which, "transpose") == 0) {
    transpose_kernel<<<1, dim3(32, 4)>>>(buffer,
                                         buffer + 4096);  // a (32, 8) tile with (32, 4) threads
  } else if (std::strcmp(which, "stencil") == 0) {
    stencil_kernel<<<1, dim3(128, 2)>>>(buffer,
                                        buffer + 4096);  // 256 threads, but not one-dimensional
  } else {
    std::fprintf(stderr, "unknown case %s\n", which);
    return 2;
  }
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t ran = cudaDeviceSynchronize();
  std::printf("%s with the wrong block shape: launch %s, kernel %s\n", which,
              cudaGetErrorString(launched), cudaGetErrorString(ran));
  return launched == cudaSuccess && ran != cudaSuccess ? 0 : 1;
}
