// gpuprims::reduce_rows's kernels and launch: a thread, a warp or a block per row, by the row's
// length; long rows whose starts share an alignment cut into tiles as gpuprims::reduce cuts an
// input (a second launch folds each row's partials); other long unpadded rows go to
// segmented_reduce's walk.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/detail/reduce/block_warp_shuffle.cuh>
#include <gpuprims/detail/reduce/kernels.cuh>
#include <gpuprims/detail/reduce/segmented.cuh>
#include <gpuprims/detail/reduce/tiles.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/device/workspace.cuh>
#include <gpuprims/tuning/reduce.cuh>
#include <gpuprims/warp/reduce.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace gpuprims::detail {

enum class rows_by { thread, warp, block };

template <class Tuning>
inline constexpr int rows_block_here = Tuning::select(GPUPRIMS_TARGET_ARCH).block_threads;

// Row r: in[r * pitch, r * pitch + cols). out[r] = op(init, fold of the row), init for cols == 0.
// A thread folds its items in column order (a thread per row: the whole row; a warp or a block:
// columns lane, lane + width, ...), then the warp or block combines its threads in lane order.
template <class Tuning, rows_by By, class T, class Op, class Item>
__global__ void __launch_bounds__(rows_block_here<Tuning>)
    reduce_rows_kernel(const Item* __restrict__ in, T* __restrict__ out, std::size_t rows,
                       std::size_t cols, std::size_t pitch, T init, Op op) {
  constexpr int threads = rows_block_here<Tuning>;
  static_assert(threads % 32 == 0 && threads <= 1024,
                "reduce_rows_policy: block_threads a multiple of 32 up to 1024");
  wait_for_prior_grids();
  if constexpr (By == rows_by::thread) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
    for (std::size_t r = blockIdx.x * std::size_t{threads} + threadIdx.x; r < rows; r += stride) {
      const Item* row = in + r * pitch;
      accumulator<T, Op> acc;
      for (std::size_t c = 0; c < cols; ++c) {
        acc.add(static_cast<T>(row[c]), op);
      }
      out[r] = acc.has ? op(init, acc.value) : init;
    }
  } else if constexpr (By == rows_by::warp) {
    constexpr int warps = threads / 32;
    const int lane = static_cast<int>(threadIdx.x % 32);
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * warps;
    for (std::size_t r = blockIdx.x * std::size_t{warps} + threadIdx.x / 32; r < rows;
         r += stride) {
      const Item* row = in + r * pitch;
      accumulator<T, Op> acc;
      for (std::size_t c = lane; c < cols; c += 32) {
        acc.add(static_cast<T>(row[c]), op);
      }
      const T total = warp_reduce(acc.value, op, cols < 32 ? static_cast<int>(cols) : 32);
      if (lane == 0) {
        out[r] = op(init, total);
      }
    }
  } else {
    using block_step = block_reduce_warp_shuffle<threads, T>;
    __shared__ typename block_step::storage storage;
    const int rank = static_cast<int>(threadIdx.x);
    for (std::size_t r = blockIdx.x; r < rows; r += gridDim.x) {
      const Item* row = in + r * pitch;
      accumulator<T, Op> acc;
      for (std::size_t c = rank; c < cols; c += threads) {
        acc.add(static_cast<T>(row[c]), op);
      }
      const int valid = cols < threads ? static_cast<int>(cols) : threads;
      const T total = block_step::partial(storage, op, acc.value, valid, rank);
      if (rank == 0) {
        out[r] = op(init, total);
      }
      __syncthreads();  // the storage is reused by the next row
    }
  }
}

template <class Tuning>
inline constexpr reduce_shape rows_tile_here = Tuning::select(GPUPRIMS_TARGET_ARCH).long_row_tile;

// Whether every row of a matrix of this pitch starts at the same offset from a 16-byte boundary
// (then one reduce_layout serves them all).
template <class Item>
constexpr bool rows_share_layout(std::size_t pitch) {
  return !reduce_vectorizable<Item> || pitch * sizeof(Item) % 16 == 0;
}

