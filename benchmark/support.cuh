// The benchmark harness shared by every family: device facts, random device buffers, and the timed
// loop (CUDA events around each launch, median reported as GB/s and % of theoretical DRAM peak).
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpuprims::bench {

// Options every family registers with.
struct options {
  double min_time = 0;  // seconds of timed launches per benchmark; 0: Google Benchmark's default
  bool profile =
      false;  // --profile: one launch per benchmark inside cudaProfilerStart/Stop, untimed
  bool full =
      false;  // --full: every rung, size and study; otherwise the defaults and their baselines
};

// What a benchmark is to the reports: the primitive's default (the summary compares it), a baseline
// (CUB, cuBLAS, cudaMemcpyAsync: the ratios divide by the best one), or any other variant.
enum class role { variant, baseline, default_ };

// Set by main() for --profile (scripts/profile.sh runs the binary under Nsight Compute with
// --profile-from-start off, so only the launches between cudaProfilerStart/Stop are measured:
// never the random fills, the warm-ups or a family's correctness checks).
inline bool& profiling() {
  static bool on = false;
  return on;
}

// Theoretical DRAM bandwidth in bytes/s: two transfers per memory clock (DDR/HBM) over the bus.
inline double peak_bytes_per_second() {
  int device = 0, clock_khz = 0, bus_bits = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device);
  cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device);
  return 2.0 * clock_khz * 1e3 * (bus_bits / 8.0);
}

// A template, so that every source including this header may instantiate it without ODR clashes.
template <class Word>
__global__ void fill_random_kernel(Word* words, std::size_t count, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    std::uint64_t z = (i + seed) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    words[i] = static_cast<Word>(z ^ (z >> 31));
  }
}

// A device allocation filled with random bits (never zeros: they hide unwritten outputs and can
// run faster than real data). Frees itself; reports failures through `ok()`.
class random_buffer {
 public:
  explicit random_buffer(std::size_t bytes, std::uint32_t seed = 1) {
    ok_ = cudaMalloc(&data_, bytes + 16) == cudaSuccess;
    if (ok_) {
      fill_random_kernel<<<1024, 256>>>(static_cast<std::uint32_t*>(data_), (bytes + 16) / 4, seed);
      ok_ = cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess;
    }
  }
  ~random_buffer() { cudaFree(data_); }
  random_buffer(const random_buffer&) = delete;
  random_buffer& operator=(const random_buffer&) = delete;

  bool ok() const { return ok_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
  bool ok_ = false;
};

// A device allocation outside the timed region (workspace, temporary storage) that frees itself.
struct device_scratch {
  void* p = nullptr;
  explicit device_scratch(std::size_t bytes) { cudaMalloc(&p, bytes == 0 ? 1 : bytes); }
  ~device_scratch() { cudaFree(p); }
  device_scratch(const device_scratch&) = delete;
  device_scratch& operator=(const device_scratch&) = delete;
};

// A tuning selector: Base's policy with its L2 prefetch distance (`prefetch_tiles`) set to Ahead.
template <class Base, int Ahead>
struct with_prefetch_tiles {
  __host__ __device__ static constexpr auto select(int arch) {
    auto p = Base::select(arch);
    p.prefetch_tiles = Ahead;
    return p;
  }
};

// A tuning selector: Base's policy with its tiles prefetching for the grid's first wave too, or
// not (`prefetch_first_wave`).
template <class Base, bool FirstWave>
struct with_prefetch_first_wave {
  __host__ __device__ static constexpr auto select(int arch) {
    auto p = Base::select(arch);
    p.prefetch_first_wave = FirstWave;
    return p;
  }
};

// A tuning selector: Base's policy with its large shape's stores evict-first or plain
// (`streaming_stores`).
template <class Base, bool Streaming>
struct with_streaming_stores {
  __host__ __device__ static constexpr auto select(int arch) {
    auto p = Base::select(arch);
    p.streaming_stores = Streaming;
    return p;
  }
};

// A non-blocking stream and two events for timing batches of launches; released on destruction.
struct batch_timer {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  bool ok = false;
  batch_timer() {
    ok = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess &&
         cudaEventCreate(&start) == cudaSuccess && cudaEventCreate(&stop) == cudaSuccess;
  }
  ~batch_timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(stream);
  }
  batch_timer(const batch_timer&) = delete;
  batch_timer& operator=(const batch_timer&) = delete;

