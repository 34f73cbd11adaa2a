// One process per GPU, started by a launcher (here the program itself: run without arguments it
// starts one copy of itself per GPU with --rank r --ranks n --id FILE, as mpirun or torchrun would
// start them). Rank 0 writes the NCCL unique id to FILE, the others read it, and each rank calls
// ncclCommInitRank. Then a 1D heat equation on a periodic ring split across the ranks
// (gpuprims::multi::stencil1d, 8 steps per exchange), its total by gpuprims::multi::reduce and an
// element-wise gpuprims::multi::all_reduce, both the same bits on every rank. Exits 77 (skipped)
// with fewer than two GPUs.
#include <gpuprims/multi.cuh>

#include "example_check.cuh"

#include <cuda_runtime.h>
#include <nccl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#define NCCL_CHECK(expr) CHECK(gpuprims::multi::from_nccl(expr))

namespace {

// The launcher: a temporary file name for the id, one child per GPU, their exit codes.
int launch(const char* self, int ranks) {
  char dir[] = "/tmp/gpuprims_ncclid_XXXXXX";
  if (mkdtemp(dir) == nullptr) {
    std::perror("mkdtemp");
    return 1;
  }
  const std::string id_file = std::string(dir) + "/id";
  std::vector<pid_t> children;
  for (int r = 0; r < ranks; ++r) {
    const pid_t pid = fork();
    if (pid == 0) {  // the child runs a fresh copy of the program: no CUDA state crosses the fork
      const std::string rank = std::to_string(r), count = std::to_string(ranks);
      execl(self, self, "--rank", rank.c_str(), "--ranks", count.c_str(), "--id", id_file.c_str(),
            static_cast<char*>(nullptr));
      std::perror("execl");
      std::_Exit(127);
    }
    children.push_back(pid);
  }
  int failed = 0;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::remove(id_file.c_str());
  rmdir(dir);
  return failed == 0 ? 0 : 1;
}

// Rank 0 publishes the id (written aside, then renamed: the others never read half a file).
ncclUniqueId share_id(int rank, const std::string& file) {
  ncclUniqueId id{};
  if (rank == 0) {
    NCCL_CHECK(ncclGetUniqueId(&id));
    const std::string tmp = file + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr || std::fwrite(&id, sizeof id, 1, f) != 1 || std::fclose(f) != 0 ||
        std::rename(tmp.c_str(), file.c_str()) != 0) {
      std::perror("writing the NCCL id");
      std::exit(1);
    }
    return id;
  }
  for (int tries = 0; tries < 6000; ++tries) {  // up to a minute
    if (FILE* f = std::fopen(file.c_str(), "rb")) {
      const bool ok = std::fread(&id, sizeof id, 1, f) == 1;
      std::fclose(f);
      if (ok) {
        return id;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::fprintf(stderr, "rank %d: no NCCL id in %s\n", rank, file.c_str());
  std::exit(1);
}

int run_rank(int rank, int ranks, const std::string& id_file) {
  CHECK(cudaSetDevice(rank));
  const ncclUniqueId id = share_id(rank, id_file);
  ncclComm_t nccl = nullptr;
  NCCL_CHECK(ncclCommInitRank(&nccl, ranks, id, rank));
  cudaStream_t stream = nullptr, comm_stream = nullptr;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&comm_stream, cudaStreamNonBlocking));
  gpuprims::multi::communicator comm;
  CHECK(comm.init(nccl, comm_stream));

  // u(x, 0) = sin(2 pi x) on [0, 1), 2^22 + 1 points split across the ranks; weights (r, 1 - 2r, r)
  // with r = 1/4 keep the total (a periodic sum of a sine: about 0).
  constexpr int steps = 8, calls = 16;
  // The buffers: `first` points (the halo and padding to 16 bytes), the rank's points, the halo.
  constexpr std::size_t halo = gpuprims::multi::halo_of<1, steps>;
  constexpr std::size_t first = gpuprims::multi::stencil1d_first<float, 1, steps>;
  const std::size_t global = (std::size_t{1} << 22) + 1;
  const gpuprims::multi::slab s = gpuprims::multi::split(global, ranks, rank);
  const double pi = 3.14159265358979323846;
  std::vector<float> u(first + s.count + halo, 0.0f);
  for (std::size_t i = 0; i < s.count; ++i) {
    u[first + i] = static_cast<float>(1.0 + std::sin(2 * pi * (s.offset + i) / global));
  }
  const gpuprims::stencil_weights<float, 1> w{{0.25f, 0.5f, 0.25f}};
  const gpuprims::boundary ring = gpuprims::boundary::periodic();
  std::string why;
  if (gpuprims::multi::check_stencil1d<1, steps, float>(s.count, ring, comm, &why) != cudaSuccess) {
    std::fprintf(stderr, "rank %d: the ranks disagree: %s\n", rank, why.c_str());
    return 1;
  }
  float *a = nullptr, *b = nullptr, *total = nullptr, *v = nullptr;
  CHECK(cudaMalloc(&a, u.size() * sizeof(float)));
  CHECK(cudaMalloc(&b, u.size() * sizeof(float)));
  CHECK(cudaMalloc(&total, sizeof(float)));
  CHECK(cudaMalloc(&v, 1000 * sizeof(float)));
  CHECK(cudaMemcpy(a, u.data(), u.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSynchronize());  // the copy's DMA does not order against a non-blocking stream
  for (int c = 0; c < calls; ++c) {
    CHECK((gpuprims::multi::stencil1d<1, steps>(a, b, s.count, w, ring, comm, stream)));
    std::swap(a, b);
  }
  CHECK(gpuprims::multi::reduce(a + first, total, s.count, 0.0f, gpuprims::plus<float>{}, comm,
                                stream));
  // Every rank contributes rank + 1 to each element: the sum is ranks (ranks + 1) / 2 everywhere.
  std::vector<float> mine(1000, static_cast<float>(rank + 1));
  CHECK(cudaMemcpyAsync(v, mine.data(), 1000 * sizeof(float), cudaMemcpyHostToDevice, stream));
  CHECK(gpuprims::multi::all_reduce(v, v, 1000, gpuprims::plus<float>{}, comm, stream));
  float host_total = 0;
  CHECK(cudaMemcpyAsync(&host_total, total, sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(mine.data(), v, 1000 * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  const float want_sum = static_cast<float>(ranks * (ranks + 1) / 2);
  bool ok = std::fabs(host_total - static_cast<float>(global)) < 1e-3 * global;
  for (float x : mine) {
    ok = ok && x == want_sum;
  }
  std::printf(
      "multi_gpu_processes: rank %d of %d (pid %d, GPU %d): %zu of %zu points, %d steps; total "
      "%.3f (expected about %zu), all-reduce %s\n",
      rank, ranks, static_cast<int>(getpid()), rank, s.count, global, steps * calls, host_total,
      global, ok ? "right" : "WRONG");
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(total));
  CHECK(cudaFree(v));
  CHECK(gpuprims::release_stream_workspace(stream));
  comm = gpuprims::multi::communicator{};
  NCCL_CHECK(ncclCommDestroy(nccl));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaStreamDestroy(comm_stream));
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 0);  // keep NVLink multicast off (inherited by the ranks)
  if (argc == 1) {
    int gpus = 0;
    if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus < 2) {
      std::printf("multi_gpu_processes: %d GPU(s); skipped (needs 2 or more)\n", gpus);
      return 77;
    }
    return launch("/proc/self/exe", gpus);
  }
  int rank = -1, ranks = 0;
  std::string id_file;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rank") == 0) {
      rank = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--ranks") == 0) {
      ranks = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--id") == 0) {
      id_file = argv[i + 1];
    }
  }
  if (rank < 0 || ranks < 1 || rank >= ranks || id_file.empty()) {
    std::fprintf(stderr, "usage: %s [--rank R --ranks N --id FILE]\n", argv[0]);
    return 2;
  }
  return run_rank(rank, ranks, id_file);
}
