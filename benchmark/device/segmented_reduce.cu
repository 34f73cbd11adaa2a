// Families "segmented_float" (segments given by offsets), "segmented_float_random" (random lengths
// of a given mean), "batched_float" (segments of one size), "rows_float_pitched" (rows of one
// length 32 floats apart: reduce_rows with padding) and "cols_float" (the columns of the same 2^28
// floats as a row-major matrix of `cols` columns): 2^28 random floats cut into segments,
// against cub::DeviceSegmentedReduce::Sum (temporary storage allocated outside the timing; the
// fixed-size form through a counting iterator, as CUB 13.0 has no fixed-size overload) and a
// cudaMemcpyAsync of the input (columns: the copy, and a transpose followed by reduce_rows). Bytes
// counted: the input read, the results written and, for offsets, the offsets read (the copy: read
// and written), so every GB/s is a fraction of the same memory's bandwidth.
#include <gpuprims/device/reduce.cuh>
#include <gpuprims/device/segmented_reduce.cuh>
#include <gpuprims/device/transpose.cuh>

#include "../reduce_families.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_segmented_reduce.cuh>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace gpuprims::bench {
namespace {

constexpr std::size_t total_items = std::size_t{1} << 28;

// Offsets of `total_items` items as segments: all of `length`, or (mean > 0) random lengths in
// [0, 2 * mean], the last one cut to fit.
std::vector<int> make_offsets(std::int64_t length, bool random) {
  std::vector<int> offsets{0};
  std::mt19937_64 g(7);
  std::size_t at = 0;
  while (at < total_items) {
    std::size_t l = random ? static_cast<std::size_t>(g() % (2 * length + 1))
                           : static_cast<std::size_t>(length);
    l = l < total_items - at ? l : total_items - at;
    at += l;
    offsets.push_back(static_cast<int>(at));
  }
  return offsets;
}

// Everything one segmented benchmark needs, outside the timing.
struct segmented_setup {
  random_buffer in{total_items * sizeof(float), 31};
  std::vector<int> host_offsets;
  device_scratch offsets;
  std::size_t segments;
  device_scratch out;
  segmented_setup(std::int64_t length, bool random)
      : host_offsets(make_offsets(length, random)),
        offsets(host_offsets.size() * sizeof(int)),
        segments(host_offsets.size() - 1),
        out(segments * sizeof(float)) {
    cudaMemcpy(offsets.p, host_offsets.data(), host_offsets.size() * sizeof(int),
               cudaMemcpyHostToDevice);
  }
  bool ok() const { return in.ok() && offsets.p != nullptr && out.p != nullptr; }
  const int* d_offsets() const { return static_cast<const int*>(offsets.p); }
  float* d_out() const { return static_cast<float*>(out.p); }
  std::size_t bytes(bool with_offsets) const {
    return (total_items + segments) * sizeof(float) +
           (with_offsets ? (segments + 1) * sizeof(int) : 0);
  }
};

enum class source { offsets, random_offsets, fixed };

// i -> i * length: the fixed-size segments' offsets, for CUB.
struct times {
  std::int64_t length;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i * length; }
};

template <source Source>
void cub_segmented_bench(benchmark::State& state) {
  const std::int64_t length = state.range(0);
  segmented_setup s(length, Source == source::random_offsets);
  if (!s.ok()) {
    state.SkipWithError("setup failed");
    return;
  }
  const auto segments = static_cast<std::int64_t>(s.segments);
  const auto starts =
      thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), times{length});
  const auto run = [&](void* temp, std::size_t& bytes, cudaStream_t stream) {
    if constexpr (Source == source::fixed) {
      return cub::DeviceSegmentedReduce::Sum(temp, bytes, s.in.as<float>(), s.d_out(), segments,
                                             starts, starts + 1, stream);
    } else {
      return cub::DeviceSegmentedReduce::Sum(temp, bytes, s.in.as<float>(), s.d_out(), segments,
                                             s.d_offsets(), s.d_offsets() + 1, stream);
    }
  };
  std::size_t bytes = 0;
  run(nullptr, bytes, 0);
  device_scratch temp(bytes);
  time_launches(state, s.bytes(Source != source::fixed), [&](cudaStream_t stream) {
    std::size_t b = bytes;
    skip_on_error(state, run(temp.p, b, stream));
  });
}

