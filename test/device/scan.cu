// gpuprims::inclusive_scan and exclusive_scan: sizes around the tile, the chunk of 32 tiles and the
// look-back's 32-chunk window; int32, uint32, int64, integer-valued floats, doubles within a bound,
// __half into float, int8 into int64 and a non-commutative operator; in place, unaligned pointers,
// poisoned outputs and guards past the end; the bits against a CPU emulation of the documented
// order (and the same bits aligned or not, call after call); the caller's workspace through many
// calls and across the epoch's wrap; graph capture and two streams; more than 2^31 items; the
// argument checks.
#include <gpuprims/device/scan.cuh>

#include "support/test_support.cuh"

#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace gpuprims::test {

// x -> a x + b (mod 2^32), composed first then second: associative, not commutative.
struct affine {
  std::uint32_t a, b;
};
struct affine_op {
  __host__ __device__ affine operator()(const affine& f, const affine& g) const {
    return {f.a * g.a, f.b * g.a + g.b};
  }
};

// One warp a block, 4 items a thread: tiles of 128 floats (64 doubles), so 32 chunks (the
// look-back's window) are 131072 floats. No dependent launch, no small-input shape; each tile
// asks the L2 for the tile 3 after it (the last tiles' prefetches reach past the input: skipped).
template <bool Staged>
struct one_warp_tuning_of {
  __host__ __device__ static constexpr gpuprims::scan_policy select(int /*arch*/) {
    return {32, 4, 1, false, 0, 0, Staged, 0, false, 0, 3};
  }
};

// One warp a block, 16 items a thread, staged, the first 2 of a lane's 4 words (floats) keeping
// `before` in registers and the other 2 in shared memory, as the default's large tiles split their
// 6 words 3 and 3 (whose kernels run only past 2^21 items).
struct split_before_tuning {
  __host__ __device__ static constexpr gpuprims::scan_policy select(int /*arch*/) {
    return {32, 16, 1, false, 0, 0, true, 0, false, 2};
  }
};

// The library's policy with the other kind of tile (staged <-> registers, for both shapes): other
// code, the same order.
struct other_tile_tuning {
  __host__ __device__ static constexpr gpuprims::scan_policy select(int arch) {
    gpuprims::scan_policy p = gpuprims::scan_tuning::select(arch);
    p.staged = !p.staged;
    p.small_staged = !p.small_staged;
    return p;
  }
};

// Counts i in [1, n) with out[i] != out[i - 1] + in[i], and i = 0 with out[0] != in[0].
__global__ void count_scan_errors(const std::int8_t* in, const long long* out, std::size_t n,
                                  unsigned long long* errors) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const long long expect = (i == 0 ? 0 : out[i - 1]) + in[i];
    if (out[i] != expect) {
      atomicAdd(errors, 1ull);
    }
  }
}

}  // namespace gpuprims::test

