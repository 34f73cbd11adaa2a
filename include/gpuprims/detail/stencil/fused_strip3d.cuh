// apply_stencil3d_fused's register streaming: Steps time steps of a 3D stencil by a block marching
// a span along z, every step's planes in registers. The span is one 16-byte vector a lane wide (32
// vectors, as in strip3d.cuh) and warps x rows rows tall; lane l of warp w holds its vector of
// rows w x rows .. + rows - 1. It overlaps its neighbours: its outputs are the middle columns
// (fused_strip_reach on each side, as the 2D fused strips) and the middle rows (Steps x Rad on
// each side), the rest recomputed as the steps shrink the valid part.
//
// Input planes are copied into a shared ring (ring - 1 in flight). Each plane arriving at step s
// (the input for step 1) completes one plane of step s, Rad planes below it, as strip3d.cuh's
// marches do: the star starts output z from plane z's x and y taps and the kept centre values of
// the Rad planes below, and finishes it with the Rad planes above; the box adds each plane to the
// 2 Rad + 1 outputs it reaches. Neighbours along x come by shuffles; along y, each step's newest
// plane is also written to shared memory (one barrier a step and plane) and a lane reads the Rad
// rows above and below its own. So each point of a step costs its multiply-adds, a share of a
// shuffle and of a shared row, not a shared load per tap.
//
// Every chain is stencil3d_point's. Outside the grid along x and y, after each step the x rule
// sets a row's columns from that row (shuffles), then the y rule whole rows: a lane reading a row
// outside the grid reads the row its rule names (already set along x), so the result equals Steps
// calls of apply_stencil3d bit for bit. Along z the kernel takes only chunks whose intermediate
// planes all lie inside the grid, or a periodic z (a wrapped plane evolves as the plane it
// copies); the launcher gives the planes near a non-periodic z boundary to the shared rings
// (fused3d.cuh).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/async_copy.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/detail/stencil/fused3d.cuh>
#include <gpuprims/detail/stencil/fused_strip2d.cuh>
#include <gpuprims/detail/stencil/strip3d.cuh>
#include <gpuprims/detail/stencil/tile3d.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace gpuprims::detail {

// Whether Tuning names a streaming policy (a caller's tuning may name only the shared rings).
template <class Tuning, class = void>
inline constexpr bool has_fused_strip3d = false;
template <class Tuning>
inline constexpr bool
    has_fused_strip3d<Tuning, std::void_t<decltype(Tuning::strip(0, std::size_t{}, 0, false, 0))>> =
        true;

// Whether one step of weights under Tuning runs apply_stencil3d's kernel instead of the fused ones
// (Tuning::one_step_by_stencil3d; false for a caller's tuning that does not say).
template <class Tuning, class = void>
inline constexpr bool fused3d_one_step_by_stencil3d = false;
template <class Tuning>
inline constexpr bool
    fused3d_one_step_by_stencil3d<Tuning, std::void_t<decltype(Tuning::one_step_by_stencil3d)>> =
        Tuning::one_step_by_stencil3d;

template <class Tuning, class T, int Rad, stencil_shape Shape, int Steps>
__host__ __device__ constexpr stencil3d_fused_strip_policy fused_strip3d_policy(int arch) {
  if constexpr (has_fused_strip3d<Tuning>) {
    return Tuning::strip(arch, sizeof(T), Rad, Shape == stencil_shape::box, Steps);
  } else {
    return {0, 0, 0, 0, 0};
  }
}

template <class Tuning, class T, int Rad, stencil_shape Shape, int Steps>
inline constexpr stencil3d_fused_strip_policy fused_strip3d_policy_here =
    fused_strip3d_policy<Tuning, T, Rad, Shape, Steps>(GPUPRIMS_TARGET_ARCH);

template <int Rad, int Steps>
__host__ __device__ constexpr bool fused_strip3d_fits(const stencil3d_fused_strip_policy& p,
                                                      int arch) {
  return p.rows >= 1 && p.warps >= 1 && p.warps <= 32 && p.warps * p.rows > 2 * Steps * Rad &&
         p.ring >= 2 && p.ring <= 8 && p.z_chunk >= 1 &&
         stencil3d_fused_tuning::strip_shared_bytes(p, Steps) <=
             stencil3d_fused_tuning::block_shared_limit(arch);
}

