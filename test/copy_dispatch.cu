// gpuprims::copy: any trivially copyable type at any offset (the width is picked at run time),
// argument errors that launch nothing, and a copy of more than 2^31 elements.
#include <gpuprims/copy.cuh>

#include "copy_check.cuh"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using namespace gpuprims::test;

template <class T>
cudaError_t run_copy(const void* in, void* out, std::size_t n) {
  return gpuprims::copy(static_cast<const T*>(in), static_cast<T*>(out), n);
}

template <class T>
copy_subject copy_of(const char* type) {
  // Report the copy's own vector (16 bytes) in elements, so the sizes straddle it.
  const int vector = static_cast<int>(16 / sizeof(T) > 0 ? 16 / sizeof(T) : 1) + 1;
  return {std::string("gpuprims::copy of ") + type, sizeof(T), alignof(T), vector, &run_copy<T>};
}

}  // namespace

TEST_CASE("gpuprims::copy copies any trivially copyable type at any offset", "[copy][gpu]") {
  const std::vector<copy_subject> subjects = {
      copy_of<blob<1, 1>>("blob<1, 1>"),   copy_of<blob<2, 2>>("blob<2, 2>"),
      copy_of<blob<4, 4>>("blob<4, 4>"),   copy_of<blob<8, 8>>("blob<8, 8>"),
      copy_of<blob<16, 16>>("blob<16, 16>"), copy_of<blob<12, 4>>("blob<12, 4>"),
      copy_of<blob<12, 1>>("blob<12, 1>"), copy_of<blob<16, 1>>("blob<16, 1>"),
      copy_of<float>("float"),             copy_of<double>("double")};
  for (const copy_subject& subject : subjects) {
    DYNAMIC_SECTION(subject.name) {
      check_subject(subject);
    }
  }
}

TEST_CASE("copy handles more than 2^31 int8 elements", "[copy][gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 77;
  const copy_subject by_width = copy_of<std::int8_t>("int8");
  const copy_subject vectorized{"copy_vectorized<16> of int8", 1, 1, 16,
                                [](const void* in, void* out, std::size_t count) {
                                  return gpuprims::copy_vectorized<16>(static_cast<const std::int8_t*>(in),
                                                                       static_cast<std::int8_t*>(out), count);
                                }};
  copy_buffers buffers(n);
  check_copy(by_width, {n, 0, 0}, buffers);
  check_copy(by_width, {n, 5, 5}, buffers);  // peel 11 bytes, then 16-byte vectors
  check_copy(by_width, {n, 3, 0}, buffers);  // mutually misaligned: byte-wise fallback
  check_copy(vectorized, {n, 5, 5}, buffers);
}