namespace {

using namespace gpuprims::test;
using gpuprims::detail::maybe;

bool same_bits(const void* a, const void* b, std::size_t bytes) {
  return std::memcmp(a, b, bytes) == 0;
}

using gpuprims::detail::fold_after;
using gpuprims::detail::fold_maybe;

// The order docs/scan.md specifies, on the CPU: what the GPU must give bit for bit.
template <class Tuning, class Item, class T, class Op>
std::vector<T> emulate_scan(const std::vector<Item>& items, bool exclusive, T init, Op op) {
  const gpuprims::scan_policy p = Tuning::select(90);
  const auto shape = gpuprims::detail::scan_shape_for<Item, T>(p, items.size());
  const int per_word = gpuprims::detail::scan_items_per_word<Item>;
  const int words = shape.words;
  const int warps = shape.threads / 32;
  const std::size_t n = items.size();
  const std::size_t warp_items = std::size_t{32} * words * per_word;
  const std::size_t tile_items = shape.tile_items();
  const std::size_t tiles = (n + tile_items - 1) / tile_items;
  const auto item_at = [&](std::size_t i) {
    return i < n ? static_cast<T>(items[i]) : static_cast<T>(Item{});
  };
  // Per item its word's serial scan (y); per word `before` (carry op lane prefix), tile-major.
  std::vector<T> y(tiles * tile_items);
  std::vector<maybe<T>> before(tiles * tile_items / per_word);
  std::vector<std::vector<T>> warp_totals(tiles, std::vector<T>(warps));
  std::vector<T> aggregates(tiles);
  std::vector<T> ks(32), next(32);
  for (std::size_t t = 0; t < tiles; ++t) {
    for (int w = 0; w < warps; ++w) {
      const std::size_t warp_base = t * tile_items + w * warp_items;
      maybe<T> carry{T{}, false};
      for (int j = 0; j < words; ++j) {
        for (int l = 0; l < 32; ++l) {
          const std::size_t first = warp_base + (std::size_t{32} * j + l) * per_word;
          y[first] = item_at(first);
          for (int k = 1; k < per_word; ++k) {
            y[first + k] = op(y[first + k - 1], item_at(first + k));
          }
          ks[l] = y[first + per_word - 1];
        }
        for (int offset = 1; offset < 32; offset *= 2) {
          next = ks;
          for (int l = offset; l < 32; ++l) {
            next[l] = op(ks[l - offset], ks[l]);
          }
          ks = next;
        }
        for (int l = 0; l < 32; ++l) {
          const std::size_t first = warp_base + (std::size_t{32} * j + l) * per_word;
          before[first / per_word] =
              l > 0 ? maybe<T>{fold_after(carry, ks[l - 1], op), true} : carry;
        }
        carry = {fold_after(carry, ks[31], op), true};
      }
      warp_totals[t][w] = carry.value;
    }
    aggregates[t] = warp_totals[t][0];
    for (int w = 1; w < warps; ++w) {
      aggregates[t] = op(aggregates[t], warp_totals[t][w]);
    }
  }
  // Tile prefixes: a serial chain over chunks of 32 tiles, a serial fold within a chunk.
  std::vector<T> out(n);
  maybe<T> chunk_prefix{init, exclusive};
  maybe<T> local{T{}, false};
  for (std::size_t t = 0; t < tiles; ++t) {
    if (t % 32 == 0) {
      local = {T{}, false};
    }
    maybe<T> head = fold_maybe(chunk_prefix, local, op);
    for (int w = 0; w < warps; ++w) {
      for (std::size_t first = t * tile_items + w * warp_items;
           first < t * tile_items + (w + 1) * warp_items && first < n; first += per_word) {
        const maybe<T> b = fold_maybe(head, before[first / per_word], op);
        for (int k = 0; k < per_word && first + k < n; ++k) {
          out[first + k] = exclusive ? (k == 0 ? b.value : op(b.value, y[first + k - 1]))
                                     : fold_after(b, y[first + k], op);
        }
      }
      head = {fold_after(head, warp_totals[t][w], op), true};
    }
    local = {fold_after(local, aggregates[t], op), true};
    if (t % 32 == 31) {
      chunk_prefix = {fold_after(chunk_prefix, local.value, op), true};
    }
  }
  return out;
}

// Scans `items` on the GPU (input at in_offset items into its buffer, output at out_offset, or in
// place), twice, into poisoned buffers with guards; returns the first result.
template <class Tuning, class Item, class T, class Op>
std::vector<T> gpu_scan(const std::vector<Item>& items, bool exclusive, T init, Op op,
                        std::size_t in_offset, std::size_t out_offset, bool in_place,
                        const std::string& name) {
  const std::size_t n = items.size();
  constexpr std::size_t guard = 64;
  device_buffer in((in_offset + n + guard) * sizeof(Item));
  device_buffer out((out_offset + n + guard) * sizeof(T));
  std::vector<std::vector<T>> got;
  for (int call = 0; call < 2; ++call) {
    INFO(name << ", call " << call);
    in.poison();
    out.poison();
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data() + in_offset * sizeof(Item), items.data(),
                                   n * sizeof(Item), cudaMemcpyHostToDevice));
    const auto* x = reinterpret_cast<const Item*>(in.data()) + in_offset;
    T* y = in_place ? reinterpret_cast<T*>(in.data()) + in_offset
                    : reinterpret_cast<T*>(out.data()) + out_offset;
    if (exclusive) {
      GPUPRIMS_CHECK_CUDA(gpuprims::exclusive_scan<Tuning>(x, y, n, init, op));
    } else {
      GPUPRIMS_CHECK_CUDA(gpuprims::inclusive_scan<Tuning>(x, y, n, op));
    }
    GPUPRIMS_CHECK_LAUNCH();
    const std::vector<unsigned char> bytes = (in_place ? in : out).download();
    const std::size_t offset = in_place ? in_offset : out_offset;
    const unsigned char* result = bytes.data() + offset * sizeof(T);
    // Nothing written before the output or past its end.
    CHECK(first_unpoisoned(bytes.data(), offset * sizeof(T)) == offset * sizeof(T));
    CHECK(first_unpoisoned(result + n * sizeof(T), guard * sizeof(T)) == guard * sizeof(T));
    got.emplace_back(n);
    std::memcpy(got.back().data(), result, n * sizeof(T));
  }
  CHECK(same_bits(got[0].data(), got[1].data(), n * sizeof(T)));
  // The easy overloads keep a workspace for the default stream: freed here, so that memcheck's leak
  // check stays clean whichever test cases run.
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
  return got[0];
}

