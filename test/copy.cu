// vector_copy<N>, copy_vectorized<N> and gpuprims::copy against the bytes they must produce: every
// legal (T, N), sizes around the vector width, every byte offset of source and destination, and
// poisoned guard bytes around the output that must survive.
#include <gpuprims/copy.cuh>

#include "support/test_support.cuh"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

using namespace gpuprims::test;

// Element types by size and alignment: blob<4, 4> behaves like float, blob<4, 1> can start at any
// byte, so it reaches every source/destination offset.
template <std::size_t Size, std::size_t Align>
struct alignas(Align) blob {
  unsigned char bytes[Size];
};

template <int N, class T>
__global__ void grid_copy_kernel(const T* in, T* out, std::size_t n) {
  gpuprims::vector_copy<N>(in, out, n);
}

// A block of an odd size, each thread keeping two vectors in flight: the cooperative form.
template <int N, class T>
__global__ void block_copy_kernel(const T* in, T* out, std::size_t n) {
  gpuprims::vector_copy<N, 2>(in, out, n, threadIdx.x, blockDim.x);
}

constexpr std::size_t guard = 64;  // poisoned bytes on each side of the output, a multiple of 16

struct copy_case {
  std::size_t n, in_offset, out_offset;
};

// Sizes around the vector width, a random small size and a large odd one; every pair of offsets for
// the sizes that reach vector bodies with head and tail, a few pairs for the rest.
template <class T>
std::vector<copy_case> copy_cases(int n_per_vector) {
  const auto vec = static_cast<std::size_t>(n_per_vector);
  std::vector<std::size_t> offsets;
  for (std::size_t off = 0; off < 16; off += alignof(T)) {
    offsets.push_back(off);
  }
  const std::size_t a = alignof(T) < 16 ? alignof(T) : 0;
  const std::size_t last = offsets.back();
  const std::vector<std::size_t> few = {0, a, last};

  std::vector<copy_case> cases;
  for (std::size_t n : {vec + 1, vec * 37 + 3, random_size(16, 4099)}) {
    for (std::size_t i : offsets) {
      for (std::size_t o : offsets) {
        cases.push_back({n, i, o});
      }
    }
  }
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, vec - 1,
                        std::size_t{1000003}, random_size(4100, 300000)}) {
    for (std::size_t i : few) {
      for (std::size_t o : few) {
        cases.push_back({n, i, o});
      }
    }
  }
  return cases;
}

// Runs `run(in, out, n)` on random input at the case's offsets and checks the output bytes exactly,
// and that the guard bytes around them are still poison.
template <class T, class Run>
void check_copy(const copy_case& c, Run run) {
  const std::size_t bytes = c.n * sizeof(T);
  INFO("n = " << c.n << ", sizeof(T) = " << sizeof(T) << ", alignof(T) = " << alignof(T)
              << ", in offset = " << c.in_offset << ", out offset = " << c.out_offset);
  device_buffer in(c.in_offset + bytes);
  device_buffer out(guard + c.out_offset + bytes + guard);
  std::vector<unsigned char> input(in.size());
  fill_random(input.data(), input.size());
  in.upload(input);
  out.poison();

  const auto* src = reinterpret_cast<const T*>(in.data() + c.in_offset);
  auto* dst = reinterpret_cast<T*>(out.data() + guard + c.out_offset);
  run(src, dst, c.n);
  GPUPRIMS_CHECK_LAUNCH();

  const std::vector<unsigned char> output = out.download();
  const unsigned char* body = output.data() + guard + c.out_offset;
  const std::size_t bad = first_mismatch(body, input.data() + c.in_offset, bytes);
  INFO("first wrong byte: " << bad);
  REQUIRE(bad == bytes);
  REQUIRE(first_unpoisoned(output.data(), guard + c.out_offset) == guard + c.out_offset);
  REQUIRE(first_unpoisoned(body + bytes, guard) == guard);
}

