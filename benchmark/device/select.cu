// The compaction family: gpuprims::select_if (the caller's workspace, zeroed once outside the
// timing, and the overload without one) and gpuprims::partition against cub::DeviceSelect::If
// (temporary storage allocated outside the timing) and cudaMemcpyAsync of the same bytes, on random
// int32 bits with half the items kept (the odd ones). Bytes counted: the n items read and the n / 2
// kept ones written (a partition writes all n). --full adds the 2^16..2^30 sweep, tile shapes in
// registers (256 x 24: the default before staged tiles) and other staged shapes.
#include <gpuprims/device/select.cuh>

#include "reduce_families.cuh"
#include "support.cuh"

#include <cub/device/device_select.cuh>

#include <cstddef>
#include <cstdint>

namespace gpuprims::bench {
namespace {

struct is_odd {
  __host__ __device__ bool operator()(const std::int32_t& x) const { return (x & 1) != 0; }
};

// Tiles in registers (256 x 24 at no register cap was the default before staged tiles; at 3 blocks
// an SM it is the default where five staged tiles do not fit an SM's shared memory).
template <int Threads, int Items, int MinBlocks = 1>
struct select_shape_tuning {
  __host__ __device__ static constexpr scan_policy select(int /*arch*/) {
    return {Threads, Items, MinBlocks, true, 8, std::size_t{1} << 21};
  }
};

// Staged tiles of 256 x Items at MinBlocks an SM (SmallStaged: the small shape too).
template <int Items, int MinBlocks, bool SmallStaged = false>
struct select_staged_tuning {
  __host__ __device__ static constexpr scan_policy select(int /*arch*/) {
    return {256, Items, MinBlocks, true, 8, std::size_t{1} << 21, true, MinBlocks, SmallStaged};
  }
};

using item = std::int32_t;

std::size_t select_bytes(std::size_t n) { return (n + n / 2) * sizeof(item); }

// The default with each tile asking the L2 for the tile Ahead after it (0: none).
template <int Ahead>
using select_prefetch_tuning = with_prefetch_tiles<select_tuning, Ahead>;

template <bool Partition, class Tuning = select_tuning>
void select_default_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::size_t bytes = 0;
  random_buffer in(n * sizeof(item), 31);
  device_scratch out(n * sizeof(item)), others(n * sizeof(item)), count(sizeof(std::size_t));
  if (gpuprims::select_workspace_bytes<item, Tuning>(n, bytes) != cudaSuccess || !in.ok() ||
      out.p == nullptr || others.p == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  device_scratch workspace(bytes);
  if (cudaMemset(workspace.p, 0, bytes) != cudaSuccess) {
    state.SkipWithError("workspace");
    return;
  }
  auto* y = static_cast<item*>(out.p);
  auto* c = static_cast<std::size_t*>(count.p);
  time_launches(state, Partition ? 2 * n * sizeof(item) : select_bytes(n), [&](cudaStream_t s) {
    if constexpr (Partition) {
      skip_on_error(state,
                    gpuprims::partition<Tuning>(in.as<item>(), y, static_cast<item*>(others.p), n,
                                                is_odd{}, c, workspace.p, bytes, s));
    } else {
      skip_on_error(state, gpuprims::select_if<Tuning>(in.as<item>(), y, n, is_odd{}, c,
                                                       workspace.p, bytes, s));
    }
  });
}

void select_no_workspace_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  random_buffer in(n * sizeof(item), 31);
  device_scratch out(n * sizeof(item)), count(sizeof(std::size_t));
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  time_launches(state, select_bytes(n), [&](cudaStream_t s) {
    skip_on_error(state, gpuprims::select_if(in.as<item>(), static_cast<item*>(out.p), n, is_odd{},
                                             static_cast<std::size_t*>(count.p), s));
  });
}

void cub_select_bench(benchmark::State& state) {
  const auto n = static_cast<std::int64_t>(state.range(0));
  std::size_t bytes = 0;
  cub::DeviceSelect::If(nullptr, bytes, static_cast<const item*>(nullptr),
                        static_cast<item*>(nullptr), static_cast<std::int64_t*>(nullptr), n,
                        is_odd{});
  device_scratch temp(bytes), count(sizeof(std::int64_t));
  random_buffer in(static_cast<std::size_t>(n) * sizeof(item), 31);
  device_scratch out(static_cast<std::size_t>(n) * sizeof(item));
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, select_bytes(static_cast<std::size_t>(n)), [&](cudaStream_t s) {
    std::size_t b = bytes;
    skip_on_error(state,
                  cub::DeviceSelect::If(temp.p, b, in.as<item>(), static_cast<item*>(out.p),
                                        static_cast<std::int64_t*>(count.p), n, is_odd{}, s));
  });
}

