// gpuprims::select_if and gpuprims::partition: sizes around the small and the large tile and the
// chunk of 32 tiles; int8, int32, int64, float, double and a 12-byte struct (one item a word);
// all-true, all-false and random predicates; aligned, unaligned and in place; the stream's
// workspace, a caller's with 32-bit counts and one with 64-bit counts; poisoned outputs, counts and
// guards (nothing written past the count); two streams; more than 2^32 items; the argument checks.
#include <gpuprims/device/select.cuh>

#include "support/test_support.cuh"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace gpuprims::test {

struct triple {
  std::int32_t a, b, c;
};

// Keeps items above a threshold.
template <class T>
struct above {
  T threshold;
  __host__ __device__ bool operator()(const T& x) const { return x > threshold; }
};
struct odd_triple {
  __host__ __device__ bool operator()(const triple& t) const { return ((t.a ^ t.c) & 1) != 0; }
};
// Keeps every item, or none.
struct constant {
  bool value;
  template <class T>
  __host__ __device__ bool operator()(const T&) const {
    return value;
  }
};

}  // namespace gpuprims::test

namespace {

using namespace gpuprims::test;

enum class form { select, select_in_place, partition };
enum class workspace_kind { stream, narrow, wide };

struct placement {
  form what;
  std::size_t in_offset, out_offset;
  const char* name;
};

// The library's tiles flipped: staged where it keeps them in registers and the other way round
// (uncapped registers: a tile of 32 items a lane does not fit in the staged tiles' 40).
struct other_tile_tuning {
  __host__ __device__ static constexpr gpuprims::scan_policy select(int arch) {
    gpuprims::scan_policy p = gpuprims::select_tuning::select(arch);
    p.staged = !p.staged;
    p.small_staged = !p.small_staged;
    p.min_blocks_per_sm = 1;
    p.item_min_blocks_per_sm = 0;
    return p;
  }
};

// One-warp staged tiles of 8 items a lane (256 ints): many tiles and chunks of 32 at small sizes;
// each tile asks the L2 for the tile 5 after it (skipped past the input).
struct one_warp_staged_tuning {
  __host__ __device__ static constexpr gpuprims::scan_policy select(int /*arch*/) {
    return {32, 8, 1, false, 4, 4096, true, 1, true, 0, 5};
  }
};

// Staged tiles of 32 items a lane at 6 blocks an SM (the default before 256 x 40): a lane's flags
// take one word, which waits in registers (the default's two wait in shared memory).
struct one_flag_word_staged_tuning {
  __host__ __device__ static constexpr gpuprims::scan_policy select(int /*arch*/) {
    return {256, 32, 6, true, 8, std::size_t{1} << 21, true, 6};
  }
};

template <class Tuning, class Item>
std::size_t tile_of(std::size_t n) {
  return gpuprims::detail::scan_shape_for<Item, Item>(Tuning::select(90), n).tile_items();
}

// Runs one call (twice, into freshly poisoned buffers) and checks the count, every output item and
// that nothing was written past the outputs.
template <class Tuning, class Item, class Pred>
void check_one(const std::string& name, const std::vector<Item>& items, Pred pred,
               const placement& pl, workspace_kind ws_kind) {
  const std::size_t n = items.size();
  constexpr std::size_t guard = 64;
  std::vector<Item> want_kept, want_others;
  for (const Item& x : items) {
    (pred(x) ? want_kept : want_others).push_back(x);
  }
  const std::size_t item_bytes = sizeof(Item);
  device_buffer in((pl.in_offset + n + guard) * item_bytes);
  device_buffer out((pl.out_offset + n + guard) * item_bytes);
  device_buffer others((n + guard) * item_bytes);
  device_buffer count(2 * sizeof(unsigned long long));
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA((gpuprims::select_workspace_bytes<Item, Tuning>(n, bytes)));
  if (ws_kind == workspace_kind::wide) {
    bytes = std::max(bytes, gpuprims::detail::select_wide_bytes<Tuning, Item>(90));
  }
  device_buffer ws(ws_kind == workspace_kind::stream ? 1 : bytes);
  GPUPRIMS_CHECK_CUDA(cudaMemset(ws.data(), 0, ws_kind == workspace_kind::stream ? 1 : bytes));
  for (int call = 0; call < 2; ++call) {
    INFO(name << ", " << pl.name << ", n = " << n << ", call " << call << ", workspace "
              << static_cast<int>(ws_kind));
    in.poison();
    out.poison();
    others.poison();
    count.poison();
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data() + pl.in_offset * item_bytes, items.data(),
                                   n * item_bytes, cudaMemcpyHostToDevice));
    const auto* x = reinterpret_cast<const Item*>(in.data()) + pl.in_offset;
    Item* y = pl.what == form::select_in_place
                  ? reinterpret_cast<Item*>(in.data()) + pl.in_offset
                  : reinterpret_cast<Item*>(out.data()) + pl.out_offset;
    auto* z = reinterpret_cast<Item*>(others.data());
    auto* c = reinterpret_cast<unsigned long long*>(count.data());
    cudaError_t e = cudaSuccess;
    if (pl.what == form::partition) {
      e = ws_kind == workspace_kind::stream
              ? gpuprims::partition<Tuning>(x, y, z, n, pred, c)
              : gpuprims::partition<Tuning>(x, y, z, n, pred, c, ws.data(), bytes);
    } else {
      e = ws_kind == workspace_kind::stream
              ? gpuprims::select_if<Tuning>(x, y, n, pred, c)
              : gpuprims::select_if<Tuning>(x, y, n, pred, c, ws.data(), bytes);
    }
    GPUPRIMS_CHECK_CUDA(e);
    GPUPRIMS_CHECK_LAUNCH();
    unsigned long long got_count[2] = {};
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(got_count, c, sizeof(got_count), cudaMemcpyDeviceToHost));
    CHECK(got_count[0] == want_kept.size());
    CHECK(first_unpoisoned(reinterpret_cast<unsigned char*>(got_count + 1), 8) == 8);
    const bool in_place = pl.what == form::select_in_place;
    const std::vector<unsigned char> got = (in_place ? in : out).download();
    const std::size_t offset = in_place ? pl.in_offset : pl.out_offset;
    const unsigned char* kept = got.data() + offset * item_bytes;
    const std::size_t k = want_kept.size();
    CHECK(std::memcmp(kept, want_kept.data(), k * item_bytes) == 0);
    if (in_place) {  // past the count, the input as it was
      CHECK(std::memcmp(kept + k * item_bytes, items.data() + k, (n - k) * item_bytes) == 0);
      CHECK(first_unpoisoned(kept + n * item_bytes, guard * item_bytes) == guard * item_bytes);
    } else {
      CHECK(first_unpoisoned(got.data(), offset * item_bytes) == offset * item_bytes);
      const std::size_t rest = (n - k + guard) * item_bytes;
      CHECK(first_unpoisoned(kept + k * item_bytes, rest) == rest);
    }
    const std::vector<unsigned char> got_others = others.download();
    if (pl.what == form::partition) {
      const std::size_t r = want_others.size();
      CHECK(std::memcmp(got_others.data(), want_others.data(), r * item_bytes) == 0);
      CHECK(first_unpoisoned(got_others.data() + r * item_bytes, (k + guard) * item_bytes) ==
            (k + guard) * item_bytes);
    } else {
      CHECK(first_unpoisoned(got_others.data(), got_others.size()) == got_others.size());
    }
  }
  // The easy overloads keep a workspace for the default stream: freed here, so that memcheck's leak
  // check stays clean whichever test cases run.
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}

