// gpuprims::histogram_even, histogram_range, histogram (a functor) and block_histogram: uniform,
// all-equal, sorted and out-of-range samples, NaN and infinities, samples on the bin edges; bins 1
// to 2^20 (shared copies and global atomics); n 0, 1, primes, 2^20 + 7 and above 2^31; aligned and
// unaligned; 32- and 64-bit counts, zeroed first or added to; every bin against a CPU reference of
// the documented bin function; guards past the bins; the argument checks.
#include <gpuprims/histogram.cuh>

#include "support/test_support.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace gpuprims::test {

struct record {
  std::uint32_t key;
  float weight;
};
struct key_bins {
  __host__ __device__ long long operator()(const record& r) const {
    return static_cast<long long>(r.key % 1000) - 10;  // some below 0, some past the bins
  }
};

// A user kernel: block_histogram of the low 6 bits of each value, merged into counts.
__global__ void block_histogram_kernel(const std::uint32_t* in, std::size_t n,
                                       unsigned long long* counts) {
  using hist_t = gpuprims::block_histogram<128, 64>;
  __shared__ hist_t::storage s;
  hist_t h(s);
  h.init();
  for (std::size_t i = blockIdx.x * std::size_t{128} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * 128) {
    int bins[2] = {static_cast<int>(in[i] & 63), in[i] % 7 == 0 ? 64 : -1};  // 64, -1: ignored
    h.add(bins);
  }
  h.merge(counts);
}

}  // namespace gpuprims::test

namespace {

using namespace gpuprims::test;
using gpuprims::histogram_counts;

// Uploads `samples` at `offset` samples into a buffer, runs `call(x, n, counts)` into counts
// poisoned (zero_first) or prefilled (add), and checks every bin and a guard past them.
template <class Sample, class Counter, class BinOf, class Call>
void check_histogram(const std::string& name, const std::vector<Sample>& samples, int bins,
                     BinOf host_bin_of, std::size_t offset, histogram_counts mode, Call call) {
  const std::size_t n = samples.size();
  constexpr int guard = 16;
  std::vector<Counter> want(bins + guard);
  std::vector<Counter> start(bins + guard);
  for (int b = 0; b < bins + guard; ++b) {
    start[b] = mode == histogram_counts::add && b < bins ? static_cast<Counter>(b * 3 + 1) : 0;
    want[b] = start[b];
  }
  for (const Sample& x : samples) {
    const long long b = host_bin_of(x);
    if (b >= 0 && b < bins) {
      ++want[static_cast<std::size_t>(b)];
    }
  }
  device_buffer in((offset + n + 1) * sizeof(Sample)), counts((bins + guard) * sizeof(Counter));
  in.poison();
  if (n > 0) {
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data() + offset * sizeof(Sample), samples.data(),
                                   n * sizeof(Sample), cudaMemcpyHostToDevice));
  }
  counts.poison();
  if (mode == histogram_counts::add) {
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(counts.data(), start.data(), bins * sizeof(Counter), cudaMemcpyHostToDevice));
  }
  const auto* x = reinterpret_cast<const Sample*>(in.data()) + offset;
  auto* c = reinterpret_cast<Counter*>(counts.data());
  INFO(name << ", n = " << n << ", bins = " << bins << ", offset " << offset
            << (mode == histogram_counts::add ? ", add" : ", zero first") << ", "
            << sizeof(Counter) * 8 << "-bit counts");
  GPUPRIMS_CHECK_CUDA(call(x, n, c, mode));
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> got_bytes = counts.download();
  std::vector<Counter> got(bins);
  std::memcpy(got.data(), got_bytes.data(), bins * sizeof(Counter));
  int wrong = 0, first = -1;
  for (int b = 0; b < bins; ++b) {
    if (got[b] != want[b]) {
      first = wrong++ == 0 ? b : first;
    }
  }
  INFO("first wrong bin " << first
                          << (first >= 0 ? ": got " + std::to_string(got[first]) + ", want " +
                                               std::to_string(want[first])
                                         : std::string()));
  CHECK(wrong == 0);
  CHECK(first_unpoisoned(got_bytes.data() + bins * sizeof(Counter), guard * sizeof(Counter)) ==
        guard * sizeof(Counter));
}