// The default policy with another grid of walkers (Blocks blocks), Words 16-byte words per lane
// and group, and a register cap of MinBlocks blocks an SM.
template <unsigned int Blocks, int Words, int MinBlocks>
struct walker_tuning {
  __host__ __device__ static constexpr segmented_reduce_policy select(int arch) {
    segmented_reduce_policy p = segmented_reduce_tuning::select(arch);
    p.blocks = Blocks;
    p.words_per_lane = Words;
    p.min_blocks_per_sm = MinBlocks;
    return p;
  }
};

// The default policy with groups of up to FewEnds ends closing them one by one (0: every group
// with an end scatters its ends and scans the lanes' runs, the walk before few_ends).
template <int FewEnds>
struct few_ends_tuning {
  __host__ __device__ static constexpr segmented_reduce_policy select(int arch) {
    segmented_reduce_policy p = segmented_reduce_tuning::select(arch);
    p.few_ends = FewEnds;
    return p;
  }
};

// The default policy with shares rounded to odd multiples of Unit steps (0: not rounded).
template <unsigned int Unit>
struct range_unit_tuning {
  __host__ __device__ static constexpr segmented_reduce_policy select(int arch) {
    segmented_reduce_policy p = segmented_reduce_tuning::select(arch);
    p.range_unit = Unit;
    return p;
  }
};

template <source Source, class Tuning = segmented_reduce_tuning>
void gpuprims_segmented_bench(benchmark::State& state) {
  const std::int64_t length = state.range(0);
  segmented_setup s(length, Source == source::random_offsets);
  std::size_t bytes = 0;
  if (!s.ok() || gpuprims::segmented_reduce_workspace_bytes<float, Tuning>(bytes) != cudaSuccess) {
    state.SkipWithError("setup failed");
    return;
  }
  device_scratch workspace(bytes);
  time_launches(state, s.bytes(true), [&](cudaStream_t stream) {
    skip_on_error(state, gpuprims::segmented_reduce<Tuning>(
                             s.in.as<float>(), s.d_offsets(), s.d_out(), s.segments, 0.0f,
                             plus<float>{}, workspace.p, bytes, stream));
  });
}

// The library's reduce_rows policy with the fields named by the arguments replaced (`keep`, or 0
// for the ints: the library's value).
constexpr std::size_t keep = ~std::size_t{0};
template <std::size_t TilesMinCols = keep, std::size_t GroupsMinCols = keep,
          std::size_t GroupsMaxCols = keep, int GroupWords = 0, int TileThreads = 0,
          int TileWords = 0, std::size_t PackedMaxCols = keep>
struct rows_variant {
  __host__ __device__ static constexpr reduce_rows_policy select(int arch) {
    reduce_rows_policy p = reduce_rows_tuning::select(arch);
    if (TilesMinCols != keep) {
      p.tiles_min_cols = TilesMinCols;
    }
    if (GroupsMinCols != keep) {
      p.groups_min_cols = GroupsMinCols;
    }
    if (GroupsMaxCols != keep) {
      p.groups_max_cols = GroupsMaxCols;
    }
    if (GroupWords != 0) {
      p.group_words = GroupWords;
    }
    if (TileThreads != 0) {
      p.long_row_tile = {TileThreads, TileWords};
    }
    if (PackedMaxCols != keep) {
      p.packed_max_cols = PackedMaxCols;
    }
    return p;
  }
};
// Without row groups (rows below the tiles' 4096 columns a warp per row, items loaded one by one).
using rows_without_groups = rows_variant<keep, keep, 0>;
// Groups from 4 columns (not measured yet: rows of 4 to 8 items a thread each, 16-byte loads).
using rows_groups_from_4 = rows_variant<keep, 4>;
// At least Words words a lane in a group.
template <int Words>
using rows_group_words = rows_variant<keep, keep, keep, Words>;
// Groups up to 16383 columns and tiles from 16384 (the default before the tiles moved to 4096).
using rows_tiles_from_16384 = rows_variant<16384, keep, 16383>;
// Without tiles (unpadded long rows take the walk, padded ones a block per row).
using rows_without_tiles = rows_variant<0>;
// Tiles of Threads x Words.
template <int Threads, int Words>
using rows_tile_tuning = rows_variant<keep, keep, keep, 0, Threads, Words>;
// Without packed rows (the default before 2026-11-27: rows of 1 to 8 floats a thread each, loaded
// one by one; of 9 to 128 floats in groups of lanes).
using rows_unpacked = rows_variant<keep, keep, keep, 0, 0, 0, 0>;

