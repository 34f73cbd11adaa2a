// Internals of the 3D stencil's register streaming (gpuprims::warp_stencil3d, the kernel behind
// apply_stencil3d): a warp owns a strip of Rows rows, 32 16-byte vectors wide (strip2d.cuh's
// strips), and marches it along z through a chunk of planes. A plane's Rows + 2 Rad rows arrive
// in registers (each lane its vector and lanes 0 to 2 Rad - 1 one halo column), the next plane's
// loads in flight during this one's arithmetic; neighbours along x come by shuffles. No shared
// memory, no barrier.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/detail/stencil/strip2d.cuh>
#include <gpuprims/detail/stencil/tile3d.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace gpuprims::detail {

// How a strip reads its rows: every row and the Rad rows around them inside the grid, at fixed
// offsets (inner); rows through the y rule, each lane's vector inside its row (rows_by_rule); or
// every element through the y and x rules (any).
enum class strip3d_rows { inner, rows_by_rule, any };

// Where a strip at (x0, y0) reads its planes: plane(gz) resolves the z rule once a plane (nullptr:
// a constant rule's value everywhere), row(plane, k) loads row y0 - Rad + k of it with its halo.
// Outside `any`, every lane's vector lies inside its row, 16-byte aligned (strip3d_vectors_inside),
// and only the halo columns go through the x rule, resolved once for the strip; `any` reads through
// fetch2d's y and x rules.
template <int Rad, strip3d_rows Mode, class T>
class strip3d_source {
 public:
  __device__ __forceinline__ strip3d_source(const T* in, std::size_t pitch_y, std::size_t pitch_z,
                                            std::int64_t nx, std::int64_t ny, std::int64_t nz,
                                            std::int64_t x0, std::int64_t y0, const boundary3d& b,
                                            int lane)
      : in_(in),
        pitch_y_(pitch_y),
        pitch_z_(pitch_z),
        nx_(nx),
        ny_(ny),
        nz_(nz),
        x0_(x0),
        y0_(y0),
        b_(b),
        lane_(lane) {
    if constexpr (Mode != strip3d_rows::any) {
      halo_ = strip_halo<Rad, T>(nx, x0, b.x, lane);
    }
  }

  __device__ __forceinline__ const T* plane(std::int64_t gz) const {
    const std::int64_t p = plane3d(gz, nz_, b_.z);
    if (p < 0) {
      return nullptr;
    }
    const T* base = in_ + static_cast<std::size_t>(p) * pitch_z_;
    if constexpr (Mode == strip3d_rows::inner) {
      return base + static_cast<std::size_t>(y0_ - Rad) * pitch_y_ + x0_;
    } else if constexpr (Mode == strip3d_rows::rows_by_rule) {
      return base + x0_;
    } else {
      return base;
    }
  }

  __device__ __forceinline__ strip_row<T> row(const T* p, int k) const {
    if (p == nullptr) {
      return filled(static_cast<T>(b_.z.value));
    }
    if constexpr (Mode == strip3d_rows::inner) {
      return vector_row(p + k * pitch_y_);
    } else if constexpr (Mode == strip3d_rows::rows_by_rule) {
      std::int64_t gy = y0_ - Rad + k;
      if (gy < 0 || gy >= ny_) {
        if (b_.y.mode == boundary_mode::constant) {
          return filled(static_cast<T>(b_.y.value));
        }
        gy = boundary_index(gy, ny_, b_.y.mode);
      }
      return vector_row(p + static_cast<std::size_t>(gy) * pitch_y_);
    } else {
      return strip_load_row<Rad>(p, pitch_y_, nx_, ny_, x0_, y0_ - Rad + k, boundary2d(b_.x, b_.y),
                                 lane_);
    }
  }

