// Internals of the 2D stencil's register-streaming form (gpuprims::warp_stencil2d, the kernel
// behind apply_stencil2d): a warp owns a strip 32 16-byte vectors wide, each lane one vector of
// columns, and marches down it a batch of rows at a time. Rows live in registers; a lane's
// neighbours along x come from the lanes beside it by shuffles, the strip's own halo (Rad columns
// each side) from one extra value a row held by lanes 0 to 2 Rad - 1. No shared memory, no barrier.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/async_copy.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/detail/stencil/tile2d.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace gpuprims::detail {

// Elements a lane owns in a row (one 16-byte vector), and the strip's width.
template <class T>
inline constexpr int strip_vector = 16 / static_cast<int>(sizeof(T));
template <class T>
inline constexpr int strip_width = 32 * strip_vector<T>;

// A row of a strip as a lane holds it: its vector, and lane l < 2 Rad one column of the strip's
// halo (l < Rad: column x0 - Rad + l; else x0 + width + l - Rad).
template <class T>
struct strip_row {
  T v[strip_vector<T>];
  T halo;
};

// A lane's vector of row gy, columns x0 + lane V .. + V - 1 (every lane of the warp calls it): the
// y rule first outside the grid, then the x rule, as fetch2d reads; a lane whose vector lies inside
// the row, 16-byte aligned, loads it whole. Returns the row read (nullptr for a constant row
// outside the grid).
template <class T>
__device__ __forceinline__ const T* strip_load_vector(const T* in, std::size_t pitch,
                                                      std::int64_t nx, std::int64_t ny,
                                                      std::int64_t x0, std::int64_t gy,
                                                      const boundary2d& b, int lane,
                                                      T (&v)[strip_vector<T>]) {
  constexpr int V = strip_vector<T>;
  if ((gy < 0 || gy >= ny) && b.y.mode == boundary_mode::constant) {
#pragma unroll
    for (int e = 0; e < V; ++e) {
      v[e] = static_cast<T>(b.y.value);
    }
    return nullptr;
  }
  const std::int64_t sy = gy >= 0 && gy < ny ? gy : boundary_index(gy, ny, b.y.mode);
  const T* row = in + static_cast<std::size_t>(sy) * pitch;
  const std::int64_t gx = x0 + static_cast<std::int64_t>(lane) * V;
  if (gx >= 0 && gx + V <= nx && aligned16(row + gx)) {  // this lane's vector, whole and aligned
    const uint4 word = load16(row + gx);
    memcpy(v, &word, sizeof(word));
  } else {
#pragma unroll
    for (int e = 0; e < V; ++e) {
      v[e] = load_with_boundary(row, gx + e, nx, b.x);
    }
  }
  return row;
}

// Row gy of the strip at x0 with its halo (every lane of the warp calls it).
template <int Rad, class T>
__device__ __forceinline__ strip_row<T> strip_load_row(const T* in, std::size_t pitch,
                                                       std::int64_t nx, std::int64_t ny,
                                                       std::int64_t x0, std::int64_t gy,
                                                       const boundary2d& b, int lane) {
  strip_row<T> r;
  if ((gy < 0 || gy >= ny) && b.y.mode == boundary_mode::constant) {
#pragma unroll
    for (int e = 0; e < strip_vector<T>; ++e) {
      r.v[e] = static_cast<T>(b.y.value);
    }
    r.halo = static_cast<T>(b.y.value);
    return r;
  }
  const T* row = strip_load_vector(in, pitch, nx, ny, x0, gy, b, lane, r.v);
  const std::int64_t hx =
      lane < Rad ? x0 - Rad + lane : x0 + strip_width<T> + (lane < 2 * Rad ? lane - Rad : 0);
  r.halo = lane < 2 * Rad ? load_with_boundary(row, hx, nx, b.x) : T(0);
  return r;
}

// Where lane l < 2 Rad of a strip at x0 of an nx-wide grid finds its halo column (strip_row::halo)
// in every row, resolved by the x rule once for the strip: an offset from column x0, or the rule's
// constant. For strips whose rows are read at fixed offsets (the inner marches, strip3d_source).
template <int Rad, class T>
class strip_halo {
 public:
  strip_halo() = default;  // reads nothing: for strips that read their rows through fetch2d
  __device__ __forceinline__ strip_halo(std::int64_t nx, std::int64_t x0, const boundary& bx,
                                        int lane)
      : bx_(&bx) {
    const std::int64_t hx =
        lane < Rad ? x0 - Rad + lane : x0 + strip_width<T> + (lane < 2 * Rad ? lane - Rad : 0);
    const bool outside = hx < 0 || hx >= nx;
    constant_ = outside && bx.mode == boundary_mode::constant;
    offset_ = (outside && !constant_ ? boundary_index(hx, nx, bx.mode) : hx) - x0;
  }

