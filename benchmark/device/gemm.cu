// The FP32 matrix-multiply families: gpuprims::gemm and (--full) the ladder's rungs and the tile
// policies around the default against cublasSgemm (FP32, TF32 off: the default math mode) on the
// same row-major operands, square 1024, 2048, 4096, 8192 and a skinny 4096 x 4096 x 64. Reported:
// TFLOP/s (2 m n k per call) and % of the FP32 peak (SMs x FP32 lanes x 2 x the SM clock); GB/s
// counts A, B and C once.
#include <gpuprims/device/gemm.cuh>
#include <gpuprims/ladder/gemm.cuh>

#include "support.cuh"

#include <cublas_v2.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpuprims::bench {
namespace {

double fp32_peak_flops() {
  int device = 0, sms = 0, khz = 0, major = 0, minor = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  const int lanes = major == 8 && minor == 0 ? 64 : 128;  // A100: 64 FP32 lanes an SM
  return 2.0 * sms * lanes * khz * 1e3;
}

struct operands {
  std::size_t m, n, k;
  random_buffer a, b, c;
  operands(std::size_t m_, std::size_t n_, std::size_t k_)
      : m(m_), n(n_), k(k_), a(m_ * k_ * 4, 41), b(k_ * n_ * 4, 42), c(m_ * n_ * 4, 43) {}
  bool ok() const { return a.ok() && b.ok() && c.ok(); }
};

// Random bits are not useful floats (NaN, huge values): fill A and B with values in [-1, 1).
__global__ void unit_floats_kernel(float* x, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint32_t bits = __float_as_uint(x[i]);
    x[i] = static_cast<float>(bits >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
}

template <class Run>
void time_gemm(benchmark::State& state, Run run) {
  const auto m = static_cast<std::size_t>(state.range(0));
  const auto n = static_cast<std::size_t>(state.range(1));
  const auto k = static_cast<std::size_t>(state.range(2));
  operands ops(m, n, k);
  if (!ops.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  unit_floats_kernel<<<1024, 256>>>(ops.a.as<float>(), m * k);
  unit_floats_kernel<<<1024, 256>>>(ops.b.as<float>(), k * n);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    state.SkipWithError("fill failed");
    return;
  }
  time_launches(state, (m * k + k * n + m * n) * 4, [&](cudaStream_t s) {
    skip_on_error(state, run(ops.a.as<float>(), ops.b.as<float>(), ops.c.as<float>(), m, n, k, s));
  });
  if (state.counters.find("median_us") != state.counters.end()) {
    const double seconds = state.counters["median_us"] * 1e-6;
    const double flops = 2.0 * static_cast<double>(m) * n * k;
    state.counters["TFLOP/s"] = flops / seconds / 1e12;
    state.counters["fp32_peak_pct"] = 100.0 * flops / seconds / fp32_peak_flops();
  }
}

template <ladder::gemm_rung Rung>
void rung_bench(benchmark::State& state) {
  time_gemm(state, [](const float* a, const float* b, float* c, std::size_t m, std::size_t n,
                      std::size_t k, cudaStream_t s) {
    return ladder::gemm<Rung>(a, b, c, m, n, k, k, n, n, 1.0f, 0.0f, s);
  });
}

// gpuprims::gemm with another policy (tile shapes, stages, grouping), for --full.
template <class Tuning>
void tuning_bench(benchmark::State& state) {
  time_gemm(state, [](const float* a, const float* b, float* c, std::size_t m, std::size_t n,
                      std::size_t k, cudaStream_t s) {
    return gpuprims::gemm<Tuning>(a, b, c, m, n, k, k, n, n, 1.0f, 0.0f, s);
  });
}

void gpuprims_gemm_bench(benchmark::State& state) {
  time_gemm(state, [](const float* a, const float* b, float* c, std::size_t m, std::size_t n,
                      std::size_t k, cudaStream_t s) {
    return gpuprims::gemm(a, b, c, m, n, k, k, n, n, 1.0f, 0.0f, s);
  });
}

void cublas_bench(benchmark::State& state) {
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS ||
      cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS) {
    state.SkipWithError("cublasCreate failed");
    return;
  }
  time_gemm(state, [handle](const float* a, const float* b, float* c, std::size_t m, std::size_t n,
                            std::size_t k, cudaStream_t s) {
    const float one = 1.0f, zero = 0.0f;
    cublasSetStream(handle, s);
    // Row-major C = A B is column-major C^T = B^T A^T: B and A swap places.
    const cublasStatus_t st =
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m),
                    static_cast<int>(k), &one, b, static_cast<int>(n), a, static_cast<int>(k),
                    &zero, c, static_cast<int>(n));
    return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
  });
  cublasDestroy(handle);
}

}  // namespace

