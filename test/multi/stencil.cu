// gpuprims::multi::stencil1d and stencil2d: the domain split over every GPU (and over one rank,
// whose ring closes on itself) equals, bit for bit, the single-GPU fused stencil on the whole
// domain after several calls, for every boundary rule, radii 1 to 3, 1 to 8 fused steps, slabs
// that take the overlapped path (6 halos or more) and the short one, domains the rank count does
// not divide, pitched rows; the exchange alone, 1D and 2D; the checks, local and collective.
#include <gpuprims/device/stencil.cuh>
#include <gpuprims/device/stencil2d.cuh>
#include <gpuprims/multi.cuh>

#include "support/multi_world.cuh"
#include "support/test_support.cuh"

#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;
namespace multi = gpuprims::multi;

template <class T>
std::vector<T> random_values(std::size_t n) {
  std::vector<T> v(n);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (T& x : v) {
    x = static_cast<T>(u(rng()));
  }
  return v;
}

const gpuprims::boundary rules[] = {gpuprims::boundary::constant(0.25), gpuprims::boundary::clamp(),
                                    gpuprims::boundary::periodic(), gpuprims::boundary::mirror()};

std::string rule_name(const gpuprims::boundary& b) {
  switch (b.mode) {
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

// ---- 1D --------------------------------------------------------------------------------------

// The whole domain on GPU 0, `calls` times Steps fused steps (the reference).
template <int Rad, int Steps, class T, class W>
std::vector<T> single_gpu_1d(const std::vector<T>& x, const W& w, gpuprims::boundary b, int calls) {
  GPUPRIMS_CHECK_CUDA(cudaSetDevice(0));
  const std::size_t n = x.size();
  device_buffer a(n * sizeof(T)), c(n * sizeof(T));
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(a.data(), x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  T* from = reinterpret_cast<T*>(a.data());
  T* to = reinterpret_cast<T*>(c.data());
  for (int k = 0; k < calls; ++k) {
    GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil1d_fused<Rad, Steps>(from, to, n, w, b)));
    GPUPRIMS_CHECK_LAUNCH();
    std::swap(from, to);
  }
  std::vector<T> out(n);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(out.data(), from, n * sizeof(T), cudaMemcpyDeviceToHost));
  return out;
}

// Each rank's slab (split) with halos, `calls` calls of multi::stencil1d ping-ponging two
// buffers poisoned first; the owned points gathered in domain order.
template <int Rad, int Steps, class T, class W>
std::string distributed_1d(world& wd, const std::vector<T>& x, const W& w, gpuprims::boundary b,
                           int calls, std::vector<T>& result) {
  constexpr std::size_t H = multi::halo_of<Rad, Steps>;
  constexpr std::size_t first = multi::stencil1d_first<T, Rad, Steps>;
  result.assign(x.size(), T{});
  return wd.run([&](rank_context& ctx) -> std::string {
    const multi::slab s = multi::split(x.size(), ctx.ranks, ctx.rank);
    const std::size_t len = first + s.count + H;
    T *a = nullptr, *c = nullptr;
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&a, len * sizeof(T)));
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&c, len * sizeof(T)));
    GPUPRIMS_MULTI_CUDA(cudaMemset(a, poison_byte, len * sizeof(T)));
    GPUPRIMS_MULTI_CUDA(cudaMemset(c, poison_byte, len * sizeof(T)));
    GPUPRIMS_MULTI_CUDA(
        cudaMemcpy(a + first, x.data() + s.offset, s.count * sizeof(T), cudaMemcpyHostToDevice));
    // The legacy stream's fills and a pageable copy's DMA do not order against the rank's
    // non-blocking streams: wait for them.
    GPUPRIMS_MULTI_CUDA(cudaDeviceSynchronize());
    std::string why;
    GPUPRIMS_MULTI_CUDA((multi::check_stencil1d<Rad, Steps, T>(s.count, b, ctx.comm, &why)));
    T* from = a;
    T* to = c;
    for (int k = 0; k < calls; ++k) {
      GPUPRIMS_MULTI_CUDA(
          (multi::stencil1d<Rad, Steps>(from, to, s.count, w, b, ctx.comm, ctx.stream)));
      std::swap(from, to);
    }
    GPUPRIMS_MULTI_CUDA(cudaStreamSynchronize(ctx.stream));
    GPUPRIMS_MULTI_CUDA(cudaGetLastError());
    GPUPRIMS_MULTI_CUDA(cudaMemcpy(result.data() + s.offset, from + first, s.count * sizeof(T),
                                   cudaMemcpyDeviceToHost));
    GPUPRIMS_MULTI_CUDA(cudaFree(a));
    GPUPRIMS_MULTI_CUDA(cudaFree(c));
    return {};
  });
}