  // The lane's halo value of the row whose column x0 is at `row` (0 in lanes past 2 Rad).
  __device__ __forceinline__ T read(const T* row, int lane) const {
    return lane >= 2 * Rad ? T(0) : constant_ ? static_cast<T>(bx_->value) : row[offset_];
  }

 private:
  // The x rule, by address: a kernel argument, whose constant stays in the constant bank.
  const boundary* bx_ = nullptr;
  std::int64_t offset_ = 0;
  bool constant_ = false;
};

// Column x0 + lane V + d of a row, d in [-Rad, V + Rad): the lane's own element, else a
// neighbour's by one shuffle, or the strip's halo past the warp's ends by a second (every lane
// calls it with the same d).
template <int Rad, class T>
__device__ __forceinline__ T strip_column(const strip_row<T>& r, int lane, int d) {
  constexpr int V = strip_vector<T>;
  if (d >= 0 && d < V) {
    return r.v[d];
  }
  const int s = d < 0 ? -((V - 1 - d) / V) : d / V;  // the lane holding it: lane + s
  const T from_lane = shuffle_from(r.v[d - s * V], (lane + s) & 31);
  const int rel = lane * V + d;  // the column relative to the strip's first
  const int h = rel < 0 ? rel + Rad : rel - strip_width<T> + Rad;
  const T from_halo = shuffle_from(r.halo, h < 0 ? 0 : (h < 2 * Rad ? h : 2 * Rad - 1));
  return rel < 0 || rel >= strip_width<T> ? from_halo : from_lane;
}

// ext[k] = column x0 + lane V - Rad + k of a row, k in [0, V + 2 Rad): the lane's own vector in the
// middle, its neighbours' values (or the strip's halo past the warp's ends) around it. Two
// shuffles for each of the 2 Rad values outside the lane's vector.
template <int Rad, class T, class Row>
__device__ __forceinline__ void strip_extend(const Row& r, int lane,
                                             T (&ext)[strip_vector<T> + 2 * Rad]) {
#pragma unroll
  for (int k = 0; k < strip_vector<T> + 2 * Rad; ++k) {
    ext[k] = strip_column<Rad>(r, lane, k - Rad);
  }
}

// A row of a strip whose edges need no halo (the fused strips overlap their neighbours): the lane's
// vector alone.
template <class T>
struct strip_vec {
  T v[strip_vector<T>];
};

// strip_column for a row without halo: past the warp's ends the values wrap around (don't-care
// columns).
template <int Rad, class T>
__device__ __forceinline__ T strip_column(const strip_vec<T>& r, int lane, int d) {
  constexpr int V = strip_vector<T>;
  if (d >= 0 && d < V) {
    return r.v[d];
  }
  const int s = d < 0 ? -((V - 1 - d) / V) : d / V;
  return shuffle_from(r.v[d - s * V], (lane + s) & 31);
}

