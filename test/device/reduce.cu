// gpuprims::reduce (device-wide): sizes around the tile and vector widths and far past them,
// shifted inputs (the unaligned head), integers exact, floats bit for bit against a CPU emulation
// of the specified order, the same bits under two grid limits, a workspace full of garbage, the
// workspace-free call on several streams, host threads and inside graphs, the overloads without
// init, and more than 2^31 int8 summed into int64.
#include <gpuprims/device/reduce.cuh>

#include "support/reduce_order.cuh"
#include "support/test_support.cuh"

#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace gpuprims::test;

// A caller's policy: small blocks, every input above 4 KiB in the large shape, no dependent launch,
// a small-shape pass of any size finished by its last block (524287 int32 items: the second pass,
// 2 tiles of the small shape, ends that way).
struct small_blocks_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_policy select(int) {
    return {{64, 2}, {128, 1}, 4096, 0, false, 0, std::size_t{1} << 30};
  }
};

// The library's policy with every pass launched, the last one too, and every pass but the last
// letting the next start early.
struct early_next_pass_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_policy select(int arch) {
    gpuprims::reduce_policy p = gpuprims::reduce_tuning::select(arch);
    p.early_next_pass_max_tiles = std::size_t{1} << 30;
    p.last_block_finishes_max_tiles = 0;
    return p;
  }
};

// The library's policy with no pass letting the next kernel in early (the last one neither).
struct no_early_start_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_policy select(int arch) {
    gpuprims::reduce_policy p = gpuprims::reduce_tuning::select(arch);
    p.early_next_pass_max_tiles = 0;
    p.last_pass_signals = false;
    return p;
  }
};

// Small tiles of 32 threads x 8 words and a last block that finishes passes of up to 8192 tiles:
// 4-byte partials travel packed with their marks up to 128 tiles (a word a thread of the
// finishing block; 131072 and 131075 floats are 128 tiles, the limit) and in the partials buffer,
// marks released after them, above (524287 floats: 512 tiles).
struct narrow_small_tiles_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_policy select(int arch) {
    gpuprims::reduce_policy p = gpuprims::reduce_tuning::select(arch);
    p.small = {32, 8};
    p.last_block_finishes_max_tiles = 8192;
    return p;
  }
};

// The library's policy with every partial in its own buffer, its mark released after it, where
// 4-byte partials would travel in their marks: the same bits by the other path.
struct unpacked_marks_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_policy select(int arch) {
    gpuprims::reduce_policy p = gpuprims::reduce_tuning::select(arch);
    p.partials_in_marks = false;
    return p;
  }
};

// Small tiles of 64 threads x 8 words, and large passes (512 x 4) that finish in their last block
// wherever their 4-byte partials can travel packed: 2^22 + 5 floats are 513 large tiles, 128 words
// of partials and a tail item; the final small tile gives thread t words t and t + 64, so the
// large block's threads 64-127 poll the second ones and hand them to threads 0-63 through shared
// memory.
struct large_finishes_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_policy select(int arch) {
    gpuprims::reduce_policy p = gpuprims::reduce_tuning::select(arch);
    p.small = {64, 8};
    p.large_pass_finishes_max_tiles = std::size_t{1} << 30;
    return p;
  }
};

// The library's policy with at most three blocks per launch (each loops over many tiles): the
// order, and so the bits, must not change.
struct three_blocks_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_policy select(int arch) {
    gpuprims::reduce_policy p = gpuprims::reduce_tuning::select(arch);
    p.max_blocks = 3;
    return p;
  }
};

// The launcher calls go through function pointers to these instantiations, the shape that the GPU
// machine's gcc 13 compiled quickly (see docs/design.md).
template <class Tuning, class Item, class T, class Op>
cudaError_t run_pooled(const Item* in, T* out, std::size_t n, T init, Op op, cudaStream_t s) {
  return gpuprims::reduce<Tuning>(in, out, n, init, op, s);
}
template <class Tuning, class Item, class T, class Op>
cudaError_t run_with_workspace(const Item* in, T* out, std::size_t n, T init, Op op, void* ws,
                               std::size_t bytes) {
  return gpuprims::reduce<Tuning>(in, out, n, init, op, ws, bytes);
}

