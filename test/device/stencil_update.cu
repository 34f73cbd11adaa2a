// User updates (gpuprims::stencil_update) in place of weights, in 1D, 2D and 3D: one step against
// the host's evaluation of the same function over the library's boundary fetch, bit for bit (the
// test's function uses fused multiply-adds and exact products only, so host and device round
// alike), and Steps fused steps against Steps single steps bit for bit, for that function and for
// a heat step written as a user would (which the compiler may contract: only device against
// device). Every boundary rule, sizes from one point to several tiles, pitched rows and planes,
// outputs poisoned and padding checked.
#include <gpuprims/stencil.cuh>

#include "support/fused_check.cuh"
#include "support/test_support.cuh"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace {

using namespace gpuprims::test;
using gpuprims::boundary;
using gpuprims::stencil_shape;
using gpuprims::detail::fused;

// Nonlinear, reading neighbours at the ends of every axis (in 2D and 3D a corner: an update sees
// the whole box whatever the shape), exact on host and device: |result| <= 3/4 for |inputs| <= 1.
template <int Rad, class T>
struct mix {
  template <class At>
  __host__ __device__ T operator()(const At& at) const {
    return fused(T(0.25) * at(-Rad), at(Rad), T(0.5) * at(0));
  }
};
template <int Rad, class T>
struct mix2d {
  template <class At>
  __host__ __device__ T operator()(const At& at) const {
    return fused(T(0.25) * at(0, -Rad), at(Rad, Rad), T(0.5) * at(-Rad, 0));
  }
};
template <int Rad, class T>
struct mix3d {
  template <class At>
  __host__ __device__ T operator()(const At& at) const {
    return fused(T(0.25) * at(-Rad, 0, Rad), at(Rad, -Rad, 0), T(0.5) * at(0, Rad, -Rad));
  }
};

// Explicit heat steps as a user writes them.
template <class T>
struct heat1d {
  template <class At>
  __host__ __device__ T operator()(const At& at) const {
    return at(0) + T(0.3) * (at(-1) - T(2) * at(0) + at(1));
  }
};
template <class T>
struct heat2d {
  template <class At>
  __host__ __device__ T operator()(const At& at) const {
    const T u = at(0, 0);
    return u + T(0.2) * (at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1) - T(4) * u);
  }
};
template <class T>
struct heat3d {
  template <class At>
  __host__ __device__ T operator()(const At& at) const {
    const T u = at(0, 0, 0);
    return u + T(0.1) * (at(-1, 0, 0) + at(1, 0, 0) + at(0, -1, 0) + at(0, 1, 0) + at(0, 0, -1) +
                         at(0, 0, 1) - T(6) * u);
  }
};

const gpuprims::boundary3d rules[] = {
    boundary::constant(0.5),
    boundary::clamp(),
    boundary::periodic(),
    boundary::mirror(),
    {boundary::mirror(), boundary::constant(-1), boundary::periodic()},
    {boundary::periodic(), boundary::clamp(), boundary::mirror()}};
constexpr int rule_count = 6;

// `aligned`: row pitches a multiple of 8 elements (16-byte aligned rows, as the streaming
// kernels' inner march needs), else the odd ones below.
struct dims {
  std::size_t depth, rows, cols;
  bool aligned = false;
};

constexpr std::size_t pitch_of(std::size_t cols, std::size_t pad, bool aligned) {
  return aligned ? (cols + pad + 7) / 8 * 8 : cols + pad;
}

// The layout of a test: `batch` grids of depth x rows x cols (1D: rows signals; 2D: one plane),
// input rows padded by 3 elements and planes by 2 rows, output rows by 1, grids 5 and 3 apart.
struct layout {
  dims d;
  std::size_t in_py, in_pz, out_py, out_pz;
  explicit layout(dims s)
      : d(s),
        in_py(pitch_of(s.cols, 3, s.aligned)),
        in_pz((s.rows + 2) * in_py),
        out_py(pitch_of(s.cols, 1, s.aligned)),
        out_pz(s.rows * out_py + 1) {}
  std::size_t in_elems() const { return d.depth * in_pz; }
  std::size_t out_elems() const { return d.depth * out_pz; }
  bool inside(std::size_t i) const {
    return i < d.depth * out_pz && i % out_pz < d.rows * out_py && i % out_pz % out_py < d.cols;
  }
};

