// The scan ladder (--full only): "scan_ladder_int" (2^24 ints) and "scan_ladder_float" (2^28
// floats), each rung as a device-wide inclusive sum (ladder::inclusive_scan), then
// cub::DeviceScan::InclusiveSum and a copy of the same bytes. Bytes counted: 2n items, what a scan
// must move (the multi-pass rungs move more: that is what they cost). The integer family checks
// each rung's last output against gpuprims::inclusive_scan's before it is timed.
#include <gpuprims/ladder/scan.cuh>

#include "../reduce_families.cuh"
#include "../support.cuh"

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace gpuprims::bench {
namespace {

using gpuprims::ladder::scan_rung;

template <scan_rung Rung, class T>
void scan_ladder_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::size_t bytes = 0;
  if (gpuprims::ladder::scan_workspace_bytes<Rung, T>(n, bytes) != cudaSuccess) {
    state.SkipWithError("workspace size");
    return;
  }
  random_buffer in(n * sizeof(T), 31);
  device_scratch out(n * sizeof(T)), ws(bytes), check(n * sizeof(T));
  if (!in.ok() || out.p == nullptr || ws.p == nullptr || check.p == nullptr ||
      cudaMemset(ws.p, 0, bytes) != cudaSuccess) {
    state.SkipWithError("allocation failed");
    return;
  }
  auto* y = static_cast<T*>(out.p);
  auto run = [&](cudaStream_t s) {
    return gpuprims::ladder::inclusive_scan<Rung>(in.as<T>(), y, n, ws.p, bytes, s);
  };
  if constexpr (std::is_integral_v<T>) {
    T got = 0, want = 1;
    if (run(0) != cudaSuccess ||
        gpuprims::inclusive_scan(in.as<T>(), static_cast<T*>(check.p), n, plus<T>{},
                                 cudaStream_t{0}) != cudaSuccess ||
        cudaMemcpy(&got, y + n - 1, sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(&want, static_cast<T*>(check.p) + n - 1, sizeof(T), cudaMemcpyDeviceToHost) !=
            cudaSuccess ||
        got != want) {
      state.SkipWithError("the rung's last output differs from gpuprims::inclusive_scan's");
      return;
    }
  }
  time_launches(state, 2 * n * sizeof(T), [&](cudaStream_t s) { skip_on_error(state, run(s)); });
}

template <class T>
void cub_inclusive_sum_bench(benchmark::State& state) {
  const auto n = static_cast<std::int64_t>(state.range(0));
  std::size_t bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const T*>(nullptr),
                                static_cast<T*>(nullptr), n);
  device_scratch temp(bytes), out(static_cast<std::size_t>(n) * sizeof(T));
  random_buffer in(static_cast<std::size_t>(n) * sizeof(T), 31);
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, 2 * static_cast<std::size_t>(n) * sizeof(T), [&](cudaStream_t s) {
    std::size_t b = bytes;
    skip_on_error(
        state, cub::DeviceScan::InclusiveSum(temp.p, b, in.as<T>(), static_cast<T*>(out.p), n, s));
  });
}

template <class T>
void add_scan_ladder(const options& opt, const std::string& family, std::int64_t n) {
  auto one = [&](const char* name, void (*fn)(benchmark::State&), role r = role::variant) {
    add(opt, family, name, r, fn, each({n}), {"n"});
  };
  one("hillis_steele", scan_ladder_bench<scan_rung::hillis_steele, T>);
  one("blelloch", scan_ladder_bench<scan_rung::blelloch, T>);
  one("blelloch_padded", scan_ladder_bench<scan_rung::blelloch_padded, T>);
  one("warp_shuffle", scan_ladder_bench<scan_rung::warp_shuffle, T>);
  one("reduce_then_scan", scan_ladder_bench<scan_rung::reduce_then_scan, T>);
  one("chained", scan_ladder_bench<scan_rung::chained, T>);
  one("decoupled_lookback", scan_ladder_bench<scan_rung::decoupled_lookback, T>, role::default_);
  one("cub::DeviceScan::InclusiveSum", cub_inclusive_sum_bench<T>, role::baseline);
  one("cudaMemcpyAsync", copy_input_bench<T>, role::baseline);
}

}  // namespace

void register_scan_ladder(const options& opt) {
  if (!opt.full) {
    return;
  }
  add_scan_ladder<std::int32_t>(opt, "scan_ladder_int", std::int64_t{1} << 24);
  add_scan_ladder<float>(opt, "scan_ladder_float", std::int64_t{1} << 28);
}

}  // namespace gpuprims::bench
