// gpuprims::transpose's kernel, its argument checks and its grid. The kernel reads its tile shape
// from the policy for the architecture it was compiled for; the host picks the same policy by the
// architecture the library's code runs as on the device.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/features.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/transpose/tile.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/transpose.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims::detail {

// The policy as the code for `arch` runs it: minimum blocks within the target's limits, bulk stores
// only where the target has them and the tile's rows are whole multiples of 16 bytes.
template <class Tuning, class T>
__host__ __device__ constexpr transpose_policy transpose_policy_for(int arch) {
  transpose_policy p = Tuning::select(arch, sizeof(T));
  p.min_blocks = arch::resident_blocks(p.min_blocks, p.tile * p.block_rows, arch);
  p.strided_min_blocks = arch::resident_blocks(p.strided_min_blocks, p.tile * p.block_rows, arch);
  p.bulk_stores = p.bulk_stores && arch::supports(arch::feature::bulk_copy, arch) &&
                  p.tile % 32 == 0 && p.tile * sizeof(T) % 16 == 0;
  return p;
}

template <class Tuning, class T>
inline constexpr transpose_policy transpose_policy_here =
    transpose_policy_for<Tuning, T>(GPUPRIMS_TARGET_ARCH);

// One tile per block iteration through the shared tile. Covered: one block per tile (the grid holds
// them all). BulkStores: the host chose bulk stores for this call; code built for an architecture
// without them, or whose policy does not ask for them, compiles the ordinary stores.
template <class Tuning, class T, bool Covered, bool BulkStores>
__global__ void __launch_bounds__(
    transpose_policy_here<Tuning, T>.tile* transpose_policy_here<Tuning, T>.block_rows,
    Covered ? transpose_policy_here<Tuning, T>.min_blocks
            : transpose_policy_here<Tuning, T>.strided_min_blocks)
    transpose_kernel(const T* __restrict__ in, T* __restrict__ out, transpose_shape s) {
  constexpr transpose_policy p = transpose_policy_here<Tuning, T>;
  constexpr int tile = p.tile, pad = p.pad, rows = p.block_rows;
  static_assert(tile % rows == 0 && tile * rows <= 1024,
                "transpose_policy: block_rows must divide tile, blocks <= 1024");
  __shared__ alignas(T) unsigned char raw[sizeof(T) * tile * (tile + pad)];
  auto& shared_tile = as_tile<tile, pad, T>(raw);
  wait_for_prior_grids();
  if constexpr (BulkStores && p.bulk_stores) {
    __shared__ alignas(16) unsigned char staged_raw[sizeof(staged_rows<tile, T>)];
    auto& staged = *reinterpret_cast<staged_rows<tile, T>*>(staged_raw);
    for_each_tile<Covered>(s, tile, tile, [&](std::size_t b, std::size_t row0, std::size_t col0) {
      transpose_tile_bulk_store<tile, pad, rows>(shared_tile, staged, in + b * s.in_batch_stride,
                                                 s.in_pitch, out + b * s.out_batch_stride,
                                                 s.out_pitch, s.rows, s.cols, row0, col0);
      __syncthreads();  // the next tile overwrites both tiles; bulk stores have read theirs
    });
  } else {
    for_each_tile<Covered>(s, tile, tile, [&](std::size_t b, std::size_t row0, std::size_t col0) {
      transpose_tile_shared<tile, pad, rows>(shared_tile, in + b * s.in_batch_stride, s.in_pitch,
                                             out + b * s.out_batch_stride, s.out_pitch, s.rows,
                                             s.cols, row0, col0);
      __syncthreads();  // the next tile overwrites this one
    });
  }
}

template <class T>
cudaError_t validate_transpose(const T* in, const T* out, const transpose_shape& s) {
  std::size_t in_span = 0, out_span = 0;
  const bool ok =
      in != nullptr && out != nullptr && s.in_pitch >= s.cols && s.out_pitch >= s.rows &&
      checked_span(s.batch, s.in_batch_stride, s.rows, s.in_pitch, s.cols, in_span) &&
      checked_span(s.batch, s.out_batch_stride, s.cols, s.out_pitch, s.rows, out_span) &&
      // Matrices of a batch may not overlap (checked without overflow: both spans fit in size_t).
      (s.batch == 1 ||
       (s.in_batch_stride / s.in_pitch >= s.rows && s.out_batch_stride / s.out_pitch >= s.cols)) &&
      disjoint_spans(in, in_span, out, out_span);
  return ok ? cudaSuccess : cudaErrorInvalidValue;
}

