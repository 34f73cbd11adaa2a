// gpuprims::apply_stencil3d (2.5D streaming through the stencil3d block template): every boundary
// rule (and mixed rules per axis) x star and box x radius 1 to 4, float and double, on sizes from
// 1 x 1 x 1 to past the tile and the z chunk and no multiple of them, with columns at the grid's
// edges and inside it, pitched and batched, against the host's evaluation of the same per-point
// order (bit for bit); poisoned outputs and padding; the argument checks.
#include <gpuprims/stencil.cuh>

#include "support/test_support.cuh"

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

using namespace gpuprims::test;
using gpuprims::boundary;
using gpuprims::boundary3d;
using gpuprims::stencil_shape;

// The neighbour (dz, dy, dx) of (x, y, z) in a host grid, by the library's own boundary fetch.
template <class T>
struct neighbours {
  const T* grid;
  std::size_t pitch_y, pitch_z;
  std::int64_t x, y, z, cols, rows, depth;
  boundary3d b;
  __host__ __device__ T operator()(int dz, int dy, int dx) const {
    return gpuprims::detail::fetch3d(grid, pitch_y, pitch_z, x + dx, y + dy, z + dz, cols, rows,
                                     depth, b);
  }
};

struct shape3 {
  std::size_t depth, rows, cols;
};

// `batch` grids; the pitches pad each row by `pad_x` and each plane by `pad_y` rows.
template <int Rad, stencil_shape Shape, class T>
void check_case(std::size_t batch, shape3 s, std::size_t pad_x, std::size_t pad_y,
                const boundary3d& b) {
  std::mt19937_64& g = rng();
  std::uniform_real_distribution<double> dist(-1, 1);
  gpuprims::stencil3d_weights<T, Rad> w{};
  for (auto& plane : w.w) {
    for (auto& row : plane) {
      for (auto& x : row) {
        x = static_cast<T>(dist(g));
      }
    }
  }
  const std::size_t in_py = s.cols + pad_x, out_py = s.cols + 2 * pad_x;
  const std::size_t in_pz = (s.rows + pad_y) * in_py, out_pz = s.rows * out_py + pad_y;
  const std::size_t in_stride = s.depth * in_pz + 5, out_stride = s.depth * out_pz + 3;
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
       << s.depth << " x " << s.rows << " x " << s.cols << ", pads " << pad_x << "/" << pad_y
       << ", modes x " << static_cast<int>(b.x.mode) << " y " << static_cast<int>(b.y.mode) << " z "
       << static_cast<int>(b.z.mode));
  GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil3d<Rad, Shape>(
      reinterpret_cast<const T*>(d_in.data()), reinterpret_cast<T*>(d_out.data()), batch, s.depth,
      s.rows, s.cols, in_py, in_pz, out_py, out_pz, in_stride, out_stride, w, b)));
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> raw = d_out.download();
  std::size_t wrong = 0, touched = 0, inside = 0;
  for (std::size_t i = 0; i < out_size; ++i) {
    const std::size_t gi = i / out_stride, r = i % out_stride;
    const std::size_t z = r / out_pz, y = r % out_pz / out_py, x = r % out_pz % out_py;
    const unsigned char* at = raw.data() + i * sizeof(T);
    if (z >= s.depth || y >= s.rows || x >= s.cols) {  // padding: untouched
      touched += first_unpoisoned(at, sizeof(T)) == sizeof(T) ? 0 : 1;
      continue;
    }
    ++inside;
    const T want = gpuprims::detail::stencil3d_point<Rad, Shape, T>(
        w, neighbours<T>{in.data() + gi * in_stride, in_py, in_pz, static_cast<std::int64_t>(x),
                         static_cast<std::int64_t>(y), static_cast<std::int64_t>(z),
                         static_cast<std::int64_t>(s.cols), static_cast<std::int64_t>(s.rows),
                         static_cast<std::int64_t>(s.depth), b});
    wrong += std::memcmp(at, &want, sizeof(T)) == 0 ? 0 : 1;
  }
  CHECK(inside == batch * s.depth * s.rows * s.cols);
  CHECK(wrong == 0);
  CHECK(touched == 0);
}