  // Asks the L2 for the P rows of plane gz, each lane its vector: an inner strip's (nothing in
  // other modes, or on a constant z rule's planes outside the grid). The halo columns are the
  // neighbouring strips' vectors.
  template <int P>
  __device__ __forceinline__ void prefetch_plane(std::int64_t gz) const {
    if constexpr (Mode == strip3d_rows::inner) {
      const T* p = plane(gz);
      if (p != nullptr) {
#pragma unroll
        for (int k = 0; k < P; ++k) {
          prefetch_l2(p + k * pitch_y_ + lane_ * strip_vector<T>);
        }
      }
    }
  }

  __device__ __forceinline__ std::int64_t x0() const { return x0_; }
  __device__ __forceinline__ std::int64_t y0() const { return y0_; }
  __device__ __forceinline__ std::int64_t nx() const { return nx_; }
  __device__ __forceinline__ std::int64_t ny() const { return ny_; }
  __device__ __forceinline__ int lane() const { return lane_; }

 private:
  __device__ __forceinline__ static strip_row<T> filled(T value) {
    strip_row<T> r;
#pragma unroll
    for (int e = 0; e < strip_vector<T>; ++e) {
      r.v[e] = value;
    }
    r.halo = value;
    return r;
  }

  // The row whose column x0 is at src: the lane's vector and its halo column.
  __device__ __forceinline__ strip_row<T> vector_row(const T* src) const {
    strip_row<T> r;
    const uint4 word = load16(src + lane_ * strip_vector<T>);
    memcpy(r.v, &word, sizeof(word));
    r.halo = halo_.read(src, lane_);
    return r;
  }

  const T* in_;
  std::size_t pitch_y_, pitch_z_;
  std::int64_t nx_, ny_, nz_, x0_, y0_;
  const boundary3d& b_;
  int lane_;
  strip_halo<Rad, T> halo_;  // the lane's halo column by the x rule (read outside `any`)
};

// Stores a lane's outputs of row gy of plane gz (inside the grid's planes): one 16-byte store where
// every lane's vector lies inside its row, 16-byte aligned, strip_store_row's clipping otherwise.
template <bool Vectors, class T>
__device__ __forceinline__ void strip3d_store(T* out, std::size_t pitch_y, std::size_t pitch_z,
                                              std::int64_t nx, std::int64_t ny, std::int64_t gx,
                                              std::int64_t gy, std::int64_t gz,
                                              const T (&o)[strip_vector<T>]) {
  T* plane = out + static_cast<std::size_t>(gz) * pitch_z;
  if constexpr (Vectors) {
    T* dst = plane + static_cast<std::size_t>(gy) * pitch_y + gx;
    strip_store16(dst, pitch_y, o);
  } else {
    strip_store_row(plane, pitch_y, nx, ny, gx, gy, o);
  }
}

// One plane of a 3D weights type as 2D weights (strip_point_row's argument).
template <class Weights>
struct plane_weights {
  const Weights& w;
  int dz;
  __device__ __forceinline__ auto operator()(int dy, int dx) const { return w(dz, dy, dx); }
};

// The star's march through planes [z0, z1): output z is started when plane z arrives (its x and y
// taps from that plane, then the taps of planes z - Rad .. z - 1, whose centre rows are kept), and
// finished by the Rad planes after it as they arrive, so each output's chain is
// stencil3d_point's. Row by row: the waiting outputs take the row's z taps (the oldest is stored),
// the new output is computed, and the row's slot, read by no later output of the plane, is
// refilled with the next plane's row, so the next plane's loads are in flight during this one's
// arithmetic. Ahead > 0: the L2 is asked for the plane Ahead after the one being loaded (inner
// strips), so those loads find it there rather than in DRAM.
template <int Rad, int Rows, int Ahead, strip3d_rows Mode, class T, class Weights>
__device__ __forceinline__ void strip3d_march_star(const strip3d_source<Rad, Mode, T>& src, T* out,
                                                   std::size_t out_py, std::size_t out_pz,
                                                   std::int64_t z0, std::int64_t z1,
                                                   const Weights& w) {
  constexpr int V = strip_vector<T>, P = Rows + 2 * Rad;
  const std::int64_t gx = src.x0() + static_cast<std::int64_t>(src.lane()) * V;
  T lower[Rad][Rows][V];    // centre rows of planes z - Rad .. z - 1, oldest first
  T pending[Rad][Rows][V];  // outputs z - Rad .. z - 1, waiting for the planes above them
  strip_row<T> cur[P];
#pragma unroll
  for (int d = 0; d < Rad; ++d) {
    const T* p = src.plane(z0 - Rad + d);
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      const strip_row<T> row = src.row(p, r + Rad);
#pragma unroll
      for (int e = 0; e < V; ++e) {
        lower[d][r][e] = row.v[e];
        pending[d][r][e] = T(0);
      }
    }
  }
  const T* next = src.plane(z0);