// 2^28 floats as rows of `length` with `pitched_pad` floats of padding after each.
constexpr std::size_t pitched_pad = 32;

struct row_start {
  std::int64_t pitch;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i * pitch; }
};
struct row_end {
  std::int64_t pitch, length;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i * pitch + length; }
};

void cub_pitched_bench(benchmark::State& state) {
  const auto length = static_cast<std::int64_t>(state.range(0));
  const std::int64_t rows = static_cast<std::int64_t>(total_items) / length;
  const std::int64_t pitch = length + static_cast<std::int64_t>(pitched_pad);
  random_buffer in(static_cast<std::size_t>(rows * pitch) * sizeof(float), 31);
  device_scratch out(static_cast<std::size_t>(rows) * sizeof(float));
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  const auto starts =
      thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), row_start{pitch});
  const auto ends = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                    row_end{pitch, length});
  auto* o = static_cast<float*>(out.p);
  std::size_t bytes = 0;
  cub::DeviceSegmentedReduce::Sum(nullptr, bytes, in.as<float>(), o, rows, starts, ends);
  device_scratch temp(bytes);
  time_launches(state, (total_items + rows) * sizeof(float), [&](cudaStream_t stream) {
    std::size_t b = bytes;
    skip_on_error(state, cub::DeviceSegmentedReduce::Sum(temp.p, b, in.as<float>(), o, rows, starts,
                                                         ends, stream));
  });
}

