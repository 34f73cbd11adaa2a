// gpuprims::apply_stencil2d_fused against Steps calls of gpuprims::apply_stencil2d, bit for bit:
// stars and boxes of radius 1 and 2, 2, 4 and 7 fused steps (and 1), every boundary rule on both
// axes and mixed rules, float and double, grids from 1 x 1 to several tiles and strips each way
// (inner strips included, with aligned and odd pitches), batches with odd pitches and strides,
// padding left poisoned; both forms (register streaming, the shared tile) and short strips; bad
// arguments.
#include <gpuprims/device/stencil2d.cuh>

#include "support/fused_check.cuh"

#include <cstddef>

namespace {

using namespace gpuprims::test;
using gpuprims::boundary;
using gpuprims::stencil_shape;

const gpuprims::boundary2d rules[] = {boundary::constant(0.5),
                                      boundary::clamp(),
                                      boundary::periodic(),
                                      boundary::mirror(),
                                      {boundary::periodic(), boundary::clamp()},
                                      {boundary::constant(-1), boundary::mirror()},
                                      {boundary::mirror(), boundary::periodic()}};
const char* const rule_names[] = {"constant",
                                  "clamp",
                                  "periodic",
                                  "mirror",
                                  "x periodic, y clamp",
                                  "x constant, y mirror",
                                  "x mirror, y periodic"};
constexpr int rule_count = 7;

// Weights that sum to less than 1 in magnitude (steps stay finite, far from denormals),
// asymmetric so that a flipped axis shows.
template <int Rad, class T>
gpuprims::stencil2d_weights<T, Rad> damped_weights() {
  gpuprims::stencil2d_weights<T, Rad> w{};
  const int side = 2 * Rad + 1;
  for (int dy = 0; dy < side; ++dy) {
    for (int dx = 0; dx < side; ++dx) {
      w.w[dy][dx] = static_cast<T>((0.4 + 0.03 * dy + 0.05 * dx) / (side * side));
    }
  }
  return w;
}

// Fixed policies: short streaming strips (a strip's pipeline crosses the grid's first row below its
// own first), and the shared tile.
template <int Rows, int Ring>
struct strip_tuning {
  __host__ __device__ static constexpr gpuprims::stencil2d_fused_policy select(int, std::size_t,
                                                                               int, int) {
    return {2, Rows, Ring, 1, 0, 0, 0, 0};
  }
};
struct tile_tuning {
  __host__ __device__ static constexpr gpuprims::stencil2d_fused_policy select(int, std::size_t,
                                                                               int, int) {
    return {0, 0, 0, 0, 64, 48, 32, 8};
  }
};

template <int Rad, stencil_shape Shape, int Steps, class T,
          class Tuning = gpuprims::stencil2d_fused_tuning>
void check_case(std::size_t batch, std::size_t rows, std::size_t cols, std::size_t in_pitch,
                std::size_t out_pitch, int rule) {
  INFO("Rad " << Rad << (Shape == stencil_shape::star ? " star" : " box") << ", Steps " << Steps
              << ", " << sizeof(T) * 8 << "-bit, " << batch << " x " << rows << " x " << cols
              << ", pitches " << in_pitch << "/" << out_pitch << ", " << rule_names[rule]);
  const gpuprims::boundary2d b = rules[rule];
  const auto w = damped_weights<Rad, T>();
  const std::size_t in_stride = rows * in_pitch + 3, out_stride = rows * out_pitch + 5;
  const std::size_t in_elems = batch * in_stride, out_elems = batch * out_stride;
  const fused_buffers<T> buf(in_elems, out_elems);
  const T* x = reinterpret_cast<const T*>(buf.in.data());
  T* f = reinterpret_cast<T*>(buf.fused.data());
  T* scratch[2] = {reinterpret_cast<T*>(buf.a.data()), reinterpret_cast<T*>(buf.c.data())};
  GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil2d_fused<Rad, Shape, Steps, Tuning>(
      x, f, batch, rows, cols, in_pitch, out_pitch, in_stride, out_stride, w, b)));
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil2d<Rad, Shape>(
      x, scratch[0], batch, rows, cols, in_pitch, out_pitch, in_stride, out_stride, w, b)));
  for (int s = 1; s < Steps; ++s) {
    GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil2d<Rad, Shape>(
        scratch[(s - 1) % 2], scratch[s % 2], batch, rows, cols, out_pitch, out_pitch, out_stride,
        out_stride, w, b)));
  }
  GPUPRIMS_CHECK_LAUNCH();
  buf.check_same_bits(Steps, [&](std::size_t i) {
    const std::size_t in_grid = i % out_stride;
    return in_grid < rows * out_pitch && in_grid % out_pitch < cols;
  });
}

template <int Rad, stencil_shape Shape, int Steps, class T,
          class Tuning = gpuprims::stencil2d_fused_tuning>
