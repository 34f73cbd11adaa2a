// Each architecture's per-SM limits (detail/arch/features.cuh) against ptxas: one kernel per block
// size, asking through resident_blocks for as many resident blocks as the table allows. ptxas warns
// (".minnctapersm will be ignored") where that is more than the target keeps, and the test compiles
// this for every architecture as SASS with warnings as errors. It is what checks the launch bounds
// of every_arch.cu's PTX-only architectures, which ptxas does not see there.
#include <gpuprims/detail/arch/features.cuh>

template <int Threads>
__global__ void __launch_bounds__(Threads,
                                  gpuprims::detail::arch::resident_blocks(1 << 20, Threads,
                                                                          GPUPRIMS_TARGET_ARCH))
    most_blocks(int* out) {
  out[threadIdx.x] = 0;
}

template __global__ void most_blocks<32>(int*);
template __global__ void most_blocks<64>(int*);
template __global__ void most_blocks<96>(int*);
template __global__ void most_blocks<128>(int*);
template __global__ void most_blocks<192>(int*);
template __global__ void most_blocks<256>(int*);
template __global__ void most_blocks<384>(int*);
template __global__ void most_blocks<512>(int*);
template __global__ void most_blocks<640>(int*);
template __global__ void most_blocks<768>(int*);
template __global__ void most_blocks<1024>(int*);