template <class T>
void require_same_bits(const std::vector<T>& got, const std::vector<T>& want,
                       const std::string& what) {
  INFO(what);
  REQUIRE(got.size() == want.size());
  std::size_t first_bad = got.size();
  for (std::size_t i = 0; i < got.size() && first_bad == got.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      first_bad = i;
    }
  }
  INFO("first difference at " << first_bad << " of " << got.size());
  CHECK(first_bad == got.size());
}

// Domain sizes for R ranks and halo H: every slab just at the halo, slabs between the halo and 6
// halos (the short path), slabs of 6 halos and one short of it (both paths at once over several
// ranks), a prime well past 6 halos a rank (the overlapped path).
std::vector<std::size_t> sizes_1d(int ranks, std::size_t halo) {
  const auto r = static_cast<std::size_t>(ranks);
  return {r * halo, r * 3 * halo + 1, r * 6 * halo - 1, 10007};
}

template <int Rad, int Steps, class T>
void check_1d(world& wd) {
  constexpr std::size_t H = multi::halo_of<Rad, Steps>;
  gpuprims::stencil_weights<T, Rad> w{};
  for (int j = 0; j <= 2 * Rad; ++j) {
    w.w[j] = static_cast<T>(0.1 + 0.05 * j);
  }
  for (const gpuprims::boundary& b : rules) {
    for (std::size_t n : sizes_1d(wd.size(), H)) {
      const std::vector<T> x = random_values<T>(n);
      const int calls = 3;
      const std::vector<T> want = single_gpu_1d<Rad, Steps>(x, w, b, calls);
      std::vector<T> got;
      const std::string errors = distributed_1d<Rad, Steps>(wd, x, w, b, calls, got);
      const std::string what = "1D radius " + std::to_string(Rad) + ", " + std::to_string(Steps) +
                               " steps a call, " + std::to_string(wd.size()) + " ranks, " +
                               std::to_string(n) + " points, " + rule_name(b) + ", " +
                               std::to_string(sizeof(T)) + "-byte items";
      INFO(what << "\n" << errors);
      REQUIRE(errors.empty());
      require_same_bits(got, want, what);
    }
  }
}

// ---- 2D --------------------------------------------------------------------------------------

template <int Rad, gpuprims::stencil_shape Shape, class T>
gpuprims::stencil2d_weights<T, Rad> weights_2d() {
  gpuprims::stencil2d_weights<T, Rad> w{};
  for (int dy = 0; dy <= 2 * Rad; ++dy) {
    for (int dx = 0; dx <= 2 * Rad; ++dx) {
      w.w[dy][dx] = static_cast<T>(0.02 * (1 + dy * (2 * Rad + 1) + dx));
    }
  }
  return w;
}

template <int Rad, gpuprims::stencil_shape Shape, int Steps, class T, class W>
std::vector<T> single_gpu_2d(const std::vector<T>& x, std::size_t rows, std::size_t cols,
                             const W& w, gpuprims::boundary2d b, int calls) {
  GPUPRIMS_CHECK_CUDA(cudaSetDevice(0));
  const std::size_t n = rows * cols;
  device_buffer a(n * sizeof(T)), c(n * sizeof(T));
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(a.data(), x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  T* from = reinterpret_cast<T*>(a.data());
  T* to = reinterpret_cast<T*>(c.data());
  for (int k = 0; k < calls; ++k) {
    GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil2d_fused<Rad, Shape, Steps>(from, to, rows, cols,
                                                                            cols, cols, w, b)));
    GPUPRIMS_CHECK_LAUNCH();
    std::swap(from, to);
  }
  std::vector<T> out(n);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(out.data(), from, n * sizeof(T), cudaMemcpyDeviceToHost));
  return out;
}

