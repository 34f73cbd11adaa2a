// What the transpose benchmarks share (benchmark/device, ladder and experiments register into the
// same families, so that every row of a family is measured against the same baselines): the shapes
// of each family and the timed loop over one shape.
#pragma once

#include "support.cuh"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpuprims::bench {

struct shape {
  std::int64_t rows, cols, batch;
};

// The shapes of family transpose_<bytes>B: the quick set, or with --full every shape.
inline std::vector<shape> transpose_shapes(const options& opt, int bytes) {
  if (bytes != 4) {
    return {{8192, 8192, 1}};
  }
  if (!opt.full) {
    return {{2048, 512, 1}, {8192, 8192, 1}};
  }
  return {{2048, 512, 1},  {2048, 2048, 1},   {4096, 4096, 1},
          {8192, 8192, 1}, {16384, 16384, 1}, {1024, 1024, 64}};
}

inline arg_list transpose_args(const std::vector<shape>& shapes) {
  arg_list args;
  for (const shape& s : shapes) {
    args.push_back({s.rows, s.cols, s.batch});
  }
  return args;
}

inline const std::vector<std::string> transpose_arg_names = {"rows", "cols", "batch"};

// Checks a row's output once after its timed launches (all of which wrote the same bytes): the
// library's transposes are checked by the tests, a kernel of the benchmark's own is not.
template <class T>
using output_check = std::function<bool(const T* in, const T* out, const shape&)>;

template <class T>
using transpose_run = std::function<cudaError_t(const T*, T*, const shape&, cudaStream_t)>;

template <class T>
void transpose_bench(benchmark::State& state, const transpose_run<T>& run,
                     const output_check<T>& check = {}) {
  const shape s{state.range(0), state.range(1), state.range(2)};
  const std::size_t elements = static_cast<std::size_t>(s.rows * s.cols * s.batch);
  random_buffer in(elements * sizeof(T), 11);
  random_buffer out(elements * sizeof(T), 12);
  if (!in.ok() || !out.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  time_launches(state, 2 * elements * sizeof(T), [&](cudaStream_t stream) {
    skip_on_error(state, run(in.as<T>(), out.as<T>(), s, stream));
  });
  if (check && !state.error_occurred() && !check(in.as<T>(), out.as<T>(), s)) {
    state.SkipWithError("wrong output");
  }
}

// Registers `run` for every shape of family transpose_<sizeof(T)>B.
template <class T>
void add_transpose(const options& opt, const std::string& variant, role r, transpose_run<T> run,
                   output_check<T> check = {}) {
  const std::string family = "transpose_" + std::to_string(sizeof(T)) + "B";
  add(
      opt, family, variant, r,
      [run, check](benchmark::State& state) { transpose_bench<T>(state, run, check); },
      transpose_args(transpose_shapes(opt, static_cast<int>(sizeof(T)))), transpose_arg_names);
}

}  // namespace gpuprims::bench
