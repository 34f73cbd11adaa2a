// gpuprims::copy and copy_vectorized<N>: every legal (T, N) of copy_vectorized, gpuprims::copy of
// any trivially copyable type at any offset (the width is picked at run time), a caller's tuning,
// and copies of more than 2^31 elements.
#include <gpuprims/device/copy.cuh>

#include "support/copy_check.cuh"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;

// A caller's policy: smaller blocks, two vectors in flight below 64 vectors per resident thread,
// no dependent launch.
struct small_blocks_tuning {
  __host__ __device__ static constexpr gpuprims::copy_policy select(int) {
    return {96, 2, 64, false};
  }
};

template <int N, class T, class Tuning = gpuprims::copy_tuning>
cudaError_t run_vectorized(const void* in, void* out, std::size_t n) {
  return gpuprims::copy_vectorized<N, Tuning>(static_cast<const T*>(in), static_cast<T*>(out), n);
}

template <class T, class Tuning = gpuprims::copy_tuning>
cudaError_t run_copy(const void* in, void* out, std::size_t n) {
  return gpuprims::copy<Tuning>(static_cast<const T*>(in), static_cast<T*>(out), n);
}

template <class T, class Tuning = gpuprims::copy_tuning>
copy_subject copy_of(const char* type) {
  // Report the copy's own vector (16 bytes) in elements, so the sizes straddle it.
  const int vector = static_cast<int>(16 / sizeof(T) > 0 ? 16 / sizeof(T) : 1) + 1;
  return {std::string("gpuprims::copy of ") + type, sizeof(T), alignof(T), vector,
          &run_copy<T, Tuning>};
}

}  // namespace

TEST_CASE("copy_vectorized<N> copies every byte for every legal N, size and offset",
          "[copy][gpu]") {
  std::vector<copy_subject> subjects;
  for_each_legal_width([&](auto n, auto type, const char* name) {
    constexpr int N = decltype(n)::value;
    using T = typename decltype(type)::type;
    subjects.push_back({std::string(name) + ", N = " + std::to_string(N), sizeof(T), alignof(T), N,
                        &run_vectorized<N, T>});
  });
  for (const copy_subject& subject : subjects) {
    DYNAMIC_SECTION(subject.name) { check_subject(subject); }
  }
}

TEST_CASE("gpuprims::copy copies any trivially copyable type at any offset", "[copy][gpu]") {
  const std::vector<copy_subject> subjects = {copy_of<blob<1, 1>>("blob<1, 1>"),
                                              copy_of<blob<2, 2>>("blob<2, 2>"),
                                              copy_of<blob<4, 4>>("blob<4, 4>"),
                                              copy_of<blob<8, 8>>("blob<8, 8>"),
                                              copy_of<blob<16, 16>>("blob<16, 16>"),
                                              copy_of<blob<12, 4>>("blob<12, 4>"),
                                              copy_of<blob<12, 1>>("blob<12, 1>"),
                                              copy_of<blob<16, 1>>("blob<16, 1>"),
                                              copy_of<float>("float"),
                                              copy_of<double>("double")};
  for (const copy_subject& subject : subjects) {
    DYNAMIC_SECTION(subject.name) { check_subject(subject); }
  }
}

TEST_CASE("the copy launchers run a caller's tuning", "[copy][gpu]") {
  const std::vector<copy_subject> subjects = {
      copy_of<float, small_blocks_tuning>("float, 96-thread blocks"),
      copy_of<blob<1, 1>, small_blocks_tuning>("bytes (skewed), 96-thread blocks"),
      {"copy_vectorized<2> of doubles, 96-thread blocks", 8, 8, 2,
       &run_vectorized<2, double, small_blocks_tuning>}};
  for (const copy_subject& subject : subjects) {
    DYNAMIC_SECTION(subject.name) { check_subject(subject); }
  }
}

TEST_CASE("copy handles more than 2^31 int8 elements", "[copy][gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 77;
  const copy_subject by_width = copy_of<std::int8_t>("int8");
  const copy_subject vectorized{"copy_vectorized<16> of int8", 1, 1, 16,
                                &run_vectorized<16, std::int8_t>};
  copy_buffers buffers(n);
  check_copy(by_width, {n, 0, 0}, buffers);
  check_copy(by_width, {n, 5, 5}, buffers);  // peel 11 bytes, then 16-byte vectors
  check_copy(by_width, {n, 3, 0}, buffers);  // mutually misaligned: funnel-shifted 16-byte words
  check_copy(vectorized, {n, 5, 5}, buffers);
}
