// gpuprims::apply_stencil3d (register streaming by warp strips; the shared ring of the stencil3d
// block template under its tuning) and gpuprims::warp_stencil3d from a kernel of the test's own:
// every boundary rule (and mixed rules per axis) x star and box x radius 1 to 4, float and double,
// on sizes from 1 x 1 x 1 to past the strip, the tile and the z chunk and no multiple of them, with
// strips and columns at the grid's edges and inside it (16-byte aligned rows and not), pitched and
// batched, against the host's evaluation of the same per-point order (bit for bit); poisoned
// outputs and padding; the argument checks.
#include <gpuprims/stencil.cuh>

#include "support/stencil3d_check.cuh"
#include "support/test_support.cuh"

#include <cstdint>

namespace {

using namespace gpuprims::test;
using gpuprims::boundary;
using gpuprims::boundary3d;

template <int Rad, stencil_shape Shape, class T, class Call = library_call<Rad, Shape>>
void check_every_boundary(Call call = {}) {
  const boundary rules[] = {boundary::constant(0.5), boundary::clamp(), boundary::periodic(),
                            boundary::mirror()};
  // Past a 64-plane chunk, a 32-column tile and the tallest tile (32 rows), and none a multiple.
  const shape3 sizes[] = {{1, 1, 1}, {1, 1, 33}, {1, 33, 1}, {33, 1, 1}, {3, 2, 5}, {70, 35, 33}};
  for (const boundary& r : rules) {
    for (const shape3& s : sizes) {
      check_case<Rad, Shape, T>(1, s, 0, 0, r, call);
    }
    check_case<Rad, Shape, T>(3, {9, 17, 37}, 3, 2, r, call);  // batched and pitched
    // Strips inside the grid: rows 16-byte aligned (the first grid; the second's stride is odd),
    // and not (odd pitches).
    check_case<Rad, Shape, T>(2, {11, 21, 392}, 0, 0, r, call);
    check_case<Rad, Shape, T>(1, {7, 14, 271}, 2, 1, r, call);
  }
  // Wide enough for columns whose tile and halo lie inside the grid (the fixed-offset path).
  check_case<Rad, Shape, T>(1, {12, 100, 100}, 1, 0, boundary::periodic(), call);
  check_case<Rad, Shape, T>(
      1, {9, 100, 100}, 0, 1,
      boundary3d(boundary::clamp(), boundary::mirror(), boundary::constant(0.25)), call);
  check_case<Rad, Shape, T>(
      2, {66, 20, 29}, 1, 1,
      boundary3d(boundary::periodic(), boundary::mirror(), boundary::constant(-2)), call);
  check_case<Rad, Shape, T>(
      1, {5, 29, 34}, 2, 0,
      boundary3d(boundary::constant(3), boundary::clamp(), boundary::mirror()), call);
  check_case<Rad, Shape, T>(
      1, {7, 6, 5}, 0, 3, boundary3d(boundary::clamp(), boundary::periodic(), boundary::periodic()),
      call);
  check_case<Rad, Shape, T>(
      1, {67, 19, 264}, 4, 0,
      boundary3d(boundary::mirror(), boundary::clamp(), boundary::constant(-1)), call);
  check_case<Rad, Shape, T>(
      1, {3, 9, 300}, 0, 0,
      boundary3d(boundary::constant(2), boundary::periodic(), boundary::mirror()), call);
}

template <int Rad>
void check_radius() {
  check_every_boundary<Rad, stencil_shape::star, float>();
  check_every_boundary<Rad, stencil_shape::box, float>();
  check_every_boundary<Rad, stencil_shape::star, double>();
  check_every_boundary<Rad, stencil_shape::box, double>();
}

// Register streaming with strips of Rows rows through chunks of Chunk planes (4 warps a block,
// registers for one), the L2 asked for planes Prefetch ahead, the strips ordered for OrderWarps
// warps at work (0: the device's).
template <int Rows, int Chunk, int Prefetch = 0, int OrderWarps = 0>
struct strip_tuning {
  __host__ __device__ static constexpr gpuprims::stencil3d_policy select(int, std::size_t, int,
                                                                         stencil_shape) {
    return {4, Rows, Chunk, 1, 0, 0, 0, Prefetch, OrderWarps};
  }
};

template <int Rad, class Tuning>
void check_tuning() {
  check_every_boundary<Rad, stencil_shape::star, float>(
      library_call<Rad, stencil_shape::star, Tuning>{});
  check_every_boundary<1, stencil_shape::box, double>(
      library_call<1, stencil_shape::box, Tuning>{});
}

// A caller's kernel: each warp one strip of 3 rows through chunks of 5 planes.
template <int Rad, stencil_shape Shape, class T, class Weights>
__global__ void user_strips(const T* in, T* out, shape3 s, std::size_t in_py, std::size_t in_pz,
                            std::size_t out_py, std::size_t out_pz, Weights w, boundary3d b) {
  constexpr std::size_t width = gpuprims::warp_stencil3d_width<T>, height = 3, chunk = 5;
  const std::size_t strips_x = (s.cols + width - 1) / width;
  const std::size_t strips_y = (s.rows + height - 1) / height;
  const std::size_t warp = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) / 32;
  const std::size_t c = warp / (strips_x * strips_y), r = warp % (strips_x * strips_y);
  if (c * chunk >= s.depth) {
    return;  // the whole warp
  }
  const std::size_t z1 = c * chunk + chunk < s.depth ? c * chunk + chunk : s.depth;
  gpuprims::warp_stencil3d<Rad, Shape, height>(in, in_py, in_pz, out, out_py, out_pz, s.cols,
                                               s.rows, s.depth, r % strips_x * width,
                                               r / strips_x * height, c * chunk, z1, w, b);
}

