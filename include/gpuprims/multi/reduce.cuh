// gpuprims::multi::reduce (a device-wide reduction over every rank's input, the same bits on every
// rank and every run) and gpuprims::multi::all_reduce (the element-wise reduction of every rank's
// array, folded in rank order, the same bits whatever algorithm NCCL picks).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/multi/fold.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/device/reduce.cuh>
#include <gpuprims/device/workspace.cuh>
#include <gpuprims/multi/communicator.cuh>
#include <gpuprims/tuning/multi.cuh>
#include <gpuprims/tuning/reduce.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>
#include <nccl.h>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace gpuprims::multi {
namespace detail {

template <class Tuning, class Item, class T, class Op>
cudaError_t reduce_impl(const Item* in, T* out, std::size_t n, T init, bool with_init, Op op,
                        const communicator& comm, cudaStream_t stream) {
  static_assert(gpuprims::detail::has_identity<Op, T>,
                "multi::reduce needs an operator with an identity (plus, minimum, maximum, the bit "
                "operators): a rank with no items contributes it");
  if (out == nullptr || (n > 0 && in == nullptr)) {
    return cudaErrorInvalidValue;
  }
  GPUPRIMS_RETURN_IF_ERROR(check_comm_here(comm));
  const int ranks = comm.ranks(), rank = comm.rank();
  // The partials, one a rank, in the stream's scratch (purpose 0: gpuprims::reduce's own workspace
  // is another purpose, so the two never share a buffer).
  const std::size_t bytes = static_cast<std::size_t>(ranks) * sizeof(T);
  return gpuprims::detail::with_stream_workspace(stream, bytes, [&](void* ws) -> cudaError_t {
    T* const partials = static_cast<T*>(ws);
    GPUPRIMS_RETURN_IF_ERROR(gpuprims::reduce<Tuning>(in, partials + rank, n, op, stream));
    // Every partial to every rank by grouped sends and receives (an all-gather by point-to-point:
    // NCCL_ALGO, which restricts collectives, cannot refuse it; ncclAllGather fails with
    // NCCL_ALGO=Tree).
    GPUPRIMS_RETURN_IF_ERROR(group_with_every_peer(
        comm, stream,
        [&](int) { return std::pair<const void*, std::size_t>(partials + rank, sizeof(T)); },
        [&](int p) { return std::pair<void*, std::size_t>(partials + p, sizeof(T)); }));
    // The launch's own status (cudaGetLastError could return an earlier, unrelated error).
    return gpuprims::detail::launch<fold_partials_kernel<T, Op>>(dim3(1), dim3(1), stream, false,
                                                                 static_cast<const T*>(partials),
                                                                 ranks, init, with_init, op, out);
  });
}

}  // namespace detail

/// *out = op(init, p_0 op p_1 op ... op p_{R-1}) on every rank, folded left in rank order, where
/// p_r = gpuprims::reduce(rank r's in[0, n_r), op) without init (its own documented order; the
/// operator's identity for n_r == 0). Each rank passes its own n; Item, T, Op and init are the
/// same on every rank. The local reduction, the R partials to every rank by grouped
/// ncclSend/ncclRecv on `stream` (an all-gather that NCCL_ALGO cannot refuse), and a one-thread
/// fold: the result does not depend on NCCL's algorithm, so it repeats bit for bit on every rank
/// and every run. Op must have an identity (plus, minimum, maximum, the bit
/// operators). No allocation after the first call on a stream (the partials and the local
/// reduction's workspace are the stream's, device/workspace.cuh); nothing waits on the host. A
/// null `out`, a null `in` with n > 0, or a communicator not initialised: cudaErrorInvalidValue;
/// comm on another device than the current one: cudaErrorInvalidDevice; nothing launched.
///
///   cudaError_t e = gpuprims::multi::reduce(d_in, d_sum, n, 0.0f, gpuprims::plus<float>{}, comm,
///                                           stream);
template <class Tuning = reduce_tuning, class Item, class T, class Op>
[[nodiscard]] cudaError_t reduce(const Item* in, T* out, std::size_t n,
                                 cuda::std::type_identity_t<T> init, Op op,
                                 const communicator& comm, cudaStream_t stream = 0) {
  return detail::reduce_impl<Tuning>(in, out, n, init, true, op, comm, stream);
}

/// The same without init: *out = p_0 op p_1 op ... op p_{R-1}.
///
///   cudaError_t e = gpuprims::multi::reduce(d_in, d_max, n, gpuprims::maximum<float>{}, comm,
///                                           stream);
template <class Tuning = reduce_tuning, class Item, class T, class Op,
          std::enable_if_t<gpuprims::detail::has_identity<Op, T>, int> = 0>