template <class Tuning, class Item, class T, class Op>
cudaError_t run_with_workspace_on(const Item* in, T* out, std::size_t n, T init, Op op, void* ws,
                                  std::size_t bytes, cudaStream_t s) {
  return gpuprims::reduce<Tuning>(in, out, n, init, op, ws, bytes, s);
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class Tuning>
gpuprims::reduce_policy policy_here() {
  gpuprims::detail::device_facts facts;
  GPUPRIMS_CHECK_CUDA(gpuprims::detail::current_device_facts(facts));
  return Tuning::select(facts.target_arch);
}

// ---- the checks ------------------------------------------------------------------------------

// Runs gpuprims::reduce on items[offset, offset + n) twice without a workspace argument and once
// with a caller workspace full of garbage; all three must agree bit for bit, and with the CPU
// emulation of the order (floating point: bit for bit; a double sum is also checked against a
// bound).
template <class Item, class T, class Op, class Tuning = gpuprims::reduce_tuning>
T check_reduce(const std::string& name, const std::vector<Item>& items, std::size_t offset,
               std::size_t n, T init, Op op) {
  INFO(name << ": n = " << n << ", offset = " << offset);
  device_buffer in((offset + n) * sizeof(Item) + 1), out(3 * sizeof(T));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), items.data(), (offset + n) * sizeof(Item), cudaMemcpyHostToDevice));
  out.poison();
  const Item* first = reinterpret_cast<const Item*>(in.data()) + offset;
  T* results = reinterpret_cast<T*>(out.data());
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA((gpuprims::reduce_workspace_bytes<Item, T, Tuning>(n, bytes)));
  if constexpr (std::is_same_v<Tuning, gpuprims::reduce_tuning> && sizeof(T) <= 8) {
    CHECK(bytes <= 768 + n * sizeof(Item) / 2048);  // as documented
  }
  device_buffer workspace(bytes);
  workspace.poison();  // no zeroing asked for: garbage must not matter
  cudaError_t (*pooled)(const Item*, T*, std::size_t, T, Op, cudaStream_t) =
      &run_pooled<Tuning, Item, T, Op>;
  cudaError_t (*with_workspace)(const Item*, T*, std::size_t, T, Op, void*, std::size_t) =
      &run_with_workspace<Tuning, Item, T, Op>;
  GPUPRIMS_CHECK_CUDA(pooled(first, results + 0, n, init, op, 0));
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA(pooled(first, results + 1, n, init, op, 0));
  GPUPRIMS_CHECK_LAUNCH();
  GPUPRIMS_CHECK_CUDA(with_workspace(first, results + 2, n, init, op,
                                     bytes == 0 ? nullptr : workspace.data(), bytes));
  GPUPRIMS_CHECK_LAUNCH();
  T got[3];
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got, results, sizeof(got), cudaMemcpyDeviceToHost));
  // What the workspace-free calls kept for stream 0, freed (compute-sanitizer's leak check).
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(0));
  CHECK(same_bits(got[0], got[1]));
  CHECK(same_bits(got[0], got[2]));

  const T emulated =
      emulate_reduce(items.data() + offset, n, reinterpret_cast<std::uintptr_t>(first), init, op,
                     policy_here<Tuning>());
  CHECK(same_bits(got[0], emulated));
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
  } else if constexpr (!std::is_floating_point_v<T> || !std::is_same_v<Op, gpuprims::plus<T>>) {
    T ref = init;  // exact: integers, or an order-free operator
    for (std::size_t i = offset; i < offset + n; ++i) {
      ref = op(ref, static_cast<T>(items[i]));
    }
    INFO("got " << got[0] << ", expected " << ref);
    CHECK(same_bits(got[0], ref));
  }
  return got[0];
}

