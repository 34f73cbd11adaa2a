// The scan ladder: every rung's inclusive sum against a serial one on the CPU (int32 exactly, float
// within (i + 2) epsilon of the sum of magnitudes), at sizes around each rung's tile, across the
// scan-then-propagate levels (256^2 and 512^2 items) and far past them; poisoned outputs with
// guards, in place, the argument checks.
#include <gpuprims/ladder/scan.cuh>

#include "support/test_support.cuh"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace gpuprims::test;
using gpuprims::ladder::scan_rung;

template <scan_rung Rung, class T>
void check_rung_once(const char* name, std::size_t n, bool in_place) {
  std::mt19937_64& g = rng();
  std::vector<T> items(n);
  for (auto& x : items) {
    x = std::is_integral_v<T> ? static_cast<T>(static_cast<int>(g() % 2001) - 1000)
                              : static_cast<T>(std::uniform_real_distribution<double>(-1, 1)(g));
  }
  constexpr std::size_t guard = 32;
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA((gpuprims::ladder::scan_workspace_bytes<Rung, T>(n, bytes)));
  device_buffer in((n + guard) * sizeof(T)), out((n + guard) * sizeof(T)), ws(bytes + 16);
  GPUPRIMS_CHECK_CUDA(cudaMemset(ws.data(), 0, bytes + 16));
  for (int call = 0; call < 2; ++call) {
    INFO(name << ", n = " << n << (in_place ? ", in place" : "") << ", call " << call);
    in.poison();
    out.poison();
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), items.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    const auto* x = reinterpret_cast<const T*>(in.data());
    T* y = reinterpret_cast<T*>((in_place ? in : out).data());
    GPUPRIMS_CHECK_CUDA(gpuprims::ladder::inclusive_scan<Rung>(x, y, n, ws.data(), bytes));
    GPUPRIMS_CHECK_LAUNCH();
    const std::vector<unsigned char> raw = (in_place ? in : out).download();
    std::vector<T> got(n);
    std::memcpy(got.data(), raw.data(), n * sizeof(T));
    CHECK(first_unpoisoned(raw.data() + n * sizeof(T), guard * sizeof(T)) == guard * sizeof(T));
    std::size_t wrong = 0, first_wrong = n;
    double sum = 0, magnitude = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sum += static_cast<double>(items[i]);
      magnitude += std::fabs(static_cast<double>(items[i]));
      const double bound =
          std::is_integral_v<T> ? 0 : (i + 2) * std::numeric_limits<float>::epsilon() * magnitude;
      if (std::fabs(static_cast<double>(got[i]) - sum) > bound) {
        first_wrong = wrong++ == 0 ? i : first_wrong;
      }
    }
    INFO("first wrong output at " << first_wrong);
    CHECK(wrong == 0);
  }
}

template <scan_rung Rung>
void check_rung(const char* name) {
  for (std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{257},
                        std::size_t{511}, std::size_t{512}, std::size_t{513}, std::size_t{4095},
                        std::size_t{4097}, std::size_t{256} * 256 + 1, std::size_t{512} * 512 + 3,
                        (std::size_t{1} << 20) + 7, random_size(1, 3000000)}) {
    check_rung_once<Rung, std::int32_t>(name, n, false);
    check_rung_once<Rung, float>(name, n, false);
  }
  check_rung_once<Rung, std::int32_t>(name, 100003, true);
  check_rung_once<Rung, double>(name, 100003, false);
  check_rung_once<Rung, std::int32_t>(name, (std::size_t{1} << 24) + 1, false);
}

}  // namespace

TEST_CASE("every scan rung computes the inclusive sum", "[ladder][scan][gpu]") {
  check_rung<scan_rung::hillis_steele>("hillis_steele");
  check_rung<scan_rung::blelloch>("blelloch");
  check_rung<scan_rung::blelloch_padded>("blelloch_padded");
  check_rung<scan_rung::warp_shuffle>("warp_shuffle");
  check_rung<scan_rung::reduce_then_scan>("reduce_then_scan");
  check_rung<scan_rung::chained>("chained");
  check_rung<scan_rung::decoupled_lookback>("decoupled_lookback");
}

TEST_CASE("scan rungs reject bad arguments and launch nothing", "[ladder][scan][gpu]") {
  device_buffer buf(4096 * 4);
  auto* p = reinterpret_cast<float*>(buf.data());
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA(
      (gpuprims::ladder::scan_workspace_bytes<scan_rung::blelloch, float>(2000, bytes)));
  CHECK(bytes >= 4 * sizeof(float));
  using gpuprims::ladder::inclusive_scan;
  CHECK(inclusive_scan<scan_rung::blelloch>(p, p + 1, 10, p + 3000, bytes) ==
        cudaErrorInvalidValue);  // overlap
  CHECK(inclusive_scan<scan_rung::blelloch>(p, static_cast<float*>(nullptr), 10, p + 3000, bytes) ==
        cudaErrorInvalidValue);
  CHECK(inclusive_scan<scan_rung::blelloch>(p, p + 2048, 2000, nullptr, bytes) ==
        cudaErrorInvalidValue);
  CHECK(inclusive_scan<scan_rung::chained>(p, p + 2048, 2000, p + 3000, 4) ==
        cudaErrorInvalidValue);  // short workspace
  CHECK(inclusive_scan<scan_rung::hillis_steele>(static_cast<const float*>(nullptr), p, 0, nullptr,
                                                 0) == cudaSuccess);
  GPUPRIMS_CHECK_LAUNCH();
}
