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
#else
#if defined(GPUPRIMS_CATCH_RUNNER)
#define CATCH_CONFIG_RUNNER
#endif
#include <catch2/catch.hpp>
#endif
