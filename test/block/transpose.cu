// tiled_transpose in user kernels: the tile method (pointers, partial tiles clipped) and the
// register method (the kernel loads and stores the items itself), for several tiles, pads and
// element types, against a CPU transpose, with poisoned outputs whose padding must survive.
#include <gpuprims/block/transpose.cuh>

#include "support/transpose_check.cuh"

#include <cstddef>
#include <string>
#include <vector>

// Outside the anonymous namespace: nvcc's generated launch stubs cannot name kernel templates
// declared in one once a using-directive is in scope.
namespace block_transpose_test {

template <int Tile, int Pad, class T, int Rows>
__global__ void tile_kernel(const T* in, T* out, std::size_t rows, std::size_t cols,
                            std::size_t in_pitch, std::size_t out_pitch) {
  using tile_t = gpuprims::tiled_transpose<Tile, Pad, T, Rows>;
  __shared__ typename tile_t::storage s;
  tile_t(s).transpose(in, in_pitch, out, out_pitch, rows, cols, blockIdx.y * std::size_t{Tile},
                      blockIdx.x * std::size_t{Tile});
}

template <int Tile, int Pad, class T, int Rows>
__global__ void items_kernel(const T* in, T* out, std::size_t rows, std::size_t cols,
                             std::size_t in_pitch, std::size_t out_pitch) {
  using tile_t = gpuprims::tiled_transpose<Tile, Pad, T, Rows>;
  __shared__ typename tile_t::storage s;
  const std::size_t row0 = blockIdx.y * std::size_t{Tile}, col0 = blockIdx.x * std::size_t{Tile};
  T items[tile_t::items_per_thread] = {};  // items outside the matrix are carried, never stored
  for (int k = 0; k < tile_t::items_per_thread; ++k) {
    const std::size_t r = row0 + threadIdx.y + k * Rows, c = col0 + threadIdx.x;
    if (r < rows && c < cols) {
      items[k] = in[r * in_pitch + c];
    }
  }
  tile_t(s).transpose(items);
  for (int k = 0; k < tile_t::items_per_thread; ++k) {
    const std::size_t r = col0 + threadIdx.y + k * Rows,
                      c = row0 + threadIdx.x;  // row and column of out
    if (r < cols && c < rows) {
      out[r * out_pitch + c] = items[k];
    }
  }
}

}  // namespace block_transpose_test

namespace {

using namespace gpuprims::test;

template <bool Items, int Tile, int Pad, class T, int Rows>
cudaError_t run_kernel(const void* in, void* out, const layout& l) {
  const dim3 grid(static_cast<unsigned>((l.cols + Tile - 1) / Tile),
                  static_cast<unsigned>((l.rows + Tile - 1) / Tile));
  const dim3 block(Tile, Rows);
  if constexpr (Items) {
    block_transpose_test::items_kernel<Tile, Pad, T, Rows><<<grid, block>>>(
        static_cast<const T*>(in), static_cast<T*>(out), l.rows, l.cols, l.in_pitch, l.out_pitch);
  } else {
    block_transpose_test::tile_kernel<Tile, Pad, T, Rows><<<grid, block>>>(
        static_cast<const T*>(in), static_cast<T*>(out), l.rows, l.cols, l.in_pitch, l.out_pitch);
  }
  return cudaGetLastError();
}

template <bool Items>
std::vector<transpose_subject> subjects() {
  const std::string method = Items ? "items" : "tile";
  return {{"tiled_transpose<32, 1, float>, " + method, 4, &run_kernel<Items, 32, 1, blob<4, 4>, 8>},
          {"tiled_transpose<32, 0, float, 32>, " + method, 4,
           &run_kernel<Items, 32, 0, blob<4, 4>, 32>},
          {"tiled_transpose<64, 4, char>, " + method, 1, &run_kernel<Items, 64, 4, blob<1, 1>, 8>},
          {"tiled_transpose<16, 1, 16-byte>, " + method, 16,
           &run_kernel<Items, 16, 1, blob<16, 16>, 4>}};
}

}  // namespace

TEST_CASE("tiled_transpose's tile method transposes full and partial tiles",
          "[transpose][block][gpu]") {
  for (const transpose_subject& subject : subjects<false>()) {
    DYNAMIC_SECTION(subject.name) {
      for (const auto& [rows, cols] :
           {std::pair<std::size_t, std::size_t>{1, 1}, {7, 33}, {64, 64}, {130, 97}}) {
        check_transpose(subject,
                        {rows, cols, cols + 3, rows + 1, 1, rows * (cols + 3), cols * (rows + 1)});
      }
    }
  }
}

TEST_CASE("tiled_transpose's items method transposes what each thread holds",
          "[transpose][block][gpu]") {
  for (const transpose_subject& subject : subjects<true>()) {
    DYNAMIC_SECTION(subject.name) {
      for (const auto& [rows, cols] :
           {std::pair<std::size_t, std::size_t>{1, 1}, {7, 33}, {64, 64}, {130, 97}}) {
        check_transpose(subject, {rows, cols, cols, rows, 1, rows * cols, cols * rows});
      }
    }
  }
}
