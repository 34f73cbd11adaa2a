// The reduction ladder (--full only): "reduce_ladder_int" (2^22 ints, the notes' table) and
// "reduce_ladder_float" (2^28 floats), each rung of the notes driven device-wide the notes' way
// (ladder::reduce: one launch per level, partials in between), then gpuprims::reduce and CUB. The
// integer family checks every rung's sum against gpuprims::reduce before it is timed (integer sums
// do not depend on the order), so a rung that computes the wrong thing reports an error, not a
// time.
#include <gpuprims/ladder/reduce.cuh>

#include "../reduce_families.cuh"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace gpuprims::bench {
namespace {

using gpuprims::ladder::reduce_rung;

template <reduce_rung Rung, class T>
void ladder_bench(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::size_t bytes = gpuprims::ladder::reduce_workspace_bytes<T>(n);
  random_buffer in(n * sizeof(T), 31);
  random_buffer scratch(bytes + 2 * sizeof(T), 32);
  if (!in.ok() || !scratch.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  T* out = scratch.as<T>() + bytes / sizeof(T);
  auto run = [&](cudaStream_t stream) {
    return gpuprims::ladder::reduce<Rung>(in.as<T>(), out, n, scratch.as<void>(), bytes, stream);
  };
  if constexpr (std::is_integral_v<T>) {
    T* expected = out + 1;
    T got = 0, want = 1;
    if (run(0) != cudaSuccess ||
        gpuprims::reduce(in.as<T>(), expected, n, T(0), gpuprims::plus<T>{}, cudaStream_t{0}) !=
            cudaSuccess ||
        cudaMemcpy(&got, out, sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(&want, expected, sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess ||
        got != want) {
      state.SkipWithError("the rung's sum differs from gpuprims::reduce's");
      return;
    }
  }
  time_launches(state, n * sizeof(T),
                [&](cudaStream_t stream) { skip_on_error(state, run(stream)); });
}

template <class T>
void add_ladder(const options& opt, const std::string& family, std::int64_t n) {
  auto one = [&](const char* name, void (*fn)(benchmark::State&), role r = role::variant) {
    add(opt, family, name, r, fn, each({n}), {"n"});
  };
  one("reduce0_interleaved_modulo", ladder_bench<reduce_rung::reduce0_interleaved_modulo, T>);
  one("reduce1_interleaved_strided", ladder_bench<reduce_rung::reduce1_interleaved_strided, T>);
  one("reduce2_sequential", ladder_bench<reduce_rung::reduce2_sequential, T>);
  one("reduce3_first_add_during_load", ladder_bench<reduce_rung::reduce3_first_add_during_load, T>);
  one("reduce4_unrolled_last_warp", ladder_bench<reduce_rung::reduce4_unrolled_last_warp, T>);
  one("reduce5_complete_unroll", ladder_bench<reduce_rung::reduce5_complete_unroll, T>);
  one("reduce6_cascading", ladder_bench<reduce_rung::reduce6_cascading, T>);
  one("warp_shuffle_cascading", ladder_bench<reduce_rung::warp_shuffle_cascading, T>);
  one("gpuprims::reduce", reduce_default_bench<T>, role::default_);
  one("cub::DeviceReduce::Sum", cub_sum_bench<T>, role::baseline);
}

}  // namespace

void register_reduce_ladder(const options& opt) {
  if (!opt.full) {
    return;
  }
  add_ladder<int>(opt, "reduce_ladder_int", std::int64_t{1} << 22);
  add_ladder<float>(opt, "reduce_ladder_float", std::int64_t{1} << 28);
}

}  // namespace gpuprims::bench