template <class Tuning, class Item, class Pred>
void check_every_form(const std::string& name, const std::vector<Item>& items, Pred pred,
                      workspace_kind ws_kind) {
  const placement places[] = {{form::select, 0, 0, "select_if, aligned"},
                              {form::select, 1, 3, "select_if, unaligned"},
                              {form::select_in_place, 0, 0, "select_if, in place"},
                              {form::partition, 0, 0, "partition, aligned"},
                              {form::partition, 3, 1, "partition, unaligned"}};
  for (const placement& pl : places) {
    check_one<Tuning>(name, items, pred, pl, ws_kind);
  }
}

template <class Tuning>
std::vector<std::size_t> sizes_for(std::size_t small_tile, std::size_t large_tile) {
  const std::size_t limit = Tuning::select(90).small_max_items;
  return {0,
          1,
          2,
          31,
          small_tile - 1,
          small_tile,
          small_tile + 1,
          7919,
          32 * small_tile - 1,
          32 * small_tile + 1,
          (std::size_t{1} << 20) + 7,
          random_size(1, 40 * small_tile),
          limit,
          limit + 1,
          (limit / (32 * large_tile) + 1) * 32 * large_tile + 1};
}

// Each type at its sizes, with all-true, all-false and a random predicate (a third of the sizes
// through each workspace kind).
template <class Tuning, class Item, class Pred, class Gen>
void check_type(const std::string& name, Pred pred, Gen gen) {
  const std::vector<std::size_t> sizes =
      sizes_for<Tuning>(tile_of<Tuning, Item>(1), tile_of<Tuning, Item>(std::size_t{1} << 30));
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    std::vector<Item> items(sizes[s]);
    for (auto& x : items) {
      x = gen();
    }
    const auto ws_kind = static_cast<workspace_kind>(s % 3);
    check_every_form<Tuning>(name + ", random predicate", items, pred, ws_kind);
    if (s % 4 == 1) {
      check_every_form<Tuning>(name + ", all true", items, constant{true}, ws_kind);
      check_every_form<Tuning>(name + ", all false", items, constant{false}, ws_kind);
    }
  }
}

}  // namespace

