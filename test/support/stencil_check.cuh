// The stencil tests' checking code: a boundary rule written independently of the library, and
// check_stencil, which runs a launch on fresh random inputs into a poisoned output and compares
// every output with a double CPU reference and every padding element with poison.
#pragma once

#include <gpuprims/types.cuh>

#include "support/test_support.cuh"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace gpuprims::test {

using gpuprims::boundary;
using gpuprims::boundary_mode;

// A launch with apply_stencil1d's batched arguments (rows, cols, pitches).
template <int Rad, class T>
using stencil_launch = cudaError_t (*)(const T* in, T* out, std::size_t rows, std::size_t cols,
                                       std::size_t in_pitch, std::size_t out_pitch,
                                       const gpuprims::stencil_weights<T, Rad>& w, boundary b);

inline const char* mode_name(boundary_mode m) {
  switch (m) {
    case boundary_mode::constant:
      return "constant";
    case boundary_mode::clamp:
      return "clamp";
    case boundary_mode::periodic:
      return "periodic";
    default:
      return "mirror";
  }
}

// The boundary rule, written independently of the library: walk the reflections one at a time.
template <class T>
double reference_at(const T* row, std::int64_t g, std::int64_t n, const boundary& b) {
  if (g >= 0 && g < n) {
    return static_cast<double>(row[g]);
  }
  switch (b.mode) {
    case boundary_mode::constant:
      return static_cast<double>(static_cast<T>(b.value));
    case boundary_mode::clamp:
      return static_cast<double>(row[g < 0 ? 0 : n - 1]);
    case boundary_mode::periodic:
      return static_cast<double>(row[((g % n) + n) % n]);
    default:
      while (g < 0 || g >= n) {
        if (n == 1) {
          g = 0;
        } else if (g < 0) {
          g = -g;
        } else {
          g = 2 * (n - 1) - g;
        }
      }
      return static_cast<double>(row[g]);
  }
}

struct stencil_layout {
  std::size_t n, rows, in_pitch, out_pitch, in_offset,
      out_offset;  // pitches and offsets in elements
};

// One launch on fresh random inputs into a poisoned output; every output against the reference,
// every padding element and guard still poisoned.
template <int Rad, class T>
void check_stencil(stencil_launch<Rad, T> run, const char* name, const stencil_layout& l,
                   const boundary& b) {
  INFO(name << ", Rad " << Rad << ", " << sizeof(T) << "-byte, n = " << l.n << ", rows = " << l.rows
            << ", pitches " << l.in_pitch << "/" << l.out_pitch << ", offsets " << l.in_offset
            << "/" << l.out_offset << ", boundary " << mode_name(b.mode) << " " << b.value);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  gpuprims::stencil_weights<T, Rad> w{};
  for (int j = 0; j <= 2 * Rad; ++j) {
    w.w[j] = static_cast<T>(dist(rng()));
  }
  const std::size_t in_count = l.in_offset + (l.rows - 1) * l.in_pitch + l.n;
  const std::size_t out_count =
      l.out_offset + (l.rows - 1) * l.out_pitch + l.n + 8;  // 8 guard elements
  std::vector<T> in(in_count);
  for (T& x : in) {
    x = static_cast<T>(dist(rng()));
  }
  device_buffer d_in(in_count * sizeof(T)), d_out(out_count * sizeof(T));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(d_in.data(), in.data(), in_count * sizeof(T), cudaMemcpyHostToDevice));
  d_out.poison();
  GPUPRIMS_CHECK_CUDA(run(reinterpret_cast<const T*>(d_in.data()) + l.in_offset,
                          reinterpret_cast<T*>(d_out.data()) + l.out_offset, l.rows, l.n,
                          l.in_pitch, l.out_pitch, w, b));
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> bytes = d_out.download();
  std::vector<T> out(out_count);
  std::memcpy(out.data(), bytes.data(), out_count * sizeof(T));

  std::size_t bad = 0, first_bad = 0;
  double bad_got = 0, bad_want = 0;
  for (std::size_t r = 0; r < l.rows; ++r) {
    const T* row = in.data() + l.in_offset + r * l.in_pitch;
    for (std::size_t i = 0; i < l.n; ++i) {
      double want = 0, magnitude = 0;
      for (int j = 0; j <= 2 * Rad; ++j) {
        const double term =
            static_cast<double>(w.w[j]) * reference_at(row, static_cast<std::int64_t>(i) - Rad + j,
                                                       static_cast<std::int64_t>(l.n), b);
        want += term;
        magnitude += std::fabs(term);
      }
      const double got = static_cast<double>(out[l.out_offset + r * l.out_pitch + i]);
      const double bound = (2 * Rad + 2) * std::numeric_limits<T>::epsilon() * magnitude + 1e-30;
      if (!(std::fabs(got - want) <= bound)) {
        if (bad++ == 0) {
          first_bad = r * l.n + i;
          bad_got = got;
          bad_want = want;
        }
      }
    }
  }
  INFO(bad << " wrong outputs; first: row-major index " << first_bad << " got " << bad_got
           << ", want " << bad_want);
  CHECK(bad == 0);
  // Nothing written outside the outputs: before the first row, between rows, after the last.
  std::vector<unsigned char> written(out_count, 0);
  for (std::size_t r = 0; r < l.rows; ++r) {
    std::memset(written.data() + l.out_offset + r * l.out_pitch, 1, l.n);
  }
  std::size_t stray = 0;
  for (std::size_t e = 0; e < out_count; ++e) {
    if (!written[e] && first_unpoisoned(bytes.data() + e * sizeof(T), sizeof(T)) != sizeof(T)) {
      ++stray;
    }
  }
  INFO(stray << " elements written outside the outputs");
  CHECK(stray == 0);
}

