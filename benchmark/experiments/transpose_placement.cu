// Experiment "tiles_placed_not_transposed" (--full only, family transpose_4B): what a tiled
// transpose can reach, as opposed to a copy. A kernel of the benchmark's own, built on the
// library's architecture layer (detail/arch: bulk copies), not on its transpose; its output is
// checked once per row. notes/transpose.md says what it showed on the H100.
#include <gpuprims/detail/arch/bulk_copy.cuh>
#include <gpuprims/detail/launch.cuh>

#include "../transpose_families.cuh"

#include <cstddef>
#include <cstdint>

namespace gpuprims::bench {
namespace {

// What a tiled transpose can reach, as opposed to a copy: the default's 64 x 64 float tiles, the
// same block order, loads and bulk stores, but each tile stored at the transposed tile's place
// without being transposed (its row i becomes output row col0 + i, so no gather through a padded
// tile). At 256-byte granularity it reads and writes the same addresses in the same order as the
// transpose, with less work in the SM; a copy keeps every tile in place, an order of DRAM accesses
// no transpose has (notes/transpose.md, "Where the last percent goes"). Whole tiles only.
template <int = 0>
__global__ void __launch_bounds__(512,
                                  gpuprims::detail::arch::resident_blocks(4, 512,
                                                                          GPUPRIMS_TARGET_ARCH))
    place_tiles_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t rows,
                       std::size_t cols) {
  constexpr int tile = 64, rows_per_pass = 8,
                pitch = tile + 4;  // 16-byte aligned rows for bulk copies
  __shared__ alignas(16) float staged[tile][pitch];
  const std::size_t matrix = rows * cols, row0 = blockIdx.x * std::size_t{tile},
                    col0 = blockIdx.y * std::size_t{tile};
  in += blockIdx.z * matrix;
  out += blockIdx.z * matrix;
  gpuprims::detail::wait_for_prior_grids();
  const float* src = in + (row0 + threadIdx.y) * cols + col0 + threadIdx.x;
  float v[tile / rows_per_pass];
#pragma unroll
  for (int k = 0; k < tile / rows_per_pass; ++k) {
    v[k] = src[k * rows_per_pass * cols];
  }
#pragma unroll
  for (int k = 0; k < tile / rows_per_pass; ++k) {
    staged[threadIdx.y + k * rows_per_pass][threadIdx.x] = v[k];
  }
  if constexpr (gpuprims::detail::arch::has_bulk_copy) {
    gpuprims::detail::arch::fence_shared_for_bulk_copies();
    __syncthreads();
    const unsigned int thread = threadIdx.y * tile + threadIdx.x, lane = thread % 32,
                       warp = thread / 32;
    const unsigned int r =
        warp + lane * (tile * rows_per_pass / 32);  // as the default: 4 lanes a warp
    if (r < tile) {
      gpuprims::detail::arch::bulk_store(out + (col0 + r) * rows + row0, &staged[r][0],
                                         tile * sizeof(float));
      gpuprims::detail::arch::wait_bulk_store_reads();
    }
  } else {  // no bulk copies: ordinary stores, as the default there
    __syncthreads();
    float* dst = out + (col0 + threadIdx.y) * rows + row0 + threadIdx.x;
#pragma unroll
    for (int k = 0; k < tile / rows_per_pass; ++k) {
      dst[k * rows_per_pass * rows] = staged[threadIdx.y + k * rows_per_pass][threadIdx.x];
    }
  }
}

cudaError_t run_place_tiles(const float* in, float* out, const shape& s, cudaStream_t stream) {
  if (s.rows % 64 != 0 || s.cols % 64 != 0 || s.cols / 64 > 65535 || s.batch > 65535) {
    return cudaErrorInvalidValue;
  }
  const auto rows = static_cast<std::size_t>(s.rows), cols = static_cast<std::size_t>(s.cols);
  const dim3 grid(static_cast<unsigned int>(rows / 64), static_cast<unsigned int>(cols / 64),
                  static_cast<unsigned int>(s.batch));
  gpuprims::detail::device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(gpuprims::detail::current_device_facts(facts));
  // Launched as the library launches the default (programmatic dependent launch), for a like
  // comparison.
  return gpuprims::detail::launch<place_tiles_kernel<>>(
      grid, dim3(64, 8), stream, gpuprims::detail::dependent_launch(true, facts), in, out, rows,
      cols);
}

__global__ void count_misplaced_kernel(const float* in, const float* out, std::size_t rows,
                                       std::size_t cols, std::size_t elements,
                                       unsigned long long* misplaced) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       i < elements; i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t b = i / (rows * cols), r = i % (rows * cols) / cols, c = i % cols;
    const std::size_t to = b * rows * cols + (c / 64 * 64 + r % 64) * rows + r / 64 * 64 + c % 64;
    if (__float_as_uint(out[to]) != __float_as_uint(in[i])) {
      atomicAdd(misplaced, 1ull);
    }
  }
}

bool tiles_placed(const float* in, const float* out, const shape& s) {
  device_scratch misplaced(sizeof(unsigned long long));
  auto* counter = static_cast<unsigned long long*>(misplaced.p);
  unsigned long long count = 1;
  if (counter == nullptr || cudaMemset(counter, 0, sizeof count) != cudaSuccess) {
    return false;
  }
  count_misplaced_kernel<<<1024, 256>>>(
      in, out, static_cast<std::size_t>(s.rows), static_cast<std::size_t>(s.cols),
      static_cast<std::size_t>(s.rows * s.cols * s.batch), counter);
  return cudaGetLastError() == cudaSuccess &&
         cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost) == cudaSuccess &&
         count == 0;
}

}  // namespace

void register_transpose_placement(const options& opt) {
  if (!opt.full) {
    return;
  }
  // Not a baseline: at small sizes it would become the "best baseline" the report divides by.
  add_transpose<float>(opt, "tiles_placed_not_transposed", role::variant, run_place_tiles,
                       tiles_placed);
}

}  // namespace gpuprims::bench
