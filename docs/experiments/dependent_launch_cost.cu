// Experiment behind docs/design.md: what griddepcontrol.wait and griddepcontrol.launch_dependents
// cost in a grid of many small blocks (a copy of one float per thread), launched plainly and with
// programmatic stream serialization. Not part of the build:
//   nvcc -std=c++17 -O3 -arch=sm_90 -I../../include -o dependent_launch_cost dependent_launch_cost.cu
//   ./dependent_launch_cost
#include <gpuprims/copy.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); std::exit(1); } } while (0)

// Mode bit 1: wait; bit 2: launch_dependents at start; bit 4: launch_dependents at end.
template <int Mode>
__global__ void __launch_bounds__(256) scalar_copy(const float* __restrict__ in, float* __restrict__ out, size_t n) {
  if (Mode & 1) asm volatile("griddepcontrol.wait;" ::: "memory");
  if (Mode & 2) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  const size_t i = blockIdx.x * size_t(256) + threadIdx.x;
  if (i < n) out[i] = in[i];
  if (Mode & 4) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  if ((Mode & 8) && threadIdx.x == 0) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

template <class K>
void launch(bool pdl, K k, unsigned blocks, cudaStream_t s, const float* in, float* out, size_t n) {
  cudaLaunchConfig_t c{};
  c.gridDim = blocks; c.blockDim = 256; c.stream = s;
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  a.val.programmaticStreamSerializationAllowed = 1;
  c.attrs = &a; c.numAttrs = pdl ? 1 : 0;
  CK(cudaLaunchKernelEx(&c, k, in, out, n));
}

double time_us(cudaStream_t s, const std::function<void()>& f, int batch, int iters) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> t;
  for (int it = 0; it < iters; ++it) {
    CK(cudaEventRecord(a, s)); for (int i = 0; i < batch; ++i) f(); CK(cudaEventRecord(b, s)); CK(cudaEventSynchronize(b));
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms * 1e3 / batch);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int lg : {24, 28}) {
    size_t n = size_t(1) << lg;
    float *in, *out; CK(cudaMalloc(&in, n * 4)); CK(cudaMalloc(&out, n * 4)); CK(cudaMemset(in, 1, n * 4));
    unsigned blocks = unsigned((n + 255) / 256);
    int iters = lg == 28 ? 20 : 60;
    for (int batch : {1, 4}) {
      std::printf("n=2^%d batch %d: ", lg, batch);
      auto row = [&](const char* name, auto k, bool pdl) {
        std::printf("%s %.1f  ", name, time_us(s, [&] { launch(pdl, k, blocks, s, in, out, n); }, batch, iters));
      };
      row("none", scalar_copy<0>, false);
      row("wait", scalar_copy<1>, false);
      row("trig0", scalar_copy<2>, false);
      row("trig_end", scalar_copy<4>, false);
      row("both", scalar_copy<3>, false);
      row("both_pdl", scalar_copy<3>, true);
      row("wait+end_pdl", scalar_copy<5>, true);
      row("wait_pdl", scalar_copy<1>, true);
      row("wait+t0_pdl", scalar_copy<9>, true);
      std::printf("lib %.1f  memcpy %.1f\n",
                  time_us(s, [&] { CK(gpuprims::copy_vectorized<1>(in, out, n, s)); }, batch, iters),
                  time_us(s, [&] { CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice, s)); }, batch, iters));
    }
    CK(cudaFree(in)); CK(cudaFree(out));
  }
  return 0;
}