// What every transpose launcher (the library's and the ladder's) does before launching: element
// types the kernels can move, no launch without work, the arguments validated. Returns
// launch(shape) when there is work and the arguments hold.
template <class T, class Launch>
cudaError_t checked_transpose(const T* in, T* out, const transpose_shape& s, Launch&& launch) {
  static_assert(std::is_trivially_copyable_v<T>,
                "transpose moves bytes: T must be trivially copyable");
  static_assert(
      sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
      "transpose supports elements of 1, 2, 4, 8 or 16 bytes");
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(validate_transpose(in, out, s));
  return launch(s);
}

// Grid over tiles of tile_rows x tile_cols: x covers the tile columns (up to 2^31 - 1), y and z are
// clamped to 65535 and the kernels loop over the rest.
inline dim3 transpose_grid(const transpose_shape& s, std::size_t tile_rows, std::size_t tile_cols) {
  return dim3(grid_x(ceil_div(s.cols, tile_cols)), grid_yz(ceil_div(s.rows, tile_rows)),
              grid_yz(s.batch));
}

// Whether this call's whole tiles may leave through bulk copies: the policy asks for them, the call
// is large enough, and every output row of a whole tile starts 16-byte aligned.
template <class T>
bool bulk_stores_apply(const transpose_policy& p, const T* out, const transpose_shape& s) {
  constexpr std::size_t align = 16;
  return p.bulk_stores && s.rows * s.cols * s.batch >= p.bulk_store_min_bytes / sizeof(T) &&
         reinterpret_cast<std::uintptr_t>(out) % align == 0 &&
         s.out_pitch * sizeof(T) % align == 0 &&
         (s.batch == 1 || s.out_batch_stride * sizeof(T) % align == 0);
}

// One block per tile when the grid can hold them all (the loop-free kernel keeps fewer registers
// live), else the grid-stride kernel. The one-block-per-tile grid runs down the tile rows first:
// the blocks resident at a time then write a few whole output rows and read short pieces of many
// input rows, which measured 0.5-0.8% faster on an H100 than the transposed order
// (notes/transpose.md).
template <class Tuning, class T>
cudaError_t launch_transpose(const T* in, T* out, const transpose_shape& s, cudaStream_t stream) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const transpose_policy p = transpose_policy_for<Tuning, T>(facts.target_arch);
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  const dim3 block(static_cast<unsigned int>(p.tile), static_cast<unsigned int>(p.block_rows));
  const auto tile = static_cast<std::size_t>(p.tile);
  const std::size_t tiles_y = ceil_div(s.rows, tile), tiles_x = ceil_div(s.cols, tile);
  const bool covered = tiles_y <= 0x7fffffff && tiles_x <= 65535 && s.batch <= 65535;
  const dim3 grid =
      covered ? dim3(static_cast<unsigned int>(tiles_y), static_cast<unsigned int>(tiles_x),
                     static_cast<unsigned int>(s.batch))
              : transpose_grid(s, tile, tile);
  const bool bulk = bulk_stores_apply(p, out, s);
  if (covered) {
    return bulk ? launch<transpose_kernel<Tuning, T, true, true>>(grid, block, stream, dependent,
                                                                  in, out, s)
                : launch<transpose_kernel<Tuning, T, true, false>>(grid, block, stream, dependent,
                                                                   in, out, s);
  }
  return bulk ? launch<transpose_kernel<Tuning, T, false, true>>(grid, block, stream, dependent, in,
                                                                 out, s)
              : launch<transpose_kernel<Tuning, T, false, false>>(grid, block, stream, dependent,
                                                                  in, out, s);
}

}  // namespace gpuprims::detail
