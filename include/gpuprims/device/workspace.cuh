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

#include <atomic>
#include <cstddef>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

namespace gpuprims {
namespace detail {

// A buffer is shared only by calls that run one after the other: calls on one stream of one device
// run in order, and each call queues all its work while it holds the buffer's entry
// (stream_workspace_entry::use), so that two host threads calling on one stream never interleave
// their launches. The default streams (0, cudaStreamLegacy, cudaStreamPerThread) name a different
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
  bool operator==(const stream_workspace_key& o) const {
    return device == o.device && stream == o.stream && thread == o.thread && purpose == o.purpose;
  }
};

inline constexpr std::size_t workspace_scratch = 0;
// Zeroed when allocated, nothing kept: for launchers that read marks their last call left cleared
// and that must not read never-written memory (compute-sanitizer's initcheck), as gpuprims::reduce.
inline constexpr std::size_t workspace_zeroed = 1;

// `use` is held by a call from taking the buffer until its last launch is queued. So the calls that
// share a buffer (one stream, several host threads) queue their work one call after the other, and
// a call that outgrows the buffer frees it after the work of every call that took it. A launcher
// that runs another inside it takes the entries in purpose order (multi::reduce: its scratch, then
// gpuprims::reduce's zeroed buffer), so two calls never wait on each other's.
struct stream_workspace_entry {
  std::mutex use;
  void* data = nullptr;
  std::size_t bytes = 0;
};

// `releases` counts release_stream_workspace's calls: an entry a thread remembers
// (stream_workspace_last) is good only while it has not moved, since one may have erased it.
struct stream_workspace_cache {
  std::mutex mutex;
  std::map<stream_workspace_key, stream_workspace_entry> entries;
  std::atomic<unsigned long long> releases{0};
};

// The entry a host thread used last, so that a thread calling again on the same stream skips the
// map and its lock (about 40 ns of a call's 3 us on the host).
struct stream_workspace_last {
  stream_workspace_key key{};
  stream_workspace_entry* entry = nullptr;
  unsigned long long releases = 0;
};

inline stream_workspace_last& last_stream_workspace() {
  thread_local stream_workspace_last last;
  return last;
}

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
// whether the caller must cudaFreeAsync it on `stream` after its work (under stream capture);
// otherwise `hold` holds the buffer's entry until the caller has queued its work.
inline cudaError_t acquire_stream_workspace(cudaStream_t stream, std::size_t bytes,
                                            std::size_t purpose, void*& data, bool& release,
                                            std::unique_lock<std::mutex>& hold, int device = -1) {
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
  stream_workspace_last& last = last_stream_workspace();
  const unsigned long long releases = cache.releases.load(std::memory_order_acquire);
  if (last.entry == nullptr || last.releases != releases || !(last.key == key)) {
    // The map's lock only for the lookup: a call waiting for its stream's entry must not hold up
    // the calls on other streams. The entry stays where it is (a map's nodes do not move; only
    // release_stream_workspace erases it, never while a call on its stream runs).
    const std::lock_guard<std::mutex> lock(cache.mutex);
    last = {key, &cache.entries[key], releases};
  }
  stream_workspace_entry& entry = *last.entry;
  hold = std::unique_lock<std::mutex>(entry.use);
  if (entry.bytes < bytes) {
    // Stream-ordered: the old buffer is freed after the calls already queued on `stream` (every
    // call that took it has queued its work: it held `use` until then), the new one is ready for
    // the calls after; nothing waits on the host.
    const std::size_t grown = bytes < 2 * entry.bytes ? 2 * entry.bytes : bytes;
    if (entry.data != nullptr) {
      GPUPRIMS_RETURN_IF_ERROR(cudaFreeAsync(entry.data, stream));
      entry.data = nullptr;
      entry.bytes = 0;
    }
    GPUPRIMS_RETURN_IF_ERROR(allocate_workspace(entry.data, grown, purpose, stream));
    entry.bytes = grown;
  }
  data = entry.data;
  return cudaSuccess;
}

// Runs launch(workspace) with `bytes` of the stream's workspace for `purpose` (nullptr for 0
// bytes), holding the buffer's entry while `launch` queues its work, and gives a graph's own buffer
// back after it: the body of every launcher that takes no workspace. `device`: the current device,
// where the launcher has read it already (-1: read it here).
template <class Launch>
cudaError_t with_stream_workspace(cudaStream_t stream, std::size_t bytes, Launch&& launch,
                                  std::size_t purpose = workspace_scratch, int device = -1) {
  if (bytes == 0) {
    return launch(nullptr);
  }
  void* workspace = nullptr;
  bool release = false;
  std::unique_lock<std::mutex> hold;
  GPUPRIMS_RETURN_IF_ERROR(
      acquire_stream_workspace(stream, bytes, purpose, workspace, release, hold, device));
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
    if (it->second.data != nullptr) {
      const cudaError_t freed = cudaFreeAsync(it->second.data, stream);
      status = status != cudaSuccess ? status : freed;
    }
    it = cache.entries.erase(it);
  }
  cache.releases.fetch_add(1, std::memory_order_release);
  return status;
}

}  // namespace gpuprims
