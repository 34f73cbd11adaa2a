// block_reduce and warp_reduce from a user kernel, against a CPU reference: block sizes from 32 to
// 1024 (96, 160 and 992 included), every operator and type of the API, one item and an array of
// items per thread, full and partial tiles, reduce and all_reduce.
#include <gpuprims/reduce.cuh>

#include "support/test_support.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace gpuprims::test;

constexpr int items_per_thread = 3;

// A user struct and its operator: arg-max, ties to the smaller index (so the result is unique).
struct arg_max {
  float value;
  int index;
};
struct arg_max_op {
  using value_type = arg_max;
  __host__ __device__ arg_max operator()(const arg_max& a, const arg_max& b) const {
    return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;
  }
};

// An associative, non-commutative operator: composition of x -> a * x + b (mod 2^32), first then
// second. A reduction that reorders its operands gets a different result.
struct affine {
  std::uint32_t a, b;
};
struct affine_op {
  using value_type = affine;
  __host__ __device__ affine operator()(const affine& f, const affine& g) const {
    return {f.a * g.a, f.b * g.a + g.b};
  }
};

// What non-contributing threads pass: a bit pattern that changes any result it leaks into (0 or a
// type's zero would hide inside a sum).
template <class T>
__device__ T poison() {
  T value;
  memset(&value, 0x5A, sizeof(T));
  return value;
}

// Block b reduces in[b * tile, b * tile + valid_b) where valid_b = tile for every block but the
// last (a partial tile). Writes the block's result (from thread 0) and each thread's all_reduce.
template <int BlockSize, class Op, class Item, gpuprims::block_reduce_algorithm Algorithm>
__global__ void reduce_kernel(const Item* in, std::size_t n, typename Op::value_type* block_out,
                              typename Op::value_type* all_out) {
  using T = typename Op::value_type;
  using reduce_t = gpuprims::block_reduce<BlockSize, Op, T, Algorithm>;
  __shared__ typename reduce_t::storage storage;
  const std::size_t tile = std::size_t{BlockSize} * items_per_thread;
  const std::size_t base = blockIdx.x * tile;
  const std::size_t valid = n - base < tile ? n - base : tile;
  T result;
  if (valid == tile) {  // full tile: the array overload, items blocked per thread
    Item items[items_per_thread];
    for (int i = 0; i < items_per_thread; ++i) {
      items[i] = in[base + threadIdx.x * items_per_thread + i];
    }
    result = reduce_t(storage).reduce(items);
  } else {  // partial tile: each thread folds its blocked items in order, the owners are a prefix
    const std::size_t first = threadIdx.x * std::size_t{items_per_thread};
    T item = poison<T>();  // a non-owner's value must never reach the result
    for (std::size_t k = first; k < first + items_per_thread && k < valid; ++k) {
      item = k == first ? static_cast<T>(in[base + k]) : Op{}(item, static_cast<T>(in[base + k]));
    }
    result = reduce_t(storage).reduce(item, static_cast<int>((valid + items_per_thread - 1) / items_per_thread));
  }
  if (threadIdx.x == 0) {
    block_out[blockIdx.x] = result;
  }
  __syncthreads();  // storage reuse
  // all_reduce over the first element of each thread's slot (or the partial items).
  T mine = poison<T>();
  const std::size_t k = valid == tile ? threadIdx.x * items_per_thread : threadIdx.x;
  if (k < valid) {
    mine = static_cast<T>(in[base + k]);
  }
  const int contributors = valid < BlockSize ? static_cast<int>(valid) : BlockSize;
  all_out[blockIdx.x * BlockSize + threadIdx.x] = reduce_t(storage).all_reduce(mine, contributors);
}

