// The scan ladder, rung by rung, for teaching and measuring: each step from the textbook's
// block-level scans to the single-pass decoupled look-back, as a device-wide inclusive sum.
// Production code calls gpuprims::inclusive_scan (the last rung).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/ladder/scan_kernels.cuh>
#include <gpuprims/device/scan.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpuprims::ladder {

/// The rungs. The first four scan tiles with a block-level algorithm, then the tiles' totals
/// (recursively), then add each tile's prefix: 4n items of traffic and a launch pair per level.
enum class scan_rung {
  hillis_steele,       ///< 256 items a tile, log2(256) steps of n adds each: O(n log n) work
  blelloch,            ///< 512 items a tile, up- and down-sweep: O(n) work, bank conflicts
  blelloch_padded,     ///< the same with one pad slot every 32: the conflicts mostly gone
  warp_shuffle,        ///< 256 items a tile, gpuprims::block_scan: shuffles, two barriers
  reduce_then_scan,    ///< 4096 items a tile: reduce tiles, scan totals, scan tiles: 3n traffic
  chained,             ///< one pass (2n), each tile waits for the one before: a serial chain
  decoupled_lookback,  ///< one pass, gpuprims::inclusive_scan (lookback): the default
};

/// Bytes of workspace ladder::inclusive_scan<Rung> needs for n items of T (0 when none). The
/// decoupled_lookback rung's must be zeroed once before its first use (gpuprims::lookback's rule);
/// the chained rung clears its own on every call (cudaMemsetAsync, part of its time).
template <scan_rung Rung, class T>
[[nodiscard]] cudaError_t scan_workspace_bytes(std::size_t n, std::size_t& bytes) {
  using namespace gpuprims::detail;
  constexpr int tile =
      Rung == scan_rung::hillis_steele     ? scan_tile_items(scan_tile_kind::hillis_steele)
      : Rung == scan_rung::warp_shuffle    ? scan_tile_items(scan_tile_kind::warp_shuffle)
      : Rung <= scan_rung::blelloch_padded ? scan_tile_items(scan_tile_kind::blelloch)
                                           : scan_ladder_tile;
  if constexpr (Rung == scan_rung::decoupled_lookback) {
    return gpuprims::scan_workspace_bytes<T>(n, bytes);
  } else if constexpr (Rung == scan_rung::chained) {
    bytes = ceil_div(n, std::size_t{tile}) * sizeof(chained_record<T>);
  } else if constexpr (Rung == scan_rung::reduce_then_scan) {
    bytes = ceil_div(n, std::size_t{tile}) * sizeof(T);
  } else {
    bytes = scan_then_propagate_elements(n, tile) * sizeof(T);
  }
  return cudaSuccess;
}

/// out[i] = in[0] + ... + in[i] for i < n by one rung, asynchronous on `stream`. In place (in ==
/// out) is allowed; a null pointer with work, any other overlap, or a short, null or misaligned
/// workspace return cudaErrorInvalidValue and launch nothing; n == 0 launches nothing.
///
///   std::size_t bytes = 0;
///   (void)gpuprims::ladder::scan_workspace_bytes<scan_rung::blelloch_padded, float>(n, bytes);
///   cudaError_t e = gpuprims::ladder::inclusive_scan<scan_rung::blelloch_padded>(d_in, d_out, n,
///                                                                              d_ws, bytes, s);
template <scan_rung Rung, class T>
[[nodiscard]] cudaError_t inclusive_scan(const T* in, T* out, std::size_t n, void* workspace,
                                         std::size_t workspace_bytes, cudaStream_t stream = 0) {
  using namespace gpuprims::detail;
  if constexpr (Rung == scan_rung::decoupled_lookback) {
    return gpuprims::inclusive_scan(in, out, n, plus<T>{}, workspace, workspace_bytes, stream);
  } else {
    std::size_t bytes = 0, in_bytes = 0;
    GPUPRIMS_RETURN_IF_ERROR((scan_workspace_bytes<Rung, T>(n, bytes)));
    if (out == nullptr || (n > 0 && in == nullptr) || !checked_bytes<T>(n, in_bytes) ||
        (in != out && n > 0 && ranges_overlap(in, in_bytes, out, in_bytes)) ||
        (bytes > 0 && (workspace == nullptr || workspace_bytes < bytes ||
                       reinterpret_cast<std::uintptr_t>(workspace) % 16 != 0))) {
      return cudaErrorInvalidValue;
    }
    if (n == 0) {
      return cudaSuccess;
    }
    T* const sums = static_cast<T*>(workspace);
    const std::size_t tiles = ceil_div(n, std::size_t{scan_ladder_tile});
    if constexpr (Rung == scan_rung::hillis_steele) {
      return scan_then_propagate<scan_tile_kind::hillis_steele>(in, out, n, sums, stream);
    } else if constexpr (Rung == scan_rung::blelloch) {
      return scan_then_propagate<scan_tile_kind::blelloch>(in, out, n, sums, stream);
    } else if constexpr (Rung == scan_rung::blelloch_padded) {
      return scan_then_propagate<scan_tile_kind::blelloch_padded>(in, out, n, sums, stream);
    } else if constexpr (Rung == scan_rung::warp_shuffle) {
      return scan_then_propagate<scan_tile_kind::warp_shuffle>(in, out, n, sums, stream);
    } else if constexpr (Rung == scan_rung::reduce_then_scan) {
      GPUPRIMS_RETURN_IF_ERROR((launch<reduce_tiles_kernel<T>>(
          grid_x(tiles), dim3(scan_ladder_block), stream, false, in, n, sums)));
      GPUPRIMS_RETURN_IF_ERROR(
          (launch<scan_totals_kernel<T>>(dim3(1), dim3(1024), stream, false, sums, tiles)));
      return launch<scan_tiles_with_prefix_kernel<T>>(grid_x(tiles), dim3(scan_ladder_block),
                                                      stream, false, in, out, n,
                                                      static_cast<const T*>(sums));
    } else {
      auto* records = static_cast<chained_record<T>*>(workspace);
      GPUPRIMS_RETURN_IF_ERROR(cudaMemsetAsync(records, 0, bytes, stream));
      return launch<chained_scan_kernel<T>>(grid_x(tiles), dim3(scan_ladder_block), stream, false,
                                            in, out, n, records);
    }
  }
}

}  // namespace gpuprims::ladder
