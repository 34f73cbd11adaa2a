// The copy tests' checking code, written once for every element type: a subject is a launch that
// copies n elements of a given size and alignment; check_subject runs it over sizes and offsets.
#pragma once

#include "support/test_support.cuh"

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace gpuprims::test {

struct copy_subject {
  std::string name;
  std::size_t size;       // sizeof(T)
  std::size_t alignment;  // alignof(T)
  int vector;             // elements per vector access (N)
  cudaError_t (*run)(const void* in, void* out, std::size_t n);
};

struct copy_case {
  std::size_t n, in_offset, out_offset;
};

inline constexpr std::size_t copy_guard = 64;  // poisoned bytes on each side of the output

// Sizes around the vector width, random ones and a large odd one; every pair of byte offsets for a
// size whose copies have a head, a vector body and a tail, a few pairs for the rest.
inline std::vector<copy_case> copy_cases(std::size_t alignment, std::size_t vec) {
  std::vector<std::size_t> offsets;
  for (std::size_t off = 0; off < 16; off += alignment) {
    offsets.push_back(off);
  }
  const std::vector<std::size_t> few = {0, alignment % 16, offsets.back()};
  std::vector<copy_case> cases;
  for (std::size_t i : offsets) {
    for (std::size_t o : offsets) {
      cases.push_back({vec * 37 + 3, i, o});
    }
  }
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, vec - 1, vec + 1,
        random_size(16, 4099), random_size(4100, 300000), std::size_t{1000003}}) {
    for (std::size_t i : few) {
      for (std::size_t o : few) {
        cases.push_back({n, i, o});
      }
    }
  }
  return cases;
}

// Device buffers big enough for every case of a subject, reused across its cases.
struct copy_buffers {
  explicit copy_buffers(std::size_t max_bytes)
      : in(16 + max_bytes), out(copy_guard + 16 + max_bytes + copy_guard), input(in.size()) {}
  device_buffer in, out;
  std::vector<unsigned char> input, output;
};

// Runs the subject on fresh random input at the case's offsets; checks every output byte and that
// the guard bytes around the output are still poison.
inline void check_copy(const copy_subject& subject, const copy_case& c, copy_buffers& buffers) {
  const std::size_t bytes = c.n * subject.size;
  const std::size_t out_span = copy_guard + c.out_offset + bytes + copy_guard;
  INFO(subject.name << ": n = " << c.n << ", in offset = " << c.in_offset
                    << ", out offset = " << c.out_offset);
  REQUIRE(c.in_offset + bytes <= buffers.in.size());
  REQUIRE(out_span <= buffers.out.size());
  fill_random(buffers.input.data(), c.in_offset + bytes);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(buffers.in.data(), buffers.input.data(), c.in_offset + bytes,
                                 cudaMemcpyHostToDevice));
  GPUPRIMS_CHECK_CUDA(cudaMemset(buffers.out.data(), poison_byte, out_span));

  GPUPRIMS_CHECK_CUDA(subject.run(buffers.in.data() + c.in_offset,
                                  buffers.out.data() + copy_guard + c.out_offset, c.n));
  GPUPRIMS_CHECK_LAUNCH();

  buffers.output.resize(out_span);
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(buffers.output.data(), buffers.out.data(), out_span, cudaMemcpyDeviceToHost));
  const unsigned char* body = buffers.output.data() + copy_guard + c.out_offset;
  const std::size_t bad = first_mismatch(body, buffers.input.data() + c.in_offset, bytes);
  INFO("first wrong byte: " << bad << " of " << bytes);
  REQUIRE(bad == bytes);
  REQUIRE(first_unpoisoned(buffers.output.data(), copy_guard + c.out_offset) ==
          copy_guard + c.out_offset);
  REQUIRE(first_unpoisoned(body + bytes, copy_guard) == copy_guard);
}

inline void check_subject(const copy_subject& subject) {
  const std::vector<copy_case> cases =
      copy_cases(subject.alignment, static_cast<std::size_t>(subject.vector));
  std::size_t max_bytes = 0;
  for (const copy_case& c : cases) {
    max_bytes = c.n * subject.size > max_bytes ? c.n * subject.size : max_bytes;
  }
  copy_buffers buffers(max_bytes);
  for (const copy_case& c : cases) {
    check_copy(subject, c, buffers);
  }
}

template <class T>
struct type_tag {
  using type = T;
};

// fn(integral_constant<int, N>, type_tag<T>, name) for every (T, N) that vector_copy<N, T> accepts,
// over element types of every size and alignment: N == 1, and the N that make 4-, 8- and 16-byte
// vectors.
template <class Fn>
void for_each_legal_width(Fn&& fn) {
  auto widths = [&](auto tag, const char* name) {
    using T = typename decltype(tag)::type;
    fn(std::integral_constant<int, 1>{}, tag, name);
    if constexpr (sizeof(T) <= 2) {
      fn(std::integral_constant<int, 4 / sizeof(T)>{}, tag, name);
    }
    if constexpr (sizeof(T) <= 4) {
      fn(std::integral_constant<int, 8 / sizeof(T)>{}, tag, name);
    }
    if constexpr (sizeof(T) <= 8) {
      fn(std::integral_constant<int, 16 / sizeof(T)>{}, tag, name);
    }
  };
  widths(type_tag<blob<1, 1>>{}, "blob<1, 1>");
  widths(type_tag<blob<2, 2>>{}, "blob<2, 2>");
  widths(type_tag<blob<4, 4>>{}, "blob<4, 4>");
  widths(type_tag<blob<8, 8>>{}, "blob<8, 8>");
  widths(type_tag<blob<16, 16>>{}, "blob<16, 16>");
  widths(type_tag<blob<2, 1>>{}, "blob<2, 1>");
  widths(type_tag<blob<4, 1>>{}, "blob<4, 1>");
  widths(type_tag<blob<8, 1>>{}, "blob<8, 1>");
  widths(type_tag<blob<16, 1>>{}, "blob<16, 1>");
}

}  // namespace gpuprims::test
