// Every rung of the 2D stencil ladder against the host's evaluation of the library's per-point
// order, bit for bit: every boundary rule, star and box, radii 1, 2 and 4, float and double, sizes
// within a tile and across several, pitched; poisoned outputs and padding.
#include <gpuprims/ladder/stencil.cuh>

#include "support/stencil2d_check.cuh"

namespace {

using namespace gpuprims::test;
using gpuprims::boundary;
using gpuprims::ladder::stencil2d_rung;

template <int Rad, stencil_shape Shape, class T, stencil2d_rung Rung>
void check_rung() {
  const rung_call<Rad, Shape, Rung> call{};
  for (const boundary& r :
       {boundary::constant(0.25), boundary::clamp(), boundary::periodic(), boundary::mirror()}) {
    check_case<Rad, Shape, T>(1, 1, 1, 1, 1, r, call);
    check_case<Rad, Shape, T>(1, 33, 65, 65, 65, r, call);
    check_case<Rad, Shape, T>(1, 150, 300, 300, 300, r, call);
    check_case<Rad, Shape, T>(2, 45, 37, 40, 39, r, call);
  }
}

template <int Rad, stencil_shape Shape, class T>
void check_every_rung() {
  check_rung<Rad, Shape, T, stencil2d_rung::naive>();
  check_rung<Rad, Shape, T, stencil2d_rung::shared_tile>();
  check_rung<Rad, Shape, T, stencil2d_rung::coarsened>();
  check_rung<Rad, Shape, T, stencil2d_rung::register_streaming>();
}

}  // namespace

TEST_CASE("every rung of the 2D stencil ladder matches the per-point order bit for bit",
          "[stencil2d][ladder][gpu]") {
  SECTION("5-point, floats") { check_every_rung<1, stencil_shape::star, float>(); }
  SECTION("9-point, floats") { check_every_rung<1, stencil_shape::box, float>(); }
  SECTION("radius-2 star, doubles") { check_every_rung<2, stencil_shape::star, double>(); }
  SECTION("radius-4 box, floats") { check_every_rung<4, stencil_shape::box, float>(); }
}