// Long rows that share one layout: row r is cut as gpuprims::reduce cuts an input of `cols` items
// at the first row's alignment (tiles.cuh: the head, whole 16-byte words, the tail) into `tiles`
// tiles of long_row_tile, one block a tile (x the tile, y the row), which writes the tile's partial
// to partials[r * tiles + t].
template <class Tuning, class T, class Op, class Item>
__global__ void __launch_bounds__(rows_tile_here<Tuning>.block_threads)
    reduce_row_tiles_kernel(const Item* __restrict__ in, std::size_t rows, std::size_t cols,
                            std::size_t pitch, T* __restrict__ partials, Op op) {
  constexpr reduce_shape shape = rows_tile_here<Tuning>;
  static_assert(shape.block_threads % 32 == 0 && shape.block_threads <= 1024,
                "reduce_rows_policy::long_row_tile: block_threads a multiple of 32 up to 1024");
  static_assert(shape.words_per_thread >= 1 && shape.words_per_thread <= 16,
                "reduce_rows_policy::long_row_tile: words_per_thread from 1 to 16");
  using block_step = block_reduce_warp_shuffle<shape.block_threads, T>;
  __shared__ typename block_step::storage storage;
  wait_for_prior_grids();
  const reduce_layout<Item> layout(in, cols);
  const std::size_t tiles = reduce_tile_count(layout.words, shape);
  const int rank = static_cast<int>(threadIdx.x);
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      int owners = 0;
      const T mine = reduce_tile_share<shape.block_threads, shape.words_per_thread, T>(
          in + row * pitch, layout, tile, tiles, op, rank, owners);
      const T total = block_step::partial(storage, op, mine, owners, rank);
      if (rank == 0) {
        partials[row * tiles + tile] = total;
      }
      __syncthreads();  // the storage is reused by the next tile
    }
  }
}

// Rows that share one layout (rows_share_layout), of items that pack into 16-byte words: `group`
// lanes a row (a power of two up to 32), 32 / group rows a warp at a time. Lane s of a group folds,
// in order, the row's head items s, s + group, ..., its 16-byte words s, s + group, ... (4 loads in
// flight) and its tail items s, s + group, ...; the group then combines by a shuffle tree (lane s
// with lane s + group / 2, then s + group / 4, ...), and its lane 0 writes op(init, total).
template <class Tuning, class T, class Op, class Item>
__global__ void __launch_bounds__(rows_block_here<Tuning>)
    reduce_row_groups_kernel(const Item* __restrict__ in, T* __restrict__ out, std::size_t rows,
                             std::size_t cols, std::size_t pitch, int group, T init, Op op) {
  constexpr int warps = rows_block_here<Tuning> / 32;
  constexpr std::size_t per_word = reduce_items_per_word<Item>;
  static_assert(reduce_vectorizable<Item>, "row groups load 16-byte words");
  wait_for_prior_grids();
  const reduce_layout<Item> layout(in, cols);
  const int lane = static_cast<int>(threadIdx.x % 32);
  const auto sub = static_cast<std::size_t>(lane & (group - 1));
  const auto width = static_cast<std::size_t>(group);
  const std::size_t rows_per_warp = 32 / width;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * warps * rows_per_warp;
  for (std::size_t first = (blockIdx.x * std::size_t{warps} + threadIdx.x / 32) * rows_per_warp;
       first < rows; first += stride) {
    const std::size_t row = first + static_cast<std::size_t>(lane) / width;
    accumulator<T, Op> acc;
    if (row < rows) {
      const Item* r = in + row * pitch;
      for (std::size_t i = sub; i < layout.head; i += width) {
        acc.add(static_cast<T>(r[i]), op);
      }
      const auto* words = reinterpret_cast<const uint4*>(r + layout.head);
      strided_load_then_consume<4>(
          layout.words, sub, width, [&](std::size_t w) { return words[w]; },
          [&](std::size_t, const uint4& word) {
            Item items[per_word];
            memcpy(items, &word, 16);
#pragma unroll
            for (std::size_t j = 0; j < per_word; ++j) {
              acc.add(static_cast<T>(items[j]), op);
            }
          });
      const Item* tail = r + layout.head + layout.words * per_word;
      for (std::size_t i = sub; i < layout.tail; i += width) {
        acc.add(static_cast<T>(tail[i]), op);
      }
    }
    // Lanes below `offset` in their group take their partner's value (the others shuffle only).
    T value = acc.value;
    bool has = acc.has;
    for (int offset = group / 2; offset > 0; offset /= 2) {
      const T other = shuffle_down(value, static_cast<unsigned int>(offset));
      const bool other_has = __shfl_down_sync(full_warp, has, static_cast<unsigned int>(offset));
      if (sub < static_cast<std::size_t>(offset) && other_has) {
        value = has ? op(value, other) : other;
        has = true;
      }
    }
    if (row < rows && sub == 0) {
      out[row] = has ? op(init, value) : init;
    }
  }
}

