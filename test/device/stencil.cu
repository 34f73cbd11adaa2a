// gpuprims::apply_stencil1d against a double CPU reference with the same boundary rule (asymmetric
// weights, so a flipped index shows): every radius x boundary mode x size, float and double,
// batches with odd and aligned pitches, unaligned pointers, padding left untouched, the notes'
// second derivative of sin(x), a caller's tuning, and more than 2^31 elements.
#include <gpuprims/device/stencil.cuh>

#include "support/stencil_check.cuh"

#include <cstdint>
#include <vector>

namespace {

using namespace gpuprims::test;

// A caller's policy: 128-thread blocks with 3 outputs each (not a whole vector: element-wise).
struct odd_tile_tuning {
  __host__ __device__ static constexpr gpuprims::stencil_policy select(int, std::size_t, int) {
    return {128, 3, 0, false};
  }
};

template <int Rad, class T, class Tuning = gpuprims::stencil_tuning>
cudaError_t run_default(const T* in, T* out, std::size_t rows, std::size_t cols,
                        std::size_t in_pitch, std::size_t out_pitch,
                        const gpuprims::stencil_weights<T, Rad>& w, gpuprims::boundary b) {
  return gpuprims::apply_stencil1d<Rad, Tuning>(in, out, rows, cols, in_pitch, out_pitch, w, b);
}

template <int Rad>
void check_radius() {
  check_small_sizes<Rad, float>(&run_default<Rad, float>, "default");
  check_small_sizes<Rad, double>(&run_default<Rad, double>, "default");
}

template <int Rad>
void check_radius_million() {
  check_million<Rad, float>(&run_default<Rad, float>, "default");
  check_million<Rad, double>(&run_default<Rad, double>, "default");
}

}  // namespace

TEST_CASE("apply_stencil1d is right for every radius, boundary, size and layout",
          "[stencil][gpu]") {
  SECTION("Rad 1") { check_radius<1>(); }
  SECTION("Rad 2") { check_radius<2>(); }
  SECTION("Rad 3") { check_radius<3>(); }
  SECTION("Rad 5") { check_radius<5>(); }
  SECTION("Rad 8") { check_radius<8>(); }
  SECTION("Rad 16") { check_radius<16>(); }
}

TEST_CASE("apply_stencil1d runs a caller's tuning", "[stencil][gpu]") {
  check_small_sizes<3, float>(&run_default<3, float, odd_tile_tuning>, "128 x 3 tiles");
  check_small_sizes<16, double>(&run_default<16, double, odd_tile_tuning>, "128 x 3 tiles");
}

// [slow]: left out of the compute-sanitizer runs (same code paths as above, a thousand times the
// work).
TEST_CASE("apply_stencil1d is right on a million elements", "[stencil][gpu][slow]") {
  SECTION("Rad 1") { check_radius_million<1>(); }
  SECTION("Rad 3") { check_radius_million<3>(); }
  SECTION("Rad 8") { check_radius_million<8>(); }
  SECTION("Rad 16") { check_radius_million<16>(); }
}

TEST_CASE("the notes' second derivative of sin(x) matches -sin(x) within the discretisation error",
          "[stencil][gpu]") {
  check_second_derivative(&run_default<1, float>);
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
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(d_in.data(), in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  d_out.poison();
  GPUPRIMS_CHECK_CUDA(gpuprims::apply_stencil1d<3>(reinterpret_cast<const float*>(d_in.data()),
                                                   reinterpret_cast<float*>(d_out.data()), n, w,
                                                   boundary::mirror()));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<float> out(n);
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(out.data(), d_out.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
  std::size_t bad = 0;
  const boundary b = boundary::mirror();
  for (std::size_t i = 0; i < n; ++i) {
    double want = 0;
    for (int j = 0; j <= 6; ++j) {
      want += w.w[j] * reference_at(in.data(), static_cast<std::int64_t>(i) - 3 + j,
                                    static_cast<std::int64_t>(n), b);
    }
    bad += static_cast<double>(out[i]) != want;
  }
  CHECK(bad == 0);
}
