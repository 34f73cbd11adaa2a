// The FP32 gemm check shared by the library's and the ladder's tests: random A, B and C (padding
// included), C poisoned with NaN when beta is 0, pointers offset for alignment, every output (or
// a sample of a large product) against a double-precision reference within a bound from k and the
// magnitudes, and C's padding untouched.
#pragma once

#include "support/test_support.cuh"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace gpuprims::test {

struct gemm_case {
  std::size_t m, n, k, lda, ldb, ldc;
  float alpha, beta;
  std::size_t offset;  // floats before A, B and C in their buffers (alignment)
};

inline std::string describe(const gemm_case& g) {
  return std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k) + " (lda " +
         std::to_string(g.lda) + ", ldb " + std::to_string(g.ldb) + ", ldc " +
         std::to_string(g.ldc) + ", alpha " + std::to_string(g.alpha) + ", beta " +
         std::to_string(g.beta) + ", offset " + std::to_string(g.offset) + ")";
}

// run(a, b, c) launches the product on device pointers; `samples` > 0 checks that many random
// outputs instead of all.
template <class Run>
void check_gemm(const std::string& name, const gemm_case& g, Run run, std::size_t samples = 0) {
  std::mt19937_64& r = rng();
  std::uniform_real_distribution<float> dist(-1, 1);
  const std::size_t a_size = g.m * g.lda, b_size = g.k * g.ldb, c_size = g.m * g.ldc;
  std::vector<float> a(a_size), b(b_size), c(c_size);
  for (auto& x : a) x = dist(r);
  for (auto& x : b) x = dist(r);
  for (auto& x : c) x = dist(r);
  device_buffer da((g.offset + a_size + 1) * 4), db((g.offset + b_size + 1) * 4),
      dc((g.offset + c_size + 1) * 4);
  float* pa = reinterpret_cast<float*>(da.data()) + g.offset;
  float* pb = reinterpret_cast<float*>(db.data()) + g.offset;
  float* pc = reinterpret_cast<float*>(dc.data()) + g.offset;
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(pa, a.data(), a_size * 4, cudaMemcpyHostToDevice));
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(pb, b.data(), b_size * 4, cudaMemcpyHostToDevice));
  if (g.beta == 0.0f) {
    dc.poison();  // NaN: must not be read
    // the padding keeps known values, to check it stays untouched
    for (std::size_t i = 0; i < g.m; ++i) {
      for (std::size_t j = 0; j < g.n; ++j) {
        std::uint32_t nan_bits = 0xffffffffu;
        std::memcpy(&c[i * g.ldc + j], &nan_bits, 4);
      }
    }
  }
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(pc, c.data(), c_size * 4, cudaMemcpyHostToDevice));
  INFO(name << ", " << describe(g));
  GPUPRIMS_CHECK_CUDA(run(pa, pb, pc));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<float> got(c_size);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), pc, c_size * 4, cudaMemcpyDeviceToHost));
  std::size_t wrong = 0, padding_changed = 0;
  std::string first;
  const auto check_one = [&](std::size_t i, std::size_t j) {
    double dot = 0, mag = 0;
    for (std::size_t kk = 0; kk < g.k; ++kk) {
      const double p = static_cast<double>(a[i * g.lda + kk]) * b[kk * g.ldb + j];
      dot += p;
      mag += std::fabs(p);
    }
    const double old = g.beta == 0.0f ? 0.0 : c[i * g.ldc + j];
    const double want = static_cast<double>(g.alpha) * dot + static_cast<double>(g.beta) * old;
    const double bound = 2.0 * (static_cast<double>(g.k) + 2) * std::ldexp(1.0, -24) *
                             (std::fabs(g.alpha) * mag + std::fabs(g.beta * old)) +
                         1e-30;
    const double v = got[i * g.ldc + j];
    if (!(std::fabs(v - want) <= bound)) {
      if (wrong++ == 0) {
        first = "(" + std::to_string(i) + ", " + std::to_string(j) + "): got " + std::to_string(v) +
                ", want " + std::to_string(want);
      }
    }
  };
  if (samples == 0) {
    for (std::size_t i = 0; i < g.m; ++i) {
      for (std::size_t j = 0; j < g.n; ++j) {
        check_one(i, j);
      }
    }
  } else {
    for (std::size_t s = 0; s < samples; ++s) {
      check_one(r() % g.m, r() % g.n);
    }
  }
  for (std::size_t i = 0; i < g.m; ++i) {
    for (std::size_t j = g.n; j < g.ldc; ++j) {
      padding_changed += std::memcmp(&got[i * g.ldc + j], &c[i * g.ldc + j], 4) == 0 ? 0 : 1;
    }
  }
  INFO("first wrong output " << first);
  CHECK(wrong == 0);
  CHECK(padding_changed == 0);
}

}  // namespace gpuprims::test
