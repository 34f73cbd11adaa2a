// Every rung of the transpose ladder against a CPU reference: element sizes 1 to 16 bytes, shapes
// around the tile size and far from it, dense, pitched and batched layouts, poisoned outputs whose
// padding must survive. Type-erased like the copy tests, so each (rung, T) instantiates one launch.
#include <gpuprims/transpose.cuh>

#include "support/test_support.cuh"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;
using gpuprims::transpose_algorithm;

struct layout {
  std::size_t rows, cols, in_pitch, out_pitch, batch, in_stride, out_stride;
  std::size_t in_offset = 0, out_offset = 0;  // elements past the allocation's (256-byte aligned) start
};

struct transpose_subject {
  std::string name;
  std::size_t size;  // sizeof(T)
  cudaError_t (*run)(const void* in, void* out, const layout& l);
};

template <transpose_algorithm A, class T>
cudaError_t run_transpose(const void* in, void* out, const layout& l) {
  return gpuprims::transpose<A>(static_cast<const T*>(in), static_cast<T*>(out), l.rows, l.cols, l.in_pitch,
                                l.out_pitch, l.batch, l.in_stride, l.out_stride);
}

template <transpose_algorithm A>
void add_rung(std::vector<transpose_subject>& subjects, const char* rung) {
  subjects.push_back({std::string(rung) + ", 1-byte", 1, &run_transpose<A, blob<1, 1>>});
  subjects.push_back({std::string(rung) + ", 2-byte", 2, &run_transpose<A, blob<2, 2>>});
  subjects.push_back({std::string(rung) + ", 4-byte", 4, &run_transpose<A, blob<4, 4>>});
  subjects.push_back({std::string(rung) + ", 8-byte", 8, &run_transpose<A, blob<8, 8>>});
  subjects.push_back({std::string(rung) + ", 16-byte", 16, &run_transpose<A, blob<16, 16>>});
}

std::vector<transpose_subject> all_subjects() {
  std::vector<transpose_subject> subjects;
  add_rung<transpose_algorithm::naive>(subjects, "naive");
  add_rung<transpose_algorithm::shared_unpadded>(subjects, "shared_unpadded");
  add_rung<transpose_algorithm::shared_padded>(subjects, "shared_padded");
  add_rung<transpose_algorithm::register_4x4>(subjects, "register_4x4");
  add_rung<transpose_algorithm::register_2x2>(subjects, "register_2x2");
  add_rung<transpose_algorithm::automatic>(subjects, "automatic");
  return subjects;
}

// Dense; pitches longer than a row (mostly not multiples of 4: the register rungs then go element
// by element); pitches that are multiples of 4 (the register rungs vectorise); the same base
// pointers shifted by one element (vectors impossible); a batch of 3 with strides longer than a
// matrix, once with odd and once with 4-aligned pitches and strides.
std::vector<layout> layouts(std::size_t rows, std::size_t cols) {
  const std::size_t in_pitch4 = (cols + 3) / 4 * 4 + 4, out_pitch4 = (rows + 3) / 4 * 4 + 8;
  return {{rows, cols, cols, rows, 1, rows * cols, rows * cols},
          {rows, cols, cols + 3, rows + 5, 1, rows * (cols + 3), cols * (rows + 5)},
          {rows, cols, in_pitch4, out_pitch4, 1, rows * in_pitch4, cols * out_pitch4},
          {rows, cols, in_pitch4, out_pitch4, 1, rows * in_pitch4, cols * out_pitch4, 1, 1},
          {rows, cols, cols + 1, rows + 2, 3, rows * (cols + 1) + 7, cols * (rows + 2) + 11},
          {rows, cols, in_pitch4, out_pitch4, 3, rows * in_pitch4 + 8, cols * out_pitch4 + 4}};
}

std::size_t span(std::size_t batch, std::size_t stride, std::size_t rows, std::size_t pitch, std::size_t cols) {
  return (batch - 1) * stride + (rows - 1) * pitch + cols;
}

// Runs the subject on random input; checks every output element against the transpose of the input
// and every other byte of the output span (row padding, gaps between batches) for poison.
void check_transpose(const transpose_subject& subject, const layout& l) {
  const std::size_t e = subject.size;
  INFO(subject.name << ": " << l.rows << " x " << l.cols << ", pitches " << l.in_pitch << " / " << l.out_pitch
                    << ", batch " << l.batch << ", strides " << l.in_stride << " / " << l.out_stride
                    << ", offsets " << l.in_offset << " / " << l.out_offset);
  const std::size_t in_bytes = (l.in_offset + span(l.batch, l.in_stride, l.rows, l.in_pitch, l.cols)) * e;
  const std::size_t out_bytes = (l.out_offset + span(l.batch, l.out_stride, l.cols, l.out_pitch, l.rows)) * e;
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
  INFO("wrong elements: " << wrong << ", first at batch " << first_b << ", in[" << first_r << "][" << first_c << "]");
  REQUIRE(wrong == 0);
  REQUIRE(first_unpoisoned(output.data(), output.size()) == output.size());
}

