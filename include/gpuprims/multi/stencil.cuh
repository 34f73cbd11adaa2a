// gpuprims::multi::stencil1d and stencil2d: time steps of the single-GPU stencils over a domain
// split across the ranks of an NCCL communicator, the halo exchange hidden behind the interior;
// exchange_halos1d / exchange_halos2d (the exchange alone); check_stencil1d / check_stencil2d (the
// collective check that the ranks agree, once at setup).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/multi/slab_step.cuh>
#include <gpuprims/device/stencil.cuh>
#include <gpuprims/device/stencil2d.cuh>
#include <gpuprims/multi/communicator.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gpuprims::multi {

/// The halo each side of a rank's points for Steps fused steps of radius Rad: Steps x Rad.
template <int Rad, int Steps>
inline constexpr std::size_t halo_of = static_cast<std::size_t>(Steps) * Rad;

/// Where a rank's own points start in stencil1d's buffers: the halo rounded up to a whole number
/// of 16-byte words, so that the owned points of a 16-byte aligned buffer (cudaMalloc's) are
/// aligned too and the interior reads and writes 16-byte words. The halo is the `halo_of` points
/// just before them; the buffers hold stencil1d_first + n + halo_of points.
template <class T, int Rad, int Steps>
inline constexpr std::size_t stencil1d_first = (halo_of<Rad, Steps> * sizeof(T) + 15) / 16 * 16 /
                                               sizeof(T);  // float and double divide 16

/// Steps time steps of gpuprims::apply_stencil1d_fused<Rad, Steps> over a 1D domain split in slabs
/// across comm's ranks, in rank order. This rank owns n points; `in` and `out` each hold
/// first + n + halo points (first = stencil1d_first<T, Rad, Steps>, halo = halo_of<Rad, Steps>),
/// the owned ones at [first, first + n), a halo just before and just after them. One
/// exchange serves the Steps steps: the halos of `in` are filled from the neighbours (grouped
/// ncclSend/ncclRecv on comm's stream) while the interior is computed on `stream`, then the two
/// edges; `out`'s owned points then equal, bit for bit, those of the single-GPU call on the whole
/// domain. A periodic `b` joins the last rank to the first; any other rule applies at the
/// domain's two ends. `out`'s halo points may be overwritten. No allocation after the first call
/// on a stream (edge scratch: the stream's workspace, device/workspace.cuh), no host wait.
/// Local checks only (null or overlapping buffers, n below the halo, comm not on the current
/// device): cudaErrorInvalidValue or cudaErrorInvalidDevice, nothing launched. That the ranks
/// agree (radius, steps, type, rule) is check_stencil1d's, once: a call that disagrees across
/// ranks is undefined.
///
///   gpuprims::stencil_weights<float, 1> w{{0.25f, 0.5f, 0.25f}};
///   constexpr std::size_t first = gpuprims::multi::stencil1d_first<float, 1, 4>;
///   // d_a, d_b: first + n + gpuprims::multi::halo_of<1, 4> floats each; the points at d_a + first
///   cudaError_t e = gpuprims::multi::stencil1d<1, 4>(d_a, d_b, n, w,
///                                                    gpuprims::boundary::periodic(), comm,
///                                                    stream);
template <int Rad, int Steps = 1, class Tuning = stencil_fused_tuning, class T, class Weights>
[[nodiscard]] cudaError_t stencil1d(T* in, T* out, std::size_t n, const Weights& weights,
                                    boundary b, communicator& comm, cudaStream_t stream = 0) {
  gpuprims::detail::check_stencil_types<Rad, T, Weights>();
  if (in == nullptr || out == nullptr) {
    return cudaErrorInvalidValue;
  }
  constexpr std::size_t pad = stencil1d_first<T, Rad, Steps> - halo_of<Rad, Steps>;
  detail::slab_rows g;
  g.rows = n;
  g.halo = halo_of<Rad, Steps>;
  return detail::slab_step(
      in + pad, out + pad, g, gpuprims::detail::known_boundary(b),
      b.mode == boundary_mode::periodic, comm, stream,
      [&](const T* in0, std::size_t batch, std::size_t len, std::size_t in_stride, T* out0,
          std::size_t /*out_pitch*/, std::size_t out_stride, cudaStream_t on) {
        return apply_stencil1d_fused<Rad, Steps, Tuning>(
            in0, out0, batch, len, batch > 1 ? in_stride : len, batch > 1 ? out_stride : len,
            weights, b, on);
      });
}

