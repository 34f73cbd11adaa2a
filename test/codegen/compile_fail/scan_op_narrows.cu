// expect: Op must take two T and return T
// A float operator scanning into double outputs would round every partial to float: rejected.
#include <gpuprims/device/scan.cuh>

cudaError_t narrowing_scan(const float* in, double* out, std::size_t n) {
  return gpuprims::inclusive_scan(in, out, n, gpuprims::plus<float>{});
}
