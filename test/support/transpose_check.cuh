// The transpose tests' checking code, written once for every element type: a subject is a launch
// that transposes a layout (shape, pitches, batch, offsets) of elements of a given size;
// check_transpose runs it on random input and checks every element and every padding byte.
#pragma once

#include "support/test_support.cuh"

#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace gpuprims::test {

struct layout {
  std::size_t rows, cols, in_pitch, out_pitch, batch, in_stride, out_stride;
  std::size_t in_offset = 0,
              out_offset = 0;  // elements past the allocation's (256-byte aligned) start
};

struct transpose_subject {
  std::string name;
  std::size_t size;  // sizeof(T)
  cudaError_t (*run)(const void* in, void* out, const layout& l);
};

// Dense; pitches longer than a row (mostly not multiples of 4: the register rungs then go element
// by element); pitches that are multiples of 4 (the register rungs vectorise); the same base
// pointers shifted by one element (vectors impossible); a batch of 3 with strides longer than a
// matrix, once with odd and once with 4-aligned pitches and strides.
inline std::vector<layout> layouts(std::size_t rows, std::size_t cols) {
  const std::size_t in_pitch4 = (cols + 3) / 4 * 4 + 4, out_pitch4 = (rows + 3) / 4 * 4 + 8;
  return {{rows, cols, cols, rows, 1, rows * cols, rows * cols},
          {rows, cols, cols + 3, rows + 5, 1, rows * (cols + 3), cols * (rows + 5)},
          {rows, cols, in_pitch4, out_pitch4, 1, rows * in_pitch4, cols * out_pitch4},
          {rows, cols, in_pitch4, out_pitch4, 1, rows * in_pitch4, cols * out_pitch4, 1, 1},
          {rows, cols, cols + 1, rows + 2, 3, rows * (cols + 1) + 7, cols * (rows + 2) + 11},
          {rows, cols, in_pitch4, out_pitch4, 3, rows * in_pitch4 + 8, cols * out_pitch4 + 4}};
}

inline std::size_t span(std::size_t batch, std::size_t stride, std::size_t rows, std::size_t pitch,
                        std::size_t cols) {
  return (batch - 1) * stride + (rows - 1) * pitch + cols;
}

// Runs the subject on random input; checks every output element against the transpose of the input
// and every other byte of the output span (row padding, gaps between batches) for poison.
inline void check_transpose(const transpose_subject& subject, const layout& l) {
  const std::size_t e = subject.size;
  INFO(subject.name << ": " << l.rows << " x " << l.cols << ", pitches " << l.in_pitch << " / "
                    << l.out_pitch << ", batch " << l.batch << ", strides " << l.in_stride << " / "
                    << l.out_stride << ", offsets " << l.in_offset << " / " << l.out_offset);
  const std::size_t in_bytes =
      (l.in_offset + span(l.batch, l.in_stride, l.rows, l.in_pitch, l.cols)) * e;
  const std::size_t out_bytes =
      (l.out_offset + span(l.batch, l.out_stride, l.cols, l.out_pitch, l.rows)) * e;
  device_buffer in(in_bytes), out(out_bytes);
  std::vector<unsigned char> input(in_bytes);
  fill_random(input.data(), input.size());
  in.upload(input);
  out.poison();
  GPUPRIMS_CHECK_CUDA(subject.run(in.data() + l.in_offset * e, out.data() + l.out_offset * e, l));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<unsigned char> output = out.download();

  // Walk the matrix in 64 x 64 blocks so that the strided side stays in cache.
  std::size_t wrong = 0, first_b = 0, first_r = 0, first_c = 0;
  const unsigned char* in_base = input.data() + l.in_offset * e;
  unsigned char* out_base = output.data() + l.out_offset * e;
  constexpr std::size_t block = 64;
  for (std::size_t b = 0; b < l.batch; ++b) {
    for (std::size_t r0 = 0; r0 < l.rows; r0 += block) {
      for (std::size_t c0 = 0; c0 < l.cols; c0 += block) {
        for (std::size_t r = r0; r < l.rows && r < r0 + block; ++r) {
          const unsigned char* src = in_base + (b * l.in_stride + r * l.in_pitch) * e;
          for (std::size_t c = c0; c < l.cols && c < c0 + block; ++c) {
            unsigned char* dst = out_base + (b * l.out_stride + c * l.out_pitch + r) * e;
            if (std::memcmp(dst, src + c * e, e) != 0 && wrong++ == 0) {
              first_b = b, first_r = r, first_c = c;
            }
            std::memset(dst, poison_byte, e);  // checked: what remains must all be poison
          }
        }
      }
    }
  }
  INFO("wrong elements: " << wrong << ", first at batch " << first_b << ", in[" << first_r << "]["
                          << first_c << "]");
  REQUIRE(wrong == 0);
  REQUIRE(first_unpoisoned(output.data(), output.size()) == output.size());
}

inline void check_shapes(const std::vector<transpose_subject>& subjects,
                         const std::vector<std::pair<std::size_t, std::size_t>>& shapes) {
  for (const transpose_subject& subject : subjects) {
    DYNAMIC_SECTION(subject.name) {
      for (const auto& [rows, cols] : shapes) {
        for (const layout& l : layouts(rows, cols)) {
          check_transpose(subject, l);
        }
      }
    }
  }
}

}  // namespace gpuprims::test