#pragma unroll
  for (int k = 0; k < P; ++k) {
    cur[k] = src.row(next, k);
  }
#pragma unroll
  for (int a = 1; a <= Ahead; ++a) {
    if (z0 + a < z1 + Rad) {
      src.template prefetch_plane<P>(z0 + a);
    }
  }
  for (std::int64_t z = z0; z < z1 + Rad; ++z) {
    next = z + 1 < z1 + Rad ? src.plane(z + 1) : nullptr;  // nullptr: no loads past the chunk
    if (Ahead > 0 && z + 1 + Ahead < z1 + Rad) {
      src.template prefetch_plane<P>(z + 1 + Ahead);
    }
    const bool store = z - Rad >= z0;
    const plane_weights<Weights> wp{w, 0};
    each_of(std::make_integer_sequence<int, Rows>{}, [&](auto j) {
      constexpr int r = decltype(j)::value;
      // The plane's z taps of the waiting outputs (output z - Rad + i gets dz = Rad - i); the
      // oldest is then complete.
#pragma unroll
      for (int i = 0; i < Rad; ++i) {
        const auto wz = static_cast<T>(w(Rad - i, 0, 0));
#pragma unroll
        for (int e = 0; e < V; ++e) {
          pending[i][r][e] = fused(wz, cur[r + Rad].v[e], pending[i][r][e]);
        }
      }
      if (store && (Mode == strip3d_rows::inner || src.y0() + r < src.ny())) {
        strip3d_store<Mode != strip3d_rows::any>(out, out_py, out_pz, src.nx(), src.ny(), gx,
                                                 src.y0() + r, z - Rad, pending[0][r]);
      }
      // Output z: its x and y taps, then dz = -Rad .. -1 from the kept centre rows.
      T o[V];
      strip_point_row<Rad, stencil_shape::star, r>(cur, wp, src.lane(), o);
#pragma unroll
      for (int d = 0; d < Rad; ++d) {
        const auto wz = static_cast<T>(w(d - Rad, 0, 0));
#pragma unroll
        for (int e = 0; e < V; ++e) {
          o[e] = fused(wz, lower[d][r][e], o[e]);
        }
      }
#pragma unroll
      for (int e = 0; e < V; ++e) {
#pragma unroll
        for (int i = 0; i + 1 < Rad; ++i) {
          pending[i][r][e] = pending[i + 1][r][e];
        }
        pending[Rad - 1][r][e] = o[e];
#pragma unroll
        for (int d = 0; d + 1 < Rad; ++d) {
          lower[d][r][e] = lower[d + 1][r][e];
        }
        lower[Rad - 1][r][e] = cur[r + Rad].v[e];
      }
      // Output row r is the last to read slot r: it takes the next plane's row.
      cur[r] = src.row(next, r);
    });
#pragma unroll
    for (int k = Rows; k < P; ++k) {
      cur[k] = src.row(next, k);
    }
  }
}

