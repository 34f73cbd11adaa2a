// gpuprims::apply_stencil3d_fused against Steps calls of gpuprims::apply_stencil3d, bit for bit:
// stars and boxes of radius 1 to 4, 1 to 7 fused steps, every boundary rule on all axes and mixed
// rules, float and double, grids from 1 x 1 x 1 to several tiles and chunks each way (one more
// than a tile, deeper than a chunk), pitched rows and planes, batches with odd strides, padding
// left poisoned; the register streaming (the default where it fits) and the shared rings (deeper
// fusions, and the planes near a non-periodic z boundary); callers' tunings with short chunks,
// spans wider than the block, short streaming spans and a ring of two planes; bad arguments.
#include <gpuprims/device/stencil3d.cuh>

#include "support/fused_check.cuh"

#include <cstddef>

namespace {

using namespace gpuprims::test;
using gpuprims::boundary;
using gpuprims::stencil_shape;

const gpuprims::boundary3d rules[] = {
    boundary::constant(0.5),
    boundary::clamp(),
    boundary::periodic(),
    boundary::mirror(),
    {boundary::periodic(), boundary::clamp(), boundary::mirror()},
    {boundary::mirror(), boundary::constant(-1), boundary::periodic()},
    {boundary::clamp(), boundary::periodic(), boundary::constant(0.25)}};
const char* const rule_names[] = {"constant",
                                  "clamp",
                                  "periodic",
                                  "mirror",
                                  "x periodic, y clamp, z mirror",
                                  "x mirror, y constant, z periodic",
                                  "x clamp, y periodic, z constant"};
constexpr int rule_count = 7;

// Weights that sum to less than 1 in magnitude (steps stay finite, far from denormals),
// asymmetric so that a flipped axis shows.
template <int Rad, class T>
gpuprims::stencil3d_weights<T, Rad> damped_weights() {
  gpuprims::stencil3d_weights<T, Rad> w{};
  const int side = 2 * Rad + 1;
  for (int dz = 0; dz < side; ++dz) {
    for (int dy = 0; dy < side; ++dy) {
      for (int dx = 0; dx < side; ++dx) {
        w.w[dz][dy][dx] =
            static_cast<T>((0.4 + 0.02 * dz + 0.03 * dy + 0.05 * dx) / (side * side * side));
      }
    }
  }
  return w;
}

// A caller's policy: chunks of 5 planes, spans of 40 x 12 on 32 x 4 threads (two column passes),
// one input plane in flight.
struct short_tuning {
  __host__ __device__ static constexpr gpuprims::stencil3d_fused_policy select(int, std::size_t,
                                                                               int, int) {
    return {32, 4, 40, 12, 5, 1, 0};
  }
};

// A caller's streaming policy: 4 warps of 3 rows a lane (spans 12 rows tall), a ring of 2 input
// planes (one in flight), chunks of 5 planes; short_tuning's rings near a non-periodic z boundary.
// Each shape reads its ring in the order the library's policy does not take (the box its rows
// first, the star the copies first), so both orders run for both shapes.
struct short_strip_tuning : short_tuning {
  __host__ __device__ static constexpr gpuprims::stencil3d_fused_strip_policy strip(int,
                                                                                    std::size_t,
                                                                                    int, bool box,
                                                                                    int) {
    return {4, 3, 2, 5, 0, box};
  }
};

// The library's fused tuning keeping the fused kernels at one step of weights (with
// stencil3d_fused_tuning itself one step runs apply_stencil3d's kernel).
struct library_fused_tuning : gpuprims::stencil3d_fused_tuning {
  static constexpr bool one_step_by_stencil3d = false;
};
static_assert(gpuprims::detail::fused3d_one_step_by_stencil3d<gpuprims::stencil3d_fused_tuning> &&
                  !gpuprims::detail::fused3d_one_step_by_stencil3d<library_fused_tuning>,
              "the one-step sections must test the fused kernels");

struct shape {
  std::size_t depth, rows, cols;
};

template <int Rad, stencil_shape Shape, int Steps, class T,
          class Tuning = gpuprims::stencil3d_fused_tuning>
void check_case(std::size_t batch, shape s, std::size_t pad_x, std::size_t pad_y, int rule) {
  INFO("Rad " << Rad << (Shape == stencil_shape::star ? " star" : " box") << ", Steps " << Steps
              << ", " << sizeof(T) * 8 << "-bit, " << batch << " x " << s.depth << " x " << s.rows
              << " x " << s.cols << ", pads " << pad_x << "/" << pad_y << ", " << rule_names[rule]);
  const gpuprims::boundary3d b = rules[rule];
  const auto w = damped_weights<Rad, T>();
  const std::size_t in_py = s.cols + pad_x, out_py = s.cols + 2 * pad_x;
  const std::size_t in_pz = (s.rows + pad_y) * in_py, out_pz = s.rows * out_py + pad_y;
  const std::size_t in_stride = s.depth * in_pz + 5, out_stride = s.depth * out_pz + 3;
  const fused_buffers<T> buf(batch * in_stride, batch * out_stride);
  const T* x = reinterpret_cast<const T*>(buf.in.data());
  T* f = reinterpret_cast<T*>(buf.fused.data());
  T* scratch[2] = {reinterpret_cast<T*>(buf.a.data()), reinterpret_cast<T*>(buf.c.data())};
  GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil3d_fused<Rad, Shape, Steps, Tuning>(
      x, f, batch, s.depth, s.rows, s.cols, in_py, in_pz, out_py, out_pz, in_stride, out_stride, w,
      b)));
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA(
      (gpuprims::apply_stencil3d<Rad, Shape>(x, scratch[0], batch, s.depth, s.rows, s.cols, in_py,
                                             in_pz, out_py, out_pz, in_stride, out_stride, w, b)));
  for (int k = 1; k < Steps; ++k) {
    GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil3d<Rad, Shape>(
        scratch[(k - 1) % 2], scratch[k % 2], batch, s.depth, s.rows, s.cols, out_py, out_pz,
        out_py, out_pz, out_stride, out_stride, w, b)));
  }
  GPUPRIMS_CHECK_LAUNCH();
  buf.check_same_bits(Steps, [&](std::size_t i) {
    const std::size_t r = i % out_stride;
    return r < s.depth * out_pz && r % out_pz < s.rows * out_py && r % out_pz % out_py < s.cols;
  });
}

