// Families "reduce_float" and "reduce_float_max": gpuprims::reduce with the caller's workspace (the
// default) and without a workspace argument (each batch timed beside one of the workspace call:
// its `ratio`), against cub::DeviceReduce::Sum (Max) with its temporary storage allocated outside
// the timing and a cudaMemcpyAsync of the input (bytes read and written: the bandwidth a pass can
// reach). Bytes counted for the reductions: the input, read once. The default with a launch for
// every pass (no pass finished by its last block) beside it. With --full: more sizes, the max
// family, the same passes launched without programmatic dependent launch or without the early
// start of the next pass, other tile shapes below and above 8 MiB, and the floors: at 2^16 and
// 2^20 an empty kernel and the small tiles read (nothing summed), from 2^24 up the large tiles read
// and the default's first pass alone (its partials left unreduced).
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

// The default's policy with the pass that writes the result not letting the next kernel in early:
// the difference is what that overlap buys a batch of calls.
struct last_pass_waits_tuning {
  __host__ __device__ static constexpr reduce_policy select(int arch) {
    reduce_policy p = reduce_tuning::select(arch);
    p.last_pass_signals = false;
    return p;
  }
};

// The default's policy with every pass of the large shape launched, the final one too (the old
// default): 2^21 to 2^24 floats in two launches instead of one.
struct large_pass_launched_tuning {
  __host__ __device__ static constexpr reduce_policy select(int arch) {
    reduce_policy p = reduce_tuning::select(arch);
    p.large_pass_finishes_max_tiles = 0;
    return p;
  }
};

// The default's policy with every partial in its own buffer and its mark released after it, as
// before partials travelled in their marks: the difference is what the packing buys.
struct unpacked_marks_tuning {
  __host__ __device__ static constexpr reduce_policy select(int arch) {
    reduce_policy p = reduce_tuning::select(arch);
    p.partials_in_marks = false;
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

// The floor under the same timing: a kernel that reads nothing, and one whose blocks read a tile
// of Threads x Words 16-byte words each (the default's small tiles, 256 x 8, or its large ones,
// 512 x 4: 32 KiB) and keep the sum in a register (one store that never happens keeps the loads):
// a reduction of n items in those tiles costs at least the second, and no call in this harness
// costs less than the first.
__global__ void empty_kernel() { detail::wait_for_prior_grids(); }

template <int Threads, int Words>
__global__ void __launch_bounds__(Threads)
    read_tiles_kernel(const float4* in, std::size_t words, float* out) {
  detail::wait_for_prior_grids();
  float sum = 0;
  const std::size_t first = blockIdx.x * std::size_t{Threads * Words} + threadIdx.x;
  float4 v[Words];
#pragma unroll
  for (int k = 0; k < Words; ++k) {
    const std::size_t i = first + std::size_t{Threads} * k;
    v[k] = i < words ? in[i] : float4{0, 0, 0, 0};
  }
#pragma unroll
  for (int k = 0; k < Words; ++k) {
    sum += v[k].x + v[k].y + v[k].z + v[k].w;
  }
  if (sum == -1.0f) {  // random inputs: practically never
    out[0] = sum;
  }
}

// Launched as the library launches (programmatic dependent launch where the device has it), or
// plainly; Words == 0: the empty kernel.
template <int Threads, int Words, bool Dependent>
void launch_floor_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  random_buffer in(n * sizeof(float), 31);
  random_buffer out(sizeof(float), 33);
  detail::device_facts facts;
  if (!in.ok() || !out.ok() || detail::current_device_facts(facts) != cudaSuccess) {
    state.SkipWithError("allocation or device query failed");
    return;
  }
  const bool dependent = detail::dependent_launch(Dependent, facts);
  const std::size_t words = n / 4;
  time_launches(state, n * sizeof(float), [&](cudaStream_t stream) {
    if constexpr (Words > 0) {
      const auto blocks = static_cast<unsigned int>(detail::ceil_div(words, Threads * Words));
      skip_on_error(state,
                    detail::launch<read_tiles_kernel<Threads, Words>>(
                        dim3(blocks), dim3(Threads), stream, dependent,
                        reinterpret_cast<const float4*>(in.as<float>()), words, out.as<float>()));
    } else {
      skip_on_error(state, detail::launch<empty_kernel>(dim3(1), dim3(32), stream, dependent));
    }
  });
}

// The default's first pass alone, launched as the library launches it: it writes its partials and
// ends (nothing reduces them). What a call costs beyond it is the hand-off of the partials and
// their reduction: a pass, or the first pass's last block finishing.
void first_pass_floor_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::size_t bytes = 0;
  random_buffer in(n * sizeof(float), 31);
  random_buffer out(sizeof(float), 33);
  detail::device_facts facts;
  if (gpuprims::reduce_workspace_bytes<float, float>(n, bytes) != cudaSuccess || !in.ok() ||
      !out.ok() || detail::current_device_facts(facts) != cudaSuccess) {
    state.SkipWithError("setup failed");
    return;
  }
  device_scratch workspace(bytes);
  const reduce_policy p = reduce_tuning::select(facts.target_arch);
  const bool dependent = detail::dependent_launch(p.dependent_launch, facts);
  time_launches(state, n * sizeof(float), [&](cudaStream_t stream) {
    std::size_t tiles = 0;
    bool finished = false;
    skip_on_error(
        state, detail::launch_reduce_pass<reduce_tuning>(
                   p, dependent, in.as<float>(), n, static_cast<float*>(workspace.p),
                   out.as<float>(), 0.0f, plus<float>{}, nullptr, 0ull, stream, tiles, finished));
  });
}

