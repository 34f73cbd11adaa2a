// Internals of vector_copy: the vector word types, the aligned body loop, the alignment fallback
// chain and the kernel the host launchers use.
#pragma once

#include <gpuprims/detail/config.cuh>
#include <gpuprims/detail/dependent_launch.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpuprims::detail {

// The unsigned word that moves `Bytes` bytes in one instruction: uint4 is what makes ptxas emit
// LDG.E.128 / STG.E.128, uint2 gives the 64-bit forms.
template <std::size_t Bytes>
struct vector_word;
template <>
struct vector_word<1> {
  using type = unsigned char;
};
template <>
struct vector_word<2> {
  using type = unsigned short;
};
template <>
struct vector_word<4> {
  using type = unsigned int;
};
template <>
struct vector_word<8> {
  using type = uint2;
};
template <>
struct vector_word<16> {
  using type = uint4;
};

// Grid-stride over `count` words, `Unroll` independent loads in flight per thread before the
// first store: a memory-bound copy needs bytes in flight, not more threads.
template <int Unroll, class Word>
__device__ __forceinline__ void copy_words(const Word* __restrict__ in, Word* __restrict__ out,
                                           std::size_t count, std::size_t rank,
                                           std::size_t num_threads) {
  std::size_t i = rank;
  if constexpr (Unroll > 1) {
    const std::size_t round = static_cast<std::size_t>(Unroll) * num_threads;
    for (; i + (Unroll - 1) * num_threads < count; i += round) {
      Word v[Unroll];
#pragma unroll
      for (int k = 0; k < Unroll; ++k) {
        v[k] = in[i + k * num_threads];
      }
#pragma unroll
      for (int k = 0; k < Unroll; ++k) {
        out[i + k * num_threads] = v[k];
      }
    }
  }
  for (; i < count; i += num_threads) {
    out[i] = in[i];
  }
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
inline constexpr bool is_legal_vector =
    N == 1 || (N > 1 && (N * sizeof(T) == 4 || N * sizeof(T) == 8 || N * sizeof(T) == 16));

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

// Launch shape of the host launchers, measured on an H100 (docs/copy.md): one vector per thread
// and a grid that covers the input beats a persistent grid-stride grid by ~4% on inputs far past
// L2 (each block streams one contiguous tile); below `copy_unroll_below` vectors per resident
// thread, 4 vectors per thread (a quarter of the blocks to schedule) win on L2-sized inputs.
inline constexpr int copy_block_threads = 256;
inline constexpr int copy_unroll = 4;
inline constexpr int copy_unroll_below = 8;

template <int N, int Unroll, int BlockThreads, class T>
__global__ void __launch_bounds__(BlockThreads)
    vector_copy_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  const std::size_t rank = static_cast<std::size_t>(blockIdx.x) * BlockThreads + threadIdx.x;
  const std::size_t num_threads = static_cast<std::size_t>(gridDim.x) * BlockThreads;
  wait_for_prior_grids();
  vector_copy_impl<N, Unroll>(in, out, n, rank, num_threads);
}

// gpuprims::copy's kernel for the bytes of any trivially copyable type when source and destination
// are equally aligned modulo 16: peel to 16-byte alignment, then 16-byte words.
template <int Unroll, int BlockThreads>
__global__ void __launch_bounds__(BlockThreads)
    copy_aligned_bytes_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out,
                              std::size_t n) {
  const std::size_t rank = static_cast<std::size_t>(blockIdx.x) * BlockThreads + threadIdx.x;
  const std::size_t num_threads = static_cast<std::size_t>(gridDim.x) * BlockThreads;
  wait_for_prior_grids();
  copy_widest<16, Unroll>(in, out, n, rank, num_threads);
}

// The 16 bytes that start `4 * Lane + shift_bits / 8` bytes into the 32 bytes a:b (little endian).
// Lane is a template parameter so that the lane array is indexed by constants only and stays in
// registers.
template <int Lane>
__device__ __forceinline__ uint4 funnel_word(const uint4& a, const uint4& b, unsigned int shift_bits) {
  const unsigned int l[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  return make_uint4(__funnelshift_r(l[Lane], l[Lane + 1], shift_bits),
                    __funnelshift_r(l[Lane + 1], l[Lane + 2], shift_bits),
                    __funnelshift_r(l[Lane + 2], l[Lane + 3], shift_bits),
                    __funnelshift_r(l[Lane + 3], l[Lane + 4], shift_bits));
}

// Copies bytes between pointers that no peel can align together: (in - out) % 16 == 4 * Lane +
// shift_bits / 8 != 0. The destination is peeled to 16-byte alignment; each aligned 16-byte store is
// then assembled from the two aligned 16-byte source words that straddle it. Neighbouring threads
// load the same words, so L1 absorbs the second load and DRAM sees each byte once, as in an aligned
// copy. Only words entirely inside the source range are loaded; the edges go byte by byte.
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

  std::size_t i = rank;
  if constexpr (Unroll > 1) {
    for (; i + (Unroll - 1) * num_threads < count; i += Unroll * num_threads) {
      uint4 lo[Unroll], hi[Unroll];
#pragma unroll
      for (int k = 0; k < Unroll; ++k) {
        lo[k] = src[i + k * num_threads];
        hi[k] = src[i + k * num_threads + 1];
      }
#pragma unroll
      for (int k = 0; k < Unroll; ++k) {
        dst[i + k * num_threads] = funnel_word<Lane>(lo[k], hi[k], shift_bits);
      }
    }
  }
  for (; i < count; i += num_threads) {
    dst[i] = funnel_word<Lane>(src[i], src[i + 1], shift_bits);
  }
  const std::size_t body_begin = count > 0 ? head + 16 : n;
  const std::size_t body_end = count > 0 ? head + 16 * (count + 1) : n;
  copy_elements(in, out, 0, body_begin, rank, num_threads);
  copy_elements(in, out, body_end, n, rank, num_threads);
}

template <int Lane, int Unroll, int BlockThreads>
__global__ void __launch_bounds__(BlockThreads)
    copy_skewed_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out,
                       std::size_t n, unsigned int shift_bits) {
  const std::size_t rank = static_cast<std::size_t>(blockIdx.x) * BlockThreads + threadIdx.x;
  const std::size_t num_threads = static_cast<std::size_t>(gridDim.x) * BlockThreads;
  wait_for_prior_grids();
  copy_skewed<Lane, Unroll>(in, out, n, shift_bits, rank, num_threads);
}

}  // namespace gpuprims::detail
