// stencil1d: every rung x radius x boundary mode x size against a double CPU reference with the same
// boundary rule (asymmetric weights, so a flipped index shows), batches with odd and aligned pitches,
// unaligned pointers, padding left untouched, the device template in a user kernel, the notes'
// second derivative of sin(x), and more than 2^31 elements.
#include <gpuprims/stencil.cuh>

#include "support/test_support.cuh"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

// Outside the anonymous namespace: nvcc's generated launch stubs cannot name kernel templates
// declared in one once a using-directive is in scope.
namespace stencil_test {
// Weights known at compile time: a type whose operator[] the compiler folds.
struct asymmetric_weights {
  __host__ __device__ constexpr float operator[](int j) const { return 0.25f * static_cast<float>(j + 1) - 0.6f; }
};
// The device template in a user kernel: 128-thread blocks, a grid-stride loop over tiles.
template <int Rad, int ItemsPerThread>
__global__ void user_stencil_kernel(const float* in, float* out, std::size_t n, gpuprims::boundary b) {
  using storage_t = gpuprims::stencil1d_storage<Rad, float, 128, ItemsPerThread>;
  __shared__ storage_t storage;
  for (std::size_t begin = blockIdx.x * std::size_t{storage_t::tile}; begin < n;
       begin += gridDim.x * std::size_t{storage_t::tile}) {
    gpuprims::stencil1d<Rad>(storage, in, out, n, begin, asymmetric_weights{}, b);
    __syncthreads();
  }
}

}  // namespace stencil_test

namespace {

using namespace gpuprims::test;
using stencil_test::asymmetric_weights;
using stencil_test::user_stencil_kernel;
using gpuprims::boundary;
using gpuprims::boundary_mode;
using gpuprims::stencil_algorithm;

const char* mode_name(boundary_mode m) {
  switch (m) {
    case boundary_mode::constant: return "constant";
    case boundary_mode::clamp: return "clamp";
    case boundary_mode::periodic: return "periodic";
    default: return "mirror";
  }
}

// The boundary rule, written independently of the library: walk the reflections one at a time.
template <class T>
double reference_at(const T* row, std::int64_t g, std::int64_t n, const boundary& b) {
  if (g >= 0 && g < n) {
    return static_cast<double>(row[g]);
  }
  switch (b.mode) {
    case boundary_mode::constant: return static_cast<double>(static_cast<T>(b.value));
    case boundary_mode::clamp: return static_cast<double>(row[g < 0 ? 0 : n - 1]);
    case boundary_mode::periodic: return static_cast<double>(row[((g % n) + n) % n]);
    default:
      while (g < 0 || g >= n) {
        if (n == 1) {
          g = 0;
        } else if (g < 0) {
          g = -g;
        } else {
          g = 2 * (n - 1) - g;
        }
      }
      return static_cast<double>(row[g]);
  }
}

template <int Rad, stencil_algorithm A, class T>
cudaError_t run_stencil(const T* in, T* out, std::size_t n, std::size_t rows, std::size_t in_pitch,
                        std::size_t out_pitch, const gpuprims::stencil_weights<T, Rad>& w, boundary b) {
  return gpuprims::stencil1d<Rad, A>(in, out, n, rows, in_pitch, out_pitch, w, b);
}

struct layout {
  std::size_t n, rows, in_pitch, out_pitch, in_offset, out_offset;  // pitches and offsets in elements
};

// One launch on fresh random inputs into a poisoned output; every output against the reference,
// every padding element and guard still poisoned.
template <int Rad, stencil_algorithm A, class T>
void check_stencil(const layout& l, const boundary& b) {
  INFO("Rad " << Rad << ", algorithm " << static_cast<int>(A) << ", " << sizeof(T) << "-byte, n = " << l.n
              << ", rows = " << l.rows << ", pitches " << l.in_pitch << "/" << l.out_pitch << ", offsets "
              << l.in_offset << "/" << l.out_offset << ", boundary " << mode_name(b.mode) << " " << b.value);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  gpuprims::stencil_weights<T, Rad> w{};
  for (int j = 0; j <= 2 * Rad; ++j) {
    w.w[j] = static_cast<T>(dist(rng()));
  }
  const std::size_t in_count = l.in_offset + (l.rows - 1) * l.in_pitch + l.n;
  const std::size_t out_count = l.out_offset + (l.rows - 1) * l.out_pitch + l.n + 8;  // 8 guard elements
  std::vector<T> in(in_count);
  for (T& x : in) {
    x = static_cast<T>(dist(rng()));
  }
  device_buffer d_in(in_count * sizeof(T)), d_out(out_count * sizeof(T));
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(d_in.data(), in.data(), in_count * sizeof(T), cudaMemcpyHostToDevice));
  d_out.poison();
  cudaError_t (*run)(const T*, T*, std::size_t, std::size_t, std::size_t, std::size_t,
                     const gpuprims::stencil_weights<T, Rad>&, boundary) = &run_stencil<Rad, A, T>;
  GPUPRIMS_CHECK_CUDA(run(reinterpret_cast<const T*>(d_in.data()) + l.in_offset,
                          reinterpret_cast<T*>(d_out.data()) + l.out_offset, l.n, l.rows, l.in_pitch, l.out_pitch, w,
                          b));
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> bytes = d_out.download();
  std::vector<T> out(out_count);
  std::memcpy(out.data(), bytes.data(), out_count * sizeof(T));