template <class T>
bool same(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
bool same(const arg_max& a, const arg_max& b) { return a.value == b.value && a.index == b.index; }
bool same(const affine& x, const affine& y) { return x.a == y.a && x.b == y.b; }

// Checks one block's result against the items it reduced, folded in order on the host. The inputs
// are chosen so that every result is exact (integer-valued floating-point data), which makes the
// comparison bitwise whatever the order, and catches a dropped or doubled element.
template <class Op, class Item>
bool matches(const typename Op::value_type& got, const std::vector<Item>& items, std::size_t begin,
             std::size_t count) {
  using T = typename Op::value_type;
  Op op;
  T ref = static_cast<T>(items[begin]);
  for (std::size_t i = begin + 1; i < begin + count; ++i) {
    ref = op(ref, static_cast<T>(items[i]));
  }
  return same(got, ref);
}

template <int BlockSize, class Op, class Item,
          gpuprims::block_reduce_algorithm Algorithm = gpuprims::block_reduce_algorithm::warp_shuffle, class Gen>
void check_block_reduce(const std::string& name, Gen gen) {
  using T = typename Op::value_type;
  const std::size_t tile = std::size_t{BlockSize} * items_per_thread;
  // Partial tiles with 1, 3, 33, 64 and about half the block's threads owning items.
  const std::size_t half = BlockSize / 2 + 5;
  for (std::size_t n : {std::size_t{1}, tile, 5 * tile + 7, 2 * tile + BlockSize - 1, tile + 3 * 33 - 1,
                        tile + 3 * 64, tile + 3 * half - 2}) {
    INFO(name << ", BlockSize " << BlockSize << ", n = " << n);
    std::vector<Item> items(n);
    for (std::size_t i = 0; i < n; ++i) {
      items[i] = gen(i);
    }
    const std::size_t blocks = (n + tile - 1) / tile;
    device_buffer in(n * sizeof(Item)), block_out(blocks * sizeof(T)), all_out(blocks * BlockSize * sizeof(T));
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), items.data(), n * sizeof(Item), cudaMemcpyHostToDevice));
    block_out.poison();
    all_out.poison();
    reduce_kernel<BlockSize, Op, Item, Algorithm><<<static_cast<unsigned>(blocks), BlockSize>>>(
        reinterpret_cast<const Item*>(in.data()), n, reinterpret_cast<T*>(block_out.data()),
        reinterpret_cast<T*>(all_out.data()));
    GPUPRIMS_CHECK_LAUNCH();
    std::vector<T> got(blocks), all(blocks * BlockSize);
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), block_out.data(), got.size() * sizeof(T), cudaMemcpyDeviceToHost));
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(all.data(), all_out.data(), all.size() * sizeof(T), cudaMemcpyDeviceToHost));
    for (std::size_t b = 0; b < blocks; ++b) {
      const std::size_t base = b * tile;
      const std::size_t valid = n - base < tile ? n - base : tile;
      INFO("block " << b << ", " << valid << " valid items");
      CHECK(matches<Op>(got[b], items, base, valid));
      // all_reduce: the first item of each thread's slot (full tile) or items [0, min(valid, BlockSize)).
      std::vector<Item> firsts;
      for (std::size_t t = 0; t < static_cast<std::size_t>(BlockSize); ++t) {
        const std::size_t k = valid == tile ? t * items_per_thread : t;
        if (k < valid) {
          firsts.push_back(items[base + k]);
        }
      }
      CHECK(matches<Op>(all[b * BlockSize], firsts, 0, firsts.size()));
      bool uniform = true;
      for (int t = 1; t < BlockSize; ++t) {
        uniform = uniform && same(all[b * BlockSize + t], all[b * BlockSize]);
      }
      CHECK(uniform);
    }
  }
}