template <class T>
bool exactly(const std::vector<T>& got, const std::vector<T>& want, std::size_t& where) {
  for (where = 0; where < got.size(); ++where) {
    if (!same_bits(&got[where], &want[where], sizeof(T))) {
      return false;
    }
  }
  return true;
}

// The GPU's bits equal the emulation's; for exact inputs the emulation equals a plain fold, and
// for doubles it is within (i + 1) eps of the sum of magnitudes.
template <class Tuning, class Item, class T, class Op, class Gen>
void check_scan(const std::string& name, std::size_t n, T init, Op op, Gen gen) {
  std::vector<Item> items(n);
  for (auto& x : items) {
    x = gen();
  }
  for (bool exclusive : {false, true}) {
    const std::vector<T> want = emulate_scan<Tuning>(items, exclusive, init, op);
    // A plain serial scan: the emulation must be a scan.
    // Integers and operators other than floating-point sums exactly; floating-point sums within
    // (i + 2) epsilon of the sum of magnitudes.
    std::size_t wrong = 0;
    T running = init;
    double sum = 0, magnitude = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const T before = running;
      running =
          (i == 0 && !exclusive) ? static_cast<T>(items[0]) : op(running, static_cast<T>(items[i]));
      const T serial = exclusive ? before : running;
      if constexpr (std::is_floating_point_v<T> && std::is_same_v<Op, gpuprims::plus<T>>) {
        const auto x = static_cast<double>(static_cast<T>(items[i]));
        const double mine = exclusive ? sum + static_cast<double>(init) : sum + x;
        magnitude += std::fabs(x);
        sum += x;
        const double bound = (i + 2) * std::numeric_limits<T>::epsilon() *
                             (magnitude + std::fabs(static_cast<double>(init)));
        wrong += std::fabs(static_cast<double>(want[i]) - mine) <= bound ? 0 : 1;
      } else {
        wrong += same_bits(&want[i], &serial, sizeof(T)) ? 0 : 1;
      }
    }
    INFO(name << ", n = " << n << (exclusive ? ", exclusive" : ", inclusive"));
    CHECK(wrong == 0);
    struct placement {
      std::size_t in_offset, out_offset;
      bool in_place;
      const char* what;
    };
    std::vector<placement> places = {{0, 0, false, "aligned"}, {1, 3, false, "unaligned"}};
    if (sizeof(Item) == sizeof(T)) {
      places.push_back({0, 0, true, "in place"});
      places.push_back({5, 0, true, "in place, unaligned"});
    }
    for (const placement& pl : places) {
      const std::vector<T> got =
          gpu_scan<Tuning>(items, exclusive, init, op, pl.in_offset, pl.out_offset, pl.in_place,
                           name + ", " + pl.what);
      std::size_t where = 0;
      const bool ok = exactly(got, want, where);
      INFO(pl.what << ": first difference at " << where);
      CHECK(ok);
    }
  }
}