  std::size_t bad = 0, first_bad = 0;
  double bad_got = 0, bad_want = 0;
  for (std::size_t r = 0; r < l.rows; ++r) {
    const T* row = in.data() + l.in_offset + r * l.in_pitch;
    for (std::size_t i = 0; i < l.n; ++i) {
      double want = 0, magnitude = 0;
      for (int j = 0; j <= 2 * Rad; ++j) {
        const double term = static_cast<double>(w.w[j]) *
                            reference_at(row, static_cast<std::int64_t>(i) - Rad + j, static_cast<std::int64_t>(l.n), b);
        want += term;
        magnitude += std::fabs(term);
      }
      const double got = static_cast<double>(out[l.out_offset + r * l.out_pitch + i]);
      const double bound = (2 * Rad + 2) * std::numeric_limits<T>::epsilon() * magnitude + 1e-30;
      if (!(std::fabs(got - want) <= bound)) {
        if (bad++ == 0) {
          first_bad = r * l.n + i;
          bad_got = got;
          bad_want = want;
        }
      }
    }
  }
  INFO(bad << " wrong outputs; first: row-major index " << first_bad << " got " << bad_got << ", want " << bad_want);
  CHECK(bad == 0);
  // Nothing written outside the outputs: before the first row, between rows, after the last.
  std::vector<unsigned char> written(out_count, 0);
  for (std::size_t r = 0; r < l.rows; ++r) {
    std::memset(written.data() + l.out_offset + r * l.out_pitch, 1, l.n);
  }
  std::size_t stray = 0;
  for (std::size_t e = 0; e < out_count; ++e) {
    if (!written[e] && first_unpoisoned(bytes.data() + e * sizeof(T), sizeof(T)) != sizeof(T)) {
      ++stray;
    }
  }
  INFO(stray << " elements written outside the outputs");
  CHECK(stray == 0);
}

const boundary modes[] = {boundary::constant(), boundary::constant(0.75), boundary::clamp(), boundary::periodic(),
                          boundary::mirror()};

template <int Rad, stencil_algorithm A, class T>
void check_rung() {
  const std::size_t sizes[] = {1, 2, Rad, Rad + 1, 255, 256, 257};
  for (const boundary& b : modes) {
    for (std::size_t n : sizes) {
      check_stencil<Rad, A, T>({n, 1, n, n, 0, 0}, b);
    }
    // Batches: odd pitches (rows after the first unaligned), aligned pitches with a partial last
    // tile, and unaligned input or output pointers.
    check_stencil<Rad, A, T>({1000, 3, 1005, 1003, 0, 0}, b);
    check_stencil<Rad, A, T>({2051, 3, 2056, 2060, 0, 0}, b);
    check_stencil<Rad, A, T>({4099, 2, 4099, 4099, 1, 0}, b);
    check_stencil<Rad, A, T>({4099, 2, 4099, 4099, 0, 3}, b);
  }
}