  // Seconds per launch of a batch of `batch` back-to-back launches.
  template <class Launch>
  cudaError_t time(int batch, Launch& launch, double& seconds) {
    cudaEventRecord(start, stream);
    for (int i = 0; i < batch; ++i) {
      launch(stream);
    }
    cudaEventRecord(stop, stream);
    cudaError_t status = cudaEventSynchronize(stop);
    if (status == cudaSuccess) {
      status = cudaGetLastError();
    }
    float ms = 0;
    if (status == cudaSuccess) {
      status = cudaEventElapsedTime(&ms, start, stop);
    }
    seconds = ms * 1e-3 / batch;
    return status;
  }

  // Warm-up, then the batch: doubled from one launch until a batch takes at least 100 us. The
  // first launch after the GPU went idle costs more than the next ones; sized from a few launches'
  // time (as before 2026-11-24) a batch came out shorter for any variant with such a cost, or with
  // a first call that allocates (the launchers without a workspace argument), which then exposed
  // more of that cost: reduce without a workspace at 2^16 floats got batches of 9 against the
  // workspace call's 15, 5.10 against 4.32 us, and a rerun of the same binary gave other batches.
  template <class Launch>
  cudaError_t size_batch(Launch& launch, int& batch) {
    for (int i = 0; i < 3; ++i) {
      launch(stream);
    }
    cudaError_t status = cudaStreamSynchronize(stream);
    for (batch = 1; status == cudaSuccess; batch *= 2) {
      double seconds = 0;
      status = time(batch, launch, seconds);
      if (status != cudaSuccess || seconds * batch >= 1e-4 || batch >= 1 << 14) {
        break;
      }
    }
    return status;
  }
};