std::vector<std::size_t> sizes_around(std::size_t tile) {
  return {1,
          2,
          3,
          31,
          tile - 1,
          tile,
          tile + 1,
          2 * tile,
          7919,
          32 * tile - 1,
          32 * tile,
          32 * tile + 1,
          33 * tile + 17,
          random_size(1, 20 * tile)};
}

// Each type at the sizes around its own tile; with a small-input shape, around the small tile and
// just past the longest input that takes it (large tiles, more than 10 chunks of them).
template <class Tuning, class Item, class T, class Op, class Gen>
void check_sizes(const std::string& name, T init, Op op, Gen gen) {
  const gpuprims::scan_policy p = Tuning::select(90);
  const bool small = gpuprims::detail::scan_small(p, 1);
  const std::size_t tile = gpuprims::detail::scan_shape_of<Item, T>(p, small).tile_items();
  std::vector<std::size_t> sizes = sizes_around(tile);
  if (small) {
    const std::size_t limit = p.small_max_items;
    const std::size_t large = gpuprims::detail::scan_shape_of<Item, T>(p).tile_items();
    const std::size_t chunks = large * 32;
    const std::size_t whole = (limit / chunks + 1) * chunks;  // the first whole chunk past it
    sizes.insert(sizes.end(), {limit, limit + 1, whole, whole + 1, random_size(limit, 2 * limit)});
  }
  for (std::size_t n : sizes) {
    check_scan<Tuning, Item>(name, n, init, op, gen);
  }
}

template <class Tuning>
void check_every_type() {
  std::mt19937_64& g = rng();
  const auto small_int = [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  const auto unit = [&g] { return static_cast<float>(static_cast<int>(g() % 7) - 3); };
  const auto real = [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); };
  const auto real_float = [&g] { return std::uniform_real_distribution<float>(0, 1)(g); };
  // A section a type: sanitizer runs take each as its own process (scripts/sanitizer_jobs.py).
  SECTION("int32 plus") {
    check_sizes<Tuning, std::int32_t>("int32 plus", std::int32_t{7}, gpuprims::plus<std::int32_t>{},
                                      small_int);
  }
  SECTION("uint32 max") {
    check_sizes<Tuning, std::uint32_t>("uint32 max", std::uint32_t{3},
                                       gpuprims::maximum<std::uint32_t>{},
                                       [&g] { return static_cast<std::uint32_t>(g()); });
  }
  SECTION("int64 plus") {
    check_sizes<Tuning, std::int64_t>("int64 plus", std::int64_t{-5},
                                      gpuprims::plus<std::int64_t>{},
                                      [&g] { return static_cast<std::int64_t>(g() >> 20); });
  }
  SECTION("integer-valued float plus") {
    check_sizes<Tuning, float>("integer-valued float plus", 2.0f, gpuprims::plus<float>{}, unit);
  }
  SECTION("float plus") {
    check_sizes<Tuning, float>("float plus (the order's bits)", 0.5f, gpuprims::plus<float>{},
                               real_float);
  }
  SECTION("double plus") {
    check_sizes<Tuning, double>("double plus", 0.25, gpuprims::plus<double>{}, real);
  }
  SECTION("affine") {
    check_sizes<Tuning, affine>("affine (not commutative)", affine{3, 1}, affine_op{}, [&g] {
      return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
    });
  }
  SECTION("int8 into int64") {
    check_sizes<Tuning, std::int8_t>("int8 into int64", std::int64_t{0},
                                     gpuprims::plus<std::int64_t>{},
                                     [&g] { return static_cast<std::int8_t>(g() % 255 - 127); });
  }
  SECTION("half into float") {
    check_sizes<Tuning, __half>("half into float", 1.0f, gpuprims::plus<float>{},
                                [&g] { return __float2half(static_cast<float>(g() % 9) - 4); });
  }
}

}  // namespace

