// expect: Op must take two T and return T
// A float operator reducing into a double result would round every partial to float: rejected.
#include <gpuprims/device/reduce.cuh>

cudaError_t narrowing_sum(const float* in, double* out, std::size_t n) {
  return gpuprims::reduce(in, out, n, 0.0, gpuprims::plus<float>{});
}
