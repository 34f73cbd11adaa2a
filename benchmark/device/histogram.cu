// The histogram families: gpuprims::histogram_even against cub::DeviceHistogram::HistogramEven
// (temporary storage allocated outside the timing) and a read of the same bytes
// (gpuprims::reduce of the input as 32-bit words), 32-bit counts zeroed by each call (CUB's too).
// Bytes counted: the samples read. Families: 1 GiB of uint8 into 256 bins (uniform random bytes,
// and all equal), 2^28 floats uniform in [0, 1) into 1024 bins, 2^28 random uint32 into 2^16 and
// 2^20 bins. --full adds the ladder's rungs (ladder::histogram_even) to the families they fit.
#include <gpuprims/device/histogram.cuh>
#include <gpuprims/device/reduce.cuh>
#include <gpuprims/ladder/histogram.cuh>

#include "support.cuh"

#include <cub/device/device_histogram.cuh>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpuprims::bench {
namespace {

// Each sample's bits from its index: uniform bytes and uint32, floats in [0, 1), or one value.
enum class fill { random_bits, unit_floats, constant };

__global__ void fill_samples_kernel(std::uint32_t* words, std::size_t count, fill how) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    std::uint64_t z = (i + 77) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    const auto bits = static_cast<std::uint32_t>(z ^ (z >> 31));
    if (how == fill::unit_floats) {
      words[i] = __float_as_uint(static_cast<float>(bits >> 8) * (1.0f / 16777216.0f));
    } else {
      words[i] = how == fill::constant ? 0x5a5a5a5au : bits;
    }
  }
}

struct samples {
  device_scratch buffer;
  bool ok = false;
  samples(std::size_t bytes, fill how) : buffer(bytes) {
    if (buffer.p != nullptr) {
      fill_samples_kernel<<<1024, 256>>>(static_cast<std::uint32_t*>(buffer.p), bytes / 4, how);
      ok = cudaDeviceSynchronize() == cudaSuccess;
    }
  }
};

struct family {
  const char* name;
  fill how;
  int sample_bytes;  // 1: uint8 in [0, 256); 4 with unit_floats: float in [0, 1); 4: uint32
  int bins;
  std::int64_t n;
};

template <class Sample>
gpuprims::histogram_level_t<Sample> upper_of() {
  if constexpr (sizeof(Sample) == 1) {
    return 256;
  } else if constexpr (std::is_integral_v<Sample>) {
    return 1LL << 32;
  } else {
    return Sample{1};
  }
}

template <class Sample, class Run>
void time_histogram(benchmark::State& state, fill how, int bins, Run run) {
  const auto n = static_cast<std::size_t>(state.range(0));
  samples in(n * sizeof(Sample), how);
  device_scratch counts(static_cast<std::size_t>(bins) * 4);
  if (!in.ok || counts.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, n * sizeof(Sample), [&](cudaStream_t s) {
    skip_on_error(state, run(static_cast<const Sample*>(in.buffer.p), n,
                             static_cast<unsigned int*>(counts.p), s));
  });
}

template <class Sample>
void gpuprims_bench(benchmark::State& state, fill how, int bins) {
  time_histogram<Sample>(state, how, bins,
                         [&](const Sample* x, std::size_t n, unsigned int* c, cudaStream_t s) {
                           return gpuprims::histogram_even(x, n, c, bins, 0, upper_of<Sample>(), s);
                         });
}

template <ladder::histogram_rung Rung, class Sample>
void rung_bench(benchmark::State& state, fill how, int bins) {
  time_histogram<Sample>(
      state, how, bins, [&](const Sample* x, std::size_t n, unsigned int* c, cudaStream_t s) {
        return ladder::histogram_even<Rung>(x, n, c, bins, 0, upper_of<Sample>(), s);
      });
}

