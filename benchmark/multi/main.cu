// gpuprims_multi_bench: the multi-GPU layer against its baselines, in one run. One process drives
// every GPU (ncclCommInitAll, a host thread per rank); each row is the median over iterations of
// the slowest rank's time, taken with CUDA events on the rank's compute stream (which waits for
// the rank's communication before its next work), the iterations queued back to back after a
// warm-up and a host barrier. Random data, never zeros.
//
// Families (docs/multi-gpu.md has the goals):
//  - stencil1d_weak / stencil2d_weak: every GPU its own 2^28-point ring or 16384^2 grid (periodic
//    across the ranks), 1 to 8 fused steps an exchange, against the single-GPU fused stencil of
//    the per-GPU size (GPU 0 alone) and a cudaMemcpyAsync of the per-GPU grid.
//  - stencil1d_strong / stencil2d_strong: one fixed domain split over all the GPUs, against the
//    single-GPU stencil of the whole domain.
//  - halo_exchange: the exchange alone (1D: 8 points a side; 2D: 4 rows of 16384 floats a side).
//  - reduce: gpuprims::multi::reduce of 2^28 floats a GPU against gpuprims::reduce of 2^28 floats
//    on GPU 0 alone.
//  - all_reduce: gpuprims::multi::all_reduce against ncclAllReduce (sum of floats), bus bandwidth
//    = bytes x 2 (R - 1) / R / time, as nccl-tests report it.
// A custom harness rather than Google Benchmark: every rank's thread must launch its part of the
// same iteration, and the time of an iteration is the slowest rank's.
//
//   gpuprims_multi_bench [--quick] [--out results.jsonl]
#include <gpuprims/multi.cuh>
#include <gpuprims/reduce.cuh>
#include <gpuprims/stencil.cuh>

#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

namespace multi = gpuprims::multi;

void fail(const char* what, const char* why) {
  std::fprintf(stderr, "gpuprims_multi_bench: %s: %s\n", what, why);
  std::exit(1);
}
#define CUDA_OK(expr)                                           \
  do {                                                          \
    const cudaError_t e_ = (expr);                              \
    if (e_ != cudaSuccess) fail(#expr, cudaGetErrorString(e_)); \
  } while (0)
#define NCCL_OK(expr)                                           \
  do {                                                          \
    const ncclResult_t r_ = (expr);                             \
    if (r_ != ncclSuccess) fail(#expr, ncclGetErrorString(r_)); \
  } while (0)

__global__ void fill_kernel(float* x, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    unsigned long long z = (i + seed) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    x[i] = static_cast<float>(static_cast<double>(z >> 40) / (1ULL << 24)) - 0.5f;  // [-0.5, 0.5)
  }
}

// A device buffer of n floats, random.
struct floats {
  float* p = nullptr;
  floats() = default;
  floats(std::size_t n, unsigned seed) {
    CUDA_OK(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(float)));
    fill_kernel<<<1024, 256>>>(p, n, seed);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
  }
  floats(const floats&) = delete;
  floats& operator=(const floats&) = delete;
  floats(floats&& o) noexcept : p(o.p) { o.p = nullptr; }
  ~floats() {
    if (p != nullptr) cudaFree(p);
  }
};

struct rank_ctx {
  int device = 0, rank = 0, ranks = 0;
  ncclComm_t nccl = nullptr;
  cudaStream_t stream = nullptr, comm_stream = nullptr;
  multi::communicator comm;
};

class barrier {
 public:
  explicit barrier(int n) : n_(n) {}
  void wait() {
    std::unique_lock<std::mutex> lock(m_);
    const int gen = gen_;
    if (++count_ == n_) {
      count_ = 0;
      ++gen_;
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return gen != gen_; });
    }
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int n_, count_ = 0, gen_ = 0;
};