// The suite's sizes: around a warp, a vector word, a tile of either shape, the 8 MiB switch
// between them, and several passes.
inline const std::vector<std::size_t> suite_sizes = {0,
                                                     1,
                                                     3,
                                                     31,
                                                     32,
                                                     33,
                                                     1000,
                                                     2047,
                                                     2048,
                                                     8191,
                                                     8192,
                                                     8193,
                                                     65537,
                                                     131072,
                                                     131075,
                                                     524287,
                                                     (std::size_t{1} << 20) + 7,
                                                     (std::size_t{1} << 21) + 1,
                                                     (std::size_t{1} << 22) + 5};

template <class Item, class T, class Op, class Gen, class Tuning = gpuprims::reduce_tuning>
void check_sizes(const std::string& name, T init, Op op, Gen gen, Tuning = {}) {
  const std::size_t max_n = (std::size_t{1} << 22) + 5 + 16;
  std::vector<Item> items(max_n);
  for (auto& x : items) {
    x = gen();
  }
  for (std::size_t n : suite_sizes) {
    for (std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
      check_reduce<Item, T, Op, Tuning>(name, items, offset, n, init, op);
    }
  }
}

}  // namespace

TEST_CASE("gpuprims::reduce is right for every size, offset and type", "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  auto unit = [&g] { return static_cast<float>(static_cast<int>(g() % 17) - 8); };
  check_sizes<std::int32_t>("int32 plus", std::int32_t{7}, gpuprims::plus<std::int32_t>{},
                            [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; });
  check_sizes<std::uint32_t>("uint32 bit_xor", std::uint32_t{0}, gpuprims::bit_xor<std::uint32_t>{},
                             [&g] { return static_cast<std::uint32_t>(g()); });
  check_sizes<std::int64_t>("int64 maximum", std::numeric_limits<std::int64_t>::min(),
                            gpuprims::maximum<std::int64_t>{},
                            [&g] { return static_cast<std::int64_t>(g()); });
  check_sizes<float>("float minimum", 1e30f, gpuprims::minimum<float>{},
                     [&g] { return std::uniform_real_distribution<float>(-1e6f, 1e6f)(g); });
  check_sizes<__half>("__half into float plus", 0.0f, gpuprims::plus<float>{},
                      [&] { return __float2half(unit()); });
  check_sizes<std::int8_t>("int8 into int64 plus", std::int64_t{0}, gpuprims::plus<std::int64_t>{},
                           [&g] { return static_cast<std::int8_t>(g()); });
}

TEST_CASE("gpuprims::reduce combines floats in the specified order, whatever the grid",
          "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  // Real-valued data over many magnitudes: any change of order changes the bits.
  const auto wide = [&g] {
    return std::ldexp(std::uniform_real_distribution<double>(-1, 1)(g),
                      static_cast<int>(g() % 40) - 20);
  };
  check_sizes<float>("float plus", 0.5f, gpuprims::plus<float>{},
                     [&] { return static_cast<float>(wide()); });
  check_sizes<double>("double plus", 0.0, gpuprims::plus<double>{}, wide);
  // With three blocks per launch, each looping over many tiles: the same bits.
  std::vector<float> items((std::size_t{1} << 22) + 32);
  for (auto& x : items) {
    x = static_cast<float>(wide());
  }
  for (std::size_t n : suite_sizes) {
    for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
      const float all = check_reduce<float, float, gpuprims::plus<float>>(
          "float plus, default grid", items, offset, n, 0.0f, gpuprims::plus<float>{});
      const float three = check_reduce<float, float, gpuprims::plus<float>, three_blocks_tuning>(
          "float plus, three blocks", items, offset, n, 0.0f, gpuprims::plus<float>{});
      INFO("n = " << n << ", offset = " << offset);
      CHECK(same_bits(all, three));
    }
  }
}

