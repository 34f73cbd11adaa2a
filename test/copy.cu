// vector_copy<N> and copy_vectorized<N> against the bytes they must produce: every legal (T, N),
// sizes around the vector width, every byte offset of source and destination, and poisoned guard
// bytes around the output that must survive. The checking code is type-erased (copy_check.cuh),
// so each (T, N) instantiates only its launches.
#include <gpuprims/copy.cuh>

#include "copy_check.cuh"

#include <cstddef>
#include <type_traits>
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
cudaError_t run_launcher(const void* in, void* out, std::size_t n) {
  return gpuprims::copy_vectorized<N>(static_cast<const T*>(in), static_cast<T*>(out), n);
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
  subjects.push_back({name + ", copy_vectorized", sizeof(T), alignof(T), N, &run_launcher<N, T>});
  subjects.push_back({name + ", grid kernel", sizeof(T), alignof(T), N, &run_grid_kernel<N, T>});
  subjects.push_back({name + ", block kernel", sizeof(T), alignof(T), N, &run_block_kernel<N, T>});
}

// Every N that vector_copy<N, T> accepts: 1, and the N that make 4-, 8- and 16-byte vectors.
template <class T>
void add_type(std::vector<copy_subject>& subjects, const char* type) {
  add_width<1, T>(subjects, type);
  if constexpr (sizeof(T) <= 2) {
    add_width<4 / sizeof(T), T>(subjects, type);
  }
  if constexpr (sizeof(T) <= 4) {
    add_width<8 / sizeof(T), T>(subjects, type);
  }
  if constexpr (sizeof(T) <= 8) {
    add_width<16 / sizeof(T), T>(subjects, type);
  }
}

}  // namespace

TEST_CASE("vector_copy<N> copies every byte for every legal N, size and offset", "[copy][gpu]") {
  std::vector<copy_subject> subjects;
  add_type<blob<1, 1>>(subjects, "blob<1, 1>");
  add_type<blob<2, 2>>(subjects, "blob<2, 2>");
  add_type<blob<4, 4>>(subjects, "blob<4, 4>");
  add_type<blob<8, 8>>(subjects, "blob<8, 8>");
  add_type<blob<16, 16>>(subjects, "blob<16, 16>");
  add_type<blob<2, 1>>(subjects, "blob<2, 1>");
  add_type<blob<4, 1>>(subjects, "blob<4, 1>");
  add_type<blob<8, 1>>(subjects, "blob<8, 1>");
  add_type<blob<16, 1>>(subjects, "blob<16, 1>");
  for (const copy_subject& subject : subjects) {
    DYNAMIC_SECTION(subject.name) {
      check_subject(subject);
    }
  }
}
