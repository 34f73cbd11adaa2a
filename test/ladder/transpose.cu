// Every rung of the transpose ladder against a CPU reference: element sizes 1 to 16 bytes, shapes
// around the tile size and far from it, dense, pitched and batched layouts, poisoned outputs whose
// padding must survive, grids past their limits.
#include <gpuprims/ladder/transpose.cuh>

#include "support/transpose_check.cuh"

#include <cstddef>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;
using gpuprims::ladder::transpose_rung;

template <transpose_rung Rung, class T>
cudaError_t run_rung(const void* in, void* out, const layout& l) {
  return gpuprims::ladder::transpose<Rung>(static_cast<const T*>(in), static_cast<T*>(out), l.rows,
                                           l.cols, l.in_pitch, l.out_pitch, l.batch, l.in_stride,
                                           l.out_stride);
}

template <transpose_rung Rung>
void add_rung(std::vector<transpose_subject>& subjects, const char* rung) {
  subjects.push_back({std::string(rung) + ", 1-byte", 1, &run_rung<Rung, blob<1, 1>>});
  subjects.push_back({std::string(rung) + ", 2-byte", 2, &run_rung<Rung, blob<2, 2>>});
  subjects.push_back({std::string(rung) + ", 4-byte", 4, &run_rung<Rung, blob<4, 4>>});
  subjects.push_back({std::string(rung) + ", 8-byte", 8, &run_rung<Rung, blob<8, 8>>});
  subjects.push_back({std::string(rung) + ", 16-byte", 16, &run_rung<Rung, blob<16, 16>>});
}

std::vector<transpose_subject> all_rungs() {
  std::vector<transpose_subject> subjects;
  add_rung<transpose_rung::naive>(subjects, "naive");
  add_rung<transpose_rung::shared_unpadded>(subjects, "shared_unpadded");
  add_rung<transpose_rung::shared_padded>(subjects, "shared_padded");
  add_rung<transpose_rung::register_4x4>(subjects, "register_4x4");
  add_rung<transpose_rung::register_2x2>(subjects, "register_2x2");
  return subjects;
}

}  // namespace

TEST_CASE("every transpose rung is exact on small and edge shapes", "[transpose][ladder][gpu]") {
  check_shapes(all_rungs(), {{1, 1}, {1, 7}, {7, 1}, {31, 33}, {32, 32}, {33, 31}, {1023, 517}});
}

TEST_CASE("every transpose rung is exact on large and tall shapes",
          "[transpose][ladder][gpu][large]") {
  check_shapes(all_rungs(), {{2048, 512}, {4097, 1025}, {1, (std::size_t{1} << 20) + 3}});
}

TEST_CASE("every transpose rung covers more tile rows than a grid holds",
          "[transpose][ladder][gpu][large]") {
  const std::size_t rows = 65537 * 64;
  for (const transpose_subject& subject : all_rungs()) {
    check_transpose(subject, {rows, 3, 3, rows, 1, rows * 3, 3 * rows});
  }
}

TEST_CASE("every transpose rung covers more matrices than a grid holds",
          "[transpose][ladder][gpu]") {
  const std::size_t batch = 65537;
  for (const transpose_subject& subject : all_rungs()) {
    check_transpose(subject, {2, 3, 4, 4, batch, 8, 12});
  }
}