TEST_CASE("gpuprims::reduce runs a caller's tuning", "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  check_sizes<std::int32_t>(
      "int32 plus, small blocks", std::int32_t{-3}, gpuprims::plus<std::int32_t>{},
      [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; }, small_blocks_tuning{});
  check_sizes<double>(
      "double plus, small blocks", 0.0, gpuprims::plus<double>{},
      [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); }, small_blocks_tuning{});
  check_sizes<float>(
      "float plus, next pass early", 0.0f, gpuprims::plus<float>{},
      [&g] { return std::uniform_real_distribution<float>(-1, 1)(g); }, early_next_pass_tuning{});
  check_sizes<float>(
      "float plus, no early start", 0.0f, gpuprims::plus<float>{},
      [&g] { return std::uniform_real_distribution<float>(-1, 1)(g); }, no_early_start_tuning{});
  check_sizes<float>(
      "float plus, narrow small tiles", 0.0f, gpuprims::plus<float>{},
      [&g] { return std::uniform_real_distribution<float>(-1, 1)(g); },
      narrow_small_tiles_tuning{});
  check_sizes<std::int32_t>(
      "int32 plus, narrow small tiles", std::int32_t{5}, gpuprims::plus<std::int32_t>{},
      [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; }, narrow_small_tiles_tuning{});
  check_sizes<float>(
      "float plus, partials not in the marks", 0.0f, gpuprims::plus<float>{},
      [&g] { return std::uniform_real_distribution<float>(-1, 1)(g); }, unpacked_marks_tuning{});
  check_sizes<float>(
      "float plus, large passes finish", 0.0f, gpuprims::plus<float>{},
      [&g] { return std::uniform_real_distribution<float>(-1, 1)(g); }, large_finishes_tuning{});
  check_sizes<double>(
      "double plus, large passes finish (not packed: launched)", 0.0, gpuprims::plus<double>{},
      [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); }, large_finishes_tuning{});
}

TEST_CASE("gpuprims::reduce finishes a large pass in its last block, up to 2048 tiles",
          "[reduce][gpu]") {
  // The library's policy: 2^23 + 2^15 + 3 floats are 1029 large tiles, so the final small tile
  // gives threads 0 and 1 a second word of partials, which threads 256 and 257 of the large block
  // poll and hand over through shared memory; 2^24 floats are 2048 tiles, the limit; one more
  // item, and the second pass is launched. Offset 1 moves every tile by one item.
  std::mt19937_64& g = rng();
  const std::vector<std::size_t> sizes = {(std::size_t{1} << 23) + (std::size_t{1} << 15) + 3,
                                          std::size_t{1} << 24, (std::size_t{1} << 24) + 1};
  std::vector<float> floats((std::size_t{1} << 24) + 2);
  std::vector<std::int32_t> ints(floats.size());
  for (std::size_t i = 0; i < floats.size(); ++i) {
    floats[i] = static_cast<float>(std::ldexp(std::uniform_real_distribution<double>(-1, 1)(g),
                                              static_cast<int>(g() % 40) - 20));
    ints[i] = static_cast<std::int32_t>(g() % 2001) - 1000;
  }
  for (std::size_t n : sizes) {
    for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
      check_reduce<float, float>("float plus", floats, offset, n, 0.25f, gpuprims::plus<float>{});
      check_reduce<float, float>("float maximum", floats, offset, n, -1e30f,
                                 gpuprims::maximum<float>{});
      check_reduce<std::int32_t, std::int32_t>("int32 plus", ints, offset, n, std::int32_t{9},
                                               gpuprims::plus<std::int32_t>{});
    }
  }
}