class world {
 public:
  explicit world(int ranks) : ctx_(static_cast<std::size_t>(ranks)) {
    std::vector<ncclComm_t> comms(ctx_.size());
    std::vector<int> devs(ctx_.size());
    for (int r = 0; r < ranks; ++r) devs[static_cast<std::size_t>(r)] = r;
    NCCL_OK(ncclCommInitAll(comms.data(), ranks, devs.data()));
    for (int r = 0; r < ranks; ++r) {
      rank_ctx& c = ctx_[static_cast<std::size_t>(r)];
      c.device = r;
      c.rank = r;
      c.ranks = ranks;
      c.nccl = comms[static_cast<std::size_t>(r)];
      CUDA_OK(cudaSetDevice(r));
      CUDA_OK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
      CUDA_OK(cudaStreamCreateWithFlags(&c.comm_stream, cudaStreamNonBlocking));
      CUDA_OK(c.comm.init(c.nccl, c.comm_stream));
    }
  }
  ~world() {
    for (rank_ctx& c : ctx_) {
      cudaSetDevice(c.device);
      c.comm = multi::communicator{};
      ncclCommDestroy(c.nccl);
      (void)gpuprims::release_stream_workspace(c.stream);
      cudaStreamDestroy(c.stream);
      cudaStreamDestroy(c.comm_stream);
    }
  }
  int size() const { return static_cast<int>(ctx_.size()); }

  // setup(ctx) -> the per-iteration op (a std::function), on a thread per rank; returns the median
  // over `iters` of the slowest rank's microseconds.
  double time(int warmup, int iters, const std::function<std::function<void()>(rank_ctx&)>& setup) {
    std::vector<std::vector<float>> ms(ctx_.size());
    barrier sync(size());
    std::vector<std::thread> threads;
    for (std::size_t r = 0; r < ctx_.size(); ++r) {
      threads.emplace_back([&, r] {
        rank_ctx& c = ctx_[r];
        CUDA_OK(cudaSetDevice(c.device));
        const std::function<void()> op = setup(c);
        for (int i = 0; i < warmup; ++i) op();
        CUDA_OK(cudaStreamSynchronize(c.stream));
        std::vector<cudaEvent_t> ev(static_cast<std::size_t>(iters) + 1);
        for (cudaEvent_t& e : ev) CUDA_OK(cudaEventCreate(&e));
        sync.wait();
        CUDA_OK(cudaEventRecord(ev[0], c.stream));
        for (int i = 0; i < iters; ++i) {
          op();
          CUDA_OK(cudaEventRecord(ev[static_cast<std::size_t>(i) + 1], c.stream));
        }
        CUDA_OK(cudaStreamSynchronize(c.stream));
        CUDA_OK(cudaGetLastError());
        ms[r].resize(static_cast<std::size_t>(iters));
        for (int i = 0; i < iters; ++i) {
          CUDA_OK(cudaEventElapsedTime(&ms[r][static_cast<std::size_t>(i)],
                                       ev[static_cast<std::size_t>(i)],
                                       ev[static_cast<std::size_t>(i) + 1]));
        }
        for (cudaEvent_t e : ev) cudaEventDestroy(e);
        sync.wait();  // every rank done before any frees what the op used
      });
    }
    for (std::thread& t : threads) t.join();
    std::vector<float> slowest(static_cast<std::size_t>(iters), 0.0f);
    for (const auto& m : ms) {
      for (std::size_t i = 0; i < m.size(); ++i) slowest[i] = std::max(slowest[i], m[i]);
    }
    std::nth_element(slowest.begin(), slowest.begin() + iters / 2, slowest.end());
    return 1000.0 * slowest[static_cast<std::size_t>(iters / 2)];
  }

 private:
  std::vector<rank_ctx> ctx_;
};

double peak_gbps() {
  int clock_khz = 0, bus_bits = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
  return 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
}

FILE* json = nullptr;
double peak = 0;