// One step of `Dim` dimensions of Step, the single-step launcher.
template <int Dim, int Rad, class T, class Step>
cudaError_t single(const T* in, T* out, const layout& l, bool from_input, const Step& step,
                   const gpuprims::boundary3d& b) {
  const std::size_t py = from_input ? l.in_py : l.out_py, pz = from_input ? l.in_pz : l.out_pz;
  if constexpr (Dim == 1) {
    return gpuprims::apply_stencil1d<Rad>(in, out, l.d.rows, l.d.cols, py, l.out_py, step, b.x);
  } else if constexpr (Dim == 2) {
    return gpuprims::apply_stencil2d<Rad, stencil_shape::star>(in, out, l.d.rows, l.d.cols, py,
                                                               l.out_py, step, {b.x, b.y});
  } else {
    return gpuprims::apply_stencil3d<Rad, stencil_shape::star>(
        in, out, l.d.depth, l.d.rows, l.d.cols, py, pz, l.out_py, l.out_pz, step, b);
  }
}

template <int Dim, int Rad, int Steps, class T, class Step>
cudaError_t fused_steps(const T* in, T* out, const layout& l, const Step& step,
                        const gpuprims::boundary3d& b) {
  if constexpr (Dim == 1) {
    return gpuprims::apply_stencil1d_fused<Rad, Steps>(in, out, l.d.rows, l.d.cols, l.in_py,
                                                       l.out_py, step, b.x);
  } else if constexpr (Dim == 2) {
    return gpuprims::apply_stencil2d_fused<Rad, stencil_shape::star, Steps>(
        in, out, l.d.rows, l.d.cols, l.in_py, l.out_py, step, {b.x, b.y});
  } else {
    return gpuprims::apply_stencil3d_fused<Rad, stencil_shape::box, Steps>(
        in, out, l.d.depth, l.d.rows, l.d.cols, l.in_py, l.in_pz, l.out_py, l.out_pz, step, b);
  }
}

// The neighbours of (x, y, z) in the host's input, by the library's boundary fetch.
template <int Dim, class T>
struct host_neighbours {
  const T* in;
  std::size_t py, pz;
  std::int64_t x, y, z, nx, ny, nz;
  gpuprims::boundary3d b;
  __host__ __device__ T operator()(int dx) const {
    const T* row = in + static_cast<std::size_t>(y) * py;
    const std::int64_t g = x + dx;
    if (g >= 0 && g < nx) {
      return row[g];
    }
    return b.x.mode == gpuprims::boundary_mode::constant
               ? static_cast<T>(b.x.value)
               : row[gpuprims::detail::boundary_index(g, nx, b.x.mode)];
  }
  __host__ __device__ T operator()(int dy, int dx) const {
    return gpuprims::detail::fetch2d(in, py, x + dx, y + dy, nx, ny,
                                     gpuprims::boundary2d(b.x, b.y));
  }
  __host__ __device__ T operator()(int dz, int dy, int dx) const {
    return gpuprims::detail::fetch3d(in, py, pz, x + dx, y + dy, z + dz, nx, ny, nz, b);
  }
};

// One step of F against the host, bit for bit.
template <int Dim, int Rad, class T, class F>
void check_single(dims s, int rule) {
  const layout l(s);
  const gpuprims::boundary3d b = rules[rule];
  INFO(Dim << "D, Rad " << Rad << ", " << sizeof(T) * 8 << "-bit, " << s.depth << " x " << s.rows
           << " x " << s.cols << ", rule " << rule);
  const fused_buffers<T> buf(l.in_elems(), l.out_elems());
  const std::vector<unsigned char> raw_in = buf.in.download();
  std::vector<T> in(l.in_elems());
  std::memcpy(in.data(), raw_in.data(), raw_in.size());
  GPUPRIMS_CHECK_CUDA((single<Dim, Rad>(reinterpret_cast<const T*>(buf.in.data()),
                                        reinterpret_cast<T*>(buf.fused.data()), l, true,
                                        gpuprims::make_stencil_update<Rad>(F{}), b)));
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> got = buf.fused.download();
  std::size_t wrong = 0, touched = 0;
  for (std::size_t i = 0; i < l.out_elems(); ++i) {
    const unsigned char* at = got.data() + i * sizeof(T);
    if (!l.inside(i)) {
      touched += first_unpoisoned(at, sizeof(T)) == sizeof(T) ? 0 : 1;
      continue;
    }
    const auto z = static_cast<std::int64_t>(i / l.out_pz);
    const auto y = static_cast<std::int64_t>(i % l.out_pz / l.out_py);
    const auto x = static_cast<std::int64_t>(i % l.out_pz % l.out_py);
    const T want = F{}(host_neighbours<Dim, T>{
        in.data(), l.in_py, l.in_pz, x, y, z, static_cast<std::int64_t>(l.d.cols),
        static_cast<std::int64_t>(l.d.rows), static_cast<std::int64_t>(l.d.depth), b});
    wrong += std::memcmp(at, &want, sizeof(T)) == 0 ? 0 : 1;
  }
  CHECK(wrong == 0);
  CHECK(touched == 0);
}