TEST_CASE("gpuprims::reduce without init starts from the operator's identity", "[reduce][gpu]") {
  std::vector<float> host = {3.5f, -2.0f, 7.25f, 0.5f, -9.0f};
  device_buffer in(host.size() * sizeof(float)), out(4 * sizeof(float));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  out.poison();
  const auto* x = reinterpret_cast<const float*>(in.data());
  auto* r = reinterpret_cast<float*>(out.data());
  GPUPRIMS_CHECK_CUDA(gpuprims::reduce(x, r + 0, host.size(), gpuprims::maximum<float>{}));
  GPUPRIMS_CHECK_CUDA(gpuprims::reduce(x, r + 1, host.size(), gpuprims::minimum<float>{}));
  GPUPRIMS_CHECK_CUDA(gpuprims::reduce(x, r + 2, 0, gpuprims::maximum<float>{}));
  GPUPRIMS_CHECK_CUDA(gpuprims::reduce(x, r + 3, 0, gpuprims::minimum<float>{}, nullptr, 0));
  GPUPRIMS_CHECK_LAUNCH();
  float got[4];
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got, r, sizeof(got), cudaMemcpyDeviceToHost));
  CHECK(got[0] == 7.25f);
  CHECK(got[1] == -9.0f);
  CHECK(got[2] == -std::numeric_limits<float>::infinity());
  CHECK(got[3] == std::numeric_limits<float>::infinity());
  CHECK(gpuprims::minimum<int>::identity() == std::numeric_limits<int>::max());
  CHECK(gpuprims::maximum<unsigned>::identity() == 0u);
}

TEST_CASE("gpuprims::reduce rejects a short, null or misaligned workspace", "[reduce][gpu]") {
  const std::size_t n = std::size_t{1} << 20;
  device_buffer buffer(n * sizeof(float) + 4096);
  float* data = reinterpret_cast<float*>(buffer.data());
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA((gpuprims::reduce_workspace_bytes<float>(n, bytes)));
  REQUIRE(bytes > 0);
  cudaError_t (*with_workspace)(const float*, float*, std::size_t, float, gpuprims::plus<float>,
                                void*, std::size_t) =
      &run_with_workspace<gpuprims::reduce_tuning, float, float, gpuprims::plus<float>>;
  device_buffer ws(bytes + 256);
  const gpuprims::plus<float> op{};
  CHECK(with_workspace(data, data, n, 0.0f, op, ws.data(), bytes - 1) == cudaErrorInvalidValue);
  CHECK(with_workspace(data, data, n, 0.0f, op, nullptr, bytes) == cudaErrorInvalidValue);
  CHECK(with_workspace(data, data, n, 0.0f, op, ws.data() + 16, bytes) == cudaErrorInvalidValue);
  CHECK(with_workspace(nullptr, data, n, 0.0f, op, ws.data(), bytes) == cudaErrorInvalidValue);
  CHECK(with_workspace(data, nullptr, n, 0.0f, op, ws.data(), bytes) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);
}