// The box's march through planes [z0, z1): each arriving plane is added to the 2 Rad + 1 outputs
// it reaches (output o gets dz = plane - o), row by row (an input row to the output rows it
// reaches), so every output's chain runs plane by plane, row by row, as stencil3d_point's does;
// an output is stored when the plane Rad above it has been added. A row's slot is refilled with
// the next plane's row once it has been added. Ahead: as the star's.
template <int Rad, int Rows, int Ahead, strip3d_rows Mode, class T, class Weights>
__device__ __forceinline__ void strip3d_march_box(const strip3d_source<Rad, Mode, T>& src, T* out,
                                                  std::size_t out_py, std::size_t out_pz,
                                                  std::int64_t z0, std::int64_t z1,
                                                  const Weights& w) {
  constexpr int V = strip_vector<T>, P = Rows + 2 * Rad, D = 2 * Rad + 1;
  const std::int64_t gx = src.x0() + static_cast<std::int64_t>(src.lane()) * V;
  T acc[D][Rows][V];  // outputs p - Rad .. p + Rad while plane p is added
#pragma unroll
  for (int j = 0; j < D; ++j) {
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
#pragma unroll
      for (int e = 0; e < V; ++e) {
        acc[j][r][e] = T(0);
      }
    }
  }
  strip_row<T> cur[P];
  const T* next = src.plane(z0 - Rad);
#pragma unroll
  for (int k = 0; k < P; ++k) {
    cur[k] = src.row(next, k);
  }
#pragma unroll
  for (int a = 1; a <= Ahead; ++a) {
    if (z0 - Rad + a < z1 + Rad) {
      src.template prefetch_plane<P>(z0 - Rad + a);
    }
  }
  for (std::int64_t p = z0 - Rad; p < z1 + Rad; ++p) {
    next = p + 1 < z1 + Rad ? src.plane(p + 1) : nullptr;  // nullptr: no loads past the chunk
    if (Ahead > 0 && p + 1 + Ahead < z1 + Rad) {
      src.template prefetch_plane<P>(p + 1 + Ahead);
    }
#pragma unroll
    for (int k = 0; k < P; ++k) {
      T ext[V + 2 * Rad];
      strip_extend<Rad>(cur[k], src.lane(), ext);
      cur[k] = src.row(next, k);
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
                acc[j][r][e] =
                    fused(static_cast<T>(w(Rad - j, dy, dx)), ext[e + Rad + dx], acc[j][r][e]);
              }
            }
          }
        }
      }
    }
    if (p - Rad >= z0) {
#pragma unroll
      for (int r = 0; r < Rows; ++r) {
        if (Mode == strip3d_rows::inner || src.y0() + r < src.ny()) {
          strip3d_store<Mode != strip3d_rows::any>(out, out_py, out_pz, src.nx(), src.ny(), gx,
                                                   src.y0() + r, p - Rad, acc[0][r]);
        }
      }
    }
#pragma unroll
    for (int j = 0; j < D; ++j) {
#pragma unroll
      for (int r = 0; r < Rows; ++r) {
#pragma unroll
        for (int e = 0; e < V; ++e) {
          acc[j][r][e] = j + 1 < D ? acc[j + 1][r][e] : T(0);
        }
      }
    }
  }
}

// Whether every lane's vector of the strip at x0 lies inside its row, every input and output row
// 16-byte aligned at x0.
template <class T>
__device__ __forceinline__ bool strip3d_vectors_inside(const T* in, std::size_t in_py,
                                                       std::size_t in_pz, const T* out,
                                                       std::size_t out_py, std::size_t out_pz,
                                                       std::int64_t nx, std::int64_t x0) {
  constexpr int V = strip_vector<T>;
  return x0 + strip_width<T> <= nx && aligned16(in + x0) && in_py % V == 0 && in_pz % V == 0 &&
         aligned16(out + x0) && out_py % V == 0 && out_pz % V == 0;
}

// Planes [z0, z1) of rows [y0, y0 + Rows) of the strip at x0 through the given source mode.
template <int Rad, stencil_shape Shape, int Rows, strip3d_rows Mode, int Ahead = 0, class T,
          class Weights>
