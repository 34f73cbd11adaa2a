// gpuprims::segmented_reduce and gpuprims::reduce_batched against a CPU reference: segment lengths
// 0, 1, 2, 3, 31, 32, 33, 1023, 1024, 1025 and 2^20, random mixes, one huge segment among many tiny
// and empty ones; int32, int64 and uint32 offsets; every operator; small policies, so that one
// input crosses many walkers, groups, windows of ends and chunks of the second pass; unaligned
// inputs and a non-zero first offset; poisoned outputs and workspaces; the same bits on a second
// call; more than 2^31 items in total; negative zeros; an operator without an identity.
#include <gpuprims/device/segmented_reduce.cuh>

#include "support/reduce_check.cuh"
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

// Three blocks of two warps (six walkers), two words a lane: inputs of a few thousand items cross
// walkers, groups and windows of ends. FewEnds: groups with up to that many ends close them one
// by one (the library's 2), the others scatter them and scan the lanes' runs (0: every group).
// Unit: shares rounded to odd multiples of that many steps (the library's 16; 0: not rounded).
template <int FewEnds, unsigned int Unit = 0>
struct three_blocks {
  __host__ __device__ static constexpr gpuprims::segmented_reduce_policy select(int) {
    return {64, 3, 2, 4, 1, true, FewEnds, Unit};
  }
};
// 300 blocks of one warp, one word a lane: the second pass walks 598 records in ten chunks of 64;
// groups of up to 31 ends close them one by one.
struct many_blocks {
  __host__ __device__ static constexpr gpuprims::segmented_reduce_policy select(int) {
    return {32, 300, 1, 2, 1, false, 31};
  }
};

// A sum without an identity (no Op::identity()): the groups of few ends fold their items one by
// one instead of as trees.
struct sum_without_identity {
  __host__ __device__ std::int32_t operator()(std::int32_t a, std::int32_t b) const {
    return a + b;
  }
};

enum class form { workspace, stream_cache };

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Runs segmented_reduce twice over `lengths` (each segment's length, in order) and checks both.
template <class Tuning, class Item, class T, class Offset, class Op, class Gen>
void check_segments(const std::string& name, const std::vector<std::size_t>& lengths, T init, Op op,
                    Gen gen, form how = form::workspace) {
  const std::size_t segments = lengths.size();
  const std::size_t first = random_size(0, 5);  // offsets[0] need not be 0
  std::vector<Offset> offsets(segments + 1);
  offsets[0] = static_cast<Offset>(first);
  for (std::size_t s = 0; s < segments; ++s) {
    offsets[s + 1] = static_cast<Offset>(offsets[s] + static_cast<Offset>(lengths[s]));
  }
  const auto end = static_cast<std::size_t>(offsets[segments]);
  const std::size_t shift = random_size(0, 3);  // the input's address: aligned or not
  INFO(name << ": " << segments << " segments, " << end - first << " items, first offset " << first
            << ", input shifted by " << shift << " items");
  std::vector<Item> items(end + shift);
  for (auto& x : items) {
    x = gen();
  }
  device_buffer in(items.size() * sizeof(Item) + 1), off(offsets.size() * sizeof(Offset)),
      out(2 * segments * sizeof(T) + 1);
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), items.data(), items.size() * sizeof(Item), cudaMemcpyHostToDevice));
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(off.data(), offsets.data(), offsets.size() * sizeof(Offset),
                                 cudaMemcpyHostToDevice));
  out.poison();
  const auto* x = reinterpret_cast<const Item*>(in.data()) + shift;
  const auto* o = reinterpret_cast<const Offset*>(off.data());
  auto* r = reinterpret_cast<T*>(out.data());
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA((gpuprims::segmented_reduce_workspace_bytes<T, Tuning>(bytes)));
  device_buffer workspace(bytes);
  for (int call = 0; call < 2; ++call) {
    workspace.poison();  // needs no preparation
    if (how == form::workspace) {
      GPUPRIMS_CHECK_CUDA(gpuprims::segmented_reduce<Tuning>(x, o, r + call * segments, segments,
                                                             init, op, workspace.data(), bytes));
    } else {
      GPUPRIMS_CHECK_CUDA(
          gpuprims::segmented_reduce<Tuning>(x, o, r + call * segments, segments, init, op));
    }
  }
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
  std::vector<T> got(2 * segments);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), r, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  std::size_t wrong = 0, unrepeated = 0;
  for (std::size_t s = 0; s < segments; ++s) {
    unrepeated += same_bits(got[s], got[segments + s]) ? 0 : 1;
    const Item* seg = items.data() + shift + static_cast<std::size_t>(offsets[s]);
    wrong += matches_reference(got[s], init, op, lengths[s], [&](std::size_t k) { return seg[k]; })
                 ? 0
                 : 1;
  }
  CHECK(unrepeated == 0);
  CHECK(wrong == 0);
}