namespace {

// n random ints and their sum, on the device.
struct int_input {
  std::vector<std::int32_t> host;
  long long sum = 0;
  device_buffer device;
  explicit int_input(std::size_t n) : host(n), device(n * sizeof(std::int32_t)) {
    for (auto& x : host) {
      x = static_cast<std::int32_t>(rng()() % 2001) - 1000;
      sum += x;
    }
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(device.data(), host.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  }
  const std::int32_t* data() const { return reinterpret_cast<const std::int32_t*>(device.data()); }
};

}  // namespace

TEST_CASE("gpuprims::reduce with a caller's workspace, captured once and replayed",
          "[reduce][gpu]") {
  // A graph replays a call with the same arguments, the pass's mark included: each call must leave
  // the workspace so that the next one does not take the last one's partials for its own. Sizes
  // whose first pass ends in its last block under the library's policy (one launch: 9 and 128
  // tiles), by the default grid and by three blocks.
  cudaError_t (*calls[2])(const std::int32_t*, long long*, std::size_t, long long,
                          gpuprims::plus<long long>, void*, std::size_t, cudaStream_t) = {
      &run_with_workspace_on<gpuprims::reduce_tuning, std::int32_t, long long,
                             gpuprims::plus<long long>>,
      &run_with_workspace_on<three_blocks_tuning, std::int32_t, long long,
                             gpuprims::plus<long long>>};
  for (std::size_t n : {std::size_t{70001}, (std::size_t{1} << 20) + 1}) {
    for (int grid = 0; grid < 2; ++grid) {
      INFO("n = " << n << ", " << (grid == 0 ? "default grid" : "three blocks"));
      std::size_t bytes = 0;
      GPUPRIMS_CHECK_CUDA((gpuprims::reduce_workspace_bytes<std::int32_t, long long>(n, bytes)));
      device_buffer in(n * sizeof(std::int32_t)), out(sizeof(long long)), ws(bytes);
      ws.poison();
      cudaStream_t s = nullptr;
      GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      GPUPRIMS_CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      GPUPRIMS_CHECK_CUDA(calls[grid](reinterpret_cast<const std::int32_t*>(in.data()),
                                      reinterpret_cast<long long*>(out.data()), n, 5, {}, ws.data(),
                                      bytes, s));
      cudaGraph_t graph = nullptr;
      std::size_t nodes = 0;
      GPUPRIMS_CHECK_CUDA(cudaStreamEndCapture(s, &graph));
      GPUPRIMS_CHECK_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
      REQUIRE(nodes == 1);  // one launch: the first pass ends in its last block
      cudaGraphExec_t exec = nullptr;
      GPUPRIMS_CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
      GPUPRIMS_CHECK_CUDA(cudaGraphDestroy(graph));
      for (int replay = 0; replay < 4; ++replay) {
        const int_input input(n);  // new numbers every time
        GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), input.data(), n * sizeof(std::int32_t),
                                       cudaMemcpyDeviceToDevice));
        out.poison();
        GPUPRIMS_CHECK_CUDA(cudaGraphLaunch(exec, s));
        GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(s));
        long long got = 0;
        GPUPRIMS_CHECK_CUDA(cudaMemcpy(&got, out.data(), sizeof(got), cudaMemcpyDeviceToHost));
        INFO("replay " << replay);
        CHECK(got == input.sum + 5);
      }
      GPUPRIMS_CHECK_CUDA(cudaGraphExecDestroy(exec));
      GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(s));
      GPUPRIMS_CHECK_LAUNCH();
    }
  }
}

