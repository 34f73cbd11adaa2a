// Stream order across launches: gpuprims kernels may be scheduled before the kernel ahead of them
// in the stream has finished (programmatic dependent launch, detail/launch.cuh) and must still see
// everything it wrote and never overwrite what it still reads. Rounds of producer -> copy ->
// transpose -> apply_stencil1d -> reduce -> consumer, queued without any synchronisation and
// reusing the same buffers, must give exactly what the same pipeline gives on the CPU; also with
// the copy launched plainly (a policy without dependent launch) between dependent launches.
#include <gpuprims/gpuprims.cuh>

#include "support/test_support.cuh"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using namespace gpuprims::test;

// Small integers held in floats: every stage below is exact, so the CPU result must match bit for
// bit.
__host__ __device__ float input_value(std::size_t i, std::uint32_t round, std::uint32_t salt) {
  std::uint64_t z = (i + (std::uint64_t{round} << 40) + salt) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ULL;
  return static_cast<float>((z >> 40) % 201) - 100.0f;
}

// A plain launch (no dependent-launch opt-in): the first gpuprims kernel after it must wait for it.
__global__ void produce(float* a, std::size_t n, std::uint32_t round, std::uint32_t salt) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += stride) {
    a[i] = input_value(i, round, salt);
  }
}

// A plain launch after gpuprims::reduce: keeps each round's sum before the next round overwrites
// it.
__global__ void consume(const double* sum, double* sums, int round) { sums[round] = *sum; }

// The copy's policy with programmatic dependent launch switched off.
struct plain_copy_tuning {
  __host__ __device__ static constexpr gpuprims::copy_policy select(int arch) {
    gpuprims::copy_policy p = gpuprims::copy_tuning::select(arch);
    p.dependent_launch = false;
    return p;
  }
};

template <class CopyTuning>
struct pipeline {
  std::size_t rows, cols;
  std::uint32_t salt;

  // The CPU's sum of round `round`: transpose, then a 3-point box filter with zero boundaries along
  // each row of the transposed matrix, then the sum.
  double expected_sum(std::uint32_t round) const {
    std::vector<float> t(rows * cols);
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) {
        t[c * rows + r] = input_value(r * cols + c, round, salt);
      }
    }
    double sum = 0;
    for (std::size_t c = 0; c < cols; ++c) {
      for (std::size_t r = 0; r < rows; ++r) {
        const float left = r > 0 ? t[c * rows + r - 1] : 0.0f;
        const float right = r + 1 < rows ? t[c * rows + r + 1] : 0.0f;
        sum += static_cast<double>((left + t[c * rows + r]) + right);
      }
    }
    return sum;
  }

  void run(cudaStream_t stream, int rounds) const {
    const std::size_t n = rows * cols;
    device_buffer a(n * sizeof(float)), b(n * sizeof(float)), t(n * sizeof(float)),
        f(n * sizeof(float));
    device_buffer sum(sizeof(double)), sums(rounds * sizeof(double));
    sums.poison();
    auto* pa = reinterpret_cast<float*>(a.data());
    auto* pb = reinterpret_cast<float*>(b.data());
    auto* pt = reinterpret_cast<float*>(t.data());
    auto* pf = reinterpret_cast<float*>(f.data());
    auto* psum = reinterpret_cast<double*>(sum.data());
    auto* psums = reinterpret_cast<double*>(sums.data());
    const gpuprims::stencil_weights<float, 1> box{{1.0f, 1.0f, 1.0f}};
    for (int round = 0; round < rounds; ++round) {
      produce<<<64, 256, 0, stream>>>(pa, n, static_cast<std::uint32_t>(round), salt);
      GPUPRIMS_CHECK_CUDA(cudaGetLastError());
      GPUPRIMS_CHECK_CUDA(gpuprims::copy<CopyTuning>(pa, pb, n, stream));
      GPUPRIMS_CHECK_CUDA(gpuprims::transpose(pb, pt, rows, cols, stream));
      GPUPRIMS_CHECK_CUDA(gpuprims::apply_stencil1d<1>(pt, pf, cols, rows, rows, rows, box,
                                                       gpuprims::boundary{}, stream));
      GPUPRIMS_CHECK_CUDA(gpuprims::reduce(pf, psum, n, 0.0, gpuprims::plus<double>{}, stream));
      consume<<<1, 1, 0, stream>>>(psum, psums, round);
      GPUPRIMS_CHECK_CUDA(cudaGetLastError());
    }
    GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(stream));
    GPUPRIMS_CHECK_LAUNCH();
    std::vector<double> got(rounds);
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(got.data(), psums, rounds * sizeof(double), cudaMemcpyDeviceToHost));
    for (int round = 0; round < rounds; ++round) {
      INFO("round " << round << " of " << rows << " x " << cols);
      CHECK(got[round] == expected_sum(static_cast<std::uint32_t>(round)));
    }
  }
};

}  // namespace

TEST_CASE("back-to-back gpuprims calls keep stream order on a created stream", "[stream_order]") {
  cudaStream_t stream = nullptr;
  GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (const auto& shape : {std::vector<std::size_t>{1000, 777}, std::vector<std::size_t>{64, 4099},
                            std::vector<std::size_t>{2048, 2048}}) {
    pipeline<gpuprims::copy_tuning>{shape[0], shape[1], static_cast<std::uint32_t>(seed())}.run(
        stream, 12);
  }
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(stream));  // before the stream goes
  GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("back-to-back gpuprims calls keep stream order on the default stream", "[stream_order]") {
  pipeline<gpuprims::copy_tuning>{513, 1031, static_cast<std::uint32_t>(seed() >> 32)}.run(
      cudaStream_t{0}, 12);
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(cudaStream_t{0}));
  GPUPRIMS_CHECK_CUDA(cudaDeviceSynchronize());
}

TEST_CASE("plain and dependent launches keep stream order together", "[stream_order]") {
  cudaStream_t stream = nullptr;
  GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  pipeline<plain_copy_tuning>{1000, 777, static_cast<std::uint32_t>(seed() >> 16)}.run(stream, 12);
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(stream));
  GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(stream));
}
