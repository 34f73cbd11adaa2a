// gpuprims_bench: every primitive's benchmark family with its baselines, in one binary.
//   gpuprims_bench [--short | --profile] [Google Benchmark flags, e.g. --benchmark_filter=copy]
// --profile: one untimed launch per benchmark inside cudaProfilerStart/Stop (scripts/profile.sh).
#include "support.cuh"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  gpuprims::bench::options opt;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--short") == 0) {
      opt.min_time = 0.05;
    } else if (std::strcmp(argv[i], "--profile") == 0) {
      opt.profile = true;
      gpuprims::bench::profiling() = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) {
    return 1;
  }

  cudaDeviceProp prop{};
  int driver = 0;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || cudaDriverGetVersion(&driver) != cudaSuccess) {
    std::fprintf(stderr, "gpuprims_bench: no usable CUDA device\n");
    return 1;
  }
  benchmark::AddCustomContext("device", prop.name);
  benchmark::AddCustomContext("compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor));
  benchmark::AddCustomContext("cuda_driver", std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10));
  benchmark::AddCustomContext("peak_GBps", std::to_string(gpuprims::bench::peak_bytes_per_second() / 1e9));
  benchmark::AddCustomContext("l2_bytes", std::to_string(prop.l2CacheSize));

  gpuprims::bench::register_copy(opt);
  gpuprims::bench::register_transpose(opt);
  gpuprims::bench::register_reduce(opt);
  gpuprims::bench::register_stencil(opt);
  gpuprims::bench::register_memory_access(opt);

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
