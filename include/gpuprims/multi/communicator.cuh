// gpuprims::multi::communicator: what the multi-GPU layer keeps for one rank (the caller's NCCL
// communicator and communication stream, the rank and the count, four events), NCCL's results as
// cudaError_t, the split of a domain over ranks, and the collective check that the ranks agree.
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpuprims::multi {

/// An NCCL result as a CUDA error: ncclSuccess is cudaSuccess, a bad argument or usage
/// cudaErrorInvalidValue, a CUDA failure inside NCCL the CUDA error it left (or
/// cudaErrorUnknown), anything else (system, internal, remote errors) cudaErrorUnknown.
inline cudaError_t from_nccl(ncclResult_t r) {
  switch (r) {
    case ncclSuccess:
      return cudaSuccess;
    case ncclInvalidArgument:
    case ncclInvalidUsage:
      return cudaErrorInvalidValue;
    case ncclUnhandledCudaError: {
      const cudaError_t e = cudaGetLastError();
      return e == cudaSuccess ? cudaErrorUnknown : e;
    }
    default:
      return cudaErrorUnknown;
  }
}

#define GPUPRIMS_RETURN_IF_NCCL_ERROR(expr) \
  GPUPRIMS_RETURN_IF_ERROR(::gpuprims::multi::from_nccl(expr))

/// The part of a domain of `global` points that rank `rank` of `ranks` owns in the balanced
/// split: the first global % ranks ranks get one point more. A domain that the rank count does
/// not divide is split this way by the examples and tests; any split works (each rank passes its
/// own count).
struct slab {
  std::size_t offset = 0;  ///< the first owned point's global index
  std::size_t count = 0;   ///< owned points
};

[[nodiscard]] inline constexpr slab split(std::size_t global, int ranks, int rank) {
  const auto r = static_cast<std::size_t>(rank);
  const auto n = static_cast<std::size_t>(ranks);
  const std::size_t base = global / n, extra = global % n;
  return {r * base + (r < extra ? r : extra), base + (r < extra ? 1 : 0)};
}

/// One rank's handle for the multi-GPU layer: the caller's NCCL communicator and a stream for its
/// traffic (both stay the caller's and must outlive this object), the rank and the rank count, and
/// four events that order the traffic against the caller's compute stream. Use one per rank, from
/// one host thread at a time (as the NCCL communicator itself); one process per GPU, or one
/// process with a host thread per GPU (ncclCommInitAll, then a thread each). The NCCL communicator
/// must be a blocking one (NCCL's default): the layer treats ncclInProgress as a failure.
///
///   ncclComm_t nccl;   // ncclCommInitRank / ncclCommInitAll
///   cudaStream_t comm_stream;  // cudaStreamCreateWithFlags(&comm_stream, cudaStreamNonBlocking)
///   gpuprims::multi::communicator comm;
///   cudaError_t e = comm.init(nccl, comm_stream);
class communicator {
 public:
  communicator() = default;
  communicator(const communicator&) = delete;
  communicator& operator=(const communicator&) = delete;
  communicator(communicator&& other) noexcept { swap(other); }
  communicator& operator=(communicator&& other) noexcept {
    communicator moved(std::move(other));
    swap(moved);
    return *this;
  }
  ~communicator() { reset(); }

  /// Binds `nccl` and `comm_stream` on the communicator's device, which must be the current
  /// device (cudaErrorInvalidDevice otherwise; a null communicator is cudaErrorInvalidValue), and
  /// creates the events. Not collective; nothing waits.
  [[nodiscard]] cudaError_t init(ncclComm_t nccl, cudaStream_t comm_stream) {
    reset();
    if (nccl == nullptr) {
      return cudaErrorInvalidValue;
    }
    int device = -1, nccl_device = -1, count = 0, rank = 0;
    GPUPRIMS_RETURN_IF_ERROR(cudaGetDevice(&device));
    GPUPRIMS_RETURN_IF_NCCL_ERROR(ncclCommCuDevice(nccl, &nccl_device));
    if (device != nccl_device) {
      return cudaErrorInvalidDevice;
    }
    GPUPRIMS_RETURN_IF_NCCL_ERROR(ncclCommCount(nccl, &count));
    GPUPRIMS_RETURN_IF_NCCL_ERROR(ncclCommUserRank(nccl, &rank));
    for (cudaEvent_t& e : events_) {
      const cudaError_t status = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
      if (status != cudaSuccess) {
        reset();
        return status;
      }
    }
    nccl_ = nccl;
    stream_ = comm_stream;
    device_ = device;
    ranks_ = count;
    rank_ = rank;
    return cudaSuccess;
  }

  [[nodiscard]] bool valid() const { return nccl_ != nullptr; }
  [[nodiscard]] ncclComm_t nccl() const { return nccl_; }
  [[nodiscard]] cudaStream_t stream() const { return stream_; }
  [[nodiscard]] int device() const { return device_; }
  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int ranks() const { return ranks_; }
  // The events the launchers record and wait on (one call at a time per communicator): the
  // caller's stream ready for the traffic, the traffic done, and two for a pipeline's folds.
  [[nodiscard]] cudaEvent_t ready_event() const { return events_[0]; }
  [[nodiscard]] cudaEvent_t exchanged_event() const { return events_[1]; }
  [[nodiscard]] cudaEvent_t folded_event(int k) const { return events_[2 + (k & 1)]; }

 private:
  void reset() {
    for (cudaEvent_t& e : events_) {
      if (e != nullptr) {
        cudaEventDestroy(e);
        e = nullptr;
      }
    }
    nccl_ = nullptr;
  }
  void swap(communicator& o) noexcept {
    std::swap(nccl_, o.nccl_);
    std::swap(stream_, o.stream_);
    std::swap(device_, o.device_);
    std::swap(rank_, o.rank_);
    std::swap(ranks_, o.ranks_);
    std::swap(events_, o.events_);
  }

  ncclComm_t nccl_ = nullptr;
  cudaStream_t stream_ = nullptr;
  int device_ = -1;
  int rank_ = 0;
  int ranks_ = 0;
  cudaEvent_t events_[4] = {};
};

namespace detail {

// cudaErrorInvalidValue for a communicator never initialised, cudaErrorInvalidDevice where its
// GPU is not the current device.
inline cudaError_t check_comm_here(const communicator& comm) {
  if (!comm.valid()) {
    return cudaErrorInvalidValue;
  }
  int device = -1;
  GPUPRIMS_RETURN_IF_ERROR(cudaGetDevice(&device));
  return device == comm.device() ? cudaSuccess : cudaErrorInvalidDevice;
}

// One NCCL group on `stream`: for every rank p but this one, send_of(p) to p and recv_of(p) from p
// ({pointer, bytes}; 0 bytes: nothing). Ranks that call it with matching sizes exchange them all.
template <class SendOf, class RecvOf>
cudaError_t group_with_every_peer(const communicator& comm, cudaStream_t stream, SendOf send_of,
                                  RecvOf recv_of) {
  GPUPRIMS_RETURN_IF_NCCL_ERROR(ncclGroupStart());
  ncclResult_t r = ncclSuccess;
  for (int p = 0; p < comm.ranks() && r == ncclSuccess; ++p) {
    if (p == comm.rank()) {
      continue;
    }
    const std::pair<const void*, std::size_t> send = send_of(p);
    const std::pair<void*, std::size_t> recv = recv_of(p);
    if (send.second > 0) {
      r = ncclSend(send.first, send.second, ncclUint8, p, comm.nccl(), stream);
    }
    if (r == ncclSuccess && recv.second > 0) {
      r = ncclRecv(recv.first, recv.second, ncclUint8, p, comm.nccl(), stream);
    }
  }
  const ncclResult_t end = ncclGroupEnd();
  GPUPRIMS_RETURN_IF_NCCL_ERROR(r);
  return from_nccl(end);
}

}  // namespace detail

/// Collective: every rank passes its `fields` (the same number on every rank, at most 16); on
/// return `all[r]` holds rank r's (cudaErrorInvalidDevice where comm's GPU is not the current
/// one). Allocates a small buffer, sends its fields to every other rank
/// and receives theirs (grouped ncclSend/ncclRecv on the communication stream: NCCL_ALGO, which
/// restricts collectives, cannot refuse it) and waits: for setup-time checks, never for a hot path.
[[nodiscard]] inline cudaError_t all_gather_fields(const communicator& comm,
                                                   const std::vector<std::uint64_t>& fields,
                                                   std::vector<std::vector<std::uint64_t>>& all) {
  constexpr std::size_t width = 16;
  GPUPRIMS_RETURN_IF_ERROR(detail::check_comm_here(comm));
  if (fields.size() > width) {
    return cudaErrorInvalidValue;
  }
  const std::size_t ranks = static_cast<std::size_t>(comm.ranks());
  const std::size_t row_bytes = width * sizeof(std::uint64_t);
  std::vector<std::uint64_t> gathered(width * ranks, 0);
  std::copy(fields.begin(), fields.end(),
            gathered.begin() + static_cast<std::ptrdiff_t>(width * comm.rank()));
  std::uint64_t* buffer = nullptr;
  const std::size_t bytes = gathered.size() * sizeof(std::uint64_t);
  GPUPRIMS_RETURN_IF_ERROR(cudaMalloc(&buffer, bytes));
  std::uint64_t* const own = buffer + width * static_cast<std::size_t>(comm.rank());
  cudaError_t status = cudaMemcpyAsync(own, gathered.data() + width * comm.rank(), row_bytes,
                                       cudaMemcpyHostToDevice, comm.stream());
  if (status == cudaSuccess) {
    status = detail::group_with_every_peer(
        comm, comm.stream(),
        [&](int) { return std::pair<const void*, std::size_t>(own, row_bytes); },
        [&](int p) {
          return std::pair<void*, std::size_t>(buffer + width * static_cast<std::size_t>(p),
                                               row_bytes);
        });
  }
  if (status == cudaSuccess) {
    status = cudaMemcpyAsync(gathered.data(), buffer, bytes, cudaMemcpyDeviceToHost, comm.stream());
  }
  if (status == cudaSuccess) {
    status = cudaStreamSynchronize(comm.stream());
  }
  const cudaError_t freed = cudaFree(buffer);
  GPUPRIMS_RETURN_IF_ERROR(status);
  GPUPRIMS_RETURN_IF_ERROR(freed);
  all.assign(ranks, {});
  for (std::size_t r = 0; r < ranks; ++r) {
    all[r].assign(gathered.begin() + static_cast<std::ptrdiff_t>(r * width),
                  gathered.begin() + static_cast<std::ptrdiff_t>(r * width + fields.size()));
  }
  return cudaSuccess;
}

namespace detail {

// The first field on which some rank differs from rank 0, as "<name>: rank 0 has A, rank r has
// B"; empty when all agree. `names[i]` names field i.
inline std::string first_disagreement(const std::vector<std::vector<std::uint64_t>>& all,
                                      const std::vector<const char*>& names) {
  for (std::size_t r = 1; r < all.size(); ++r) {
    for (std::size_t i = 0; i < names.size() && i < all[r].size(); ++i) {
      if (all[r][i] != all[0][i]) {
        return std::string(names[i]) + ": rank 0 has " + std::to_string(all[0][i]) + ", rank " +
               std::to_string(r) + " has " + std::to_string(all[r][i]);
      }
    }
  }
  return {};
}

}  // namespace detail
}  // namespace gpuprims::multi