// Strips of rows with halo rows, pitched buffers (`pitch` points a row, the same on every rank),
// `calls` calls of multi::stencil2d; the owned rows gathered in order.
template <int Rad, gpuprims::stencil_shape Shape, int Steps, class T, class W>
std::string distributed_2d(world& wd, const std::vector<T>& x, std::size_t rows, std::size_t cols,
                           std::size_t pitch, const W& w, gpuprims::boundary2d b, int calls,
                           std::vector<T>& result) {
  constexpr std::size_t H = multi::halo_of<Rad, Steps>;
  result.assign(x.size(), T{});
  return wd.run([&](rank_context& ctx) -> std::string {
    const multi::slab s = multi::split(rows, ctx.ranks, ctx.rank);
    const std::size_t all_rows = s.count + 2 * H;
    const std::size_t bytes = ((all_rows - 1) * pitch + cols) * sizeof(T);  // ends at the row
    T *a = nullptr, *c = nullptr;
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&a, bytes));
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&c, bytes));
    GPUPRIMS_MULTI_CUDA(cudaMemset(a, poison_byte, bytes));
    GPUPRIMS_MULTI_CUDA(cudaMemset(c, poison_byte, bytes));
    GPUPRIMS_MULTI_CUDA(cudaMemcpy2D(a + H * pitch, pitch * sizeof(T), x.data() + s.offset * cols,
                                     cols * sizeof(T), cols * sizeof(T), s.count,
                                     cudaMemcpyHostToDevice));
    GPUPRIMS_MULTI_CUDA(cudaDeviceSynchronize());  // as in distributed_1d
    std::string why;
    GPUPRIMS_MULTI_CUDA((multi::check_stencil2d<Rad, Shape, Steps, T>(s.count, cols, pitch, pitch,
                                                                      b, ctx.comm, &why)));
    T* from = a;
    T* to = c;
    for (int k = 0; k < calls; ++k) {
      GPUPRIMS_MULTI_CUDA((multi::stencil2d<Rad, Shape, Steps>(from, to, s.count, cols, pitch,
                                                               pitch, w, b, ctx.comm, ctx.stream)));
      std::swap(from, to);
    }
    GPUPRIMS_MULTI_CUDA(cudaStreamSynchronize(ctx.stream));
    GPUPRIMS_MULTI_CUDA(cudaGetLastError());
    GPUPRIMS_MULTI_CUDA(cudaMemcpy2D(result.data() + s.offset * cols, cols * sizeof(T),
                                     from + H * pitch, pitch * sizeof(T), cols * sizeof(T), s.count,
                                     cudaMemcpyDeviceToHost));
    GPUPRIMS_MULTI_CUDA(cudaFree(a));
    GPUPRIMS_MULTI_CUDA(cudaFree(c));
    return {};
  });
}

template <int Rad, gpuprims::stencil_shape Shape, int Steps, class T>
void check_2d(world& wd) {
  constexpr std::size_t H = multi::halo_of<Rad, Steps>;
  const auto w = weights_2d<Rad, Shape, T>();
  const auto r = static_cast<std::size_t>(wd.size());
  const std::size_t row_counts[] = {r * H, r * 4 * H + 1, r * 6 * H + 2 * r + 1, 131};
  const std::size_t col_counts[] = {37, 200};
  int k = 0;
  for (const gpuprims::boundary& by : rules) {
    for (std::size_t rows : row_counts) {
      const std::size_t cols = col_counts[k % 2];
      const gpuprims::boundary bx = rules[(k + 1) % 4];
      ++k;
      const std::size_t pitch = cols % 2 == 0 ? cols + 8 : cols;
      const gpuprims::boundary2d b(bx, by);
      const std::vector<T> x = random_values<T>(rows * cols);
      const int calls = 3;
      const std::vector<T> want = single_gpu_2d<Rad, Shape, Steps>(x, rows, cols, w, b, calls);
      std::vector<T> got;
      const std::string errors =
          distributed_2d<Rad, Shape, Steps>(wd, x, rows, cols, pitch, w, b, calls, got);
      const std::string what =
          "2D radius " + std::to_string(Rad) +
          (Shape == gpuprims::stencil_shape::star ? " star, " : " box, ") + std::to_string(Steps) +
          " steps a call, " + std::to_string(wd.size()) + " ranks, " + std::to_string(rows) +
          " x " + std::to_string(cols) + " (pitch " + std::to_string(pitch) + "), y " +
          rule_name(by) + ", x " + rule_name(bx) + ", " + std::to_string(sizeof(T)) + "-byte items";
      INFO(what << "\n" << errors);
      REQUIRE(errors.empty());
      require_same_bits(got, want, what);
    }
  }
}

}  // namespace

