// One process drives every GPU: ncclCommInitAll, then a host thread per GPU. A 2D heat equation
// on a periodic grid split in strips of rows across the GPUs, 4 time steps per halo exchange
// (gpuprims::multi::stencil2d with temporal blocking), the total heat by gpuprims::multi::reduce
// (the same bits on every rank), and the grid checked bit for bit against the single-GPU fused
// stencil on GPU 0. Exits 77 (skipped) with fewer than two GPUs.
#include <gpuprims/multi.cuh>
#include <gpuprims/stencil.cuh>

#include "example_check.cuh"

#include <cuda_runtime.h>
#include <nccl.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#define NCCL_CHECK(expr) CHECK(gpuprims::multi::from_nccl(expr))

namespace {

constexpr std::size_t rows = 1001, cols = 512;  // 1001 rows: no GPU count divides it evenly
constexpr int steps_per_call = 4, calls = 25;
// Heat: u + k (laplacian of u) with k = 0.2, as 5-point weights.
const gpuprims::stencil2d_weights<float, 1> heat{{{0, 0.2f, 0}, {0.2f, 0.2f, 0.2f}, {0, 0.2f, 0}}};
const gpuprims::boundary2d periodic = gpuprims::boundary::periodic();

struct rank_state {
  int device = 0;
  ncclComm_t nccl = nullptr;
  std::vector<float> strip;  // the owned rows after the run
  float total = 0;
};

void run_rank(rank_state& st, int rank, int ranks, const std::vector<float>& u0) {
  CHECK(cudaSetDevice(st.device));
  cudaStream_t stream = nullptr, comm_stream = nullptr;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&comm_stream, cudaStreamNonBlocking));
  gpuprims::multi::communicator comm;
  CHECK(comm.init(st.nccl, comm_stream));

  constexpr std::size_t halo = gpuprims::multi::halo_of<1, steps_per_call>;
  const gpuprims::multi::slab s = gpuprims::multi::split(rows, ranks, rank);
  const std::size_t pitch = cols, points = (s.count + 2 * halo) * pitch;
  std::string why;
  const cudaError_t agreed =
      gpuprims::multi::check_stencil2d<1, gpuprims::stencil_shape::star, steps_per_call, float>(
          s.count, cols, pitch, pitch, periodic, comm, &why);
  if (agreed != cudaSuccess) {
    std::fprintf(stderr, "rank %d: the ranks disagree: %s\n", rank, why.c_str());
    std::exit(1);
  }
  float *a = nullptr, *b = nullptr, *total = nullptr;
  CHECK(cudaMalloc(&a, points * sizeof(float)));
  CHECK(cudaMalloc(&b, points * sizeof(float)));
  CHECK(cudaMalloc(&total, sizeof(float)));
  CHECK(cudaMemcpy(a + halo * pitch, u0.data() + s.offset * cols, s.count * cols * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSynchronize());    // the copy's DMA does not order against a non-blocking stream
  for (int c = 0; c < calls; ++c) {  // queued on the streams: nothing waits on the host
    CHECK((gpuprims::multi::stencil2d<1, gpuprims::stencil_shape::star, steps_per_call>(
        a, b, s.count, cols, pitch, pitch, heat, periodic, comm, stream)));
    std::swap(a, b);
  }
  CHECK(gpuprims::multi::reduce(a + halo * pitch, total, s.count * cols, 0.0f,
                                gpuprims::plus<float>{}, comm, stream));
  st.strip.resize(s.count * cols);
  CHECK(cudaMemcpyAsync(st.strip.data(), a + halo * pitch, st.strip.size() * sizeof(float),
                        cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(&st.total, total, sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(total));
  CHECK(gpuprims::release_stream_workspace(stream));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaStreamDestroy(comm_stream));
}

}  // namespace

int main() {
  setenv("NCCL_NVLS_ENABLE", "0", 0);  // keep NVLink multicast off
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess) {
    gpus = 0;
  }
  if (gpus < 2) {
    std::printf("multi_gpu_threads: %d GPU(s); skipped (needs 2 or more)\n", gpus);
    return 77;
  }
  std::vector<float> u0(rows * cols);
  for (std::size_t y = 0; y < rows; ++y) {
    for (std::size_t x = 0; x < cols; ++x) {  // a hot square in a cold plate
      u0[y * cols + x] = (y > rows / 3 && y < rows / 2 && x > cols / 4 && x < cols / 2) ? 1.f : 0.f;
    }
  }
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(gpus));
  std::vector<int> devices(static_cast<std::size_t>(gpus));
  for (int g = 0; g < gpus; ++g) {
    devices[static_cast<std::size_t>(g)] = g;
  }
  NCCL_CHECK(ncclCommInitAll(comms.data(), gpus, devices.data()));
  std::vector<rank_state> ranks(static_cast<std::size_t>(gpus));
  std::vector<std::thread> threads;
  for (int r = 0; r < gpus; ++r) {
    ranks[static_cast<std::size_t>(r)].device = r;
    ranks[static_cast<std::size_t>(r)].nccl = comms[static_cast<std::size_t>(r)];
    threads.emplace_back(run_rank, std::ref(ranks[static_cast<std::size_t>(r)]), r, gpus,
                         std::cref(u0));
  }
  for (std::thread& t : threads) {
    t.join();
  }
  for (ncclComm_t c : comms) {
    NCCL_CHECK(ncclCommDestroy(c));
  }

  // The single-GPU reference: the same steps on the whole grid on GPU 0.
  CHECK(cudaSetDevice(0));
  float *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, rows * cols * sizeof(float)));
  CHECK(cudaMalloc(&b, rows * cols * sizeof(float)));
  CHECK(cudaMemcpy(a, u0.data(), rows * cols * sizeof(float), cudaMemcpyHostToDevice));
  for (int c = 0; c < calls; ++c) {
    CHECK((gpuprims::apply_stencil2d_fused<1, gpuprims::stencil_shape::star, steps_per_call>(
        a, b, rows, cols, cols, cols, heat, periodic)));
    std::swap(a, b);
  }
  std::vector<float> want(rows * cols);
  CHECK(cudaMemcpy(want.data(), a, want.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));

  std::vector<float> got;
  double initial = 0;
  for (float v : u0) {
    initial += v;
  }
  bool same_total = true;
  for (const rank_state& st : ranks) {
    got.insert(got.end(), st.strip.begin(), st.strip.end());
    same_total = same_total && std::memcmp(&st.total, &ranks[0].total, sizeof(float)) == 0;
  }
  const bool same_grid = std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) == 0;
  std::printf(
      "multi_gpu_threads: %d GPUs, %zu x %zu periodic grid, %d heat steps (%d per exchange): "
      "grid %s the single-GPU result bit for bit; total heat %.4f on every rank (%s), %.4f at "
      "the start\n",
      gpus, rows, cols, calls * steps_per_call, steps_per_call,
      same_grid ? "equals" : "DIFFERS from", ranks[0].total,
      same_total ? "same bits" : "DIFFERENT bits", initial);
  const bool conserved = std::fabs(ranks[0].total - initial) < 1e-3 * initial;
  return same_grid && same_total && conserved ? 0 : 1;
}