TEST_CASE("scans match the documented order bit for bit, every type and size", "[scan][gpu]") {
  check_every_type<gpuprims::scan_tuning>();
}

TEST_CASE("scans with the other kind of tile (staged or in registers) give the same order",
          "[scan][gpu]") {
  STATIC_REQUIRE(other_tile_tuning::select(90).staged != gpuprims::scan_tuning::select(90).staged);
  STATIC_REQUIRE(other_tile_tuning::select(90).small_staged !=
                 gpuprims::scan_tuning::select(90).small_staged);
  // Every architecture gets the same tile shapes (the order), whichever tile it uses.
  for (int arch : {75, 80, 86, 89, 100, 120}) {
    const gpuprims::scan_policy p = gpuprims::scan_tuning::select(arch);
    const gpuprims::scan_policy h = gpuprims::scan_tuning::select(90);
    CHECK(p.block_threads == h.block_threads);
    CHECK(p.items_per_thread == h.items_per_thread);
    CHECK(p.small_items_per_thread == h.small_items_per_thread);
    CHECK(p.small_max_items == h.small_max_items);
  }
  check_every_type<other_tile_tuning>();
}

TEMPLATE_TEST_CASE("scans with one-warp tiles cross many chunks and the look-back window",
                   "[scan][gpu]", one_warp_tuning_of<false>, one_warp_tuning_of<true>) {
  check_every_type<TestType>();
  SECTION("the window slides") {
    std::mt19937_64& g = rng();
    const auto real_float = [&g] { return std::uniform_real_distribution<float>(0, 1)(g); };
    // 40 and 70 chunks of 32 tiles (128 floats, 64 doubles): the window of 32 chunks slides.
    for (std::size_t n : {std::size_t{40} * 32 * 128 + 5, std::size_t{70} * 32 * 128}) {
      check_scan<TestType, float>("float plus", n, 0.5f, gpuprims::plus<float>{}, real_float);
      check_scan<TestType, double>("double plus", n, 0.0, gpuprims::plus<double>{}, real_float);
    }
  }
}

TEST_CASE("staged tiles with `before` split between registers and shared memory", "[scan][gpu]") {
  STATIC_REQUIRE(gpuprims::scan_tuning::select(90).staged_before_registers > 0);
  check_every_type<split_before_tuning>();
}

TEST_CASE("scans of 2^24 + 3 floats match the order's emulation", "[scan][gpu][slow]") {
  std::mt19937_64& g = rng();
  const std::size_t n = (std::size_t{1} << 24) + 3;
  std::vector<float> items(n);
  for (auto& x : items) {
    x = std::uniform_real_distribution<float>(-1, 2)(g);
  }
  const auto want =
      emulate_scan<gpuprims::scan_tuning>(items, false, 0.0f, gpuprims::plus<float>{});
  const auto got = gpu_scan<gpuprims::scan_tuning>(items, false, 0.0f, gpuprims::plus<float>{}, 0,
                                                   0, false, "2^24 + 3");
  std::size_t where = 0;
  const bool ok = exactly(got, want, where);
  INFO("first difference at " << where);
  CHECK(ok);
}