// The sweep's parts: the shapes, then a padded batch of two grids.
constexpr int sweep_parts = 8;

// Parts [first, last) of the sweep: the largest stencils run it as several sections, so that
// compute-sanitizer's racecheck (one command a section, scripts/sanitizer_jobs.py) ends each in
// the time a command may take.
template <int Rad, stencil_shape Shape, int Steps, class T,
          class Tuning = gpuprims::stencil3d_fused_tuning>
void check_shapes(int first = 0, int last = sweep_parts) {
  // {depth, rows, cols}: single points and lines, one more than the default tile (28, 24 and 16
  // points at 2, 4 and 8 steps of radius 1) and than short_tuning's, deeper than a chunk.
  const shape shapes[sweep_parts - 1] = {{1, 1, 1},  {1, 5, 3},    {3, 2, 9},   {2 * Rad, 13, 29},
                                         {7, 29, 9}, {70, 17, 45}, {13, 33, 41}};
  for (int part = first; part < last; ++part) {
    for (int rule = 0; rule < rule_count; ++rule) {
      if (part < sweep_parts - 1) {
        check_case<Rad, Shape, Steps, T, Tuning>(1, shapes[part], 0, 0, rule);
      } else {
        check_case<Rad, Shape, Steps, T, Tuning>(2, {11, 19, 37}, 3, 2, rule);
      }
    }
  }
}

}  // namespace

