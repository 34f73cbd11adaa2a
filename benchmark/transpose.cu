// Families "transpose_<type>": every rung of the transpose ladder and the default, against cuBLAS geam
// with the transpose op (4- and 8-byte types; cuBLAS has no 2-byte geam) and cudaMemcpyAsync of the
// same bytes (the limit: a transpose reads and writes each element once).
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

template <class T>
void transpose_bench(benchmark::State& state,
                     const std::function<cudaError_t(const T*, T*, const shape&, cudaStream_t)>& run) {
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
