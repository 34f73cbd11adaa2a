// gpuprims::apply_stencil2d and gpuprims::warp_stencil2d from a kernel of the test's own: every
// boundary rule (and mixed rules per axis) x star and box x radius 1 to 4, float and double, on
// sizes from 1 x 1 to several strips each way and no multiple of a strip, pitched and batched,
// against the host's evaluation of the same per-point order (bit for bit); poisoned outputs and
// padding; a grid of more than 2^31 elements; the argument checks. The shared tile (the stencil2d
// block template) runs in test/ladder/stencil2d.cu and here where the policy takes it.
#include <gpuprims/stencil.cuh>

#include "support/stencil2d_check.cuh"
#include "support/test_support.cuh"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;
using gpuprims::boundary;
using gpuprims::boundary2d;
using gpuprims::stencil_shape;

// Sizes within one strip or tile, and grids of several strips each way whose inner strips take the
// streaming kernel's rule-free path (16-byte aligned rows) or its element path (odd pitches, and
// every grid after the first of a batch, whose stride is odd). With aligned rows, the first strip
// of a row reads its left halo through the x rule at fixed offsets, and so does the last where the
// width is a multiple of a strip (256 columns: 2 strips of floats, 4 of doubles).
template <int Rad, stencil_shape Shape, class T>
void check_every_boundary() {
  const boundary rules[] = {boundary::constant(0.5), boundary::clamp(), boundary::periodic(),
                            boundary::mirror()};
  struct size2 {
    std::size_t rows, cols;
  };
  const size2 sizes[] = {{1, 1},   {1, 33},   {33, 1},    {3, 2},     {32, 32}, {33, 33},
                         {31, 65}, {70, 100}, {150, 300}, {200, 520}, {40, 256}};
  for (const boundary& r : rules) {
    for (const size2& s : sizes) {
      check_case<Rad, Shape, T>(1, s.rows, s.cols, s.cols, s.cols, r);
    }
    check_case<Rad, Shape, T>(3, 45, 37, 40, 39, r);      // batched and pitched
    check_case<Rad, Shape, T>(2, 140, 400, 404, 408, r);  // aligned pitches, odd batch stride
    check_case<Rad, Shape, T>(1, 139, 397, 401, 399, r);  // odd pitches
  }
  check_case<Rad, Shape, T>(2, 34, 29, 29, 31,
                            boundary2d(boundary::periodic(), boundary::mirror()));
  check_case<Rad, Shape, T>(1, 29, 34, 35, 34,
                            boundary2d(boundary::constant(-2), boundary::clamp()));
  check_case<Rad, Shape, T>(1, 5, 6, 6, 6, boundary2d(boundary::clamp(), boundary::constant(3)));
  check_case<Rad, Shape, T>(1, 41, 256, 256, 260,
                            boundary2d(boundary::constant(-2), boundary::periodic()));
  check_case<Rad, Shape, T>(2, 43, 256, 264, 256,
                            boundary2d(boundary::mirror(), boundary::constant(3)));
}

template <int Rad>
void check_radius() {
  check_every_boundary<Rad, stencil_shape::star, float>();
  check_every_boundary<Rad, stencil_shape::box, float>();
  check_every_boundary<Rad, stencil_shape::star, double>();
  check_every_boundary<Rad, stencil_shape::box, double>();
}

// A caller's kernel: each warp one strip of 16 rows, strips starting at column x_first (not a
// multiple of the strip's width, so no row is 16-byte aligned at a strip's start).
template <int Rad, stencil_shape Shape, class T, class Weights>
__global__ void user_strips(const T* in, T* out, std::size_t rows, std::size_t cols,
                            std::size_t in_pitch, std::size_t out_pitch, std::size_t x_first,
                            Weights w, boundary2d b) {
  constexpr std::size_t width = gpuprims::warp_stencil2d_width<T>, height = 16;
  const std::size_t strips_x = (cols - x_first + width - 1) / width;
  const std::size_t warp = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) / 32;
  const std::size_t sy = warp / strips_x;
  if (sy * height >= rows) {
    return;  // the whole warp
  }
  gpuprims::warp_stencil2d<Rad, Shape, height, 4>(in, in_pitch, out, out_pitch, cols, rows,
                                                  x_first + warp % strips_x * width, sy * height, w,
                                                  b);
}

template <int Rad, stencil_shape Shape>
struct user_call {
  std::size_t x_first;
  template <class T, class Weights>
  cudaError_t operator()(const T* in, T* out, std::size_t batch, std::size_t rows, std::size_t cols,
                         std::size_t in_pitch, std::size_t out_pitch, std::size_t, std::size_t,
                         const Weights& w, const boundary2d& b) const {
    if (batch != 1) {
      return cudaErrorInvalidValue;
    }
    const std::size_t width = gpuprims::warp_stencil2d_width<T>;
    const std::size_t warps = (cols - x_first + width - 1) / width * ((rows + 15) / 16);
    user_strips<Rad, Shape><<<static_cast<unsigned int>((warps + 1) / 2), 64>>>(
        in, out, rows, cols, in_pitch, out_pitch, x_first, w, b);
    return cudaGetLastError();
  }
};