// One row: GB/s of `bytes` (the least the operation moves on one GPU; 0: none shown), and the
// ratio to `base_us` (baseline time over this time: above 1 is faster) when given.
void row(const std::string& family, const std::string& name, const std::string& size, int ranks,
         double us, double bytes, double base_us = 0, const char* ratio_name = "") {
  const double gbps = bytes > 0 ? bytes / us / 1e3 : 0;
  std::printf("%-18s %-44s %-14s %2d  %10.2f us", family.c_str(), name.c_str(), size.c_str(), ranks,
              us);
  if (bytes > 0) std::printf("  %8.1f GB/s %5.1f%%", gbps, 100 * gbps / peak);
  if (base_us > 0) std::printf("  %s %.3f", ratio_name, base_us / us);
  std::printf("\n");
  if (json != nullptr) {
    std::fprintf(
        json,
        "{\"family\":\"%s\",\"name\":\"%s\",\"size\":\"%s\",\"ranks\":%d,\"median_us\":%.3f,"
        "\"GBps\":%.2f,\"ratio\":%.4f,\"ratio_of\":\"%s\"}\n",
        family.c_str(), name.c_str(), size.c_str(), ranks, us, gbps,
        base_us > 0 ? base_us / us : 0.0, ratio_name);
  }
}

const gpuprims::stencil_weights<float, 1> w1{{0.25f, 0.5f, 0.25f}};
const gpuprims::stencil2d_weights<float, 1> w2{{{0, 0.2f, 0}, {0.2f, 0.2f, 0.2f}, {0, 0.2f, 0}}};

// ---- 1D stencil ---------------------------------------------------------------------------------

template <int Steps>
double single_1d(world& one, std::size_t n, int iters) {
  return one.time(3, iters, [&](rank_ctx& c) {
    auto a = std::make_shared<floats>(n, 1), b = std::make_shared<floats>(n, 2);
    return std::function<void()>([a, b, n, &c] {
      CUDA_OK((gpuprims::apply_stencil1d_fused<1, Steps>(
          a->p, b->p, n, w1, gpuprims::boundary::periodic(), c.stream)));
      std::swap(a->p, b->p);
    });
  });
}

// Every rank `local(rank)` points (plus halos), periodic ring.
template <int Steps>
double multi_1d(world& w, const std::function<std::size_t(int)>& local, int iters) {
  constexpr std::size_t len = multi::stencil1d_first<float, 1, Steps> + multi::halo_of<1, Steps>;
  return w.time(3, iters, [&](rank_ctx& c) {
    const std::size_t n = local(c.rank);
    auto a = std::make_shared<floats>(n + len, 1 + c.rank),
         b = std::make_shared<floats>(n + len, 7);
    return std::function<void()>([a, b, n, &c] {
      CUDA_OK((multi::stencil1d<1, Steps>(a->p, b->p, n, w1, gpuprims::boundary::periodic(), c.comm,
                                          c.stream)));
      std::swap(a->p, b->p);
    });
  });
}

template <int Steps>
void stencil1d_family(world& all, world& one, std::size_t per_gpu, int iters) {
  const std::string steps = std::to_string(Steps) + (Steps == 1 ? " step" : " steps");
  const double bytes = 2.0 * per_gpu * sizeof(float);
  const double single = single_1d<Steps>(one, per_gpu, iters);
  row("stencil1d_weak", "single GPU apply_stencil1d_fused, " + steps, "2^28/GPU", 1, single, bytes);
  const double weak = multi_1d<Steps>(
      all, [&](int) { return per_gpu; }, iters);
  row("stencil1d_weak", "multi::stencil1d, " + steps, "2^28/GPU", all.size(), weak, bytes, single,
      "efficiency");
  std::printf("%-18s %-44s %-14s %2d  %10.2f us a step\n", "stencil1d_weak",
              ("multi::stencil1d, " + steps + ", per step").c_str(), "2^28/GPU", all.size(),
              weak / Steps);
  const std::size_t global = per_gpu;
  const double strong = multi_1d<Steps>(
      all, [&](int r) { return multi::split(global, all.size(), r).count; }, iters);
  row("stencil1d_strong", "multi::stencil1d, " + steps, "2^28 in all", all.size(), strong,
      2.0 * multi::split(global, all.size(), 0).count * sizeof(float), single, "speedup");
}

