// The engine behind gpuprims::multi::stencil1d and stencil2d: a domain split in slabs of rows
// across ranks (1D: a row is one point), each rank's buffers holding its rows with `halo` rows
// above and below. One step: the halo exchange (grouped ncclSend/ncclRecv with the neighbours on
// the communication stream) while the interior is computed on the caller's stream, then the two
// edges from the exchanged halos.
//
// Why the edges go through scratch: a window of rows computed with the single-GPU launchers is
// exact only `halo` rows away from each of its cut ends (each fused step moves the error of a
// wrong neighbour Rad rows further in). The interior window's inexact rows are the slab's edge
// rows; an edge window's inexact rows on its inner side would land on interior rows already
// computed exactly. So the two edge windows (one launch, a batch of two) write to scratch and
// only their exact rows are copied out.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/device/workspace.cuh>
#include <gpuprims/multi/communicator.cuh>

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <limits>

namespace gpuprims::multi::detail {

// One rank's slab: `rows` owned rows, `halo` rows above and below in both buffers, `cols` points a
// row, pitches in points (1D: cols = pitches = 1).
struct slab_rows {
  std::size_t rows = 0;
  std::size_t halo = 0;
  std::size_t cols = 1;
  std::size_t in_pitch = 1;
  std::size_t out_pitch = 1;
};

// The neighbours: rank 0 is the top (1D: the left), a periodic domain closes the ring.
struct neighbours {
  bool has_up = false, has_down = false;
  int up = 0, down = 0;
};

inline neighbours neighbours_of(const communicator& comm, bool periodic) {
  const int r = comm.rank(), n = comm.ranks();
  return {periodic || r > 0, periodic || r < n - 1, (r - 1 + n) % n, (r + 1) % n};
}

// The buffer of rows + 2 * halo rows at `pitch`: elements spanned, false on overflow.
inline bool slab_span(const slab_rows& g, std::size_t pitch, std::size_t elem_size,
                      std::size_t& elements) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  if (g.halo > (max - g.rows) / 2) {
    return false;
  }
  const std::size_t all_rows = g.rows + 2 * g.halo;
  if (pitch != 0 && all_rows - 1 > (max - g.cols) / pitch) {
    return false;
  }
  elements = (all_rows - 1) * pitch + g.cols;
  return elements <= max / elem_size;
}

// Local checks of one step (the ranks' agreement is check_stencil*'s, once); `rules_known`: the
// boundary rules are ones the stencils know.
template <class T>
cudaError_t validate_slab(const T* in, const T* out, const slab_rows& g, bool rules_known,
                          const communicator& comm) {
  GPUPRIMS_RETURN_IF_ERROR(check_comm_here(comm));
  std::size_t in_elems = 0, out_elems = 0;
  const bool ok =
      rules_known && in != nullptr && out != nullptr && g.halo >= 1 && g.rows >= g.halo &&
      g.cols >= 1 && g.in_pitch >= g.cols && g.out_pitch >= g.cols &&
      slab_span(g, g.in_pitch, sizeof(T), in_elems) &&
      slab_span(g, g.out_pitch, sizeof(T), out_elems) &&
      !gpuprims::detail::ranges_overlap(in, in_elems * sizeof(T), out, out_elems * sizeof(T));
  return ok ? cudaSuccess : cudaErrorInvalidValue;
}

