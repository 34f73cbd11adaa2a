// gpuprims::multi::reduce against a CPU emulation of its documented order (each rank's
// gpuprims::reduce in its own order, then the partials folded in rank order), bit for bit, on
// every rank, the same over 100 runs; ranks with no items, unaligned inputs, with and without
// init. gpuprims::multi::all_reduce against the rank-order fold of every element, bit for bit, in
// place and out of place, counts the rank count does not divide, fewer elements than ranks, many
// pipeline segments, the same over 100 runs; its checks. The ctest entries multi_ring and
// multi_tree run these cases (and the stencils' setup checks) under NCCL_ALGO=Ring and
// NCCL_ALGO=Tree: the results must be the same emulated bits under both.
#include <gpuprims/multi.cuh>

#include "support/multi_world.cuh"
#include "support/reduce_order.cuh"
#include "support/test_support.cuh"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace gpuprims::test;
namespace multi = gpuprims::multi;

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Not commutative: a 2x2 matrix product (row-major), exact on small integers.
struct mat2 {
  std::int64_t a, b, c, d;
};
struct mat2_product {
  __host__ __device__ mat2 operator()(const mat2& x, const mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
            x.c * y.b + x.d * y.d};
  }
};

template <class T>
T random_value(std::mt19937_64& g) {
  if constexpr (std::is_same_v<T, mat2>) {
    const auto small = [&] { return static_cast<std::int64_t>(g() % 5) - 2; };
    return {small(), small(), small(), small()};
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<std::int64_t>(g() % 2000001) - 1000000);
  } else {
    return static_cast<T>(std::uniform_real_distribution<double>(-1.0, 1.0)(g));
  }
}

// Each rank's items: rank r has sizes[r % sizes.size()] of them, `offset` items past a 256-byte
// aligned start (the emulation needs the device address modulo 16).
template <class T, class Op>
void check_reduce(const std::string& name, Op op, std::vector<std::size_t> sizes,
                  std::size_t offset, bool with_init) {
  world& wd = all_gpus();
  const int ranks = wd.size();
  std::vector<std::vector<T>> items(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    items[r].resize(sizes[static_cast<std::size_t>(r) % sizes.size()]);
    for (T& x : items[r]) {
      x = random_value<T>(rng());
    }
  }
  const T init = with_init ? static_cast<T>(3) : T{};
  // The documented order on the CPU.
  const gpuprims::reduce_policy policy = gpuprims::reduce_tuning::select(90);
  T want{};
  for (int r = 0; r < ranks; ++r) {
    const std::size_t address = offset * sizeof(T);  // cudaMalloc'd, then offset items in
    const T partial = emulate_reduce<T>(items[r].data(), items[r].size(), address,
                                        static_cast<T>(Op::identity()), op, policy);
    want = r == 0 ? partial : op(want, partial);
  }
  if (with_init) {
    want = op(init, want);
  }
  std::vector<std::vector<T>> results(static_cast<std::size_t>(ranks));
  const std::string errors = wd.run([&](rank_context& ctx) -> std::string {
    const std::vector<T>& mine = items[static_cast<std::size_t>(ctx.rank)];
    T* in = nullptr;
    T* out = nullptr;
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&in, (mine.size() + offset + 1) * sizeof(T)));
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&out, 100 * sizeof(T)));
    GPUPRIMS_MULTI_CUDA(cudaMemset(out, poison_byte, 100 * sizeof(T)));
    GPUPRIMS_MULTI_CUDA(
        cudaMemcpy(in + offset, mine.data(), mine.size() * sizeof(T), cudaMemcpyHostToDevice));
    // The legacy stream's fills and a pageable copy's DMA do not order against the rank's
    // non-blocking streams: wait for them.
    GPUPRIMS_MULTI_CUDA(cudaDeviceSynchronize());
    for (int run = 0; run < 100; ++run) {
      const cudaError_t e =
          with_init
              ? multi::reduce(in + offset, out + run, mine.size(), init, op, ctx.comm, ctx.stream)
              : multi::reduce(in + offset, out + run, mine.size(), op, ctx.comm, ctx.stream);
      GPUPRIMS_MULTI_CUDA(e);
    }
    GPUPRIMS_MULTI_CUDA(cudaStreamSynchronize(ctx.stream));
    GPUPRIMS_MULTI_CUDA(cudaGetLastError());
    std::vector<T>& got = results[static_cast<std::size_t>(ctx.rank)];
    got.resize(100);
    GPUPRIMS_MULTI_CUDA(cudaMemcpy(got.data(), out, 100 * sizeof(T), cudaMemcpyDeviceToHost));
    GPUPRIMS_MULTI_CUDA(cudaFree(in));
    GPUPRIMS_MULTI_CUDA(cudaFree(out));
    return {};
  });
  INFO(name << ", " << ranks << " ranks, offset " << offset << (with_init ? ", init" : "") << "\n"
            << errors);
  REQUIRE(errors.empty());
  for (int r = 0; r < ranks; ++r) {
    for (int run = 0; run < 100; ++run) {
      INFO("rank " << r << ", run " << run);
      REQUIRE(same_bits(results[r][run], want));
    }
  }
}