template <class Tuning>
inline constexpr int packed_words_here = Tuning::select(GPUPRIMS_TARGET_ARCH).packed_words;

// The alignment store_word_results needs for one packed word's results of `bytes` bytes: 16 for
// whole 16-byte words, the bytes themselves for one word of 1, 2, 4 or 8 bytes, else 1 (one by
// one). The launcher checks the output against it.
__host__ __device__ constexpr std::size_t word_results_alignment(std::size_t bytes) {
  return bytes % 16 == 0 ? 16 : (bytes == 8 || bytes == 4 || bytes == 2 || bytes == 1) ? bytes : 1;
}

// Stores the `Count` results of one packed word at `dst`, aligned to word_results_alignment of
// their bytes: as 16-byte words or one narrower word where the bytes allow, else one by one.
template <std::size_t Count, class T>
__device__ __forceinline__ void store_word_results(T* dst, const T (&results)[Count]) {
  constexpr std::size_t bytes = Count * sizeof(T);
  constexpr std::size_t align = word_results_alignment(bytes);
  if constexpr (align == 16) {
#pragma unroll
    for (std::size_t q = 0; q < bytes / 16; ++q) {
      uint4 v;
      memcpy(&v, reinterpret_cast<const char*>(results) + q * 16, 16);
      store16(reinterpret_cast<char*>(dst) + q * 16, v);
    }
  } else if constexpr (align == bytes) {
    typename vector_word<bytes>::type v;
    memcpy(&v, results, bytes);
    *reinterpret_cast<typename vector_word<bytes>::type*>(dst) = v;
  } else {
#pragma unroll
    for (std::size_t j = 0; j < Count; ++j) {
      dst[j] = results[j];
    }
  }
}

// The packed rows' walk over `words` 16-byte words of `src`: tiles of Threads x Words words, a
// block a tile (thread t: words t, t + Threads, ...; a whole tile's loads all in flight first), and
// consume(w, valid, word) for each. In the last, part tile every thread still calls it for each of
// its Words (words past the end invalid, as zeros), so warp collectives inside stay converged.
template <int Threads, int Words, class Consume>
__device__ __forceinline__ void walk_packed_words(const uint4* src, std::size_t words,
                                                  Consume&& consume) {
  static_assert(Words >= 1 && Words <= 16, "reduce_rows_policy::packed_words from 1 to 16");
  const auto r = static_cast<std::size_t>(threadIdx.x);
  constexpr std::size_t tile_words = std::size_t{Threads} * Words;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * tile_words;
  for (std::size_t base = blockIdx.x * tile_words; base < words; base += stride) {
    if (base + tile_words <= words) {
      load_then_consume<Words>(
          [&](int k) { return load16(src + base + k * std::size_t{Threads} + r); },
          [&](int k, const uint4& word) {
            consume(base + k * std::size_t{Threads} + r, true, word);
          });
    } else {
#pragma unroll
      for (int k = 0; k < Words; ++k) {
        const std::size_t w = base + k * std::size_t{Threads} + r;
        consume(w, w < words, w < words ? load16(src + w) : uint4{});
      }
    }
  }
}