template <int BlockSize>
void check_all_ops() {
  std::mt19937_64& g = rng();
  auto small_int = [&g](std::size_t) { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  auto any_u32 = [&g](std::size_t) { return static_cast<std::uint32_t>(g()); };
  // Integer-valued floating-point data: every sum is exact, so results compare bit for bit.
  auto unit = [&g](std::size_t) { return static_cast<float>(static_cast<int>(g() % 17) - 8); };
  check_block_reduce<BlockSize, gpuprims::plus<std::int32_t>, std::int32_t>("int32 plus", small_int);
  check_block_reduce<BlockSize, gpuprims::minimum<std::int32_t>, std::int32_t>("int32 minimum", small_int);
  check_block_reduce<BlockSize, gpuprims::bit_xor<std::uint32_t>, std::uint32_t>("uint32 bit_xor", any_u32);
  check_block_reduce<BlockSize, gpuprims::bit_and<std::uint32_t>, std::uint32_t>(
      "uint32 bit_and", [&g](std::size_t) { return static_cast<std::uint32_t>(g() | g()); });
  check_block_reduce<BlockSize, gpuprims::bit_or<std::uint32_t>, std::uint32_t>(
      "uint32 bit_or", [&g](std::size_t) { return static_cast<std::uint32_t>(g() & g() & g()); });
  check_block_reduce<BlockSize, gpuprims::plus<std::int64_t>, std::int64_t>(
      "int64 plus", [&g](std::size_t) { return static_cast<std::int64_t>(g() % 2000000000001ull) - 1000000000000ll; });
  check_block_reduce<BlockSize, gpuprims::plus<float>, float>("float plus", unit);
  check_block_reduce<BlockSize, gpuprims::maximum<double>, double>(
      "double maximum", [&g](std::size_t) { return std::uniform_real_distribution<double>(-1e6, 1e6)(g); });
  check_block_reduce<BlockSize, gpuprims::plus<double>, double>(
      "double plus", [&g](std::size_t) { return static_cast<double>(static_cast<std::int64_t>(g() % 2000001) - 1000000); });
  check_block_reduce<BlockSize, affine_op, affine>(
      "affine composition (not commutative)", [&g](std::size_t) {
        return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
      });
  check_block_reduce<BlockSize, gpuprims::plus<float>, __half>(
      "__half into float plus", [&](std::size_t i) { return __float2half(unit(i)); });
  check_block_reduce<BlockSize, gpuprims::plus<float>, __nv_bfloat16>(
      "bfloat16 into float plus", [&](std::size_t i) { return __float2bfloat16(unit(i)); });
  check_block_reduce<BlockSize, arg_max_op, arg_max>(
      "arg-max struct", [&](std::size_t i) { return arg_max{std::floor(unit(i) * 50), static_cast<int>(i)}; });
}

// Every rung of the ladder: integer and integer-valued float sums (exact), and for the rungs that
// keep operand order, a non-commutative operator.
template <int BlockSize, gpuprims::block_reduce_algorithm A>
void check_rung(const char* rung, bool keeps_order) {
  std::mt19937_64& g = rng();
  const std::string name(rung);
  check_block_reduce<BlockSize, gpuprims::plus<std::int32_t>, std::int32_t, A>(
      name + ", int32 plus", [&g](std::size_t) { return static_cast<std::int32_t>(g() % 2001) - 1000; });
  check_block_reduce<BlockSize, gpuprims::plus<float>, float, A>(
      name + ", float plus", [&g](std::size_t) { return static_cast<float>(static_cast<int>(g() % 17) - 8); });
  if (keeps_order) {
    check_block_reduce<BlockSize, affine_op, affine, A>(name + ", affine composition", [&g](std::size_t) {
      return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
    });
  }
}

template <int BlockSize>
void check_ladder() {
  using gpuprims::block_reduce_algorithm;
  check_rung<BlockSize, block_reduce_algorithm::interleaved_modulo>("interleaved_modulo", true);
  check_rung<BlockSize, block_reduce_algorithm::interleaved_strided>("interleaved_strided", true);
  check_rung<BlockSize, block_reduce_algorithm::sequential>("sequential", false);
  check_rung<BlockSize, block_reduce_algorithm::unrolled_last_warp>("unrolled_last_warp", false);
  check_rung<BlockSize, block_reduce_algorithm::complete_unroll>("complete_unroll", false);
}

// warp_reduce on its own: one warp per block, lanes [0, valid) contribute, the rest pass poison.
template <class Op>
__global__ void warp_reduce_kernel(const typename Op::value_type* in, typename Op::value_type* out, int valid) {
  using T = typename Op::value_type;
  const int lane = static_cast<int>(threadIdx.x);
  const T x = lane < valid ? in[blockIdx.x * 32 + lane] : poison<T>();
  const T total = gpuprims::warp_reduce(x, Op{}, valid);
  if (lane == 0) {
    out[blockIdx.x] = total;
  }
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
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), items.data(), items.size() * sizeof(T), cudaMemcpyHostToDevice));
    out.poison();
    warp_reduce_kernel<Op><<<warps, 32>>>(reinterpret_cast<const T*>(in.data()), reinterpret_cast<T*>(out.data()),
                                          valid);
    GPUPRIMS_CHECK_LAUNCH();
    std::vector<T> got(warps);
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), out.data(), warps * sizeof(T), cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; ++w) {
      CHECK(matches<Op>(got[w], items, static_cast<std::size_t>(w) * 32, static_cast<std::size_t>(valid)));
    }
  }
}

}  // namespace

TEST_CASE("warp_reduce combines lanes [0, valid) in lane order", "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  check_warp_reduce<gpuprims::plus<std::int32_t>>(
      "int32 plus", [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; });
  check_warp_reduce<affine_op>("affine composition (not commutative)", [&g] {
    return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
  });
}

TEST_CASE("every rung of the block_reduce ladder is right, full and partial tiles", "[reduce][gpu]") {
  SECTION("BlockSize 32") { check_ladder<32>(); }
  SECTION("BlockSize 64") { check_ladder<64>(); }
  SECTION("BlockSize 128") { check_ladder<128>(); }
  SECTION("BlockSize 96") { check_ladder<96>(); }
  SECTION("BlockSize 256") { check_ladder<256>(); }
  SECTION("BlockSize 992") { check_ladder<992>(); }
  SECTION("BlockSize 1024") { check_ladder<1024>(); }
}

TEST_CASE("block_reduce is right for every operator and type, full and partial tiles", "[reduce][gpu]") {
  SECTION("BlockSize 32") { check_all_ops<32>(); }
  SECTION("BlockSize 96") { check_all_ops<96>(); }
  SECTION("BlockSize 160") { check_all_ops<160>(); }
  SECTION("BlockSize 256") { check_all_ops<256>(); }
  SECTION("BlockSize 992") { check_all_ops<992>(); }
  SECTION("BlockSize 1024") { check_all_ops<1024>(); }
}
