// The stencil launcher's argument checks: they run before any CUDA call, so they hold anywhere.
#include <gpuprims/detail/stencil/fused2d.cuh>
#include <gpuprims/detail/stencil/kernels3d.cuh>
#include <gpuprims/device/stencil.cuh>
#include <gpuprims/ladder/stencil.cuh>

#include "support/catch.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

float* fake(std::uintptr_t address) { return reinterpret_cast<float*>(address); }

const gpuprims::stencil_weights<float, 2> w{{1, 2, 3, 4, 5}};

}  // namespace

TEST_CASE("apply_stencil1d of nothing succeeds without looking at the pointers",
          "[stencil][args]") {
  CHECK(gpuprims::apply_stencil1d<2>(static_cast<const float*>(nullptr),
                                     static_cast<float*>(nullptr), 0, w) == cudaSuccess);
  // rows, cols, in_pitch, out_pitch: no rows.
  CHECK(gpuprims::apply_stencil1d<2>(static_cast<const float*>(nullptr),
                                     static_cast<float*>(nullptr), 0, 5, 5, 5, w) == cudaSuccess);
}

TEST_CASE("apply_stencil1d rejects null pointers, short pitches and unknown boundary modes",
          "[stencil][args]") {
  const float* in = fake(0x100000);
  float* out = fake(0x900000);
  CHECK(gpuprims::apply_stencil1d<2>(static_cast<const float*>(nullptr), out, 4, w) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d<2>(in, static_cast<float*>(nullptr), 4, w) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d<2>(in, out, 2, 8, 7, 8, w) ==
        cudaErrorInvalidValue);  // in pitch < cols
  CHECK(gpuprims::apply_stencil1d<2>(in, out, 2, 8, 8, 7, w) ==
        cudaErrorInvalidValue);  // out pitch < cols
  gpuprims::boundary odd{};
  odd.mode = static_cast<gpuprims::boundary_mode>(42);
  CHECK(gpuprims::apply_stencil1d<2>(in, out, 8, w, odd) == cudaErrorInvalidValue);
}

TEST_CASE("apply_stencil1d is out of place: in place or overlapping spans are rejected",
          "[stencil][args]") {
  float* a = fake(0x100000);
  CHECK(gpuprims::apply_stencil1d<2>(a, a, 16, w) == cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d<2>(a, a + 15, 16, w) ==
        cudaErrorInvalidValue);  // last in element, first out element
  CHECK(gpuprims::apply_stencil1d<2>(a + 15, a, 16, w) == cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d<2>(a, a + 64 + 20, 4, 10, 64, 64, w) ==
        cudaErrorInvalidValue);  // in a pitch gap
  CHECK(gpuprims::ladder::apply_stencil1d<2, gpuprims::ladder::stencil_rung::naive>(
            a, a + 3, 16, w) == cudaErrorInvalidValue);
}

TEST_CASE("apply_stencil1d rejects spans that overflow", "[stencil][args]") {
  const std::size_t huge = std::size_t{1} << 62;
  CHECK(gpuprims::apply_stencil1d<2>(fake(0x100000), fake(0x900000), huge, 8, huge, 8, w) ==
        cudaErrorInvalidValue);
}

// The order apply_stencil3d's streaming kernel takes a grid's full strips in (host code, so it is
// checked here): every (chunk, strip) exactly once, and a strip's next chunk in its column `stride`
// chunks of the block later, for layers smaller and larger than the warps planned for.
TEST_CASE("apply_stencil3d's strip order takes every strip of every chunk once",
          "[stencil][order]") {
  for (std::size_t strips = 1; strips <= 24; ++strips) {
    for (std::size_t chunks = 1; chunks <= 17; ++chunks) {
      for (std::size_t warps : {0, 1, 2, 3, 5, 7, 11, 16, 24, 40, 100}) {
        const auto o = gpuprims::detail::strip3d_order::plan(strips, chunks, warps);
        std::vector<std::size_t> where(strips * chunks, strips * chunks);
        bool once = true, spaced = true;
        for (std::size_t r = 0; r < strips * chunks; ++r) {
          std::size_t c = chunks, s = strips;
          o.locate(r, strips, chunks, c, s);
          if (c >= chunks || s >= strips || where[c * strips + s] != strips * chunks) {
            once = false;
            break;
          }
          where[c * strips + s] = r;
        }
        const std::size_t k = (chunks + o.stride - 1) / o.stride;
        const std::size_t full = o.stride - (k * o.stride - chunks);
        for (std::size_t c = 0; once && c + 1 < chunks; ++c) {
          // Chunk c + 1 starts a column where the columns before it hold c + 1 chunks.
          bool column_start = false;
          for (std::size_t i = 0, start = 0; i <= o.stride; start += i < full ? k : k - 1, ++i) {
            column_start = column_start || start == c + 1;
          }
          for (std::size_t s = 0; s < strips && !column_start; ++s) {
            const std::size_t first = s / o.block * o.block;
            const std::size_t width = strips - first < o.block ? strips - first : o.block;
            spaced =
                spaced && where[(c + 1) * strips + s] == where[c * strips + s] + o.stride * width;
          }
        }
        INFO("strips " << strips << ", chunks " << chunks << ", warps " << warps << ": block "
                       << o.block << ", stride " << o.stride);
        CHECK(once);
        CHECK(spaced);
        CHECK(o.block == (strips < warps ? strips : (warps > 0 ? warps : 1)));
        CHECK(o.stride >= 1);
        CHECK(o.stride <= chunks);
      }
    }
  }
}

// The order apply_stencil2d_fused's streaming kernel takes a grid's strips in (host code, checked
// here): every strip exactly once, and the positions of a block's warps (aligned groups of
// `warps`) strips of one column.
TEST_CASE("apply_stencil2d_fused's strip order takes every strip once, a block down one column",
          "[stencil][order]") {
  for (std::size_t strips_x = 1; strips_x <= 9; ++strips_x) {
    for (std::size_t strips_y = 1; strips_y <= 13; ++strips_y) {
      for (std::size_t warps : {1, 2, 3, 4, 8}) {
        const gpuprims::detail::fused2d_strip_order order{strips_x, strips_y, warps};
        std::vector<int> taken(strips_x * strips_y, 0);
        bool in_range = true, one_column = true;
        for (std::size_t r = 0; r < order.size(); ++r) {
          std::size_t sx = strips_x, sy = strips_y, bx = strips_x, by = strips_y;
          const bool strip = order.locate(r, sx, sy);
          order.locate(r / warps * warps, bx, by);
          in_range = in_range && sx < strips_x && sy < strips_y + warps;
          one_column = one_column && sx == bx;
          if (strip && sx < strips_x && sy < strips_y) {
            ++taken[sy * strips_x + sx];
          }
        }
        INFO("strips " << strips_x << " x " << strips_y << ", warps " << warps);
        CHECK(order.size() % warps == 0);
        CHECK(in_range);
        CHECK(one_column);
        bool once = true;
        for (const int t : taken) {
          once = once && t == 1;
        }
        CHECK(once);
      }
    }
  }
}