// histogram_even over every placement, counter width and mode.
template <class Sample>
void check_even(const std::string& name, const std::vector<Sample>& samples, int bins,
                gpuprims::histogram_level_t<Sample> lower,
                gpuprims::histogram_level_t<Sample> upper) {
  bool ok = false;
  const auto host_bins = gpuprims::detail::even_bins_of<Sample>(lower, upper, bins, ok);
  REQUIRE(ok);
  const auto bin_of = [&](const Sample& x) { return static_cast<long long>(host_bins(x)); };
  for (std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    const auto mode = offset == 1 ? histogram_counts::add : histogram_counts::zero_first;
    check_histogram<Sample, unsigned int>(
        name, samples, bins, bin_of, offset, mode,
        [&](const Sample* x, std::size_t n, unsigned int* c, histogram_counts m) {
          return gpuprims::histogram_even(x, n, c, bins, lower, upper, m);
        });
  }
  check_histogram<Sample, unsigned long long>(
      name, samples, bins, bin_of, 0, histogram_counts::add,
      [&](const Sample* x, std::size_t n, unsigned long long* c, histogram_counts m) {
        return gpuprims::histogram_even(x, n, c, bins, lower, upper, m);
      });
}

std::vector<std::size_t> sample_counts() {
  return {0, 1, 2, 31, 7919, (std::size_t{1} << 20) + 7, random_size(1, 3000000)};
}

// Uniform, all equal, sorted, and mostly outside [lower, upper).
template <class Sample, class Gen>
void check_distributions(const std::string& name, int bins,
                         gpuprims::histogram_level_t<Sample> lower,
                         gpuprims::histogram_level_t<Sample> upper, Gen gen) {
  for (std::size_t n : sample_counts()) {
    std::vector<Sample> s(n);
    for (auto& x : s) {
      x = gen();
    }
    check_even<Sample>(name + ", uniform", s, bins, lower, upper);
    if (n > 100) {
      std::vector<Sample> same(n, s[0]);
      check_even<Sample>(name + ", all equal", same, bins, lower, upper);
      std::sort(s.begin(), s.end());
      check_even<Sample>(name + ", sorted", s, bins, lower, upper);
    }
  }
}

}  // namespace

TEST_CASE("histogram_even of 8-bit samples, every bin count up to 257", "[histogram][gpu]") {
  std::mt19937_64& g = rng();
  const auto byte = [&g] { return static_cast<std::uint8_t>(g()); };
  for (int bins : {1, 2, 255, 256, 257}) {
    check_distributions<std::uint8_t>("uint8, [0, 256)", bins, 0, 256, byte);
  }
  check_distributions<std::uint8_t>("uint8, [10, 200)", 37, 10, 200, byte);
  check_distributions<std::int8_t>("int8, [-100, 100)", 256, -100, 100,
                                   [&g] { return static_cast<std::int8_t>(g()); });
}

TEST_CASE("histogram_even of 8-bit samples into more bins than shared memory holds",
          "[histogram][gpu]") {
  // 8-bit samples count their 256 values and map them at the end: any bin count, sparse bins.
  std::mt19937_64& g = rng();
  const auto byte = [&g] { return static_cast<std::uint8_t>(g()); };
  for (int bins : {8193, 1 << 20}) {
    check_distributions<std::uint8_t>("uint8, [0, 256)", bins, 0, 256, byte);
  }
  check_distributions<std::uint8_t>("uint8, [-50, 300)", 1000, -50, 300, byte);
  check_distributions<std::int8_t>("int8, [-128, 128)", 100003, -128, 128,
                                   [&g] { return static_cast<std::int8_t>(g()); });
}