// The rank-order fold of every element on the CPU, against multi::all_reduce (in place or not),
// 'runs' times, every rank.
template <class Tuning, class T, class Op>
void check_all_reduce(const std::string& name, Op op, std::size_t count, bool in_place, int runs) {
  world& wd = all_gpus();
  const int ranks = wd.size();
  std::vector<std::vector<T>> x(static_cast<std::size_t>(ranks), std::vector<T>(count));
  for (auto& v : x) {
    for (T& e : v) {
      e = random_value<T>(rng());
    }
  }
  std::vector<T> want(count);
  for (std::size_t i = 0; i < count; ++i) {
    T acc = x[0][i];
    for (int r = 1; r < ranks; ++r) {
      acc = op(acc, x[r][i]);
    }
    want[i] = acc;
  }
  const std::string errors = wd.run([&](rank_context& ctx) -> std::string {
    const std::vector<T>& mine = x[static_cast<std::size_t>(ctx.rank)];
    const std::size_t bytes = (count + 1) * sizeof(T);
    T* in = nullptr;
    T* out = nullptr;
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&in, bytes));
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&out, bytes));
    std::size_t ws_bytes = 0;
    GPUPRIMS_MULTI_CUDA((multi::all_reduce_workspace_bytes<T, Tuning>(count, ctx.ranks, ws_bytes)));
    void* ws = nullptr;
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&ws, ws_bytes + 1));
    std::vector<T> got(count);
    for (int run = 0; run < runs; ++run) {
      GPUPRIMS_MULTI_CUDA(cudaMemcpy(in, mine.data(), count * sizeof(T), cudaMemcpyHostToDevice));
      GPUPRIMS_MULTI_CUDA(cudaMemset(out, poison_byte, bytes));
      GPUPRIMS_MULTI_CUDA(cudaDeviceSynchronize());
      T* const dst = in_place ? in : out;
      const cudaError_t e =
          run % 2 == 0
              ? multi::all_reduce<Tuning>(in, dst, count, op, ctx.comm, ws, ws_bytes, ctx.stream)
              : multi::all_reduce<Tuning>(in, dst, count, op, ctx.comm, ctx.stream);
      GPUPRIMS_MULTI_CUDA(e);
      GPUPRIMS_MULTI_CUDA(cudaStreamSynchronize(ctx.stream));
      GPUPRIMS_MULTI_CUDA(cudaGetLastError());
      GPUPRIMS_MULTI_CUDA(cudaMemcpy(got.data(), dst, count * sizeof(T), cudaMemcpyDeviceToHost));
      for (std::size_t i = 0; i < count; ++i) {
        GPUPRIMS_MULTI_REQUIRE(same_bits(got[i], want[i]),
                               "run " << run << ", element " << i << " of " << count);
      }
      if (!in_place) {  // nothing written past the output
        unsigned char tail[sizeof(T)];
        GPUPRIMS_MULTI_CUDA(cudaMemcpy(tail, out + count, sizeof(T), cudaMemcpyDeviceToHost));
        GPUPRIMS_MULTI_REQUIRE(first_unpoisoned(tail, sizeof(T)) == sizeof(T), "past the end");
      }
    }
    GPUPRIMS_MULTI_CUDA(cudaFree(in));
    GPUPRIMS_MULTI_CUDA(cudaFree(out));
    GPUPRIMS_MULTI_CUDA(cudaFree(ws));
    return {};
  });
  INFO(name << ", " << count << " elements, " << ranks << " ranks" << (in_place ? ", in place" : "")
            << "\n"
            << errors);
  CHECK(errors.empty());
}

