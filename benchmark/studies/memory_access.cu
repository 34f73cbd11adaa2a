// The memory-access studies of the reference notes, on this GPU (docs/memory-access.md), --full
// only:
//   "write_offset": the notes' writeOffset kernel (out[i + offset] = in[i]) at offsets 0, 1, 11,
//   128
//                   floats, against gpuprims::copy into the same shifted destination (the read
//                   side is "copy_offset" in copy.cu);
//   "aos_soa":      a {float x, y} particle update (x += y * dt) on an array of structures (field
//                   accesses, or whole-struct float2 accesses) and on a structure of arrays, and a
//                   read of x alone from each layout;
//   "load_path":    y = a * x + y with plain loads, const __restrict__ and __ldg, and 1, 2 or 4
//                   independent elements per thread;
//   "transfer":     host to device and back, pageable and pinned cudaMemcpyAsync, and a kernel
//                   reading mapped (zero-copy) pinned host memory.
// Bytes counted are the minimum each operation must move.
#include <gpuprims/copy.cuh>

#include "../support.cuh"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace gpuprims::bench {
namespace {

constexpr std::size_t study_n = std::size_t{1} << 26;  // 256 MiB of floats: far past the L2

unsigned int blocks_for(std::size_t n, unsigned int threads) {
  return static_cast<unsigned int>((n + threads - 1) / threads);
}

// --- write_offset -------------------------------------------------------------------------------
// The offset as a template argument: one kernel name per offset for the profiler.
template <int Offset>
__global__ void notes_write_offset_kernel(const float* __restrict__ in, float* __restrict__ out,
                                          std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    out[i + Offset] = in[i];
  }
}

template <int... Offsets>
void launch_write_offset(std::size_t offset, const float* in, float* out, std::size_t n,
                         cudaStream_t s) {
  ((offset == Offsets
        ? notes_write_offset_kernel<Offsets><<<blocks_for(n, 512), 512, 0, s>>>(in, out, n)
        : void()),
   ...);
}

enum class write_with { notes_kernel, library, memcpy };

void add_write_offset(const options& opt) {
  const std::vector<std::int64_t> offsets = {0, 1, 11, 128};
  auto run = [](benchmark::State& state, write_with how) {
    const auto offset = static_cast<std::size_t>(state.range(0));
    random_buffer in(study_n * sizeof(float), 51);
    random_buffer out((study_n + offset) * sizeof(float), 52);
    if (!in.ok() || !out.ok()) {
      state.SkipWithError("allocation failed");
      return;
    }
    float* dst = out.as<float>() + offset;
    time_launches(state, 2 * study_n * sizeof(float), [&](cudaStream_t s) {
      cudaError_t e = cudaSuccess;
      if (how == write_with::library) {
        e = gpuprims::copy(in.as<float>(), dst, study_n, s);
      } else if (how == write_with::memcpy) {
        e = cudaMemcpyAsync(dst, in.as<float>(), study_n * sizeof(float), cudaMemcpyDeviceToDevice,
                            s);
      } else {
        launch_write_offset<0, 1, 11, 128>(offset, in.as<float>(), out.as<float>(), study_n, s);
      }
      if (e != cudaSuccess) {
        state.SkipWithError(cudaGetErrorString(e));
      }
    });
  };
  const std::pair<const char*, write_with> variants[] = {
      {"notes_write_offset", write_with::notes_kernel},
      {"gpuprims::copy", write_with::library},
      {"cudaMemcpyAsync", write_with::memcpy}};
  for (const auto& [name, how] : variants) {
    add(opt, "write_offset", name, how == write_with::memcpy ? role::baseline : role::variant,
        [run, how = how](benchmark::State& st) { run(st, how); }, each(offsets), {"offset"});
  }
}

// --- aos_soa
// --------------------------------------------------------------------------------------
struct particle {
  float x, y;
};

__global__ void aos_update_fields(particle* p, std::size_t n, float dt) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    p[i].x +=
        p[i].y * dt;  // 8-byte stride: each 4-byte store fills half of every sector it touches
  }
}

__global__ void aos_update_vector(particle* p, std::size_t n, float dt) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    float2 v = reinterpret_cast<float2*>(p)[i];  // the whole struct in one 8-byte access
    v.x += v.y * dt;
    reinterpret_cast<float2*>(p)[i] = v;
  }
}

__global__ void soa_update(float* x, const float* __restrict__ y, std::size_t n, float dt) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    x[i] += y[i] * dt;
  }
}

__global__ void aos_read_x(const particle* __restrict__ p, float* __restrict__ out, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    out[i] = 2.0f * p[i].x;  // half of every sector read is y, never used
  }
}