void register_gemm(const options& opt) {
  const std::string family = "gemm_f32";
  arg_list args = {{4096, 4096, 4096}};
  if (opt.full) {
    args = {{1024, 1024, 1024},
            {2048, 2048, 2048},
            {4096, 4096, 4096},
            {8192, 8192, 8192},
            {4096, 4096, 64}};
  }
  add(opt, family, "cublasSgemm", role::baseline, cublas_bench, args, {"m", "n", "k"});
  add(opt, family, "gpuprims::gemm", role::default_, gpuprims_gemm_bench, args, {"m", "n", "k"});
  if (!opt.full) {
    return;
  }
  using ladder::gemm_rung;
  add(opt, family, "naive", role::variant, rung_bench<gemm_rung::naive>, args, {"m", "n", "k"});
  add(opt, family, "coalesced", role::variant, rung_bench<gemm_rung::coalesced>, args,
      {"m", "n", "k"});
  add(opt, family, "shared_16x16", role::variant, rung_bench<gemm_rung::shared_16x16>, args,
      {"m", "n", "k"});
  add(opt, family, "blocktiling_1d", role::variant, rung_bench<gemm_rung::blocktiling_1d>, args,
      {"m", "n", "k"});
  add(opt, family, "blocktiling_2d", role::variant, rung_bench<gemm_rung::blocktiling_2d>, args,
      {"m", "n", "k"});
  add(opt, family, "vectorized", role::variant, rung_bench<gemm_rung::vectorized>, args,
      {"m", "n", "k"});
  add(opt, family, "warp_tiled", role::variant, rung_bench<gemm_rung::warp_tiled>, args,
      {"m", "n", "k"});
  add(opt, family, "double_buffered", role::variant, rung_bench<gemm_rung::double_buffered>, args,
      {"m", "n", "k"});
  // Policies around the default: BM x BN x BK, TM x TN, blocks an SM, stages, group_m.
  using ladder::detail::fixed_gemm_tuning;
  const arg_list large = {{4096, 4096, 4096}, {8192, 8192, 8192}};
  add(opt, family, "128x128x16_s1_g8", role::variant,
      tuning_bench<fixed_gemm_tuning<128, 128, 16, 8, 8, true, 2, true, 1, 8>>, large,
      {"m", "n", "k"});
  add(opt, family, "128x128x8_s2_g8", role::variant,
      tuning_bench<fixed_gemm_tuning<128, 128, 8, 8, 8, true, 2, true, 2, 8>>, large,
      {"m", "n", "k"});
  add(opt, family, "128x128x16_s2_g8_1blk", role::variant,
      tuning_bench<fixed_gemm_tuning<128, 128, 16, 8, 8, true, 1, true, 2, 8>>, large,
      {"m", "n", "k"});
  add(opt, family, "128x256x8_8x16_s2_g8", role::variant,
      tuning_bench<fixed_gemm_tuning<128, 256, 8, 8, 16, true, 1, true, 2, 8>>, large,
      {"m", "n", "k"});
  add(opt, family, "256x128x8_16x8_s2_g8", role::variant,
      tuning_bench<fixed_gemm_tuning<256, 128, 8, 16, 8, true, 1, true, 2, 8>>, large,
      {"m", "n", "k"});
  add(opt, family, "128x256x8_8x16_s2_g4", role::variant,
      tuning_bench<fixed_gemm_tuning<128, 256, 8, 8, 16, true, 1, true, 2, 4>>, large,
      {"m", "n", "k"});
  add(opt, family, "128x256x8_8x16_s2_g16", role::variant,
      tuning_bench<fixed_gemm_tuning<128, 256, 8, 8, 16, true, 1, true, 2, 16>>, large,
      {"m", "n", "k"});
  add(opt, family, "128x256x8_8x16_s2_g1", role::variant,
      tuning_bench<fixed_gemm_tuning<128, 256, 8, 8, 16, true, 1, true, 2, 1>>, large,
      {"m", "n", "k"});
  add(opt, family, "128x64x16_8x4_s2_g8", role::variant,
      tuning_bench<fixed_gemm_tuning<128, 64, 16, 8, 4, true, 2, true, 2, 8>>, args,
      {"m", "n", "k"});
  add(opt, family, "64x64x16_4x4_s2_g8", role::variant,
      tuning_bench<fixed_gemm_tuning<64, 64, 16, 4, 4, true, 4, true, 2, 8>>, args,
      {"m", "n", "k"});
  add(opt, family, "128x128x16_s2_g8", role::variant,
      tuning_bench<fixed_gemm_tuning<128, 128, 16, 8, 8, true, 2, true, 2, 8>>, args,
      {"m", "n", "k"});
}

}  // namespace gpuprims::bench