inline double median_of(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

// The counters of a timed benchmark whose median launch took `median` seconds.
inline void report_median(benchmark::State& state, std::size_t bytes, int batch, double median) {
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["batch"] = batch;
  state.counters["median_us"] = median * 1e6;
  state.counters["GB/s"] = bytes / median / 1e9;
  state.counters["peak_pct"] = 100.0 * bytes / median / peak_bytes_per_second();
}

// Under --profile: one launch between cudaProfilerStart and Stop, the iterations untimed (the
// counters come from the profiler).
template <class Launch>
void profile_one_launch(benchmark::State& state, Launch& launch) {
  cudaError_t status = cudaDeviceSynchronize();
  if (status == cudaSuccess) {
    cudaProfilerStart();
    launch(cudaStream_t{0});
    status = cudaDeviceSynchronize();
    cudaProfilerStop();
  }
  for (auto _ : state) {
    state.SetIterationTime(1e-6);
  }
  if (status != cudaSuccess) {
    state.SkipWithError(cudaGetErrorString(status));
  }
}

// Times `launch(stream)` with CUDA events (UseManualTime) after a warm-up, and reports the median
// per-launch time: GB/s of `bytes` (the minimum the operation must move), % of the theoretical
// peak, and microseconds. Each timed sample is a batch of back-to-back launches of at least 100 us,
// so that event and launch jitter (a few us) does not swamp small, L2-resident sizes; the baselines
// of a family are timed the same way. A batch counts as that many of Google Benchmark's iterations
// and its whole time as theirs, so that --benchmark_min_time bounds the GPU time a row spends (one
// iteration a batch, timed per launch, made a row of 4-5 us launches in batches of 32 run 32 times
// the minimum: 20-40 s a row at the default 0.5 s on an H200, 2026-11-28).
template <class Launch>
void time_launches(benchmark::State& state, std::size_t bytes, Launch launch) {
  if (profiling()) {
    profile_one_launch(state, launch);
    return;
  }
  batch_timer timer;
  if (!timer.ok) {
    state.SkipWithError("stream or event creation failed");
    return;
  }
  int batch = 1;
  cudaError_t status = timer.size_batch(launch, batch);
  std::vector<double> seconds;
  if (status == cudaSuccess) {
    while (state.KeepRunningBatch(batch)) {  // a batch counts as that many iterations
      double s = 0;
      status = timer.time(batch, launch, s);
      if (status != cudaSuccess) {
        state.SkipWithError(cudaGetErrorString(status));
        break;
      }
      state.SetIterationTime(s * batch);
      seconds.push_back(s);
    }
  } else {
    state.SkipWithError(cudaGetErrorString(status));
  }
  if (seconds.empty() || status != cudaSuccess) {
    return;
  }
  report_median(state, bytes, batch, median_of(seconds));
}

// Times `launch` as time_launches does, each batch beside a batch of `against` of the same size
// (taking turns at going first), and reports, besides the median of `launch`, the median of
// `against` (`against_us`) and the median of the per-iteration ratios `launch` / `against`
// (`ratio`). Two rows of a family are timed minutes apart; at sizes where a launch costs a few us
// their medians move by 10% or more from row to row, which this pairing cancels.
template <class Launch, class Against>
void time_launches_paired(benchmark::State& state, std::size_t bytes, Launch launch,
                          Against against) {
  if (profiling()) {
    profile_one_launch(state, launch);
    return;
  }
  batch_timer timer;
  if (!timer.ok) {
    state.SkipWithError("stream or event creation failed");
    return;
  }
  int batch = 1, against_batch = 1;
  cudaError_t status = timer.size_batch(launch, batch);
  if (status == cudaSuccess) {
    status = timer.size_batch(against, against_batch);
  }
  batch = std::max(batch, against_batch);
  std::vector<double> seconds, against_seconds, ratios;
  if (status == cudaSuccess) {
    while (state.KeepRunningBatch(batch)) {
      double s = 0, a = 0;
      const bool launch_first = seconds.size() % 2 == 0;
      status = launch_first ? timer.time(batch, launch, s) : timer.time(batch, against, a);
      if (status == cudaSuccess) {
        status = launch_first ? timer.time(batch, against, a) : timer.time(batch, launch, s);
      }
      if (status != cudaSuccess) {
        state.SkipWithError(cudaGetErrorString(status));
        break;
      }
      state.SetIterationTime(s * batch);
      seconds.push_back(s);
      against_seconds.push_back(a);
      ratios.push_back(s / a);
    }
  } else {
    state.SkipWithError(cudaGetErrorString(status));
  }
  if (seconds.empty() || status != cudaSuccess) {
    return;
  }
  report_median(state, bytes, batch, median_of(seconds));
  state.counters["against_us"] = median_of(against_seconds) * 1e6;
  state.counters["ratio"] = median_of(ratios);
}

// Skips the benchmark with the CUDA error's text when `status` is one.
inline void skip_on_error(benchmark::State& state, cudaError_t status) {
  if (status != cudaSuccess) {
    state.SkipWithError(cudaGetErrorString(status));
  }
}

// The benchmarks registered so far, by full name (for the progress count).
inline std::vector<std::string>& registered_names() {
  static std::vector<std::string> names;
  return names;
}

using arg_list = std::vector<std::vector<std::int64_t>>;

// Registers `fn(state)` as "<family>/<variant>/<name>:<value>..." with one run per entry of `args`,
// manual time, microseconds. The role goes into the label ("baseline", "default") so that reports
// compute ratios within a run.
template <class Fn>
void add(const options& opt, const std::string& family, const std::string& variant, role r, Fn fn,
         const arg_list& args, const std::vector<std::string>& arg_names) {
  const std::string name = family + "/" + variant;
  const char* label = r == role::baseline ? "baseline" : r == role::default_ ? "default" : "";
  auto* b = benchmark::RegisterBenchmark(name.c_str(), [fn, label](benchmark::State& state) {
    fn(state);
    if (*label != '\0') {
      state.SetLabel(label);
    }
  });
  b->UseManualTime()->Unit(benchmark::kMicrosecond)->ArgNames(arg_names);
  for (const auto& a : args) {
    b->Args(a);
    std::string full = name;
    for (std::size_t i = 0; i < a.size(); ++i) {
      full += "/" + arg_names[i] + ":" + std::to_string(a[i]);
    }
    registered_names().push_back(full);
  }
  if (opt.profile) {
    b->Iterations(1);
  } else if (opt.min_time > 0) {
    b->MinTime(opt.min_time);
  }
}

// One argument per run: {{a}, {b}, ...}.
inline arg_list each(const std::vector<std::int64_t>& values) {
  arg_list out;
  for (std::int64_t v : values) {
    out.push_back({v});
  }
  return out;
}

// Family registration functions, one per benchmark source (benchmark/<level>/<primitive>.cu).
void register_copy(const options& opt);
void register_transpose(const options& opt);
void register_reduce(const options& opt);
void register_segmented_reduce(const options& opt);
void register_scan(const options& opt);
void register_select(const options& opt);
void register_histogram(const options& opt);
void register_gemm(const options& opt);
void register_stencil2d(const options& opt);
void register_stencil3d(const options& opt);
void register_stencil(const options& opt);
void register_block_reduce(const options& opt);
void register_transpose_ladder(const options& opt);
void register_reduce_ladder(const options& opt);
void register_stencil_ladder(const options& opt);
void register_scan_ladder(const options& opt);
void register_memory_access(const options& opt);
void register_transpose_placement(const options& opt);
void register_read_streams(const options& opt);
void register_scan_l2_chunks(const options& opt);

}  // namespace gpuprims::bench