TEST_CASE("apply_stencil3d_fused equals Steps calls of apply_stencil3d, bit for bit",
          "[stencil][gpu]") {
  SECTION("star, Rad 1, 2 steps") { check_shapes<1, stencil_shape::star, 2, float>(); }
  SECTION("star, Rad 1, 4 steps") { check_shapes<1, stencil_shape::star, 4, float>(); }
  SECTION("star, Rad 1, 7 steps") { check_shapes<1, stencil_shape::star, 7, float>(); }
  SECTION("box, Rad 1, 3 steps") { check_shapes<1, stencil_shape::box, 3, float>(); }
  SECTION("star, Rad 2, 2 steps") { check_shapes<2, stencil_shape::star, 2, float>(); }
  // The largest boxes in parts (one took longer than 545 s alone under racecheck).
  SECTION("box, Rad 2, 2 steps: points, lines, small blocks") {
    check_shapes<2, stencil_shape::box, 2, float>(0, 5);
  }
  SECTION("box, Rad 2, 2 steps: large blocks, a batch") {
    check_shapes<2, stencil_shape::box, 2, float>(5, sweep_parts);
  }
  SECTION("box, Rad 3, 2 steps: points, lines, small blocks") {
    check_shapes<3, stencil_shape::box, 2, float>(0, 4);
  }
  SECTION("box, Rad 3, 2 steps: 7 x 29 x 9") {
    check_shapes<3, stencil_shape::box, 2, float>(4, 5);
  }
  SECTION("box, Rad 3, 2 steps: 70 x 17 x 45") {
    check_shapes<3, stencil_shape::box, 2, float>(5, 6);
  }
  SECTION("box, Rad 3, 2 steps: 13 x 33 x 41") {
    check_shapes<3, stencil_shape::box, 2, float>(6, 7);
  }
  SECTION("box, Rad 3, 2 steps: a padded batch of 2") {
    check_shapes<3, stencil_shape::box, 2, float>(7, sweep_parts);
  }
  SECTION("star, Rad 4, 1 step (the fused kernels)") {
    check_shapes<4, stencil_shape::star, 1, float, library_fused_tuning>();
  }
  SECTION("star, Rad 1, 1 step (the fused kernels)") {
    check_shapes<1, stencil_shape::star, 1, float, library_fused_tuning>();
  }
  SECTION("box, Rad 2, 1 step (the fused kernels)") {
    check_shapes<2, stencil_shape::box, 1, float, library_fused_tuning>();
  }
  SECTION("double, box, Rad 1, 2 steps") { check_shapes<1, stencil_shape::box, 2, double>(); }
  SECTION("double, star, Rad 2, 3 steps") { check_shapes<2, stencil_shape::star, 3, double>(); }
  SECTION("short chunks, wide spans, star, Rad 1, 3 steps") {
    check_shapes<1, stencil_shape::star, 3, float, short_tuning>();
  }
  SECTION("short chunks, wide spans, box, Rad 2, 2 steps") {
    check_shapes<2, stencil_shape::box, 2, float, short_tuning>();
  }
  SECTION("streaming: short spans and chunks, star, Rad 1, 3 steps") {
    check_shapes<1, stencil_shape::star, 3, float, short_strip_tuning>();
  }
  SECTION("streaming: short spans and chunks, box, Rad 2, 2 steps") {
    check_shapes<2, stencil_shape::box, 2, float, short_strip_tuning>();
  }
  SECTION("streaming: short spans and chunks, double star, Rad 1, 5 steps") {
    check_shapes<1, stencil_shape::star, 5, double, short_strip_tuning>();
  }
}

TEST_CASE("apply_stencil3d_fused rejects bad arguments and launches nothing", "[stencil][gpu]") {
  device_buffer buffer(4096);
  const auto* in = reinterpret_cast<const float*>(buffer.data());
  auto* out = reinterpret_cast<float*>(buffer.data() + 2048);
  const auto w = damped_weights<1, float>();
  using gpuprims::apply_stencil3d_fused;
  constexpr auto star = stencil_shape::star;
  CHECK(apply_stencil3d_fused<1, star, 4>(static_cast<const float*>(nullptr), out, 2, 4, 4, 4, 16,
                                          4, 16, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil3d_fused<1, star, 4>(in, static_cast<float*>(nullptr), 2, 4, 4, 4, 16, 4, 16,
                                          w) == cudaErrorInvalidValue);
  CHECK(apply_stencil3d_fused<1, star, 4>(in, const_cast<float*>(in) + 4, 2, 4, 4, 4, 16, 4, 16,
                                          w) == cudaErrorInvalidValue);  // overlapping
  CHECK(apply_stencil3d_fused<1, star, 4>(in, out, 2, 4, 4, 3, 16, 4, 16, w) ==
        cudaErrorInvalidValue);  // a row pitch shorter than the row
  CHECK(apply_stencil3d_fused<1, star, 4>(in, out, 2, 4, 4, 4, 15, 4, 16, w) ==
        cudaErrorInvalidValue);  // a plane pitch shorter than the plane
  CHECK(apply_stencil3d_fused<1, star, 4>(in, out, 0, 4, 4, 4, 16, 4, 16, w) ==
        cudaErrorInvalidValue);  // no planes
  GPUPRIMS_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(cudaGetLastError() == cudaSuccess);
}
