// gpuprims::apply_stencil1d_fused against Steps calls of gpuprims::apply_stencil1d, bit for bit:
// radii 1, 2, 3 and 5, 2, 4 and 8 fused steps (and 1), every boundary rule, float and double,
// sizes from 1 to several tiles (primes and non-multiples of the tile, signals shorter than the
// halo), batches with odd pitches and unaligned pointers, padding left poisoned, both kernels
// (a block's tile in shared memory, each warp's in registers), a caller's element-wise tuning, bad
// arguments.
#include <gpuprims/device/stencil.cuh>

#include "support/fused_check.cuh"

#include <cstddef>
#include <cstdint>

namespace {

using namespace gpuprims::test;

// A caller's policy: 128-thread blocks with 3 outputs each (not a whole vector: element-wise).
struct odd_tile_tuning {
  __host__ __device__ static constexpr gpuprims::stencil_policy select(int, std::size_t, int) {
    return {128, 3, 0, false};
  }
};

// Each warp stepping its tile in registers (the default's kernel where the library's policy says
// so): 16-byte units, and one element a unit where Items is not a whole number of vectors.
// Contiguous: each lane a run of Items elements (stencil_policy::fused_contiguous_lanes).
template <int Threads, int Items, bool Contiguous = false>
struct registers_tuning {
  __host__ __device__ static constexpr gpuprims::stencil_policy select(int, std::size_t, int) {
    return {Threads, Items, 0, false, true, Contiguous};
  }
};

// A block's tile of 256 x 16 in shared memory.
struct shared_tuning {
  __host__ __device__ static constexpr gpuprims::stencil_policy select(int, std::size_t, int) {
    return {256, 16, 0, false, false};
  }
};

const gpuprims::boundary rules[] = {gpuprims::boundary::constant(0.75), gpuprims::boundary::clamp(),
                                    gpuprims::boundary::periodic(), gpuprims::boundary::mirror()};
const char* const rule_names[] = {"constant", "clamp", "periodic", "mirror"};

// Weights whose sum is below 1 in magnitude, so that eight steps stay finite and far from
// denormals; asymmetric, so that a flipped index shows.
template <int Rad, class T>
gpuprims::stencil_weights<T, Rad> damped_weights() {
  gpuprims::stencil_weights<T, Rad> w{};
  for (int j = 0; j <= 2 * Rad; ++j) {
    w.w[j] = static_cast<T>((0.3 + 0.05 * j) / (2 * Rad + 1));
  }
  return w;
}

// `rows` signals of `cols` elements (pitches in elements, the data `shift` elements into each
// allocation); the fused result (tiled by `Tuning`) against Steps single steps of the default
// apply_stencil1d through two scratch buffers.
template <int Rad, int Steps, class T, class Tuning = gpuprims::stencil_fused_tuning>
void check_case(std::size_t rows, std::size_t cols, std::size_t in_pitch, std::size_t out_pitch,
                std::size_t shift, int rule) {
  INFO("Rad " << Rad << ", Steps " << Steps << ", " << sizeof(T) * 8 << "-bit, " << rows << " x "
              << cols << ", pitches " << in_pitch << "/" << out_pitch << ", shift " << shift << ", "
              << rule_names[rule]);
  const gpuprims::boundary b = rules[rule];
  const auto w = damped_weights<Rad, T>();
  const std::size_t in_elems = shift + (rows - 1) * in_pitch + cols;
  const std::size_t out_elems = shift + (rows - 1) * out_pitch + cols;
  const fused_buffers<T> buf(in_elems, out_elems);
  const T* x = reinterpret_cast<const T*>(buf.in.data()) + shift;
  T* f = reinterpret_cast<T*>(buf.fused.data()) + shift;
  T* scratch[2] = {reinterpret_cast<T*>(buf.a.data()) + shift,
                   reinterpret_cast<T*>(buf.c.data()) + shift};
  GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil1d_fused<Rad, Steps, Tuning>(
      x, f, rows, cols, in_pitch, out_pitch, w, b)));
  GPUPRIMS_CHECK_LAUNCH();
  // The reference: Steps single steps, each step's output the next one's input (out_pitch).
  GPUPRIMS_CHECK_CUDA(
      (gpuprims::apply_stencil1d<Rad>(x, scratch[0], rows, cols, in_pitch, out_pitch, w, b)));
  for (int s = 1; s < Steps; ++s) {
    GPUPRIMS_CHECK_CUDA((gpuprims::apply_stencil1d<Rad>(scratch[(s - 1) % 2], scratch[s % 2], rows,
                                                        cols, out_pitch, out_pitch, w, b)));
  }
  GPUPRIMS_CHECK_LAUNCH();
  buf.check_same_bits(Steps, [&](std::size_t i) {
    return i >= shift && (i - shift) % out_pitch < cols;  // inside a row
  });
}

