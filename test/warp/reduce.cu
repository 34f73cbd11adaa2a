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

// Every lane writes its group's result: groups of Lanes consecutive lanes.
template <int Lanes, class Op>
__global__ void logical_warp_reduce_kernel(const typename Op::value_type* in,
                                           typename Op::value_type* out) {
  const std::size_t i = blockIdx.x * std::size_t{32} + threadIdx.x;
  out[i] = gpuprims::logical_warp_reduce<Lanes>(in[i], Op{});
}

}  // namespace gpuprims::test

namespace {

using namespace gpuprims::test;

// Every lane of every group of Lanes gets the group's fold in lane order.
template <int Lanes, class Op, class Gen>
void check_logical_warp_reduce(const std::string& name, Gen gen) {
  using T = typename Op::value_type;
  constexpr int warps = 3;
  INFO(name << ", Lanes = " << Lanes);
  std::vector<T> items(warps * 32);
  for (T& x : items) {
    x = gen();
  }
  device_buffer in(items.size() * sizeof(T)), out(items.size() * sizeof(T));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), items.data(), items.size() * sizeof(T), cudaMemcpyHostToDevice));
  out.poison();
  logical_warp_reduce_kernel<Lanes, Op>
      <<<warps, 32>>>(reinterpret_cast<const T*>(in.data()), reinterpret_cast<T*>(out.data()));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<T> got(items.size());
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(got.data(), out.data(), got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < items.size(); ++i) {
    INFO("lane " << i);
    CHECK(matches<Op>(got[i], items, i / Lanes * Lanes, Lanes));
  }
}

template <class Op, class Gen>
void check_every_logical_width(const std::string& name, Gen gen) {
  check_logical_warp_reduce<2, Op>(name, gen);
  check_logical_warp_reduce<4, Op>(name, gen);
  check_logical_warp_reduce<8, Op>(name, gen);
  check_logical_warp_reduce<16, Op>(name, gen);
  check_logical_warp_reduce<32, Op>(name, gen);
}

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

TEST_CASE("logical_warp_reduce gives each group of lanes its fold, in every lane",
          "[reduce][warp][gpu]") {
  std::mt19937_64& g = rng();
  check_every_logical_width<gpuprims::plus<std::int32_t>>(
      "int32 plus", [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; });
  check_every_logical_width<affine_op>("affine composition (not commutative)", [&g] {
    return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
  });
}
