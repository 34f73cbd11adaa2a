// block_segmented_reduce from a user kernel: block sizes 32 to 1024, segments of every length from
// one thread to the whole block (random starts), full and partial tiles, a sum and a
// non-commutative operator (affine maps), every thread's result against the CPU.
#include <gpuprims/block/segmented_reduce.cuh>

#include "support/reduce_check.cuh"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gpuprims::test {

// Thread t of block b: item in[b * BlockSize + t], a segment starts where starts[...] is 1.
template <int BlockSize, class Op>
__global__ void block_segmented_kernel(const typename Op::value_type* in,
                                       const unsigned char* starts, typename Op::value_type* out,
                                       int num_valid) {
  using T = typename Op::value_type;
  using seg_t = gpuprims::block_segmented_reduce<BlockSize, Op>;
  __shared__ typename seg_t::storage storage;
  const std::size_t i = blockIdx.x * std::size_t{BlockSize} + threadIdx.x;
  const bool valid = static_cast<int>(threadIdx.x) < num_valid;
  const T x = valid ? in[i] : poison<T>();
  out[i] = num_valid >= BlockSize ? seg_t(storage).reduce(x, starts[i] != 0)
                                  : seg_t(storage).reduce(x, starts[i] != 0, num_valid);
}

}  // namespace gpuprims::test

namespace {

using namespace gpuprims::test;

template <int BlockSize, class Op, class Gen>
void check_block_segments(const std::string& name, Gen gen) {
  using T = typename Op::value_type;
  constexpr int blocks = 6;
  std::mt19937_64& g = rng();
  for (int num_valid : {BlockSize, BlockSize - 1, 1, BlockSize / 2 + 3}) {
    // Start probabilities from "every thread" to "almost never", one per block.
    std::vector<T> items(blocks * BlockSize);
    std::vector<unsigned char> starts(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      items[i] = gen();
      const std::size_t block = i / BlockSize;
      starts[i] = block == 0 ? 1 : (block == 5 ? 0 : (g() % (1u << (2 * block)) == 0));
    }
    INFO(name << ", BlockSize = " << BlockSize << ", num_valid = " << num_valid);
    device_buffer in(items.size() * sizeof(T)), flags(starts.size()), out(items.size() * sizeof(T));
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(in.data(), items.data(), items.size() * sizeof(T), cudaMemcpyHostToDevice));
    flags.upload(starts);
    out.poison();
    block_segmented_kernel<BlockSize, Op>
        <<<blocks, BlockSize>>>(reinterpret_cast<const T*>(in.data()), flags.data(),
                                reinterpret_cast<T*>(out.data()), num_valid);
    GPUPRIMS_CHECK_LAUNCH();
    std::vector<T> got(items.size());
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(got.data(), out.data(), got.size() * sizeof(T), cudaMemcpyDeviceToHost));
    std::size_t wrong = 0;
    for (int b = 0; b < blocks; ++b) {
      std::size_t begin = b * std::size_t{BlockSize};
      for (int t = 0; t < num_valid && t < BlockSize; ++t) {
        const std::size_t i = b * std::size_t{BlockSize} + t;
        if (t == 0 || starts[i]) {
          begin = i;
        }
        wrong += matches<Op>(got[i], items, begin, i - begin + 1) ? 0 : 1;
      }
    }
    CHECK(wrong == 0);
  }
}

template <int BlockSize>
void check_sizes() {
  std::mt19937_64& g = rng();
  check_block_segments<BlockSize, gpuprims::plus<std::int32_t>>(
      "int32 plus", [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; });
  check_block_segments<BlockSize, affine_op>("affine (not commutative)", [&g] {
    return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
  });
}

}  // namespace

TEST_CASE("block_segmented_reduce: every thread gets its segment's fold so far", "[reduce][gpu]") {
  check_sizes<32>();
  check_sizes<96>();
  check_sizes<256>();
  check_sizes<1024>();
}
