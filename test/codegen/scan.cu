// Codegen checks for the scans (see check_sass.py).
#include <gpuprims/device/scan.cuh>

#include <cstdint>

// The kernels behind gpuprims::inclusive_scan and exclusive_scan, instantiated by calling them.
void launchers(const float* f, float* g, const signed char* b, long long* l, const int* i, int* j) {
  (void)gpuprims::inclusive_scan(f, g, 0, gpuprims::plus<float>{});
  (void)gpuprims::exclusive_scan(i, j, 0, 0, gpuprims::plus<int>{});
  (void)gpuprims::inclusive_scan(b, l, 0, gpuprims::plus<long long>{});
}

// The default reads and writes 16-byte words where the pointers allow (Vector, the second `true`
// or `false` after the tuning; then Small, the small-input shape): on sm_90 the large shape stages
// its tile in shared memory by cp.async (LDGSTS, 16 bytes), the small one loads it into registers
// (LDG, 16 bytes); both store from registers; no local memory in any instantiation (its register
// caps spill nothing).
// sass: scan_kernel<gpuprims::scan_tuning, (false|true), true, false, float, float, .*float has LDGSTS\.E\.BYPASS\.128
// sass: scan_kernel<gpuprims::scan_tuning, (false|true), true, true, float, float, .*float has STG\.E\.128
// The large shape stores its results evict-first (scan_policy::streaming_stores: st.global.cs).
// sass: scan_kernel<gpuprims::scan_tuning, (false|true), true, false, float, float, .*float has STG\.E\.EF\.128
// sass: scan_kernel<gpuprims::scan_tuning, (false|true), true, false, float, float, .*float lacks STG\.E\.128
// sass: scan_kernel<gpuprims::scan_tuning, (false|true), true, false, int, int, .*int has LDGSTS\.E\.BYPASS\.128
// sass: scan_kernel<gpuprims::scan_tuning, (false|true), true, false, signed char, long long has LDGSTS\.E\.BYPASS\.128
// sass: scan_kernel<gpuprims::scan_tuning, (false|true), true, true, float, float, .*float has LDG\.E\.128
// sass: scan_kernel<gpuprims::scan_tuning, (false|true), true, true, float, float, .*float lacks LDGSTS
// sass: scan_kernel<gpuprims::scan_tuning lacks LDL|STL
// The rounds' shuffles stay on the converged path: the compiler once unswitched the unrolled rounds
// on `lane > 0` and split the warp around every shuffle (each behind BRA.DIV, 17 of them in the
// large float kernel, checked against the code before the fix; detail::opaque). The 4 or 5 left
// guard the look-back's warp-wide steps.
// sass: scan_kernel<gpuprims::scan_tuning, .*(float|int|long long) has at most 5 BRA\.DIV
// The large shape asks the L2 for the tile 128 ahead of its own (prefetch.global.L2: CCTL.E.PF2).
// sass: scan_kernel<gpuprims::scan_tuning, (false|true), true, false, float, float, .*float has CCTL\.E\.PF2
// sass: scan_kernel<gpuprims::scan_tuning, (false|true), true, true, float, float, .*float lacks CCTL\.E\.PF2
