// apply_stencil2d_fused's register-streaming form: Steps time steps of a 2D stencil by one warp
// marching down a strip, every step's rows in registers. The strip is 32 16-byte vectors wide (lane
// l one vector of columns, as in strip2d.cuh) and overlaps its neighbours: its outputs are the
// middle columns, `reach` (Steps x Rad rounded up to a vector) on each side recomputed as the steps
// shrink the valid part. Each input row loaded feeds a pipeline of windows: window s holds the last
// 2 Rad + 1 rows of step s (window 0 the input), and each row entering window s - 1 completes one
// row of step s, Rad rows above it. The pipeline starts Steps x Rad rows above the strip's first
// output row, computing don't-care rows while it fills (never stored, never read by a kept row).
//
// Every point goes through strip_point_row (stencil2d_point's chain). Outside the grid, after each
// step the x rule sets a row's columns from that row, then the y rule whole rows from that step's
// rows, the order of apply_stencil2d_fused's shared tile and fetch2d's, so the result equals Steps
// calls of apply_stencil2d bit for bit: a row below the grid is set when it is made (the rows its
// rule names are Rad or fewer rows up, still in its window), the rows above the grid when the next
// step reaches row 0 (the rows they copy are then in the window). A periodic axis is loaded wrapped
// and needs nothing.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/async_copy.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/detail/stencil/strip2d.cuh>
#include <gpuprims/detail/stencil/tile.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpuprims::detail {

// Columns a fused strip recomputes on each side (Steps x Rad rounded up to a vector, so that the
// strip's first column stays 16-byte aligned with its outputs), and its outputs' width.
template <int Rad, int Steps, class T>
inline constexpr int fused_strip_reach =
    (Steps * Rad + strip_vector<T> - 1) / strip_vector<T>* strip_vector<T>;
template <int Rad, int Steps, class T>
inline constexpr int fused_strip_outputs = strip_width<T> - 2 * fused_strip_reach<Rad, Steps, T>;

// r[k] for a run-time k in [0, N) (a chain of selects: registers cannot be indexed).
template <class Row, int N>
__device__ __forceinline__ Row pick_row(const Row (&r)[N], int k) {
  Row out = r[0];
#pragma unroll
  for (int j = 1; j < N; ++j) {
    if (j == k) {
      out = r[j];
    }
  }
  return out;
}

// Where the x rule takes each of a lane's columns from, the same for every row and step of a strip:
// -1 inside the grid (kept), -2 the constant, -3 a column outside the strip (never read by a kept
// column: kept), else the strip's column rel (lane rel / V, element rel % V).
template <class T>
__device__ __forceinline__ void strip_rule_x_sources(std::int64_t nx, std::int64_t xs,
                                                     const boundary& bx, int lane,
                                                     int (&from)[strip_vector<T>]) {
  constexpr int V = strip_vector<T>;
#pragma unroll
  for (int e = 0; e < V; ++e) {
    const std::int64_t gx = xs + static_cast<std::int64_t>(lane) * V + e;
    if (gx >= 0 && gx < nx) {
      from[e] = -1;
    } else if (bx.mode == boundary_mode::constant) {
      from[e] = -2;
    } else {
      const std::int64_t rel = boundary_index(gx, nx, bx.mode) - xs;
      from[e] = rel >= 0 && rel < strip_width<T> ? static_cast<int>(rel) : -3;
    }
  }
}

// A strip row's columns outside the grid set by the x rule from the row's own values (sources from
// strip_rule_x_sources). Every lane calls it.
template <class T>
__device__ __forceinline__ void strip_rule_x(strip_vec<T>& r, const int (&from)[strip_vector<T>],
                                             const boundary& bx) {
  constexpr int V = strip_vector<T>;
  const strip_vec<T> was = r;
#pragma unroll
  for (int e = 0; e < V; ++e) {
    const int rel = from[e] >= 0 ? from[e] : 0;
    T got = was.v[0];
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const T value = shuffle_from(was.v[k], rel / V);
      if (k == rel % V) {
        got = value;
      }
    }
    r.v[e] = from[e] >= 0 ? got : (from[e] == -2 ? static_cast<T>(bx.value) : r.v[e]);
  }
}

template <class T>
__device__ __forceinline__ void fill_row(strip_vec<T>& r, double value) {
#pragma unroll
  for (int e = 0; e < strip_vector<T>; ++e) {
    r.v[e] = static_cast<T>(value);
  }
}

