// Codegen checks for vector_copy (see check_sass.py): the widths the reference notes read in SASS.
#include <gpuprims/copy.cuh>

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

// The kernels behind the host launchers, as they instantiate them.
template __global__ void gpuprims::detail::vector_copy_kernel<1, 1, 256, float>(const float*, float*, std::size_t);
template __global__ void gpuprims::detail::vector_copy_kernel<4, 1, 256, float>(const float*, float*, std::size_t);
template __global__ void gpuprims::detail::vector_copy_kernel<4, 4, 256, float>(const float*, float*, std::size_t);
template __global__ void gpuprims::detail::copy_aligned_bytes_kernel<1, 256>(const unsigned char*, unsigned char*, std::size_t);
template __global__ void gpuprims::detail::copy_aligned_bytes_kernel<4, 256>(const unsigned char*, unsigned char*, std::size_t);
template __global__ void gpuprims::detail::copy_skewed_kernel<0, 1, 256>(const unsigned char*, unsigned char*, std::size_t, unsigned int);
template __global__ void gpuprims::detail::copy_skewed_kernel<3, 4, 256>(const unsigned char*, unsigned char*, std::size_t, unsigned int);

// sass: vector_copy_kernel<4, 4, 256, float> has LDG\.E\.128
// sass: copy_aligned_bytes_kernel<1, 256> has STG\.E\.128
// Mutually misaligned pointers still get 16-byte loads and stores, assembled with funnel shifts.
// sass: copy_skewed_kernel has LDG\.E\.128
// sass: copy_skewed_kernel has STG\.E\.128
// sass: copy_skewed_kernel has SHF\.R

// Every kernel behind a host launcher waits for the grids before it (griddepcontrol.wait: ACQBULK)
// and never signals its dependents early (launch_dependents: PREEXIT, costly in grids of many small
// blocks), see detail/dependent_launch.cuh; the device templates called from users' kernels do neither.
// sass: detail::[a-z_]*_kernel< has ACQBULK
// sass: detail::[a-z_]*_kernel< lacks PREEXIT
// sass: ^copy_ lacks ACQBULK|PREEXIT
