// The status records behind gpuprims::lookback: per tile a kind (absent, aggregate, inclusive
// prefix) and a value, tagged with the grid's epoch so that records left by earlier grids read as
// absent and a workspace needs zeroing only once.
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>
#include <cstring>

namespace gpuprims::detail {

enum status_kind : unsigned int { status_absent = 0, status_aggregate = 1, status_inclusive = 2 };

// 30 bits of epoch beside the 2-bit kind. The grid that wraps it zeroes every record ever used
// (lookback::finish), so a record can never match a later grid's epoch by age.
inline constexpr unsigned int epoch_bits = 30;
inline constexpr unsigned int epoch_limit = 1u << epoch_bits;

__host__ __device__ constexpr unsigned int status_tag(unsigned int epoch, unsigned int kind) {
  return epoch << 2 | kind;
}

// Values of 4 bytes or fewer share one 64-bit word with their tag: one atomic load reads both, so
// a reader needs no fence and one round trip. Larger values keep a 32-bit tag apart from them (the
// value first, then the tag with release; the tag with acquire, then the value), one slot per kind.
template <class T>
inline constexpr bool packed_status = sizeof(T) <= 4;

template <class T>
struct split_record {
  unsigned int tag;
  T values[2];  // [kind - 1]
};

template <class T>
inline constexpr std::size_t status_record_bytes = packed_status<T> ? sizeof(unsigned long long)
                                                                    : sizeof(split_record<T>);

// Tile k's record is record k: grids of any size share a workspace, a record only ever holding a
// record of the same layout, tagged with an older epoch.
__host__ __device__ constexpr std::size_t status_records(std::size_t tiles) { return tiles; }

// What the first 256 bytes of a look-back workspace hold.
struct lookback_header {
  unsigned int epoch;         // the current grid's; the last block of a grid moves it on
  unsigned int blocks_done;   // blocks of the current grid that called finish
  unsigned int record_bytes;  // the layout the workspace holds (0: fresh)
  unsigned int reserved;
  unsigned long long records_used;  // the most records any grid since the last clear touched
};

inline constexpr std::size_t lookback_header_bytes = 256;

template <class T>
struct status_records_view {
  unsigned char* base;  // the first record

  __device__ unsigned long long* packed(std::size_t r) const {
    return reinterpret_cast<unsigned long long*>(base) + r;
  }
  __device__ split_record<T>* split(std::size_t r) const {
    return reinterpret_cast<split_record<T>*>(base) + r;
  }

  __device__ void publish(std::size_t r, unsigned int kind, const T& v, unsigned int epoch) const {
    if constexpr (packed_status<T>) {
      unsigned int bits = 0;
      memcpy(&bits, &v, sizeof(T));
      const unsigned long long word =
          static_cast<unsigned long long>(status_tag(epoch, kind)) << 32 | bits;
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*packed(r))
          .store(word, cuda::memory_order_relaxed);
    } else {
      split(r)->values[kind - 1] = v;
      cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(split(r)->tag)
          .store(status_tag(epoch, kind), cuda::memory_order_release);
    }
  }

  // The kind of record r in this epoch (absent for a record of another epoch), and its value.
  __device__ unsigned int peek(std::size_t r, unsigned int epoch, T& v) const {
    unsigned int t = 0;
    if constexpr (packed_status<T>) {
      const unsigned long long word =
          cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*packed(r))
              .load(cuda::memory_order_relaxed);
      t = static_cast<unsigned int>(word >> 32);
      const auto bits = static_cast<unsigned int>(word);
      memcpy(&v, &bits, sizeof(T));
    } else {
      t = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(split(r)->tag)
              .load(cuda::memory_order_acquire);
      if ((t >> 2) == epoch && (t & 3) != status_absent) {
        v = split(r)->values[(t & 3) - 1];
      }
    }
    return (t >> 2) == epoch ? (t & 3) : status_absent;
  }

  // Records [0, count) back to "never written", by `threads` threads from `rank`.
  __device__ void clear(std::size_t count, int rank, int threads) const {
    for (std::size_t r = rank; r < count; r += threads) {
      if constexpr (packed_status<T>) {
        *packed(r) = 0;
      } else {
        split(r)->tag = 0;
      }
    }
  }
};

}  // namespace gpuprims::detail