template <int Rad, stencil_shape Shape, class T>
void check_every_boundary() {
  const boundary rules[] = {boundary::constant(0.5), boundary::clamp(), boundary::periodic(),
                            boundary::mirror()};
  // Past a 64-plane chunk, a 32-column tile and the tallest tile (32 rows), and none a multiple.
  const shape3 sizes[] = {{1, 1, 1}, {1, 1, 33}, {1, 33, 1}, {33, 1, 1}, {3, 2, 5}, {70, 35, 33}};
  for (const boundary& r : rules) {
    for (const shape3& s : sizes) {
      check_case<Rad, Shape, T>(1, s, 0, 0, r);
    }
    check_case<Rad, Shape, T>(3, {9, 17, 37}, 3, 2, r);  // batched and pitched
  }
  // Wide enough for columns whose tile and halo lie inside the grid (the fixed-offset path).
  check_case<Rad, Shape, T>(1, {12, 100, 100}, 1, 0, boundary::periodic());
  check_case<Rad, Shape, T>(
      1, {9, 100, 100}, 0, 1,
      boundary3d(boundary::clamp(), boundary::mirror(), boundary::constant(0.25)));
  check_case<Rad, Shape, T>(
      2, {66, 20, 29}, 1, 1,
      boundary3d(boundary::periodic(), boundary::mirror(), boundary::constant(-2)));
  check_case<Rad, Shape, T>(
      1, {5, 29, 34}, 2, 0,
      boundary3d(boundary::constant(3), boundary::clamp(), boundary::mirror()));
  check_case<Rad, Shape, T>(
      1, {7, 6, 5}, 0, 3,
      boundary3d(boundary::clamp(), boundary::periodic(), boundary::periodic()));
}

template <int Rad>
void check_radius() {
  check_every_boundary<Rad, stencil_shape::star, float>();
  check_every_boundary<Rad, stencil_shape::box, float>();
  check_every_boundary<Rad, stencil_shape::star, double>();
  check_every_boundary<Rad, stencil_shape::box, double>();
}

}  // namespace

TEST_CASE("apply_stencil3d matches the per-point order bit for bit", "[stencil3d][gpu]") {
  SECTION("radius 1") { check_radius<1>(); }
  SECTION("radius 2") { check_radius<2>(); }
  SECTION("radius 3") { check_radius<3>(); }
  SECTION("radius 4") { check_radius<4>(); }
}

TEST_CASE("apply_stencil3d rejects bad arguments and launches nothing", "[stencil3d][gpu]") {
  device_buffer buf(1 << 16);
  GPUPRIMS_CHECK_CUDA(cudaMemset(buf.data(), 0, 1 << 16));  // the valid call below reads it
  auto* p = reinterpret_cast<float*>(buf.data());
  const gpuprims::stencil3d_weights<float, 1> w{};
  using gpuprims::apply_stencil3d;
  constexpr auto star = stencil_shape::star;
  const float* none = nullptr;
  CHECK(apply_stencil3d<1, star>(none, p, 2, 4, 4, 4, 16, 4, 16, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil3d<1, star>(p, static_cast<float*>(nullptr), 2, 4, 4, 4, 16, 4, 16, w) ==
        cudaErrorInvalidValue);
  CHECK(apply_stencil3d<1, star>(p, p + 4096, 0, 4, 4, 4, 16, 4, 16, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil3d<1, star>(p, p + 4096, 2, 0, 4, 4, 16, 4, 16, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil3d<1, star>(p, p + 4096, 2, 4, 0, 4, 16, 4, 16, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil3d<1, star>(p, p + 4096, 2, 4, 4, 3, 16, 4, 16, w) ==
        cudaErrorInvalidValue);  // a row pitch shorter than a row
  CHECK(apply_stencil3d<1, star>(p, p + 4096, 2, 4, 4, 4, 15, 4, 16, w) ==
        cudaErrorInvalidValue);  // a plane pitch shorter than a plane
  CHECK(apply_stencil3d<1, star>(p, p + 4096, 2, 4, 4, 4, 16, 4, 15, w) == cudaErrorInvalidValue);
  CHECK(apply_stencil3d<1, star>(p, p + 20, 2, 4, 4, 4, 16, 4, 16, w) ==
        cudaErrorInvalidValue);  // overlap
  CHECK(apply_stencil3d<1, star>(p, p + 4096, 3, 2, 4, 4, 4, 16, 4, 16, 31, 32, w) ==
        cudaErrorInvalidValue);  // a batch stride shorter than a grid
  boundary odd{};
  odd.mode = static_cast<gpuprims::boundary_mode>(7);
  CHECK(apply_stencil3d<1, star>(p, p + 4096, 2, 4, 4, 4, 16, 4, 16, w,
                                 boundary3d(boundary::clamp(), boundary::clamp(), odd)) ==
        cudaErrorInvalidValue);
  CHECK(apply_stencil3d<1, star>(p, p + 4096, 2, 4, 4, 4, 16, 4, 16, w) == cudaSuccess);
  GPUPRIMS_CHECK_LAUNCH();
}