// Steps fused steps of F against Steps single steps, bit for bit.
template <int Dim, int Rad, int Steps, class T, class F>
void check_fused(dims s, int rule) {
  const layout l(s);
  const gpuprims::boundary3d b = rules[rule];
  INFO(Dim << "D, Rad " << Rad << ", Steps " << Steps << ", " << sizeof(T) * 8 << "-bit, "
           << s.depth << " x " << s.rows << " x " << s.cols << ", rule " << rule);
  const auto step = gpuprims::make_stencil_update<Rad>(F{});
  const fused_buffers<T> buf(l.in_elems(), l.out_elems());
  const T* x = reinterpret_cast<const T*>(buf.in.data());
  T* scratch[2] = {reinterpret_cast<T*>(buf.a.data()), reinterpret_cast<T*>(buf.c.data())};
  GPUPRIMS_CHECK_CUDA(
      (fused_steps<Dim, Rad, Steps>(x, reinterpret_cast<T*>(buf.fused.data()), l, step, b)));
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA((single<Dim, Rad>(x, scratch[0], l, true, step, b)));
  for (int k = 1; k < Steps; ++k) {
    GPUPRIMS_CHECK_CUDA(
        (single<Dim, Rad>(scratch[(k - 1) % 2], scratch[k % 2], l, false, step, b)));
  }
  GPUPRIMS_CHECK_LAUNCH();
  buf.check_same_bits(Steps, [&](std::size_t i) { return l.inside(i); });
}

template <int Dim, int Rad, int Steps, class T, class Mix, class Heat>
void check_dimension(std::initializer_list<dims> sizes) {
  for (const dims& s : sizes) {
    for (int rule = 0; rule < rule_count; ++rule) {
      check_single<Dim, Rad, T, Mix>(s, rule);
      check_fused<Dim, Rad, Steps, T, Mix>(s, rule);
      check_fused<Dim, 1, Steps, T, Heat>(s, rule);
    }
  }
}

}  // namespace

TEST_CASE("user updates: one step against the host, fused steps against single steps",
          "[stencil][gpu]") {
  SECTION("1D") {
    // rows signals of cols (depth 1): one point, shorter than the halo, several tiles.
    check_dimension<1, 2, 4, float, mix<2, float>, heat1d<float>>(
        {{1, 1, 1}, {1, 3, 3}, {1, 2, 1000}, {1, 1, 20011}});
    check_dimension<1, 1, 3, double, mix<1, double>, heat1d<double>>({{1, 2, 517}});
  }
  SECTION("2D") {
    // 75 x 389 and 45 x 203 with aligned rows: strips wholly inside the grid too (the streaming
    // kernels' inner march), not only strips at its edges.
    check_dimension<2, 1, 4, float, mix2d<1, float>, heat2d<float>>(
        {{1, 1, 1}, {1, 5, 3}, {1, 70, 130}, {1, 129, 41}, {1, 75, 389, true}});
    check_dimension<2, 2, 3, double, mix2d<2, double>, heat2d<double>>(
        {{1, 37, 101}, {1, 45, 203, true}});
  }
  SECTION("3D") {
    check_dimension<3, 1, 3, float, mix3d<1, float>, heat3d<float>>(
        {{1, 1, 1}, {3, 5, 7}, {70, 17, 45}, {13, 33, 41}});
    check_dimension<3, 2, 2, double, mix3d<2, double>, heat3d<double>>({{9, 19, 37}});
  }
}