template <int Rad, int Steps, class T, class Tuning = gpuprims::stencil_fused_tuning>
void check_sizes() {
  // The fused tile of this policy on an H100 (the same on the GPUs whose policy matches).
  const std::size_t tile = gpuprims::detail::fused_tile<Rad, Steps, T>(
      gpuprims::detail::stencil_policy_for<Tuning, T, Rad>(90));
  for (std::size_t cols :
       {std::size_t{1}, std::size_t{2}, std::size_t{Rad}, std::size_t{7}, std::size_t{100},
        tile - 1, tile, tile + 1, 3 * tile + 17, std::size_t{20011}}) {
    for (int rule = 0; rule < 4; ++rule) {
      check_case<Rad, Steps, T, Tuning>(1, cols, cols, cols, 0, rule);
    }
  }
  // Batches: odd pitches, unaligned data, padding between rows.
  for (int rule = 0; rule < 4; ++rule) {
    check_case<Rad, Steps, T, Tuning>(3, 2049, 2051, 2053, 1, rule);
    check_case<Rad, Steps, T, Tuning>(5, 37, 40, 37, 3, rule);
  }
}

}  // namespace

TEST_CASE("apply_stencil1d_fused equals Steps calls of apply_stencil1d, bit for bit",
          "[stencil][gpu]") {
  SECTION("Rad 1, 2 steps") { check_sizes<1, 2, float>(); }
  SECTION("Rad 1, 4 steps") { check_sizes<1, 4, float>(); }
  SECTION("Rad 1, 8 steps") { check_sizes<1, 8, float>(); }
  SECTION("Rad 2, 4 steps") { check_sizes<2, 4, float>(); }
  SECTION("Rad 3, 2 steps") { check_sizes<3, 2, float>(); }
  SECTION("Rad 3, 4 steps") { check_sizes<3, 4, float>(); }
  SECTION("Rad 3, 8 steps") { check_sizes<3, 8, float>(); }
  SECTION("Rad 5, 4 steps") { check_sizes<5, 4, float>(); }
  SECTION("Rad 1, 1 step") { check_sizes<1, 1, float>(); }
  SECTION("double, Rad 1, 4 steps") { check_sizes<1, 4, double>(); }
  SECTION("double, Rad 3, 8 steps") { check_sizes<3, 8, double>(); }
  SECTION("the single-step tiling (doubles and Rad past 4 where an SM has less shared memory)") {
    check_sizes<1, 4, float, gpuprims::stencil_tuning>();
    check_sizes<3, 8, double, gpuprims::stencil_tuning>();
  }
  SECTION("each warp in registers (the default for floats up to Rad 4), other shapes") {
    check_sizes<1, 4, float, registers_tuning<128, 32>>();
    check_sizes<5, 4, float, registers_tuning<128, 8>>();   // halos of two vectors
    check_sizes<3, 8, double, registers_tuning<256, 8>>();  // likewise
    check_sizes<2, 4, float, registers_tuning<64, 3>>();    // one element a unit
    check_sizes<3, 8, double, registers_tuning<96, 3>>();
  }
  SECTION("each lane a run of consecutive elements in registers") {
    check_sizes<1, 4, float, registers_tuning<256, 16, true>>();
    check_sizes<3, 8, float, registers_tuning<128, 32, true>>();
    check_sizes<5, 4, float, registers_tuning<128, 8, true>>();  // halos of two vectors
    check_sizes<2, 4, float, registers_tuning<64, 3, true>>();   // one element a unit
    check_sizes<5, 2, float, registers_tuning<64, 3, true>>();   // halos two lanes away
    check_sizes<3, 8, double, registers_tuning<96, 4, true>>();
  }
  SECTION("a block's tile in shared memory (the sm_90 default for floats before)") {
    check_sizes<1, 4, float, shared_tuning>();
    check_sizes<3, 2, float, shared_tuning>();
    check_sizes<2, 8, float, shared_tuning>();
  }
  SECTION("a caller's element-wise tuning") {
    check_sizes<2, 4, float, odd_tile_tuning>();
    check_sizes<3, 8, double, odd_tile_tuning>();
  }
}

TEST_CASE("apply_stencil1d_fused rejects bad arguments and launches nothing", "[stencil][gpu]") {
  device_buffer buffer(4096);
  const auto* in = reinterpret_cast<const float*>(buffer.data());
  auto* out = reinterpret_cast<float*>(buffer.data() + 2048);
  const auto w = damped_weights<1, float>();
  CHECK(gpuprims::apply_stencil1d_fused<1, 4>(static_cast<const float*>(nullptr), out, 8, w) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d_fused<1, 4>(in, static_cast<float*>(nullptr), 8, w) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d_fused<1, 4>(in, const_cast<float*>(in) + 4, 8, w) ==
        cudaErrorInvalidValue);  // overlap
  CHECK(gpuprims::apply_stencil1d_fused<1, 4>(in, out, 2, 8, 7, 8, w) ==
        cudaErrorInvalidValue);  // a pitch shorter than the row
  CHECK(gpuprims::apply_stencil1d_fused<1, 4>(
            in, out, 8, w, gpuprims::boundary{static_cast<gpuprims::boundary_mode>(9), 0}) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d_fused<1, 4>(in, out, 0, w) == cudaSuccess);  // nothing
  GPUPRIMS_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(cudaGetLastError() == cudaSuccess);
}