// The call without a workspace, each batch timed beside a batch of the workspace call
// (time_launches_paired): `ratio` is the cost of the easy call, measured where both see the same
// host and GPU.
template <class Op>
void reduce_no_workspace_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::size_t bytes = 0;
  random_buffer in(n * sizeof(float), 31);
  random_buffer out(sizeof(float), 33);
  if (gpuprims::reduce_workspace_bytes<float, float>(n, bytes) != cudaSuccess || !in.ok() ||
      !out.ok()) {
    state.SkipWithError("setup failed");
    return;
  }
  device_scratch workspace(bytes);
  time_launches_paired(
      state, n * sizeof(float),
      [&](cudaStream_t stream) {
        skip_on_error(state, gpuprims::reduce(in.as<float>(), out.as<float>(), n, Op{}, stream));
      },
      [&](cudaStream_t stream) {
        skip_on_error(state, gpuprims::reduce(in.as<float>(), out.as<float>(), n, Op{}, workspace.p,
                                              bytes, stream));
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
    add(opt, "reduce_float", "gpuprims::reduce_large_pass_launched", role::variant,
        reduce_default_bench<float, large_pass_launched_tuning>, sizes, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_unpacked_marks", role::variant,
        reduce_default_bench<float, unpacked_marks_tuning>, sizes, {"n"});
    // Between the shapes: 2^21 floats is the last size the small tiles take (256 tiles, the
    // small passes' finishing limit), 2^22 and 2^23 the large shape's 512 and 1024 tiles.
    const arg_list middle =
        each({std::int64_t{1} << 21, std::int64_t{1} << 22, std::int64_t{1} << 23});
    add(opt, "reduce_float", "cub::DeviceReduce::Sum", role::baseline, cub_sum_bench<float>, middle,
        {"n"});
    add(opt, "reduce_float", "gpuprims::reduce", role::default_, reduce_default_bench<float>,
        middle, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_unpacked_marks", role::variant,
        reduce_default_bench<float, unpacked_marks_tuning>, middle, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_large_pass_launched", role::variant,
        reduce_default_bench<float, large_pass_launched_tuning>, middle, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_last_pass_waits", role::variant,
        reduce_default_bench<float, last_pass_waits_tuning>, sizes, {"n"});
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
    add(opt, "reduce_float", "floor: an empty kernel", role::variant,
        launch_floor_bench<32, 0, true>, small, {"n"});
    add(opt, "reduce_float", "floor: an empty kernel, plain launch", role::variant,
        launch_floor_bench<32, 0, false>, small, {"n"});
    add(opt, "reduce_float", "floor: the tiles read, no sum", role::variant,
        launch_floor_bench<256, 8, true>, small, {"n"});
    // Above the small shape: the large tiles read, and the first pass alone (its partials left
    // unreduced). A call's time above the first is the reduction; above the second, the hand-off.
    const arg_list above =
        each({std::int64_t{1} << 24, std::int64_t{1} << 28, std::int64_t{1} << 30});
    add(opt, "reduce_float", "floor: the large tiles read, no sum", role::variant,
        launch_floor_bench<512, 4, true>, above, {"n"});
    add(opt, "reduce_float", "floor: the first pass alone", role::variant, first_pass_floor_bench,
        above, {"n"});
    add(opt, "reduce_float_max", "cub::DeviceReduce::Max", role::baseline,
        cub_reduce_bench<float, cub_reduce::max>, sizes, {"n"});
    add(opt, "reduce_float_max", "gpuprims::reduce", role::default_,
        reduce_default_bench<float, reduce_tuning, maximum<float>>, sizes, {"n"});
  }
}

}  // namespace gpuprims::bench