void check_shapes() {
  // {rows, cols, in pitch, out pitch}: the last three have inner strips (aligned rows; an odd
  // input pitch; an odd output pitch).
  const std::size_t sizes[][4] = {{1, 1, 1, 1},        {1, 9, 9, 9},         {5, 3, 3, 3},
                                  {17, 33, 33, 33},    {63, 65, 65, 65},     {70, 130, 130, 130},
                                  {129, 41, 41, 41},   {300, 500, 500, 504}, {211, 517, 517, 520},
                                  {230, 400, 404, 401}};
  for (const auto& size : sizes) {
    for (int rule = 0; rule < rule_count; ++rule) {
      check_case<Rad, Shape, Steps, T, Tuning>(1, size[0], size[1], size[2], size[3], rule);
    }
  }
  for (int rule = 0; rule < rule_count; ++rule) {
    check_case<Rad, Shape, Steps, T, Tuning>(2, 37, 101, 103, 105, rule);
  }
}

}  // namespace

TEST_CASE("apply_stencil2d_fused equals Steps calls of apply_stencil2d, bit for bit",
          "[stencil][gpu]") {
  SECTION("star, Rad 1, 2 steps") { check_shapes<1, stencil_shape::star, 2, float>(); }
  SECTION("star, Rad 1, 4 steps") { check_shapes<1, stencil_shape::star, 4, float>(); }
  SECTION("star, Rad 1, 7 steps") { check_shapes<1, stencil_shape::star, 7, float>(); }
  SECTION("box, Rad 1, 4 steps") { check_shapes<1, stencil_shape::box, 4, float>(); }
  SECTION("star, Rad 2, 3 steps") { check_shapes<2, stencil_shape::star, 3, float>(); }
  SECTION("box, Rad 2, 2 steps") { check_shapes<2, stencil_shape::box, 2, float>(); }
  SECTION("star, Rad 1, 1 step") { check_shapes<1, stencil_shape::star, 1, float>(); }
  SECTION("double, star, Rad 1, 4 steps") { check_shapes<1, stencil_shape::star, 4, double>(); }
  SECTION("double, box, Rad 2, 3 steps") { check_shapes<2, stencil_shape::box, 3, double>(); }
  SECTION("strips of 3 rows, a ring of 2, star, Rad 1, 4 steps") {
    check_shapes<1, stencil_shape::star, 4, float, strip_tuning<3, 2>>();
  }
  SECTION("strips of 5 rows, a ring of 3, box, Rad 2, 2 steps") {
    check_shapes<2, stencil_shape::box, 2, float, strip_tuning<5, 3>>();
  }
  SECTION("strips of 1 row, a ring of 16 (longer than a strip), star, Rad 1, 2 steps") {
    check_shapes<1, stencil_shape::star, 2, float, strip_tuning<1, 16>>();
  }
  SECTION("strips of 7 rows, a ring of 8, star, Rad 1, 1 step") {
    check_shapes<1, stencil_shape::star, 1, float, strip_tuning<7, 8>>();
  }
  SECTION("strips of 2 rows, a ring of 4, double, star, Rad 1, 3 steps") {
    check_shapes<1, stencil_shape::star, 3, double, strip_tuning<2, 4>>();
  }
  SECTION("shared tile, star, Rad 1, 4 steps") {
    check_shapes<1, stencil_shape::star, 4, float, tile_tuning>();
  }
  SECTION("shared tile, box, Rad 2, 2 steps") {
    check_shapes<2, stencil_shape::box, 2, float, tile_tuning>();
  }
}

TEST_CASE("apply_stencil2d_fused rejects bad arguments and launches nothing", "[stencil][gpu]") {
  device_buffer buffer(4096);
  const auto* in = reinterpret_cast<const float*>(buffer.data());
  auto* out = reinterpret_cast<float*>(buffer.data() + 2048);
  const auto w = damped_weights<1, float>();
  using gpuprims::apply_stencil2d_fused;
  CHECK(apply_stencil2d_fused<1, stencil_shape::star, 4>(static_cast<const float*>(nullptr), out, 4,
                                                         4, 4, 4, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil2d_fused<1, stencil_shape::star, 4>(in, static_cast<float*>(nullptr), 4, 4, 4,
                                                         4, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil2d_fused<1, stencil_shape::star, 4>(in, const_cast<float*>(in) + 4, 4, 4, 4, 4,
                                                         w) == cudaErrorInvalidValue);
  CHECK(apply_stencil2d_fused<1, stencil_shape::star, 4>(in, out, 4, 8, 7, 8, w) ==
        cudaErrorInvalidValue);  // a pitch shorter than the row
  CHECK(apply_stencil2d_fused<1, stencil_shape::star, 4>(in, out, 0, 8, 8, 8, w) ==
        cudaErrorInvalidValue);  // no rows
  GPUPRIMS_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(cudaGetLastError() == cudaSuccess);
}