// ---- 2D stencil ---------------------------------------------------------------------------------

template <int Steps>
double single_2d(world& one, std::size_t rows, std::size_t cols, int iters) {
  return one.time(3, iters, [&](rank_ctx& c) {
    auto a = std::make_shared<floats>(rows * cols, 1), b = std::make_shared<floats>(rows * cols, 2);
    return std::function<void()>([a, b, rows, cols, &c] {
      CUDA_OK((gpuprims::apply_stencil2d_fused<1, gpuprims::stencil_shape::star, Steps>(
          a->p, b->p, rows, cols, cols, cols, w2, gpuprims::boundary::periodic(), c.stream)));
      std::swap(a->p, b->p);
    });
  });
}

template <int Steps>
double multi_2d(world& w, const std::function<std::size_t(int)>& local_rows, std::size_t cols,
                int iters) {
  constexpr std::size_t H = multi::halo_of<1, Steps>;
  return w.time(3, iters, [&](rank_ctx& c) {
    const std::size_t rows = local_rows(c.rank);
    auto a = std::make_shared<floats>((rows + 2 * H) * cols, 1 + c.rank);
    auto b = std::make_shared<floats>((rows + 2 * H) * cols, 7);
    return std::function<void()>([a, b, rows, cols, &c] {
      CUDA_OK((multi::stencil2d<1, gpuprims::stencil_shape::star, Steps>(
          a->p, b->p, rows, cols, cols, cols, w2, gpuprims::boundary::periodic(), c.comm,
          c.stream)));
      std::swap(a->p, b->p);
    });
  });
}

template <int Steps>
void stencil2d_family(world& all, world& one, std::size_t side, int iters) {
  const std::string steps = std::to_string(Steps) + (Steps == 1 ? " step" : " steps");
  const double bytes = 2.0 * side * side * sizeof(float);
  const std::string size = std::to_string(side) + "^2/GPU";
  const double single = single_2d<Steps>(one, side, side, iters);
  row("stencil2d_weak", "single GPU apply_stencil2d_fused 5-point, " + steps, size, 1, single,
      bytes);
  const double weak = multi_2d<Steps>(
      all, [&](int) { return side; }, side, iters);
  row("stencil2d_weak", "multi::stencil2d 5-point, " + steps, size, all.size(), weak, bytes, single,
      "efficiency");
  std::printf("%-18s %-44s %-14s %2d  %10.2f us a step\n", "stencil2d_weak",
              ("multi::stencil2d, " + steps + ", per step").c_str(), size.c_str(), all.size(),
              weak / Steps);
  const double strong = multi_2d<Steps>(
      all, [&](int r) { return multi::split(side, all.size(), r).count; }, side, iters);
  row("stencil2d_strong", "multi::stencil2d 5-point, " + steps, std::to_string(side) + "^2 in all",
      all.size(), strong, 2.0 * multi::split(side, all.size(), 0).count * side * sizeof(float),
      single, "speedup");
}

// ---- copies, exchanges, reductions --------------------------------------------------------------

double copy_time(world& one, std::size_t n, int iters) {
  return one.time(3, iters, [&](rank_ctx& c) {
    auto a = std::make_shared<floats>(n, 1), b = std::make_shared<floats>(n, 2);
    return std::function<void()>([a, b, n, &c] {
      CUDA_OK(cudaMemcpyAsync(b->p, a->p, n * sizeof(float), cudaMemcpyDeviceToDevice, c.stream));
    });
  });
}

