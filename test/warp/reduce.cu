// warp_reduce on its own: one warp per block, lanes [0, valid) contribute, the rest pass poison;
// every lane count that matters, and a non-commutative operator.
#include <gpuprims/warp/reduce.cuh>

#include "support/reduce_check.cuh"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gpuprims::test {

template <class Op>
__global__ void warp_reduce_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                                   int valid) {
  using T = typename Op::value_type;
  const int lane = static_cast<int>(threadIdx.x);
  const T x = lane < valid ? in[blockIdx.x * 32 + lane] : poison<T>();
  const T total = gpuprims::warp_reduce(x, Op{}, valid);
  if (lane == 0) {
    out[blockIdx.x] = total;
  }
}

}  // namespace gpuprims::test

namespace {

using namespace gpuprims::test;

template <class Op, class Gen>
void check_warp_reduce(const std::string& name, Gen gen) {
  using T = typename Op::value_type;
  constexpr int warps = 5;
  for (int valid : {1, 2, 7, 31, 32}) {
    INFO(name << ", valid = " << valid);
    std::vector<T> items(warps * 32);
    for (T& x : items) {
      x = gen();
    }
    device_buffer in(items.size() * sizeof(T)), out(warps * sizeof(T));
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(in.data(), items.data(), items.size() * sizeof(T), cudaMemcpyHostToDevice));
    out.poison();
    warp_reduce_kernel<Op><<<warps, 32>>>(reinterpret_cast<const T*>(in.data()),
                                          reinterpret_cast<T*>(out.data()), valid);
    GPUPRIMS_CHECK_LAUNCH();
    std::vector<T> got(warps);
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(got.data(), out.data(), warps * sizeof(T), cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; ++w) {
      CHECK(matches<Op>(got[w], items, static_cast<std::size_t>(w) * 32,
                        static_cast<std::size_t>(valid)));
    }
  }
}

}  // namespace

TEST_CASE("warp_reduce combines lanes [0, valid) in lane order", "[reduce][warp][gpu]") {
  std::mt19937_64& g = rng();
  check_warp_reduce<gpuprims::plus<std::int32_t>>(
      "int32 plus", [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; });
  check_warp_reduce<affine_op>("affine composition (not commutative)", [&g] {
    return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
  });
}