TEST_CASE("gpuprims::reduce without a workspace: concurrent streams, threads and graphs",
          "[reduce][gpu]") {
  constexpr int lanes = 4;
  constexpr int rounds = 8;
  // Sizes of one, two and three passes, so that every call needs a workspace of its own size.
  const std::size_t sizes[lanes] = {(std::size_t{1} << 22) + 3, 70001, (std::size_t{1} << 20) + 1,
                                    5000};
  std::deque<int_input> inputs;  // device_buffer does not move
  for (std::size_t n : sizes) {
    inputs.emplace_back(n);
  }
  device_buffer out(lanes * rounds * sizeof(long long));
  auto* results = reinterpret_cast<long long*>(out.data());
  const auto expect_all = [&](const char* what) {
    std::vector<long long> got(lanes * rounds);
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(got.data(), results, got.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int lane = 0; lane < lanes; ++lane) {
      for (int round = 0; round < rounds; ++round) {
        INFO(what << ": lane " << lane << ", round " << round);
        CHECK(got[lane * rounds + round] == inputs[lane].sum);
      }
    }
  };
  cudaError_t (*pooled)(const std::int32_t*, long long*, std::size_t, long long,
                        gpuprims::plus<long long>, cudaStream_t) =
      &run_pooled<gpuprims::reduce_tuning, std::int32_t, long long, gpuprims::plus<long long>>;

  SECTION("several streams, one host thread") {
    out.poison();
    cudaStream_t streams[lanes];
    for (auto& s : streams) {
      GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    }
    for (int round = 0; round < rounds; ++round) {
      for (int lane = 0; lane < lanes; ++lane) {
        GPUPRIMS_CHECK_CUDA(pooled(inputs[lane].data(), results + lane * rounds + round,
                                   sizes[lane], 0, {}, streams[lane]));
      }
    }
    for (auto& s : streams) {
      GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(s));
      GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(s));
      GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(s));
      GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(s));
    }
    GPUPRIMS_CHECK_LAUNCH();
    expect_all("streams");
  }

  SECTION("several host threads, each on the per-thread default stream and its own stream") {
    out.poison();
    std::vector<std::thread> threads;
    std::vector<cudaError_t> status(lanes, cudaSuccess);
    for (int lane = 0; lane < lanes; ++lane) {
      threads.emplace_back([&, lane] {
        cudaStream_t own = nullptr;
        cudaError_t e = cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking);
        for (int round = 0; round < rounds && e == cudaSuccess; ++round) {
          // Alternate: the per-thread default stream, then the thread's own stream.
          const cudaStream_t s = round % 2 == 0 ? cudaStreamPerThread : own;
          e = pooled(inputs[lane].data(), results + lane * rounds + round, sizes[lane], 0, {}, s);
        }
        if (e == cudaSuccess) e = cudaStreamSynchronize(own);
        if (e == cudaSuccess) e = gpuprims::release_stream_workspace(own);
        if (e == cudaSuccess) e = gpuprims::release_stream_workspace(cudaStreamPerThread);
        if (e == cudaSuccess) e = cudaStreamSynchronize(own);
        if (e == cudaSuccess) e = cudaStreamSynchronize(cudaStreamPerThread);
        if (own != nullptr && e == cudaSuccess) e = cudaStreamDestroy(own);
        status[lane] = e;
      });
    }
    for (auto& t : threads) {
      t.join();
    }
    for (int lane = 0; lane < lanes; ++lane) {
      INFO("thread " << lane << ": " << cudaGetErrorString(status[lane]));
      CHECK(status[lane] == cudaSuccess);
    }
    GPUPRIMS_CHECK_LAUNCH();
    expect_all("threads");
  }

  SECTION("one stream, its workspace outgrown by rising sizes, then released") {
    out.poison();
    cudaStream_t s = nullptr;
    GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    // Sizes rising from one tile (no workspace) to three passes: each call needs more than the one
    // before it, so the stream's buffer grows, and the buffers it outgrew are freed in the stream's
    // order after the calls that used them.
    const int order[lanes] = {3, 1, 2, 0};
    for (int i = 0; i < lanes; ++i) {
      const int lane = order[i];
      GPUPRIMS_CHECK_CUDA(
          pooled(inputs[lane].data(), results + lane * rounds, sizes[lane], 0, {}, s));
    }
    std::size_t largest = 0;
    GPUPRIMS_CHECK_CUDA(
        (gpuprims::reduce_workspace_bytes<std::int32_t, long long>(sizes[0], largest)));
    gpuprims::detail::stream_workspace_key key{};
    GPUPRIMS_CHECK_CUDA(
        gpuprims::detail::stream_workspace_key_of(s, gpuprims::detail::workspace_zeroed, key));
    auto& cache = gpuprims::detail::stream_workspaces();
    const auto entry_bytes = [&]() -> std::size_t {
      const std::lock_guard<std::mutex> lock(cache.mutex);
      const auto it = cache.entries.find(key);
      return it == cache.entries.end() ? 0 : it->second.bytes;
    };
    CHECK(largest > 0);
    CHECK(entry_bytes() >= largest);
    for (int round = 1; round < rounds; ++round) {
      for (int lane = 0; lane < lanes; ++lane) {
        GPUPRIMS_CHECK_CUDA(
            pooled(inputs[lane].data(), results + lane * rounds + round, sizes[lane], 0, {}, s));
      }
    }
    GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(s));
    CHECK(entry_bytes() == 0);  // the entry is gone
    GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(s));
    GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(s));
    GPUPRIMS_CHECK_LAUNCH();
    expect_all("one stream, growing");
  }

  // Each call queues several launches: without the entry held while a call queues them, two
  // threads' passes interleave on the stream and one call's second pass reads the other's partials
  // (seen once in this section as compute_80 PTX, before the entry had its lock).
  SECTION("several host threads on one stream, the workspace growing under them") {
    out.poison();
    cudaStream_t shared = nullptr;
    GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&shared, cudaStreamNonBlocking));
    std::vector<std::thread> threads;
    std::vector<cudaError_t> status(lanes, cudaSuccess);
    for (int lane = 0; lane < lanes; ++lane) {
      threads.emplace_back([&, lane] {
        cudaError_t e = cudaSuccess;
        for (int round = 0; round < rounds && e == cudaSuccess; ++round) {
          e = pooled(inputs[lane].data(), results + lane * rounds + round, sizes[lane], 0, {},
                     shared);
        }
        status[lane] = e;
      });
    }
    for (auto& t : threads) {
      t.join();
    }
    for (int lane = 0; lane < lanes; ++lane) {
      INFO("thread " << lane << ": " << cudaGetErrorString(status[lane]));
      CHECK(status[lane] == cudaSuccess);
    }
    GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(shared));
    GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(shared));
    GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(shared));
    GPUPRIMS_CHECK_LAUNCH();
    expect_all("threads on one stream");
  }

  SECTION("captured into a graph, instantiated twice, launched on two streams at once") {
    out.poison();
    cudaStream_t capture = nullptr, a = nullptr, b = nullptr;
    GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking));
    GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    // Graph g writes rounds [0, rounds/2) of every lane, graph h the rest (same calls, other
    // outputs).
    cudaGraphExec_t execs[2] = {};
    for (int half = 0; half < 2; ++half) {
      GPUPRIMS_CHECK_CUDA(cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal));
      for (int round = half * rounds / 2; round < (half + 1) * rounds / 2; ++round) {
        for (int lane = 0; lane < lanes; ++lane) {
          GPUPRIMS_CHECK_CUDA(pooled(inputs[lane].data(), results + lane * rounds + round,
                                     sizes[lane], 0, {}, capture));
        }
      }
      cudaGraph_t graph = nullptr;
      GPUPRIMS_CHECK_CUDA(cudaStreamEndCapture(capture, &graph));
      GPUPRIMS_CHECK_CUDA(cudaGraphInstantiate(&execs[half], graph, 0));
      GPUPRIMS_CHECK_CUDA(cudaGraphDestroy(graph));
    }
    for (int repeat = 0; repeat < 3; ++repeat) {
      GPUPRIMS_CHECK_CUDA(cudaGraphLaunch(execs[0], a));
      GPUPRIMS_CHECK_CUDA(cudaGraphLaunch(execs[1], b));
    }
    GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(a));
    GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(b));
    for (auto& e : execs) {
      GPUPRIMS_CHECK_CUDA(cudaGraphExecDestroy(e));
    }
    for (cudaStream_t s : {capture, a, b}) {
      GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(s));
    }
    GPUPRIMS_CHECK_LAUNCH();
    expect_all("graphs");
  }
}

TEST_CASE("gpuprims::reduce sums more than 2^31 int8 into int64", "[reduce][gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 77;
  std::vector<std::int8_t> items(n + 1);
  fill_random(reinterpret_cast<unsigned char*>(items.data()), items.size());
  check_reduce("int8 into int64 plus", items, 1, n, std::int64_t{0},
               gpuprims::plus<std::int64_t>{});
}
