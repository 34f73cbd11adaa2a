// requires_gpu PROGRAM [ARGS...]: runs PROGRAM when a CUDA device is present, else exits 77 so
// ctest reports the test as skipped. Built with the same architectures as the examples it runs, it
// also fails with one line when the GPU is one they have no code for. Lets examples stay plain
// programs.
#include "device_check.cuh"

#include <cuda_runtime.h>

#include <unistd.h>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PROGRAM [ARGS...]\n", argv[0]);
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  if (gpuprims::test::check_device_runs_this_build(argv[1]) != 0) {
    return 1;
  }
  execv(argv[1], argv + 1);
  std::perror(argv[1]);
  return 127;
}