// Packed rows of Cols items (Cols dividing a word's items), the input from a 16-byte boundary: word
// w holds rows [w * per_word / Cols, (w + 1) * per_word / Cols). A block takes tiles of threads x
// packed_words words (thread t: words t, t + threads, ..., all loaded before the first is used),
// folds each row as a thread a row does (column order, then op(init, fold)) and stores each word's
// results together; the rows after the last whole word, fewer than a word's, go to block 0's first
// threads.
template <class Tuning, std::size_t Cols, class T, class Op, class Item>
__global__ void __launch_bounds__(rows_block_here<Tuning>)
    reduce_packed_rows_kernel(const Item* __restrict__ in, T* __restrict__ out, std::size_t rows,
                              T init, Op op) {
  constexpr std::size_t per_word = reduce_items_per_word<Item>;
  constexpr std::size_t rows_per_word = per_word / Cols;
  static_assert(reduce_vectorizable<Item> && Cols >= 1 && per_word % Cols == 0,
                "packed rows: items that pack into 16-byte words, rows that divide a word");
  wait_for_prior_grids();
  const std::size_t words = rows / rows_per_word;
  walk_packed_words<rows_block_here<Tuning>, packed_words_here<Tuning>>(
      reinterpret_cast<const uint4*>(in), words, [&](std::size_t w, bool valid, const uint4& word) {
        Item items[per_word];
        memcpy(items, &word, 16);
        T results[rows_per_word];
#pragma unroll
        for (std::size_t j = 0; j < rows_per_word; ++j) {
          accumulator<T, Op> acc;
#pragma unroll
          for (std::size_t c = 0; c < Cols; ++c) {
            acc.add(static_cast<T>(items[j * Cols + c]), op);
          }
          results[j] = op(init, acc.value);
        }
        if (valid) {
          store_word_results(out + w * rows_per_word, results);
        }
      });
  const auto r = static_cast<std::size_t>(threadIdx.x);
  if (blockIdx.x == 0 && r < rows - words * rows_per_word) {
    const std::size_t row = words * rows_per_word + r;
    accumulator<T, Op> acc;
#pragma unroll
    for (std::size_t c = 0; c < Cols; ++c) {
      acc.add(static_cast<T>(in[row * Cols + c]), op);
    }
    out[row] = op(init, acc.value);
  }
}

// Packed rows of Lanes 16-byte words (2 to 32, a power of two), the input from a 16-byte boundary:
// row r is words [r * Lanes, (r + 1) * Lanes). A block reads tiles of threads x packed_words words
// as reduce_packed_rows_kernel does (each warp load one contiguous 512-byte span), so a row's words
// sit in Lanes neighbouring lanes of one load; each lane folds its word's items in order, the
// Lanes lanes combine by a shuffle tree (lane i with lane i + Lanes / 2, then i + Lanes / 4, ...)
// and the row's first lane stores op(init, total). The order depends on cols only.
template <class Tuning, int Lanes, class T, class Op, class Item>
__global__ void __launch_bounds__(rows_block_here<Tuning>)
    reduce_lane_rows_kernel(const Item* __restrict__ in, T* __restrict__ out, std::size_t rows,
                            T init, Op op) {
  constexpr std::size_t per_word = reduce_items_per_word<Item>;
  static_assert(reduce_vectorizable<Item> && Lanes >= 2 && Lanes <= 32 && 32 % Lanes == 0,
                "lane rows: items that pack into 16-byte words, 2 to 32 words a row");
  wait_for_prior_grids();
  const auto sub = static_cast<unsigned int>(threadIdx.x % Lanes);
  // A row's Lanes words are all valid or all past the end (the words are rows x Lanes), and sit
  // in Lanes lanes from a multiple of Lanes (tiles and blocks are whole warps).
  walk_packed_words<rows_block_here<Tuning>, packed_words_here<Tuning>>(
      reinterpret_cast<const uint4*>(in), rows * Lanes,
      [&](std::size_t w, bool valid, const uint4& word) {
        Item items[per_word];
        memcpy(items, &word, 16);
        accumulator<T, Op> acc;
#pragma unroll
        for (std::size_t j = 0; j < per_word; ++j) {
          acc.add(static_cast<T>(items[j]), op);
        }
        T value = acc.value;
#pragma unroll
        for (unsigned int offset = Lanes / 2; offset > 0; offset /= 2) {
          const T other = shuffle_down(value, offset);
          if (sub < offset) {
            value = op(value, other);
          }
        }
        if (valid && sub == 0) {
          out[w / Lanes] = op(init, value);
        }
      });
}

