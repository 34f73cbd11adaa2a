// The order of gpuprims::reduce (docs/reduce.md, "The order") emulated on the CPU, for the tests
// that compare a GPU result bit for bit: test/device/reduce.cu and the multi-GPU reduce.
#pragma once

#include <gpuprims/device/reduce.cuh>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace gpuprims::test {

// warp_reduce over lanes [0, valid): at offsets 1, 2, 4, 8, 16 lane l takes op(v[l], v[l + offset])
// when l + offset < valid, all lanes at once. The result is lane 0's.
template <class T, class Op>
T emulate_warp(std::vector<T> v, int valid, Op op) {
  for (int offset = 1; offset < 32; offset *= 2) {
    const std::vector<T> before = v;
    for (int lane = 0; lane + offset < valid; ++lane) {
      v[lane] = op(before[lane], before[lane + offset]);
    }
  }
  return v[0];
}

// The block step over the threads [0, owners): each warp's valid lanes, then warp 0 over the warps.
template <class T, class Op>
T emulate_block(const std::vector<T>& values, int threads, int owners, Op op) {
  std::vector<T> warp_partials(32);
  const int valid_warps = (owners + 31) / 32;
  for (int w = 0; w < valid_warps; ++w) {
    std::vector<T> lanes(values.begin() + 32 * w, values.begin() + 32 * w + 32);
    warp_partials[w] = emulate_warp(lanes, owners - 32 * w < 32 ? owners - 32 * w : 32, op);
  }
  return threads > 32 ? emulate_warp(warp_partials, valid_warps, op) : warp_partials[0];
}

// One pass over x[0, n) (whose device address is `address` modulo 16): the partial of every tile.
template <class T, class Op, class Item>
std::vector<T> emulate_pass(const Item* x, std::size_t n, std::size_t address,
                            const gpuprims::reduce_policy& p, Op op) {
  namespace d = gpuprims::detail;
  constexpr std::size_t per_word = d::reduce_items_per_word<Item>;
  std::size_t head = 0;
  if (d::reduce_vectorizable<Item>) {
    head = std::min(n, ((16 - address % 16) % 16) / sizeof(Item));
  }
  const std::size_t words = (n - head) / per_word, tail = n - head - words * per_word;
  const gpuprims::reduce_shape shape = d::reduce_shape_of(p, n, sizeof(Item));
  const int threads = shape.block_threads;
  const std::size_t tile_words = d::reduce_tile_words(shape);
  const std::size_t tiles = d::reduce_tile_count(words, shape);
  std::vector<T> partials(tiles);
  std::vector<T> values(threads);
  for (std::size_t tile = 0; tile < tiles; ++tile) {
    std::size_t owners = 0;
    for (int r = 0; r < threads; ++r) {
      bool has = false;
      const auto add = [&](const Item& item) {
        values[r] = has ? op(values[r], static_cast<T>(item)) : static_cast<T>(item);
        has = true;
      };
      if (tile == 0 && static_cast<std::size_t>(r) < head) {
        add(x[r]);
      }
      for (int k = 0; k < shape.words_per_thread; ++k) {
        const std::size_t w = tile * tile_words + static_cast<std::size_t>(k) * threads + r;
        for (std::size_t j = 0; w < words && j < per_word; ++j) {
          add(x[head + w * per_word + j]);
        }
      }
      if (tile == tiles - 1 && static_cast<std::size_t>(r) < tail) {
        add(x[head + words * per_word + r]);
      }
      if (has) {
        owners = r + 1;  // the owners are a prefix of the threads
      }
    }
    partials[tile] = emulate_block(values, threads, static_cast<int>(owners), op);
  }
  return partials;
}

template <class T, class Op, class Item>
T emulate_reduce(const Item* x, std::size_t n, std::size_t address, T init, Op op,
                 const gpuprims::reduce_policy& p) {
  if (n == 0) {
    return init;
  }
  std::vector<T> partials = emulate_pass<T>(x, n, address, p, op);
  while (partials.size() > 1) {
    partials = emulate_pass<T>(partials.data(), partials.size(), 0, p, op);  // 256-byte aligned
  }
  return op(init, partials[0]);
}

}  // namespace gpuprims::test