std::vector<std::size_t> repeat(std::size_t length, std::size_t count) {
  return std::vector<std::size_t>(count, length);
}

std::vector<std::size_t> random_lengths(std::size_t count, std::size_t max, int empty_percent) {
  std::vector<std::size_t> lengths(count);
  for (auto& l : lengths) {
    l = random_size(0, 99) < static_cast<std::size_t>(empty_percent) ? 0 : random_size(1, max);
  }
  return lengths;
}

// One segment of `huge` items in the middle of `tiny` segments of 0 to 3 items.
std::vector<std::size_t> huge_among_tiny(std::size_t huge, std::size_t tiny) {
  std::vector<std::size_t> lengths = random_lengths(tiny, 3, 25);
  lengths.insert(lengths.begin() + static_cast<std::ptrdiff_t>(tiny / 2), huge);
  return lengths;
}

// Every length family of the issue, for one type and operator, under one policy.
template <class Tuning, class Item, class T, class Offset, class Op, class Gen>
void check_families(const std::string& name, T init, Op op, Gen gen, std::size_t budget) {
  for (std::size_t length : {0, 1, 2, 3, 31, 32, 33, 1023, 1024, 1025}) {
    const std::size_t count = length == 0 ? 5000 : budget / length + 3;
    check_segments<Tuning, Item, T, Offset>(name + ", length " + std::to_string(length),
                                            repeat(length, count), init, op, gen);
  }
  check_segments<Tuning, Item, T, Offset>(name + ", random lengths to 40",
                                          random_lengths(4000, 40, 20), init, op, gen);
  check_segments<Tuning, Item, T, Offset>(name + ", random lengths to 3000",
                                          random_lengths(300, 3000, 10), init, op, gen);
  check_segments<Tuning, Item, T, Offset>(name + ", one huge among tiny",
                                          huge_among_tiny(budget, 20000), init, op, gen);
  check_segments<Tuning, Item, T, Offset>(name + ", one segment", repeat(budget + 11, 1), init, op,
                                          gen);
}

}  // namespace

TEST_CASE("segmented_reduce: every length family, type and operator", "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  const auto small_int = [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  const auto unit = [&g] { return static_cast<float>(static_cast<int>(g() % 17) - 8); };
  const auto real = [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); };
  const auto wide = [&g] { return static_cast<std::int64_t>(g() >> 20) - (std::int64_t{1} << 43); };
  using tuning = gpuprims::segmented_reduce_tuning;
  const std::size_t budget = std::size_t{1} << 20;
  check_families<tuning, std::int32_t, std::int32_t, int>(
      "int32 plus, int offsets", std::int32_t{5}, gpuprims::plus<std::int32_t>{}, small_int,
      budget);
  check_families<tuning, std::int64_t, std::int64_t, long long>(
      "int64 plus, int64 offsets", std::int64_t{-7}, gpuprims::plus<std::int64_t>{}, wide, budget);
  check_families<tuning, float, float, unsigned>("float plus (exact data), uint32 offsets", 0.5f,
                                                 gpuprims::plus<float>{}, unit, budget);
  check_families<tuning, double, double, std::int64_t>("double plus", 0.25,
                                                       gpuprims::plus<double>{}, real, budget);
  // Every item and init -0: no path lets a +0 into a sum (a segment's trees fill with -0).
  check_families<tuning, float, float, int>(
      "float plus of negative zeros", -0.0f, gpuprims::plus<float>{}, [] { return -0.0f; }, budget);
  check_families<tuning, std::int32_t, std::int32_t, int>("int32 plus without an identity",
                                                          std::int32_t{3}, sum_without_identity{},
                                                          small_int, std::size_t{1} << 18);
  check_segments<tuning, std::int32_t, std::int32_t, int>(
      "int32 minimum", random_lengths(3000, 100, 10), std::numeric_limits<std::int32_t>::max(),
      gpuprims::minimum<std::int32_t>{}, small_int);
  check_segments<tuning, std::int32_t, std::int32_t, int>(
      "int32 maximum", random_lengths(3000, 100, 10), std::numeric_limits<std::int32_t>::min(),
      gpuprims::maximum<std::int32_t>{}, small_int);
  check_segments<tuning, std::uint32_t, std::uint32_t, int>(
      "uint32 bit_xor", random_lengths(3000, 100, 10), 0u, gpuprims::bit_xor<std::uint32_t>{},
      [&g] { return static_cast<std::uint32_t>(g()); });
  check_segments<tuning, std::int8_t, std::int64_t, int>(
      "int8 into int64 plus", random_lengths(3000, 2000, 10), std::int64_t{0},
      gpuprims::plus<std::int64_t>{}, [&g] { return static_cast<std::int8_t>(g()); });
  check_segments<tuning, __half, float, int>(
      "half into float plus (exact data)", random_lengths(3000, 300, 10), 0.0f,
      gpuprims::plus<float>{},
      [&g] { return __float2half(static_cast<float>(static_cast<int>(g() % 9) - 4)); });
  check_segments<tuning, std::int32_t, std::int32_t, int>(
      "without a workspace argument", random_lengths(3000, 100, 10), std::int32_t{0},
      gpuprims::plus<std::int32_t>{}, small_int, form::stream_cache);
  check_segments<tuning, std::int32_t, std::int32_t, int>(
      "one empty segment", repeat(0, 1), std::int32_t{7}, gpuprims::plus<std::int32_t>{},
      small_int);
  check_segments<tuning, std::int32_t, std::int32_t, int>(
      "a million empty segments around three items",
      [] {
        std::vector<std::size_t> l(1000000, 0);
        l[500000] = 3;
        return l;
      }(),
      std::int32_t{7}, gpuprims::plus<std::int32_t>{}, small_int);
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}

