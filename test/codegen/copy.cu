// Codegen checks for the copy (see check_sass.py): the widths the reference notes read in SASS.
#include <gpuprims/block/copy.cuh>
#include <gpuprims/device/copy.cuh>

#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>

// User kernels calling the device template, one per vector width.
extern "C" __global__ void copy_float_n1(const float* in, float* out, std::size_t n) {
  gpuprims::vector_copy<1>(in, out, n);
}
extern "C" __global__ void copy_float_n2(const float* in, float* out, std::size_t n) {
  gpuprims::vector_copy<2>(in, out, n);
}
extern "C" __global__ void copy_float_n4(const float* in, float* out, std::size_t n) {
  gpuprims::vector_copy<4>(in, out, n);
}
extern "C" __global__ void copy_double_n2(const double* in, double* out, std::size_t n) {
  gpuprims::vector_copy<2>(in, out, n);
}
extern "C" __global__ void copy_half_n4(const __half* in, __half* out, std::size_t n) {
  gpuprims::vector_copy<4>(in, out, n);
}
extern "C" __global__ void copy_int8_n16(const std::int8_t* in, std::int8_t* out, std::size_t n) {
  gpuprims::vector_copy<16, 4>(in, out, n);
}

// sass: ^copy_float_n1$ lacks [LS]TG\.E\.(64|128)
// sass: ^copy_float_n2$ has LDG\.E\.64
// sass: ^copy_float_n2$ has STG\.E\.64
// sass: ^copy_float_n2$ lacks [LS]TG\.E\.128
// sass: ^copy_half_n4$ has LDG\.E\.64
// sass: ^copy_half_n4$ lacks [LS]TG\.E\.128
// sass: ^copy_(float_n4|double_n2|int8_n16)$ has LDG\.E\.128
// sass: ^copy_(float_n4|double_n2|int8_n16)$ has STG\.E\.128

// The kernels behind the host launchers, instantiated by calling them.
void launchers(const float* f, float* g, const unsigned char* b, unsigned char* c) {
  (void)gpuprims::copy_vectorized<1>(f, g, 0);
  (void)gpuprims::copy_vectorized<4>(f, g, 0);
  (void)gpuprims::copy(b, c, 0);
}

// sass: vector_copy_kernel<gpuprims::copy_tuning, 4, true, float> has LDG\.E\.128
// sass: vector_copy_kernel<gpuprims::copy_tuning, 1, false, float> lacks [LS]TG\.E\.(64|128)
// sass: copy_aligned_bytes_kernel<gpuprims::copy_tuning, false> has STG\.E\.128
// Mutually misaligned pointers still get 16-byte loads and stores, assembled with funnel shifts.
// sass: copy_skewed_kernel has LDG\.E\.128
// sass: copy_skewed_kernel has STG\.E\.128
// sass: copy_skewed_kernel has SHF\.R

// Every kernel behind a host launcher waits for the grids before it (griddepcontrol.wait: ACQBULK)
// and never signals its dependents early (launch_dependents: PREEXIT, costly in grids of many small
// blocks), see detail/launch.cuh; the device templates called from users' kernels do neither.
// sass: detail::(vector_copy|copy_aligned_bytes|copy_skewed)_kernel< has ACQBULK
// sass: detail::[a-z_]*_kernel< lacks PREEXIT
// sass: ^copy_ lacks ACQBULK|PREEXIT
