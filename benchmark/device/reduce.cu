// Family "reduce_float": gpuprims::reduce (the default, caller's workspace) against
// cub::DeviceReduce::Sum with its temporary storage allocated outside the timing. Bytes counted:
// the input, read once. With --full: more sizes, the same kernel launched without programmatic
// dependent launch (a tuning), and the stream-ordered overload, whose workspace allocation is part
// of each call.
#include <gpuprims/device/reduce.cuh>

#include "../reduce_families.cuh"

#include <cstddef>
#include <cstdint>

namespace gpuprims::bench {
namespace {

// The default's policy without programmatic dependent launch: each call starts only after the one
// before it has finished. The difference to "gpuprims::reduce" is what the dependent launch buys.
struct plain_launch_tuning {
  __host__ __device__ static constexpr reduce_policy select(int arch) {
    reduce_policy p = reduce_tuning::select(arch);
    p.dependent_launch = false;
    return p;
  }
};

void reduce_stream_ordered_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  random_buffer in(n * sizeof(float), 31);
  random_buffer out(sizeof(float), 33);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, n * sizeof(float), [&](cudaStream_t stream) {
    skip_on_error(state, gpuprims::reduce(in.as<float>(), out.as<float>(), n, 0.0f,
                                          gpuprims::plus<float>{}, stream));
  });
}

}  // namespace

void register_reduce(const options& opt) {
  const arg_list sizes = opt.full ? each({std::int64_t{1} << 16, std::int64_t{1} << 20,
                                          std::int64_t{1} << 24, std::int64_t{1} << 28})
                                  : each({std::int64_t{1} << 20, std::int64_t{1} << 28});
  add(opt, "reduce_float", "cub::DeviceReduce::Sum", role::baseline, cub_sum_bench<float>, sizes,
      {"n"});
  add(opt, "reduce_float", "gpuprims::reduce", role::default_, reduce_default_bench<float>, sizes,
      {"n"});
  if (opt.full) {
    add(opt, "reduce_float", "gpuprims::reduce_plain_launch", role::variant,
        reduce_default_bench<float, plain_launch_tuning>, sizes, {"n"});
    add(opt, "reduce_float", "gpuprims::reduce_stream_ordered", role::variant,
        reduce_stream_ordered_bench, sizes, {"n"});
  }
}

}  // namespace gpuprims::bench