inline const boundary modes[] = {boundary::constant(), boundary::constant(0.75), boundary::clamp(),
                                 boundary::periodic(), boundary::mirror()};

// Every boundary rule on sizes around the radius and the tile, batches with odd and aligned
// pitches, unaligned input or output pointers.
template <int Rad, class T>
void check_small_sizes(stencil_launch<Rad, T> run, const char* name) {
  const std::size_t sizes[] = {1, 2, Rad, Rad + 1, 255, 256, 257};
  for (const boundary& b : modes) {
    for (std::size_t n : sizes) {
      check_stencil<Rad, T>(run, name, {n, 1, n, n, 0, 0}, b);
    }
    // Batches: odd pitches (rows after the first unaligned), aligned pitches with a partial last
    // tile, and unaligned input or output pointers.
    check_stencil<Rad, T>(run, name, {1000, 3, 1005, 1003, 0, 0}, b);
    check_stencil<Rad, T>(run, name, {2051, 3, 2056, 2060, 0, 0}, b);
    check_stencil<Rad, T>(run, name, {4099, 2, 4099, 4099, 1, 0}, b);
    check_stencil<Rad, T>(run, name, {4099, 2, 4099, 4099, 0, 3}, b);
  }
}

// A million elements: many full tiles between the two boundary tiles.
template <int Rad, class T>
void check_million(stencil_launch<Rad, T> run, const char* name) {
  for (const boundary& b : modes) {
    check_stencil<Rad, T>(run, name, {1000003, 1, 1000003, 1000003, 0, 0}, b);
  }
}

// The reference notes' example: the second derivative of sin(x) on 150 points of [0, 2 pi), weights
// (1, -2, 1) / h^2, periodic (sin is). The error is the discretisation error h^2 / 12 |sin''''|
// plus the rounding of the float inputs amplified by 4 / h^2.
inline void check_second_derivative(stencil_launch<1, float> run) {
  constexpr int n = 150;
  const double pi = 3.14159265358979323846;
  const double h = 2 * pi / n;
  std::vector<float> u(n);
  for (int i = 0; i < n; ++i) {
    u[i] = static_cast<float>(std::sin(i * h));
  }
  const auto inv_h2 = static_cast<float>(1 / (h * h));
  gpuprims::stencil_weights<float, 1> w{{inv_h2, -2 * inv_h2, inv_h2}};
  device_buffer d_in(n * sizeof(float)), d_out(n * sizeof(float));
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(d_in.data(), u.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  d_out.poison();
  GPUPRIMS_CHECK_CUDA(run(reinterpret_cast<const float*>(d_in.data()),
                          reinterpret_cast<float*>(d_out.data()), 1, n, n, n, w,
                          boundary::periodic()));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<float> d2(n);
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(d2.data(), d_out.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
  const double bound = h * h / 12 + 8 * std::numeric_limits<float>::epsilon() / (h * h);
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    worst = std::fmax(worst, std::fabs(d2[i] + std::sin(i * h)));
  }
  INFO("max |u'' + sin x| = " << worst << ", bound " << bound);
  CHECK(worst <= bound);
  CHECK(worst > 0);  // a real derivative, not a copy of -sin
}

}  // namespace gpuprims::test
