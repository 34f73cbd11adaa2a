// gpuprims::transpose against a CPU reference: element sizes 1 to 16 bytes, shapes around the tile
// size and far from it, dense, pitched and batched layouts, poisoned outputs whose padding must
// survive, the bulk-store path around edge tiles, grids past their limits, more than 2^31
// elements, and a caller's tuning.
#include <gpuprims/device/transpose.cuh>

#include "support/transpose_check.cuh"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;

// A caller's policy: 16 x 16 tiles of 64 threads, no padding, no bulk stores, no dependent launch.
struct small_tile_tuning {
  __host__ __device__ static constexpr gpuprims::transpose_policy select(int, std::size_t) {
    return {16, 4, 0, 0, 0, false, 0, false};
  }
};

template <class T, class Tuning = gpuprims::transpose_tuning>
cudaError_t run_transpose(const void* in, void* out, const layout& l) {
  return gpuprims::transpose<Tuning>(static_cast<const T*>(in), static_cast<T*>(out), l.rows,
                                     l.cols, l.in_pitch, l.out_pitch, l.batch, l.in_stride,
                                     l.out_stride);
}

template <class Tuning>
std::vector<transpose_subject> subjects(const std::string& name) {
  return {{name + ", 1-byte", 1, &run_transpose<blob<1, 1>, Tuning>},
          {name + ", 2-byte", 2, &run_transpose<blob<2, 2>, Tuning>},
          {name + ", 4-byte", 4, &run_transpose<blob<4, 4>, Tuning>},
          {name + ", 8-byte", 8, &run_transpose<blob<8, 8>, Tuning>},
          {name + ", 16-byte", 16, &run_transpose<blob<16, 16>, Tuning>}};
}

const transpose_subject default_1byte{"default, 1-byte", 1, &run_transpose<blob<1, 1>>};
const transpose_subject default_4byte{"default, 4-byte", 4, &run_transpose<blob<4, 4>>};

}  // namespace

TEST_CASE("transpose is exact on small and edge shapes", "[transpose][gpu]") {
  check_shapes(
      subjects<gpuprims::transpose_tuning>("default"),
      {{1, 1}, {1, 7}, {7, 1}, {31, 33}, {32, 32}, {33, 31}, {63, 65}, {64, 64}, {1023, 517}});
}

TEST_CASE("transpose runs a caller's tuning", "[transpose][gpu]") {
  check_shapes(subjects<small_tile_tuning>("16 x 16 tiles"),
               {{1, 1}, {15, 17}, {16, 16}, {333, 77}});
}

TEST_CASE("transpose is exact on large and tall shapes", "[transpose][gpu][large]") {
  check_shapes(subjects<gpuprims::transpose_tuning>("default"),
               {{2048, 512}, {4097, 1025}, {1, (std::size_t{1} << 20) + 3}});
}

TEST_CASE("transpose handles a matrix of more than 2^31 int8 elements", "[transpose][gpu][large]") {
  // 46341^2 = 2^31 + 4633: 64-bit indices on every path.
  const transpose_subject subject{"default, int8", 1, &run_transpose<std::int8_t>};
  check_transpose(subject, {46341, 46341, 46341, 46341, 1, 46341ull * 46341, 46341ull * 46341});
}

// More tiles along y than gridDim.y allows (65535): the kernel's grid-stride loop covers the rest.
TEST_CASE("transpose covers more tile rows than a grid holds", "[transpose][gpu]") {
  const std::size_t rows = 65537 * 64;
  check_transpose(default_1byte, {rows, 3, 3, rows, 1, rows * 3, 3 * rows});
}

// The one-block-per-tile grid puts tile columns on y (rows go first, on x): past 65535 of them the
// kernel falls back to its grid-stride loop.
TEST_CASE("transpose covers more tile columns than a grid holds", "[transpose][gpu]") {
  const std::size_t cols = 65537 * 64;
  check_transpose(default_1byte, {3, cols, cols, 3, 1, 3 * cols, cols * 3});
}

TEST_CASE("transpose covers more matrices than a grid holds, every element size",
          "[transpose][gpu]") {
  const std::size_t batch = 65537;
  for (const transpose_subject& subject : subjects<gpuprims::transpose_tuning>("default")) {
    check_transpose(subject, {2, 3, 4, 4, batch, 8, 12});
  }
}

// The bulk stores (on sm_90 and later: float matrices of 32 MiB and more whose output rows start
// 16-byte aligned): whole tiles through the copy engine and edge tiles element by element in one
// launch, pitched, batched and offset by 16 bytes; the same with output rows not so aligned
// (ordinary stores throughout).
TEST_CASE("the default's bulk stores are exact around edge tiles, pitches and batches",
          "[transpose][gpu]") {
  check_transpose(default_4byte, {4097, 2049, 2051, 4112, 1, 4097 * 2051, 2049 * 4112, 0, 4});
  check_transpose(default_4byte,
                  {2050, 2047, 2047, 2064, 2, 2050 * 2047 + 3, 2047 * 2064 + 16, 1, 0});
  check_transpose(default_4byte, {4097, 2049, 2049, 4099, 1, 4097 * 2049, 2049 * 4099});
}

// ... and in their grid-stride form: more matrices than gridDim.z holds, each one whole tile.
TEST_CASE("the default's bulk stores cover more matrices than a grid holds",
          "[transpose][gpu][slow]") {
  const std::size_t batch = 65537;
  check_transpose(default_4byte, {64, 64, 64, 64, batch, 64 * 64, 64 * 64});
}