// The outputs of row y0 + J of the strip (q[J + Rad] its centre row, q[J] .. q[J + 2 Rad] the rows
// it reads) by stencil2d_point's chain, written out so that a box needs one extended row at a time:
// fused multiply-adds from zero, a box row by row (dy, then dx, from -Rad), a star along x first
// then along y (skipping dy = 0). The tests compare the bits with stencil2d_point's.
template <int Rad, stencil_shape Shape, int J, class Row, int Q, class Weights, class T>
__device__ __forceinline__ void strip_point_row(const Row (&q)[Q], const Weights& w, int lane,
                                                T (&o)[strip_vector<T>]) {
  constexpr int V = strip_vector<T>;
  if constexpr (is_stencil_update<Weights>) {
    // Every row of the box extended first (shuffles by every lane together), then the user's
    // function once per output on registers alone, so it may branch on the values it reads.
    T box[2 * Rad + 1][V + 2 * Rad];
#pragma unroll
    for (int dy = 0; dy <= 2 * Rad; ++dy) {
      strip_extend<Rad>(q[J + dy], lane, box[dy]);
    }
#pragma unroll
    for (int e = 0; e < V; ++e) {
      o[e] =
          stencil_update_point<T>(w, [&](int dy, int dx) { return box[Rad + dy][e + Rad + dx]; });
    }
  } else {
#pragma unroll
    for (int e = 0; e < V; ++e) {
      o[e] = T(0);
    }
    T ext[V + 2 * Rad];
#pragma unroll
    for (int dy = -Rad; dy <= Rad; ++dy) {
      if (Shape == stencil_shape::box || dy == 0) {
        strip_extend<Rad>(q[J + Rad + dy], lane, ext);
#pragma unroll
        for (int e = 0; e < V; ++e) {
#pragma unroll
          for (int dx = -Rad; dx <= Rad; ++dx) {
            o[e] = fused(static_cast<T>(w(dy, dx)), ext[e + Rad + dx], o[e]);
          }
        }
      }
    }
    if constexpr (Shape == stencil_shape::star) {
#pragma unroll
      for (int e = 0; e < V; ++e) {
#pragma unroll
        for (int dy = -Rad; dy <= Rad; ++dy) {
          if (dy != 0) {
            o[e] = fused(static_cast<T>(w(dy, 0)), q[J + Rad + dy].v[e], o[e]);
          }
        }
      }
    }
  }
}

// Stores a lane's outputs of row gy (if inside the grid): one 16-byte store where the row allows.
template <class T>
__device__ __forceinline__ void strip_store_row(T* out, std::size_t pitch, std::int64_t nx,
                                                std::int64_t ny, std::int64_t gx, std::int64_t gy,
                                                const T (&o)[strip_vector<T>]) {
  constexpr int V = strip_vector<T>;
  if (gy >= ny) {
    return;
  }
  T* row = out + static_cast<std::size_t>(gy) * pitch;
  if (gx + V <= nx && aligned16(row + gx)) {
    uint4 word;
    memcpy(&word, o, sizeof(word));
    store16(row + gx, word);
    return;
  }
#pragma unroll
  for (int e = 0; e < V; ++e) {
    if (gx + e < nx) {
      row[gx + e] = o[e];
    }
  }
}

// A lane's outputs of a row inside the grid, 16-byte aligned at dst: one 16-byte store, then dst
// moves down a row.
template <class T>
__device__ __forceinline__ void strip_store16(T*& dst, std::size_t pitch,
                                              const T (&o)[strip_vector<T>]) {
  uint4 word;
  memcpy(&word, o, sizeof(word));
  store16(dst, word);
  dst += pitch;
}

// A batch of output rows: row y0 + base + J from q[J] .. q[J + 2 Rad], through store(J, outputs).
template <int Rad, stencil_shape Shape, int Batch, class T, int Q, class Weights, class Store>
__device__ __forceinline__ void strip_batch(const strip_row<T> (&q)[Q], const Weights& w, int lane,
                                            Store&& store) {
  each_of(std::make_integer_sequence<int, Batch>{}, [&](auto j) {
    T o[strip_vector<T>];
    strip_point_row<Rad, Shape, decltype(j)::value>(q, w, lane, o);
    store(decltype(j)::value, o);
  });
}

// The interior march: every row of the strip and the Rad rows around it inside the grid, every
// lane's vector inside its row, input and output rows 16-byte aligned at x0; the halo columns come
// through the x rule, resolved once (`halo`). Running pointers, no other rules, no checks; the next
// batch's loads are issued before this batch's arithmetic, so a warp always has a batch of rows in
// flight.
template <int Rad, stencil_shape Shape, int Rows, int Batch, class T, class Weights>
__device__ __forceinline__ void strip_march_inner(const T* in, std::size_t in_pitch, T* out,
                                                  std::size_t out_pitch, std::int64_t x0,
                                                  std::int64_t y0, const Weights& w,
                                                  const strip_halo<Rad, T>& halo, int lane) {
  constexpr int V = strip_vector<T>, Q = Batch + 2 * Rad;
  const T* src = in + static_cast<std::size_t>(y0 - Rad) * in_pitch + x0;
  T* dst = out + static_cast<std::size_t>(y0) * out_pitch + x0 + lane * V;
  auto load = [&]() {
    strip_row<T> r;
    const uint4 word = load16(src + lane * V);
    memcpy(r.v, &word, sizeof(word));
    r.halo = halo.read(src, lane);
    src += in_pitch;
    return r;
  };
  strip_row<T> q[Q], next[Batch];
#pragma unroll
  for (int k = 0; k < 2 * Rad; ++k) {
    q[k] = load();
  }
#pragma unroll
  for (int j = 0; j < Batch; ++j) {
    next[j] = load();
  }
  for (int base = 0; base < Rows; base += Batch) {
#pragma unroll
    for (int j = 0; j < Batch; ++j) {
      q[2 * Rad + j] = next[j];
    }
    if (base + Batch < Rows) {
#pragma unroll
      for (int j = 0; j < Batch; ++j) {
        next[j] = load();
      }
    }
    strip_batch<Rad, Shape, Batch>(q, w, lane,
                                   [&](int, const T(&o)[V]) { strip_store16(dst, out_pitch, o); });
#pragma unroll
    for (int k = 0; k < 2 * Rad; ++k) {
      q[k] = q[Batch + k];
    }
  }
}