// Lanes a row for row groups: the largest power of two up to 32 that leaves each lane at least
// `per_lane` of the row's words (1 where the row has fewer).
constexpr int row_group_lanes(std::size_t words, int per_lane) {
  const std::size_t least = per_lane < 1 ? 1 : static_cast<std::size_t>(per_lane);
  int group = 1;
  while (group < 32 && static_cast<std::size_t>(group) * 2 * least <= words) {
    group *= 2;
  }
  return group;
}

// The matrix launchers' argument check: `out` holds `results` values of T; with work (rows and cols
// both non-zero) `in` is non-null, the pitch at least cols, the span representable and apart
// from the output.
template <class Item, class T>
bool matrix_arguments_ok(const Item* in, std::size_t rows, std::size_t cols, std::size_t pitch,
                         const T* out, std::size_t results) {
  std::size_t out_bytes = 0, span = 0;
  if (out == nullptr || !checked_bytes<T>(results, out_bytes)) {
    return false;
  }
  if (rows == 0 || cols == 0) {
    return true;
  }
  return in != nullptr && pitch >= cols && checked_span(1, 0, rows, pitch, cols, span) &&
         span <= std::numeric_limits<std::size_t>::max() / sizeof(Item) &&
         !ranges_overlap(in, span * sizeof(Item), out, out_bytes);
}

// Whether a rows tuning turns packed rows on for any architecture number up to 200: decided at
// compile time and the same in the host and device passes, so the packed kernels are built only
// for tunings that can use them.
template <class Tuning>
constexpr bool rows_packing_possible() {
  for (int arch = 0; arch <= 200; ++arch) {
    if (Tuning::select(arch).packed_max_cols != 0) {
      return true;
    }
  }
  return false;
}

// Whether packed rows (reduce_rows_policy::packed_max_cols) take these rows, for items that pack
// into 16-byte words: several rows a word (reduce_packed_rows_kernel) or 2 to 32 words a row
// (reduce_lane_rows_kernel).
template <class Item, class T>
bool rows_pack(const reduce_rows_policy& p, const Item* in, const T* out, std::size_t cols,
               std::size_t pitch) {
  constexpr std::size_t per_word = reduce_items_per_word<Item>;
  if (cols == 0 || cols > p.packed_max_cols || pitch != cols ||
      reinterpret_cast<std::uintptr_t>(in) % 16 != 0) {
    return false;
  }
  if (cols > per_word) {
    const std::size_t lanes = cols / per_word;
    return cols % per_word == 0 && lanes <= 32 && (lanes & (lanes - 1)) == 0;
  }
  if (per_word % cols != 0) {
    return false;
  }
  const std::size_t align = word_results_alignment(per_word / cols * sizeof(T));
  return reinterpret_cast<std::uintptr_t>(out) % align == 0;
}

