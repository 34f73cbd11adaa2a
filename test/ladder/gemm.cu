// The matrix-multiply ladder: every rung against a double reference on shapes that cross the
// tiles (16, 64 and 128) and sizes that are no multiple of them, pitched and packed, with beta 0
// over a NaN-poisoned C and with alpha and beta both in play.
#include <gpuprims/ladder/gemm.cuh>

#include "support/gemm_check.cuh"

#include <cstddef>
#include <vector>

namespace {

using namespace gpuprims::test;
using gpuprims::ladder::gemm_rung;

template <gemm_rung Rung>
void check_rung(const char* name) {
  const std::vector<gemm_case> cases = {
      {1, 1, 1, 1, 1, 1, 1.0f, 0.0f, 0},
      {17, 33, 65, 65, 33, 33, 1.0f, 0.0f, 1},
      {130, 257, 129, 132, 260, 264, 2.0f, -1.0f, 4},
      {256, 256, 256, 256, 256, 256, 1.0f, 0.0f, 0},
      {300, 70, 500, 503, 71, 75, 0.5f, 0.25f, 3},
  };
  for (const gemm_case& g : cases) {
    check_gemm(name, g, [&](const float* a, const float* b, float* c) {
      return gpuprims::ladder::gemm<Rung>(a, b, c, g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.alpha,
                                          g.beta);
    });
  }
}

}  // namespace

TEST_CASE("every gemm rung matches a double reference", "[ladder][gemm][gpu]") {
  check_rung<gemm_rung::naive>("naive");
  check_rung<gemm_rung::coalesced>("coalesced");
  check_rung<gemm_rung::shared_16x16>("shared_16x16");
  check_rung<gemm_rung::blocktiling_1d>("blocktiling_1d");
  check_rung<gemm_rung::blocktiling_2d>("blocktiling_2d");
  check_rung<gemm_rung::vectorized>("vectorized");
  check_rung<gemm_rung::warp_tiled>("warp_tiled");
  check_rung<gemm_rung::double_buffered>("double_buffered");
  check_rung<gemm_rung::library_default>("library_default");
}