void exchange_family(world& all, int iters) {
  const std::size_t H1 = 8, n1 = std::size_t{1} << 20;
  const double t1 = all.time(10, iters, [&](rank_ctx& c) {
    auto a = std::make_shared<floats>(n1 + 2 * H1, 1);
    return std::function<void()>([a, n1, H1, &c] {
      CUDA_OK(multi::exchange_halos1d(a->p, n1, H1, true, c.comm, c.stream));
    });
  });
  row("halo_exchange", "exchange_halos1d, 8 points a side", "2^20/GPU", all.size(), t1, 0);
  const std::size_t cols = 16384, rows = 1024, H2 = 4;
  const double t2 = all.time(10, iters, [&](rank_ctx& c) {
    auto a = std::make_shared<floats>((rows + 2 * H2) * cols, 1);
    return std::function<void()>([a, rows, cols, H2, &c] {
      CUDA_OK(multi::exchange_halos2d(a->p, rows, cols, cols, H2, true, c.comm, c.stream));
    });
  });
  // Each GPU sends and receives 2 x 4 rows: the bytes shown are those received.
  row("halo_exchange", "exchange_halos2d, 4 rows of 16384 a side", "16384 cols", all.size(), t2,
      2.0 * H2 * cols * sizeof(float));
}

void reduce_family(world& all, world& one, std::size_t n, int iters) {
  const double single = one.time(5, iters, [&](rank_ctx& c) {
    auto a = std::make_shared<floats>(n, 1), out = std::make_shared<floats>(1, 1);
    return std::function<void()>([a, out, n, &c] {
      CUDA_OK(gpuprims::reduce(a->p, out->p, n, 0.0f, gpuprims::plus<float>{}, c.stream));
    });
  });
  row("reduce", "single GPU gpuprims::reduce", "2^28/GPU", 1, single, n * 4.0);
  const double m = all.time(5, iters, [&](rank_ctx& c) {
    auto a = std::make_shared<floats>(n, 1 + c.rank), out = std::make_shared<floats>(1, 1);
    return std::function<void()>([a, out, n, &c] {
      CUDA_OK(multi::reduce(a->p, out->p, n, 0.0f, gpuprims::plus<float>{}, c.comm, c.stream));
    });
  });
  row("reduce", "multi::reduce", "2^28/GPU", all.size(), m, n * 4.0, single, "single/multi");
}

// The point-to-point pipeline (what three or more ranks run) with segments of SegmentMiB.
template <std::size_t SegmentMiB>
struct segments {
  __host__ __device__ static constexpr gpuprims::all_reduce_policy select(int) {
    return {SegmentMiB << 20, 256, 4, false};
  }
};

template <class Tuning>
double multi_all_reduce(world& all, std::size_t n, int iters) {
  return all.time(3, iters, [&](rank_ctx& c) {
    auto a = std::make_shared<floats>(n, 1 + c.rank), b = std::make_shared<floats>(n, 9);
    std::size_t bytes = 0;
    CUDA_OK((multi::all_reduce_workspace_bytes<float, Tuning>(n, c.ranks, bytes)));
    auto ws = std::make_shared<floats>(bytes / sizeof(float) + 1, 3);
    return std::function<void()>([a, b, ws, bytes, n, &c] {
      CUDA_OK(multi::all_reduce<Tuning>(a->p, b->p, n, gpuprims::plus<float>{}, c.comm, ws->p,
                                        bytes, c.stream));
    });
  });
}

