// gpuprims::reduce's argument checks: they run before any CUDA call, so they hold anywhere.
#include <gpuprims/device/reduce.cuh>

#include "support/catch.hpp"

#include <cstdint>
#include <type_traits>

// An operator without identity() (outside the unnamed namespace: it is only named, never called).
struct no_identity {
  __host__ __device__ float operator()(float a, float b) const { return a * b; }
};

namespace {

// Whether gpuprims::reduce can be called with arguments of these types.
template <class Args, class = void>
struct reduce_callable : std::false_type {};
template <class... Args>
struct reduce_callable<void(Args...),
                       std::void_t<decltype(gpuprims::reduce(std::declval<Args>()...))>>
    : std::true_type {};

using plus_f = gpuprims::plus<float>;

}  // namespace

TEST_CASE("reduce rejects null pointers before touching the device", "[reduce][args]") {
  const auto* in = reinterpret_cast<const float*>(std::uintptr_t{0x100000});
  auto* out = reinterpret_cast<float*>(std::uintptr_t{0x900000});
  CHECK(gpuprims::reduce(static_cast<const float*>(nullptr), out, 4, 0.0f,
                         gpuprims::plus<float>{}) == cudaErrorInvalidValue);
  CHECK(gpuprims::reduce(in, static_cast<float*>(nullptr), 4, 0.0f, gpuprims::plus<float>{}) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::reduce(in, static_cast<float*>(nullptr), 4, 0.0f, gpuprims::plus<float>{},
                         nullptr, 0) == cudaErrorInvalidValue);
}

TEST_CASE("reduce takes inputs, then the output, then the size", "[reduce][args]") {
  // The house order (inputs, outputs, sizes): the old order (in, n, out) no longer compiles.
  STATIC_REQUIRE(reduce_callable<void(const float*, float*, std::size_t, float, plus_f)>::value);
  STATIC_REQUIRE(!reduce_callable<void(const float*, std::size_t, float*, float, plus_f)>::value);
}

TEST_CASE("reduce without init needs an operator with an identity", "[reduce][args]") {
  STATIC_REQUIRE(reduce_callable<void(const float*, float*, std::size_t, plus_f)>::value);
  STATIC_REQUIRE(
      reduce_callable<void(const int*, int*, std::size_t, gpuprims::minimum<int>)>::value);
  STATIC_REQUIRE(!reduce_callable<void(const float*, float*, std::size_t, no_identity)>::value);
  STATIC_REQUIRE(
      reduce_callable<void(const float*, float*, std::size_t, float, no_identity)>::value);
}