TEST_CASE("segmented_reduce under small policies: many tiles, blocks and chunks", "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  const auto small_int = [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  const auto unit = [&g] { return static_cast<float>(static_cast<int>(g() % 17) - 8); };
  check_families<three_blocks<2>, std::int32_t, std::int32_t, int>(
      "int32 plus, three blocks", std::int32_t{4}, gpuprims::plus<std::int32_t>{}, small_int, 5000);
  check_families<three_blocks<0>, std::int32_t, std::int32_t, int>(
      "int32 plus, three blocks, every group scanned", std::int32_t{4},
      gpuprims::plus<std::int32_t>{}, small_int, 5000);
  check_families<three_blocks<2, 16>, std::int32_t, std::int32_t, int>(
      "int32 plus, three blocks, shares of odd multiples of 16 steps", std::int32_t{4},
      gpuprims::plus<std::int32_t>{}, small_int, 5000);
  check_families<three_blocks<2, 37>, std::int8_t, std::int64_t, int>(
      "int8 into int64, three blocks, shares of odd multiples of 37 steps", std::int64_t{1},
      gpuprims::plus<std::int64_t>{}, [&g] { return static_cast<std::int8_t>(g()); }, 5000);
  check_families<three_blocks<2>, std::int8_t, std::int64_t, int>(
      "int8 into int64, three blocks", std::int64_t{1}, gpuprims::plus<std::int64_t>{},
      [&g] { return static_cast<std::int8_t>(g()); }, 5000);
  check_families<many_blocks, float, float, int>("float plus (exact data), 300 blocks", 0.0f,
                                                 gpuprims::plus<float>{}, unit, 50000);
  check_families<many_blocks, std::int32_t, std::int32_t, int>(
      "int32 plus, 300 blocks", std::int32_t{-3}, gpuprims::plus<std::int32_t>{}, small_int, 50000);
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}

TEST_CASE("reduce_batched: segments of one size", "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  const auto small_int = [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  for (std::size_t size : {0, 1, 2, 3, 31, 32, 33, 1023, 1024, 1025, 1 << 20}) {
    const std::size_t count = size == 0 ? 1000 : (std::size_t{1} << 21) / size + 1;
    INFO("segment_size = " << size << ", num_segments = " << count);
    std::vector<std::int32_t> items(count * size);
    for (auto& x : items) {
      x = small_int();
    }
    device_buffer in(items.size() * sizeof(std::int32_t) + 1),
        out(2 * count * sizeof(std::int32_t));
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), items.data(), items.size() * sizeof(std::int32_t),
                                   cudaMemcpyHostToDevice));
    out.poison();
    const auto* x = reinterpret_cast<const std::int32_t*>(in.data());
    auto* r = reinterpret_cast<std::int32_t*>(out.data());
    for (int call = 0; call < 2; ++call) {
      GPUPRIMS_CHECK_CUDA(gpuprims::reduce_batched(
          x, r + call * count, count, size, std::int32_t{9}, gpuprims::plus<std::int32_t>{}));
    }
    GPUPRIMS_CHECK_LAUNCH();
    GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
    std::vector<std::int32_t> got(2 * count);
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(got.data(), r, got.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
    std::size_t wrong = 0;
    for (std::size_t s = 0; s < count; ++s) {
      std::int32_t ref = 9;
      for (std::size_t k = 0; k < size; ++k) {
        ref += items[s * size + k];
      }
      wrong += got[s] == ref && got[count + s] == ref ? 0 : 1;
    }
    CHECK(wrong == 0);
  }
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}

