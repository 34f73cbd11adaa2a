// Families "reduce_float" and "reduce_float_max": gpuprims::reduce with the caller's workspace (the
// default) and without a workspace argument, against cub::DeviceReduce::Sum (Max) with its
// temporary storage allocated outside the timing and a cudaMemcpyAsync of the input (bytes read and
// written: the bandwidth a pass can reach). Bytes counted for the reductions: the input, read once.
// The default with a launch for every pass (no pass finished by its last block) beside it. With
// --full: more sizes, the max family, the same passes launched without programmatic dependent
// launch or without the early start of the next pass, and other tile shapes below and above 8 MiB.
#include <gpuprims/device/reduce.cuh>

#include "../reduce_families.cuh"

#include <cstddef>
#include <cstdint>

namespace gpuprims::bench {
namespace {

// The default's policy without programmatic dependent launch: each pass starts only after the one
// before it has finished. The difference to "gpuprims::reduce" is what the dependent launch buys.
struct plain_launch_tuning {
  __host__ __device__ static constexpr reduce_policy select(int arch) {
    reduce_policy p = reduce_tuning::select(arch);
    p.dependent_launch = false;
    return p;
  }
};

// The default's policy with no pass letting the next be scheduled before it ends.
struct late_next_pass_tuning {
  __host__ __device__ static constexpr reduce_policy select(int arch) {
    reduce_policy p = reduce_tuning::select(arch);
    p.early_next_pass_max_tiles = 0;
    return p;
  }
};

// The default's policy with every pass launched (the final one too) instead of the last pass run by
// the last block of the one before: the difference is what the saved launch buys.
struct separate_final_pass_tuning {
  __host__ __device__ static constexpr reduce_policy select(int arch) {
    reduce_policy p = reduce_tuning::select(arch);
    p.last_block_finishes_max_tiles = 0;
    return p;
  }
};

// The default's policy with another tile shape up to 8 MiB (other bits: the shape fixes the order).
template <int Threads, int Words>
struct small_shape_tuning {
  __host__ __device__ static constexpr reduce_policy select(int arch) {
    reduce_policy p = reduce_tuning::select(arch);
    p.small = {Threads, Words};
    return p;
  }
};

// The default's policy with another tile shape above 8 MiB.
template <int Threads, int Words>
struct large_shape_tuning {
  __host__ __device__ static constexpr reduce_policy select(int arch) {
    reduce_policy p = reduce_tuning::select(arch);
    p.large = {Threads, Words};
    return p;
  }
};

template <class Op>
void reduce_no_workspace_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  random_buffer in(n * sizeof(float), 31);
  random_buffer out(sizeof(float), 33);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, n * sizeof(float), [&](cudaStream_t stream) {
    skip_on_error(state, gpuprims::reduce(in.as<float>(), out.as<float>(), n, Op{}, stream));
  });
}

}  // namespace

void register_reduce(const options& opt) {
  const arg_list sizes =
      opt.full ? each({std::int64_t{1} << 16, std::int64_t{1} << 20, std::int64_t{1} << 24,
                       std::int64_t{1} << 28, std::int64_t{1} << 30})
               : each({std::int64_t{1} << 20, std::int64_t{1} << 28});
  add(opt, "reduce_float", "cub::DeviceReduce::Sum", role::baseline, cub_sum_bench<float>, sizes,
      {"n"});
  add(opt, "reduce_float", "cudaMemcpyAsync", role::baseline, copy_input_bench<float>, sizes,
      {"n"});
  add(opt, "reduce_float", "gpuprims::reduce", role::default_, reduce_default_bench<float>, sizes,
      {"n"});
  add(opt, "reduce_float", "gpuprims::reduce_no_workspace", role::variant,
      reduce_no_workspace_bench<plus<float>>, sizes, {"n"});
  add(opt, "reduce_float", "gpuprims::reduce_separate_final_pass", role::variant,
      reduce_default_bench<float, separate_final_pass_tuning>, sizes, {"n"});
  if (opt.full) {
    add(opt, "reduce_float", "gpuprims::reduce_plain_launch", role::variant,
        reduce_default_bench<float, plain_launch_tuning>, sizes, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_late_next_pass", role::variant,
        reduce_default_bench<float, late_next_pass_tuning>, sizes, {"n"});
    const arg_list large = each({std::int64_t{1} << 24, std::int64_t{1} << 28});
    add(opt, "reduce_float", "gpuprims::reduce_large_256x4", role::variant,
        reduce_default_bench<float, large_shape_tuning<256, 4>>, large, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_large_256x8", role::variant,
        reduce_default_bench<float, large_shape_tuning<256, 8>>, large, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_large_1024x4", role::variant,
        reduce_default_bench<float, large_shape_tuning<1024, 4>>, large, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_large_512x2", role::variant,
        reduce_default_bench<float, large_shape_tuning<512, 2>>, large, {"n"});
    const arg_list small = each({std::int64_t{1} << 16, std::int64_t{1} << 20});
    add(opt, "reduce_float", "gpuprims::reduce_small_256x4", role::variant,
        reduce_default_bench<float, small_shape_tuning<256, 4>>, small, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_small_128x8", role::variant,
        reduce_default_bench<float, small_shape_tuning<128, 8>>, small, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_small_512x2", role::variant,
        reduce_default_bench<float, small_shape_tuning<512, 2>>, small, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_small_512x4", role::variant,
        reduce_default_bench<float, small_shape_tuning<512, 4>>, small, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_small_128x4", role::variant,
        reduce_default_bench<float, small_shape_tuning<128, 4>>, small, {"n"});
    add(opt, "reduce_float_max", "cub::DeviceReduce::Max", role::baseline,
        cub_reduce_bench<float, cub_reduce::max>, sizes, {"n"});
    add(opt, "reduce_float_max", "gpuprims::reduce", role::default_,
        reduce_default_bench<float, reduce_tuning, maximum<float>>, sizes, {"n"});
  }
}

}  // namespace gpuprims::bench