TEST_CASE("multi::stencil1d equals the single-GPU stencil bit for bit", "[multi][stencil]") {
  world& wd = all_gpus();
  check_1d<1, 1, float>(wd);
  check_1d<1, 2, float>(wd);
  check_1d<1, 4, float>(wd);
  check_1d<1, 8, float>(wd);
  check_1d<3, 1, float>(wd);
  check_1d<3, 2, float>(wd);
  check_1d<1, 2, double>(wd);
}

TEST_CASE("multi::stencil1d over one rank closes the ring on itself", "[multi][stencil]") {
  check_1d<1, 2, float>(one_gpu());
  check_1d<3, 1, double>(one_gpu());
}

TEST_CASE("multi::stencil2d equals the single-GPU stencil bit for bit", "[multi][stencil]") {
  world& wd = all_gpus();
  check_2d<1, gpuprims::stencil_shape::star, 1, float>(wd);
  check_2d<1, gpuprims::stencil_shape::star, 4, float>(wd);
  check_2d<1, gpuprims::stencil_shape::star, 8, float>(wd);
  check_2d<1, gpuprims::stencil_shape::box, 2, float>(wd);
  check_2d<2, gpuprims::stencil_shape::star, 2, float>(wd);
  check_2d<1, gpuprims::stencil_shape::star, 2, double>(wd);
  check_2d<1, gpuprims::stencil_shape::box, 1, float>(one_gpu());
}

