// block_scan: one item and arrays per thread, inclusive and exclusive, aggregates, a partial tile,
// and a running prefix that carries a block across many tiles; block sizes 32, 96, 256 and 1024,
// one- and two-dimensional blocks; int sums and a non-commutative operator (affine maps), every
// output against a fold in order on the host. gpuprims::lookback with its first tile held back, so
// that later tiles look back over windows of aggregates only.
#include <gpuprims/block/lookback.cuh>
#include <gpuprims/block/scan.cuh>

#include "support/reduce_check.cuh"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace gpuprims::test {

// One warp a block: block 0 waits ~1 ms before its look-back, so every other tile has published
// its aggregate and waits; tile k then looks back over k / 32 windows of aggregates only.
template <class T, class Op>
__global__ void delayed_lookback_kernel(const T* aggregates, T* prefixes, int* has,
                                        gpuprims::lookback_tiles<T> status) {
  __shared__ typename gpuprims::lookback<T, Op>::storage s;
  gpuprims::lookback<T, Op> look(s, status, gridDim.x);
  if (blockIdx.x == 0) {
    for (int i = 0; i < 1000; ++i) {
      __nanosleep(1000);
    }
  }
  T prefix = aggregates[blockIdx.x];
  const bool got = look.exclusive_prefix(blockIdx.x, aggregates[blockIdx.x], prefix);
  if (threadIdx.x == 0) {
    prefixes[blockIdx.x] = prefix;
    has[blockIdx.x] = got ? 1 : 0;
  }
  look.finish();
}

inline constexpr int scan_items = 3;
inline constexpr int scan_tiles = 4;

// Thread 0's running total across the tiles of one block.
template <class T, class Op>
struct running_prefix {
  T total;
  __device__ T operator()(const T& aggregate) {
    const T before = total;
    total = Op{}(total, aggregate);
    return before;
  }
};

// Output slots per thread and tile: inclusive, inclusive's aggregate, exclusive, exclusive's
// aggregate, the partial tile's inclusive and aggregate, then the arrays' inclusive and exclusive
// items, then the running inclusive and exclusive items.
inline constexpr int scan_slots = 6 + 4 * scan_items;

template <int BlockSize, class Op>
__global__ void block_scan_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                                  typename Op::value_type init, int num_valid) {
  using T = typename Op::value_type;
  using scan_t = gpuprims::block_scan<BlockSize, Op>;
  __shared__ typename scan_t::storage s;
  const int rank = static_cast<int>(threadIdx.x + blockDim.x * threadIdx.y);
  running_prefix<T, Op> run_in{init}, run_ex{init};
  for (int tile = 0; tile < scan_tiles; ++tile) {
    const std::size_t base = (blockIdx.x * std::size_t{scan_tiles} + tile) * BlockSize * scan_items;
    T* o = out + (base / scan_items + rank) * scan_slots;
    const T x = in[base + rank];
    T a;
    o[0] = scan_t(s).inclusive_scan(x, a);
    o[1] = a;
    __syncthreads();
    o[2] = scan_t(s).exclusive_scan(x, init, a);
    o[3] = a;
    __syncthreads();
    o[4] = scan_t(s).inclusive_scan(rank < num_valid ? x : poison<T>(), a, num_valid);
    o[5] = a;
    __syncthreads();
    T items[scan_items], results[scan_items];
    for (int k = 0; k < scan_items; ++k) {
      items[k] = in[base + rank * scan_items + k];
    }
    scan_t(s).inclusive_scan(items, results);
    for (int k = 0; k < scan_items; ++k) {
      o[6 + k] = results[k];
    }
    __syncthreads();
    scan_t(s).exclusive_scan(items, results, init);
    for (int k = 0; k < scan_items; ++k) {
      o[6 + scan_items + k] = results[k];
    }
    __syncthreads();
    scan_t(s).inclusive_scan_with_prefix(items, results, run_in);
    for (int k = 0; k < scan_items; ++k) {
      o[6 + 2 * scan_items + k] = results[k];
    }
    __syncthreads();
    scan_t(s).exclusive_scan_with_prefix(items, results, run_ex);
    for (int k = 0; k < scan_items; ++k) {
      o[6 + 3 * scan_items + k] = results[k];
    }
    __syncthreads();
  }
}

}  // namespace gpuprims::test

