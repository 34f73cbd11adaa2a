// The ranks of the multi-GPU tests: one process drives every rank, with an NCCL communicator per
// GPU from ncclCommInitAll and a host thread per rank (gpuprims::multi's calls issue NCCL work, so
// each rank's calls run on its own thread). Checks inside a rank's thread collect messages; the
// test's thread asserts on them (Catch2's assertions are for one thread).
#pragma once

#include <gpuprims/multi.cuh>

#include <cuda_runtime.h>
#include <nccl.h>

#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace gpuprims::test {

inline int gpu_count() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

// One rank: its GPU, the caller-owned NCCL communicator and streams, and the library's handle.
struct rank_context {
  int device = 0;
  int rank = 0;
  int ranks = 0;
  ncclComm_t nccl = nullptr;
  cudaStream_t stream = nullptr;
  cudaStream_t comm_stream = nullptr;
  gpuprims::multi::communicator comm;
};

// A failed check inside a rank's thread: the message, with the rank and the line.
#define GPUPRIMS_MULTI_REQUIRE(cond, what)                                                   \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::ostringstream gpuprims_msg_;                                                      \
      gpuprims_msg_ << "rank " << ctx.rank << ", line " << __LINE__ << ": " << #cond << ": " \
                    << what;                                                                 \
      return gpuprims_msg_.str();                                                            \
    }                                                                                        \
  } while (0)

#define GPUPRIMS_MULTI_CUDA(expr)                                                        \
  do {                                                                                   \
    const cudaError_t gpuprims_e_ = (expr);                                              \
    GPUPRIMS_MULTI_REQUIRE(gpuprims_e_ == cudaSuccess, cudaGetErrorString(gpuprims_e_)); \
  } while (0)

class world {
 public:
  // The first `ranks` GPUs, rank r on GPU r.
  explicit world(int ranks) : ranks_(static_cast<std::size_t>(ranks)) {
    const auto count = static_cast<std::size_t>(ranks);
    std::vector<ncclComm_t> comms(count);
    std::vector<int> devices(count);
    for (std::size_t r = 0; r < count; ++r) {
      devices[r] = static_cast<int>(r);
    }
    status_ = ncclCommInitAll(comms.data(), ranks, devices.data());
    for (std::size_t r = 0; r < count; ++r) {
      rank_context& c = ranks_[r];
      c.device = devices[r];
      c.rank = static_cast<int>(r);
      c.ranks = ranks;
      c.nccl = status_ == ncclSuccess ? comms[r] : nullptr;
      if (status_ != ncclSuccess) {
        continue;
      }
      cuda_ok_ = cuda_ok_ && cudaSetDevice(c.device) == cudaSuccess &&
                 cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking) == cudaSuccess &&
                 cudaStreamCreateWithFlags(&c.comm_stream, cudaStreamNonBlocking) == cudaSuccess &&
                 c.comm.init(c.nccl, c.comm_stream) == cudaSuccess;
    }
  }
  ~world() {
    for (rank_context& c : ranks_) {
      cudaSetDevice(c.device);
      c.comm = gpuprims::multi::communicator{};
      if (c.nccl != nullptr) {
        ncclCommDestroy(c.nccl);
      }
      (void)gpuprims::release_stream_workspace(c.stream);
      if (c.stream != nullptr) {
        cudaStreamDestroy(c.stream);
      }
      if (c.comm_stream != nullptr) {
        cudaStreamDestroy(c.comm_stream);
      }
    }
  }
  world(const world&) = delete;
  world& operator=(const world&) = delete;

  bool ok() const { return status_ == ncclSuccess && cuda_ok_; }
  std::string error() const {
    return std::string("ncclCommInitAll: ") + ncclGetErrorString(status_) +
           (cuda_ok_ ? "" : "; stream or communicator setup failed");
  }
  int size() const { return static_cast<int>(ranks_.size()); }
  rank_context& operator[](int r) { return ranks_[static_cast<std::size_t>(r)]; }

  // fn(rank_context&) -> std::string (empty: passed) on a thread per rank, its GPU current; the
  // ranks' messages joined, empty when every rank passed.
  template <class F>
  std::string run(F&& fn) {
    std::vector<std::string> messages(ranks_.size());
    std::vector<std::thread> threads;
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
      threads.emplace_back([&, r] {
        rank_context& ctx = ranks_[r];
        if (cudaSetDevice(ctx.device) != cudaSuccess) {
          messages[r] = "cudaSetDevice failed";
          return;
        }
        messages[r] = fn(ctx);
      });
    }
    for (std::thread& t : threads) {
      t.join();
    }
    std::string all;
    for (const std::string& m : messages) {
      if (!m.empty()) {
        all += m + "\n";
      }
    }
    return all;
  }

 private:
  std::vector<rank_context> ranks_;
  ncclResult_t status_ = ncclSuccess;
  bool cuda_ok_ = true;
};

// The world of every visible GPU and the world of GPU 0 alone (a communicator of one rank: the
// ring closes on itself); the multi-GPU test main creates both before the tests and destroys them
// before it returns (no CUDA or NCCL call after main).
inline world*& all_gpus_slot() {
  static world* w = nullptr;
  return w;
}
inline world*& one_gpu_slot() {
  static world* w = nullptr;
  return w;
}
inline world& all_gpus() { return *all_gpus_slot(); }
inline world& one_gpu() { return *one_gpu_slot(); }

}  // namespace gpuprims::test
