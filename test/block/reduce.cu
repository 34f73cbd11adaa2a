// block_reduce from a user kernel, against a CPU reference: block sizes from 32 to 1024 (96, 160
// and 992 included), every operator and type of the API, one item and an array of items per thread,
// full and partial tiles, reduce and all_reduce.
#include <gpuprims/block/reduce.cuh>

#include "support/reduce_check.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace {

using namespace gpuprims::test;

template <int BlockSize, class Op, class Item, class Gen>
void check(const char* name, Gen gen) {
  check_block_reduce<gpuprims::block_reduce<BlockSize, Op>, BlockSize, Op, Item>(name, gen);
}

template <int BlockSize>
void check_all_ops() {
  std::mt19937_64& g = rng();
  auto small_int = [&g](std::size_t) { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  auto any_u32 = [&g](std::size_t) { return static_cast<std::uint32_t>(g()); };
  // Integer-valued floating-point data: every sum is exact, so results compare bit for bit.
  auto unit = [&g](std::size_t) { return static_cast<float>(static_cast<int>(g() % 17) - 8); };
  check<BlockSize, gpuprims::plus<std::int32_t>, std::int32_t>("int32 plus", small_int);
  check<BlockSize, gpuprims::minimum<std::int32_t>, std::int32_t>("int32 minimum", small_int);
  check<BlockSize, gpuprims::bit_xor<std::uint32_t>, std::uint32_t>("uint32 bit_xor", any_u32);
  check<BlockSize, gpuprims::bit_and<std::uint32_t>, std::uint32_t>(
      "uint32 bit_and", [&g](std::size_t) { return static_cast<std::uint32_t>(g() | g()); });
  check<BlockSize, gpuprims::bit_or<std::uint32_t>, std::uint32_t>(
      "uint32 bit_or", [&g](std::size_t) { return static_cast<std::uint32_t>(g() & g() & g()); });
  check<BlockSize, gpuprims::plus<std::int64_t>, std::int64_t>("int64 plus", [&g](std::size_t) {
    return static_cast<std::int64_t>(g() % 2000000000001ull) - 1000000000000ll;
  });
  check<BlockSize, gpuprims::plus<float>, float>("float plus", unit);
  check<BlockSize, gpuprims::maximum<double>, double>("double maximum", [&g](std::size_t) {
    return std::uniform_real_distribution<double>(-1e6, 1e6)(g);
  });
  check<BlockSize, gpuprims::plus<double>, double>("double plus", [&g](std::size_t) {
    return static_cast<double>(static_cast<std::int64_t>(g() % 2000001) - 1000000);
  });
  check<BlockSize, affine_op, affine>("affine composition (not commutative)", [&g](std::size_t) {
    return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
  });
  check<BlockSize, gpuprims::plus<float>, __half>(
      "__half into float plus", [&](std::size_t i) { return __float2half(unit(i)); });
  check<BlockSize, gpuprims::plus<float>, __nv_bfloat16>(
      "bfloat16 into float plus", [&](std::size_t i) { return __float2bfloat16(unit(i)); });
  check<BlockSize, arg_max_op, arg_max>("arg-max struct", [&](std::size_t i) {
    return arg_max{std::floor(unit(i) * 50), static_cast<int>(i)};
  });
}

}  // namespace

TEST_CASE("block_reduce is right for every operator and type, full and partial tiles",
          "[reduce][block][gpu]") {
  SECTION("BlockSize 32") { check_all_ops<32>(); }
  SECTION("BlockSize 96") { check_all_ops<96>(); }
  SECTION("BlockSize 160") { check_all_ops<160>(); }
  SECTION("BlockSize 256") { check_all_ops<256>(); }
  SECTION("BlockSize 992") { check_all_ops<992>(); }
  SECTION("BlockSize 1024") { check_all_ops<1024>(); }
}
