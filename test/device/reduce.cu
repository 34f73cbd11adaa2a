// gpuprims::reduce (device-wide, one launch): sizes around the block and vector widths and far past
// them, shifted inputs (the unaligned head), integers exact, floats within a bound, the same bits
// on every run, caller workspace reused across calls, a caller's tuning, and more than 2^31 int8
// summed into int64.
#include <gpuprims/device/reduce.cuh>

#include "support/test_support.cuh"

#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;

// A caller's policy: small blocks with two loads in flight, every input above 4 KiB in the large
// shape, two waves, no dependent launch.
struct small_blocks_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_policy select(int) {
    return {{64, 2, 2}, {128, 1, 2}, 4096, false};
  }
};

// The launcher calls go through function pointers to these instantiations, the shape that the GPU
// machine's gcc 13 compiled quickly (see docs/design.md).
template <class Tuning, class Item, class T, class Op>
cudaError_t run_pooled(const Item* in, T* out, std::size_t n, T init, Op op) {
  return gpuprims::reduce<Tuning>(in, out, n, init, op);
}
template <class Tuning, class Item, class T, class Op>
cudaError_t run_with_workspace(const Item* in, T* out, std::size_t n, T init, Op op, void* ws,
                               std::size_t bytes) {
  return gpuprims::reduce<Tuning>(in, out, n, init, op, ws, bytes);
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Runs gpuprims::reduce on items[offset, offset + n) twice with the stream-ordered workspace and
// once with a caller workspace; checks the result and that all three agree bit for bit.
template <class Item, class T, class Op, class Tuning = gpuprims::reduce_tuning>
void check_reduce(const std::string& name, const std::vector<Item>& items, std::size_t offset,
                  std::size_t n, T init, Op op) {
  INFO(name << ": n = " << n << ", offset = " << offset);
  device_buffer in((offset + n) * sizeof(Item) + 1), out(3 * sizeof(T));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), items.data(), (offset + n) * sizeof(Item), cudaMemcpyHostToDevice));
  out.poison();
  const Item* first = reinterpret_cast<const Item*>(in.data()) + offset;
  T* results = reinterpret_cast<T*>(out.data());
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA((gpuprims::reduce_workspace_bytes<T, Tuning>(bytes)));
  device_buffer workspace(bytes);
  GPUPRIMS_CHECK_CUDA(cudaMemset(workspace.data(), 0, bytes));
  cudaError_t (*pooled)(const Item*, T*, std::size_t, T, Op) = &run_pooled<Tuning, Item, T, Op>;
  cudaError_t (*with_workspace)(const Item*, T*, std::size_t, T, Op, void*, std::size_t) =
      &run_with_workspace<Tuning, Item, T, Op>;
  GPUPRIMS_CHECK_CUDA(pooled(first, results + 0, n, init, op));
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA(pooled(first, results + 1, n, init, op));
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA(with_workspace(first, results + 2, n, init, op, workspace.data(), bytes));
  GPUPRIMS_CHECK_LAUNCH();
  T got[3];
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got, results, sizeof(got), cudaMemcpyDeviceToHost));
  CHECK(same_bits(got[0], got[1]));
  CHECK(same_bits(got[0], got[2]));
  // The workspace is left ready: its counter is zero again.
  unsigned int counter = 1;
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(&counter, workspace.data(), sizeof(counter), cudaMemcpyDeviceToHost));
  CHECK(counter == 0);

  if constexpr (std::is_same_v<T, double> && std::is_same_v<Op, gpuprims::plus<T>>) {
    double sum = static_cast<double>(init), magnitude = std::fabs(static_cast<double>(init));
    for (std::size_t i = offset; i < offset + n; ++i) {
      const double x = static_cast<double>(static_cast<T>(items[i]));
      sum += x;
      magnitude += std::fabs(x);
    }
    const double bound = static_cast<double>(n + 1) * std::numeric_limits<T>::epsilon() * magnitude;
    INFO("got " << got[0] << ", double reference " << sum << ", bound " << bound);
    CHECK(std::fabs(static_cast<double>(got[0]) - sum) <= bound);
  } else {
    T ref = init;
    for (std::size_t i = offset; i < offset + n; ++i) {
      ref = op(ref, static_cast<T>(items[i]));
    }
    INFO("got " << got[0] << ", expected " << ref);
    CHECK(same_bits(got[0], ref));
  }
}