TEST_CASE("multi::exchange_halos1d fills each halo with the neighbour's edge", "[multi][stencil]") {
  world& wd = all_gpus();
  for (bool periodic : {false, true}) {
    const std::size_t H = 5, n = 1000003;
    const std::vector<float> x = random_values<float>(n);
    const std::string errors = wd.run([&](rank_context& ctx) -> std::string {
      const multi::slab s = multi::split(n, ctx.ranks, ctx.rank);
      std::vector<float> host(s.count + 2 * H, -7.0f);
      std::copy(x.begin() + static_cast<std::ptrdiff_t>(s.offset),
                x.begin() + static_cast<std::ptrdiff_t>(s.offset + s.count), host.begin() + H);
      float* buf = nullptr;
      GPUPRIMS_MULTI_CUDA(cudaMalloc(&buf, host.size() * sizeof(float)));
      GPUPRIMS_MULTI_CUDA(
          cudaMemcpy(buf, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
      GPUPRIMS_MULTI_CUDA(cudaDeviceSynchronize());
      GPUPRIMS_MULTI_CUDA(multi::exchange_halos1d(buf, s.count, H, periodic, ctx.comm, ctx.stream));
      GPUPRIMS_MULTI_CUDA(cudaStreamSynchronize(ctx.stream));
      GPUPRIMS_MULTI_CUDA(
          cudaMemcpy(host.data(), buf, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
      GPUPRIMS_MULTI_CUDA(cudaFree(buf));
      for (std::size_t i = 0; i < H; ++i) {
        const bool has_left = periodic || ctx.rank > 0;
        const bool has_right = periodic || ctx.rank < ctx.ranks - 1;
        const float left = has_left ? x[(s.offset + n - H + i) % n] : -7.0f;
        const float right = has_right ? x[(s.offset + s.count + i) % n] : -7.0f;
        GPUPRIMS_MULTI_REQUIRE(host[i] == left, "left halo point " << i);
        GPUPRIMS_MULTI_REQUIRE(host[H + s.count + i] == right, "right halo point " << i);
      }
      return {};
    });
    INFO((periodic ? "periodic" : "open") << "\n" << errors);
    CHECK(errors.empty());
  }
}

TEST_CASE("multi::exchange_halos2d fills each halo row with the neighbour's edge row",
          "[multi][stencil]") {
  world& wd = all_gpus();
  for (bool periodic : {false, true}) {
    const std::size_t H = 3, rows = 101, cols = 37, pitch = 40;
    const std::vector<float> x = random_values<float>(rows * cols);
    const std::string errors = wd.run([&](rank_context& ctx) -> std::string {
      const multi::slab s = multi::split(rows, ctx.ranks, ctx.rank);
      // Every point starts at -7 (pitch padding too); the owned rows from the domain.
      std::vector<float> host((s.count + 2 * H) * pitch, -7.0f);
      for (std::size_t y = 0; y < s.count; ++y) {
        std::copy(x.begin() + static_cast<std::ptrdiff_t>((s.offset + y) * cols),
                  x.begin() + static_cast<std::ptrdiff_t>((s.offset + y + 1) * cols),
                  host.begin() + static_cast<std::ptrdiff_t>((H + y) * pitch));
      }
      float* buf = nullptr;
      GPUPRIMS_MULTI_CUDA(cudaMalloc(&buf, host.size() * sizeof(float)));
      GPUPRIMS_MULTI_CUDA(
          cudaMemcpy(buf, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
      GPUPRIMS_MULTI_CUDA(cudaDeviceSynchronize());
      GPUPRIMS_MULTI_CUDA(
          multi::exchange_halos2d(buf, s.count, cols, pitch, H, periodic, ctx.comm, ctx.stream));
      GPUPRIMS_MULTI_CUDA(cudaStreamSynchronize(ctx.stream));
      GPUPRIMS_MULTI_CUDA(
          cudaMemcpy(host.data(), buf, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
      GPUPRIMS_MULTI_CUDA(cudaFree(buf));
      const bool has_up = periodic || ctx.rank > 0;
      const bool has_down = periodic || ctx.rank < ctx.ranks - 1;
      for (std::size_t i = 0; i < H; ++i) {
        const std::size_t up_row = (s.offset + rows - H + i) % rows;
        const std::size_t down_row = (s.offset + s.count + i) % rows;
        for (std::size_t c = 0; c < pitch; ++c) {
          // Halo points get the neighbour's row; the padding past cols is the sender's padding
          // (-7) or untouched, never anything else.
          const float top = host[i * pitch + c];
          const float bottom = host[(H + s.count + i) * pitch + c];
          const float want_top = has_up && c < cols ? x[up_row * cols + c] : -7.0f;
          const float want_bottom = has_down && c < cols ? x[down_row * cols + c] : -7.0f;
          GPUPRIMS_MULTI_REQUIRE(top == want_top, "top halo row " << i << ", column " << c);
          GPUPRIMS_MULTI_REQUIRE(bottom == want_bottom,
                                 "bottom halo row " << i << ", column " << c);
        }
      }
      return {};
    });
    INFO((periodic ? "periodic" : "open") << "\n" << errors);
    CHECK(errors.empty());
  }
}

TEST_CASE("multi::stencil checks its arguments, locally and across ranks",
          "[multi][stencil][multi_check]") {
  world& wd = all_gpus();
  const gpuprims::stencil_weights<float, 1> w{{0.25f, 0.5f, 0.25f}};
  const gpuprims::boundary b = gpuprims::boundary::clamp();
  gpuprims::boundary unknown = b;
  unknown.mode = static_cast<gpuprims::boundary_mode>(77);
  constexpr std::size_t H = multi::halo_of<1, 4>;
  // Local checks in one run, the collective ones in another: a rank that fails a local check
  // returns early, and must not leave the others waiting in a collective.
  const std::string errors = wd.run([&](rank_context& ctx) -> std::string {
    float *a = nullptr, *c = nullptr;
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&a, 1000 * sizeof(float)));
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&c, 1000 * sizeof(float)));
    // Local: nothing launched, no traffic, so each rank may fail alone.
    GPUPRIMS_MULTI_REQUIRE(
        (multi::stencil1d<1, 4>(a, c, H - 1, w, b, ctx.comm, ctx.stream)) == cudaErrorInvalidValue,
        "a slab shorter than the halo");
    GPUPRIMS_MULTI_REQUIRE((multi::stencil1d<1, 4>(static_cast<float*>(nullptr), c, 100, w, b,
                                                   ctx.comm, ctx.stream)) == cudaErrorInvalidValue,
                           "null input");
    GPUPRIMS_MULTI_REQUIRE((multi::stencil1d<1, 4>(a, a + 10, 100, w, b, ctx.comm, ctx.stream)) ==
                               cudaErrorInvalidValue,
                           "overlapping buffers");
    multi::communicator unbound;
    GPUPRIMS_MULTI_REQUIRE(
        (multi::stencil1d<1, 4>(a, c, 100, w, b, unbound, ctx.stream)) == cudaErrorInvalidValue,
        "a communicator never initialised");
    GPUPRIMS_MULTI_REQUIRE((multi::stencil2d<1, gpuprims::stencil_shape::star, 2>(
                               a, c, 10, 40, 30, 40, gpuprims::stencil2d_weights<float, 1>{}, b,
                               ctx.comm, ctx.stream)) == cudaErrorInvalidValue,
                           "a pitch shorter than the row");
    GPUPRIMS_MULTI_REQUIRE((multi::stencil1d<1, 4>(a, c, 100, w, unknown, ctx.comm, ctx.stream)) ==
                               cudaErrorInvalidValue,
                           "an unknown boundary rule");
    GPUPRIMS_MULTI_REQUIRE(
        (multi::stencil2d<1, gpuprims::stencil_shape::star, 2>(
            a, c, 10, 30, 30, 30, gpuprims::stencil2d_weights<float, 1>{},
            gpuprims::boundary2d{b, unknown}, ctx.comm, ctx.stream)) == cudaErrorInvalidValue,
        "an unknown boundary rule in y");
    if (ctx.rank == 0) {  // the communicator's GPU is not the current one
      GPUPRIMS_MULTI_CUDA(cudaSetDevice(1));
      const cudaError_t e = multi::stencil1d<1, 4>(a, c, 100, w, b, ctx.comm, ctx.stream);
      const cudaError_t x1 = multi::exchange_halos1d(a, 100, H, true, ctx.comm, ctx.stream);
      const cudaError_t x2 = multi::exchange_halos2d(a, 10, 30, 30, 2, true, ctx.comm, ctx.stream);
      GPUPRIMS_MULTI_CUDA(cudaSetDevice(ctx.device));
      GPUPRIMS_MULTI_REQUIRE(e == cudaErrorInvalidDevice, cudaGetErrorString(e));
      GPUPRIMS_MULTI_REQUIRE(x1 == cudaErrorInvalidDevice, cudaGetErrorString(x1));
      GPUPRIMS_MULTI_REQUIRE(x2 == cudaErrorInvalidDevice, cudaGetErrorString(x2));
    }
    GPUPRIMS_MULTI_CUDA(cudaStreamSynchronize(ctx.stream));
    GPUPRIMS_MULTI_CUDA(cudaFree(a));
    GPUPRIMS_MULTI_CUDA(cudaFree(c));
    return {};
  });
  INFO(errors);
  REQUIRE(errors.empty());
  // Collective: every rank gets the same verdict and the reason.
  const std::string verdicts = wd.run([&](rank_context& ctx) -> std::string {
    std::string why;
    cudaError_t e = multi::check_stencil2d<1, gpuprims::stencil_shape::star, 2, float>(
        20, ctx.rank == 1 ? 65 : 64, 64 + 8, 64 + 8, b, ctx.comm, &why);
    GPUPRIMS_MULTI_REQUIRE(e == cudaErrorInvalidValue && why.find("cols") != std::string::npos,
                           why);
    e = multi::check_stencil1d<1, 4, float>(ctx.rank == ctx.ranks - 1 ? H - 1 : 1000, b, ctx.comm,
                                            &why);
    GPUPRIMS_MULTI_REQUIRE(e == cudaErrorInvalidValue && why.find("owns") != std::string::npos,
                           why);
    e = multi::check_stencil1d<1, 4, float>(
        1000, ctx.rank == 0 ? gpuprims::boundary::periodic() : b, ctx.comm, &why);
    GPUPRIMS_MULTI_REQUIRE(
        e == cudaErrorInvalidValue && why.find("boundary rule") != std::string::npos, why);
    e = multi::check_stencil2d<1, gpuprims::stencil_shape::star, 2, float>(
        20, 64, 64 + 8, ctx.rank == ctx.ranks - 1 ? 64 + 16 : 64 + 8, b, ctx.comm, &why);
    GPUPRIMS_MULTI_REQUIRE(e == cudaErrorInvalidValue && why.find("out_pitch") != std::string::npos,
                           why);
    e = multi::check_stencil1d<1, 4, float>(1000, unknown, ctx.comm, &why);
    GPUPRIMS_MULTI_REQUIRE(
        e == cudaErrorInvalidValue && why.find("unknown boundary rule") != std::string::npos, why);
    e = multi::check_stencil1d<1, 4, float>(1000, b, ctx.comm, &why);
    GPUPRIMS_MULTI_REQUIRE(e == cudaSuccess && why.empty(), why);
    return {};
  });
  INFO(verdicts);
  CHECK(verdicts.empty());
}