[[nodiscard]] cudaError_t reduce(const Item* in, T* out, std::size_t n, Op op,
                                 const communicator& comm, cudaStream_t stream = 0) {
  return detail::reduce_impl<Tuning>(in, out, n, static_cast<T>(Op::identity()), false, op, comm,
                                     stream);
}

namespace detail {

// Rank p's chunk of `count` elements cut in `ranks` chunks of `chunk`, and segment s of it.
struct span {
  std::size_t begin = 0, size = 0;
};
inline span segment_of(std::size_t count, std::size_t chunk, std::size_t seg, int p,
                       std::size_t s) {
  const std::size_t chunk_begin = static_cast<std::size_t>(p) * chunk;
  const std::size_t chunk_end = chunk_begin + chunk < count ? chunk_begin + chunk : count;
  const std::size_t begin = chunk_begin + s * seg;
  if (chunk_begin >= count || begin >= chunk_end) {
    return {count, 0};
  }
  return {begin, seg < chunk_end - begin ? seg : chunk_end - begin};
}

template <class T>
struct all_reduce_shape {
  std::size_t chunk = 0, seg = 0, segments = 0;
};

template <class Tuning, class T>
all_reduce_shape<T> all_reduce_shape_of(std::size_t count, int ranks, int arch) {
  all_reduce_shape<T> s;
  const auto r = static_cast<std::size_t>(ranks);
  s.chunk = (count + r - 1) / r;
  const std::size_t per_seg = Tuning::select(arch).segment_bytes / sizeof(T);
  s.seg = per_seg == 0 ? 1 : (per_seg < s.chunk ? per_seg : s.chunk);
  s.segments = s.seg == 0 ? 0 : (s.chunk + s.seg - 1) / s.seg;
  return s;
}

template <class Tuning, class T>
std::size_t all_reduce_bytes_for(std::size_t count, int ranks, int arch) {
  if (ranks <= 1 || count == 0) {
    return 0;
  }
  const all_reduce_shape<T> s = all_reduce_shape_of<Tuning, T>(count, ranks, arch);
  return 2 * static_cast<std::size_t>(ranks - 1) * s.seg * sizeof(T);
}

// NCCL's type for a sum of T (ncclNumTypes: none).
template <class T>
constexpr ncclDataType_t nccl_sum_type() {
  if constexpr (std::is_same_v<T, float>) {
    return ncclFloat32;
  } else if constexpr (std::is_same_v<T, double>) {
    return ncclFloat64;
  } else if constexpr (std::is_integral_v<T> && sizeof(T) == 4) {
    return std::is_signed_v<T> ? ncclInt32 : ncclUint32;
  } else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
    return std::is_signed_v<T> ? ncclInt64 : ncclUint64;
  } else {
    return ncclNumTypes;
  }
}

// Two ranks summing a type NCCL sums: every element is one addition x_0 + x_1 whatever algorithm
// NCCL runs (there are two values to add), and IEEE addition commutes, so ncclAllReduce gives the
// rank-order fold's bits.
template <class T, class Op>
constexpr bool two_rank_sum_by_nccl =
    std::is_same_v<Op, gpuprims::plus<T>>&& nccl_sum_type<T>() != ncclNumTypes;

// Whether this call goes to ncclAllReduce (two ranks summing a type NCCL sums, where the policy
// allows it): it then needs no workspace.
template <class Tuning, class T, class Op>
bool all_reduce_by_nccl(int ranks, int arch) {
  if constexpr (two_rank_sum_by_nccl<T, Op>) {
    return ranks == 2 && Tuning::select(arch).two_rank_sums_by_nccl;
  } else {
    return false;
  }
}