template <class Tuning, class T, int Rad, stencil_shape Shape, int Steps>
inline constexpr int fused_strip3d_threads =
    fused_strip3d_fits<Rad, Steps>(fused_strip3d_policy_here<Tuning, T, Rad, Shape, Steps>,
                                   GPUPRIMS_TARGET_ARCH)
        ? 32 * fused_strip3d_policy_here<Tuning, T, Rad, Shape, Steps>.warps
        : 32;

template <class Tuning, class T, int Rad, stencil_shape Shape, int Steps>
inline constexpr int fused_strip3d_min_blocks = arch::resident_blocks(
    fused_strip3d_policy_here<Tuning, T, Rad, Shape, Steps>.min_blocks,
    fused_strip3d_threads<Tuning, T, Rad, Shape, Steps>, GPUPRIMS_TARGET_ARCH);

// What one step keeps between planes for a lane's Rows rows: the star the centre values of the Rad
// planes below the newest (oldest first) and the Rad outputs waiting for the planes above; the
// box the 2 Rad + 1 outputs the newest plane reaches.
template <int Rad, stencil_shape Shape, int Rows, class T>
struct fused_strip3d_state {
  static constexpr int V = strip_vector<T>;
  T lower[Rad][Rows][V];
  T pending[Rad][Rows][V];
  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int i = 0; i < Rad; ++i) {
#pragma unroll
      for (int r = 0; r < Rows; ++r) {
#pragma unroll
        for (int e = 0; e < V; ++e) {
          lower[i][r][e] = T(0);
          pending[i][r][e] = T(0);
        }
      }
    }
  }
};
template <int Rad, int Rows, class T>
struct fused_strip3d_state<Rad, stencil_shape::box, Rows, T> {
  static constexpr int V = strip_vector<T>;
  T acc[2 * Rad + 1][Rows][V];
  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int j = 0; j < 2 * Rad + 1; ++j) {
#pragma unroll
      for (int r = 0; r < Rows; ++r) {
#pragma unroll
        for (int e = 0; e < V; ++e) {
          acc[j][r][e] = T(0);
        }
      }
    }
  }
};

// A column of spans' x rules, in shared memory (stencil3d_fused_tuning::strip_shared_bytes counts
// them): each lane's elements' source columns, and strip_rule_x's sources. The y rules' tables
// follow them (their length depends on the span: stencil3d_fused_strip_kernel).
template <class T>
struct fused_strip3d_tables {
  std::int64_t load_x[32][strip_vector<T>];
  int rule_x[32][strip_vector<T>];
};