template <class Tuning, std::size_t Cols, class Item, class T, class Op>
cudaError_t launch_packed_rows_of(const reduce_rows_policy& p, bool dependent, const Item* in,
                                  T* out, std::size_t rows, T init, Op op, cudaStream_t stream) {
  if constexpr (reduce_items_per_word<Item> % Cols == 0) {
    const std::size_t words = rows / (reduce_items_per_word<Item> / Cols);
    const std::size_t tile_words =
        static_cast<std::size_t>(p.block_threads) * static_cast<std::size_t>(p.packed_words);
    return launch<reduce_packed_rows_kernel<Tuning, Cols, T, Op, Item>>(
        grid_x(words == 0 ? 1 : ceil_div(words, tile_words)),
        dim3(static_cast<unsigned int>(p.block_threads)), stream, dependent, in, out, rows, init,
        op);
  } else {
    return cudaErrorInvalidValue;  // not reached: rows_pack refuses these
  }
}

template <class Tuning, int Lanes, class Item, class T, class Op>
cudaError_t launch_lane_rows_of(const reduce_rows_policy& p, bool dependent, const Item* in, T* out,
                                std::size_t rows, T init, Op op, cudaStream_t stream) {
  const std::size_t tile_words =
      static_cast<std::size_t>(p.block_threads) * static_cast<std::size_t>(p.packed_words);
  return launch<reduce_lane_rows_kernel<Tuning, Lanes, T, Op, Item>>(
      grid_x(ceil_div(rows * Lanes, tile_words)), dim3(static_cast<unsigned int>(p.block_threads)),
      stream, dependent, in, out, rows, init, op);
}

// f(std::integral_constant<std::size_t, V>{}) for the power of two V equal to `value` (1 to 32;
// anything else as 32).
template <class F>
cudaError_t with_power_of_two(std::size_t value, F&& f) {
  switch (value) {
    case 1:
      return f(std::integral_constant<std::size_t, 1>{});
    case 2:
      return f(std::integral_constant<std::size_t, 2>{});
    case 4:
      return f(std::integral_constant<std::size_t, 4>{});
    case 8:
      return f(std::integral_constant<std::size_t, 8>{});
    case 16:
      return f(std::integral_constant<std::size_t, 16>{});
    default:
      return f(std::integral_constant<std::size_t, 32>{});
  }
}

// Packed rows (rows_pack said yes): 1, 2, 4, 8 or 16 items, or 2 to 32 words.
template <class Tuning, class Item, class T, class Op>
cudaError_t launch_packed_rows(const reduce_rows_policy& p, bool dependent, const Item* in, T* out,
                               std::size_t rows, std::size_t cols, T init, Op op,
                               cudaStream_t stream) {
  constexpr std::size_t per_word = reduce_items_per_word<Item>;
  if (cols > per_word) {
    return with_power_of_two(cols / per_word, [&](auto lanes) {
      if constexpr (lanes() >= 2) {
        return launch_lane_rows_of<Tuning, static_cast<int>(lanes())>(p, dependent, in, out, rows,
                                                                      init, op, stream);
      } else {
        return cudaErrorInvalidValue;  // not reached: more items than a word's
      }
    });
  }
  return with_power_of_two(cols, [&](auto items) {
    return launch_packed_rows_of<Tuning, items()>(p, dependent, in, out, rows, init, op, stream);
  });
}

// A thread, a warp or a block per row, by cols (the arguments checked).
template <class Tuning, class Item, class T, class Op>
cudaError_t launch_rows_by_length(const reduce_rows_policy& p, bool dependent, const Item* in,
                                  T* out, std::size_t rows, std::size_t cols, std::size_t pitch,
                                  T init, Op op, cudaStream_t stream) {
  const auto threads = static_cast<std::size_t>(p.block_threads);
  const dim3 block(static_cast<unsigned int>(threads));
  if (cols <= p.thread_max_cols) {
    return launch<reduce_rows_kernel<Tuning, rows_by::thread, T, Op, Item>>(
        grid_x(ceil_div(rows, threads)), block, stream, dependent, in, out, rows, cols, pitch, init,
        op);
  }
  if (cols <= p.warp_max_cols) {
    return launch<reduce_rows_kernel<Tuning, rows_by::warp, T, Op, Item>>(
        grid_x(ceil_div(rows, threads / 32)), block, stream, dependent, in, out, rows, cols, pitch,
        init, op);
  }
  return launch<reduce_rows_kernel<Tuning, rows_by::block, T, Op, Item>>(
      grid_x(rows), block, stream, dependent, in, out, rows, cols, pitch, init, op);
}