__device__ __forceinline__ void strip3d_march(const T* in, std::size_t in_py, std::size_t in_pz,
                                              T* out, std::size_t out_py, std::size_t out_pz,
                                              std::int64_t nx, std::int64_t ny, std::int64_t nz,
                                              std::int64_t x0, std::int64_t y0, std::int64_t z0,
                                              std::int64_t z1, const Weights& w,
                                              const boundary3d& b) {
  const strip3d_source<Rad, Mode, T> src(in, in_py, in_pz, nx, ny, nz, x0, y0, b, lane_id());
  if constexpr (Shape == stencil_shape::star) {
    strip3d_march_star<Rad, Rows, Ahead>(src, out, out_py, out_pz, z0, z1, w);
  } else {
    strip3d_march_box<Rad, Rows, Ahead>(src, out, out_py, out_pz, z0, z1, w);
  }
}

// Planes [z0, z1) of row y of the strip at x0: rows through the y rule where every vector lies
// inside its row (`vectors`, strip3d_vectors_inside), every element through the rules where not.
template <int Rad, stencil_shape Shape, class T, class Weights>
__device__ __forceinline__ void stencil3d_strip_row(
    const T* in, std::size_t in_py, std::size_t in_pz, T* out, std::size_t out_py,
    std::size_t out_pz, std::int64_t nx, std::int64_t ny, std::int64_t nz, std::int64_t x0,
    std::int64_t y, std::int64_t z0, std::int64_t z1, const Weights& w, const boundary3d& b,
    bool vectors) {
  if (vectors) {
    strip3d_march<Rad, Shape, 1, strip3d_rows::rows_by_rule>(in, in_py, in_pz, out, out_py, out_pz,
                                                             nx, ny, nz, x0, y, z0, z1, w, b);
  } else {
    strip3d_march<Rad, Shape, 1, strip3d_rows::any>(in, in_py, in_pz, out, out_py, out_pz, nx, ny,
                                                    nz, x0, y, z0, z1, w, b);
  }
}

// Planes [z0, z1) of rows [y0, y0 + count) (count <= Rows) of the strip at x0, strip_width wide, of
// an nx x ny x nz grid, by the calling warp (converged, every lane). Only a strip of Rows rows
// whose rows and the Rad rows around them lie inside the grid, every vector inside its row and
// aligned, marches its rows at once, asking the L2 for its planes Ahead planes before it loads
// them (0: not); others march a row at a time (fewer registers than Rows rows in flight: the
// kernel's registers are the inner march's).
template <int Rad, stencil_shape Shape, int Rows, int Ahead = 0, class T, class Weights>
__device__ __forceinline__ void stencil3d_strip(const T* in, std::size_t in_py, std::size_t in_pz,
                                                T* out, std::size_t out_py, std::size_t out_pz,
                                                std::int64_t nx, std::int64_t ny, std::int64_t nz,
                                                std::int64_t x0, std::int64_t y0,
                                                std::int64_t count, std::int64_t z0,
                                                std::int64_t z1, const Weights& w,
                                                const boundary3d& b) {
  const bool vectors = strip3d_vectors_inside(in, in_py, in_pz, out, out_py, out_pz, nx, x0);
  if (count == Rows && y0 >= Rad && y0 + Rows + Rad <= ny && vectors) {
    strip3d_march<Rad, Shape, Rows, strip3d_rows::inner, Ahead>(
        in, in_py, in_pz, out, out_py, out_pz, nx, ny, nz, x0, y0, z0, z1, w, b);
    return;
  }
#pragma unroll 1
  for (std::int64_t y = y0; y < y0 + count && y < ny; ++y) {
    stencil3d_strip_row<Rad, Shape>(in, in_py, in_pz, out, out_py, out_pz, nx, ny, nz, x0, y, z0,
                                    z1, w, b, vectors);
  }
}

}  // namespace gpuprims::detail