// One plane arriving at a step: cur holds its rows r0 - Rad .. r0 + Rows + Rad - 1 (r0 the lane's
// first row); made gets the lane's rows of the plane Rad below it, now complete.
template <int Rad, stencil_shape Shape, int Rows, class T, class Weights>
__device__ __forceinline__ void fused_strip3d_advance(const strip_vec<T> (&cur)[Rows + 2 * Rad],
                                                      fused_strip3d_state<Rad, Shape, Rows, T>& st,
                                                      const Weights& w, int lane,
                                                      strip_vec<T> (&made)[Rows]) {
  constexpr int V = strip_vector<T>;
  if constexpr (Shape == stencil_shape::star) {
    const plane_weights<Weights> wp{w, 0};
    each_of(std::make_integer_sequence<int, Rows>{}, [&](auto j) {
      constexpr int r = decltype(j)::value;
      // The plane's z tap of each waiting output (output z - Rad + i gets dz = Rad - i): the
      // oldest is then complete.
#pragma unroll
      for (int i = 0; i < Rad; ++i) {
        const auto wz = static_cast<T>(w(Rad - i, 0, 0));
#pragma unroll
        for (int e = 0; e < V; ++e) {
          st.pending[i][r][e] = fused(wz, cur[r + Rad].v[e], st.pending[i][r][e]);
        }
      }
#pragma unroll
      for (int e = 0; e < V; ++e) {
        made[r].v[e] = st.pending[0][r][e];
      }
      // The new output: its x and y taps, then dz = -Rad .. -1 from the kept centre values.
      T o[V];
      strip_point_row<Rad, stencil_shape::star, r>(cur, wp, lane, o);
#pragma unroll
      for (int d = 0; d < Rad; ++d) {
        const auto wz = static_cast<T>(w(d - Rad, 0, 0));
#pragma unroll
        for (int e = 0; e < V; ++e) {
          o[e] = fused(wz, st.lower[d][r][e], o[e]);
        }
      }
#pragma unroll
      for (int e = 0; e < V; ++e) {
#pragma unroll
        for (int i = 0; i + 1 < Rad; ++i) {
          st.pending[i][r][e] = st.pending[i + 1][r][e];
          st.lower[i][r][e] = st.lower[i + 1][r][e];
        }
        st.pending[Rad - 1][r][e] = o[e];
        st.lower[Rad - 1][r][e] = cur[r + Rad].v[e];
      }
    });
  } else {
    constexpr int D = 2 * Rad + 1;
#pragma unroll
    for (int k = 0; k < Rows + 2 * Rad; ++k) {
      T ext[V + 2 * Rad];
      strip_extend<Rad>(cur[k], lane, ext);
#pragma unroll
      for (int j = 0; j < D; ++j) {
#pragma unroll
        for (int r = 0; r < Rows; ++r) {
          const int dy = k - Rad - r;
          if (dy >= -Rad && dy <= Rad) {
#pragma unroll
            for (int e = 0; e < V; ++e) {
#pragma unroll
              for (int dx = -Rad; dx <= Rad; ++dx) {
                st.acc[j][r][e] =
                    fused(static_cast<T>(w(Rad - j, dy, dx)), ext[e + Rad + dx], st.acc[j][r][e]);
              }
            }
          }
        }
      }
    }
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
#pragma unroll
      for (int e = 0; e < V; ++e) {
        made[r].v[e] = st.acc[0][r][e];
#pragma unroll
        for (int j = 0; j + 1 < D; ++j) {
          st.acc[j][r][e] = st.acc[j + 1][r][e];
        }
        st.acc[D - 1][r][e] = T(0);
      }
    }
  }
}