// The all-reduce, its arguments checked; `workspace` holds all_reduce_bytes_for (unused by one
// rank and by the ncclAllReduce path).
template <class Tuning, class T, class Op>
cudaError_t all_reduce_impl(const T* in, T* out, std::size_t count, Op op, communicator& comm,
                            void* workspace, const gpuprims::detail::device_facts& facts,
                            cudaStream_t stream) {
  const int ranks = comm.ranks(), rank = comm.rank();
  if (ranks == 1) {
    return in == out
               ? cudaSuccess
               : cudaMemcpyAsync(out, in, count * sizeof(T), cudaMemcpyDeviceToDevice, stream);
  }
  const all_reduce_policy policy = Tuning::select(facts.target_arch);
  if constexpr (two_rank_sum_by_nccl<T, Op>) {
    if (all_reduce_by_nccl<Tuning, T, Op>(ranks, facts.target_arch)) {
      return from_nccl(
          ncclAllReduce(in, out, count, nccl_sum_type<T>(), ncclSum, comm.nccl(), stream));
    }
  }
  const all_reduce_shape<T> shape = all_reduce_shape_of<Tuning, T>(count, ranks, facts.target_arch);
  T* const stage = static_cast<T*>(workspace);
  const std::size_t slot_elems = static_cast<std::size_t>(ranks - 1) * shape.seg;
  const auto seg = [&](int p, std::size_t s) {
    return segment_of(count, shape.chunk, shape.seg, p, s);
  };
  const auto stage_of = [&](int p, std::size_t s) {
    return stage + (s & 1) * slot_elems +
           static_cast<std::size_t>(p < rank ? p : p - 1) * shape.seg;
  };
  const cudaStream_t cs = comm.stream();
  const auto bytes_of = [](const T* p, const span& part) {
    return std::pair<const void*, std::size_t>(p + part.begin, part.size * sizeof(T));
  };
  // Phase A of segment s: segment s of chunk p to rank p, this rank's segment s from every rank.
  const auto scatter = [&](std::size_t s) -> cudaError_t {
    return group_with_every_peer(
        comm, cs, [&](int p) { return bytes_of(in, seg(p, s)); },
        [&](int p) {
          return std::pair<void*, std::size_t>(stage_of(p, s), seg(rank, s).size * sizeof(T));
        });
  };
  // The fold of segment s on `stream`, after its phase A.
  const auto fold = [&](std::size_t s) -> cudaError_t {
    GPUPRIMS_RETURN_IF_ERROR(cudaEventRecord(comm.exchanged_event(), cs));
    GPUPRIMS_RETURN_IF_ERROR(cudaStreamWaitEvent(stream, comm.exchanged_event(), 0));
    const span mine = seg(rank, s);
    if (mine.size > 0) {
      const std::size_t blocks_needed =
          (mine.size + static_cast<std::size_t>(policy.fold_threads) - 1) / policy.fold_threads;
      const std::size_t blocks_max =
          static_cast<std::size_t>(facts.multiprocessors) * policy.fold_blocks_per_sm;
      const auto blocks =
          static_cast<unsigned int>(blocks_needed < blocks_max ? blocks_needed : blocks_max);
      GPUPRIMS_RETURN_IF_ERROR((gpuprims::detail::launch<fold_ranks_kernel<T, Op>>(
          dim3(blocks), dim3(static_cast<unsigned int>(policy.fold_threads)), stream, false,
          in + mine.begin, static_cast<const T*>(stage + (s & 1) * slot_elems), shape.seg, ranks,
          rank, mine.size, op, out + mine.begin)));
    }
    return cudaEventRecord(comm.folded_event(static_cast<int>(s & 1)), stream);
  };
  // Phase B of segment s: this rank's folded segment to every rank, theirs from them.
  const auto gather = [&](std::size_t s) -> cudaError_t {
    GPUPRIMS_RETURN_IF_ERROR(
        cudaStreamWaitEvent(cs, comm.folded_event(static_cast<int>(s & 1)), 0));
    return group_with_every_peer(
        comm, cs, [&](int) { return bytes_of(out, seg(rank, s)); },
        [&](int p) {
          const span theirs = seg(p, s);
          return std::pair<void*, std::size_t>(out + theirs.begin, theirs.size * sizeof(T));
        });
  };

  GPUPRIMS_RETURN_IF_ERROR(cudaEventRecord(comm.ready_event(), stream));
  GPUPRIMS_RETURN_IF_ERROR(cudaStreamWaitEvent(cs, comm.ready_event(), 0));
  // On the communication stream: A0 A1 B0 A2 B1 ... so that segment s + 1 travels while s folds.
  // A slot of the stage is written again (A of s + 2) only after B of s, which waited for s's fold.
  GPUPRIMS_RETURN_IF_ERROR(scatter(0));
  GPUPRIMS_RETURN_IF_ERROR(fold(0));
  for (std::size_t s = 0; s < shape.segments; ++s) {
    if (s + 1 < shape.segments) {
      GPUPRIMS_RETURN_IF_ERROR(scatter(s + 1));
      GPUPRIMS_RETURN_IF_ERROR(fold(s + 1));
    }
    GPUPRIMS_RETURN_IF_ERROR(gather(s));
  }
  GPUPRIMS_RETURN_IF_ERROR(cudaEventRecord(comm.exchanged_event(), cs));
  return cudaStreamWaitEvent(stream, comm.exchanged_event(), 0);
}