namespace {

template <class Tuning>
void check_every_type() {
  std::mt19937_64& g = rng();
  // A section a type: sanitizer runs take each as its own process (scripts/sanitizer_jobs.py).
  SECTION("int32") {
    check_type<Tuning, std::int32_t>("int32", above<std::int32_t>{0},
                                     [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; });
  }
  SECTION("float") {
    check_type<Tuning, float>("float", above<float>{0.7f},
                              [&g] { return std::uniform_real_distribution<float>(0, 1)(g); });
  }
  SECTION("int8") {
    check_type<Tuning, std::int8_t>("int8", above<std::int8_t>{-64},
                                    [&g] { return static_cast<std::int8_t>(g() % 255 - 127); });
  }
  SECTION("double") {
    check_type<Tuning, double>("double", above<double>{0.1},
                               [&g] { return std::uniform_real_distribution<double>(0, 1)(g); });
  }
  SECTION("int64") {
    check_type<Tuning, std::int64_t>("int64", above<std::int64_t>{1 << 20},
                                     [&g] { return static_cast<std::int64_t>(g() >> 40); });
  }
  SECTION("12-byte struct") {
    check_type<Tuning, triple>("12-byte struct", odd_triple{}, [&g] {
      return triple{static_cast<std::int32_t>(g()), static_cast<std::int32_t>(g()),
                    static_cast<std::int32_t>(g())};
    });
  }
}

}  // namespace

TEST_CASE("select_if and partition keep order and count, every type and size", "[select][gpu]") {
  check_every_type<gpuprims::select_tuning>();
}

TEST_CASE("select_if and partition with the other tile kind (staged or in registers)",
          "[select][gpu]") {
  STATIC_REQUIRE(other_tile_tuning::select(90).staged !=
                 gpuprims::select_tuning::select(90).staged);
  check_every_type<other_tile_tuning>();
}

TEST_CASE("select_if and partition with one-warp staged tiles cross many chunks", "[select][gpu]") {
  check_every_type<one_warp_staged_tuning>();
}

TEST_CASE("select_if and partition with staged tiles whose flags wait in registers",
          "[select][gpu]") {
  STATIC_REQUIRE(gpuprims::select_tuning::select(90).items_per_thread !=
                 one_flag_word_staged_tuning::select(90).items_per_thread);
  check_every_type<one_flag_word_staged_tuning>();
}

TEST_CASE("select_if on two streams at once", "[select][gpu]") {
  std::mt19937_64& g = rng();
  const std::size_t n = 3000017;
  std::vector<float> items(n);
  for (auto& x : items) {
    x = std::uniform_real_distribution<float>(0, 1)(g);
  }
  std::vector<float> want;
  std::copy_if(items.begin(), items.end(), std::back_inserter(want),
               [](float x) { return x > 0.5f; });
  device_buffer in(n * 4), a(n * 4), b(n * 4), counts(16);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), items.data(), n * 4, cudaMemcpyHostToDevice));
  cudaStream_t s1 = nullptr, s2 = nullptr;
  GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  GPUPRIMS_CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  const auto* x = reinterpret_cast<const float*>(in.data());
  auto* c = reinterpret_cast<std::size_t*>(counts.data());
  for (int rep = 0; rep < 3; ++rep) {
    a.poison();
    b.poison();
    counts.poison();
    GPUPRIMS_CHECK_CUDA(
        gpuprims::select_if(x, reinterpret_cast<float*>(a.data()), n, above<float>{0.5f}, c, s1));
    GPUPRIMS_CHECK_CUDA(gpuprims::select_if(x, reinterpret_cast<float*>(b.data()), n,
                                            above<float>{0.5f}, c + 1, s2));
    GPUPRIMS_CHECK_LAUNCH();
    std::size_t got_counts[2] = {};
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(got_counts, c, 16, cudaMemcpyDeviceToHost));
    CHECK(got_counts[0] == want.size());
    CHECK(got_counts[1] == want.size());
    for (const device_buffer* out : {&a, &b}) {
      std::vector<float> got(want.size());
      GPUPRIMS_CHECK_CUDA(
          cudaMemcpy(got.data(), out->data(), want.size() * 4, cudaMemcpyDeviceToHost));
      CHECK(std::memcmp(got.data(), want.data(), want.size() * 4) == 0);
    }
  }
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(s1));
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace(s2));
  GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(s1));
  GPUPRIMS_CHECK_CUDA(cudaStreamSynchronize(s2));
  GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(s1));
  GPUPRIMS_CHECK_CUDA(cudaStreamDestroy(s2));
}