// A grid-stride loop over columns of spans (x fastest, then y, then chunks of the planes
// [z_begin, z_end), then grids). Compiled where the policy fits the target; elsewhere never
// launched.
template <class Tuning, int Rad, stencil_shape Shape, int Steps, class T, class Weights>
__global__ void __launch_bounds__(fused_strip3d_threads<Tuning, T, Rad, Shape, Steps>,
                                  fused_strip3d_min_blocks<Tuning, T, Rad, Shape, Steps>)
    stencil3d_fused_strip_kernel(const T* in, T* out, std::size_t batch, std::size_t depth,
                                 std::size_t rows, std::size_t cols, std::size_t in_py,
                                 std::size_t in_pz, std::size_t out_py, std::size_t out_pz,
                                 std::size_t in_stride, std::size_t out_stride, std::size_t z_begin,
                                 std::size_t z_end, Weights w, boundary3d b) {
  wait_for_prior_grids();
  constexpr stencil3d_fused_strip_policy p =
      fused_strip3d_policy_here<Tuning, T, Rad, Shape, Steps>;
  if constexpr (!fused_strip3d_fits<Rad, Steps>(p, GPUPRIMS_TARGET_ARCH)) {
    __trap();  // never launched: the launcher refuses this policy
  } else {
    constexpr int V = strip_vector<T>, Rows = p.rows, H = p.warps * p.rows, Q = Rows + 2 * Rad;
    constexpr int Ring = p.ring, hy = Steps * Rad;
    constexpr int reach = fused_strip_reach<Rad, Steps, T>;
    constexpr int out_x = strip_width<T> - 2 * reach, out_y = H - 2 * hy;
    using plane_t = uint4[H][32];
    extern __shared__ __align__(16) unsigned char fused_strip3d_shared[];
    // Ring input planes, then a plane of each step but the last, then the rules' tables.
    plane_t* const planes = reinterpret_cast<plane_t*>(fused_strip3d_shared);
    auto* const tables = reinterpret_cast<fused_strip3d_tables<T>*>(planes + Ring + Steps - 1);
    // The span's rows' source rows in the grid (-1: the y rule's constant), and for the rows
    // [-Rad, H + Rad) the span row the y rule names (clamped into the span), -1 for the constant.
    auto* const load_y = reinterpret_cast<std::int64_t*>(tables + 1);
    auto* const rule_y_row = reinterpret_cast<int*>(load_y + H);
    const int lane = lane_id();
    const int r0 = static_cast<int>(threadIdx.x / 32) * Rows;
    const auto nx = static_cast<std::int64_t>(cols), ny = static_cast<std::int64_t>(rows),
               nz = static_cast<std::int64_t>(depth);
    const std::size_t tiles_x = ceil_div(cols, static_cast<std::size_t>(out_x));
    const std::size_t per_chunk = tiles_x * ceil_div(rows, static_cast<std::size_t>(out_y));
    const std::size_t per_grid =
        per_chunk * ceil_div(z_end - z_begin, static_cast<std::size_t>(p.z_chunk));
    const bool output_lane = lane >= reach / V && lane < 32 - reach / V;
    for (std::size_t t = blockIdx.x; t < per_grid * batch; t += gridDim.x) {
      const std::size_t g = t / per_grid, c = t % per_grid / per_chunk, k = t % per_chunk;
      const T* const grid_in = in + g * in_stride;
      T* const grid_out = out + g * out_stride;
      const auto xs = static_cast<std::int64_t>(k % tiles_x * out_x) - reach;
      const auto ys = static_cast<std::int64_t>(k / tiles_x * out_y) - hy;
      const auto z0 = static_cast<std::int64_t>(z_begin + c * p.z_chunk);
      const auto z_last = static_cast<std::int64_t>(z_end);
      const std::int64_t z1 = z0 + p.z_chunk < z_last ? z0 + p.z_chunk : z_last;
      const std::int64_t gx = xs + static_cast<std::int64_t>(lane) * V;
      const bool lane_vector =
          gx >= 0 && gx + V <= nx && aligned16(grid_in) && in_py % V == 0 && in_pz % V == 0;
      const bool store_vector = aligned16(grid_out) && out_py % V == 0 && out_pz % V == 0;
      const bool rule_x =
          (xs < 0 || xs + strip_width<T> > nx) && b.x.mode != boundary_mode::periodic;
      const bool rule_y = (ys < 0 || ys + H > ny) && b.y.mode != boundary_mode::periodic;
      // The rules, resolved once a column of spans: the rows' (load_y, rule_y_row), then the
      // columns' (every warp's lanes read the same columns): where each of a lane's elements
      // loads (-1: the x rule's constant), and strip_rule_x's sources.
      for (int i = static_cast<int>(threadIdx.x); i < H + 2 * Rad; i += 32 * p.warps) {
        const std::int64_t y = ys + i - Rad;
        const bool constant = (y < 0 || y >= ny) && b.y.mode == boundary_mode::constant;
        const std::int64_t from_y = y >= 0 && y < ny ? y
                                    : constant       ? -1
                                                     : boundary_index(y, ny, b.y.mode);
        if (i >= Rad && i < H + Rad) {
          load_y[i - Rad] = from_y;
        }
        const std::int64_t at = from_y - ys;
        rule_y_row[i] = constant ? -1 : static_cast<int>(at < 0 ? 0 : (at < H ? at : H - 1));
      }
      if (threadIdx.x < 32) {
#pragma unroll
        for (int e = 0; e < V; ++e) {
          const std::int64_t x = gx + e;
          tables->load_x[lane][e] = x >= 0 && x < nx ? x
                                    : b.x.mode == boundary_mode::constant
                                        ? -1
                                        : boundary_index(x, nx, b.x.mode);
        }
        if (rule_x) {
          strip_rule_x_sources<T>(nx, xs, b.x, lane, tables->rule_x[lane]);
        }
      }
      __syncthreads();
      // Input plane u into ring slot `slot`: each lane its rows' vectors, by 16-byte copies where
      // the vector lies inside its row, else element by element through the rules.
      const std::int64_t first_u = z0 - hy, end_u = z1 + hy;
      const auto fetch = [&](std::int64_t u, int slot) {
        if (u < end_u) {
          const std::int64_t pz = plane3d(u, nz, b.z);
#pragma unroll
          for (int r = 0; r < Rows; ++r) {
            T* const cell = reinterpret_cast<T*>(&planes[slot][r0 + r][lane]);
            const std::int64_t gy = load_y[r0 + r];
            if (pz < 0 || gy < 0) {
#pragma unroll
              for (int e = 0; e < V; ++e) {
                cell[e] = static_cast<T>(pz < 0 ? b.z.value : b.y.value);
              }
              continue;
            }
            const T* const row = grid_in + static_cast<std::size_t>(pz) * in_pz +
                                 static_cast<std::size_t>(gy) * in_py;
            if (lane_vector) {
              arch::async_copy(cell, row + gx);
              continue;
            }
#pragma unroll
            for (int e = 0; e < V; ++e) {
              const std::int64_t x = tables->load_x[lane][e];
              if (x >= 0) {
                arch::async_copy_small<sizeof(T)>(cell + e, row + x);
              } else {
                cell[e] = static_cast<T>(b.x.value);
              }
            }
          }
        }
        arch::async_copy_commit();
      };
      // Row i of a plane of shared memory (clamped into the span: rows past its ends are
      // don't-cares).
      const auto shared_row = [&](const plane_t& plane, int i) {
        strip_vec<T> row;
        const int at = i < 0 ? 0 : (i < H ? i : H - 1);
        memcpy(row.v, &plane[at][lane], sizeof(uint4));
        return row;
      };
      fused_strip3d_state<Rad, Shape, Rows, T> state[Steps];
#pragma unroll
      for (int s = 0; s < Steps; ++s) {
        state[s].clear();
      }
#pragma unroll
      for (int d = 0; d + 1 < Ring; ++d) {
        fetch(first_u + d, d);
      }
      int slot = 0;  // input plane u's
      for (std::int64_t u = first_u; u < end_u; ++u) {
        arch::async_copy_wait<Ring - 2>();  // this thread's copies of plane u have landed
        __syncthreads();                    // and everyone's; plane u - 1's slot is free
        // The policy's order: plane u's rows first, or the copies of plane u + Ring - 1.
        constexpr bool rows_first = p.rows_first;
        if constexpr (!rows_first) {
          fetch(u + Ring - 1, slot == 0 ? Ring - 1 : slot - 1);
        }
        strip_vec<T> cur[Q];
#pragma unroll
        for (int q = 0; q < Q; ++q) {
          cur[q] = shared_row(planes[slot], r0 - Rad + q);
        }
        if constexpr (rows_first) {
          fetch(u + Ring - 1, slot == 0 ? Ring - 1 : slot - 1);
        }
        slot = slot + 1 == Ring ? 0 : slot + 1;
        each_of(std::make_integer_sequence<int, Steps>{}, [&](auto step) {
          constexpr int s = decltype(step)::value;  // step s + 1 makes plane u - (s + 1) Rad
          strip_vec<T> made[Rows];
          fused_strip3d_advance<Rad, Shape, Rows>(cur, state[s], w, lane, made);
          if constexpr (s + 1 < Steps) {
            // The plane for the next step: x rule in each row, to shared memory, then its rows
            // with the Rad above and below (through the y rule outside the grid).
            plane_t& mid = planes[Ring + s];
#pragma unroll
            for (int r = 0; r < Rows; ++r) {
              if (rule_x) {
                strip_rule_x(made[r], tables->rule_x[lane], b.x);
              }
              memcpy(&mid[r0 + r][lane], made[r].v, sizeof(uint4));
            }
            __syncthreads();
#pragma unroll
            for (int q = 0; q < Q; ++q) {
              const int i = r0 - Rad + q;
              const std::int64_t gy = ys + i;
              if (rule_y && (gy < 0 || gy >= ny)) {
                const int at = rule_y_row[r0 + q];
                if (at < 0) {
                  fill_row(cur[q], b.y.value);
                } else {
                  cur[q] = shared_row(mid, at);
                }
              } else if (q >= Rad && q < Rad + Rows) {
                cur[q] = made[q - Rad];
              } else {
                cur[q] = shared_row(mid, i);
              }
            }
          } else if (u >= first_u + 2 * hy && output_lane) {
            // The last step's plane u - hy, inside the chunk: the lane's rows of the tile.
            T* const plane_out = grid_out + static_cast<std::size_t>(u - hy) * out_pz;
#pragma unroll
            for (int r = 0; r < Rows; ++r) {
              const int i = r0 + r;
              const std::int64_t gy = ys + i;
              if (i >= hy && i < H - hy && gy < ny) {
                if (store_vector && gx + V <= nx) {
                  uint4 word;
                  memcpy(&word, made[r].v, sizeof(word));
                  store16(plane_out + static_cast<std::size_t>(gy) * out_py + gx, word);
                } else {
                  strip_store_row(plane_out, out_py, nx, ny, gx, gy, made[r].v);
                }
              }
            }
          }
        });
      }
      arch::async_copy_wait<0>();
      __syncthreads();  // the next column's copies reuse the ring
    }
  }
}

