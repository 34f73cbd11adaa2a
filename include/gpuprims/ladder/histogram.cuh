// The histogram ladder, rung by rung, for teaching and measuring: global atomics, then counters
// privatised in shared memory, 16-byte loads, warp-aggregated updates, several sub-histograms a
// block, and for 8-bit samples counts of the 256 values in one copy a lane. Production code calls
// gpuprims::histogram_even (the last rung).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/histogram/kernels.cuh>
#include <gpuprims/device/histogram.cuh>
#include <gpuprims/tuning/histogram.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims::ladder {

enum class histogram_rung {
  global_atomics,     ///< every sample an atomic on the output: contention on hot bins
  shared_atomics,     ///< a block's counters in shared memory, added to the output once
  shared_vectorized,  ///< the same with 16-byte loads
  warp_aggregated,    ///< + one update per distinct bin in a warp (__match_any_sync)
  sub_histograms,     ///< + up to 8 copies a block (warp w counts into copy w % copies), no
                      ///< aggregation
  byte_values,        ///< 8-bit samples: count the 256 values in 32 lane copies, map them to
                      ///< bins once a block (other samples: sub_histograms)
  library_default,    ///< gpuprims::histogram_even
};

/// histogram_even (zeroing the counts first) by one rung. The shared-memory rungs need num_bins
/// <= the policy's shared_bins (8192): more return cudaErrorInvalidValue; otherwise as
/// gpuprims::histogram_even.
template <histogram_rung Rung, class Sample, class Counter>
[[nodiscard]] cudaError_t histogram_even(const Sample* in, std::size_t n, Counter* counts,
                                         int num_bins, histogram_level_t<Sample> lower,
                                         histogram_level_t<Sample> upper, cudaStream_t stream = 0) {
  using namespace gpuprims::detail;
  if constexpr (Rung == histogram_rung::library_default) {
    return gpuprims::histogram_even(in, n, counts, num_bins, lower, upper, stream);
  } else {
    check_counter<Counter>();
    bool ok = false;
    const auto bins = even_bins_of<Sample>(lower, upper, num_bins, ok);
    if (!ok || !histogram_arguments_ok(in, n, counts, num_bins)) {
      return cudaErrorInvalidValue;
    }
    device_facts facts;
    GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
    const histogram_policy p = histogram_tuning::select(facts.target_arch);
    if (Rung != histogram_rung::global_atomics && num_bins > p.shared_bins) {
      return cudaErrorInvalidValue;
    }
    const int slots = num_bins <= p.small_shared_bins ? p.small_shared_bins : p.shared_bins;
    const int fit = slots / num_bins < 8 ? slots / num_bins : 8;
    histogram_plan plan{};
    switch (Rung) {
      case histogram_rung::global_atomics:
        plan = {0, 1, false, false, false};
        break;
      case histogram_rung::shared_atomics:
        plan = {slots, 1, false, false, false};
        break;
      case histogram_rung::shared_vectorized:
        plan = {slots, 1, true, false, false};
        break;
      case histogram_rung::warp_aggregated:
        plan = {slots, 1, true, true, false};
        break;
      case histogram_rung::sub_histograms:
        plan = {slots, fit, true, false, false};
        break;
      default:
        plan = {slots, fit, true, false, true};
        break;
    }
    return launch_histogram<histogram_tuning>(in, n, counts, num_bins, bins, plan, true, stream);
  }
}

}  // namespace gpuprims::ladder
