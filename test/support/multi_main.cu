// main() of the multi-GPU tests: with fewer than two CUDA devices, exit with ctest's skip code (77)
// so the run shows them as skipped, never as passed. NVLink multicast stays off (NCCL_NVLS_ENABLE=0
// unless the environment already says otherwise): a program that uses it can put a shared host's
// GPUs out of service.
#define GPUPRIMS_CATCH_RUNNER
#include "catch.hpp"
#include "multi_world.cuh"
#include "test_support.cuh"

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

int main(int argc, char** argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  const int gpus = gpuprims::test::gpu_count();
  if (gpus < 2) {
    std::printf("SKIPPED: %d CUDA device(s), the multi-GPU tests need 2 or more\n", gpus);
    return gpuprims::test::skip_exit_code;
  }
  int nccl_version = 0;
  ncclGetVersion(&nccl_version);
  std::printf("multi-GPU tests: %d GPUs, NCCL %d, NCCL_ALGO=%s, seed %llu\n", gpus, nccl_version,
              std::getenv("NCCL_ALGO") ? std::getenv("NCCL_ALGO") : "(unset)",
              static_cast<unsigned long long>(gpuprims::test::seed()));
  auto all = std::make_unique<gpuprims::test::world>(gpus);
  auto one = std::make_unique<gpuprims::test::world>(1);
  if (!all->ok() || !one->ok()) {
    std::printf("FAILED to set up the ranks: %s / %s\n", all->error().c_str(),
                one->error().c_str());
    return 1;
  }
  gpuprims::test::all_gpus_slot() = all.get();
  gpuprims::test::one_gpu_slot() = one.get();
  const int result = Catch::Session().run(argc, argv);
  gpuprims::test::all_gpus_slot() = nullptr;
  gpuprims::test::one_gpu_slot() = nullptr;
  one.reset();
  all.reset();
  return result;
}