template <int Rad, stencil_shape Shape>
struct user_call {
  template <class T, class Weights>
  cudaError_t operator()(const T* in, T* out, std::size_t batch, shape3 s, std::size_t in_py,
                         std::size_t in_pz, std::size_t out_py, std::size_t out_pz, std::size_t,
                         std::size_t, const Weights& w, const boundary3d& b) const {
    if (batch != 1) {
      return cudaErrorInvalidValue;
    }
    const std::size_t width = gpuprims::warp_stencil3d_width<T>;
    const std::size_t warps =
        (s.cols + width - 1) / width * ((s.rows + 2) / 3) * ((s.depth + 4) / 5);
    user_strips<Rad, Shape><<<static_cast<unsigned int>((warps + 1) / 2), 64>>>(
        in, out, s, in_py, in_pz, out_py, out_pz, w, b);
    return cudaGetLastError();
  }
};

template <int Rad, stencil_shape Shape, class T>
void check_user_strips() {
  for (const boundary& r :
       {boundary::constant(-1), boundary::clamp(), boundary::periodic(), boundary::mirror()}) {
    check_case<Rad, Shape, T>(1, {13, 10, 300}, 0, 0, r, user_call<Rad, Shape>{});
    check_case<Rad, Shape, T>(1, {6, 8, 141}, 1, 2, r, user_call<Rad, Shape>{});
  }
}

}  // namespace

TEST_CASE("apply_stencil3d matches the per-point order bit for bit", "[stencil3d][gpu]") {
  SECTION("radius 1") { check_radius<1>(); }
  SECTION("radius 2") { check_radius<2>(); }
  SECTION("radius 3") { check_radius<3>(); }
  SECTION("radius 4") { check_radius<4>(); }
}

TEST_CASE("apply_stencil3d under other tunings: strips of 1, 2, 4 and 8 rows, the shared ring",
          "[stencil3d][gpu]") {
  SECTION("strips of 1 row, chunks of 3 planes") { check_tuning<1, strip_tuning<1, 3>>(); }
  SECTION("strips of 2 rows, chunks of 64 planes") { check_tuning<2, strip_tuning<2, 64>>(); }
  SECTION("strips of 8 rows, chunks of 7 planes") { check_tuning<1, strip_tuning<8, 7>>(); }
  // Prefetches past a chunk's last plane are skipped, and planes a constant z rule supplies.
  SECTION("strips of 4 rows, chunks of 5 planes, prefetched 3 ahead") {
    check_tuning<1, strip_tuning<4, 5, 3>>();
  }
  SECTION("strips of 2 rows, chunks of 9 planes, prefetched 1 ahead") {
    check_tuning<3, strip_tuning<2, 9, 1>>();
  }
  // Small grids have fewer strips a layer than a GPU's warps: ordered for 3 and 7 warps, their
  // layers are larger (blocks of strips through every chunk) or smaller (chunks side by side).
  SECTION("strips of 1 row, chunks of 4 planes, ordered for 3 warps") {
    check_tuning<1, strip_tuning<1, 4, 0, 3>>();
  }
  SECTION("strips of 2 rows, chunks of 7 planes, ordered for 7 warps") {
    check_tuning<2, strip_tuning<2, 7, 0, 7>>();
  }
  SECTION("the shared ring, radius 1") {
    check_tuning<1, gpuprims::ladder::stencil3d_ring_tuning>();
  }
  SECTION("the shared ring, radius 4") {
    check_tuning<4, gpuprims::ladder::stencil3d_ring_tuning>();
  }
}

TEST_CASE("warp_stencil3d from a caller's kernel", "[stencil3d][gpu]") {
  check_user_strips<1, stencil_shape::star, float>();
  check_user_strips<1, stencil_shape::box, double>();
  check_user_strips<2, stencil_shape::box, float>();
  check_user_strips<4, stencil_shape::star, double>();
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