__global__ void soa_read_x(const float* __restrict__ x, float* __restrict__ out, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    out[i] = 2.0f * x[i];
  }
}

void add_aos_soa(const options& opt) {
  const std::size_t n = study_n / 2;  // particles: 256 MiB of them either way
  // Bytes counted: the update reads x and y and writes x (12 bytes a particle); the read of x
  // alone reads x and writes one float (8 bytes).
  add(opt, "aos_soa", "aos_update_fields", role::variant,
      [n](benchmark::State& state) {
        random_buffer p(n * sizeof(particle), 53);
        time_launches(state, 12 * n, [&](cudaStream_t s) {
          aos_update_fields<<<blocks_for(n, 256), 256, 0, s>>>(p.as<particle>(), n, 1e-3f);
        });
      },
      each({static_cast<std::int64_t>(n)}), {"n"});
  add(opt, "aos_soa", "aos_update_float2", role::variant,
      [n](benchmark::State& state) {
        random_buffer p(n * sizeof(particle), 53);
        time_launches(state, 12 * n, [&](cudaStream_t s) {
          aos_update_vector<<<blocks_for(n, 256), 256, 0, s>>>(p.as<particle>(), n, 1e-3f);
        });
      },
      each({static_cast<std::int64_t>(n)}), {"n"});
  add(opt, "aos_soa", "soa_update", role::baseline,
      [n](benchmark::State& state) {
        random_buffer x(n * sizeof(float), 54), y(n * sizeof(float), 55);
        time_launches(state, 12 * n, [&](cudaStream_t s) {
          soa_update<<<blocks_for(n, 256), 256, 0, s>>>(x.as<float>(), y.as<float>(), n, 1e-3f);
        });
      },
      each({static_cast<std::int64_t>(n)}), {"n"});
  add(opt, "aos_soa", "aos_read_x", role::variant,
      [n](benchmark::State& state) {
        random_buffer p(n * sizeof(particle), 53), out(n * sizeof(float), 56);
        time_launches(state, 8 * n, [&](cudaStream_t s) {
          aos_read_x<<<blocks_for(n, 256), 256, 0, s>>>(p.as<particle>(), out.as<float>(), n);
        });
      },
      each({static_cast<std::int64_t>(n)}), {"n"});
  add(opt, "aos_soa", "soa_read_x", role::variant,
      [n](benchmark::State& state) {
        random_buffer x(n * sizeof(float), 54), out(n * sizeof(float), 56);
        time_launches(state, 8 * n, [&](cudaStream_t s) {
          soa_read_x<<<blocks_for(n, 256), 256, 0, s>>>(x.as<float>(), out.as<float>(), n);
        });
      },
      each({static_cast<std::int64_t>(n)}), {"n"});
}

// --- load_path
// ------------------------------------------------------------------------------------
enum class load_kind { plain, restrict_const, ldg };

// y = a * x + y over a grid-stride loop, Unroll independent elements per thread per iteration.
template <load_kind Kind, int Unroll>
__global__ void axpy_plain(const float* x, float* y, std::size_t n, float a) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += Unroll * stride) {
    float v[Unroll];
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
      const std::size_t j = i + k * stride;
      v[k] = j < n ? (Kind == load_kind::ldg ? __ldg(x + j) : x[j]) : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
      const std::size_t j = i + k * stride;
      if (j < n) {
        y[j] = a * v[k] + y[j];
      }
    }
  }
}

// The same loop with `const __restrict__` pointers, written out rather than shared through an
// inlined helper: the qualifiers on the kernel's own parameters are the thing measured.
template <int Unroll>
__global__ void axpy_restrict(const float* __restrict__ x, float* __restrict__ y, std::size_t n,
                              float a) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += Unroll * stride) {
    float v[Unroll];
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
      const std::size_t j = i + k * stride;
      v[k] = j < n ? x[j] : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
      const std::size_t j = i + k * stride;
      if (j < n) {
        y[j] = a * v[k] + y[j];
      }
    }
  }
}

template <load_kind Kind, int Unroll>
void add_axpy(const options& opt, const std::string& name) {
  const bool baseline = Kind == load_kind::plain && Unroll == 1;  // the other rows as ratios to it
  add(opt, "load_path", name, baseline ? role::baseline : role::variant,
      [](benchmark::State& state) {
        const auto n = static_cast<std::size_t>(state.range(0));
        random_buffer x(n * sizeof(float), 57), y(n * sizeof(float), 58);
        cudaDeviceProp prop{};
        cudaGetDeviceProperties(&prop, 0);
        // One wave of resident 256-thread blocks: the loop, not the grid, supplies the elements.
        const auto blocks = static_cast<unsigned int>(prop.multiProcessorCount *
                                                      (prop.maxThreadsPerMultiProcessor / 256));
        time_launches(state, 12 * n, [&](cudaStream_t s) {
          if constexpr (Kind == load_kind::restrict_const) {
            axpy_restrict<Unroll><<<blocks, 256, 0, s>>>(x.as<float>(), y.as<float>(), n, 0.5f);
          } else {
            axpy_plain<Kind, Unroll><<<blocks, 256, 0, s>>>(x.as<float>(), y.as<float>(), n, 0.5f);
          }
        });
      },
      each({static_cast<std::int64_t>(study_n)}), {"n"});
}