template <class Sample>
void cub_bench(benchmark::State& state, fill how, int bins) {
  using level = gpuprims::histogram_level_t<Sample>;
  const auto n = static_cast<std::int64_t>(state.range(0));
  std::size_t bytes = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, bytes, static_cast<const Sample*>(nullptr),
                                      static_cast<unsigned int*>(nullptr), bins + 1, level{0},
                                      upper_of<Sample>(), n);
  device_scratch temp(bytes);
  time_histogram<Sample>(state, how, bins,
                         [&](const Sample* x, std::size_t, unsigned int* c, cudaStream_t s) {
                           std::size_t b = bytes;
                           return cub::DeviceHistogram::HistogramEven(
                               temp.p, b, x, c, bins + 1, level{0}, upper_of<Sample>(), n, s);
                         });
}

// A read of the same bytes: gpuprims::reduce of the input as 32-bit words.
template <class Sample>
void read_bench(benchmark::State& state, fill how, int bins) {
  device_scratch out(8);
  time_histogram<Sample>(
      state, how, bins, [&](const Sample* x, std::size_t n, unsigned int*, cudaStream_t s) {
        return gpuprims::reduce(reinterpret_cast<const std::uint32_t*>(x),
                                static_cast<unsigned long long*>(out.p), n * sizeof(Sample) / 4,
                                0ull, plus<unsigned long long>{}, s);
      });
}

template <class Sample>
void register_family(const options& opt, const family& f) {
  const arg_list sizes = each({f.n});
  const auto with = [&](void (*fn)(benchmark::State&, fill, int)) {
    const fill how = f.how;
    const int bins = f.bins;
    return [fn, how, bins](benchmark::State& state) { fn(state, how, bins); };
  };
  add(opt, f.name, "cub::DeviceHistogram::HistogramEven", role::baseline, with(cub_bench<Sample>),
      sizes, {"n"});
  add(opt, f.name, "read (gpuprims::reduce)", role::baseline, with(read_bench<Sample>), sizes,
      {"n"});
  add(opt, f.name, "gpuprims::histogram_even", role::default_, with(gpuprims_bench<Sample>), sizes,
      {"n"});
  if (!opt.full) {
    return;
  }
  using ladder::histogram_rung;
  add(opt, f.name, "global_atomics", role::variant,
      with(rung_bench<histogram_rung::global_atomics, Sample>), sizes, {"n"});
  if (f.bins <= 8192) {
    add(opt, f.name, "shared_atomics", role::variant,
        with(rung_bench<histogram_rung::shared_atomics, Sample>), sizes, {"n"});
    add(opt, f.name, "shared_vectorized", role::variant,
        with(rung_bench<histogram_rung::shared_vectorized, Sample>), sizes, {"n"});
    add(opt, f.name, "warp_aggregated", role::variant,
        with(rung_bench<histogram_rung::warp_aggregated, Sample>), sizes, {"n"});
    add(opt, f.name, "sub_histograms", role::variant,
        with(rung_bench<histogram_rung::sub_histograms, Sample>), sizes, {"n"});
  }
  if (sizeof(Sample) == 1) {
    add(opt, f.name, "byte_values", role::variant,
        with(rung_bench<histogram_rung::byte_values, Sample>), sizes, {"n"});
  }
}

}  // namespace

void register_histogram(const options& opt) {
  const std::int64_t gib = std::int64_t{1} << 30, n28 = std::int64_t{1} << 28;
  register_family<std::uint8_t>(opt, {"histogram_u8_256", fill::random_bits, 1, 256, gib});
  register_family<std::uint8_t>(opt, {"histogram_u8_256_equal", fill::constant, 1, 256, gib});
  register_family<float>(opt, {"histogram_f32_1024", fill::unit_floats, 4, 1024, n28});
  register_family<std::uint32_t>(opt, {"histogram_u32_65536", fill::random_bits, 4, 65536, n28});
  register_family<std::uint32_t>(opt, {"histogram_u32_1m", fill::random_bits, 4, 1 << 20, n28});
}

}  // namespace gpuprims::bench
