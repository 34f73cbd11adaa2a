// warp_inclusive_scan and warp_exclusive_scan over logical warps of 2 to 32 lanes: every lane's
// value and its group's total, against a fold in lane order on the host, with int sums and a
// non-commutative operator (affine maps), which catches any reordering.
#include <gpuprims/types.cuh>
#include <gpuprims/warp/scan.cuh>

#include "support/reduce_check.cuh"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gpuprims::test {

// Per lane: inclusive, inclusive's group total, exclusive (init), exclusive's group total, and the
// inclusive scan's overload without a total.
template <int Lanes, class Op>
__global__ void warp_scan_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                                 typename Op::value_type init) {
  using T = typename Op::value_type;
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  T total_in, total_ex;
  const T inclusive = gpuprims::warp_inclusive_scan<Lanes>(in[i], Op{}, total_in);
  const T exclusive = gpuprims::warp_exclusive_scan<Lanes>(in[i], init, Op{}, total_ex);
  const T plain = gpuprims::warp_inclusive_scan<Lanes>(in[i], Op{});
  out[5 * i] = inclusive;
  out[5 * i + 1] = total_in;
  out[5 * i + 2] = exclusive;
  out[5 * i + 3] = total_ex;
  out[5 * i + 4] = plain;
}

}  // namespace gpuprims::test

namespace {

using namespace gpuprims::test;

template <int Lanes, class Op, class Gen>
void check_warp_scan(const std::string& name, typename Op::value_type init, Gen gen) {
  using T = typename Op::value_type;
  constexpr int threads = 64;
  constexpr int blocks = 3;
  INFO(name << ", Lanes = " << Lanes);
  std::vector<T> items(threads * blocks);
  for (T& x : items) {
    x = gen();
  }
  device_buffer in(items.size() * sizeof(T)), out(5 * items.size() * sizeof(T));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), items.data(), items.size() * sizeof(T), cudaMemcpyHostToDevice));
  out.poison();
  warp_scan_kernel<Lanes, Op><<<blocks, threads>>>(reinterpret_cast<const T*>(in.data()),
                                                   reinterpret_cast<T*>(out.data()), init);
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<T> got(5 * items.size());
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(got.data(), out.data(), got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  Op op;
  std::size_t wrong = 0;
  for (std::size_t g = 0; g < items.size(); g += Lanes) {
    T inclusive = items[g];
    T exclusive = init;
    std::vector<T> inc(Lanes), exc(Lanes);
    for (int l = 0; l < Lanes; ++l) {
      if (l > 0) {
        inclusive = op(inclusive, items[g + l]);
      }
      inc[l] = inclusive;
      exc[l] = exclusive;
      exclusive = op(exclusive, items[g + l]);
    }
    for (int l = 0; l < Lanes; ++l) {
      const std::size_t i = g + l;
      wrong += same(got[5 * i], inc[l]) ? 0 : 1;
      wrong += same(got[5 * i + 1], inc[Lanes - 1]) ? 0 : 1;
      wrong += same(got[5 * i + 2], exc[l]) ? 0 : 1;
      wrong += same(got[5 * i + 3], exclusive) ? 0 : 1;
      wrong += same(got[5 * i + 4], inc[l]) ? 0 : 1;
    }
  }
  CHECK(wrong == 0);
}

template <class Op, class Gen>
void check_every_width(const std::string& name, typename Op::value_type init, Gen gen) {
  check_warp_scan<2, Op>(name, init, gen);
  check_warp_scan<4, Op>(name, init, gen);
  check_warp_scan<8, Op>(name, init, gen);
  check_warp_scan<16, Op>(name, init, gen);
  check_warp_scan<32, Op>(name, init, gen);
}

}  // namespace

TEST_CASE("warp scans give every lane its prefix and its group's total", "[scan][gpu]") {
  std::mt19937_64& g = rng();
  check_every_width<gpuprims::plus<std::int32_t>>(
      "int32 plus", 11, [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; });
  check_every_width<affine_op>("affine (not commutative)", affine{5, 7}, [&g] {
    return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
  });
  check_every_width<gpuprims::plus<double>>("integer-valued double", 0.0,
                                            [&g] { return static_cast<double>(g() % 100); });
}