/// Steps time steps of gpuprims::apply_stencil2d_fused<Rad, Shape, Steps> over a 2D grid split in
/// strips of rows across comm's ranks (rank 0 the top strip): this rank owns `rows` rows of `cols`
/// points; `in` and `out` each hold rows + 2 x halo_of<Rad, Steps> rows (pitches in points, at
/// least cols), the owned ones from row halo on. The exchange, the overlap, the bits and the
/// checks are stencil1d's; b.y periodic joins the last strip to the first, b.x applies within
/// each row as on one GPU. Every rank passes the same cols, in_pitch and out_pitch
/// (check_stencil2d).
///
///   gpuprims::stencil2d_weights<float, 1> w{{{0, .2f, 0}, {.2f, .2f, .2f}, {0, .2f, 0}}};
///   cudaError_t e = gpuprims::multi::stencil2d<1, gpuprims::stencil_shape::star, 4>(
///       d_a, d_b, rows, cols, pitch, pitch, w, gpuprims::boundary::periodic(), comm, stream);
template <int Rad, stencil_shape Shape, int Steps = 1, class Tuning = stencil2d_fused_tuning,
          class T, class Weights>
[[nodiscard]] cudaError_t stencil2d(T* in, T* out, std::size_t rows, std::size_t cols,
                                    std::size_t in_pitch, std::size_t out_pitch,
                                    const Weights& weights, boundary2d b, communicator& comm,
                                    cudaStream_t stream = 0) {
  detail::slab_rows g;
  g.rows = rows;
  g.halo = halo_of<Rad, Steps>;
  g.cols = cols;
  g.in_pitch = in_pitch;
  g.out_pitch = out_pitch;
  return detail::slab_step(
      in, out, g, gpuprims::detail::known_boundary(b.x) && gpuprims::detail::known_boundary(b.y),
      b.y.mode == boundary_mode::periodic, comm, stream,
      [&](const T* in0, std::size_t batch, std::size_t window_rows, std::size_t in_stride_rows,
          T* out0, std::size_t window_out_pitch, std::size_t out_stride, cudaStream_t on) {
        return apply_stencil2d_fused<Rad, Shape, Steps, Tuning>(
            in0, out0, batch, window_rows, cols, in_pitch, window_out_pitch,
            in_stride_rows * in_pitch, out_stride, weights, b, on);
      });
}

/// The halo exchange of stencil1d alone: `buf` (n + 2 x halo points, owned from halo on; for
/// stencil1d's buffers pass buffer + stencil1d_first - halo_of) gets its halos from the
/// neighbours, ordered after the work queued on `stream` and before the work queued on it next.
/// halo >= 1 and n >= halo; a periodic domain closes the ring.
template <class T>
[[nodiscard]] cudaError_t exchange_halos1d(T* buf, std::size_t n, std::size_t halo, bool periodic,
                                           communicator& comm, cudaStream_t stream = 0) {
  detail::slab_rows g;
  g.rows = n;
  g.halo = halo;
  std::size_t elems = 0;
  GPUPRIMS_RETURN_IF_ERROR(detail::check_comm_here(comm));
  if (buf == nullptr || halo == 0 || n < halo || !detail::slab_span(g, 1, sizeof(T), elems)) {
    return cudaErrorInvalidValue;
  }
  return detail::exchange_on(buf, g, periodic, comm, stream);
}

/// The halo exchange of stencil2d alone: halo rows of `buf` (rows + 2 x halo rows of cols points
/// at `pitch`) from the neighbours, ordered as exchange_halos1d's.
template <class T>
[[nodiscard]] cudaError_t exchange_halos2d(T* buf, std::size_t rows, std::size_t cols,
                                           std::size_t pitch, std::size_t halo, bool periodic,
                                           communicator& comm, cudaStream_t stream = 0) {
  detail::slab_rows g;
  g.rows = rows;
  g.halo = halo;
  g.cols = cols;
  g.in_pitch = pitch;
  std::size_t elems = 0;
  GPUPRIMS_RETURN_IF_ERROR(detail::check_comm_here(comm));
  if (buf == nullptr || halo == 0 || rows < halo || cols == 0 || pitch < cols ||
      !detail::slab_span(g, pitch, sizeof(T), elems)) {
    return cudaErrorInvalidValue;
  }
  return detail::exchange_on(buf, g, periodic, comm, stream);
}

