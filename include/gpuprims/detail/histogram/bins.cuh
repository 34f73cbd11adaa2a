// How a sample becomes a bin index for the device histograms: evenly spaced bins (exact integer
// arithmetic for integer samples, the sample type's own for floating point), sorted boundaries
// (a binary search), or the caller's functor. Each returns -1 for a sample that is not counted.
// The host reference of the tests computes the same functions.
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace gpuprims {

/// The type of histogram_even's bounds and histogram_range's boundaries for samples of type
/// Sample: long long for integer samples (so that 256 bounds 8-bit samples), the sample type for
/// floating point.
template <class Sample>
using histogram_level_t = std::conditional_t<std::is_integral_v<Sample>, long long, Sample>;

namespace detail {

// An unsigned 64-bit sample that a long long cannot hold (it would wrap to a negative value).
template <class Sample>
__host__ __device__ constexpr bool above_long_long(const Sample& x) {
  if constexpr (std::is_integral_v<Sample> && std::is_unsigned_v<Sample> &&
                sizeof(Sample) >= sizeof(long long)) {
    return x > static_cast<Sample>(0x7fffffffffffffffULL);
  } else {
    (void)x;
    return false;
  }
}

// Integer bounds are kept within +-2^40 so that (x - lower) * bins stays below 2^61.
inline constexpr long long histogram_level_limit = 1LL << 40;
inline constexpr int histogram_max_bins = 1 << 20;

// bin = floor((x - lower) * bins / (upper - lower)) for lower <= x < upper, exactly: the quotient
// from a 64-bit reciprocal (magic = floor((2^64 - 1) / range)) corrected by at most one step (the
// loop allows more).
template <class Sample>
struct even_integer_bins {
  static constexpr bool tabulate = true;  // 8-bit samples: a table of all 256 in shared memory
  long long lower;
  unsigned long long range;  // upper - lower
  unsigned long long magic;
  int bins;

  __host__ __device__ int operator()(const Sample& x) const {
    if (above_long_long(x)) {
      return -1;  // past every bound (bounds are within +-2^40)
    }
    const auto v = static_cast<long long>(x);
    if (v < lower) {
      return -1;
    }
    // Unsigned: v - lower wraps instead of overflowing; v >= lower, so it is the distance.
    const auto offset = static_cast<unsigned long long>(v) - static_cast<unsigned long long>(lower);
    if (offset >= range) {
      return -1;
    }
    const unsigned long long p = offset * static_cast<unsigned long long>(bins);
#ifdef __CUDA_ARCH__
    unsigned long long q = __umul64hi(p, magic);
    unsigned long long r = p - q * range;
    while (r >= range) {
      ++q;
      r -= range;
    }
#else
    const unsigned long long q = p / range;
#endif
    return static_cast<int>(q);
  }
};

// For floating point: lower <= x < upper (NaN and infinities outside), then
// min(bins - 1, int((x - lower) * scale)) with scale = T(bins) / (upper - lower), all in T.
template <class Sample>
struct even_float_bins {
  static constexpr bool tabulate = false;
  Sample lower, upper, scale;
  int bins;

  __host__ __device__ int operator()(const Sample& x) const {
    if (!(x >= lower && x < upper)) {
      return -1;
    }
    const int b = static_cast<int>((x - lower) * scale);
    return b < bins ? b : bins - 1;
  }
};

// Sorted boundaries levels[0] < ... < levels[bins]: bin i holds levels[i] <= x < levels[i + 1].
template <class Sample>
struct range_bins {
  static constexpr bool tabulate = true;
  const histogram_level_t<Sample>* levels;
  int bins;

  __host__ __device__ int operator()(const Sample& x) const {
    if (above_long_long(x)) {
      return -1;  // past every boundary a long long holds
    }
    const auto v = static_cast<histogram_level_t<Sample>>(x);
    if (!(v >= levels[0] && v < levels[bins])) {
      return -1;
    }
    int lo = 0, hi = bins;  // levels[lo] <= v < levels[hi]
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (v >= levels[mid]) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
};

// The caller's functor: any integer it returns outside [0, bins) is not counted.
template <class Sample, class BinOf>
struct functor_bins {
  static constexpr bool tabulate = false;  // called on the samples only
  BinOf bin_of;
  int bins;

  __device__ int operator()(const Sample& x) const {
    const auto b = static_cast<long long>(bin_of(x));
    return b >= 0 && b < bins ? static_cast<int>(b) : -1;
  }
};

template <class Sample>
even_integer_bins<Sample> make_even_integer_bins(long long lower, long long upper, int bins) {
  const auto range = static_cast<unsigned long long>(upper - lower);
  return {lower, range, ~0ull / range, bins};
}

template <class Sample>
even_float_bins<Sample> make_even_float_bins(Sample lower, Sample upper, int bins) {
  return {lower, upper, static_cast<Sample>(bins) / (upper - lower), bins};
}

}  // namespace detail
}  // namespace gpuprims