void add_load_path(const options& opt) {
  add_axpy<load_kind::plain, 1>(opt, "plain_unroll1");
  add_axpy<load_kind::restrict_const, 1>(opt, "restrict_unroll1");
  add_axpy<load_kind::ldg, 1>(opt, "ldg_unroll1");
  add_axpy<load_kind::plain, 2>(opt, "plain_unroll2");
  add_axpy<load_kind::plain, 4>(opt, "plain_unroll4");
  add_axpy<load_kind::restrict_const, 4>(opt, "restrict_unroll4");
}

// --- transfer
// ---------------------------------------------------------------------------------------
__global__ void read_mapped(const float4* __restrict__ host, float4* __restrict__ out,
                            std::size_t n4) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n4;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    out[i] = host[i];
  }
}

enum class host_memory { pageable, pinned };

void add_transfer(const options& opt) {
  const std::vector<std::int64_t> sizes = {std::int64_t{1} << 20, std::int64_t{32} << 20,
                                           std::int64_t{256} << 20};
  auto copy = [](benchmark::State& state, host_memory kind, cudaMemcpyKind direction) {
    const auto bytes = static_cast<std::size_t>(state.range(0));
    void* host = nullptr;
    if (kind == host_memory::pinned) {
      if (cudaMallocHost(&host, bytes) != cudaSuccess) {
        state.SkipWithError("cudaMallocHost failed");
        return;
      }
    } else {
      host = std::malloc(bytes);
    }
    std::memset(host, 0x5A, bytes);  // touched: pageable pages exist before the timing
    random_buffer device(bytes, 59);
    time_launches(state, bytes, [&](cudaStream_t s) {
      if (direction == cudaMemcpyHostToDevice) {
        cudaMemcpyAsync(device.as<void>(), host, bytes, direction, s);
      } else {
        cudaMemcpyAsync(host, device.as<void>(), bytes, direction, s);
      }
    });
    if (kind == host_memory::pinned) {
      cudaFreeHost(host);
    } else {
      std::free(host);
    }
  };
  add(opt, "transfer", "h2d_pageable", role::variant,
      [copy](benchmark::State& st) { copy(st, host_memory::pageable, cudaMemcpyHostToDevice); },
      each(sizes), {"bytes"});
  add(opt, "transfer", "h2d_pinned", role::baseline,
      [copy](benchmark::State& st) { copy(st, host_memory::pinned, cudaMemcpyHostToDevice); },
      each(sizes), {"bytes"});
  add(opt, "transfer", "d2h_pageable", role::variant,
      [copy](benchmark::State& st) { copy(st, host_memory::pageable, cudaMemcpyDeviceToHost); },
      each(sizes), {"bytes"});
  add(opt, "transfer", "d2h_pinned", role::variant,
      [copy](benchmark::State& st) { copy(st, host_memory::pinned, cudaMemcpyDeviceToHost); },
      each(sizes), {"bytes"});
  add(opt, "transfer", "zero_copy_kernel_read", role::variant,
      [](benchmark::State& state) {
        const auto bytes = static_cast<std::size_t>(state.range(0));
        void* host = nullptr;
        void* mapped = nullptr;
        if (cudaHostAlloc(&host, bytes, cudaHostAllocMapped) != cudaSuccess ||
            cudaHostGetDevicePointer(&mapped, host, 0) != cudaSuccess) {
          state.SkipWithError("mapped host allocation failed");
          return;
        }
        std::memset(host, 0x5A, bytes);
        random_buffer device(bytes, 59);
        time_launches(state, bytes, [&](cudaStream_t s) {
          read_mapped<<<1024, 256, 0, s>>>(static_cast<const float4*>(mapped), device.as<float4>(),
                                           bytes / 16);
        });
        cudaFreeHost(host);
      },
      each(sizes), {"bytes"});
}

}  // namespace

void register_memory_access(const options& opt) {
  if (!opt.full) {
    return;
  }
  add_write_offset(opt);
  add_aos_soa(opt);
  add_load_path(opt);
  add_transfer(opt);
}

}  // namespace gpuprims::bench