TEST_CASE("select_if and partition reject bad arguments and launch nothing", "[select][gpu]") {
  device_buffer buf(4096 * 4), counts(16);
  auto* p = reinterpret_cast<float*>(buf.data());
  auto* c = reinterpret_cast<unsigned long long*>(counts.data());
  const above<float> pred{0};
  CHECK(gpuprims::select_if(p, static_cast<float*>(nullptr), 10, pred, c) == cudaErrorInvalidValue);
  CHECK(gpuprims::select_if(static_cast<const float*>(nullptr), p, 10, pred, c) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::select_if(p, p + 100, 10, pred, static_cast<int*>(nullptr)) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::select_if(p, p + 1, 10, pred, c) == cudaErrorInvalidValue);  // overlap
  CHECK(gpuprims::select_if(p, p + 100, 10, pred, reinterpret_cast<int*>(p + 105)) ==
        cudaErrorInvalidValue);  // the count inside the output
  CHECK(gpuprims::partition(p, p, p + 100, 10, pred, c) == cudaErrorInvalidValue);  // no in place
  CHECK(gpuprims::partition(p, p + 100, p + 105, 10, pred, c) == cudaErrorInvalidValue);
  CHECK(gpuprims::partition(p, p + 100, static_cast<float*>(nullptr), 10, pred, c) ==
        cudaErrorInvalidValue);
  // A count type that cannot hold n: rejected before anything is touched.
  auto* far = reinterpret_cast<float*>(std::uintptr_t{1} << 44);
  CHECK(gpuprims::select_if(p, far, std::size_t{INT_MAX} + 1, pred, reinterpret_cast<int*>(c)) ==
        cudaErrorInvalidValue);
  std::size_t bytes = 0;
  GPUPRIMS_CHECK_CUDA(gpuprims::select_workspace_bytes<float>(1000, bytes));
  device_buffer ws(bytes);
  GPUPRIMS_CHECK_CUDA(cudaMemset(ws.data(), 0, bytes));
  CHECK(gpuprims::select_if(p, p + 2048, 1000, pred, c, nullptr, bytes) == cudaErrorInvalidValue);
  CHECK(gpuprims::select_if(p, p + 2048, 1000, pred, c, ws.data(), bytes - 1) ==
        cudaErrorInvalidValue);
  // n == 0 succeeds and writes a count of zero.
  counts.poison();
  CHECK(gpuprims::select_if(static_cast<const float*>(nullptr), static_cast<float*>(nullptr), 0,
                            pred, c) == cudaSuccess);
  CHECK(gpuprims::partition(p, p + 100, p + 200, 0, pred, c + 1, nullptr, 0) == cudaSuccess);
  GPUPRIMS_CHECK_LAUNCH();
  unsigned long long got[2] = {1, 1};
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got, c, 16, cudaMemcpyDeviceToHost));
  CHECK(got[0] == 0);
  CHECK(got[1] == 0);
}

TEST_CASE("select_if of more than 2^32 int8 counts in 64 bits", "[select][gpu][large]") {
  const std::size_t n = (std::size_t{1} << 32) + (std::size_t{1} << 28) + 4099;
  std::vector<unsigned char> host(n);
  fill_random(host.data(), n);
  device_buffer in(n), out(n + 64), count(8);
  in.upload(host);
  out.poison();
  const auto* x = reinterpret_cast<const std::int8_t*>(in.data());
  auto* y = reinterpret_cast<std::int8_t*>(out.data());
  auto* c = reinterpret_cast<std::size_t*>(count.data());
  GPUPRIMS_CHECK_CUDA(gpuprims::select_if(x, y, n, above<std::int8_t>{-120}, c));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<unsigned char> want;
  want.reserve(n);
  for (unsigned char b : host) {
    if (static_cast<std::int8_t>(b) > -120) {
      want.push_back(b);
    }
  }
  host = std::vector<unsigned char>();
  std::size_t got_count = 0;
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(&got_count, c, 8, cudaMemcpyDeviceToHost));
  REQUIRE(got_count == want.size());
  CHECK(got_count > (std::size_t{1} << 32));
  std::vector<unsigned char> got(want.size() + 64);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), y, got.size(), cudaMemcpyDeviceToHost));
  CHECK(std::memcmp(got.data(), want.data(), want.size()) == 0);
  CHECK(first_unpoisoned(got.data() + want.size(), 64) == 64);
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}