namespace {

using namespace gpuprims::test;

template <int BlockSize, class Op, class Gen>
void check_block_scan(const std::string& name, dim3 block, typename Op::value_type init, Gen gen) {
  using T = typename Op::value_type;
  constexpr int blocks = 2;
  const int num_valid = BlockSize > 33 ? BlockSize - 33 : 1;
  INFO(name << ", BlockSize = " << BlockSize << ", block " << block.x << " x " << block.y);
  const std::size_t tile_items = std::size_t{BlockSize} * scan_items;
  const std::size_t n = blocks * scan_tiles * tile_items;
  std::vector<T> items(n);
  for (T& x : items) {
    x = gen();
  }
  const std::size_t outputs = blocks * scan_tiles * std::size_t{BlockSize} * scan_slots;
  device_buffer in(n * sizeof(T)), out(outputs * sizeof(T));
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(in.data(), items.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  out.poison();
  block_scan_kernel<BlockSize, Op><<<blocks, block>>>(
      reinterpret_cast<const T*>(in.data()), reinterpret_cast<T*>(out.data()), init, num_valid);
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<T> got(outputs);
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(got.data(), out.data(), outputs * sizeof(T), cudaMemcpyDeviceToHost));
  Op op;
  std::size_t wrong = 0;
  const auto expect = [&](std::size_t slot, const T& want) {
    wrong += same(got[slot], want) ? 0 : 1;
  };
  for (int b = 0; b < blocks; ++b) {
    T run_in = init, run_ex = init;  // the running prefixes carried across tiles
    for (int tile = 0; tile < scan_tiles; ++tile) {
      const std::size_t base = (static_cast<std::size_t>(b) * scan_tiles + tile) * tile_items;
      // One item per thread: items[base + rank].
      T total = items[base];
      for (int r = 1; r < BlockSize; ++r) {
        total = op(total, items[base + r]);
      }
      T partial = items[base];
      for (int r = 1; r < num_valid; ++r) {
        partial = op(partial, items[base + r]);
      }
      T inclusive = items[base], exclusive = init;
      for (int r = 0; r < BlockSize; ++r) {
        if (r > 0) {
          inclusive = op(inclusive, items[base + r]);
        }
        const std::size_t o = (base / scan_items + r) * scan_slots;
        expect(o, inclusive);
        expect(o + 1, total);
        expect(o + 2, exclusive);
        expect(o + 3, total);
        if (r < num_valid) {
          expect(o + 4, inclusive);
          expect(o + 5, partial);
        }
        exclusive = op(exclusive, items[base + r]);
      }
      // Arrays: items[base + r * scan_items + k], blocked.
      T arr_in = items[base], arr_ex = init;
      T run_in_next = run_in, run_ex_next = run_ex;
      for (std::size_t i = 0; i < tile_items; ++i) {
        if (i > 0) {
          arr_in = op(arr_in, items[base + i]);
        }
        run_in_next = op(run_in_next, items[base + i]);
        const std::size_t o = (base / scan_items + i / scan_items) * scan_slots;
        const std::size_t k = i % scan_items;
        expect(o + 6 + k, arr_in);
        expect(o + 6 + scan_items + k, arr_ex);
        expect(o + 6 + 2 * scan_items + k, run_in_next);
        expect(o + 6 + 3 * scan_items + k, run_ex_next);
        arr_ex = op(arr_ex, items[base + i]);
        run_ex_next = op(run_ex_next, items[base + i]);
      }
      run_in = run_in_next;
      run_ex = run_ex_next;
    }
  }
  CHECK(wrong == 0);
}

template <class Op, class Gen>
void check_block_sizes(const std::string& name, typename Op::value_type init, Gen gen) {
  check_block_scan<32, Op>(name, dim3(32), init, gen);
  check_block_scan<96, Op>(name, dim3(96), init, gen);
  check_block_scan<256, Op>(name, dim3(256), init, gen);
  check_block_scan<256, Op>(name, dim3(16, 16), init, gen);
  check_block_scan<1024, Op>(name, dim3(1024), init, gen);
}

}  // namespace

TEST_CASE("block_scan gives every thread its prefix, with aggregates and running prefixes",
          "[scan][gpu]") {
  std::mt19937_64& g = rng();
  check_block_sizes<gpuprims::plus<std::int32_t>>(
      "int32 plus", 3, [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; });
  check_block_sizes<affine_op>("affine (not commutative)", affine{5, 7}, [&g] {
    return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
  });
}

namespace {

template <class T, class Op, class Gen>
void check_delayed_lookback(const char* name, Gen gen) {
  const int tiles = 200;  // resident at once on any GPU: 200 one-warp blocks
  std::vector<T> aggregates(tiles);
  for (auto& a : aggregates) {
    a = gen();
  }
  const std::size_t bytes = gpuprims::lookback_workspace_bytes<T>(tiles);
  device_buffer ws(bytes), in(tiles * sizeof(T)), out(tiles * sizeof(T)), has(tiles * 4);
  GPUPRIMS_CHECK_CUDA(cudaMemset(ws.data(), 0, bytes));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), aggregates.data(), tiles * sizeof(T), cudaMemcpyHostToDevice));
  for (int call = 0; call < 2; ++call) {
    INFO(name << ", call " << call);
    out.poison();
    delayed_lookback_kernel<T, Op>
        <<<tiles, 32>>>(reinterpret_cast<const T*>(in.data()), reinterpret_cast<T*>(out.data()),
                        reinterpret_cast<int*>(has.data()), gpuprims::lookback_tiles<T>{ws.data()});
    GPUPRIMS_CHECK_LAUNCH();
    std::vector<T> got(tiles);
    std::vector<int> got_has(tiles);
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(got.data(), out.data(), tiles * sizeof(T), cudaMemcpyDeviceToHost));
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(got_has.data(), has.data(), tiles * 4, cudaMemcpyDeviceToHost));
    CHECK(got_has[0] == 0);
    T prefix = aggregates[0];  // the serial left fold, the order lookback documents
    int wrong = 0;
    for (int k = 1; k < tiles; ++k) {
      wrong += got_has[k] == 1 && std::memcmp(&got[k], &prefix, sizeof(T)) == 0 ? 0 : 1;
      prefix = Op{}(prefix, aggregates[k]);
    }
    CHECK(wrong == 0);
  }
}

}  // namespace

TEST_CASE("lookback folds forward over windows of aggregates behind a late first tile",
          "[scan][gpu]") {
  std::mt19937_64& g = rng();
  check_delayed_lookback<affine, affine_op>("affine maps", [&g] {
    return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
  });
  check_delayed_lookback<float, gpuprims::plus<float>>(
      "float sums", [&g] { return std::uniform_real_distribution<float>(0, 1)(g); });
}