template <class Item, class T, class Op, class Gen, class Tuning = gpuprims::reduce_tuning>
void check_sizes(const std::string& name, T init, Op op, Gen gen, Tuning = {}) {
  // 2^22 + 5 elements pass 8 MiB for every item type here: the large-input configuration.
  const std::size_t max_n = (std::size_t{1} << 22) + 5 + 16;
  std::vector<Item> items(max_n);
  for (auto& x : items) {
    x = gen();
  }
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{32}, std::size_t{33},
        std::size_t{1000}, (std::size_t{1} << 20) + 7, (std::size_t{1} << 22) + 5}) {
    for (std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
      check_reduce<Item, T, Op, Tuning>(name, items, offset, n, init, op);
    }
  }
}

}  // namespace

TEST_CASE("gpuprims::reduce is right and repeatable for every size, offset and type",
          "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  // Integer-valued data keeps float and half sums exact (|sum| < 2^24): a dropped or doubled
  // element cannot hide inside a rounding bound. Doubles get real-valued data and a bound.
  auto unit = [&g] { return static_cast<float>(static_cast<int>(g() % 17) - 8); };
  check_sizes<std::int32_t>("int32 plus", std::int32_t{7}, gpuprims::plus<std::int32_t>{},
                            [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; });
  check_sizes<std::uint32_t>("uint32 bit_xor", std::uint32_t{0}, gpuprims::bit_xor<std::uint32_t>{},
                             [&g] { return static_cast<std::uint32_t>(g()); });
  check_sizes<std::int64_t>("int64 maximum", std::numeric_limits<std::int64_t>::min(),
                            gpuprims::maximum<std::int64_t>{},
                            [&g] { return static_cast<std::int64_t>(g()); });
  check_sizes<float>("float plus", 0.5f, gpuprims::plus<float>{}, unit);
  check_sizes<float>("float maximum", -1e30f, gpuprims::maximum<float>{},
                     [&g] { return std::uniform_real_distribution<float>(-1e6f, 1e6f)(g); });
  check_sizes<double>("double plus", 0.0, gpuprims::plus<double>{},
                      [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); });
  check_sizes<__half>("__half into float plus", 0.0f, gpuprims::plus<float>{},
                      [&] { return __float2half(unit()); });
  check_sizes<std::int8_t>("int8 into int64 plus", std::int64_t{0}, gpuprims::plus<std::int64_t>{},
                           [&g] { return static_cast<std::int8_t>(g()); });
}

TEST_CASE("gpuprims::reduce runs a caller's tuning", "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  check_sizes<std::int32_t>(
      "int32 plus, small blocks", std::int32_t{-3}, gpuprims::plus<std::int32_t>{},
      [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; }, small_blocks_tuning{});
  check_sizes<double>(
      "double plus, small blocks", 0.0, gpuprims::plus<double>{},
      [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); }, small_blocks_tuning{});
}

TEST_CASE("gpuprims::reduce rejects a workspace shorter than reduce_workspace_bytes",
          "[reduce][gpu]") {
  device_buffer buffer(1024);
  float* data = reinterpret_cast<float*>(buffer.data());
  cudaError_t (*with_workspace)(const float*, float*, std::size_t, float, gpuprims::plus<float>,
                                void*, std::size_t) =
      &run_with_workspace<gpuprims::reduce_tuning, float, float, gpuprims::plus<float>>;
  const cudaError_t status =
      with_workspace(data, data + 8, 4, 0.0f, gpuprims::plus<float>{}, buffer.data(), 16);
  CHECK(status == cudaErrorInvalidValue);
}

TEST_CASE("gpuprims::reduce sums more than 2^31 int8 into int64", "[reduce][gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 77;
  std::vector<std::int8_t> items(n + 1);
  fill_random(reinterpret_cast<unsigned char*>(items.data()), items.size());
  check_reduce("int8 into int64 plus", items, 1, n, std::int64_t{0},
               gpuprims::plus<std::int64_t>{});
}