TEST_CASE("a caller's workspace, zeroed once, serves many calls and the epoch's wrap",
          "[scan][gpu]") {
  std::mt19937_64& g = rng();
  const std::size_t most = 3 * 6144 * 33 + 11;  // 100 tiles, 4 chunks
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA((gpuprims::scan_workspace_bytes<std::int32_t>(most, bytes)));
  device_buffer ws(bytes), in(most * 4), out(most * 4);
  GPUPRIMS_CHECK_CUDA(cudaMemset(ws.data(), 0, bytes));
  for (int round = 0; round < 2; ++round) {
    if (round == 1) {  // two grids before the 30-bit epoch wraps
      const unsigned int epoch = gpuprims::detail::epoch_limit - 2;
      GPUPRIMS_CHECK_CUDA(cudaMemcpy(ws.data(), &epoch, sizeof(epoch), cudaMemcpyHostToDevice));
    }
    for (int call = 0; call < 6; ++call) {
      const std::size_t n = call % 2 == 0 ? most : random_size(1, most);
      INFO("round " << round << ", call " << call << ", n = " << n);
      std::vector<std::int32_t> items(n);
      for (auto& x : items) {
        x = static_cast<std::int32_t>(g() % 1001) - 500;
      }
      GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), items.data(), n * 4, cudaMemcpyHostToDevice));
      out.poison();
      const auto* x = reinterpret_cast<const std::int32_t*>(in.data());
      auto* y = reinterpret_cast<std::int32_t*>(out.data());
      GPUPRIMS_CHECK_CUDA(
          gpuprims::exclusive_scan(x, y, n, 0, gpuprims::plus<std::int32_t>{}, ws.data(), bytes));
      GPUPRIMS_CHECK_LAUNCH();
      std::vector<std::int32_t> got(n);
      GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), y, n * 4, cudaMemcpyDeviceToHost));
      std::size_t wrong = 0;
      std::int32_t running = 0;
      for (std::size_t i = 0; i < n; ++i) {
        wrong += got[i] == running ? 0 : 1;
        running += items[i];
      }
      CHECK(wrong == 0);
    }
  }
  unsigned int epoch = 0;
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(&epoch, ws.data(), sizeof(epoch), cudaMemcpyDeviceToHost));
  CHECK(epoch == 4);  // wrapped to 0 after the second call of the round, then four more grids
}

TEST_CASE("scans captured in a graph and on two streams at once", "[scan][gpu]") {
  std::mt19937_64& g = rng();
  const std::size_t n = 1000003;
  std::vector<float> items(n);
  for (auto& x : items) {
    x = std::uniform_real_distribution<float>(0, 1)(g);
  }
  const auto want =
      emulate_scan<gpuprims::scan_tuning>(items, false, 0.0f, gpuprims::plus<float>{});
  device_buffer in(n * 4), a(n * 4), b(n * 4);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), items.data(), n * 4, cudaMemcpyHostToDevice));
  const auto* x = reinterpret_cast<const float*>(in.data());
  cudaStream_t s1 = nullptr, s2 = nullptr;
  GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  const auto check = [&](const device_buffer& out, const char* what) {
    std::vector<float> got(n);
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), out.data(), n * 4, cudaMemcpyDeviceToHost));
    std::size_t where = 0;
    const bool ok = exactly(got, want, where);
    INFO(what << ": first difference at " << where);
    CHECK(ok);
  };
  for (int rep = 0; rep < 3; ++rep) {
    a.poison();
    b.poison();
    GPUPRIMS_CHECK_CUDA(gpuprims::inclusive_scan(x, reinterpret_cast<float*>(a.data()), n,
                                                 gpuprims::plus<float>{}, s1));
    GPUPRIMS_CHECK_CUDA(gpuprims::inclusive_scan(x, reinterpret_cast<float*>(b.data()), n,
                                                 gpuprims::plus<float>{}, s2));
    GPUPRIMS_CHECK_LAUNCH();
    check(a, "stream 1");
    check(b, "stream 2");
  }
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  GPUPRIMS_CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  GPUPRIMS_CHECK_CUDA(gpuprims::inclusive_scan(x, reinterpret_cast<float*>(a.data()), n,
                                               gpuprims::plus<float>{}, s1));
  GPUPRIMS_CHECK_CUDA(cudaStreamEndCapture(s1, &graph));
  GPUPRIMS_CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int rep = 0; rep < 3; ++rep) {
    a.poison();
    GPUPRIMS_CHECK_CUDA(cudaGraphLaunch(exec, s1));
    GPUPRIMS_CHECK_LAUNCH();
    check(a, "graph");
  }
  GPUPRIMS_CHECK_CUDA(cudaGraphExecDestroy(exec));
  GPUPRIMS_CHECK_CUDA(cudaGraphDestroy(graph));
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(s1));
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(s2));
  GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(s1));
  GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(s2));
  GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(s1));
  GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(s2));
}