// Calls f(std::integral_constant<int, N>) for every N that vector_copy<N, T> accepts.
template <class T, class F>
void for_each_legal_n(F f) {
  f(std::integral_constant<int, 1>{});
  if constexpr (sizeof(T) <= 2) {
    f(std::integral_constant<int, 4 / sizeof(T)>{});
  }
  if constexpr (sizeof(T) <= 4) {
    f(std::integral_constant<int, 8 / sizeof(T)>{});
  }
  if constexpr (sizeof(T) <= 8) {
    f(std::integral_constant<int, 16 / sizeof(T)>{});
  }
}

}  // namespace

TEMPLATE_TEST_CASE("vector_copy<N> copies every byte for every legal N, size and offset", "[copy][gpu]",
                   (blob<1, 1>), (blob<2, 2>), (blob<4, 4>), (blob<8, 8>), (blob<16, 16>),
                   (blob<2, 1>), (blob<4, 1>), (blob<8, 1>), (blob<16, 1>)) {
  using T = TestType;
  for_each_legal_n<T>([](auto width) {
    constexpr int N = decltype(width)::value;
    INFO("N = " << N);
    for (const copy_case& c : copy_cases<T>(N)) {
      check_copy<T>(c, [](const T* in, T* out, std::size_t n) {
        REQUIRE(gpuprims::copy_vectorized<N>(in, out, n) == cudaSuccess);
      });
      check_copy<T>(c, [](const T* in, T* out, std::size_t n) {
        grid_copy_kernel<N><<<7, 96>>>(in, out, n);
      });
      check_copy<T>(c, [](const T* in, T* out, std::size_t n) {
        block_copy_kernel<N><<<1, 160>>>(in, out, n);
      });
    }
  });
}

TEMPLATE_TEST_CASE("gpuprims::copy copies any trivially copyable type at any offset", "[copy][gpu]",
                   (blob<1, 1>), (blob<2, 2>), (blob<4, 4>), (blob<8, 8>), (blob<16, 16>),
                   (blob<12, 4>), (blob<12, 1>), (blob<16, 1>)) {
  using T = TestType;
  for (const copy_case& c : copy_cases<T>(16 / alignof(T))) {
    check_copy<T>(c, [](const T* in, T* out, std::size_t n) {
      REQUIRE(gpuprims::copy(in, out, n) == cudaSuccess);
    });
  }
}

TEST_CASE("copy rejects bad arguments without launching", "[copy][gpu]") {
  device_buffer buffer(4096);
  buffer.poison();
  auto* data = reinterpret_cast<float*>(buffer.data());
  CHECK(gpuprims::copy(data, data + 1, 100) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(data + 1, data, 100) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy_vectorized<4>(data, data + 99, 100) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(data, data, 1) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(static_cast<const float*>(nullptr), data, 1) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy_vectorized<2>(data, static_cast<float*>(nullptr), 1) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(data, data + 512, 0) == cudaSuccess);
  CHECK(gpuprims::copy_vectorized<4>(data, data, 0) == cudaSuccess);
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> after = buffer.download();
  CHECK(first_unpoisoned(after.data(), after.size()) == after.size());
}

TEST_CASE("copy handles more than 2^31 int8 elements", "[copy][gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 77;
  const auto [in_offset, out_offset] = GENERATE(std::pair<std::size_t, std::size_t>{0, 0},
                                                std::pair<std::size_t, std::size_t>{5, 5},
                                                std::pair<std::size_t, std::size_t>{3, 0});
  const copy_case c{n, in_offset, out_offset};
  check_copy<std::int8_t>(c, [](const std::int8_t* in, std::int8_t* out, std::size_t count) {
    REQUIRE(gpuprims::copy(in, out, count) == cudaSuccess);
  });
  if (in_offset == out_offset) {
    check_copy<std::int8_t>(c, [](const std::int8_t* in, std::int8_t* out, std::size_t count) {
      REQUIRE(gpuprims::copy_vectorized<16>(in, out, count) == cudaSuccess);
    });
  }
}
