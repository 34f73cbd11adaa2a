// The workspace behind the launchers that take none (gpuprims::reduce without a workspace
// argument): one device buffer per stream and purpose, kept and reused, so that no call after the
// first on a stream allocates. Under stream capture the buffer is allocated and freed inside the
// graph instead, so every instantiated graph owns its own.
//
// Purposes: scratch (0: the launcher writes before it reads, nothing kept between calls), zeroed
// (1: zeroed when allocated; gpuprims::reduce's marks) and look-back state (the record size of
// gpuprims::lookback's layout, 8 bytes or more: zeroed when allocated, then kept in the state each
// call leaves for the next; one buffer per layout).
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

namespace gpuprims {
namespace detail {

// A buffer is shared only by calls that run one after the other: calls on one stream of one device
// run in order. The default streams (0, cudaStreamLegacy, cudaStreamPerThread) name a different
// stream per host thread under --default-stream per-thread, so for them the host thread is part of
// the key too.
struct stream_workspace_key {
  int device;
  cudaStream_t stream;
  std::thread::id thread;
  std::size_t purpose;
  bool operator<(const stream_workspace_key& o) const {
    return std::tie(device, stream, thread, purpose) <
           std::tie(o.device, o.stream, o.thread, o.purpose);
  }
};

inline constexpr std::size_t workspace_scratch = 0;
// Zeroed when allocated, nothing kept: for launchers that read marks their last call left cleared
// and that must not read never-written memory (compute-sanitizer's initcheck), as gpuprims::reduce.
inline constexpr std::size_t workspace_zeroed = 1;

// `retired`: the buffers the entry outgrew. A call on the stream from another host thread may have
// taken one just before the entry grew and queue its work after the growth; freed in the stream's
// order at growth, the buffer could by then be another allocation's (the pool reuses memory once
// the stream has passed the free). So they live until release_stream_workspace: with each growth
// at least doubling, less memory in all than the current buffer.
struct stream_workspace_entry {
  void* data = nullptr;
  std::size_t bytes = 0;
  std::vector<void*> retired;
};

struct stream_workspace_cache {
  std::mutex mutex;
  std::map<stream_workspace_key, stream_workspace_entry> entries;
};

inline stream_workspace_cache& stream_workspaces() {
  static stream_workspace_cache* cache = new stream_workspace_cache;  // never destroyed: no CUDA
  return *cache;                                                      // calls after main returns
}

// `device`: the current device where the caller has it already (a host call saved), else -1.
inline cudaError_t stream_workspace_key_of(cudaStream_t stream, std::size_t purpose,
                                           stream_workspace_key& key, int device = -1) {
  key.device = device;
  if (device < 0) {
    GPUPRIMS_RETURN_IF_ERROR(cudaGetDevice(&key.device));
  }
  key.stream = stream;
  key.purpose = purpose;
  const bool default_stream =
      stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread;
  key.thread = default_stream ? std::this_thread::get_id() : std::thread::id{};
  return cudaSuccess;
}

// Stream-ordered allocation of `bytes`, zeroed for any purpose but scratch.
inline cudaError_t allocate_workspace(void*& data, std::size_t bytes, std::size_t purpose,
                                      cudaStream_t stream) {
  GPUPRIMS_RETURN_IF_ERROR(cudaMallocAsync(&data, bytes, stream));
  return purpose == workspace_scratch ? cudaSuccess : cudaMemsetAsync(data, 0, bytes, stream);
}

// At least `bytes` of device memory for work queued on `stream`, 256-byte aligned. `release` says
// whether the caller must cudaFreeAsync it on `stream` after its work (under stream capture).
inline cudaError_t acquire_stream_workspace(cudaStream_t stream, std::size_t bytes,
                                            std::size_t purpose, void*& data, bool& release,
                                            int device = -1) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  GPUPRIMS_RETURN_IF_ERROR(cudaStreamIsCapturing(stream, &capture));
  if (capture != cudaStreamCaptureStatusNone) {
    release = true;
    return allocate_workspace(data, bytes, purpose, stream);  // nodes the graph owns
  }
  release = false;
  stream_workspace_key key{};
  GPUPRIMS_RETURN_IF_ERROR(stream_workspace_key_of(stream, purpose, key, device));
  stream_workspace_cache& cache = stream_workspaces();
  const std::lock_guard<std::mutex> lock(cache.mutex);
  stream_workspace_entry& entry = cache.entries[key];
  if (entry.bytes < bytes) {
    // Stream-ordered: the new buffer is ready for the calls queued after this one; nothing waits on
    // the host. The old one is retired, not freed (stream_workspace_entry).
    const std::size_t grown = bytes < 2 * entry.bytes ? 2 * entry.bytes : bytes;
    void* fresh = nullptr;
    const cudaError_t allocated = allocate_workspace(fresh, grown, purpose, stream);
    if (allocated != cudaSuccess) {
      if (fresh != nullptr) {
        cudaFreeAsync(fresh, stream);  // allocated, not zeroed: the entry keeps its buffer
      }
      return allocated;
    }
    if (entry.data != nullptr) {
      entry.retired.push_back(entry.data);
    }
    entry.data = fresh;
    entry.bytes = grown;
  }
  data = entry.data;
  return cudaSuccess;
}

// Runs launch(workspace) with `bytes` of the stream's workspace for `purpose` (nullptr for 0 bytes)
// and gives a graph's own buffer back after it: the body of every launcher that takes no workspace.
// `device`: the current device, where the launcher has read it already (-1: read it here).
template <class Launch>
cudaError_t with_stream_workspace(cudaStream_t stream, std::size_t bytes, Launch&& launch,
                                  std::size_t purpose = workspace_scratch, int device = -1) {
  if (bytes == 0) {
    return launch(nullptr);
  }
  void* workspace = nullptr;
  bool release = false;
  GPUPRIMS_RETURN_IF_ERROR(
      acquire_stream_workspace(stream, bytes, purpose, workspace, release, device));
  const cudaError_t status = launch(workspace);
  const cudaError_t freed = release ? cudaFreeAsync(workspace, stream) : cudaSuccess;
  return status != cudaSuccess ? status : freed;
}

}  // namespace detail

/// Frees, in `stream`'s order, the workspaces the workspace-free launchers keep for `stream` on the
/// current device (and, for a default stream, the calling host thread). Call it before destroying
/// a stream those launchers used, while no other host thread is calling them on it; a later call on
/// the stream allocates again.
inline cudaError_t release_stream_workspace(cudaStream_t stream = 0) {
  detail::stream_workspace_key key{};
  GPUPRIMS_RETURN_IF_ERROR(detail::stream_workspace_key_of(stream, 0, key));
  detail::stream_workspace_cache& cache = detail::stream_workspaces();
  const std::lock_guard<std::mutex> lock(cache.mutex);
  cudaError_t status = cudaSuccess;
  for (auto it = cache.entries.lower_bound(key);
       it != cache.entries.end() && it->first.device == key.device &&
       it->first.stream == key.stream && it->first.thread == key.thread;) {
    it->second.retired.push_back(it->second.data);
    for (void* data : it->second.retired) {
      if (data != nullptr) {
        const cudaError_t freed = cudaFreeAsync(data, stream);
        status = status != cudaSuccess ? status : freed;
      }
    }
    it = cache.entries.erase(it);
  }
  return status;
}

}  // namespace gpuprims
