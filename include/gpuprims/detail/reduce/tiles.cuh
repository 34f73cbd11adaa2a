// How gpuprims::reduce cuts an input into tiles, and one thread's share of a tile. Everything here
// is a function of the input's size and alignment and of the shape, never of the device: it is the
// order docs/reduce.md specifies, and test/device/reduce.cu emulates on the CPU.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/tuning/reduce.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpuprims::detail {

// A running value that starts empty, so no identity element is needed.
template <class T, class Op>
struct accumulator {
  T value{};
  bool has = false;
  __device__ __forceinline__ void add(const T& x, Op& op) {
    value = has ? op(value, x) : x;
    has = true;
  }
};

// Items that pack into 16-byte words: loaded 16 bytes at a time. Others load one by one, each item
// a "word" of its own.
template <class Item>
inline constexpr bool reduce_vectorizable = 16 % sizeof(Item) == 0 && alignof(Item) == sizeof(Item);

template <class Item>
inline constexpr std::size_t reduce_items_per_word = reduce_vectorizable<Item> ? 16 / sizeof(Item)
                                                                               : 1;

// The input as `head` items before the first 16-byte boundary, `words` whole words, `tail` items.
template <class Item>
struct reduce_layout {
  std::size_t head = 0, words = 0, tail = 0;

  __host__ __device__ reduce_layout(const Item* in, std::size_t n) {
    constexpr std::size_t per_word = reduce_items_per_word<Item>;
    if constexpr (reduce_vectorizable<Item>) {
      head = ((16 - reinterpret_cast<std::uintptr_t>(in) % 16) % 16) / sizeof(Item);
      head = head < n ? head : n;
    }
    words = (n - head) / per_word;
    tail = n - head - words * per_word;
  }
};

// The shape a pass over `n` items of Item uses.
__host__ __device__ constexpr reduce_shape reduce_shape_of(const reduce_policy& p, std::size_t n,
                                                           std::size_t item_bytes) {
  return n * item_bytes <= p.small_max_bytes ? p.small : p.large;
}

__host__ __device__ constexpr std::size_t reduce_tile_words(const reduce_shape& s) {
  return static_cast<std::size_t>(s.block_threads) * static_cast<std::size_t>(s.words_per_thread);
}

// Tiles of a pass over `words` whole words: at least one (head and tail alone make a tile).
__host__ __device__ constexpr std::size_t reduce_tile_count(std::size_t words,
                                                            const reduce_shape& s) {
  return words == 0 ? 1 : (words + reduce_tile_words(s) - 1) / reduce_tile_words(s);
}

// How many leading threads of a block of `threads` hold a value of tile `tile` (of `tiles`).
template <class Item>
__host__ __device__ constexpr int reduce_tile_owners(const reduce_layout<Item>& layout,
                                                     std::size_t tile, std::size_t tiles,
                                                     std::size_t threads, std::size_t tile_words) {
  const std::size_t base = tile * tile_words;
  std::size_t own = layout.words > base ? layout.words - base : 0;
  own = own < threads ? own : threads;
  if (tile == 0 && layout.head > own) {
    own = layout.head;
  }
  if (tile == tiles - 1 && layout.tail > own) {
    own = layout.tail;
  }
  return static_cast<int>(own);
}

// An item read at the L2 (ld.global.cg), never from an SM's own caches: for partials that other
// blocks of the running grid wrote.
template <class Item>
__device__ __forceinline__ Item load_from_l2(const Item* p) {
  using word = typename vector_word<sizeof(Item)>::type;
  const word w = __ldcg(reinterpret_cast<const word*>(p));
  Item item;
  memcpy(&item, &w, sizeof(Item));
  return item;
}

// Thread `rank` of the block that reduces tile `tile` (of `tiles`) folds, in this order: head item
// `rank` (tile 0 only), its words tile * S + k * Threads + rank for k = 0 .. Words - 1 (all loads
// in flight first; each word's items in address order), tail item `rank` (the last tile only).
// Returns the value and how many leading threads of the block hold one (the owners are a prefix).
// With `FromL2` every load goes to the L2 (load_from_l2): for items this grid wrote.
template <int Threads, int Words, class T, class Op, class Item, bool FromL2 = false>
__device__ __forceinline__ T reduce_tile_share(const Item* in, const reduce_layout<Item>& layout,
                                               std::size_t tile, std::size_t tiles, Op& op,
                                               int rank, int& owners) {
  constexpr std::size_t per_word = reduce_items_per_word<Item>;
  constexpr std::size_t tile_words = std::size_t{Threads} * Words;
  static_assert(!FromL2 || reduce_vectorizable<Item>, "L2 loads are for 1 to 16-byte items");
  const auto load_item = [&](std::size_t i) {
    if constexpr (FromL2) {
      return load_from_l2(in + i);
    } else {
      return in[i];
    }
  };
  accumulator<T, Op> acc;
  const auto r = static_cast<std::size_t>(rank);
  if (tile == 0 && r < layout.head) {
    acc.add(static_cast<T>(load_item(r)), op);
  }
  const std::size_t base = tile * tile_words;
  const auto add_word = [&](int, const auto& word) {
    if constexpr (reduce_vectorizable<Item>) {
      Item items[per_word];
      memcpy(items, &word, 16);
#pragma unroll
      for (std::size_t j = 0; j < per_word; ++j) {
        acc.add(static_cast<T>(items[j]), op);
      }
    } else {
      acc.add(static_cast<T>(word), op);
    }
  };
  const auto load_word = [&](std::size_t w) {
    if constexpr (FromL2) {
      return __ldcg(reinterpret_cast<const uint4*>(in + layout.head) + w);
    } else if constexpr (reduce_vectorizable<Item>) {
      return reinterpret_cast<const uint4*>(in + layout.head)[w];
    } else {
      return in[w];
    }
  };
  if (base + tile_words <= layout.words) {  // a whole tile: no checks
    load_then_consume<Words>([&](int k) { return load_word(base + k * std::size_t{Threads} + r); },
                             add_word);
  } else {
#pragma unroll
    for (int k = 0; k < Words; ++k) {
      const std::size_t w = base + k * std::size_t{Threads} + r;
      if (w < layout.words) {
        add_word(k, load_word(w));
      }
    }
  }
  if (tile == tiles - 1 && r < layout.tail) {
    acc.add(static_cast<T>(load_item(layout.head + layout.words * per_word + r)), op);
  }
  owners = reduce_tile_owners(layout, tile, tiles, Threads, tile_words);
  return acc.value;
}

}  // namespace gpuprims::detail