TEST_CASE("histogram_even of 16- and 32-bit samples, shared and global bins", "[histogram][gpu]") {
  std::mt19937_64& g = rng();
  check_distributions<std::uint16_t>("uint16", 4096, 0, 65536,
                                     [&g] { return static_cast<std::uint16_t>(g()); });
  check_distributions<std::uint16_t>("uint16 out of range", 100, 1000, 3000,
                                     [&g] { return static_cast<std::uint16_t>(g() % 4000); });
  for (int bins : {4096, 8192, 8193, 65536, 1 << 20}) {
    check_distributions<std::uint32_t>("uint32", bins, 0, 1LL << 32,
                                       [&g] { return static_cast<std::uint32_t>(g()); });
  }
  check_distributions<std::int32_t>("int32, odd range", 999, -123456, 7654321, [&g] {
    return static_cast<std::int32_t>(static_cast<std::int64_t>(g() % 9000000) - 500000);
  });
}

TEST_CASE("histogram_even of floats: NaN, infinities, bin edges", "[histogram][gpu]") {
  std::mt19937_64& g = rng();
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int bins : {1, 1024, 4096, 10000}) {
    const float lower = -2.0f, upper = 3.0f;
    std::vector<float> s(200003);
    for (std::size_t i = 0; i < s.size(); ++i) {
      switch (g() % 6) {
        case 0:
          s[i] = nan;
          break;
        case 1:
          s[i] = g() % 2 ? inf : -inf;
          break;
        case 2:  // exactly on an edge, or the bounds themselves
          s[i] = lower + (upper - lower) * static_cast<float>(g() % (bins + 1)) / bins;
          break;
        default:
          s[i] = std::uniform_real_distribution<float>(-3, 4)(g);
      }
    }
    check_even<float>("float", s, bins, lower, upper);
  }
  std::vector<double> d(100003);
  for (auto& x : d) {
    x = std::uniform_real_distribution<double>(0, 1)(g);
  }
  check_even<double>("double", d, 777, 0.0, 1.0);
}

TEST_CASE("histogram_range and the functor form", "[histogram][gpu]") {
  std::mt19937_64& g = rng();
  for (int bins : {1, 7, 300, 5000}) {
    std::vector<float> levels(bins + 1);
    for (auto& l : levels) {
      l = std::uniform_real_distribution<float>(-10, 10)(g);
    }
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    const int nb = static_cast<int>(levels.size()) - 1;
    if (nb < 1) {
      continue;
    }
    std::vector<float> s(100003);
    for (auto& x : s) {
      x = g() % 4 == 0 ? levels[g() % levels.size()]
                       : std::uniform_real_distribution<float>(-12, 12)(g);
    }
    device_buffer d_levels(levels.size() * sizeof(float));
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(d_levels.data(), levels.data(), levels.size() * sizeof(float),
                                   cudaMemcpyHostToDevice));
    const gpuprims::detail::range_bins<float> host{levels.data(), nb};
    const auto* dl = reinterpret_cast<const float*>(d_levels.data());
    check_histogram<float, unsigned int>(
        "range, float", s, nb, [&](const float& x) { return static_cast<long long>(host(x)); }, 1,
        histogram_counts::zero_first,
        [&](const float* x, std::size_t n, unsigned int* c, histogram_counts m) {
          return gpuprims::histogram_range(x, n, c, dl, nb, m);
        });
  }
  std::vector<long long> int_levels = {-5, 0, 1, 2, 100, 255, 256};
  device_buffer d_int_levels(int_levels.size() * 8);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(d_int_levels.data(), int_levels.data(), int_levels.size() * 8,
                                 cudaMemcpyHostToDevice));
  std::vector<std::uint8_t> bytes(65537);
  for (auto& b : bytes) {
    b = static_cast<std::uint8_t>(g());
  }
  const gpuprims::detail::range_bins<std::uint8_t> host_int{int_levels.data(), 6};
  const auto* dil = reinterpret_cast<const long long*>(d_int_levels.data());
  check_histogram<std::uint8_t, unsigned long long>(
      "range, uint8 (values counted, mapped at the end)", bytes, 6,
      [&](const std::uint8_t& x) { return static_cast<long long>(host_int(x)); }, 2,
      histogram_counts::add,
      [&](const std::uint8_t* x, std::size_t n, unsigned long long* c, histogram_counts m) {
        return gpuprims::histogram_range(x, n, c, dil, 6, m);
      });
  std::vector<record> records(300007);
  for (auto& r : records) {
    r = {static_cast<std::uint32_t>(g()), 1.0f};
  }
  for (int bins : {1, 990, 20000}) {
    check_histogram<record, unsigned int>(
        "functor, 8-byte records", records, bins, key_bins{}, 0, histogram_counts::zero_first,
        [&](const record* x, std::size_t n, unsigned int* c, histogram_counts m) {
          return gpuprims::histogram(x, n, c, bins, key_bins{}, m);
        });
  }
}