TEST_CASE("scans reject bad arguments and launch nothing", "[scan][gpu]") {
  device_buffer buf(4096 * 4);
  auto* p = reinterpret_cast<float*>(buf.data());
  const gpuprims::plus<float> op;
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA((gpuprims::scan_workspace_bytes<float>(100, bytes)));
  device_buffer ws(bytes);
  GPUPRIMS_CHECK_CUDA(cudaMemset(ws.data(), 0, bytes));
  CHECK(gpuprims::inclusive_scan(p, static_cast<float*>(nullptr), 10, op) == cudaErrorInvalidValue);
  CHECK(gpuprims::inclusive_scan(static_cast<const float*>(nullptr), p, 10, op) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::inclusive_scan(p, p + 1, 10, op) == cudaErrorInvalidValue);  // overlap
  CHECK(gpuprims::exclusive_scan(p + 3, p, 10, 0.0f, op) == cudaErrorInvalidValue);
  CHECK(gpuprims::inclusive_scan(reinterpret_cast<const std::int16_t*>(p), p, 10, op) ==
        cudaErrorInvalidValue);  // in place with items narrower than the outputs
  CHECK(gpuprims::inclusive_scan(p, p + 2048, 100, op, nullptr, bytes) == cudaErrorInvalidValue);
  CHECK(gpuprims::inclusive_scan(p, p + 2048, 100, op, ws.data(), bytes - 1) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::inclusive_scan(static_cast<const float*>(nullptr), p, 0, op) == cudaSuccess);
  CHECK(gpuprims::inclusive_scan(p, p + 2048, 0, op, nullptr, 0) == cudaSuccess);
  GPUPRIMS_CHECK_LAUNCH();
}

TEST_CASE("an inclusive scan of more than 2^31 int8 into int64 is exact", "[scan][gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 3 * 1024 + 5;
  device_buffer in(n), out(n * 8 + 64);
  std::vector<unsigned char> host(n);
  fill_random(host.data(), n);
  in.upload(host);
  out.poison();
  const auto* x = reinterpret_cast<const std::int8_t*>(in.data());
  auto* y = reinterpret_cast<long long*>(out.data());
  GPUPRIMS_CHECK_CUDA(gpuprims::inclusive_scan(x, y, n, gpuprims::plus<long long>{}));
  GPUPRIMS_CHECK_LAUNCH();
  device_buffer errors(8);
  GPUPRIMS_CHECK_CUDA(cudaMemset(errors.data(), 0, 8));
  count_scan_errors<<<4096, 256>>>(x, y, n, reinterpret_cast<unsigned long long*>(errors.data()));
  GPUPRIMS_CHECK_LAUNCH();
  unsigned long long wrong = 0;
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(&wrong, errors.data(), 8, cudaMemcpyDeviceToHost));
  CHECK(wrong == 0);
  long long last = 0, expect = 0;
  for (unsigned char b : host) {
    expect += static_cast<std::int8_t>(b);
  }
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(&last, y + n - 1, 8, cudaMemcpyDeviceToHost));
  CHECK(last == expect);
  std::vector<unsigned char> tail(64);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(tail.data(), y + n, 64, cudaMemcpyDeviceToHost));
  CHECK(first_unpoisoned(tail.data(), 64) == 64);
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}