// 4 KiB segments: a few thousand elements cross many segments and both stage slots (and two
// ranks' sums take the point-to-point path too, not ncclAllReduce).
struct tiny_segments {
  __host__ __device__ static constexpr gpuprims::all_reduce_policy select(int) {
    return {4096, 128, 2, false};
  }
};
// The library's segments, point-to-point for every rank count.
struct p2p_segments {
  __host__ __device__ static constexpr gpuprims::all_reduce_policy select(int arch) {
    gpuprims::all_reduce_policy p = gpuprims::all_reduce_tuning::select(arch);
    p.two_rank_sums_by_nccl = false;
    return p;
  }
};

}  // namespace

TEST_CASE("multi::reduce equals the emulated rank-order fold on every rank, 100 runs",
          "[multi][multi_reduce]") {
  const std::size_t big = (std::size_t{1} << 20) + 7;
  check_reduce<float>("float sum", gpuprims::plus<float>{}, {big, 1000, 0, 1}, 0, true);
  check_reduce<float>("float sum, unaligned", gpuprims::plus<float>{}, {3 * big, 17}, 1, false);
  check_reduce<double>("double sum", gpuprims::plus<double>{}, {big, 4 * big + 3}, 0, true);
  check_reduce<float>("float max", gpuprims::maximum<float>{}, {big, 0}, 3, false);
  check_reduce<std::int64_t>("int64 sum", gpuprims::plus<std::int64_t>{}, {0, 0}, 0, true);
  check_reduce<std::int64_t>("int64 sum", gpuprims::plus<std::int64_t>{}, {big, 5}, 1, true);
}

