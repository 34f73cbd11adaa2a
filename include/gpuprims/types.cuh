// The public types every primitive shares: the reduction operators, and the stencils' boundary
// rules and run-time weights. Usable on the host and in device code.
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>
#include <cuda/std/limits>

namespace gpuprims {

// ---- operators -------------------------------------------------------------------------------

/// Binary operators with the accumulator type they reduce in (`value_type`) and their identity
/// element, `identity()`.
template <class T>
struct plus {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a + b; }
  __host__ __device__ static T identity() { return T(0); }
};
template <class T>
struct minimum {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; }
  /// +infinity where T has one, else T's largest value.
  __host__ __device__ static T identity() {
    using limits = cuda::std::numeric_limits<T>;
    if constexpr (limits::has_infinity) {
      return limits::infinity();
    } else {
      return limits::max();
    }
  }
};
template <class T>
struct maximum {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
  /// -infinity where T has one, else T's lowest value.
  __host__ __device__ static T identity() {
    using limits = cuda::std::numeric_limits<T>;
    if constexpr (limits::has_infinity) {
      return -limits::infinity();
    } else {
      return limits::lowest();
    }
  }
};
template <class T>
struct bit_and {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a & b; }
  __host__ __device__ static T identity() { return static_cast<T>(~T(0)); }
};
template <class T>
struct bit_or {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a | b; }
  __host__ __device__ static T identity() { return T(0); }
};
template <class T>
struct bit_xor {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a ^ b; }
  __host__ __device__ static T identity() { return T(0); }
};

// ---- stencils ----------------------------------------------------------------------------------

/// What a stencil reads at positions outside [0, n).
enum class boundary_mode {
  constant,  ///< a fixed value (zero by default)
  clamp,     ///< the nearest end: in[0] before the start, in[n - 1] past the end
  periodic,  ///< in[i mod n]
  mirror,    ///< reflected about the end elements without repeating them: in[-1] = in[1], in[n] =
             ///< in[n - 2]
};

/// A boundary rule: boundary::clamp(), boundary::periodic(), boundary::mirror() or
/// boundary::constant(v), on the host or in a kernel; the default is constant zero.
struct boundary {
  boundary_mode mode = boundary_mode::constant;
  double value = 0;  ///< for constant; converted to the element type

  __host__ __device__ static constexpr boundary constant(double v = 0) {
    return {boundary_mode::constant, v};
  }
  __host__ __device__ static constexpr boundary clamp() { return {boundary_mode::clamp, 0}; }
  __host__ __device__ static constexpr boundary periodic() { return {boundary_mode::periodic, 0}; }
  __host__ __device__ static constexpr boundary mirror() { return {boundary_mode::mirror, 0}; }
};

/// Stencil weights given at run time: w[j] multiplies in[i - Rad + j], j in [0, 2 Rad]. Passed to
/// the kernel by value (kernel parameters live in the constant bank: as fast as __constant__
/// memory, and safe when several streams use different weights). Weights known at compile time can
/// be any type with `static constexpr int radius` and a constexpr `operator[](int) const`; the
/// compiler then folds them.
template <class T, int Rad>
struct stencil_weights {
  static constexpr int radius = Rad;
  T w[2 * Rad + 1];
  __host__ __device__ constexpr T operator[](int j) const { return w[j]; }
};

}  // namespace gpuprims
