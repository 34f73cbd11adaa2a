// Families "transpose_<type>": every rung of the transpose ladder and the default, against cuBLAS geam
// with the transpose op (4- and 8-byte types; cuBLAS has no 2-byte geam) and cudaMemcpyAsync of the
// same bytes (a transpose reads and writes each element once); for floats also the placement limit
// (tiles moved to their transposed place, not transposed: place_tiles_kernel).
#include <gpuprims/transpose.cuh>

#include "support.cuh"

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace gpuprims::bench {
namespace {

using gpuprims::transpose_algorithm;

struct shape {
  std::int64_t rows, cols, batch;
};

// Checks a row's output once after its timed launches (all of which wrote the same bytes): the
// ladder and the default are checked by the tests, a kernel of the benchmark's own is not.
template <class T>
using output_check = std::function<bool(const T* in, const T* out, const shape&)>;

template <class T>
void transpose_bench(benchmark::State& state,
                     const std::function<cudaError_t(const T*, T*, const shape&, cudaStream_t)>& run,
                     const output_check<T>& check = {}) {
  const shape s{state.range(0), state.range(1), state.range(2)};
  const std::size_t elements = static_cast<std::size_t>(s.rows * s.cols * s.batch);
  random_buffer in(elements * sizeof(T), 11);
  random_buffer out(elements * sizeof(T), 12);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, 2 * elements * sizeof(T), [&](cudaStream_t stream) {
    const cudaError_t status = run(in.as<T>(), out.as<T>(), s, stream);
    if (status != cudaSuccess) {
      state.SkipWithError(cudaGetErrorString(status));
    }
  });
  if (check && !state.error_occurred() && !check(in.as<T>(), out.as<T>(), s)) {
    state.SkipWithError("wrong output");
  }
}

template <transpose_algorithm A, class T>
cudaError_t run_rung(const T* in, T* out, const shape& s, cudaStream_t stream) {
  const auto rows = static_cast<std::size_t>(s.rows), cols = static_cast<std::size_t>(s.cols);
  return gpuprims::transpose<A>(in, out, rows, cols, cols, rows, static_cast<std::size_t>(s.batch), rows * cols,
                                rows * cols, stream);
}

// The default's 64 x 64 tile kernel with its output written by ordinary stores or by bulk copies,
// whichever gpuprims::transpose would pick: what the copy engine buys, shape by shape.
template <bool BulkStores, class T>
cudaError_t run_tile64(const T* in, T* out, const shape& s, cudaStream_t stream) {
  const auto rows = static_cast<std::size_t>(s.rows), cols = static_cast<std::size_t>(s.cols);
  const gpuprims::detail::transpose_shape t{rows, cols, cols, rows, static_cast<std::size_t>(s.batch), rows * cols,
                                            rows * cols};
  return gpuprims::detail::launch_transpose_shared<64, 4 / static_cast<int>(sizeof(T)), 8, 4, BulkStores>(in, out, t,
                                                                                                         stream);
}

// What a tiled transpose can reach, as opposed to a copy: the default's 64 x 64 float tiles, the
// same block order, loads and bulk stores, but each tile stored at the transposed tile's place
// without being transposed (its row i becomes output row col0 + i, so no gather through a padded
// tile). At 256-byte granularity it reads and writes the same addresses in the same order as the
// transpose, with less work in the SM; a copy keeps every tile in place, an order of DRAM accesses
// no transpose has (docs/transpose.md, "Where the last percent goes"). Whole tiles only.
__global__ void __launch_bounds__(512, 4)
    place_tiles_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t rows, std::size_t cols) {
  constexpr int tile = 64, rows_per_pass = 8, pitch = tile + 4;  // 16-byte aligned rows for bulk copies
  __shared__ alignas(16) float staged[tile][pitch];
  const std::size_t matrix = rows * cols, row0 = blockIdx.x * std::size_t{tile}, col0 = blockIdx.y * std::size_t{tile};
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
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  gpuprims::detail::fence_shared_for_bulk_copies();
  __syncthreads();
  const unsigned int thread = threadIdx.y * tile + threadIdx.x, lane = thread % 32, warp = thread / 32;
  const unsigned int r = warp + lane * (tile * rows_per_pass / 32);  // as the default: 4 lanes a warp
  if (r < tile) {
    gpuprims::detail::bulk_store(out + (col0 + r) * rows + row0, &staged[r][0], tile * sizeof(float));
    gpuprims::detail::wait_bulk_store_reads();
  }
#else  // no bulk copies: ordinary stores, as the default there
  __syncthreads();
  float* dst = out + (col0 + threadIdx.y) * rows + row0 + threadIdx.x;
#pragma unroll
  for (int k = 0; k < tile / rows_per_pass; ++k) {
    dst[k * rows_per_pass * rows] = staged[threadIdx.y + k * rows_per_pass][threadIdx.x];
  }
#endif
}