// A million elements: many full tiles between the two boundary tiles.
template <int Rad, stencil_algorithm A, class T>
void check_rung_million() {
  for (const boundary& b : modes) {
    check_stencil<Rad, A, T>({1000003, 1, 1000003, 1000003, 0, 0}, b);
  }
}

template <int Rad, template <int, stencil_algorithm, class> class Check>
void check_radius() {
  Check<Rad, stencil_algorithm::naive, float>::run();
  Check<Rad, stencil_algorithm::shared_halo, float>::run();
  Check<Rad, stencil_algorithm::shared_vectorized, float>::run();
  Check<Rad, stencil_algorithm::automatic, float>::run();
  Check<Rad, stencil_algorithm::naive, double>::run();
  Check<Rad, stencil_algorithm::shared_halo, double>::run();
  Check<Rad, stencil_algorithm::shared_vectorized, double>::run();
  Check<Rad, stencil_algorithm::automatic, double>::run();
}
template <int Rad, stencil_algorithm A, class T>
struct small_sizes {
  static void run() { check_rung<Rad, A, T>(); }
};
template <int Rad, stencil_algorithm A, class T>
struct million {
  static void run() { check_rung_million<Rad, A, T>(); }
};

TEST_CASE("every stencil1d rung is right for every radius, boundary, size and layout", "[stencil][gpu]") {
  SECTION("Rad 1") { check_radius<1, small_sizes>(); }
  SECTION("Rad 2") { check_radius<2, small_sizes>(); }
  SECTION("Rad 3") { check_radius<3, small_sizes>(); }
  SECTION("Rad 8") { check_radius<8, small_sizes>(); }
  SECTION("Rad 16") { check_radius<16, small_sizes>(); }
}

// [slow]: left out of the compute-sanitizer runs (same code paths as above, a thousand times the work).
TEST_CASE("every stencil1d rung is right on a million elements", "[stencil][gpu][slow]") {
  SECTION("Rad 1") { check_radius<1, million>(); }
  SECTION("Rad 2") { check_radius<2, million>(); }
  SECTION("Rad 3") { check_radius<3, million>(); }
  SECTION("Rad 8") { check_radius<8, million>(); }
  SECTION("Rad 16") { check_radius<16, million>(); }
}

template <int Rad, int ItemsPerThread>
void check_user_kernel(std::size_t n, const boundary& b) {
  INFO("user kernel: Rad " << Rad << ", " << ItemsPerThread << " items per thread, n = " << n << ", boundary "
                           << mode_name(b.mode));
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> in(n);
  for (float& x : in) {
    x = dist(rng());
  }
  device_buffer d_in(n * sizeof(float)), d_out(n * sizeof(float));
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(d_in.data(), in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  d_out.poison();
  user_stencil_kernel<Rad, ItemsPerThread><<<7, 128>>>(reinterpret_cast<const float*>(d_in.data()),
                                                       reinterpret_cast<float*>(d_out.data()), n, b);
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<float> out(n);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(out.data(), d_out.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double want = 0, magnitude = 0;
    for (int j = 0; j <= 2 * Rad; ++j) {
      const double term = static_cast<double>(asymmetric_weights{}[j]) *
                          reference_at(in.data(), static_cast<std::int64_t>(i) - Rad + j, static_cast<std::int64_t>(n), b);
      want += term;
      magnitude += std::fabs(term);
    }
    bad += !(std::fabs(out[i] - want) <= (2 * Rad + 2) * std::numeric_limits<float>::epsilon() * magnitude + 1e-30);
  }
  CHECK(bad == 0);
}

TEST_CASE("stencil1d works inside a user kernel with compile-time weights", "[stencil][gpu]") {
  for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{1000}, std::size_t{100003}}) {
    check_user_kernel<3, 8>(n, boundary::mirror());   // two 16-byte vectors per thread
    check_user_kernel<5, 3>(n, boundary::periodic()); // not a multiple of a vector: element by element
    check_user_kernel<16, 4>(n, boundary::clamp());
  }
}