// The strip whose outputs are [x0, x0 + fused_strip_outputs) x [y0, y0 + rows) (its first column
// xs = x0 - reach), by the calling warp. The input rows are copied ahead into `ring` (this warp's
// Ring slots of 16 bytes a lane) by background copies, Ring - 1 rows in flight without holding
// registers. Inner: every row and column the strip reads inside the grid, input and output rows
// 16-byte aligned at xs: running pointers, 16-byte copies, no rules, 16-byte stores. Otherwise
// each element of a row comes from where the rules place it (the row the y rule names, the column
// the x rule names, fixed for the strip), a lane's vector in one copy where it is whole and aligned
// inside the grid, else element by element; a rule's constant is set once the row has landed (the
// values strip_load_vector gives), and rules and checks apply to every step's rows.
template <int Rad, stencil_shape Shape, int Steps, int Ring, bool Inner, class T, class Weights>
__device__ __forceinline__ void fused_strip_march(const T* in, std::size_t in_pitch, T* out,
                                                  std::size_t out_pitch, std::int64_t nx,
                                                  std::int64_t ny, std::int64_t xs, std::int64_t y0,
                                                  int rows, const Weights& w, const boundary2d& b,
                                                  uint4 (*ring)[32], int lane) {
  static_assert(Ring >= 2, "a ring of 2 or more rows");
  constexpr int V = strip_vector<T>, Q = 2 * Rad + 1, H = Steps * Rad;
  constexpr int reach = fused_strip_reach<Rad, Steps, T>;
  const int n = rows + 2 * H;  // input rows, from y0 - H
  const bool output_lane = lane >= reach / V && lane < 32 - reach / V;
  // Running pointers (the inner march only: elsewhere xs may lie left of the grid).
  const T* src = Inner ? in + static_cast<std::size_t>(y0 - H) * in_pitch + xs + lane * V : in;
  T* dst = Inner ? out + static_cast<std::size_t>(y0) * out_pitch + xs + lane * V : out;
  // Outside the inner march: where each of the lane's elements comes from in a row (the column, or
  // -1 for the x rule's constant), and whether the lane's vector is whole inside the grid.
  std::int64_t col[V] = {};
  bool whole = false;
  if constexpr (!Inner) {
    const std::int64_t gx = xs + static_cast<std::int64_t>(lane) * V;
    whole = gx >= 0 && gx + V <= nx;
#pragma unroll
    for (int e = 0; e < V; ++e) {
      col[e] = gx + e >= 0 && gx + e < nx            ? gx + e
               : b.x.mode == boundary_mode::constant ? -1
                                                     : boundary_index(gx + e, nx, b.x.mode);
    }
  }
  // Whether input row i (row y0 - H + i) is the y rule's constant (outside the inner march).
  auto constant_row = [&](int i) {
    const std::int64_t gy = y0 - H + i;
    return (gy < 0 || gy >= ny) && b.y.mode == boundary_mode::constant;
  };
  // Starts the copies of input row i into `to`.
  auto issue = [&](int i, uint4* to) {
    if constexpr (Inner) {
      arch::async_copy(to, src);
      src += in_pitch;
    } else {
      if (constant_row(i)) {
        return;  // nothing to copy
      }
      const std::int64_t gy = y0 - H + i;
      const T* row = in + static_cast<std::size_t>(
                              gy >= 0 && gy < ny ? gy : boundary_index(gy, ny, b.y.mode)) *
                              in_pitch;
      if (whole && aligned16(row + col[0])) {
        arch::async_copy(to, row + col[0]);
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e) {
          if (col[e] >= 0) {
            arch::async_copy_small<sizeof(T)>(reinterpret_cast<T*>(to) + e, row + col[e]);
          }
        }
      }
    }
  };
  int slot = 0;  // the ring slot of input row i
#pragma unroll
  for (int a = 0; a + 1 < Ring; ++a) {
    if (a < n) {  // a strip shorter than the ring copies only its own rows
      issue(a, &ring[a][lane]);
    }
    arch::async_copy_commit();
  }
  strip_vec<T> win[Steps][Q];
#pragma unroll
  for (int s = 0; s < Steps; ++s) {
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      fill_row(win[s][k], 0.0);
    }
  }
  const bool rule_x =
      !Inner && (xs < 0 || xs + strip_width<T> > nx) && b.x.mode != boundary_mode::periodic;
  const bool rule_y = !Inner && b.y.mode != boundary_mode::periodic;
  int from[V] = {};
  if (rule_x) {
    strip_rule_x_sources<T>(nx, xs, b.x, lane, from);
  }
  // Unrolled by the window's length inside (the windows' shifts become renamings); a rolled loop
  // at the edges keeps their rules' registers off the inner march's count.
