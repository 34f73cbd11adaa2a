// Internals of vector_copy: the aligned body loop, the alignment fallback chain, and the skewed
// copy for pointers that no peel aligns together.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/load.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpuprims::detail {

// `count` words, `Unroll` loads in flight per thread before the first store.
template <int Unroll, class Word>
__device__ __forceinline__ void copy_words(const Word* __restrict__ in, Word* __restrict__ out,
                                           std::size_t count, std::size_t rank,
                                           std::size_t num_threads) {
  strided_load_then_consume<Unroll>(
      count, rank, num_threads, [&](std::size_t i) { return in[i]; },
      [&](std::size_t i, const Word& w) { out[i] = w; });
}

// Element-wise copy through T itself: always legal, since T* is aligned to alignof(T).
template <class T>
__device__ __forceinline__ void copy_elements(const T* in, T* out, std::size_t begin,
                                              std::size_t end, std::size_t rank,
                                              std::size_t num_threads) {
  for (std::size_t i = begin + rank; i < end; i += num_threads) {
    out[i] = in[i];
  }
}

// Copies with Width-byte words when `in` and `out` can both reach Width alignment by peeling the
// same whole number of elements; returns false (having touched nothing) otherwise. The peeled head
// and the tail shorter than a word go element by element.
template <std::size_t Width, int Unroll, class T>
__device__ __forceinline__ bool copy_at_width(const T* in, T* out, std::size_t n, std::size_t rank,
                                              std::size_t num_threads) {
  static_assert(Width % sizeof(T) == 0, "a word holds whole elements");
  constexpr std::size_t per_word = Width / sizeof(T);
  const auto in_addr = reinterpret_cast<std::uintptr_t>(in);
  const auto out_addr = reinterpret_cast<std::uintptr_t>(out);
  if ((in_addr - out_addr) % Width != 0) {
    return false;  // mutually misaligned: no peel aligns both
  }
  const std::size_t head_bytes = (Width - in_addr % Width) % Width;
  if (head_bytes % sizeof(T) != 0) {
    return false;  // alignment falls inside an element (alignof(T) < sizeof(T))
  }
  std::size_t head = head_bytes / sizeof(T);
  if (head > n) {
    head = n;
  }
  const std::size_t words = (n - head) / per_word;
  const std::size_t tail = head + words * per_word;
  copy_elements(in, out, 0, head, rank, num_threads);
  using word = typename vector_word<Width>::type;
  copy_words<Unroll>(reinterpret_cast<const word*>(in + head), reinterpret_cast<word*>(out + head),
                     words, rank, num_threads);
  copy_elements(in, out, tail, n, rank, num_threads);
  return true;
}

// Widest legal word first, halving down to T itself.
template <std::size_t Width, int Unroll, class T>
__device__ __forceinline__ void copy_widest(const T* in, T* out, std::size_t n, std::size_t rank,
                                            std::size_t num_threads) {
  if constexpr (Width > sizeof(T)) {
    if (!copy_at_width<Width, Unroll>(in, out, n, rank, num_threads)) {
      copy_widest<Width / 2, Unroll>(in, out, n, rank, num_threads);
    }
  } else {
    copy_elements(in, out, 0, n, rank, num_threads);
  }
}

template <int N, class T>
inline constexpr bool is_legal_vector = N == 1 ||
                                        (N > 1 && (N * sizeof(T) == 4 || N * sizeof(T) == 8 ||
                                                   N * sizeof(T) == 16));

template <int N, int Unroll, class T>
__device__ __forceinline__ void vector_copy_impl(const T* in, T* out, std::size_t n,
                                                 std::size_t rank, std::size_t num_threads) {
  static_assert(is_legal_vector<N, T>,
                "vector_copy<N, T>: N must be 1, or N * sizeof(T) must be 4, 8 or 16 bytes");
  static_assert(Unroll >= 1, "Unroll counts words in flight per thread: at least 1");
  if constexpr (N == 1) {
    // The reference notes' scalar rung: one element per thread per grid-stride step.
    copy_words<Unroll>(in, out, n, rank, num_threads);
  } else {
    copy_widest<N * sizeof(T), Unroll>(in, out, n, rank, num_threads);
  }
}

// The 16 bytes that start `4 * Lane + shift_bits / 8` bytes into the 32 bytes a:b (little endian).
// Lane is a template parameter so that the lane array is indexed by constants only and stays in
// registers.
template <int Lane>
__device__ __forceinline__ uint4 funnel_word(const uint4& a, const uint4& b,
                                             unsigned int shift_bits) {
  const unsigned int l[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  return make_uint4(__funnelshift_r(l[Lane], l[Lane + 1], shift_bits),
                    __funnelshift_r(l[Lane + 1], l[Lane + 2], shift_bits),
                    __funnelshift_r(l[Lane + 2], l[Lane + 3], shift_bits),
                    __funnelshift_r(l[Lane + 3], l[Lane + 4], shift_bits));
}

// Two neighbouring aligned source words, the halves of one skewed output word.
struct word_pair {
  uint4 lo, hi;
};

// Copies bytes between pointers that no peel can align together: (in - out) % 16 == 4 * Lane +
// shift_bits / 8 != 0. The destination is peeled to 16-byte alignment; each aligned 16-byte store
// is then assembled from the two aligned 16-byte source words that straddle it. Neighbouring
// threads load the same words, so L1 absorbs the second load and DRAM sees each byte once, as in an
// aligned copy. Only words entirely inside the source range are loaded; the edges go byte by byte.
template <int Lane, int Unroll>
__device__ __forceinline__ void copy_skewed(const unsigned char* __restrict__ in,
                                            unsigned char* __restrict__ out, std::size_t n,
                                            unsigned int shift_bits, std::size_t rank,
                                            std::size_t num_threads) {
  const auto out_addr = reinterpret_cast<std::uintptr_t>(out);
  std::size_t head = (16 - out_addr % 16) % 16;
  head = head < n ? head : n;
  const std::size_t rest = n - head;
  const std::size_t skew = reinterpret_cast<std::uintptr_t>(in + head) % 16;
  // Source words: base[k] holds in[head - skew + 16k, +16). Output word j needs base[j] and
  // base[j + 1]; base[j] starts inside the range for j >= 1, base[j + 1] ends inside it while
  // 16 (j + 2) <= rest + skew.
  const std::size_t limit = (rest + skew) / 16;
  const std::size_t words = rest / 16;
  const std::size_t end = limit >= 1 && limit - 1 < words ? limit - 1 : (limit >= 1 ? words : 0);
  const std::size_t count = end > 1 ? end - 1 : 0;  // output words 1 .. end - 1
  const auto* src = reinterpret_cast<const uint4*>(in + head + (16 - skew));  // base[1]
  auto* dst = reinterpret_cast<uint4*>(out + head) + 1;
  strided_load_then_consume<Unroll>(
      count, rank, num_threads,
      [&](std::size_t i) {
        return word_pair{src[i], src[i + 1]};
      },
      [&](std::size_t i, const word_pair& w) {
        dst[i] = funnel_word<Lane>(w.lo, w.hi, shift_bits);
      });
  const std::size_t body_begin = count > 0 ? head + 16 : n;
  const std::size_t body_end = count > 0 ? head + 16 * (count + 1) : n;
  copy_elements(in, out, 0, body_begin, rank, num_threads);
  copy_elements(in, out, body_end, n, rank, num_threads);
}

}  // namespace gpuprims::detail