template <class Tuning, class Item, class T, class Op>
cudaError_t launch_reduce_rows(const Item* in, T* out, std::size_t rows, std::size_t cols,
                               std::size_t pitch, T init, Op op, cudaStream_t stream) {
  check_accumulator_types<T, Op>();
  if (rows == 0) {
    return cudaSuccess;
  }
  if (!matrix_arguments_ok(in, rows, cols, pitch, out, rows)) {
    return cudaErrorInvalidValue;
  }
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const reduce_rows_policy p = Tuning::select(facts.target_arch);
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  if (p.tiles_min_cols != 0 && cols >= p.tiles_min_cols && rows_share_layout<Item>(pitch)) {
    // Each row's tiles, then a thread, a warp or a block per row over its partials (in the stream's
    // cached workspace; rows x tiles is at most the matrix's items).
    const std::size_t tiles =
        reduce_tile_count(reduce_layout<Item>(in, cols).words, p.long_row_tile);
    std::size_t bytes = 0;
    if (!checked_bytes<T>(rows * tiles, bytes)) {
      return cudaErrorInvalidValue;
    }
    return with_stream_workspace(stream, bytes, [&](void* workspace) {
      T* partials = static_cast<T*>(workspace);
      GPUPRIMS_RETURN_IF_ERROR((launch<reduce_row_tiles_kernel<Tuning, T, Op, Item>>(
          dim3(grid_x(tiles), grid_yz(rows)),
          dim3(static_cast<unsigned int>(p.long_row_tile.block_threads)), stream, dependent, in,
          rows, cols, pitch, partials, op)));
      return launch_rows_by_length<Tuning>(p, dependent, static_cast<const T*>(partials), out, rows,
                                           tiles, tiles, init, op, stream);
    });
  }
  if constexpr (reduce_vectorizable<Item> && rows_packing_possible<Tuning>()) {
    if (rows_pack(p, in, out, cols, pitch)) {
      return launch_packed_rows<Tuning>(p, dependent, in, out, rows, cols, init, op, stream);
    }
  }
  if constexpr (reduce_vectorizable<Item>) {
    if (p.groups_max_cols != 0 && cols >= p.groups_min_cols && cols <= p.groups_max_cols &&
        rows_share_layout<Item>(pitch)) {
      const int group = row_group_lanes(reduce_layout<Item>(in, cols).words, p.group_words);
      const auto rows_per_block = static_cast<std::size_t>(p.block_threads / 32 * (32 / group));
      return launch<reduce_row_groups_kernel<Tuning, T, Op, Item>>(
          grid_x(ceil_div(rows, rows_per_block)), dim3(static_cast<unsigned int>(p.block_threads)),
          stream, dependent, in, out, rows, cols, pitch, group, init, op);
    }
  }
  if (pitch == cols && cols >= p.walk_min_cols) {
    using walk = segmented_reduce_tuning;
    const std::size_t bytes = segmented_workspace_bytes<T>(walk::select(facts.target_arch));
    return with_stream_workspace(stream, bytes, [&](void* workspace) {
      return launch_segmented_reduce<walk>(in, fixed_offsets{cols}, rows, out, init, op, workspace,
                                           stream);
    });
  }
  return launch_rows_by_length<Tuning>(p, dependent, in, out, rows, cols, pitch, init, op, stream);
}

}  // namespace gpuprims::detail