TEST_CASE("64-bit samples past a long long and records 4 bytes off a 16-byte word",
          "[histogram][gpu]") {
  std::mt19937_64& g = rng();
  // uint64 samples, some >= 2^63 (outside every bound): counted by an independent reference.
  std::vector<std::uint64_t> big(100003);
  std::vector<unsigned int> want(10, 0);
  for (auto& x : big) {
    const auto r = g();
    x = r % 3 == 0 ? ~std::uint64_t{0} - (r % 1000) : r % 1500;
    if (x < 1000) {
      ++want[static_cast<std::size_t>((x + 1000) * 10 / 2000)];
    }
  }
  device_buffer in(big.size() * 8), counts(10 * 4);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), big.data(), big.size() * 8, cudaMemcpyHostToDevice));
  GPUPRIMS_CHECK_CUDA(
      gpuprims::histogram_even(reinterpret_cast<const std::uint64_t*>(in.data()), big.size(),
                               reinterpret_cast<unsigned int*>(counts.data()), 10, -1000, 1000));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<unsigned int> got(10);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), counts.data(), 40, cudaMemcpyDeviceToHost));
  CHECK(got == want);
  // 8-byte records aligned to 4, starting 4 bytes past a 16-byte boundary: no 16-byte loads.
  std::vector<record> records(50001);
  std::vector<unsigned int> want_keys(990, 0);
  for (auto& r : records) {
    r = {static_cast<std::uint32_t>(g()), 1.0f};
    const long long b = key_bins{}(r);
    if (b >= 0 && b < 990) {
      ++want_keys[static_cast<std::size_t>(b)];
    }
  }
  device_buffer raw(records.size() * sizeof(record) + 16), key_counts(990 * 4);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(raw.data() + 4, records.data(), records.size() * sizeof(record),
                                 cudaMemcpyHostToDevice));
  GPUPRIMS_CHECK_CUDA(
      gpuprims::histogram(reinterpret_cast<const record*>(raw.data() + 4), records.size(),
                          reinterpret_cast<unsigned int*>(key_counts.data()), 990, key_bins{}));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<unsigned int> got_keys(990);
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(got_keys.data(), key_counts.data(), 990 * 4, cudaMemcpyDeviceToHost));
  CHECK(got_keys == want_keys);
}

