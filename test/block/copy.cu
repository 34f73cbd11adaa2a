// vector_copy<N> in user kernels against the bytes it must produce: every legal (T, N), the whole
// grid and one odd-sized block, sizes around the vector width, every byte offset of source and
// destination, poisoned guard bytes around the output that must survive.
#include <gpuprims/block/copy.cuh>

#include "support/copy_check.cuh"

#include <cstddef>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;

template <int N, class T>
__global__ void grid_copy_kernel(const T* in, T* out, std::size_t n) {
  gpuprims::vector_copy<N>(in, out, n);
}

// A block of an odd size, each thread keeping two vectors in flight: the cooperative form.
template <int N, class T>
__global__ void block_copy_kernel(const T* in, T* out, std::size_t n) {
  gpuprims::vector_copy<N, 2>(in, out, n, threadIdx.x, blockDim.x);
}

template <int N, class T>
cudaError_t run_grid_kernel(const void* in, void* out, std::size_t n) {
  grid_copy_kernel<N><<<7, 96>>>(static_cast<const T*>(in), static_cast<T*>(out), n);
  return cudaGetLastError();
}

template <int N, class T>
cudaError_t run_block_kernel(const void* in, void* out, std::size_t n) {
  block_copy_kernel<N><<<1, 160>>>(static_cast<const T*>(in), static_cast<T*>(out), n);
  return cudaGetLastError();
}

template <int N, class T>
void add_width(std::vector<copy_subject>& subjects, const char* type) {
  const std::string name = std::string(type) + ", N = " + std::to_string(N);
  subjects.push_back({name + ", grid kernel", sizeof(T), alignof(T), N, &run_grid_kernel<N, T>});
  subjects.push_back({name + ", block kernel", sizeof(T), alignof(T), N, &run_block_kernel<N, T>});
}

}  // namespace

TEST_CASE("vector_copy<N> copies every byte for every legal N, size and offset", "[copy][gpu]") {
  std::vector<copy_subject> subjects;
  for_each_legal_width([&](auto n, auto type, const char* name) {
    add_width<decltype(n)::value, typename decltype(type)::type>(subjects, name);
  });
  for (const copy_subject& subject : subjects) {
    DYNAMIC_SECTION(subject.name) { check_subject(subject); }
  }
}
