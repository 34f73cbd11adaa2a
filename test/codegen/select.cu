// Codegen checks for stream compaction (see check_sass.py).
#include <gpuprims/device/select.cuh>

#include <cstddef>

struct positive {
  __device__ bool operator()(float x) const { return x > 0.0f; }
};

// The kernels behind gpuprims::select_if and partition, instantiated by calling them.
void launchers(const float* f, float* g, std::size_t* count) {
  (void)gpuprims::select_if(f, g, 0, positive{}, count);
  (void)gpuprims::partition(f, g, g, 0, positive{}, count);
}

// Aligned inputs are read as 16-byte words (Vector, the first `true` after the tuning) in both
// shapes, both count widths and both forms; a tile stays in registers, then in shared memory: no
// local memory in any instantiation.
// sass: select_kernel<gpuprims::select_tuning, true, (false|true), (false|true), unsigned (int|long long), float has LDG\.E\.128
// sass: select_kernel<gpuprims::select_tuning lacks LDL|STL