void check_shapes(const std::vector<std::pair<std::size_t, std::size_t>>& shapes) {
  for (const transpose_subject& subject : all_subjects()) {
    DYNAMIC_SECTION(subject.name) {
      for (const auto& [rows, cols] : shapes) {
        for (const layout& l : layouts(rows, cols)) {
          check_transpose(subject, l);
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("every transpose rung is exact on small and edge shapes", "[transpose][gpu]") {
  check_shapes({{1, 1}, {1, 7}, {7, 1}, {31, 33}, {32, 32}, {33, 31}, {1023, 517}});
}

TEST_CASE("every transpose rung is exact on large and tall shapes", "[transpose][gpu][large]") {
  check_shapes({{2048, 512}, {4097, 1025}, {1, (std::size_t{1} << 20) + 3}});
}

TEST_CASE("transpose handles a matrix of more than 2^31 int8 elements", "[transpose][gpu][large]") {
  // 46341^2 = 2^31 + 4633: 64-bit indices on every path.
  const transpose_subject subject{"automatic, int8", 1, &run_transpose<transpose_algorithm::automatic, std::int8_t>};
  check_transpose(subject, {46341, 46341, 46341, 46341, 1, 46341ull * 46341, 46341ull * 46341});
}

// More tiles along y than gridDim.y allows (65535) and more matrices than gridDim.z allows: the
// kernels loop over the rest. Every rung's tiles are at most 64 rows tall.
TEST_CASE("transpose covers more tile rows than a grid holds", "[transpose][gpu]") {
  const transpose_subject subject{"automatic, 1-byte", 1, &run_transpose<transpose_algorithm::automatic, blob<1, 1>>};
  const std::size_t rows = 65537 * 64;
  check_transpose(subject, {rows, 3, 3, rows, 1, rows * 3, 3 * rows});
}

// The one-block-per-tile grid puts tile columns on y (rows go first, on x): past 65535 of them the
// shared kernels fall back to their grid-stride loop.
TEST_CASE("transpose covers more tile columns than a grid holds", "[transpose][gpu]") {
  const transpose_subject subject{"automatic, 1-byte", 1, &run_transpose<transpose_algorithm::automatic, blob<1, 1>>};
  const std::size_t cols = 65537 * 64;
  check_transpose(subject, {3, cols, cols, 3, 1, 3 * cols, cols * 3});
}

TEST_CASE("every transpose rung covers more tile rows than a grid holds", "[transpose][gpu][large]") {
  const std::size_t rows = 65537 * 64;
  for (const transpose_subject& subject : all_subjects()) {
    check_transpose(subject, {rows, 3, 3, rows, 1, rows * 3, 3 * rows});
  }
}

TEST_CASE("every transpose rung covers more matrices than a grid holds", "[transpose][gpu]") {
  const std::size_t batch = 65537;
  for (const transpose_subject& subject : all_subjects()) {
    check_transpose(subject, {2, 3, 4, 4, batch, 8, 12});
  }
}

// The default's bulk stores (float matrices of 32 MiB and more whose output rows start 16-byte
// aligned): whole tiles through the copy engine and edge tiles element by element in one launch,
// pitched, batched and offset by 16 bytes; the same with output rows not so aligned (ordinary
// stores throughout).
TEST_CASE("the default's bulk stores are exact around edge tiles, pitches and batches", "[transpose][gpu]") {
  const transpose_subject subject{"automatic, 4-byte", 4, &run_transpose<transpose_algorithm::automatic, blob<4, 4>>};
  check_transpose(subject, {4097, 2049, 2051, 4112, 1, 4097 * 2051, 2049 * 4112, 0, 4});
  check_transpose(subject, {2050, 2047, 2047, 2064, 2, 2050 * 2047 + 3, 2047 * 2064 + 16, 1, 0});
  check_transpose(subject, {4097, 2049, 2049, 4099, 1, 4097 * 2049, 2049 * 4099});
}

// ... and in their grid-stride form: more matrices than gridDim.z holds, each one whole tile.
TEST_CASE("the default's bulk stores cover more matrices than a grid holds", "[transpose][gpu][slow]") {
  const transpose_subject subject{"automatic, 4-byte", 4, &run_transpose<transpose_algorithm::automatic, blob<4, 4>>};
  const std::size_t batch = 65537;
  check_transpose(subject, {64, 64, 64, 64, batch, 64 * 64, 64 * 64});
}
