# CI's build flags (a toolchain file: .ci/run exports CMAKE_TOOLCHAIN_FILE, and
# CUDAARCHS=90-virtual, before the README's test command). CI has no GPU, so nothing the build makes
# runs there: the tests, examples, benchmarks and header checks are compiled only to check that they
# compile, warning-free. They are compiled without optimization, as compute_90 PTX (no ptxas), which
# takes about a third of the time of the Release build: test/device/stencil2d.cu takes 69 s of CPU
# as sm_90 SASS plus PTX at -O3, 21 s as PTX at -G, and its host part 13.6 s at -O3 against 3.2 s at
# -O0.
#
# The optimized compiles stay in the codegen tests, which call nvcc with their own flags: every
# launcher as sm_90 SASS and as the oldest architecture's PTX at -O3 (codegen_arch_*), and each
# primitive's SASS rules (codegen_<primitive>). The GPU machine builds and runs the Release build.
set(CMAKE_CUDA_FLAGS_INIT "-G")
# Set before CMake's CUDA and CXX modules fill these in with -O3 (a cache entry they then keep).
set(CMAKE_CUDA_FLAGS_RELEASE "-DNDEBUG" CACHE STRING "CI: no host optimization")
set(CMAKE_CXX_FLAGS_RELEASE "-DNDEBUG" CACHE STRING "CI: no optimization")
