// The transpose ladder (--full only): every rung in families "transpose_<bytes>B", beside the
// default and the baselines that benchmark/device/transpose.cu registers there.
#include <gpuprims/ladder/transpose.cuh>

#include "../transpose_families.cuh"

#include <cuda_fp16.h>

#include <cstddef>

namespace gpuprims::bench {
namespace {

using gpuprims::ladder::transpose_rung;

template <transpose_rung Rung, class T>
cudaError_t run_rung(const T* in, T* out, const shape& s, cudaStream_t stream) {
  const auto rows = static_cast<std::size_t>(s.rows), cols = static_cast<std::size_t>(s.cols);
  return gpuprims::ladder::transpose<Rung>(in, out, rows, cols, cols, rows,
                                           static_cast<std::size_t>(s.batch), rows * cols,
                                           rows * cols, stream);
}

template <class T>
void add_rungs(const options& opt) {
  add_transpose<T>(opt, "naive", role::variant, run_rung<transpose_rung::naive, T>);
  add_transpose<T>(opt, "shared_unpadded", role::variant,
                   run_rung<transpose_rung::shared_unpadded, T>);
  add_transpose<T>(opt, "shared_padded", role::variant, run_rung<transpose_rung::shared_padded, T>);
  add_transpose<T>(opt, "register_4x4", role::variant, run_rung<transpose_rung::register_4x4, T>);
  add_transpose<T>(opt, "register_2x2", role::variant, run_rung<transpose_rung::register_2x2, T>);
}

}  // namespace

void register_transpose_ladder(const options& opt) {
  if (!opt.full) {
    return;
  }
  add_rungs<float>(opt);
  add_rungs<__half>(opt);
  add_rungs<double>(opt);
}

}  // namespace gpuprims::bench