TEST_CASE("block_histogram in a user kernel", "[histogram][gpu]") {
  std::mt19937_64& g = rng();
  const std::size_t n = 1000003;
  std::vector<std::uint32_t> v(n);
  std::vector<unsigned long long> want(64, 0);
  for (auto& x : v) {
    x = static_cast<std::uint32_t>(g());
    ++want[x & 63];
  }
  device_buffer in(n * 4), counts(64 * 8);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), v.data(), n * 4, cudaMemcpyHostToDevice));
  GPUPRIMS_CHECK_CUDA(cudaMemset(counts.data(), 0, 64 * 8));
  block_histogram_kernel<<<97, 128>>>(reinterpret_cast<const std::uint32_t*>(in.data()), n,
                                      reinterpret_cast<unsigned long long*>(counts.data()));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<unsigned long long> got(64);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), counts.data(), 64 * 8, cudaMemcpyDeviceToHost));
  CHECK(got == want);
}

TEST_CASE("histograms reject bad arguments and launch nothing", "[histogram][gpu]") {
  device_buffer buf(4096);
  const auto* x = reinterpret_cast<const std::uint8_t*>(buf.data());
  auto* c = reinterpret_cast<unsigned int*>(buf.data() + 2048);
  const auto* f = reinterpret_cast<const float*>(buf.data());
  CHECK(gpuprims::histogram_even(x, 100, c, 0, 0, 256) == cudaErrorInvalidValue);
  CHECK(gpuprims::histogram_even(x, 100, c, (1 << 20) + 1, 0, 256) == cudaErrorInvalidValue);
  CHECK(gpuprims::histogram_even(x, 100, c, 16, 256, 0) == cudaErrorInvalidValue);
  CHECK(gpuprims::histogram_even(x, 100, c, 16, 5, 5) == cudaErrorInvalidValue);
  CHECK(gpuprims::histogram_even(x, 100, c, 16, 0, 1LL << 41) == cudaErrorInvalidValue);
  CHECK(gpuprims::histogram_even(f, 100, c, 16, 0.0f, std::numeric_limits<float>::quiet_NaN()) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::histogram_even(f, 100, c, 16, 0.0f, std::numeric_limits<float>::infinity()) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::histogram_even(static_cast<const std::uint8_t*>(nullptr), 100, c, 16, 0, 256) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::histogram_even(x, 100, static_cast<unsigned int*>(nullptr), 16, 0, 256) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::histogram_even(x, 4000, c, 16, 0, 256) == cudaErrorInvalidValue);  // overlap
  CHECK(gpuprims::histogram_range(f, 100, c, static_cast<const float*>(nullptr), 16) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::histogram(reinterpret_cast<const record*>(f), 10, c, 0, key_bins{}) ==
        cudaErrorInvalidValue);
  // n == 0: zero_first zeroes the counts, add leaves them.
  std::vector<unsigned int> ones(16, 1), got(16);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(c, ones.data(), 64, cudaMemcpyHostToDevice));
  CHECK(gpuprims::histogram_even(x, 0, c, 16, 0, 256, histogram_counts::add) == cudaSuccess);
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), c, 64, cudaMemcpyDeviceToHost));
  CHECK(got == ones);
  CHECK(gpuprims::histogram_even(static_cast<const std::uint8_t*>(nullptr), 0, c, 16, 0, 256) ==
        cudaSuccess);
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), c, 64, cudaMemcpyDeviceToHost));
  CHECK(got == std::vector<unsigned int>(16, 0));
}

TEST_CASE("histogram_even of more than 2^31 bytes", "[histogram][gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 11;
  std::vector<unsigned char> host(n);
  fill_random(host.data(), n);
  std::vector<unsigned long long> want(256, 0);
  for (unsigned char b : host) {
    ++want[b];
  }
  device_buffer in(n), counts(256 * 8);
  in.upload(host);
  GPUPRIMS_CHECK_CUDA(gpuprims::histogram_even(reinterpret_cast<const std::uint8_t*>(in.data()), n,
                                               reinterpret_cast<unsigned long long*>(counts.data()),
                                               256, 0, 256));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<unsigned long long> got(256);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), counts.data(), 256 * 8, cudaMemcpyDeviceToHost));
  CHECK(got == want);
}