template <class T>
cudaError_t validate_all_reduce(const T* in, const T* out, std::size_t count,
                                const communicator& comm) {
  GPUPRIMS_RETURN_IF_ERROR(check_comm_here(comm));
  std::size_t bytes = 0;
  if (count > 0 &&
      (in == nullptr || out == nullptr || !gpuprims::detail::checked_bytes<T>(count, bytes) ||
       (in != out && gpuprims::detail::ranges_overlap(in, bytes, out, bytes)))) {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

}  // namespace detail

/// Bytes of workspace gpuprims::multi::all_reduce needs for `count` elements of T over `ranks`
/// ranks on the current device: two segments from every other rank (0 for one rank).
template <class T, class Tuning = all_reduce_tuning>
[[nodiscard]] cudaError_t all_reduce_workspace_bytes(std::size_t count, int ranks,
                                                     std::size_t& bytes) {
  gpuprims::detail::device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(gpuprims::detail::current_device_facts(facts));
  bytes = detail::all_reduce_bytes_for<Tuning, T>(count, ranks, facts.target_arch);
  return cudaSuccess;
}

/// out[i] = ((x_0[i] op x_1[i]) op x_2[i]) ... op x_{R-1}[i] on every rank, x_r rank r's `in`:
/// each element folded in rank order, so the bits repeat on every rank and every run whatever
/// algorithm NCCL would pick for an ncclAllReduce (its order may change with it). `count` and T,
/// Op are the same on every rank; Op need not be commutative. Rank r folds chunk r (count / R
/// elements): every rank sends it its part of chunk r (grouped ncclSend/ncclRecv), it folds, then
/// sends the result to every rank; in segments (all_reduce_tuning), a segment's fold running on
/// `stream` while the next one travels on comm's stream. In place (in == out) allowed; any other
/// overlap, null pointers with count > 0, or a short workspace return cudaErrorInvalidValue and
/// launch nothing. The workspace (all_reduce_workspace_bytes, aligned to T, overlapping neither
/// array; the same contract on every path and rank count, so a call that passes here passes on
/// any) must not be in use by another call.
///
///   cudaError_t e = gpuprims::multi::all_reduce(d_grad, d_grad, count, gpuprims::plus<float>{},
///                                               comm, d_ws, ws_bytes, stream);
template <class Tuning = all_reduce_tuning, class T, class Op>
[[nodiscard]] cudaError_t all_reduce(const T* in, T* out, std::size_t count, Op op,
                                     communicator& comm, void* workspace,
                                     std::size_t workspace_bytes, cudaStream_t stream = 0) {
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_all_reduce(in, out, count, comm));
  if (count == 0) {
    return cudaSuccess;
  }
  gpuprims::detail::device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(gpuprims::detail::current_device_facts(facts));
  const std::size_t needed =
      detail::all_reduce_bytes_for<Tuning, T>(count, comm.ranks(), facts.target_arch);
  if (needed > 0 && (workspace == nullptr || workspace_bytes < needed ||
                     reinterpret_cast<std::uintptr_t>(workspace) % alignof(T) != 0 ||
                     gpuprims::detail::ranges_overlap(workspace, needed, in, count * sizeof(T)) ||
                     gpuprims::detail::ranges_overlap(workspace, needed, out, count * sizeof(T)))) {
    return cudaErrorInvalidValue;
  }
  return detail::all_reduce_impl<Tuning>(in, out, count, op, comm, workspace, facts, stream);
}

/// The same with the stream's workspace (device/workspace.cuh): allocated by the first call on
/// `stream` that needs it, reused by every later one (none for one rank or the ncclAllReduce
/// path).
///
///   cudaError_t e = gpuprims::multi::all_reduce(d_grad, d_grad, count, gpuprims::plus<float>{},
///                                               comm, stream);
template <class Tuning = all_reduce_tuning, class T, class Op>
[[nodiscard]] cudaError_t all_reduce(const T* in, T* out, std::size_t count, Op op,
                                     communicator& comm, cudaStream_t stream = 0) {
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_all_reduce(in, out, count, comm));
  if (count == 0) {
    return cudaSuccess;
  }
  gpuprims::detail::device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(gpuprims::detail::current_device_facts(facts));
  const std::size_t bytes =
      detail::all_reduce_by_nccl<Tuning, T, Op>(comm.ranks(), facts.target_arch)
          ? 0
          : detail::all_reduce_bytes_for<Tuning, T>(count, comm.ranks(), facts.target_arch);
  return gpuprims::detail::with_stream_workspace(stream, bytes, [&](void* ws) {
    return detail::all_reduce_impl<Tuning>(in, out, count, op, comm, ws, facts, stream);
  });
}

}  // namespace gpuprims::multi