namespace detail {

inline std::uint64_t bits_of(double v) {
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

// The collective part of check_stencil1d/2d: `fields` (named by `names`) must agree on every
// rank, and every rank's own check (`local_ok`, with its owned count for the message) must pass.
inline cudaError_t agree(const communicator& comm, std::vector<std::uint64_t> fields,
                         std::vector<const char*> names, bool local_ok, std::uint64_t owned,
                         std::uint64_t halo, std::string* why) {
  fields.push_back(local_ok ? 1 : 0);
  fields.push_back(owned);
  std::vector<std::vector<std::uint64_t>> all;
  GPUPRIMS_RETURN_IF_ERROR(all_gather_fields(comm, fields, all));
  const std::size_t ok_at = fields.size() - 2;
  std::string message = first_disagreement(all, names);
  for (std::size_t r = 0; message.empty() && r < all.size(); ++r) {
    if (all[r][ok_at] == 0) {
      message = "rank " + std::to_string(r) + " owns " + std::to_string(all[r][ok_at + 1]) +
                " rows or points (at least the halo, " + std::to_string(halo) +
                ", are needed) or passed bad sizes or an unknown boundary rule";
    }
  }
  if (why != nullptr) {
    *why = message;
  }
  return message.empty() ? cudaSuccess : cudaErrorInvalidValue;
}

}  // namespace detail

/// Collective (every rank calls it with its own n): checks once, at setup, what one rank cannot
/// see alone: that the ranks agree on the element type, the radius, the fused steps and the
/// boundary rule, and that every rank owns at least halo_of<Rad, Steps> points. Every rank gets
/// the same result: cudaSuccess, or cudaErrorInvalidValue with `*why` (if given) naming the first
/// rank and field that differ. Allocates a little and waits for one exchange of grouped
/// ncclSend/ncclRecv on comm's stream (all_gather_fields).
///
///   std::string why;
///   cudaError_t e = gpuprims::multi::check_stencil1d<1, 4, float>(n, b, comm, &why);
template <int Rad, int Steps, class T>
[[nodiscard]] cudaError_t check_stencil1d(std::size_t n, boundary b, const communicator& comm,
                                          std::string* why = nullptr) {
  constexpr std::size_t halo = halo_of<Rad, Steps>;
  return detail::agree(
      comm, {sizeof(T), Rad, Steps, static_cast<std::uint64_t>(b.mode), detail::bits_of(b.value)},
      {"element bytes", "radius", "steps", "boundary rule", "boundary value"},
      n >= halo && gpuprims::detail::known_boundary(b), n, halo, why);
}

/// check_stencil1d for stencil2d: the ranks also agree on the shape, both axes' rules, cols and
/// both pitches (calls that swap the buffers exchange rows at either pitch), and each owns at
/// least halo_of<Rad, Steps> rows with pitches of at least cols.
///
///   std::string why;
///   cudaError_t e = gpuprims::multi::check_stencil2d<1, gpuprims::stencil_shape::star, 4, float>(
///       rows, cols, pitch, pitch, b, comm, &why);
template <int Rad, stencil_shape Shape, int Steps, class T>
[[nodiscard]] cudaError_t check_stencil2d(std::size_t rows, std::size_t cols, std::size_t in_pitch,
                                          std::size_t out_pitch, boundary2d b,
                                          const communicator& comm, std::string* why = nullptr) {
  constexpr std::size_t halo = halo_of<Rad, Steps>;
  return detail::agree(
      comm,
      {sizeof(T), Rad, Steps, static_cast<std::uint64_t>(Shape),
       static_cast<std::uint64_t>(b.x.mode), detail::bits_of(b.x.value),
       static_cast<std::uint64_t>(b.y.mode), detail::bits_of(b.y.value), cols, in_pitch, out_pitch},
      {"element bytes", "radius", "steps", "shape", "x boundary rule", "x boundary value",
       "y boundary rule", "y boundary value", "cols", "in_pitch", "out_pitch"},
      rows >= halo && cols > 0 && in_pitch >= cols && out_pitch >= cols &&
          gpuprims::detail::known_boundary(b.x) && gpuprims::detail::known_boundary(b.y),
      rows, halo, why);
}

}  // namespace gpuprims::multi
