// gpuprims::gemm: shapes 1x1x1, 1x7x3, 17x33x65, 64x64x64, 1000x1001x999 and 4096^3 (sampled),
// pitched and packed, aligned and not, alpha/beta combinations (beta 0 over a NaN-poisoned C,
// alpha 0, k 0), against a double reference within a bound from k; the argument checks.
#include <gpuprims/gemm.cuh>
#include <gpuprims/ladder/gemm.cuh>

#include "support/gemm_check.cuh"

#include <cstddef>
#include <vector>

namespace {

using namespace gpuprims::test;

cudaError_t run_gemm(const gemm_case& g, const float* a, const float* b, float* c) {
  return gpuprims::gemm(a, b, c, g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.alpha, g.beta);
}

void check_shape(std::size_t m, std::size_t n, std::size_t k) {
  struct scale {
    float alpha, beta;
  };
  for (const scale s : {scale{1, 0}, scale{2.5f, -1.5f}, scale{0, 2}, scale{-1, 1}}) {
    // Packed and 16-byte aligned where the sizes allow; pitched with odd leading dimensions and an
    // odd offset (the scalar paths); pitched with multiples of 4.
    const std::vector<gemm_case> cases = {
        {m, n, k, k, n, n, s.alpha, s.beta, 0},
        {m, n, k, k + 5, n + 3, n + 7, s.alpha, s.beta, 1},
        {m, n, k, k + 4, n + 8, n + 4, s.alpha, s.beta, 4},
    };
    for (const gemm_case& g : cases) {
      check_gemm("gemm", g,
                 [&](const float* a, const float* b, float* c) { return run_gemm(g, a, b, c); });
    }
  }
}

}  // namespace

TEST_CASE("gemm matches a double reference on every shape", "[gemm][gpu]") {
  check_shape(1, 1, 1);
  check_shape(1, 7, 3);
  check_shape(17, 33, 65);
  check_shape(64, 64, 64);
  check_shape(129, 130, 17);
  check_shape(1000, 1001, 999);
}

// Other policies through the same launcher: tile shapes with 8 x 16 and 16 x 8 a thread, one and
// two stages, BK of 8, groups of tile rows that do not divide the grid of tiles.
template <class Tuning>
void check_policy(const char* name) {
  const std::vector<gemm_case> cases = {
      {1, 1, 1, 1, 1, 1, 1.0f, 0.0f, 0},
      {129, 130, 17, 17, 130, 130, 1.0f, 0.0f, 0},
      {1300, 1001, 999, 1000, 1004, 1001, 2.0f, -1.0f, 4},
      {1100, 300, 33, 33, 300, 300, 1.0f, 0.5f, 0},
  };
  for (const gemm_case& g : cases) {
    check_gemm(name, g, [&](const float* a, const float* b, float* c) {
      return gpuprims::gemm<Tuning>(a, b, c, g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.alpha, g.beta);
    });
  }
}

// One shape of the library's tuning, whatever the SM count would pick.
template <int Shape>
struct default_shape {
  __host__ __device__ static constexpr gpuprims::gemm_policy select(int arch) {
    return gpuprims::gemm_tuning::select(arch, Shape);
  }
};

TEST_CASE("gemm with every shape of the default and other policies", "[gemm][gpu]") {
  static_assert(gpuprims::gemm_tuning::shapes == 3, "a check_policy line per shape");
  check_policy<default_shape<0>>("default shape 0");
  check_policy<default_shape<1>>("default shape 1");
  check_policy<default_shape<2>>("default shape 2");
  using gpuprims::ladder::detail::fixed_gemm_tuning;
  check_policy<fixed_gemm_tuning<128, 128, 16, 8, 8, true, 2, true, 1, 8>>("one stage, groups");
  check_policy<fixed_gemm_tuning<128, 128, 8, 8, 8, true, 2, true, 2, 3>>("BK 8, groups of 3");
  check_policy<fixed_gemm_tuning<256, 128, 8, 16, 8, true, 1, true, 2, 8>>("16 x 8 a thread");
  check_policy<fixed_gemm_tuning<64, 64, 8, 4, 4, false, 1, false, 2, 1>>("plain layout, 2 stages");
}

TEST_CASE("gemm with k or alpha of 0 scales C by beta", "[gemm][gpu]") {
  for (const gemm_case& g :
       {gemm_case{5, 7, 0, 1, 7, 9, 1.0f, 0.5f, 0}, gemm_case{5, 7, 0, 1, 7, 7, 1.0f, 0.0f, 0},
        gemm_case{33, 40, 20, 20, 40, 40, 0.0f, 0.0f, 0}}) {
    check_gemm("gemm, k or alpha 0", g,
               [&](const float* a, const float* b, float* c) { return run_gemm(g, a, b, c); });
  }
}

TEST_CASE("gemm of 4096^3 (sampled outputs)", "[gemm][gpu][slow]") {
  const gemm_case g{4096, 4096, 4096, 4096, 4096, 4096, 1.0f, 0.0f, 0};
  check_gemm(
      "gemm 4096^3", g,
      [&](const float* a, const float* b, float* c) { return run_gemm(g, a, b, c); }, 4096);
}

TEST_CASE("gemm rejects bad arguments and launches nothing", "[gemm][gpu]") {
  device_buffer buf(1 << 16);
  GPUPRIMS_CHECK_CUDA(cudaMemset(buf.data(), 0, 1 << 16));  // C is read below (alpha 0, beta 1)
  float* p = reinterpret_cast<float*>(buf.data());
  float* a = p;
  float* b = p + 4096;
  float* c = p + 8192;
  CHECK(gpuprims::gemm(a, b, c, 4, 4, 4, 3, 4, 4, 1.0f, 0.0f) == cudaErrorInvalidValue);  // lda
  CHECK(gpuprims::gemm(a, b, c, 4, 4, 4, 4, 3, 4, 1.0f, 0.0f) == cudaErrorInvalidValue);  // ldb
  CHECK(gpuprims::gemm(a, b, c, 4, 4, 4, 4, 4, 3, 1.0f, 0.0f) == cudaErrorInvalidValue);  // ldc
  CHECK(gpuprims::gemm(nullptr, b, c, 4, 4, 4, 4, 4, 4, 1.0f, 0.0f) == cudaErrorInvalidValue);
  CHECK(gpuprims::gemm(a, b, nullptr, 4, 4, 4, 4, 4, 4, 1.0f, 0.0f) == cudaErrorInvalidValue);
  CHECK(gpuprims::gemm(a, b, a + 8, 4, 4, 4, 4, 4, 4, 1.0f, 0.0f) == cudaErrorInvalidValue);
  CHECK(gpuprims::gemm(a, b, b, 4, 4, 4, 4, 4, 4, 1.0f, 0.0f) == cudaErrorInvalidValue);
  // Nothing to do, or nothing of A and B read: null A and B are fine.
  CHECK(gpuprims::gemm(nullptr, nullptr, nullptr, 0, 4, 4, 4, 4, 4, 1.0f, 0.0f) == cudaSuccess);
  CHECK(gpuprims::gemm(nullptr, nullptr, c, 4, 4, 4, 4, 4, 4, 0.0f, 1.0f) == cudaSuccess);
  CHECK(gpuprims::gemm(nullptr, nullptr, c, 4, 4, 0, 0, 4, 4, 1.0f, 1.0f) == cudaSuccess);
  GPUPRIMS_CHECK_LAUNCH();
}