#pragma unroll(Inner ? Q : 1)
  for (int i = 0; i < n; ++i) {
    strip_vec<T> row;
    {
      // Row i + Ring - 1 into the slot row i - 1 left; then wait for row i's group.
      const int free = slot == 0 ? Ring - 1 : slot - 1;
      if (i + Ring - 1 < n) {
        issue(i + Ring - 1, &ring[free][lane]);
      }
      arch::async_copy_commit();
      arch::async_copy_wait<Ring - 1>();
      memcpy(row.v, &ring[slot][lane], sizeof(uint4));
      slot = slot + 1 == Ring ? 0 : slot + 1;
    }
    if constexpr (!Inner) {
      if (constant_row(i)) {
        fill_row(row, b.y.value);
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e) {
          if (col[e] < 0) {
            row.v[e] = static_cast<T>(b.x.value);
          }
        }
      }
    }
#pragma unroll
    for (int k = 0; k + 1 < Q; ++k) {
      win[0][k] = win[0][k + 1];
    }
    win[0][Q - 1] = row;
#pragma unroll
    for (int s = 1; s <= Steps; ++s) {
      const std::int64_t gy = y0 - H + i - s * Rad;  // the row of step s made now
      if (s > 1 && rule_y && gy == 0) {
        // Step s - 1's rows above the grid (window slots 0 .. Rad - 1), from its rows 0 .. Rad.
#pragma unroll
        for (int k = 0; k < Rad; ++k) {
          if (b.y.mode == boundary_mode::constant) {
            fill_row(win[s - 1][k], b.y.value);
          } else {
            win[s - 1][k] =
                pick_row(win[s - 1], Rad + static_cast<int>(boundary_index(k - Rad, ny, b.y.mode)));
          }
        }
      }
      strip_vec<T> made;
      strip_point_row<Rad, Shape, 0>(win[s - 1], w, lane, made.v);
      if (s < Steps) {
        if (rule_x) {
          strip_rule_x(made, from, b.x);
        }
        if (rule_y && gy >= ny) {  // below the grid: from this step's rows up to 2 Rad above
          if (b.y.mode == boundary_mode::constant) {
            fill_row(made, b.y.value);
          } else {
            const std::int64_t back = gy - boundary_index(gy, ny, b.y.mode);
            if (back <= 2 * Rad) {
              made = pick_row(win[s], Q - static_cast<int>(back));
            }
          }
        }
#pragma unroll
        for (int k = 0; k + 1 < Q; ++k) {
          win[s][k] = win[s][k + 1];
        }
        win[s][Q - 1] = made;
      } else if (i >= 2 * H) {  // an output row: y0 + i - 2 H
        if constexpr (Inner) {
          if (output_lane) {
            uint4 word;
            memcpy(&word, made.v, sizeof(word));
            store16(dst, word);
          }
          dst += out_pitch;
        } else if (output_lane) {
          strip_store_row(out, out_pitch, nx, ny, xs + static_cast<std::int64_t>(lane) * V, gy,
                          made.v);
        }
      }
    }
  }
  arch::async_copy_wait<0>();  // none left in flight into the ring the next strip reuses
}

// Steps steps of the strip with outputs [x0, x0 + fused_strip_outputs) x [y0, y0 + rows), by the
// calling warp (converged, every lane), with `ring` its Ring x 32 slots of shared memory.
template <int Rad, stencil_shape Shape, int Steps, int Ring, class T, class Weights>
__device__ __forceinline__ void stencil2d_fused_strip(const T* in, std::size_t in_pitch, T* out,
                                                      std::size_t out_pitch, std::int64_t nx,
                                                      std::int64_t ny, std::int64_t x0,
                                                      std::int64_t y0, int rows, const Weights& w,
                                                      const boundary2d& b, uint4 (*ring)[32]) {
  constexpr int V = strip_vector<T>, H = Steps * Rad;
  const std::int64_t xs = x0 - fused_strip_reach<Rad, Steps, T>;
  const int lane = lane_id();
  if (xs >= 0 && xs + strip_width<T> <= nx && y0 >= H && y0 + rows + H <= ny &&
      aligned16(in + xs) && in_pitch % V == 0 && aligned16(out + xs) && out_pitch % V == 0) {
    fused_strip_march<Rad, Shape, Steps, Ring, true>(in, in_pitch, out, out_pitch, nx, ny, xs, y0,
                                                     rows, w, b, ring, lane);
  } else {
    fused_strip_march<Rad, Shape, Steps, Ring, false>(in, in_pitch, out, out_pitch, nx, ny, xs, y0,
                                                      rows, w, b, ring, lane);
  }
}

}  // namespace gpuprims::detail
