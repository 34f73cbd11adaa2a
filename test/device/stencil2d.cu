// gpuprims::apply_stencil2d and the stencil2d block template: every boundary rule (and mixed rules
// per axis) x star and box x radius 1 to 4, float and double, on sizes from 1 x 1 to past the tile
// and no multiple of it, pitched and batched, against the host's evaluation of the same per-point
// order (bit for bit); poisoned outputs and padding; a grid of more than 2^31 elements; the
// argument checks.
#include <gpuprims/stencil.cuh>

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

// The neighbour (dy, dx) of (x, y) in a host grid, by the library's own boundary fetch.
template <class T>
struct neighbours {
  const T* grid;
  std::size_t pitch;
  std::int64_t x, y, cols, rows;
  boundary2d b;
  __host__ __device__ T operator()(int dy, int dx) const {
    return gpuprims::detail::fetch2d(grid, pitch, x + dx, y + dy, cols, rows, b);
  }
};

const char* mode_name(gpuprims::boundary_mode m) {
  switch (m) {
    case gpuprims::boundary_mode::constant:
      return "constant";
    case gpuprims::boundary_mode::clamp:
      return "clamp";
    case gpuprims::boundary_mode::periodic:
      return "periodic";
    default:
      return "mirror";
  }
}

template <int Rad, stencil_shape Shape, class T>
void check_case(std::size_t batch, std::size_t rows, std::size_t cols, std::size_t in_pitch,
                std::size_t out_pitch, const boundary2d& b) {
  std::mt19937_64& g = rng();
  std::uniform_real_distribution<double> dist(-1, 1);
  gpuprims::stencil2d_weights<T, Rad> w{};
  for (auto& row : w.w) {
    for (auto& x : row) {
      x = static_cast<T>(dist(g));
    }
  }
  const std::size_t in_stride = rows * in_pitch + 5, out_stride = rows * out_pitch + 3;
  const std::size_t in_size = batch * in_stride, out_size = batch * out_stride;
  std::vector<T> in(in_size);
  for (auto& x : in) {
    x = static_cast<T>(dist(g));
  }
  device_buffer d_in(in_size * sizeof(T)), d_out(out_size * sizeof(T));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(d_in.data(), in.data(), in_size * sizeof(T), cudaMemcpyHostToDevice));
  d_out.poison();
  INFO((Shape == stencil_shape::star ? "star" : "box")
       << ", radius " << Rad << (sizeof(T) == 4 ? ", float" : ", double") << ", " << batch << " x "
       << rows << " x " << cols << " (pitches " << in_pitch << ", " << out_pitch << "), x "
       << mode_name(b.x.mode) << ", y " << mode_name(b.y.mode));
  GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil2d<Rad, Shape>(
      reinterpret_cast<const T*>(d_in.data()), reinterpret_cast<T*>(d_out.data()), batch, rows,
      cols, in_pitch, out_pitch, in_stride, out_stride, w, b)));
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> raw = d_out.download();
  std::size_t wrong = 0, touched = 0;
  for (std::size_t gi = 0; gi < batch; ++gi) {
    const T* grid = in.data() + gi * in_stride;
    for (std::size_t y = 0; y < rows; ++y) {
      for (std::size_t x = 0; x < out_pitch; ++x) {
        const unsigned char* at = raw.data() + (gi * out_stride + y * out_pitch + x) * sizeof(T);
        if (x >= cols) {  // padding: untouched
          touched += first_unpoisoned(at, sizeof(T)) == sizeof(T) ? 0 : 1;
          continue;
        }
        const T want = gpuprims::detail::stencil2d_point<Rad, Shape, T>(
            w, neighbours<T>{grid, in_pitch, static_cast<std::int64_t>(x),
                             static_cast<std::int64_t>(y), static_cast<std::int64_t>(cols),
                             static_cast<std::int64_t>(rows), b});
        wrong += std::memcmp(at, &want, sizeof(T)) == 0 ? 0 : 1;
      }
    }
  }
  CHECK(wrong == 0);
  CHECK(touched == 0);
}

template <int Rad, stencil_shape Shape, class T>
void check_every_boundary() {
  const boundary rules[] = {boundary::constant(0.5), boundary::clamp(), boundary::periodic(),
                            boundary::mirror()};
  struct size2 {
    std::size_t rows, cols;
  };
  const size2 sizes[] = {{1, 1}, {1, 33}, {33, 1}, {3, 2}, {32, 32}, {33, 33}, {31, 65}, {70, 100}};
  for (const boundary& r : rules) {
    for (const size2& s : sizes) {
      check_case<Rad, Shape, T>(1, s.rows, s.cols, s.cols, s.cols, r);
    }
    check_case<Rad, Shape, T>(3, 45, 37, 40, 39, r);  // batched and pitched
  }
  check_case<Rad, Shape, T>(2, 34, 29, 29, 31,
                            boundary2d(boundary::periodic(), boundary::mirror()));
  check_case<Rad, Shape, T>(1, 29, 34, 35, 34,
                            boundary2d(boundary::constant(-2), boundary::clamp()));
  check_case<Rad, Shape, T>(1, 5, 6, 6, 6, boundary2d(boundary::clamp(), boundary::constant(3)));
}

template <int Rad>
void check_radius() {
  check_every_boundary<Rad, stencil_shape::star, float>();
  check_every_boundary<Rad, stencil_shape::box, float>();
  check_every_boundary<Rad, stencil_shape::star, double>();
  check_every_boundary<Rad, stencil_shape::box, double>();
}

}  // namespace

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
