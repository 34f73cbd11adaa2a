// requires_gpu PROGRAM [ARGS...]: runs PROGRAM when a CUDA device is present, else exits 77 so
// ctest reports the test as skipped. Lets examples stay plain programs.
#include <cuda_runtime.h>

#include <cstdio>
#include <unistd.h>

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
  execv(argv[1], argv + 1);
  std::perror(argv[1]);
  return 127;
}