cudaError_t run_place_tiles(const float* in, float* out, const shape& s, cudaStream_t stream) {
  if (s.rows % 64 != 0 || s.cols % 64 != 0 || s.cols / 64 > 65535 || s.batch > 65535) {
    return cudaErrorInvalidValue;
  }
  const auto rows = static_cast<std::size_t>(s.rows), cols = static_cast<std::size_t>(s.cols);
  const dim3 grid(static_cast<unsigned int>(rows / 64), static_cast<unsigned int>(cols / 64),
                  static_cast<unsigned int>(s.batch));
  return gpuprims::detail::launch<place_tiles_kernel>(grid, dim3(64, 8), stream, in, out, rows, cols);
}

__global__ void count_misplaced_kernel(const float* in, const float* out, std::size_t rows, std::size_t cols,
                                       std::size_t elements, unsigned long long* misplaced) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < elements;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
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
  count_misplaced_kernel<<<1024, 256>>>(in, out, static_cast<std::size_t>(s.rows), static_cast<std::size_t>(s.cols),
                                        static_cast<std::size_t>(s.rows * s.cols * s.batch), counter);
  return cudaGetLastError() == cudaSuccess &&
         cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost) == cudaSuccess && count == 0;
}

// Row-major rows x cols (pitch cols) is column-major cols x rows; its transpose, row-major cols x rows,
// is column-major rows x cols: C = op(A) with op = T, m = rows, n = cols.
cublasStatus_t geam(cublasHandle_t h, int m, int n, const float* a, float* c) {
  const float one = 1, zero = 0;
  return cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, a, n, &zero, c, m, c, m);
}
cublasStatus_t geam(cublasHandle_t h, int m, int n, const double* a, double* c) {
  const double one = 1, zero = 0;
  return cublasDgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, a, n, &zero, c, m, c, m);
}

template <class T>
void add_family(const options& opt, const std::string& family, const std::vector<shape>& shapes, bool has_geam) {
  auto args = [&](benchmark::internal::Benchmark* b) {
    for (const shape& s : shapes) {
      b->Args({s.rows, s.cols, s.batch});
    }
    b->ArgNames({"rows", "cols", "batch"});
  };
  using fn = std::function<cudaError_t(const T*, T*, const shape&, cudaStream_t)>;
  auto rung = [&](const char* name, fn run) {
    args(add(opt, family, name, false, [run](benchmark::State& st) { transpose_bench<T>(st, run); }));
  };
  rung("naive", run_rung<transpose_algorithm::naive, T>);
  rung("shared_unpadded", run_rung<transpose_algorithm::shared_unpadded, T>);
  rung("shared_padded", run_rung<transpose_algorithm::shared_padded, T>);
  rung("register_4x4", run_rung<transpose_algorithm::register_4x4, T>);
  rung("register_2x2", run_rung<transpose_algorithm::register_2x2, T>);
  rung("gpuprims::transpose", run_rung<transpose_algorithm::automatic, T>);
  if constexpr (sizeof(T) <= 4) {
    rung("tile64_plain_stores", run_tile64<false, T>);
    rung("tile64_bulk_stores", run_tile64<true, T>);
  }
  if constexpr (std::is_same_v<T, float>) {
    // Not a baseline: at small sizes it would become the "best baseline" the report divides by.
    args(add(opt, family, "tiles_placed_not_transposed", false, [](benchmark::State& st) {
      transpose_bench<float>(st, run_place_tiles, tiles_placed);
    }));
  }
  args(add(opt, family, "cudaMemcpyAsync", true, [](benchmark::State& st) {
    transpose_bench<T>(st, [](const T* in, T* out, const shape& s, cudaStream_t stream) {
      return cudaMemcpyAsync(out, in, static_cast<std::size_t>(s.rows * s.cols * s.batch) * sizeof(T),
                             cudaMemcpyDeviceToDevice, stream);
    });
  }));
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (has_geam) {
      args(add(opt, family, std::is_same_v<T, float> ? "cublasSgeam" : "cublasDgeam", true, [](benchmark::State& st) {
        cublasHandle_t handle = nullptr;
        if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
          st.SkipWithError("cublasCreate failed");
          return;
        }
        transpose_bench<T>(st, [handle](const T* in, T* out, const shape& s, cudaStream_t stream) {
          // No batched geam: one call per matrix (the batched rows carry that launch cost).
          cublasSetStream(handle, stream);
          const std::size_t matrix = static_cast<std::size_t>(s.rows * s.cols);
          for (std::int64_t b = 0; b < s.batch; ++b) {
            if (geam(handle, static_cast<int>(s.rows), static_cast<int>(s.cols), in + b * matrix, out + b * matrix) !=
                CUBLAS_STATUS_SUCCESS) {
              return cudaErrorUnknown;
            }
          }
          return cudaSuccess;
        });
        cublasDestroy(handle);
      }));
    }
  }
}

}  // namespace

void register_transpose(const options& opt) {
  add_family<float>(opt, "transpose_4B",
                    {{2048, 512, 1}, {2048, 2048, 1}, {4096, 4096, 1}, {8192, 8192, 1}, {16384, 16384, 1},
                     {1024, 1024, 64}},
                    true);
  add_family<__half>(opt, "transpose_2B", {{8192, 8192, 1}}, false);
  add_family<double>(opt, "transpose_8B", {{8192, 8192, 1}}, true);
}

}  // namespace gpuprims::bench