void all_reduce_family(world& all, bool quick, int iters) {
  const std::size_t sizes_mib[] = {1, 16, 256};
  for (std::size_t mib : sizes_mib) {
    if (quick && mib != 256) continue;
    const std::size_t n = (mib << 20) / sizeof(float);
    const double busbytes = (mib << 20) * 2.0 * (all.size() - 1) / all.size();
    const double nccl = all.time(3, iters, [&](rank_ctx& c) {
      auto a = std::make_shared<floats>(n, 1 + c.rank), b = std::make_shared<floats>(n, 9);
      return std::function<void()>([a, b, n, &c] {
        NCCL_OK(ncclAllReduce(a->p, b->p, n, ncclFloat, ncclSum, c.nccl, c.stream));
      });
    });
    const std::string size = std::to_string(mib) + " MiB";
    std::printf("%-18s %-44s %-14s %2d  %10.2f us  bus %8.1f GB/s\n", "all_reduce",
                "ncclAllReduce (sum)", size.c_str(), all.size(), nccl, busbytes / nccl / 1e3);
    row("all_reduce", "ncclAllReduce (sum)", size, all.size(), nccl, 0);
    const double ours = multi_all_reduce<gpuprims::all_reduce_tuning>(all, n, iters);
    std::printf("%-18s %-44s %-14s %2d  %10.2f us  bus %8.1f GB/s  vs NCCL %.3f\n", "all_reduce",
                "multi::all_reduce (the default)", size.c_str(), all.size(), ours,
                busbytes / ours / 1e3, nccl / ours);
    row("all_reduce", "multi::all_reduce", size, all.size(), ours, 0, nccl, "vs ncclAllReduce");
    for (const auto& [name, time] :
         {std::pair<const char*, double>{
              "point-to-point, 8 MiB segments",
              quick ? 0.0 : multi_all_reduce<segments<8>>(all, n, iters)},
          {"point-to-point, 32 MiB segments",
           quick ? 0.0 : multi_all_reduce<segments<32>>(all, n, iters)},
          {"point-to-point, 128 MiB segments", multi_all_reduce<segments<128>>(all, n, iters)}}) {
      if (time <= 0) continue;
      std::printf("%-18s %-44s %-14s %2d  %10.2f us  bus %8.1f GB/s  vs NCCL %.3f\n", "all_reduce",
                  (std::string("multi::all_reduce ") + name).c_str(), size.c_str(), all.size(),
                  time, busbytes / time / 1e3, nccl / time);
      row("all_reduce", std::string("multi::all_reduce ") + name, size, all.size(), time, 0, nccl,
          "vs ncclAllReduce");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 0);  // NVLink multicast stays off
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) json = std::fopen(argv[++i], "w");
  }
  int gpus = 0;
  CUDA_OK(cudaGetDeviceCount(&gpus));
  if (gpus < 1) fail("devices", "no CUDA device");
  cudaDeviceProp prop{};
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  int nccl_version = 0;
  ncclGetVersion(&nccl_version);
  CUDA_OK(cudaSetDevice(0));
  peak = peak_gbps();
  std::printf("gpuprims_multi_bench: %d x %s, NCCL %d, DRAM peak %.0f GB/s a GPU, NCCL_ALGO=%s\n",
              gpus, prop.name, nccl_version, peak,
              std::getenv("NCCL_ALGO") ? std::getenv("NCCL_ALGO") : "(unset)");
  std::printf("%-18s %-44s %-14s %2s  %13s\n", "family", "variant", "size", "R", "median");
  world all(gpus);
  world one(1);
  const int iters = quick ? 10 : 30;
  const std::size_t n1 = std::size_t{1} << 28;
  row("copy", "cudaMemcpyAsync of 2^28 floats", "2^28", 1, copy_time(one, n1, iters),
      2.0 * n1 * sizeof(float));
  row("copy", "cudaMemcpyAsync of 16384^2 floats", "16384^2", 1,
      copy_time(one, std::size_t{16384} * 16384, iters), 2.0 * 16384.0 * 16384 * sizeof(float));
  stencil1d_family<1>(all, one, n1, iters);
  stencil1d_family<4>(all, one, n1, iters);
  if (!quick) {
    stencil1d_family<2>(all, one, n1, iters);
    stencil1d_family<8>(all, one, n1, iters);
  }
  stencil2d_family<1>(all, one, 16384, iters);
  stencil2d_family<4>(all, one, 16384, iters);
  if (!quick) {
    stencil2d_family<2>(all, one, 16384, iters);
    stencil2d_family<8>(all, one, 16384, iters);
  }
  exchange_family(all, quick ? 50 : 200);
  reduce_family(all, one, n1, iters);
  all_reduce_family(all, quick, iters);
  if (json != nullptr) std::fclose(json);
  return 0;
}