// The reference notes' example: the second derivative of sin(x) on 150 points of [0, 2 pi), weights
// (1, -2, 1) / h^2, periodic (sin is). The error is the discretisation error h^2 / 12 |sin''''| plus
// the rounding of the float inputs amplified by 4 / h^2.
template <stencil_algorithm A>
void check_second_derivative() {
  constexpr int n = 150;
  const double pi = 3.14159265358979323846;
  const double h = 2 * pi / n;
  std::vector<float> u(n);
  for (int i = 0; i < n; ++i) {
    u[i] = static_cast<float>(std::sin(i * h));
  }
  const auto inv_h2 = static_cast<float>(1 / (h * h));
  gpuprims::stencil_weights<float, 1> w{{inv_h2, -2 * inv_h2, inv_h2}};
  device_buffer d_in(n * sizeof(float)), d_out(n * sizeof(float));
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(d_in.data(), u.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  d_out.poison();
  GPUPRIMS_CHECK_CUDA((run_stencil<1, A, float>(reinterpret_cast<const float*>(d_in.data()),
                                                reinterpret_cast<float*>(d_out.data()), n, 1, n, n, w,
                                                boundary::periodic())));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<float> d2(n);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(d2.data(), d_out.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
  const double bound = h * h / 12 + 8 * std::numeric_limits<float>::epsilon() / (h * h);
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    worst = std::fmax(worst, std::fabs(d2[i] + std::sin(i * h)));
  }
  INFO("max |u'' + sin x| = " << worst << ", bound " << bound);
  CHECK(worst <= bound);
  CHECK(worst > 0);  // a real derivative, not a copy of -sin
}

TEST_CASE("the notes' second derivative of sin(x) matches -sin(x) within the discretisation error",
          "[stencil][gpu]") {
  check_second_derivative<stencil_algorithm::naive>();
  check_second_derivative<stencil_algorithm::shared_halo>();
  check_second_derivative<stencil_algorithm::shared_vectorized>();
  check_second_derivative<stencil_algorithm::automatic>();
}

// Integer-valued inputs and weights keep float sums exact, so every one of the 2^31 + 5 outputs is
// compared exactly, including the mirrored end past 2^31.
TEST_CASE("stencil1d is exact past 2^31 elements", "[stencil][gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 5;
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = static_cast<float>(static_cast<int>((i * 2654435761u) >> 7 & 15) - 8);
  }
  gpuprims::stencil_weights<float, 3> w{{1, -2, 3, 4, -1, 2, -3}};
  device_buffer d_in(n * sizeof(float)), d_out(n * sizeof(float));
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(d_in.data(), in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  d_out.poison();
  GPUPRIMS_CHECK_CUDA((run_stencil<3, stencil_algorithm::automatic, float>(
      reinterpret_cast<const float*>(d_in.data()), reinterpret_cast<float*>(d_out.data()), n, 1, n, n, w,
      boundary::mirror())));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<float> out(n);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(out.data(), d_out.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
  std::size_t bad = 0;
  const boundary b = boundary::mirror();
  for (std::size_t i = 0; i < n; ++i) {
    double want = 0;
    for (int j = 0; j <= 6; ++j) {
      want += w.w[j] * reference_at(in.data(), static_cast<std::int64_t>(i) - 3 + j, static_cast<std::int64_t>(n), b);
    }
    bad += static_cast<double>(out[i]) != want;
  }
  CHECK(bad == 0);
}

}  // namespace