TEST_CASE("segmented_reduce and reduce_batched reject bad arguments and launch nothing",
          "[reduce][gpu]") {
  device_buffer buffer(4096);
  const auto* in = reinterpret_cast<const float*>(buffer.data());
  const auto* offsets = reinterpret_cast<const int*>(buffer.data() + 1024);
  auto* out = reinterpret_cast<float*>(buffer.data() + 2048);
  const gpuprims::plus<float> op{};
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA(gpuprims::segmented_reduce_workspace_bytes<float>(bytes));
  device_buffer workspace(bytes + 16);
  void* ws = workspace.data();
  CHECK(gpuprims::segmented_reduce(in, offsets, static_cast<float*>(nullptr), 4, 0.0f, op) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::segmented_reduce(static_cast<const float*>(nullptr), offsets, out, 4, 0.0f, op) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::segmented_reduce(in, static_cast<const int*>(nullptr), out, 4, 0.0f, op) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::segmented_reduce(in, offsets, reinterpret_cast<float*>(buffer.data() + 1028), 4,
                                   0.0f, op) == cudaErrorInvalidValue);  // out over the offsets
  CHECK(gpuprims::segmented_reduce(in, offsets, out, 4, 0.0f, op, nullptr, bytes) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::segmented_reduce(in, offsets, out, 4, 0.0f, op, ws, bytes - 1) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::segmented_reduce(in, offsets, out, 4, 0.0f, op,
                                   static_cast<unsigned char*>(ws) + 4,
                                   bytes) == cudaErrorInvalidValue);                // misaligned
  CHECK(gpuprims::segmented_reduce(in, offsets, out, 0, 0.0f, op) == cudaSuccess);  // nothing
  CHECK(gpuprims::reduce_batched(in, static_cast<float*>(nullptr), 4, 4, 0.0f, op) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::reduce_batched(static_cast<const float*>(nullptr), out, 4, 4, 0.0f, op) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::reduce_batched(in, const_cast<float*>(in) + 3, 2, 4, 0.0f, op) ==
        cudaErrorInvalidValue);  // the output overlaps the input
  CHECK(gpuprims::reduce_batched(in, out, std::size_t{1} << 40, std::size_t{1} << 40, 0.0f, op) ==
        cudaErrorInvalidValue);  // the span overflows
  CHECK(gpuprims::reduce_batched(in, out, 0, 4, 0.0f, op) == cudaSuccess);
  GPUPRIMS_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(cudaGetLastError() == cudaSuccess);
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}

TEST_CASE("segmented_reduce sums more than 2^31 int8 into int64", "[reduce][gpu][large]") {
  // Three segments: 2^31 + 5 items, 7 items, and 1000 items: offsets and steps past 32 bits.
  const std::vector<std::size_t> lengths = {(std::size_t{1} << 31) + 5, 7, 1000};
  const std::size_t n = lengths[0] + lengths[1] + lengths[2];
  std::vector<unsigned char> bytes(n);
  fill_random(bytes.data(), n);
  device_buffer in(n), off(4 * sizeof(std::int64_t)), out(3 * sizeof(std::int64_t));
  in.upload(bytes);
  const std::int64_t offsets[4] = {0, static_cast<std::int64_t>(lengths[0]),
                                   static_cast<std::int64_t>(lengths[0] + lengths[1]),
                                   static_cast<std::int64_t>(n)};
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(off.data(), offsets, sizeof(offsets), cudaMemcpyHostToDevice));
  out.poison();
  GPUPRIMS_CHECK_CUDA(gpuprims::segmented_reduce(reinterpret_cast<const std::int8_t*>(in.data()),
                                                 reinterpret_cast<const std::int64_t*>(off.data()),
                                                 reinterpret_cast<std::int64_t*>(out.data()), 3,
                                                 std::int64_t{0}, gpuprims::plus<std::int64_t>{}));
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
  std::int64_t got[3];
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got, out.data(), sizeof(got), cudaMemcpyDeviceToHost));
  std::size_t at = 0;
  for (int s = 0; s < 3; ++s) {
    std::int64_t ref = 0;
    for (std::size_t k = 0; k < lengths[s]; ++k) {
      ref += static_cast<std::int8_t>(bytes[at + k]);
    }
    at += lengths[s];
    CHECK(got[s] == ref);
  }
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}
