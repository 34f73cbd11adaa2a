// Family "copy": gpuprims::copy (the default) against cudaMemcpyAsync and cub::DeviceTransform
// (identity) on the same buffers; with --full also each vector width of vector_copy<N> and the
// reference notes' scalar launch, and family "copy_offset": the notes' misaligned-read study
// (source offset 0, 1, 11, 128 floats).
#include <gpuprims/copy.cuh>

#include "../support.cuh"

#include <cub/device/device_transform.cuh>

#include <cstddef>
#include <cstdint>

namespace gpuprims::bench {
namespace {

struct identity {
  __device__ float operator()(float x) const { return x; }
};

// The reference notes' scalar kernel as launched there: 128 threads, grid capped at MAX_BLOCKS
// (here one wave of resident 128-thread blocks) and a grid-stride loop.
__global__ void notes_scalar_kernel(const float* in, float* out, std::size_t n) {
  gpuprims::vector_copy<1>(in, out, n);
}

// The notes' readOffset kernel: thread i reads in[i + Offset] and writes out[i]. The offset is a
// template argument so that each one is a kernel of its own name for the profiler
// (scripts/profile.sh).
template <int Offset>
__global__ void notes_read_offset_kernel(const float* __restrict__ in, float* __restrict__ out,
                                         std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    out[i] = in[i + Offset];
  }
}

template <int... Offsets>
void launch_read_offset(std::size_t offset, const float* in, float* out, std::size_t n,
                        cudaStream_t s) {
  ((offset == Offsets ? notes_read_offset_kernel<Offsets>
        <<<static_cast<unsigned>((n + 511) / 512), 512, 0, s>>>(in, out, n)
                      : void()),
   ...);
}

template <class Launch>
void copy_floats(benchmark::State& state, std::size_t n, std::size_t in_offset,
                 std::size_t out_offset, Launch launch) {
  random_buffer in((n + in_offset) * sizeof(float), 7);
  random_buffer out((n + out_offset) * sizeof(float), 8);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  const float* src = in.as<float>() + in_offset;
  float* dst = out.as<float>() + out_offset;
  time_launches(state, 2 * n * sizeof(float), [&](cudaStream_t s) { launch(src, dst, n, s); });
}

template <int N>
void add_vector_copy(const options& opt, const arg_list& sizes) {
  add(opt, "copy", "vector_copy<" + std::to_string(N) + ">", role::variant,
      [](benchmark::State& state) {
        copy_floats(state, state.range(0), 0, 0,
                    [&](const float* in, float* out, std::size_t n, cudaStream_t s) {
                      skip_on_error(state, gpuprims::copy_vectorized<N>(in, out, n, s));
                    });
      },
      sizes, {"n"});
}

}  // namespace

void register_copy(const options& opt) {
  const arg_list sizes =
      opt.full ? each({std::int64_t{1} << 20, std::int64_t{1} << 24, std::int64_t{1} << 28})
               : each({std::int64_t{1} << 20, std::int64_t{1} << 28});
  auto floats = [&](const char* variant, role r, auto run) {
    add(opt, "copy", variant, r,
        [run](benchmark::State& state) {
          copy_floats(state, state.range(0), 0, 0,
                      [&](const float* in, float* out, std::size_t n, cudaStream_t s) {
                        skip_on_error(state, run(in, out, n, s));
                      });
        },
        sizes, {"n"});
  };
  floats("cudaMemcpyAsync", role::baseline,
         [](const float* in, float* out, std::size_t n, cudaStream_t s) {
           return cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
         });
  floats("cub::DeviceTransform", role::baseline,
         [](const float* in, float* out, std::size_t n, cudaStream_t s) {
           return cub::DeviceTransform::Transform(in, out, static_cast<std::int64_t>(n), identity{},
                                                  s);
         });
  floats("gpuprims::copy", role::default_,
         [](const float* in, float* out, std::size_t n, cudaStream_t s) {
           return gpuprims::copy(in, out, n, s);
         });
  if (!opt.full) {
    return;
  }
  add(opt, "copy", "notes_scalar_128xMAX_BLOCKS", role::variant,
      [](benchmark::State& state) {
        int device = 0, sms = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        copy_floats(state, state.range(0), 0, 0,
                    [&](const float* in, float* out, std::size_t n, cudaStream_t s) {
                      const std::size_t max_blocks = static_cast<std::size_t>(sms) * 16;
                      const std::size_t blocks = std::min((n + 127) / 128, max_blocks);
                      notes_scalar_kernel<<<static_cast<unsigned>(blocks), 128, 0, s>>>(in, out, n);
                    });
      },
      sizes, {"n"});
  add_vector_copy<1>(opt, sizes);
  add_vector_copy<2>(opt, sizes);
  add_vector_copy<4>(opt, sizes);

  // Misaligned reads, as in the notes: 2^26 floats (256 MiB each way, far past L2), the source
  // shifted by `offset` floats; gpuprims::copy assembles 16-byte stores from the two source words
  // they straddle, and peels to 16-byte vectors when the destination is shifted alike.
  const arg_list offsets = each({0, 1, 11, 128});
  const std::size_t study_n = std::size_t{1} << 26;
  add(opt, "copy_offset", "cudaMemcpyAsync", role::baseline,
      [=](benchmark::State& state) {
        copy_floats(state, study_n, state.range(0), 0,
                    [&](const float* in, float* out, std::size_t n, cudaStream_t s) {
                      skip_on_error(state, cudaMemcpyAsync(out, in, n * sizeof(float),
                                                           cudaMemcpyDeviceToDevice, s));
                    });
      },
      offsets, {"offset"});
  add(opt, "copy_offset", "notes_read_offset", role::variant,
      [=](benchmark::State& state) {
        const auto offset = static_cast<std::size_t>(state.range(0));
        copy_floats(state, study_n, offset, 0,
                    [&](const float* in, float* out, std::size_t n, cudaStream_t s) {
                      launch_read_offset<0, 1, 11, 128>(offset, in - offset, out, n, s);
                    });
      },
      offsets, {"offset"});
  add(opt, "copy_offset", "gpuprims::copy", role::default_,
      [=](benchmark::State& state) {
        copy_floats(state, study_n, state.range(0), 0,
                    [&](const float* in, float* out, std::size_t n, cudaStream_t s) {
                      skip_on_error(state, gpuprims::copy(in, out, n, s));
                    });
      },
      offsets, {"offset"});
  add(opt, "copy_offset", "gpuprims::copy_both_shifted", role::variant,
      [=](benchmark::State& state) {
        const auto offset = static_cast<std::size_t>(state.range(0));
        copy_floats(state, study_n, offset, offset,
                    [&](const float* in, float* out, std::size_t n, cudaStream_t s) {
                      skip_on_error(state, gpuprims::copy(in, out, n, s));
                    });
      },
      offsets, {"offset"});
}

}  // namespace gpuprims::bench