// The planes [z_begin, z_end) of every grid by the streaming kernel, policy p (fits the device).
template <class Tuning, int Rad, stencil_shape Shape, int Steps, class T, class Weights>
cudaError_t launch_stencil3d_fused_strip(const stencil3d_fused_strip_policy& p, const T* in, T* out,
                                         std::size_t batch, std::size_t depth, std::size_t rows,
                                         std::size_t cols, std::size_t in_py, std::size_t in_pz,
                                         std::size_t out_py, std::size_t out_pz,
                                         std::size_t in_stride, std::size_t out_stride,
                                         std::size_t z_begin, std::size_t z_end, const Weights& w,
                                         const boundary3d& b, cudaStream_t stream) {
  const auto out_x =
      static_cast<std::size_t>(strip_width<T> - 2 * fused_strip_reach<Rad, Steps, T>);
  const auto out_y = static_cast<std::size_t>(p.warps * p.rows - 2 * Steps * Rad);
  const std::size_t tasks = ceil_div(cols, out_x) * ceil_div(rows, out_y) *
                            ceil_div(z_end - z_begin, static_cast<std::size_t>(p.z_chunk)) * batch;
  return launch_shared<stencil3d_fused_strip_kernel<Tuning, Rad, Shape, Steps, T, Weights>>(
      dim3(grid_x(tasks)), dim3(static_cast<unsigned int>(32 * p.warps)),
      stencil3d_fused_tuning::strip_shared_bytes(p, Steps), stream, false, in, out, batch, depth,
      rows, cols, in_py, in_pz, out_py, out_pz, in_stride, out_stride, z_begin, z_end, w, b);
}