// 2^28 floats as rows of `length` with `Pad` floats of padding after each: reduce_batched without
// padding, reduce_rows with.
template <std::size_t Pad, class Tuning = reduce_rows_tuning>
void gpuprims_rows_bench(benchmark::State& state) {
  const auto length = static_cast<std::size_t>(state.range(0));
  const std::size_t rows = total_items / length;
  const std::size_t pitch = length + Pad;
  random_buffer in(rows * pitch * sizeof(float), 31);
  device_scratch out(rows * sizeof(float));
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  auto* o = static_cast<float*>(out.p);
  time_launches(state, (total_items + rows) * sizeof(float), [&](cudaStream_t stream) {
    if constexpr (Pad == 0) {
      skip_on_error(state, gpuprims::reduce_batched<Tuning>(in.as<float>(), o, rows, length, 0.0f,
                                                            plus<float>{}, stream));
    } else {
      skip_on_error(state, gpuprims::reduce_rows<Tuning>(in.as<float>(), o, rows, length, pitch,
                                                         0.0f, plus<float>{}, stream));
    }
  });
}
// Column sums of the 2^28 floats as (2^28 / cols) x cols, read in place.
void gpuprims_cols_bench(benchmark::State& state) {
  const auto cols = static_cast<std::size_t>(state.range(0));
  const std::size_t rows = total_items / cols;
  random_buffer in(total_items * sizeof(float), 31);
  device_scratch out(cols * sizeof(float));
  if (!in.ok() || out.p == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  auto* o = static_cast<float*>(out.p);
  time_launches(state, (total_items + cols) * sizeof(float), [&](cudaStream_t stream) {
    skip_on_error(state, gpuprims::reduce_cols(in.as<float>(), o, rows, cols, cols, 0.0f,
                                               plus<float>{}, stream));
  });
}

// The same through a transpose (into a scratch matrix) and reduce_rows: the rung the columns
// kernel replaces.
void transpose_then_rows_bench(benchmark::State& state) {
  const auto cols = static_cast<std::size_t>(state.range(0));
  const std::size_t rows = total_items / cols;
  random_buffer in(total_items * sizeof(float), 31);
  device_scratch transposed(total_items * sizeof(float));
  device_scratch out(cols * sizeof(float));
  if (!in.ok() || transposed.p == nullptr || out.p == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  auto* t = static_cast<float*>(transposed.p);
  auto* o = static_cast<float*>(out.p);
  time_launches(state, (total_items + cols) * sizeof(float), [&](cudaStream_t stream) {
    skip_on_error(state, gpuprims::transpose(in.as<float>(), t, rows, cols, cols, rows, stream));
    skip_on_error(state, gpuprims::reduce_rows(static_cast<const float*>(t), o, cols, rows, rows,
                                               0.0f, plus<float>{}, stream));
  });
}

// The copy of the whole input, whatever the segments.
void copy_all_bench(benchmark::State& state) { time_input_copy<float>(state, total_items); }

}  // namespace

void register_segmented_reduce(const options& opt) {
  std::vector<std::int64_t> lengths;
  for (std::int64_t l = 1; l <= (std::int64_t{1} << 20); l *= opt.full ? 2 : 32) {
    lengths.push_back(l);
  }
  const arg_list fixed = each(lengths);
  const arg_list means = each({8, 1024});
  add(opt, "segmented_float", "cudaMemcpyAsync", role::baseline, copy_all_bench, fixed, {"length"});
  add(opt, "segmented_float", "cub::DeviceSegmentedReduce::Sum", role::baseline,
      cub_segmented_bench<source::offsets>, fixed, {"length"});
  add(opt, "segmented_float", "gpuprims::segmented_reduce", role::default_,
      gpuprims_segmented_bench<source::offsets>, fixed, {"length"});
  add(opt, "segmented_float_random", "cudaMemcpyAsync", role::baseline, copy_all_bench, means,
      {"mean"});
  add(opt, "segmented_float_random", "cub::DeviceSegmentedReduce::Sum", role::baseline,
      cub_segmented_bench<source::random_offsets>, means, {"mean"});
  add(opt, "segmented_float_random", "gpuprims::segmented_reduce", role::default_,
      gpuprims_segmented_bench<source::random_offsets>, means, {"mean"});
  add(opt, "batched_float", "cudaMemcpyAsync", role::baseline, copy_all_bench, fixed, {"length"});
  add(opt, "batched_float", "cub::DeviceSegmentedReduce::Sum", role::baseline,
      cub_segmented_bench<source::fixed>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched", role::default_, gpuprims_rows_bench<0>,
      fixed, {"length"});
  const arg_list long_rows =
      each(opt.full ? std::vector<std::int64_t>{1024, 16384, 32768, std::int64_t{1} << 20}
                    : std::vector<std::int64_t>{32768});
  add(opt, "rows_float_pitched", "cudaMemcpyAsync", role::baseline, copy_all_bench, long_rows,
      {"length"});
  add(opt, "rows_float_pitched", "cub::DeviceSegmentedReduce::Sum", role::baseline,
      cub_pitched_bench, long_rows, {"length"});
  add(opt, "rows_float_pitched", "gpuprims::reduce_rows", role::default_,
      gpuprims_rows_bench<pitched_pad>, long_rows, {"length"});
  const arg_list widths = each({1, 32, 1024, 32768, std::int64_t{1} << 20});
  add(opt, "cols_float", "cudaMemcpyAsync", role::baseline, copy_all_bench, widths, {"cols"});
  add(opt, "cols_float", "gpuprims::reduce_cols", role::default_, gpuprims_cols_bench, widths,
      {"cols"});
  add(opt, "cols_float", "transpose+reduce_rows", role::variant, transpose_then_rows_bench, widths,
      {"cols"});
  if (!opt.full) {
    return;
  }
  // Long rows without tiles (the walk, a block per row), and other tiles.
  add(opt, "batched_float", "gpuprims::reduce_batched_warp_or_block", role::variant,
      gpuprims_rows_bench<0, rows_without_groups>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched_groups_from_4", role::variant,
      gpuprims_rows_bench<0, rows_groups_from_4>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched_unpacked", role::variant,
      gpuprims_rows_bench<0, rows_unpacked>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched_group_words1", role::variant,
      gpuprims_rows_bench<0, rows_group_words<1>>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched_group_words2", role::variant,
      gpuprims_rows_bench<0, rows_group_words<2>>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched_group_words8", role::variant,
      gpuprims_rows_bench<0, rows_group_words<8>>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched_tiles_from_16384", role::variant,
      gpuprims_rows_bench<0, rows_tiles_from_16384>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched_walk", role::variant,
      gpuprims_rows_bench<0, rows_without_tiles>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched_tiles_256x8", role::variant,
      gpuprims_rows_bench<0, rows_tile_tuning<256, 8>>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched_tiles_512x8", role::variant,
      gpuprims_rows_bench<0, rows_tile_tuning<512, 8>>, fixed, {"length"});
  add(opt, "batched_float", "gpuprims::reduce_batched_tiles_1024x4", role::variant,
      gpuprims_rows_bench<0, rows_tile_tuning<1024, 4>>, fixed, {"length"});
  add(opt, "rows_float_pitched", "gpuprims::reduce_rows_without_tiles", role::variant,
      gpuprims_rows_bench<pitched_pad, rows_without_tiles>, long_rows, {"length"});
  // Other grids of walkers, words per lane and register caps.
  add(opt, "segmented_float", "gpuprims::segmented_reduce_words1", role::variant,
      gpuprims_segmented_bench<source::offsets, walker_tuning<512, 1, 2>>, fixed, {"length"});
  add(opt, "segmented_float", "gpuprims::segmented_reduce_words2", role::variant,
      gpuprims_segmented_bench<source::offsets, walker_tuning<512, 2, 2>>, fixed, {"length"});
  add(opt, "segmented_float", "gpuprims::segmented_reduce_words8", role::variant,
      gpuprims_segmented_bench<source::offsets, walker_tuning<512, 8, 2>>, fixed, {"length"});
  add(opt, "segmented_float", "gpuprims::segmented_reduce_blocks1024", role::variant,
      gpuprims_segmented_bench<source::offsets, walker_tuning<1024, 4, 2>>, fixed, {"length"});
  add(opt, "segmented_float", "gpuprims::segmented_reduce_min3", role::variant,
      gpuprims_segmented_bench<source::offsets, walker_tuning<512, 4, 3>>, fixed, {"length"});
  // Groups with ends: every one scanned, or up to 1, 4 or 8 ends closed one by one.
  add(opt, "segmented_float", "gpuprims::segmented_reduce_few_ends0", role::variant,
      gpuprims_segmented_bench<source::offsets, few_ends_tuning<0>>, fixed, {"length"});
  add(opt, "segmented_float_random", "gpuprims::segmented_reduce_few_ends0", role::variant,
      gpuprims_segmented_bench<source::random_offsets, few_ends_tuning<0>>, means, {"mean"});
  add(opt, "segmented_float", "gpuprims::segmented_reduce_few_ends1", role::variant,
      gpuprims_segmented_bench<source::offsets, few_ends_tuning<1>>, fixed, {"length"});
  add(opt, "segmented_float", "gpuprims::segmented_reduce_few_ends4", role::variant,
      gpuprims_segmented_bench<source::offsets, few_ends_tuning<4>>, fixed, {"length"});
  add(opt, "segmented_float", "gpuprims::segmented_reduce_few_ends8", role::variant,
      gpuprims_segmented_bench<source::offsets, few_ends_tuning<8>>, fixed, {"length"});
  add(opt, "segmented_float_random", "gpuprims::segmented_reduce_few_ends4", role::variant,
      gpuprims_segmented_bench<source::random_offsets, few_ends_tuning<4>>, means, {"mean"});
  add(opt, "segmented_float", "gpuprims::segmented_reduce_range_unit0", role::variant,
      gpuprims_segmented_bench<source::offsets, range_unit_tuning<0>>, fixed, {"length"});
}

}  // namespace gpuprims::bench