// A copy of the bytes a selection moves: 3n / 4 items read and written.
void copy_select_bytes_bench(benchmark::State& state) {
  time_input_copy<item>(state, static_cast<std::size_t>(state.range(0)) * 3 / 4);
}

}  // namespace

void register_select(const options& opt) {
  const arg_list sizes =
      opt.full ? each({std::int64_t{1} << 16, std::int64_t{1} << 20, std::int64_t{1} << 22,
                       std::int64_t{1} << 23, std::int64_t{1} << 24, std::int64_t{1} << 26,
                       std::int64_t{1} << 28, std::int64_t{1} << 30})
               : each({std::int64_t{1} << 20, std::int64_t{1} << 28});
  const std::string family = "select_int";
  add(opt, family, "cub::DeviceSelect::If", role::baseline, cub_select_bench, sizes, {"n"});
  add(opt, family, "cudaMemcpyAsync", role::baseline, copy_select_bytes_bench, sizes, {"n"});
  add(opt, family, "gpuprims::select_if", role::default_, select_default_bench<false>, sizes,
      {"n"});
  add(opt, family, "gpuprims::select_if_no_workspace", role::variant, select_no_workspace_bench,
      sizes, {"n"});
  add(opt, family, "gpuprims::partition", role::variant, select_default_bench<true>, sizes, {"n"});
  if (opt.full) {
    add(opt, family, "gpuprims::select_if_256x8", role::variant,
        select_default_bench<false, select_shape_tuning<256, 8>>, sizes, {"n"});
    add(opt, family, "gpuprims::select_if_256x16", role::variant,
        select_default_bench<false, select_shape_tuning<256, 16>>, sizes, {"n"});
    add(opt, family, "gpuprims::select_if_256x24", role::variant,
        select_default_bench<false, select_shape_tuning<256, 24>>, sizes, {"n"});
    add(opt, family, "gpuprims::partition_256x24", role::variant,
        select_default_bench<true, select_shape_tuning<256, 24>>, sizes, {"n"});
    add(opt, family, "gpuprims::select_if_staged_256x24_8_blocks", role::variant,
        select_default_bench<false, select_staged_tuning<24, 8>>, sizes, {"n"});
    add(opt, family, "gpuprims::select_if_staged_256x32_6_blocks", role::variant,
        select_default_bench<false, select_staged_tuning<32, 6>>, sizes, {"n"});
    add(opt, family, "gpuprims::select_if_256x24_3_blocks", role::variant,
        select_default_bench<false, select_shape_tuning<256, 24, 3>>, sizes, {"n"});
    add(opt, family, "gpuprims::select_if_small_tiles_staged", role::variant,
        select_default_bench<false, select_staged_tuning<40, 5, true>>, sizes, {"n"});
    // The default's L2 prefetch of the tile 128 ahead: none (the default before 2026-11-27), and
    // half and twice as far.
    add(opt, family, "gpuprims::select_if_no_prefetch", role::variant,
        select_default_bench<false, select_prefetch_tuning<0>>, sizes, {"n"});
    add(opt, family, "gpuprims::select_if_prefetch64", role::variant,
        select_default_bench<false, select_prefetch_tuning<64>>, sizes, {"n"});
    add(opt, family, "gpuprims::select_if_prefetch256", role::variant,
        select_default_bench<false, select_prefetch_tuning<256>>, sizes, {"n"});
    add(opt, family, "gpuprims::partition_no_prefetch", role::variant,
        select_default_bench<true, select_prefetch_tuning<0>>, sizes, {"n"});
    // Tiles prefetching for the first wave too (the default before 2026-11-27, there issued
    // before the tile's own loads).
    add(opt, family, "gpuprims::select_if, first wave prefetched too", role::variant,
        select_default_bench<false, with_prefetch_first_wave<select_tuning, true>>, sizes, {"n"});
  }
}

}  // namespace gpuprims::bench