// A warp's shared memory for a staged strip of Rows rows: the Rows + 2 Rad rows it reads, 16 bytes
// a lane.
template <class T, int Rad, int Rows>
struct strip_stage {
  uint4 rows[Rows + 2 * Rad][32];
};

// The interior march with the strip's rows staged in shared memory: all Rows + 2 Rad rows are
// copied into `stage` by background copies at once, with the halo values loaded into registers
// beside them, before any arithmetic; so a warp has its whole strip in flight without holding its
// rows in registers. The arithmetic and stores are strip_march_inner's.
template <int Rad, stencil_shape Shape, int Rows, int Batch, class T, class Weights>
__device__ __forceinline__ void strip_march_staged(const T* in, std::size_t in_pitch, T* out,
                                                   std::size_t out_pitch, std::int64_t x0,
                                                   std::int64_t y0, const Weights& w,
                                                   const strip_halo<Rad, T>& halo,
                                                   strip_stage<T, Rad, Rows>& stage, int lane) {
  constexpr int V = strip_vector<T>, Q = Batch + 2 * Rad, R = Rows + 2 * Rad;
  const T* src = in + static_cast<std::size_t>(y0 - Rad) * in_pitch + x0;
  T* dst = out + static_cast<std::size_t>(y0) * out_pitch + x0 + lane * V;
#pragma unroll
  for (int k = 0; k < R; ++k) {
    arch::async_copy(&stage.rows[k][lane], src + k * in_pitch + lane * V);
  }
  arch::async_copy_commit();
  T halos[R];
#pragma unroll
  for (int k = 0; k < R; ++k) {
    halos[k] = halo.read(src + k * in_pitch, lane);
  }
  arch::async_copy_wait<0>();
  auto row = [&](int k) {
    strip_row<T> r;
    memcpy(r.v, &stage.rows[k][lane], sizeof(uint4));
    r.halo = halos[k];
    return r;
  };
  strip_row<T> q[Q];
#pragma unroll
  for (int k = 0; k < 2 * Rad; ++k) {
    q[k] = row(k);
  }
#pragma unroll
  for (int base = 0; base < Rows; base += Batch) {
#pragma unroll
    for (int j = 0; j < Batch; ++j) {
      q[2 * Rad + j] = row(base + 2 * Rad + j);
    }
    strip_batch<Rad, Shape, Batch>(q, w, lane,
                                   [&](int, const T(&o)[V]) { strip_store16(dst, out_pitch, o); });
#pragma unroll
    for (int k = 0; k < 2 * Rad; ++k) {
      q[k] = q[Batch + k];
    }
  }
}