// The halo exchange of `buf` (rows at g.in_pitch) on the communication stream: the bottom owned
// rows to the rank below and the top halo from the rank above, then the top owned rows up and the
// bottom halo from below. Every rank issues them in this order, so with two ranks on a ring (both
// neighbours the same rank) each send meets the matching receive. A row block is sent as one span
// of (halo - 1) pitches + cols points: a buffer may end right after its last row's cols.
template <class T>
cudaError_t exchange_rows(T* buf, const slab_rows& g, const neighbours& nb,
                          const communicator& comm) {
  const std::size_t bytes = ((g.halo - 1) * g.in_pitch + g.cols) * sizeof(T);
  T* const top_halo = buf;
  T* const top_owned = buf + g.halo * g.in_pitch;
  T* const bottom_owned = buf + g.rows * g.in_pitch;  // rows [rows, rows + halo)
  T* const bottom_halo = buf + (g.rows + g.halo) * g.in_pitch;
  GPUPRIMS_RETURN_IF_NCCL_ERROR(ncclGroupStart());
  ncclResult_t r = ncclSuccess;
  if (nb.has_down) {
    r = ncclSend(bottom_owned, bytes, ncclUint8, nb.down, comm.nccl(), comm.stream());
  }
  if (r == ncclSuccess && nb.has_up) {
    r = ncclRecv(top_halo, bytes, ncclUint8, nb.up, comm.nccl(), comm.stream());
  }
  if (r == ncclSuccess && nb.has_up) {
    r = ncclSend(top_owned, bytes, ncclUint8, nb.up, comm.nccl(), comm.stream());
  }
  if (r == ncclSuccess && nb.has_down) {
    r = ncclRecv(bottom_halo, bytes, ncclUint8, nb.down, comm.nccl(), comm.stream());
  }
  const ncclResult_t end = ncclGroupEnd();
  GPUPRIMS_RETURN_IF_NCCL_ERROR(r);
  return from_nccl(end);
}

// The exchange alone, ordered after the work already queued on `stream` and before the work
// queued on it next.
template <class T>
cudaError_t exchange_on(T* buf, const slab_rows& g, bool periodic, communicator& comm,
                        cudaStream_t stream) {
  const neighbours nb = neighbours_of(comm, periodic);
  if (!nb.has_up && !nb.has_down) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(cudaEventRecord(comm.ready_event(), stream));
  GPUPRIMS_RETURN_IF_ERROR(cudaStreamWaitEvent(comm.stream(), comm.ready_event(), 0));
  const cudaError_t exchanged = exchange_rows(buf, g, nb, comm);
  GPUPRIMS_RETURN_IF_ERROR(cudaEventRecord(comm.exchanged_event(), comm.stream()));
  GPUPRIMS_RETURN_IF_ERROR(cudaStreamWaitEvent(stream, comm.exchanged_event(), 0));
  return exchanged;
}

