// Every rung of the stencil ladder against a double CPU reference: every radius x boundary mode x
// size, float and double, batches, unaligned pointers, padding left untouched, and the notes'
// second derivative of sin(x).
#include <gpuprims/ladder/stencil.cuh>

#include "support/stencil_check.cuh"

namespace {

using namespace gpuprims::test;
using gpuprims::ladder::stencil_rung;

template <int Rad, stencil_rung Rung, class T>
cudaError_t run_rung(const T* in, T* out, std::size_t rows, std::size_t cols, std::size_t in_pitch,
                     std::size_t out_pitch, const gpuprims::stencil_weights<T, Rad>& w,
                     gpuprims::boundary b) {
  return gpuprims::ladder::apply_stencil1d<Rad, Rung>(in, out, rows, cols, in_pitch, out_pitch, w,
                                                      b);
}

template <int Rad>
void check_radius() {
  check_small_sizes<Rad, float>(&run_rung<Rad, stencil_rung::naive, float>, "naive");
  check_small_sizes<Rad, float>(&run_rung<Rad, stencil_rung::shared_halo, float>, "shared_halo");
  check_small_sizes<Rad, float>(&run_rung<Rad, stencil_rung::shared_vectorized, float>,
                                "shared_vectorized");
  check_small_sizes<Rad, double>(&run_rung<Rad, stencil_rung::naive, double>, "naive");
  check_small_sizes<Rad, double>(&run_rung<Rad, stencil_rung::shared_halo, double>, "shared_halo");
  check_small_sizes<Rad, double>(&run_rung<Rad, stencil_rung::shared_vectorized, double>,
                                 "shared_vectorized");
}

}  // namespace

TEST_CASE("every stencil rung is right for every radius, boundary, size and layout",
          "[stencil][ladder][gpu]") {
  SECTION("Rad 1") { check_radius<1>(); }
  SECTION("Rad 2") { check_radius<2>(); }
  SECTION("Rad 3") { check_radius<3>(); }
  SECTION("Rad 8") { check_radius<8>(); }
  SECTION("Rad 16") { check_radius<16>(); }
}

TEST_CASE("every stencil rung is right on a million elements", "[stencil][ladder][gpu][slow]") {
  check_million<3, float>(&run_rung<3, stencil_rung::naive, float>, "naive");
  check_million<3, float>(&run_rung<3, stencil_rung::shared_halo, float>, "shared_halo");
  check_million<16, double>(&run_rung<16, stencil_rung::shared_vectorized, double>,
                            "shared_vectorized");
}

TEST_CASE("every stencil rung gets the notes' second derivative of sin(x)",
          "[stencil][ladder][gpu]") {
  check_second_derivative(&run_rung<1, stencil_rung::naive, float>);
  check_second_derivative(&run_rung<1, stencil_rung::shared_halo, float>);
  check_second_derivative(&run_rung<1, stencil_rung::shared_vectorized, float>);
}
