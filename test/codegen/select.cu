// Codegen checks for stream compaction (see check_sass.py).
#include <gpuprims/device/select.cuh>

#include <cstddef>
#include <cstdint>

struct positive {
  __device__ bool operator()(float x) const { return x > 0.0f; }
};

// A predicate with state, as most are (a threshold given at run time).
template <class T>
struct above {
  T threshold;
  __device__ bool operator()(T x) const { return x > threshold; }
};

// The kernels behind gpuprims::select_if and partition, instantiated by calling them.
void launchers(const float* f, float* g, std::size_t* count) {
  (void)gpuprims::select_if(f, g, 0, positive{}, count);
  (void)gpuprims::partition(f, g, g, 0, positive{}, count);
}
template <class T>
void with_threshold(const T* x, T* y, std::size_t* count) {
  (void)gpuprims::select_if(x, y, 0, above<T>{T(1)}, count);
  (void)gpuprims::partition(x, y, y, 0, above<T>{T(1)}, count);
}
template void with_threshold(const std::int8_t*, std::int8_t*, std::size_t*);
template void with_threshold(const int*, int*, std::size_t*);
template void with_threshold(const double*, double*, std::size_t*);

// Aligned inputs are read as 16-byte words (Vector, the first `true` after the tuning), in both
// count widths and both forms: the small shape (the second `true`) into registers, the large one
// (staged on sm_90) copied into shared memory by cp.async. No local memory in any instantiation.
// sass: select_kernel<gpuprims::select_tuning, true, true, (false|true), unsigned (int|long long), float has LDG\.E\.128
// sass: select_kernel<gpuprims::select_tuning, true, true, (false|true), unsigned (int|long long), float lacks LDGSTS
// sass: select_kernel<gpuprims::select_tuning, true, false, (false|true), unsigned (int|long long), float has LDGSTS\.E\.BYPASS\.128
// sass: select_kernel<gpuprims::select_tuning lacks LDL|STL
// The large shape asks the L2 for the tile 128 ahead of its own (prefetch.global.L2: CCTL.E.PF2).
// sass: select_kernel<gpuprims::select_tuning, true, false, (false|true), unsigned (int|long long), float has CCTL\.E\.PF2
// sass: select_kernel<gpuprims::select_tuning, true, true, (false|true), unsigned (int|long long), float lacks CCTL\.E\.PF2
