// The histogram ladder: every rung's counts against a CPU reference of histogram_even's bin
// function, uniform and all-equal 8-bit samples into 256 bins (aligned and not), floats into 1024
// bins and 32-bit samples into 4096 bins (the global rung also into 65536), n from 1 to past 2^20.
#include <gpuprims/ladder/histogram.cuh>

#include "support/test_support.cuh"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;
using gpuprims::ladder::histogram_rung;

template <histogram_rung Rung, class Sample>
void check_rung(const char* name, const std::vector<Sample>& samples, std::size_t offset, int bins,
                gpuprims::histogram_level_t<Sample> lower,
                gpuprims::histogram_level_t<Sample> upper) {
  const std::size_t n = samples.size();
  bool ok = false;
  const auto host = gpuprims::detail::even_bins_of<Sample>(lower, upper, bins, ok);
  REQUIRE(ok);
  std::vector<unsigned int> want(bins, 0);
  for (const Sample& x : samples) {
    const int b = host(x);
    if (b >= 0) {
      ++want[b];
    }
  }
  device_buffer in((n + offset + 1) * sizeof(Sample)), counts(bins * 4);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data() + offset * sizeof(Sample), samples.data(),
                                 n * sizeof(Sample), cudaMemcpyHostToDevice));
  counts.poison();
  INFO(name << ", n = " << n << ", bins = " << bins << ", offset " << offset);
  GPUPRIMS_CHECK_CUDA(gpuprims::ladder::histogram_even<Rung>(
      reinterpret_cast<const Sample*>(in.data()) + offset, n,
      reinterpret_cast<unsigned int*>(counts.data()), bins, lower, upper));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<unsigned int> got(bins);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), counts.data(), bins * 4, cudaMemcpyDeviceToHost));
  CHECK(got == want);
}

template <histogram_rung Rung>
void check_ladder_rung(const char* name) {
  std::mt19937_64& g = rng();
  for (std::size_t n : {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 7}) {
    std::vector<std::uint8_t> bytes(n);
    for (auto& b : bytes) {
      b = static_cast<std::uint8_t>(g());
    }
    check_rung<Rung, std::uint8_t>(name, bytes, 0, 256, 0, 256);
    check_rung<Rung, std::uint8_t>(name, bytes, 5, 256, 0, 256);
    check_rung<Rung, std::uint8_t>(name, std::vector<std::uint8_t>(n, bytes[0]), 0, 256, 0, 256);
    std::vector<float> f(n);
    for (auto& x : f) {
      x = std::uniform_real_distribution<float>(-0.5f, 1.5f)(g);
    }
    check_rung<Rung, float>(name, f, 1, 1024, 0.0f, 1.0f);
    std::vector<std::uint32_t> u(n);
    for (auto& x : u) {
      x = static_cast<std::uint32_t>(g());
    }
    check_rung<Rung, std::uint32_t>(name, u, 0, 4096, 0, 1LL << 32);
    if (Rung == histogram_rung::global_atomics || Rung == histogram_rung::library_default) {
      check_rung<Rung, std::uint32_t>(name, u, 0, 65536, 0, 1LL << 32);
    }
  }
}

}  // namespace

TEST_CASE("every histogram rung counts every bin", "[ladder][histogram][gpu]") {
  check_ladder_rung<histogram_rung::global_atomics>("global_atomics");
  check_ladder_rung<histogram_rung::shared_atomics>("shared_atomics");
  check_ladder_rung<histogram_rung::shared_vectorized>("shared_vectorized");
  check_ladder_rung<histogram_rung::warp_aggregated>("warp_aggregated");
  check_ladder_rung<histogram_rung::sub_histograms>("sub_histograms");
  check_ladder_rung<histogram_rung::byte_values>("byte_values");
  check_ladder_rung<histogram_rung::library_default>("library_default");
}

TEST_CASE("the shared-memory rungs reject more bins than fit", "[ladder][histogram][gpu]") {
  device_buffer buf(1 << 20);
  const auto* x = reinterpret_cast<const std::uint32_t*>(buf.data());
  auto* c = reinterpret_cast<unsigned int*>(buf.data() + (1 << 19));
  CHECK(gpuprims::ladder::histogram_even<histogram_rung::shared_atomics>(
            x, 10, c, 65536, 0, 1LL << 32) == cudaErrorInvalidValue);
}
