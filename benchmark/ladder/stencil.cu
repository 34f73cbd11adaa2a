// The stencil ladder (--full only): every rung in families "stencil_rad<R>", beside the default and
// the baseline that benchmark/device/stencil.cu registers there.
#include <gpuprims/ladder/stencil.cuh>

#include "../stencil_families.cuh"

#include <cstddef>

namespace gpuprims::bench {
namespace {

using gpuprims::ladder::stencil_rung;

template <int Rad, stencil_rung Rung>
cudaError_t run_rung(const float* in, float* out, std::size_t n, cudaStream_t s) {
  return gpuprims::ladder::apply_stencil1d<Rad, Rung>(in, out, n, some_weights<Rad>(),
                                                      gpuprims::boundary::clamp(), s);
}

template <int Rad>
void add_rungs(const options& opt) {
  add_stencil<Rad>(opt, "naive", role::variant, run_rung<Rad, stencil_rung::naive>);
  add_stencil<Rad>(opt, "shared_halo", role::variant, run_rung<Rad, stencil_rung::shared_halo>);
  add_stencil<Rad>(opt, "shared_vectorized", role::variant,
                   run_rung<Rad, stencil_rung::shared_vectorized>);
}

}  // namespace

void register_stencil_ladder(const options& opt) {
  if (!opt.full) {
    return;
  }
  add_rungs<1>(opt);
  add_rungs<3>(opt);
  add_rungs<8>(opt);
  add_rungs<16>(opt);
}

}  // namespace gpuprims::bench
