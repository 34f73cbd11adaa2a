// The scan family: gpuprims::inclusive_scan (the caller's workspace, zeroed once outside the
// timing, and the overload without one) against cub::DeviceScan::InclusiveSum (temporary storage
// allocated outside the timing) and cudaMemcpyAsync of the same bytes (a scan reads n and writes
// n, as a copy does), for int32 and float; the default also timed batch by batch beside CUB (its
// `ratio`). Bytes counted: 2n items. --full adds the 2^16..2^30 sweep and tile shapes.
#include <gpuprims/device/scan.cuh>

#include "reduce_families.cuh"
#include "scan_families.cuh"
#include "support.cuh"

#include <cstddef>
#include <cstdint>

namespace gpuprims::bench {
namespace {

template <int Threads, int Items, int MinBlocks = 1, bool Staged = false, int BeforeRegisters = 0>
struct scan_shape_tuning {
  __host__ __device__ static constexpr scan_policy select(int /*arch*/) {
    return {Threads, Items, MinBlocks, true, 0, 0, Staged, 0, false, BeforeRegisters};
  }
};

// The default with its small-input shape staged too (the default before it went back to
// registers).
struct small_staged_tuning {
  __host__ __device__ static constexpr scan_policy select(int arch) {
    scan_policy p = scan_tuning::select(arch);
    p.small_staged = p.staged;
    return p;
  }
};

// The default with each tile asking the L2 for the tile Ahead after it (0: none).
template <int Ahead>
using prefetch_tuning = with_prefetch_tiles<scan_tuning, Ahead>;

template <class T>
void scan_no_workspace_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  random_buffer in(n * sizeof(T), 31);
  device_scratch out(n * sizeof(T));
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  time_launches(state, 2 * n * sizeof(T), [&](cudaStream_t stream) {
    skip_on_error(
        state, gpuprims::inclusive_scan(in.as<T>(), static_cast<T*>(out.p), n, plus<T>{}, stream));
  });
}

template <class T>
void register_scan_family(const options& opt, const std::string& family) {
  const arg_list sizes =
      opt.full ? each({std::int64_t{1} << 16, std::int64_t{1} << 20, std::int64_t{1} << 22,
                       std::int64_t{1} << 23, std::int64_t{1} << 24, std::int64_t{1} << 26,
                       std::int64_t{1} << 28, std::int64_t{1} << 30})
               : each({std::int64_t{1} << 20, std::int64_t{1} << 28});
  add(opt, family, "cub::DeviceScan::InclusiveSum", role::baseline, cub_scan_bench<T>, sizes,
      {"n"});
  add(opt, family, "cudaMemcpyAsync", role::baseline, copy_input_bench<T>, sizes, {"n"});
  add(opt, family, "gpuprims::inclusive_scan", role::default_, scan_default_bench<T>, sizes, {"n"});
  add(opt, family, "gpuprims::inclusive_scan_no_workspace", role::variant,
      scan_no_workspace_bench<T>, sizes, {"n"});
  add(opt, family, "gpuprims::inclusive_scan, timed beside CUB", role::variant,
      scan_default_bench<T, scan_tuning, true>, sizes, {"n"});
  if (opt.full) {
    add(opt, family, "gpuprims::inclusive_scan_128x16", role::variant,
        scan_default_bench<T, scan_shape_tuning<128, 16>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_256x8", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 8>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_256x24", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 24>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_512x16", role::variant,
        scan_default_bench<T, scan_shape_tuning<512, 16>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan, small tiles staged", role::variant,
        scan_default_bench<T, small_staged_tuning>, sizes, {"n"});
    // Staged tiles at other residencies and shapes (the variants above keep theirs in registers;
    // 256x24 and 256x8 in registers were the default before staging).
    add(opt, family, "gpuprims::inclusive_scan_staged_256x24_min7", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 24, 7, true>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_staged_256x16_min8", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 16, 8, true>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_staged_256x32_min6", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 32, 6, true>>, sizes, {"n"});
    // Staged tiles at 8 blocks an SM: 256 x 20 with every `before` in shared memory (the default
    // before 2026-11-27), and with the first words' `before` in registers (the rest in shared
    // memory).
    add(opt, family, "gpuprims::inclusive_scan_staged_256x20_min8", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 20, 8, true>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_staged_256x20_min8_before2", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 20, 8, true, 2>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_staged_256x20_min8_before5", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 20, 8, true, 5>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_staged_256x24_min8_before3", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 24, 8, true, 3>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_staged_256x24_min8_before4", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 24, 8, true, 4>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_staged_256x24_min8_before6", role::variant,
        scan_default_bench<T, scan_shape_tuning<256, 24, 8, true, 6>>, sizes, {"n"});
    // The default's L2 prefetch of the tile 128 ahead: none (the default before 2026-11-27), and
    // half and twice as far.
    add(opt, family, "gpuprims::inclusive_scan_no_prefetch", role::variant,
        scan_default_bench<T, prefetch_tuning<0>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_prefetch64", role::variant,
        scan_default_bench<T, prefetch_tuning<64>>, sizes, {"n"});
    add(opt, family, "gpuprims::inclusive_scan_prefetch256", role::variant,
        scan_default_bench<T, prefetch_tuning<256>>, sizes, {"n"});
    // The large shape's stores plain (the default before 2026-11-29: evict-first since).
    add(opt, family, "gpuprims::inclusive_scan, plain stores", role::variant,
        scan_default_bench<T, with_streaming_stores<scan_tuning, false>>, sizes, {"n"});
    // Tiles prefetching for the first wave too (the default before 2026-11-28, there issued as
    // the tile started, before its own loads).
    add(opt, family, "gpuprims::inclusive_scan, first wave prefetched too", role::variant,
        scan_default_bench<T, with_prefetch_first_wave<scan_tuning, true>>, sizes, {"n"});
  }
}

}  // namespace

void register_scan(const options& opt) {
  register_scan_family<std::int32_t>(opt, "scan_int");
  register_scan_family<float>(opt, "scan_float");
}

}  // namespace gpuprims::bench
