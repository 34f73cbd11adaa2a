// Every rung of the 3D stencil ladder against the host's evaluation of the library's per-point
// order, bit for bit: every boundary rule, star and box, radii 1 and 2, float and double, sizes
// within a strip or tile and across several, pitched; poisoned outputs and padding.
#include <gpuprims/ladder/stencil.cuh>

#include "support/stencil3d_check.cuh"

namespace {

using namespace gpuprims::test;
using gpuprims::boundary;
using gpuprims::ladder::stencil3d_rung;

template <int Rad, stencil_shape Shape, class T, stencil3d_rung Rung>
void check_rung() {
  const rung3d_call<Rad, Shape, Rung> call{};
  for (const boundary& r :
       {boundary::constant(0.25), boundary::clamp(), boundary::periodic(), boundary::mirror()}) {
    check_case<Rad, Shape, T>(1, {1, 1, 1}, 0, 0, r, call);
    check_case<Rad, Shape, T>(1, {9, 37, 33}, 0, 0, r, call);
    check_case<Rad, Shape, T>(1, {70, 11, 264}, 0, 0, r, call);
    check_case<Rad, Shape, T>(2, {5, 17, 37}, 3, 2, r, call);
  }
}

template <int Rad, stencil_shape Shape, class T>
void check_every_rung() {
  check_rung<Rad, Shape, T, stencil3d_rung::naive>();
  check_rung<Rad, Shape, T, stencil3d_rung::shared_ring>();
  check_rung<Rad, Shape, T, stencil3d_rung::register_streaming>();
}

}  // namespace

TEST_CASE("every rung of the 3D stencil ladder matches the per-point order bit for bit",
          "[stencil3d][ladder][gpu]") {
  SECTION("7-point, floats") { check_every_rung<1, stencil_shape::star, float>(); }
  SECTION("27-point, floats") { check_every_rung<1, stencil_shape::box, float>(); }
  SECTION("radius-2 star, doubles") { check_every_rung<2, stencil_shape::star, double>(); }
  SECTION("radius-2 box, doubles") { check_every_rung<2, stencil_shape::box, double>(); }
}
