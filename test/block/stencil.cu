// stencil1d in user kernels: the tile method (writing the outputs) and the register method (the
// kernel stores the thread's outputs itself), compile-time weights, vectorised and element-wise
// tiles, every boundary rule, against a double CPU reference.
#include <gpuprims/block/stencil.cuh>

#include "support/stencil_check.cuh"

#include <cstddef>
#include <vector>

// Outside the anonymous namespace: nvcc's generated launch stubs cannot name kernel templates
// declared in one once a using-directive is in scope.
namespace block_stencil_test {

// Weights known at compile time: a type whose operator[] the compiler folds.
template <int Rad>
struct asymmetric_weights {
  static constexpr int radius = Rad;
  __host__ __device__ constexpr float operator[](int j) const {
    return 0.25f * static_cast<float>(j + 1) - 0.6f;
  }
};

// 128-thread blocks, a grid-stride loop over tiles.
template <int Rad, int ItemsPerThread, bool Registers>
__global__ void user_stencil_kernel(const float* in, float* out, std::size_t n,
                                    gpuprims::boundary b) {
  using stencil_t = gpuprims::stencil1d<Rad, float, 128, ItemsPerThread>;
  __shared__ typename stencil_t::storage storage;
  for (std::size_t begin = blockIdx.x * std::size_t{stencil_t::tile}; begin < n;
       begin += gridDim.x * std::size_t{stencil_t::tile}) {
    if constexpr (Registers) {
      float outputs[ItemsPerThread];
      stencil_t(storage).apply(in, n, begin, asymmetric_weights<Rad>{}, b, outputs);
      for (int j = 0; j < ItemsPerThread; ++j) {
        const std::size_t i = begin + stencil_t::offset(j);
        if (i < n) {
          out[i] = outputs[j];
        }
      }
    } else {
      stencil_t(storage).apply(in, out, n, begin, asymmetric_weights<Rad>{}, b);
    }
    __syncthreads();
  }
}

}  // namespace block_stencil_test

namespace {

using namespace gpuprims::test;
using block_stencil_test::asymmetric_weights;
using block_stencil_test::user_stencil_kernel;

template <int Rad, int ItemsPerThread, bool Registers>
void check_user_kernel(std::size_t n, const boundary& b) {
  INFO("user kernel: Rad " << Rad << ", " << ItemsPerThread << " items per thread, "
                           << (Registers ? "registers" : "tile") << ", n = " << n << ", boundary "
                           << mode_name(b.mode));
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> in(n);
  for (float& x : in) {
    x = dist(rng());
  }
  device_buffer d_in(n * sizeof(float)), d_out(n * sizeof(float));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(d_in.data(), in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  d_out.poison();
  user_stencil_kernel<Rad, ItemsPerThread, Registers><<<7, 128>>>(
      reinterpret_cast<const float*>(d_in.data()), reinterpret_cast<float*>(d_out.data()), n, b);
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<float> out(n);
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(out.data(), d_out.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double want = 0, magnitude = 0;
    for (int j = 0; j <= 2 * Rad; ++j) {
      const double term = static_cast<double>(asymmetric_weights<Rad>{}[j]) *
                          reference_at(in.data(), static_cast<std::int64_t>(i) - Rad + j,
                                       static_cast<std::int64_t>(n), b);
      want += term;
      magnitude += std::fabs(term);
    }
    bad += !(std::fabs(out[i] - want) <=
             (2 * Rad + 2) * std::numeric_limits<float>::epsilon() * magnitude + 1e-30);
  }
  CHECK(bad == 0);
}

template <bool Registers>
void check_methods() {
  for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{1000}, std::size_t{100003}}) {
    check_user_kernel<3, 8, Registers>(n, boundary::mirror());  // two 16-byte vectors per thread
    check_user_kernel<5, 3, Registers>(
        n, boundary::periodic());  // not a multiple of a vector: element by element
    check_user_kernel<16, 4, Registers>(n, boundary::clamp());
    check_user_kernel<1, 4, Registers>(n, boundary::constant(0.5));
  }
}

}  // namespace

TEST_CASE("stencil1d writes a tile from a user kernel with compile-time weights",
          "[stencil][block][gpu]") {
  check_methods<false>();
}

TEST_CASE("stencil1d gives each thread its outputs in registers", "[stencil][block][gpu]") {
  check_methods<true>();
}
