// gpuprims::reduce from the host: a sum into device memory, with a workspace that is allocated
// once and reused.
#include <gpuprims/reduce.cuh>

#include "example_check.cuh"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main() {
  const std::size_t n = (std::size_t{1} << 24) + 3;
  std::vector<int> host(n);
  long long expected = 0;
  for (auto& x : host) {
    x = std::rand() % 201 - 100;
    expected += x;
  }
  int* in = nullptr;
  long long* sum = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&sum, sizeof(long long)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  std::size_t bytes = 0;
  CHECK((gpuprims::reduce_workspace_bytes<int, long long>(n, bytes)));
  void* workspace = nullptr;
  CHECK(cudaMalloc(&workspace, bytes));  // no preparation: the calls keep nothing in it

  for (int i = 0; i < 3; ++i) {  // int items summed into long long, no overflow
    CHECK(gpuprims::reduce(in, sum, n, 0, gpuprims::plus<long long>{}, workspace, bytes));
  }
  long long got = 0;
  CHECK(cudaMemcpy(&got, sum, sizeof(got), cudaMemcpyDeviceToHost));
  std::printf("sum of %zu ints: %lld (expected %lld)\n", n, got, expected);
  CHECK(cudaFree(in));
  CHECK(cudaFree(sum));
  CHECK(cudaFree(workspace));
  return got == expected ? 0 : 1;
}
