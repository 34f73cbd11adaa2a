// gpuprims::lookback on its own: one warp a tile, tile aggregates from the host, every tile's
// exclusive prefix against the documented chunk order bit for bit (floats and doubles, integer sums
// and maxima; packed records of 4 bytes and split ones of 8), with and without init, with the first
// tile held back ~1 ms so that every later tile waits on it and then finds its window at once, and
// the workspace reused call after call.
#include <gpuprims/block/lookback.cuh>
#include <gpuprims/types.cuh>

#include "support/test_support.cuh"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;
using gpuprims::detail::maybe;

template <class T, class Op>
__global__ void lookback_kernel(const T* aggregates, T* prefixes, int* has, T init, bool with_init,
                                bool hold_first, gpuprims::lookback_tiles<T> status) {
  __shared__ typename gpuprims::lookback<T, Op>::storage s;
  gpuprims::lookback<T, Op> look(s, status, gridDim.x);
  if (hold_first && blockIdx.x == 0) {
    for (int i = 0; i < 1000; ++i) {
      __nanosleep(1000);
    }
  }
  const T aggregate = aggregates[blockIdx.x];
  T prefix = aggregate;
  bool got = true;
  if (with_init) {
    prefix = look.exclusive_prefix_with_init(blockIdx.x, aggregate, init);
  } else {
    got = look.exclusive_prefix(blockIdx.x, aggregate, prefix);
  }
  if (threadIdx.x == 0) {
    prefixes[blockIdx.x] = prefix;
    has[blockIdx.x] = got ? 1 : 0;
  }
  look.finish();
}

// The documented order: tile k = 32c + i gets Q_c op ((a_32c op ...) op a_k-1), with the chunk
// prefixes Q_c+1 = Q_c op T_c and Q_0 = init (or nothing).
template <class T, class Op>
std::vector<maybe<T>> chunk_order(const std::vector<T>& a, maybe<T> q, Op op) {
  std::vector<maybe<T>> out(a.size());
  maybe<T> local{T{}, false};
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (k % 32 == 0) {
      local = {T{}, false};
    }
    out[k] = gpuprims::detail::fold_maybe(q, local, op);
    local = {gpuprims::detail::fold_after(local, a[k], op), true};
    if (k % 32 == 31) {
      q = {gpuprims::detail::fold_after(q, local.value, op), true};
    }
  }
  return out;
}

template <class T, class Op, class Gen>
void check_lookback(const std::string& name, T init, Gen gen) {
  const int tiles = 4000;  // 125 chunks: past the first 32, a chunk's window holds chunks only
  std::vector<T> aggregates(tiles);
  for (auto& a : aggregates) {
    a = gen();
  }
  const std::size_t bytes = gpuprims::lookback_workspace_bytes<T>(tiles);
  device_buffer ws(bytes), in(tiles * sizeof(T)), out(tiles * sizeof(T)), has(tiles * sizeof(int));
  GPUPRIMS_CHECK_CUDA(cudaMemset(ws.data(), 0, bytes));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), aggregates.data(), tiles * sizeof(T), cudaMemcpyHostToDevice));
  for (int call = 0; call < 4; ++call) {
    const bool with_init = call % 2 == 1;
    const bool hold_first = call >= 2;
    INFO(name << ", init " << with_init << ", first tile held " << hold_first);
    out.poison();
    has.poison();
    lookback_kernel<T, Op><<<tiles, 32>>>(reinterpret_cast<const T*>(in.data()),
                                          reinterpret_cast<T*>(out.data()),
                                          reinterpret_cast<int*>(has.data()), init, with_init,
                                          hold_first, gpuprims::lookback_tiles<T>{ws.data()});
    GPUPRIMS_CHECK_LAUNCH();
    std::vector<T> got(tiles);
    std::vector<int> got_has(tiles);
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(got.data(), out.data(), tiles * sizeof(T), cudaMemcpyDeviceToHost));
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(got_has.data(), has.data(), tiles * sizeof(int), cudaMemcpyDeviceToHost));
    const std::vector<maybe<T>> want = chunk_order(aggregates, maybe<T>{init, with_init}, Op{});
    int wrong = 0;
    for (int k = 0; k < tiles; ++k) {
      const bool has_ok = (got_has[k] == 1) == want[k].has;
      const bool value_ok = !want[k].has || std::memcmp(&got[k], &want[k].value, sizeof(T)) == 0;
      wrong += has_ok && value_ok ? 0 : 1;
    }
    CHECK(wrong == 0);
  }
}

}  // namespace

TEST_CASE("lookback gives every tile the fold of the tiles before it in the chunk order",
          "[scan][gpu]") {
  std::mt19937_64& g = rng();
  check_lookback<std::int32_t, gpuprims::plus<std::int32_t>>(
      "int32 plus", 7, [&g] { return static_cast<std::int32_t>(g()); });
  check_lookback<std::int64_t, gpuprims::plus<std::int64_t>>(
      "int64 plus", -5, [&g] { return static_cast<std::int64_t>(g()); });
  check_lookback<std::uint64_t, gpuprims::maximum<std::uint64_t>>(
      "uint64 maximum", 3, [&g] { return static_cast<std::uint64_t>(g() % 1000000); });
  // Floating point: the bits depend on the order.
  check_lookback<float, gpuprims::plus<float>>(
      "float plus", 0.5f, [&g] { return std::uniform_real_distribution<float>(0, 1)(g); });
  check_lookback<double, gpuprims::plus<double>>(
      "double plus", 0.25, [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); });
}
