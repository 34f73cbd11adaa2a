// Host launchers of the device histograms: histogram_even, histogram_range and histogram (a
// functor's bins).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/histogram/bins.cuh>
#include <gpuprims/detail/histogram/kernels.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/histogram.cuh>

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <type_traits>

namespace gpuprims {

/// Whether a histogram call zeroes its counts before adding the samples (a cudaMemsetAsync on the
/// same stream) or adds to what they hold.
enum class histogram_counts { zero_first, add };

namespace detail {
template <class Sample, class Counter>
bool histogram_arguments_ok(const Sample* in, std::size_t n, const Counter* counts, int bins) {
  static_assert(std::is_arithmetic_v<Sample> && !std::is_same_v<Sample, bool>,
                "integer or floating-point samples (histogram() takes any type with a functor)");
  std::size_t bytes = 0;
  return counts != nullptr && bins >= 1 && bins <= histogram_max_bins &&
         (n == 0 || in != nullptr) && checked_bytes<Sample>(n, bytes) &&
         (n == 0 ||
          !ranges_overlap(in, bytes, counts, static_cast<std::size_t>(bins) * sizeof(Counter)));
}

template <class Counter>
constexpr void check_counter() {
  static_assert(std::is_integral_v<Counter> && (sizeof(Counter) == 4 || sizeof(Counter) == 8),
                "counts of 32 or 64 bits");
}

// histogram_even's bins, and whether its bounds are valid: lower < upper, integer bounds within
// +-2^40, floating-point ones finite with a finite, positive scale.
template <class Sample>
auto even_bins_of(histogram_level_t<Sample> lower, histogram_level_t<Sample> upper, int bins,
                  bool& ok) {
  if constexpr (std::is_integral_v<Sample>) {
    ok = lower < upper && lower >= -histogram_level_limit && upper <= histogram_level_limit;
    return ok ? make_even_integer_bins<Sample>(lower, upper, bins)
              : even_integer_bins<Sample>{0, 1, 0, bins};
  } else {
    const auto b = make_even_float_bins<Sample>(lower, upper, bins);
    ok = lower < upper && std::isfinite(lower) && std::isfinite(upper) && std::isfinite(b.scale) &&
         b.scale > 0;
    return b;
  }
}

template <class Tuning, class Sample, class Mapper, class Counter>
cudaError_t run_histogram(const Sample* in, std::size_t n, Counter* counts, int bins,
                          const Mapper& map, histogram_counts mode, cudaStream_t stream) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  return launch_histogram<Tuning>(in, n, counts, bins, map,
                                  histogram_plan_for(Tuning::select(facts.target_arch), bins),
                                  mode == histogram_counts::zero_first, stream);
}
}  // namespace detail

/// counts[b] += the samples of in[0, n) with lower <= x < upper and
/// b = floor((x - lower) * num_bins / (upper - lower)), for 1 <= num_bins <= 2^20 bins, on
/// `stream`. Integer samples (8 to 64 bits) bin exactly (bounds within +-2^40); floating-point
/// samples bin in their own type as min(num_bins - 1, int((x - lower) * scale)) with
/// scale = T(num_bins) / (upper - lower); NaN, infinities and samples outside [lower, upper) are
/// not counted. Counter: 32- or 64-bit integers. zero_first (the default) zeroes counts first (a
/// cudaMemsetAsync on the stream); add keeps what they hold. num_bins out of range, lower >= upper
/// (or not finite), a null pointer with work, or counts overlapping the input return
/// cudaErrorInvalidValue and launch nothing.
///
///   cudaError_t e = gpuprims::histogram_even(d_bytes, n, d_counts, 256, 0, 256, stream);
template <class Tuning = histogram_tuning, class Sample, class Counter>
[[nodiscard]] cudaError_t histogram_even(const Sample* in, std::size_t n, Counter* counts,
                                         int num_bins, histogram_level_t<Sample> lower,
                                         histogram_level_t<Sample> upper, histogram_counts mode,
                                         cudaStream_t stream = 0) {
  detail::check_counter<Counter>();
  bool ok = false;
  const auto bins = detail::even_bins_of<Sample>(lower, upper, num_bins, ok);
  if (!ok || !detail::histogram_arguments_ok(in, n, counts, num_bins)) {
    return cudaErrorInvalidValue;
  }
  return detail::run_histogram<Tuning>(in, n, counts, num_bins, bins, mode, stream);
}