template <int Rad, stencil_shape Shape, class T>
void check_user_strips() {
  for (const boundary& r :
       {boundary::constant(-1), boundary::clamp(), boundary::periodic(), boundary::mirror()}) {
    check_case<Rad, Shape, T>(1, 70, 300, 300, 304, r, user_call<Rad, Shape>{5}, 5);
    check_case<Rad, Shape, T>(1, 41, 9, 12, 9, r, user_call<Rad, Shape>{3}, 3);
  }
}

}  // namespace

TEST_CASE("warp_stencil2d from a caller's kernel, strips at any column", "[stencil2d][gpu]") {
  check_user_strips<1, stencil_shape::star, float>();
  check_user_strips<1, stencil_shape::box, double>();
  check_user_strips<2, stencil_shape::box, float>();
  check_user_strips<4, stencil_shape::star, double>();
}

TEST_CASE("apply_stencil2d matches the per-point order bit for bit", "[stencil2d][gpu]") {
  check_radius<1>();
  check_radius<2>();
  check_radius<3>();
  check_radius<4>();
}

TEST_CASE("apply_stencil2d rejects bad arguments and launches nothing", "[stencil2d][gpu]") {
  device_buffer buf(1 << 16);
  auto* p = reinterpret_cast<float*>(buf.data());
  const gpuprims::stencil2d_weights<float, 1> w{};
  using gpuprims::apply_stencil2d;
  constexpr auto star = stencil_shape::star;
  CHECK(apply_stencil2d<1, star>(static_cast<const float*>(nullptr), p, 4, 4, 4, 4, w) ==
        cudaErrorInvalidValue);
  CHECK(apply_stencil2d<1, star>(p, static_cast<float*>(nullptr), 4, 4, 4, 4, w) ==
        cudaErrorInvalidValue);
  CHECK(apply_stencil2d<1, star>(p, p + 4096, 0, 4, 4, 4, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil2d<1, star>(p, p + 4096, 4, 0, 4, 4, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil2d<1, star>(p, p + 4096, 4, 4, 3, 4, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil2d<1, star>(p, p + 4096, 4, 4, 4, 3, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil2d<1, star>(p, p + 8, 4, 4, 4, 4, w) == cudaErrorInvalidValue);  // overlap
  CHECK(apply_stencil2d<1, star>(p, p + 4096, 3, 4, 4, 4, 4, 15, 16, w) ==
        cudaErrorInvalidValue);  // a batch stride shorter than a grid
  boundary odd{};
  odd.mode = static_cast<gpuprims::boundary_mode>(7);
  CHECK(apply_stencil2d<1, star>(p, p + 4096, 4, 4, 4, 4, w, odd) == cudaErrorInvalidValue);
  GPUPRIMS_CHECK_LAUNCH();
}

TEST_CASE("apply_stencil2d on a grid of more than 2^31 floats", "[stencil2d][gpu][large]") {
  const std::size_t rows = 46342, cols = 46341;  // 46341^2 + one row > 2^31
  const std::size_t n = rows * cols;
  device_buffer in(n * 4), out(n * 4);
  std::vector<float> host(n);
  std::mt19937_64& g = rng();
  for (std::size_t i = 0; i < n; ++i) {
    host[i] = static_cast<float>(static_cast<int>(g() % 17) - 8);
  }
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), host.data(), n * 4, cudaMemcpyHostToDevice));
  out.poison();
  const gpuprims::stencil2d_weights<float, 1> w{{{0, 1, 0}, {1, -4, 1}, {0, 1, 0}}};
  GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil2d<1, stencil_shape::star>(
      reinterpret_cast<const float*>(in.data()), reinterpret_cast<float*>(out.data()), rows, cols,
      cols, cols, w, boundary::periodic())));
  GPUPRIMS_CHECK_LAUNCH();
  std::size_t wrong = 0;
  std::vector<float> row(cols);
  for (std::size_t y : {std::size_t{0}, std::size_t{1}, rows / 2, rows - 2, rows - 1}) {
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(row.data(), reinterpret_cast<float*>(out.data()) + y * cols,
                                   cols * 4, cudaMemcpyDeviceToHost));
    for (std::size_t x = 0; x < cols; ++x) {
      const float want = gpuprims::detail::stencil2d_point<1, stencil_shape::star, float>(
          w, neighbours<float>{host.data(), cols, static_cast<std::int64_t>(x),
                               static_cast<std::int64_t>(y), static_cast<std::int64_t>(cols),
                               static_cast<std::int64_t>(rows), boundary2d(boundary::periodic())});
      wrong += row[x] == want ? 0 : 1;
    }
  }
  CHECK(wrong == 0);
}
