// Codegen checks for the stencil ladder (see check_sass.py): the vectorised rung moves 16-byte
// words (global loads and stores, shared-memory windows), and no rung of any radius uses local memory.
#include <gpuprims/stencil.cuh>

#include <cstddef>

using gpuprims::boundary;
template <class T, int Rad>
using weights = gpuprims::stencil_weights<T, Rad>;

#define GPUPRIMS_STENCIL_KERNELS(T, Rad)                                                                           \
  template __global__ void gpuprims::detail::stencil_naive_kernel<Rad, 256, T, weights<T, Rad>>(                  \
      const T*, T*, std::size_t, std::size_t, std::size_t, std::size_t, weights<T, Rad>, boundary);              \
  template __global__ void gpuprims::detail::stencil_shared_kernel<Rad, 256, 1, T, weights<T, Rad>>(              \
      const T*, T*, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, weights<T, Rad>, boundary); \
  template __global__ void gpuprims::detail::stencil_shared_kernel<Rad, 256, 16 / sizeof(T), T, weights<T, Rad>>( \
      const T*, T*, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, weights<T, Rad>, boundary);
GPUPRIMS_STENCIL_KERNELS(float, 1)
GPUPRIMS_STENCIL_KERNELS(float, 3)
GPUPRIMS_STENCIL_KERNELS(float, 8)
GPUPRIMS_STENCIL_KERNELS(float, 16)
GPUPRIMS_STENCIL_KERNELS(double, 3)
GPUPRIMS_STENCIL_KERNELS(double, 16)
// The default above radius 4: four 16-byte vectors per thread.
#define GPUPRIMS_STENCIL_WIDE(T, Rad)                                                                              \
  template __global__ void gpuprims::detail::stencil_shared_kernel<Rad, 256, 64 / sizeof(T), T, weights<T, Rad>>( \
      const T*, T*, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, weights<T, Rad>, boundary);
GPUPRIMS_STENCIL_WIDE(float, 8)
GPUPRIMS_STENCIL_WIDE(float, 16)
GPUPRIMS_STENCIL_WIDE(double, 8)
GPUPRIMS_STENCIL_WIDE(double, 16)

// The tile and halo of Rad 3, 256 threads x 4 floats: (4 + 1024 + 4) floats, the halo padded to a
// 16-byte vector on each side.
// ptxas: stencil_shared_kernel<3, 256, 4, float, .*> smem 4128
// ptxas: stencil_shared_kernel<3, 256, 1, float, .*> smem 1056
// sass: stencil_shared_kernel<3, 256, 4, float, .*> has LDG\.E\.128
// sass: stencil_shared_kernel<3, 256, 4, float, .*> has STG\.E\.128
// sass: stencil_shared_kernel<3, 256, 4, float, .*> has LDS\.128
// sass: stencil_shared_kernel<16, 256, 2, double, .*> has STG\.E\.128
// sass: stencil_shared_kernel<3, 256, 1, float, .*> lacks [LS]TG\.E\.128
// sass: stencil_naive_kernel lacks LDS

// Every kernel behind a host launcher waits for the grids before it (griddepcontrol.wait: ACQBULK)
// and never signals its dependents early (launch_dependents: PREEXIT, costly in grids of many small
// blocks), see detail/dependent_launch.cuh; the device templates called from users' kernels do neither.
// sass: detail::stencil_[a-z]*_kernel< has ACQBULK
// sass: detail::stencil_[a-z]*_kernel< lacks PREEXIT
