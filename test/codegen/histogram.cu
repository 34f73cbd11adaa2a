// Codegen checks for the histograms (see check_sass.py): 16-byte loads of the samples, shared
// atomics for the shared-memory copies, and no local memory in any kernel. 8-bit samples count
// their values in 32 copies of 256 counters (32 KiB).
#include <gpuprims/device/histogram.cuh>

#include <cstdint>

void launchers(const std::uint8_t* bytes, const float* f, unsigned int* counts) {
  (void)gpuprims::histogram_even(bytes, 1, counts, 256, 0, 256);
  (void)gpuprims::histogram_even(f, 1, counts, 1024, 0.0f, 1.0f);
}

// sass: histogram_kernel<gpuprims::histogram_tuning, \(gpuprims::detail::histogram_kernel_size\)1, unsigned char, .* has LDG\.E\.128
// sass: histogram_kernel<gpuprims::histogram_tuning, \(gpuprims::detail::histogram_kernel_size\)1, unsigned char, .* has ATOMS
// sass: histogram_kernel<gpuprims::histogram_tuning, \(gpuprims::detail::histogram_kernel_size\)1, float, .* has LDG\.E\.128
// ptxas: histogram_bytes_kernel<gpuprims::histogram_tuning, unsigned char, .* smem 32768
// sass: histogram_bytes_kernel<gpuprims::histogram_tuning, unsigned char, .* has LDG\.E\.128
// sass: histogram_bytes_kernel<gpuprims::histogram_tuning, unsigned char, .* has ATOMS