// apply_stencil3d_fused's launch: weights where Tuning streams and the streaming policy fits the
// device take the streaming kernel for the planes whose steps stay inside the grid along z (all of
// them on a periodic z), the shared rings the (Steps - 1) x Rad planes at each end; user updates
// and everything else the shared rings. cudaErrorInvalidValue where the rings a launch needs do
// not fit the device.
template <class Tuning, int Rad, stencil_shape Shape, int Steps, class T, class Step>
cudaError_t launch_stencil3d_fused(const T* in, T* out, std::size_t batch, std::size_t depth,
                                   std::size_t rows, std::size_t cols, std::size_t in_pitch_y,
                                   std::size_t in_pitch_z, std::size_t out_pitch_y,
                                   std::size_t out_pitch_z, std::size_t in_stride,
                                   std::size_t out_stride, const Step& w, const boundary3d& b,
                                   cudaStream_t stream) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const auto rings = [&](std::size_t z_begin, std::size_t z_end) -> cudaError_t {
    if (z_begin == z_end) {
      return cudaSuccess;
    }
    const stencil3d_fused_policy p = Tuning::select(facts.target_arch, sizeof(T), Rad, Steps);
    if (!fused3d_fits<Rad, Steps, T>(p, facts.target_arch)) {
      return cudaErrorInvalidValue;  // no span of this depth fits the device's shared memory
    }
    return launch_stencil3d_fused_rings<Tuning, Rad, Shape, Steps>(
        p, in, out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
        in_stride, out_stride, z_begin, z_end, w, b, stream);
  };
  if constexpr (is_stencil_update<Step>) {
    return rings(0, depth);
  } else {
    const stencil3d_fused_strip_policy sp =
        fused_strip3d_policy<Tuning, T, Rad, Shape, Steps>(facts.target_arch);
    const std::size_t band =
        b.z.mode == boundary_mode::periodic ? 0 : static_cast<std::size_t>((Steps - 1) * Rad);
    if (!fused_strip3d_fits<Rad, Steps>(sp, facts.target_arch) || depth <= 2 * band) {
      return rings(0, depth);
    }
    GPUPRIMS_RETURN_IF_ERROR(rings(0, band));
    GPUPRIMS_RETURN_IF_ERROR(rings(depth - band, depth));
    return launch_stencil3d_fused_strip<Tuning, Rad, Shape, Steps>(
        sp, in, out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
        in_stride, out_stride, band, depth - band, w, b, stream);
  }
}

}  // namespace gpuprims::detail