// Any other strip: rows through the y rule, elements through the x rule where the strip or its halo
// leaves the grid, element loads and stores where rows are not 16-byte aligned; Batch rows' loads
// in flight at once, 2 Rad rows carried to the next batch.
template <int Rad, stencil_shape Shape, int Rows, int Batch, class T, class Weights>
__device__ __forceinline__ void strip_march_edge(const T* in, std::size_t in_pitch, T* out,
                                                 std::size_t out_pitch, std::int64_t nx,
                                                 std::int64_t ny, std::int64_t x0, std::int64_t y0,
                                                 const Weights& w, const boundary2d& b, int lane) {
  constexpr int V = strip_vector<T>, Q = Batch + 2 * Rad;
  auto load = [&](std::int64_t gy) {
    return strip_load_row<Rad>(in, in_pitch, nx, ny, x0, gy, b, lane);
  };
  strip_row<T> q[Q];
#pragma unroll
  for (int k = 0; k < 2 * Rad; ++k) {
    q[k] = load(y0 - Rad + k);
  }
  for (int base = 0; base < Rows && y0 + base < ny; base += Batch) {
#pragma unroll
    for (int j = 0; j < Batch; ++j) {
      q[2 * Rad + j] = load(y0 + base + Rad + j);
    }
    strip_batch<Rad, Shape, Batch>(q, w, lane, [&](int j, const T(&o)[V]) {
      strip_store_row(out, out_pitch, nx, ny, x0 + static_cast<std::int64_t>(lane) * V,
                      y0 + base + j, o);
    });
#pragma unroll
    for (int k = 0; k < 2 * Rad; ++k) {
      q[k] = q[Batch + k];
    }
  }
}

// Whether the strip at (x0, y0) and the Rad rows around it lie inside the grid, every lane's vector
// inside its row, its input and output rows 16-byte aligned at x0 (the inner marches' conditions;
// the halo columns may lie outside: strip_halo applies the x rule to them, so the strips at a
// grid's left and right edges march as fast as the others).
template <int Rad, int Rows, class T>
__device__ __forceinline__ bool strip_is_inner(const T* in, std::size_t in_pitch, const T* out,
                                               std::size_t out_pitch, std::int64_t nx,
                                               std::int64_t ny, std::int64_t x0, std::int64_t y0) {
  constexpr int V = strip_vector<T>;
  return x0 >= 0 && x0 + strip_width<T> <= nx && y0 >= Rad && y0 + Rows + Rad <= ny &&
         aligned16(in + x0) && in_pitch % V == 0 && aligned16(out + x0) && out_pitch % V == 0;
}

// The strip [x0, x0 + strip_width) x [y0, y0 + Rows) of an nx x ny grid, by the calling warp
// (converged, every lane).
template <int Rad, stencil_shape Shape, int Rows, int Batch, class T, class Weights>
__device__ __forceinline__ void stencil2d_strip(const T* in, std::size_t in_pitch, T* out,
                                                std::size_t out_pitch, std::int64_t nx,
                                                std::int64_t ny, std::int64_t x0, std::int64_t y0,
                                                const Weights& w, const boundary2d& b) {
  static_assert(Batch >= 1 && Rows % Batch == 0, "Rows is a multiple of Batch");
  const int lane = lane_id();
  if (strip_is_inner<Rad, Rows>(in, in_pitch, out, out_pitch, nx, ny, x0, y0)) {
    const strip_halo<Rad, T> halo(nx, x0, b.x, lane);
    strip_march_inner<Rad, Shape, Rows, Batch>(in, in_pitch, out, out_pitch, x0, y0, w, halo, lane);
  } else {
    strip_march_edge<Rad, Shape, Rows, Batch>(in, in_pitch, out, out_pitch, nx, ny, x0, y0, w, b,
                                              lane);
  }
}

// stencil2d_strip with the inner strips' rows staged in `stage` (the calling warp's, in shared
// memory).
template <int Rad, stencil_shape Shape, int Rows, int Batch, class T, class Weights>
__device__ __forceinline__ void stencil2d_strip_staged(const T* in, std::size_t in_pitch, T* out,
                                                       std::size_t out_pitch, std::int64_t nx,
                                                       std::int64_t ny, std::int64_t x0,
                                                       std::int64_t y0, const Weights& w,
                                                       const boundary2d& b,
                                                       strip_stage<T, Rad, Rows>& stage) {
  const int lane = lane_id();
  if (strip_is_inner<Rad, Rows>(in, in_pitch, out, out_pitch, nx, ny, x0, y0)) {
    const strip_halo<Rad, T> halo(nx, x0, b.x, lane);
    strip_march_staged<Rad, Shape, Rows, Batch>(in, in_pitch, out, out_pitch, x0, y0, w, halo,
                                                stage, lane);
  } else {
    strip_march_edge<Rad, Shape, Rows, Batch>(in, in_pitch, out, out_pitch, nx, ny, x0, y0, w, b,
                                              lane);
  }
}

}  // namespace gpuprims::detail