template <class Tuning = histogram_tuning, class Sample, class Counter>
[[nodiscard]] cudaError_t histogram_even(const Sample* in, std::size_t n, Counter* counts,
                                         int num_bins, histogram_level_t<Sample> lower,
                                         histogram_level_t<Sample> upper, cudaStream_t stream = 0) {
  return histogram_even<Tuning>(in, n, counts, num_bins, lower, upper, histogram_counts::zero_first,
                                stream);
}

/// counts[b] += the samples with boundaries[b] <= x < boundaries[b + 1], for num_bins bins and
/// num_bins + 1 boundaries in device memory, sorted ascending (not checked: that would need a
/// synchronisation; with unsorted boundaries the counts are unspecified, but every counted sample
/// still lands in [0, num_bins) and nothing is read or written out of bounds). Otherwise as
/// histogram_even.
///
///   cudaError_t e = gpuprims::histogram_range(d_x, n, d_counts, d_edges, 10, stream);
template <class Tuning = histogram_tuning, class Sample, class Counter>
[[nodiscard]] cudaError_t histogram_range(const Sample* in, std::size_t n, Counter* counts,
                                          const histogram_level_t<Sample>* boundaries, int num_bins,
                                          histogram_counts mode, cudaStream_t stream = 0) {
  detail::check_counter<Counter>();
  if (!detail::histogram_arguments_ok(in, n, counts, num_bins) || boundaries == nullptr ||
      detail::ranges_overlap(boundaries,
                             (static_cast<std::size_t>(num_bins) + 1) * sizeof(*boundaries), counts,
                             static_cast<std::size_t>(num_bins) * sizeof(Counter))) {
    return cudaErrorInvalidValue;
  }
  return detail::run_histogram<Tuning>(
      in, n, counts, num_bins, detail::range_bins<Sample>{boundaries, num_bins}, mode, stream);
}

template <class Tuning = histogram_tuning, class Sample, class Counter>
[[nodiscard]] cudaError_t histogram_range(const Sample* in, std::size_t n, Counter* counts,
                                          const histogram_level_t<Sample>* boundaries, int num_bins,
                                          cudaStream_t stream = 0) {
  return histogram_range<Tuning>(in, n, counts, boundaries, num_bins, histogram_counts::zero_first,
                                 stream);
}

/// counts[b] += the samples with bin_of(x) == b: bin_of is a device functor from const Sample& to
/// an integer; results outside [0, num_bins) are not counted. Sample is any trivially copyable
/// type. Otherwise as histogram_even.
///
///   struct by_key { __device__ int operator()(const record& r) const { return r.key & 1023; } };
///   cudaError_t e = gpuprims::histogram(d_records, n, d_counts, 1024, by_key{}, stream);
template <class Tuning = histogram_tuning, class Sample, class Counter, class BinOf>
[[nodiscard]] cudaError_t histogram(const Sample* in, std::size_t n, Counter* counts, int num_bins,
                                    BinOf bin_of, histogram_counts mode, cudaStream_t stream = 0) {
  detail::check_counter<Counter>();
  static_assert(std::is_trivially_copyable_v<Sample>, "samples move through registers");
  std::size_t bytes = 0;
  if (counts == nullptr || num_bins < 1 || num_bins > detail::histogram_max_bins ||
      (n > 0 && in == nullptr) || !detail::checked_bytes<Sample>(n, bytes) ||
      (n > 0 && detail::ranges_overlap(in, bytes, counts,
                                       static_cast<std::size_t>(num_bins) * sizeof(Counter)))) {
    return cudaErrorInvalidValue;
  }
  return detail::run_histogram<Tuning>(
      in, n, counts, num_bins, detail::functor_bins<Sample, BinOf>{bin_of, num_bins}, mode, stream);
}

template <class Tuning = histogram_tuning, class Sample, class Counter, class BinOf>
[[nodiscard]] cudaError_t histogram(const Sample* in, std::size_t n, Counter* counts, int num_bins,
                                    BinOf bin_of, cudaStream_t stream = 0) {
  return histogram<Tuning>(in, n, counts, num_bins, bin_of, histogram_counts::zero_first, stream);
}

}  // namespace gpuprims