// One step. window(in0, batch, rows, in_stride_rows, out0, out_pitch, out_stride, stream) runs
// the single-GPU launcher on `batch` windows of `rows` rows starting at in0 (in_stride_rows rows
// apart, g.in_pitch apart inside), writing to out0 (out_pitch a row, out_stride points a window)
// on `stream`; its cut ends take any boundary rule, the domain's true ends (rank 0's top, the last
// rank's bottom, unless periodic) the domain's.
//
// The overlapped path, by stream:
//   caller's stream:  [ready] interior window .................. [wait edges] copy top, copy bottom
//   comm stream:      [wait ready] exchange, edge windows -> scratch [edges]
// The edge windows run on the communication stream so that their latency (a short window of many
// fused steps is a long chain) hides behind the interior too; only the two copies of their exact
// rows wait for the interior, whose inexact edge rows they replace.
//
// Every check comes before any traffic; should a launch fail after the exchange was queued, the
// caller's stream is still ordered after the exchange before the error returns.
template <class T, class Window>
cudaError_t slab_step(T* in, T* out, const slab_rows& g, bool rules_known, bool periodic,
                      communicator& comm, cudaStream_t stream, Window&& window) {
  GPUPRIMS_RETURN_IF_ERROR(validate_slab(in, out, g, rules_known, comm));
  const std::size_t H = g.halo, L = g.rows, ip = g.in_pitch, op = g.out_pitch;
  const neighbours nb = neighbours_of(comm, periodic);
  if (!nb.has_up && !nb.has_down) {  // one rank, no ring: the whole domain is here
    return window(in + H * ip, 1, L, 0, out + H * op, op, 0, stream);
  }
  const auto start_exchange = [&]() -> cudaError_t {
    GPUPRIMS_RETURN_IF_ERROR(cudaEventRecord(comm.ready_event(), stream));
    GPUPRIMS_RETURN_IF_ERROR(cudaStreamWaitEvent(comm.stream(), comm.ready_event(), 0));
    return exchange_rows(in, g, nb, comm);
  };
  // An error after the exchange was queued: the caller's stream waits for the communication
  // stream anyway (nothing of this call may run after the caller reuses the buffers).
  const auto failed_after_exchange = [&](cudaError_t e) -> cudaError_t {
    if (cudaEventRecord(comm.exchanged_event(), comm.stream()) == cudaSuccess) {
      (void)cudaStreamWaitEvent(stream, comm.exchanged_event(), 0);
    }
    return e;
  };

  // Below 6 halos the two edge windows (3 halos each) would overlap or the interior be empty:
  // the whole slab waits for the exchange and is one window (its halo rows of `out` are written
  // too, with values nobody reads).
  if (L < 6 * H) {
    const cudaError_t started = start_exchange();
    if (started != cudaSuccess) {
      return failed_after_exchange(started);
    }
    GPUPRIMS_RETURN_IF_ERROR(cudaEventRecord(comm.exchanged_event(), comm.stream()));
    GPUPRIMS_RETURN_IF_ERROR(cudaStreamWaitEvent(stream, comm.exchanged_event(), 0));
    const std::size_t first = nb.has_up ? 0 : H;
    const std::size_t last = nb.has_down ? L + 2 * H : L + H;
    return window(in + first * ip, 1, last - first, 0, out + first * op, op, 0, stream);
  }

  // The edges: windows of 3 halos, from the top halo (or, at the domain's top, from the first
  // owned row), and ending with the bottom halo (or the last owned row). The owned edge rows are
  // the window's middle third where both ends are cut, its first third at the domain's top and
  // its last third at the domain's bottom.
  const std::size_t top_start = nb.has_up ? 0 : H;
  const std::size_t bottom_start = nb.has_down ? L - H : L - 2 * H;
  const std::size_t top_exact = nb.has_up ? H : 0;
  const std::size_t bottom_exact = nb.has_down ? H : 2 * H;
  const std::size_t window_points = 3 * H * g.cols;
  // The scratch is the caller's stream's, taken before `ready` is recorded: its (stream-ordered)
  // allocation comes before the communication stream's use of it.
  return gpuprims::detail::with_stream_workspace(
      stream, 2 * window_points * sizeof(T), [&](void* ws) -> cudaError_t {
        T* const scratch = static_cast<T*>(ws);
        cudaError_t e = start_exchange();
        if (e == cudaSuccess) {
          e = window(in + top_start * ip, 2, 3 * H, bottom_start - top_start, scratch, g.cols,
                     window_points, comm.stream());
        }
        if (e != cudaSuccess) {
          return failed_after_exchange(e);
        }
        GPUPRIMS_RETURN_IF_ERROR(cudaEventRecord(comm.exchanged_event(), comm.stream()));
        // The interior, while the halos travel: the owned rows as one window, exact from H rows
        // in. The caller's stream waits for the edges whatever the interior's launch returned.
        const cudaError_t interior = window(in + H * ip, 1, L, 0, out + H * op, op, 0, stream);
        GPUPRIMS_RETURN_IF_ERROR(cudaStreamWaitEvent(stream, comm.exchanged_event(), 0));
        GPUPRIMS_RETURN_IF_ERROR(interior);
        const std::size_t row_bytes = g.cols * sizeof(T);
        GPUPRIMS_RETURN_IF_ERROR(cudaMemcpy2DAsync(out + H * op, op * sizeof(T),
                                                   scratch + top_exact * g.cols, row_bytes,
                                                   row_bytes, H, cudaMemcpyDeviceToDevice, stream));
        return cudaMemcpy2DAsync(out + L * op, op * sizeof(T),
                                 scratch + window_points + bottom_exact * g.cols, row_bytes,
                                 row_bytes, H, cudaMemcpyDeviceToDevice, stream);
      });
}

}  // namespace gpuprims::multi::detail
