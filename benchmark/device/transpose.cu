// Families "transpose_<bytes>B": gpuprims::transpose (the default) against cuBLAS geam with the
// transpose op (4- and 8-byte types; cuBLAS has no 2-byte geam) and cudaMemcpyAsync of the same
// bytes (a transpose reads and writes each element once). With --full: every shape, 2-byte
// elements, and the default's 64 x 64 tile with ordinary and with bulk stores (tunings), whichever
// the default picks: what the copy engine buys, shape by shape. The ladder's rungs and the
// placement experiment register into the same families (ladder/transpose.cu, experiments/).
#include <gpuprims/transpose.cuh>

#include "../transpose_families.cuh"

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims::bench {
namespace {

template <class Tuning, class T>
cudaError_t run_default(const T* in, T* out, const shape& s, cudaStream_t stream) {
  const auto rows = static_cast<std::size_t>(s.rows), cols = static_cast<std::size_t>(s.cols);
  return gpuprims::transpose<Tuning>(in, out, rows, cols, cols, rows,
                                     static_cast<std::size_t>(s.batch), rows * cols, rows * cols,
                                     stream);
}

// The default's policy with bulk stores forced on or off (on: where the target has them, whatever
// the size of the call and the element type).
template <bool BulkStores>
struct tile64_tuning {
  __host__ __device__ static constexpr transpose_policy select(int arch, std::size_t element_size) {
    transpose_policy p = transpose_tuning::select(arch, element_size);
    p.bulk_stores = BulkStores;
    p.bulk_store_min_bytes = 0;
    return p;
  }
};

// Row-major rows x cols (pitch cols) is column-major cols x rows; its transpose, row-major cols x
// rows, is column-major rows x cols: C = op(A) with op = T, m = rows, n = cols.
cublasStatus_t geam(cublasHandle_t h, int m, int n, const float* a, float* c) {
  const float one = 1, zero = 0;
  return cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, a, n, &zero, c, m, c, m);
}
cublasStatus_t geam(cublasHandle_t h, int m, int n, const double* a, double* c) {
  const double one = 1, zero = 0;
  return cublasDgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, a, n, &zero, c, m, c, m);
}

template <class T>
void add_family(const options& opt) {
  add_transpose<T>(opt, "gpuprims::transpose", role::default_, run_default<transpose_tuning, T>);
  add_transpose<T>(opt, "cudaMemcpyAsync", role::baseline,
                   [](const T* in, T* out, const shape& s, cudaStream_t stream) {
                     return cudaMemcpyAsync(
                         out, in, static_cast<std::size_t>(s.rows * s.cols * s.batch) * sizeof(T),
                         cudaMemcpyDeviceToDevice, stream);
                   });
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    const std::string name = std::is_same_v<T, float> ? "cublasSgeam" : "cublasDgeam";
    const std::string family = "transpose_" + std::to_string(sizeof(T)) + "B";
    add(
        opt, family, name, role::baseline,
        [](benchmark::State& state) {
          cublasHandle_t handle = nullptr;
          if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
            state.SkipWithError("cublasCreate failed");
            return;
          }
          transpose_bench<T>(
              state, [handle](const T* in, T* out, const shape& s, cudaStream_t stream) {
                // No batched geam: one call per matrix (the batched rows carry that launch cost).
                cublasSetStream(handle, stream);
                const std::size_t matrix = static_cast<std::size_t>(s.rows * s.cols);
                for (std::int64_t b = 0; b < s.batch; ++b) {
                  if (geam(handle, static_cast<int>(s.rows), static_cast<int>(s.cols),
                           in + b * matrix, out + b * matrix) != CUBLAS_STATUS_SUCCESS) {
                    return cudaErrorUnknown;
                  }
                }
                return cudaSuccess;
              });
          cublasDestroy(handle);
        },
        transpose_args(transpose_shapes(opt, sizeof(T))), transpose_arg_names);
  }
  if (opt.full && sizeof(T) <= 4) {
    add_transpose<T>(opt, "tile64_plain_stores", role::variant,
                     run_default<tile64_tuning<false>, T>);
    add_transpose<T>(opt, "tile64_bulk_stores", role::variant, run_default<tile64_tuning<true>, T>);
  }
}

}  // namespace

void register_transpose(const options& opt) {
  add_family<float>(opt);
  add_family<double>(opt);
  if (opt.full) {
    add_family<__half>(opt);
  }
}

}  // namespace gpuprims::bench
