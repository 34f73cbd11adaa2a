// The block-reduction tests' checking code, shared by block_reduce, its ladder rungs and
// warp_reduce: operators that expose reordering (arg-max with ties, affine composition), poison for
// non-contributing threads, a user kernel over full and partial tiles, and the CPU comparison.
#pragma once

#include "support/test_support.cuh"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gpuprims::test {

inline constexpr int items_per_thread = 3;

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
template <class Reduce, int BlockSize, class Op, class Item>
__global__ void block_reduce_kernel(const Item* in, std::size_t n,
                                    typename Op::value_type* block_out,
                                    typename Op::value_type* all_out) {
  using T = typename Op::value_type;
  using reduce_t = Reduce;
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
    result = reduce_t(storage).reduce(
        item, static_cast<int>((valid + items_per_thread - 1) / items_per_thread));
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
inline bool same(const arg_max& a, const arg_max& b) {
  return a.value == b.value && a.index == b.index;
}
inline bool same(const affine& x, const affine& y) { return x.a == y.a && x.b == y.b; }

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

// Runs Reduce (a block reduction of BlockSize threads over Op) on full and partial tiles of items
// drawn from gen(i); checks each block's result and every thread's all_reduce.
template <class Reduce, int BlockSize, class Op, class Item, class Gen>
void check_block_reduce(const std::string& name, Gen gen) {
  using T = typename Op::value_type;
  const std::size_t tile = std::size_t{BlockSize} * items_per_thread;
  // Partial tiles with 1, 3, 33, 64 and about half the block's threads owning items.
  const std::size_t half = BlockSize / 2 + 5;
  for (std::size_t n : {std::size_t{1}, tile, 5 * tile + 7, 2 * tile + BlockSize - 1,
                        tile + 3 * 33 - 1, tile + 3 * 64, tile + 3 * half - 2}) {
    INFO(name << ", BlockSize " << BlockSize << ", n = " << n);
    std::vector<Item> items(n);
    for (std::size_t i = 0; i < n; ++i) {
      items[i] = gen(i);
    }
    const std::size_t blocks = (n + tile - 1) / tile;
    device_buffer in(n * sizeof(Item)), block_out(blocks * sizeof(T)),
        all_out(blocks * BlockSize * sizeof(T));
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(in.data(), items.data(), n * sizeof(Item), cudaMemcpyHostToDevice));
    block_out.poison();
    all_out.poison();
    block_reduce_kernel<Reduce, BlockSize, Op, Item><<<static_cast<unsigned>(blocks), BlockSize>>>(
        reinterpret_cast<const Item*>(in.data()), n, reinterpret_cast<T*>(block_out.data()),
        reinterpret_cast<T*>(all_out.data()));
    GPUPRIMS_CHECK_LAUNCH();
    std::vector<T> got(blocks), all(blocks * BlockSize);
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(got.data(), block_out.data(), got.size() * sizeof(T), cudaMemcpyDeviceToHost));
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(all.data(), all_out.data(), all.size() * sizeof(T), cudaMemcpyDeviceToHost));
    for (std::size_t b = 0; b < blocks; ++b) {
      const std::size_t base = b * tile;
      const std::size_t valid = n - base < tile ? n - base : tile;
      INFO("block " << b << ", " << valid << " valid items");
      CHECK(matches<Op>(got[b], items, base, valid));
      // all_reduce: the first item of each thread's slot (full tile) or items [0, min(valid,
      // BlockSize)).
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

}  // namespace gpuprims::test
