// Catch2 shim: the tests are written once against the API common to Catch2 v3 (preferred) and v2
// (the only one Debian 12 ships). Define GPUPRIMS_CATCH_RUNNER before including it in the one file
// that defines main().
#pragma once

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>
#if defined(GPUPRIMS_CATCH_RUNNER)
#include <catch2/catch_session.hpp>
#endif
// Catch2 v3 wraps every assertion in `_Pragma("nv_diagnostic push/pop")` under nvcc. Test sources
// with many templated assertions never finished compiling with them on the GPU machine (CUDA 13.0,
// Catch2 3.4); the assertions expand these macros where they are used, so emptying them here
// removes the pragmas from every test. GPUPRIMS_CATCH_KEEP_NV_PRAGMAS keeps them (for diagnosis).
#if defined(__CUDACC__) && !defined(GPUPRIMS_CATCH_KEEP_NV_PRAGMAS)
#undef CATCH_INTERNAL_START_WARNINGS_SUPPRESSION
#undef CATCH_INTERNAL_STOP_WARNINGS_SUPPRESSION
#define CATCH_INTERNAL_START_WARNINGS_SUPPRESSION
#define CATCH_INTERNAL_STOP_WARNINGS_SUPPRESSION
#endif
#else
#if defined(GPUPRIMS_CATCH_RUNNER)
#define CATCH_CONFIG_RUNNER
#endif
#include <catch2/catch.hpp>
#endif