TEST_CASE("multi::reduce checks its arguments", "[multi][multi_reduce]") {
  world& wd = all_gpus();
  const std::string errors = wd.run([&](rank_context& ctx) -> std::string {
    float* buf = nullptr;
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&buf, 64 * sizeof(float)));
    const gpuprims::plus<float> op{};
    GPUPRIMS_MULTI_REQUIRE(multi::reduce(buf, static_cast<float*>(nullptr), 10, 0.0f, op, ctx.comm,
                                         ctx.stream) == cudaErrorInvalidValue,
                           "null output");
    GPUPRIMS_MULTI_REQUIRE(multi::reduce(static_cast<const float*>(nullptr), buf, 10, 0.0f, op,
                                         ctx.comm, ctx.stream) == cudaErrorInvalidValue,
                           "null input with items");
    multi::communicator unbound;
    GPUPRIMS_MULTI_REQUIRE(
        multi::reduce(buf, buf + 32, 10, 0.0f, op, unbound, ctx.stream) == cudaErrorInvalidValue,
        "a communicator never initialised");
    GPUPRIMS_MULTI_REQUIRE(
        multi::all_reduce(buf, buf + 1, 10, op, ctx.comm, ctx.stream) == cudaErrorInvalidValue,
        "overlapping all-reduce");
    // The workspace contract, checked before any traffic (so each rank may fail alone): the
    // array is `data`, the workspace `ws` (or a part of `data`).
    std::size_t ws_bytes = 0;
    GPUPRIMS_MULTI_CUDA(multi::all_reduce_workspace_bytes<float>(1000, ctx.ranks, ws_bytes));
    GPUPRIMS_MULTI_REQUIRE(ws_bytes > 0, "two or more ranks need a workspace");
    float* data = nullptr;
    char* ws = nullptr;
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&data, 1000 * sizeof(float) + ws_bytes));
    GPUPRIMS_MULTI_CUDA(cudaMalloc(&ws, ws_bytes + 16));
    GPUPRIMS_MULTI_REQUIRE(multi::all_reduce(data, data, 1000, op, ctx.comm, ws, ws_bytes - 1,
                                             ctx.stream) == cudaErrorInvalidValue,
                           "a short workspace");
    GPUPRIMS_MULTI_REQUIRE(multi::all_reduce(data, data, 1000, op, ctx.comm, ws + 1, ws_bytes,
                                             ctx.stream) == cudaErrorInvalidValue,
                           "a workspace not aligned to the element");
    GPUPRIMS_MULTI_REQUIRE(multi::all_reduce(data, data, 1000, op, ctx.comm, data + 500, ws_bytes,
                                             ctx.stream) == cudaErrorInvalidValue,
                           "a workspace overlapping the array");
    GPUPRIMS_MULTI_REQUIRE(
        multi::all_reduce(data, data, 1000, op, ctx.comm, static_cast<void*>(nullptr), ws_bytes,
                          ctx.stream) == cudaErrorInvalidValue,
        "a null workspace");
    GPUPRIMS_MULTI_CUDA(cudaFree(data));
    GPUPRIMS_MULTI_CUDA(cudaFree(ws));
    GPUPRIMS_MULTI_REQUIRE(multi::all_reduce(buf, buf, 0, op, ctx.comm, ctx.stream) == cudaSuccess,
                           "nothing to do");
    if (ctx.rank == 0) {
      GPUPRIMS_MULTI_CUDA(cudaSetDevice(1));
      const cudaError_t e = multi::reduce(buf, buf + 32, 10, 0.0f, op, ctx.comm, ctx.stream);
      GPUPRIMS_MULTI_CUDA(cudaSetDevice(ctx.device));
      GPUPRIMS_MULTI_REQUIRE(e == cudaErrorInvalidDevice, cudaGetErrorString(e));
    }
    GPUPRIMS_MULTI_CUDA(cudaFree(buf));
    return {};
  });
  INFO(errors);
  CHECK(errors.empty());
}

TEST_CASE("multi::all_reduce folds every element in rank order", "[multi][multi_reduce]") {
  const std::size_t ranks = static_cast<std::size_t>(all_gpus().size());
  using lib = gpuprims::all_reduce_tuning;
  check_all_reduce<lib, float>("float sum", gpuprims::plus<float>{}, 1000003, false, 3);
  check_all_reduce<lib, float>("float sum", gpuprims::plus<float>{}, 1000003, true, 3);
  check_all_reduce<lib, float>("float sum", gpuprims::plus<float>{}, 1, false, 2);
  check_all_reduce<lib, float>("float sum", gpuprims::plus<float>{}, ranks - 1 + (ranks == 1),
                               false, 2);
  check_all_reduce<lib, double>("double sum", gpuprims::plus<double>{}, 12345, true, 2);
  check_all_reduce<p2p_segments, float>("float sum, point-to-point", gpuprims::plus<float>{},
                                        1000003, false, 3);
  check_all_reduce<p2p_segments, double>("double sum, point-to-point", gpuprims::plus<double>{},
                                         12345, true, 2);
  check_all_reduce<lib, std::int64_t>("int64 max", gpuprims::maximum<std::int64_t>{}, 77777, false,
                                      2);
  check_all_reduce<tiny_segments, float>("float sum, 4 KiB segments", gpuprims::plus<float>{},
                                         100003, false, 100);
  check_all_reduce<tiny_segments, float>("float sum, 4 KiB segments", gpuprims::plus<float>{},
                                         100003, true, 3);
  check_all_reduce<tiny_segments, mat2>("2x2 integer matrix products", mat2_product{}, 3001, false,
                                        3);
}
